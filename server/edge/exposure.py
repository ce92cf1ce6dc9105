"""Who may reach the server: the web origins whose pages may open a websocket to it, and whether it may
listen in plain ``ws://`` beyond loopback (TLS is terminated at the deployment's reverse proxy)."""
from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from websockets.typing import Origin

__all__ = ["PlainRefused", "allow_plain_default", "check_bind", "foreign", "loopback", "origins", "origins_default",
           "same_origin"]


class PlainRefused(Exception):
    """The server was asked to listen in plain ``ws://`` on an address other hosts can reach."""


def origins_default() -> list[str]:
    """The origins of CARDROOM_ORIGINS (separated by commas or spaces)."""
    return os.environ.get("CARDROOM_ORIGINS", "").replace(",", " ").split()


def allow_plain_default() -> bool:
    """CARDROOM_ALLOW_PLAIN=1: plain ``ws://`` on any address."""
    return os.environ.get("CARDROOM_ALLOW_PLAIN", "") in ("1", "true", "yes")


def origins(allowed: Iterable[str]) -> Sequence[Origin | None]:
    """What websockets' ``serve(origins=...)`` accepts: no ``Origin`` header (a client that is not a browser)
    and each allowed origin; any other ``Origin`` (a page of another site: cross-site websocket hijacking)
    is refused with 403 before the handshake completes."""
    return [None, *(Origin(origin.rstrip("/")) for origin in allowed)]


def foreign(origin: str | None, accepted: Sequence[Origin | None]) -> bool:
    """Whether a handshake's ``Origin`` header is one the server refuses."""
    return origin not in accepted


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a handshake comes from a page of the node's own address (the browser client it serves): the
    ``Origin``'s host and port are the ``Host`` the browser sent, so a page of another site never passes."""
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and not parts.path and parts.netloc.lower() == host.strip().lower()


def loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_bind(host: str, allow_plain: bool) -> None:
    """Refuse plain ``ws://`` beyond loopback unless told it is meant (a reverse proxy terminates TLS in front)."""
    if not allow_plain and not loopback(host):
        raise PlainRefused(
            f"cardroom: refusing to serve plain ws:// on {host or 'every address'}: players' seat tokens would cross "
            "the network unencrypted. Terminate TLS at a reverse proxy (wss:// to it, ws:// from it to this server) "
            "and pass --allow-plain (or CARDROOM_ALLOW_PLAIN=1) to say so; or serve on 127.0.0.1."
        )
