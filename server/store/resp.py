"""Redis commands in RESP, the form Redis reads them in, as hiredis' ``pack_command`` writes them.

Compiled with the engine (``engine/_compiled.py``), :func:`pack` takes about a third of hiredis' time for a batch of
commits: hiredis copies every argument into a string of its own and formats each length with ``sprintf``, about
110 ns an argument and 1.4 ns a byte, where this joins the arguments with lengths written once at import. Interpreted,
it is slower than hiredis, and ``server/store/link.py`` packs with hiredis (:data:`COMPILED`).
"""
from __future__ import annotations

import types
from typing import Any, Final

__all__ = ["COMPILED", "pack"]

_KNOWN: Final = 1024
"""Lengths, counts and integers below this are written from the tables below, made once."""
_LENGTHS: Final = [b"$%d\r\n" % n for n in range(_KNOWN)]
_COUNTS: Final = [b"*%d\r\n" % n for n in range(_KNOWN)]
_INTS: Final = [b"%d" % n for n in range(_KNOWN)]
_CRLF: Final = b"\r\n"


def _bulk(arg: Any) -> bytes:
    """A command's argument other than bytes as the bytes hiredis sends for it: a str in UTF-8, an int or a float
    as its ``repr``; anything else (a bool, None) is refused as hiredis refuses it."""
    if isinstance(arg, str):
        return arg.encode()
    if isinstance(arg, int) and not isinstance(arg, bool):
        return _INTS[arg] if 0 <= arg < _KNOWN else repr(arg).encode()
    if isinstance(arg, float):
        return repr(arg).encode()
    if isinstance(arg, memoryview):
        return arg.tobytes()
    raise TypeError(f"a Redis command's arguments are str, int, float or bytes, not {type(arg).__name__}")


def pack(commands: list[tuple[Any, ...]]) -> bytes:
    """``commands`` (each a tuple of its name and arguments) in RESP, one after the other."""
    parts: list[bytes] = []
    for command in commands:
        count = len(command)
        parts.append(_COUNTS[count] if count < _KNOWN else b"*%d\r\n" % count)
        for arg in command:
            data: bytes = arg if isinstance(arg, bytes) else _bulk(arg)
            size = len(data)
            parts.append(_LENGTHS[size] if size < _KNOWN else b"$%d\r\n" % size)
            parts.append(data)
            parts.append(_CRLF)
    return b"".join(parts)


COMPILED: Final[bool] = not isinstance(pack, types.FunctionType)
"""Whether this module runs compiled (its functions are then native, not Python functions). (Its type written out,
as :data:`server.store.keys.NODES`'s is.)"""
