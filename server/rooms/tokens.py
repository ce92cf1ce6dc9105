"""Seat tokens as they are kept: hashed, so that a copy of the store does not hand out seats. A module of its own,
interpreted, beside the compiled room that calls it."""
from __future__ import annotations

import hashlib

__all__ = ["hash_token"]


def hash_token(token: str) -> str:
    """The digest a seat's token is stored and checked as."""
    return hashlib.sha256(token.encode()).hexdigest()
