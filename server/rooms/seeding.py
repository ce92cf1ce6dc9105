"""Where a match's seed comes from: the server's salted secret, committed to at creation, mixed with
a nonce from every seated player, so that neither the server nor any one player picks the deal.

The scheme (docs/protocol.md, "Seeds: nobody alone picks the deal"):

- the server's secret is ``server_seed`` (63 random bits) and ``salt`` (128 random bits, 32 hex
  digits); the room publishes ``sha256("cardroom:v2:" + room + ":" + decimal server_seed + ":" + salt)``
  at creation, before any player has sent anything;
- each seat's claim brings a ``nonce`` (the server picks one for a seat that sent none);
- once every seat is taken, the match seed is the first 8 bytes (big-endian) of
  ``sha256("cardroom:v2:seed:" + decimal server_seed + ":" + salt + (":" + sha256_hex(nonce)) per seat)``,
  shifted right by one; the deal is set up from it then, and not before;
- a room with a chosen ``seed`` or a daily room is ``fixed``: its seed is the server seed itself.
"""
from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

__all__ = ["FIXED", "MAX_NONCE", "PLACEHOLDER_SEED", "PLAYERS", "commitment", "derive", "new_nonce", "new_salt",
           "nonce_of"]

PLAYERS = "players"
"""The seed is derived from the server's secret and every seat's nonce."""
FIXED = "fixed"
"""The seed is the server seed itself: a chosen seed (tests, scenarios, replays) or a daily room."""
MAX_NONCE = 64
"""The longest nonce a player may send."""
PLACEHOLDER_SEED = 0
"""The seed of the placeholder state a room holds until its deal is set up: it is never shown."""


def commitment(room: str, server_seed: int, salt: str) -> str:
    """Published at creation, revealed at the end: the server's secret was fixed before anyone joined."""
    return hashlib.sha256(f"cardroom:v2:{room}:{server_seed}:{salt}".encode()).hexdigest()


def derive(server_seed: int, salt: str, nonces: Sequence[str]) -> int:
    """The match seed, 0..2**63-1, from the server's secret and every seat's nonce in seat order."""
    material = f"cardroom:v2:seed:{server_seed}:{salt}" + "".join(
        ":" + hashlib.sha256(nonce.encode()).hexdigest() for nonce in nonces)
    return int.from_bytes(hashlib.sha256(material.encode()).digest()[:8], "big") >> 1


def new_salt() -> str:
    """128 random bits as 32 lowercase hex digits."""
    return secrets.token_hex(16)


def new_nonce() -> str:
    """A nonce for a seat that sent none (its player then relies on the other seats and the server)."""
    return secrets.token_hex(16)


def nonce_of(sent: object) -> str:
    """The nonce a seat contributes: what it sent, or one the server picks when it sent none (or "")."""
    return sent if isinstance(sent, str) and sent else new_nonce()
