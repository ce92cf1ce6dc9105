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

__all__ = ["Shared", "pack", "packer"]


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


def _native() -> Callable[[], Any] | None:
    """``protocol._cpack``'s Packer when the compiled build holds it, else None."""
    try:
        from protocol._cpack import Packer
    except ImportError:
        return None
    return Packer


_NATIVE = _native()


class Shared:
    """What the frames of one broadcast are packed with: a map or list several of them hold (the very same object:
    the events every seat is told alike, the clocks, the cards both seats' deltas add to the pile) is packed once and
    its bytes copied after (``protocol._cpack``, when the compiled build has it; else each frame is packed whole by
    :data:`pack`, to the same bytes). What was packed must not change until :meth:`close`, which lets go of it: a
    broadcast makes one and closes it at its end."""

    def __init__(self) -> None:
        self._packer = _NATIVE() if _NATIVE is not None else None

    def pack(self, value: Any) -> bytes:
        if self._packer is not None:
            packed: bytes | None = self._packer.pack(value)
            if packed is not None:
                return packed
        return pack(value)  # a value the C packer does not take (keys other than str, say): packed as ever

    def close(self) -> None:
        if self._packer is not None:
            self._packer.close()
