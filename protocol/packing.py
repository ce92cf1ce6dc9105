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
from typing import Any, Protocol

import msgpack

__all__ = ["Shared", "pack", "packer", "shared"]


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


def _native() -> Callable[[Callable[[Any], bytes]], Any] | None:
    """``protocol._cpack``'s Packer (made with its fallback) when the compiled build holds it, else None."""
    try:
        from protocol._cpack import Packer
    except ImportError:
        return None
    return Packer


_NATIVE = _native()


class Shared(Protocol):
    """What the frames of one broadcast are packed with (:func:`shared`): a map or list several of them hold (the very
    same object: the events every seat is told alike, the clocks, the cards both seats' deltas add to the pile) is
    packed once and its bytes copied after. What was packed must not change until :meth:`close`, which lets go of
    it: a broadcast makes one and closes it at its end."""

    def pack(self, value: Any, /) -> bytes: ...

    def close(self) -> None: ...


class _Whole:
    """A broadcast's packer without the compiled build: each frame packed whole by :data:`pack`, to the same bytes."""

    def pack(self, value: Any, /) -> bytes:
        return pack(value)

    def close(self) -> None:
        pass


def shared() -> Shared:
    """A packer for one broadcast's frames: ``protocol._cpack``'s (a value it does not take, a map with keys other
    than str say, is packed by :data:`pack` as ever) when the compiled build has it, else :class:`_Whole`. The
    compiled room calls the C packer itself, with no Python method between them."""
    if _NATIVE is not None:
        made: Shared = _NATIVE(pack)
        return made
    return _Whole()
