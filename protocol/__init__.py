"""The wire protocol: msgpack maps in binary websocket frames, versioned.

See docs/protocol.md for every message, field and error code.
"""
from __future__ import annotations

# first: ``import engine`` puts the compiled build's importer in place (engine/_compiled.py), so that protocol.delta,
# compiled with the engine, loads from the build whenever it is fresh, whatever a process imports first
import engine.errors  # noqa: F401
from protocol.codec import Fields, decode, decode_any, decode_frame, encode, error
from protocol.errors import ErrorCode, ProtocolError
from protocol.messages import CLIENT_MESSAGES, MAX_FRAME, PROTOCOL_VERSION, SERVER_MESSAGES

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "ErrorCode",
    "Fields",
    "ProtocolError",
    "decode",
    "decode_any",
    "decode_frame",
    "encode",
    "error",
]
