"""Encoding and decoding of frames. ``decode`` returns a valid client message or raises
:class:`ProtocolError`, nothing else (websockets' fuzz-target contract)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Sized, cast

import msgpack

from protocol.errors import ErrorCode, ProtocolError
from protocol.messages import CLIENT_MESSAGES, MAX_FRAME
from protocol.packing import pack

__all__ = ["Fields", "decode", "decode_any", "decode_frame", "encode", "error"]

_packer = msgpack.Packer(use_bin_type=True)
_packb = _packer.pack
"""For :class:`Fields`' small values, which msgpack packs as fast (``pack``, for whole frames, calls on)."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as msgpack bytes."""
    return pack(message)


class Fields:
    """Fields of a message encoded once, for many messages that each add a few of their own: a msgpack map
    is its pair count followed by its pairs, so pairs encoded apart join into one map."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.names = frozenset(fields)
        self.pairs = b"".join(_packb(name) + _packb(value) for name, value in fields.items())

    def encode(self, **more: Any) -> bytes:
        """The message of these fields and ``more`` (none of them named here already)."""
        assert self.names.isdisjoint(more), "a field twice in one map"
        head: bytes = _packer.pack_map_header(len(self.names) + len(more))
        return head + self.pairs + b"".join(_packb(name) + _packb(value) for name, value in more.items())


def decode_any(data: bytes) -> dict[str, Any]:
    """A frame as a map, without checking it against the client table (the client side uses this)."""
    if len(data) > MAX_FRAME * 16:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE, f"frame of {len(data)} bytes is too large")
    try:
        message = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
    except Exception as exc:  # msgpack raises several types for malformed input
        raise ProtocolError(ErrorCode.BAD_FRAME, f"frame is not valid msgpack ({type(exc).__name__})") from None
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_FRAME, f"frame must be a msgpack map, not {type(message).__name__}")
    return message


def _unpacker() -> Callable[[bytes], Any]:
    """ormsgpack's unpacking where it is installed (half msgpack's time for a view frame), else :func:`decode_any`."""
    try:
        from ormsgpack import unpackb
    except ImportError:
        return decode_any
    return unpackb


_unpack_fast = _unpacker()


def decode_frame(data: bytes) -> dict[str, Any]:
    """A frame from the server as a map (what a client reads): :func:`decode_any`'s result, unpacked by ormsgpack
    where it is installed. What ormsgpack refuses (map keys other than str, ext types) goes to :func:`decode_any`,
    which takes or names it as it does any frame; bytes after the map, which msgpack refuses, ormsgpack leaves unread
    (a server's frame holds none)."""
    if len(data) > MAX_FRAME * 16:
        return decode_any(data)
    try:
        message = _unpack_fast(data)
    except Exception:  # ormsgpack raises MsgpackDecodeError (a ValueError), msgpack several kinds
        return decode_any(data)
    if not isinstance(message, dict):
        return decode_any(data)
    return message


def _id_of(message: dict[str, Any]) -> int | None:
    """The message's request id, if it has a usable one."""
    rid = message.get("id")
    return rid if isinstance(rid, int) and not isinstance(rid, bool) else None


def _request_id(data: bytes) -> int | None:
    """The id of an oversize frame, so its error can answer it: read when the frame is a map within the
    websocket limit (the connection already holds it in full), else ``None``."""
    try:
        return _id_of(decode_any(data))
    except ProtocolError:
        return None


def decode(data: bytes) -> dict[str, Any]:
    """A client frame, validated: known ``t``, an int ``id``, every field present and of its type."""
    if len(data) > MAX_FRAME:
        raise ProtocolError(ErrorCode.FRAME_TOO_LARGE, f"frame of {len(data)} bytes exceeds the limit of {MAX_FRAME}",
                            _request_id(data))
    message = decode_any(data)
    re = _id_of(message)
    kind = message.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_FIELD, "field 't' (the message type) must be a string", re)
    fields = CLIENT_MESSAGES.get(kind)
    if fields is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}", re)
    if re is None:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"{kind}: field 'id' must be an integer request id")
    for field in fields:
        if field.name not in message:
            if field.required:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"{kind}: missing field {field.name!r}", re)
            continue
        value = message[field.name]
        if not isinstance(value, field.kind) or (field.kind is int and isinstance(value, bool)):
            raise ProtocolError(
                ErrorCode.BAD_FIELD,
                f"{kind}: field {field.name!r} must be {field.kind.__name__}, not {type(value).__name__}",
                re,
            )
        if field.max_len and len(cast(Sized, value)) > field.max_len:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"{kind}: field {field.name!r} is longer than {field.max_len}", re)
    return message


def error(code: ErrorCode, message: str, re: int | None = None) -> bytes:
    """An encoded ``error`` message."""
    return encode({"t": "error", "code": code.value, "message": message, "re": re})
