"""Packing what the server sends and logs as msgpack: ``ormsgpack`` (in Rust) where it is installed, a third of
msgpack's time for a view frame and the same bytes, else ``msgpack``. For whole frames and records: for a small
value the call to it costs as much as msgpack's packing.

Both pack every value the protocol holds alike (maps with str or int keys, lists and tuples as arrays, str, bytes
as bin, ints of up to 64 bits in their smallest form, floats as 64-bit, bools, None): tests/protocol/test_packing.py
checks that they give the same bytes, and that every state of random matches of each game does: a snapshot's digest
is taken of these bytes, which a verifier's msgpack gives as well.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack

__all__ = ["pack", "packer"]


def packer(fast: bool = True) -> Callable[[Any], bytes]:
    """A function packing one value: ormsgpack's when ``fast`` and installed, else msgpack's."""
    slow: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack
    if not fast:
        return slow
    try:
        from ormsgpack import packb
    except ImportError:
        return slow

    def pack(value: Any) -> bytes:
        try:
            return packb(value)
        except TypeError:  # a map with keys other than str, which ormsgpack takes only with an option that costs
            return slow(value)  # a fifth of a small value's time: msgpack packs it (a value neither packs fails)

    return pack


pack = packer()
"""Pack one value (``ormsgpack`` where installed)."""
