"""Fuzzing a live server (10,000 examples): every message type with type-confused, missing and extra fields, and raw garbage.

The server must stay healthy; every reply must be a well-formed message, an error must carry a stable
code other than ``internal``, and the request id whenever the id could be read.
"""
from __future__ import annotations

import asyncio
import random
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
import websockets.asyncio.connection
import websockets.sync.connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

import server.edge.session
from protocol import CLIENT_MESSAGES, PROTOCOL_VERSION, ErrorCode, decode_any, encode
from protocol.messages import Field
from server.edge.app import run
from server.store.redis_process import RedisProcess

pytestmark = pytest.mark.slow

CODES = {code.value for code in ErrorCode} - {ErrorCode.INTERNAL.value}
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1), st.floats(allow_nan=False),
    st.text(max_size=12), st.binary(max_size=12),
)
ANY = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                   max_leaves=12)
WELL_TYPED: dict[type, st.SearchStrategy[Any]] = {
    int: st.integers(min_value=-5, max_value=2**63),
    str: st.one_of(st.sampled_from(["creature_wars", "fairy_meat", "fairy_tableau", "queens_challenge", "r1"]),
                   st.text(max_size=70)),
    bool: st.booleans(),
    list: st.one_of(st.lists(st.text(max_size=30), max_size=4), st.lists(SCALARS, max_size=4)),  # an invite list
    dict: st.one_of(st.dictionaries(st.text(max_size=8), SCALARS, max_size=4),
                    st.sampled_from([{"kind": "play", "slot": 0}, {"kind": "timeout"}, {"hp": 5}, {}]),
                    st.fixed_dictionaries({"kind": ANY}, optional={"slot": ANY, "answer": ANY})),  # a decision of any shape
}


def field_value(field: Field) -> st.SearchStrategy[Any]:
    """Right type (most often) or any value at all: type confusion."""
    return st.one_of(WELL_TYPED[field.kind], WELL_TYPED[field.kind], ANY)


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a known type with each field present or not, well- or ill-typed, plus stray keys."""
    kind = draw(st.sampled_from(sorted(CLIENT_MESSAGES)))
    message: dict[str, Any] = {"t": kind, "id": draw(st.one_of(st.integers(0, 2**31), st.integers(0, 2**31), ANY))}
    for field in CLIENT_MESSAGES[kind]:
        if draw(st.integers(0, 9)) > 0:
            message[field.name] = draw(field_value(field))
    message.update(draw(st.dictionaries(st.text(max_size=6), SCALARS, max_size=2)))
    return message


@pytest.fixture(scope="module")
def fuzz_url(redis_process: RedisProcess) -> Iterator[str]:
    """A server on its own thread and loop, with the rate limit lifted (the fuzzer sends as fast as it can)."""
    loop = asyncio.new_event_loop()
    found: dict[str, Any] = {}
    started = threading.Event()

    async def main() -> None:
        stop = asyncio.Event()
        found["stop"] = stop
        ready: asyncio.Future[tuple[str, int]] = loop.create_future()
        task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=redis_process.url, ready=ready, stop=stop))
        host, port = await ready
        found["url"] = f"ws://{host}:{port}"
        started.set()
        await task

    with pytest.MonkeyPatch.context() as patch:
        # a keepalive ping draws its payload from random's shared generator, which Hypothesis watches while it makes an
        # example (a ping of the server's thread then warns "do not use the random module inside strategies"): the
        # connections' modules get a generator of their own
        for module in (websockets.asyncio.connection, websockets.sync.connection):
            patch.setattr(module, "random", random.Random())
        patch.setattr(server.edge.session, "RATE", 1e9)
        patch.setattr(server.edge.session, "BURST", 1e9)
        thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
        thread.start()
        assert started.wait(15), "the fuzzed server did not start"
        yield found["url"]
        loop.call_soon_threadsafe(found["stop"].set)
        thread.join(15)
    loop.close()


@pytest.fixture(scope="module")
def fuzz_client(fuzz_url: str) -> Iterator[ClientConnection]:
    with connect(fuzz_url, max_size=2**24, compression=None) as ws:
        ws.send(encode({"t": "hello", "id": 0, "v": PROTOCOL_VERSION}))
        assert decode_any(ws.recv(timeout=10))["t"] == "welcome"
        yield ws


def answer(ws: ClientConnection, frame: bytes, rid: int | None) -> dict[str, Any]:
    """Send a frame; the reply that answers it (frames for earlier requests are checked and skipped)."""
    ws.send(frame)
    for _ in range(50):
        reply = decode_any(ws.recv(timeout=10))
        assert isinstance(reply.get("t"), str), reply
        if reply["t"] == "error":
            assert reply["code"] in CODES, reply
            assert isinstance(reply["message"], str) and reply["message"]
        if rid is not None and reply.get("re") == rid:
            return reply
        if rid is None and reply["t"] == "error" and reply.get("re") is None:
            return reply
    raise AssertionError("no reply to the fuzzed frame")


def readable_id(message: dict[str, Any]) -> int | None:
    rid = message.get("id")
    return rid if isinstance(rid, int) and not isinstance(rid, bool) and -(2**63) <= rid < 2**64 else None


@settings(max_examples=8000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages())
def test_type_confused_messages_get_a_reply_or_a_clear_error(fuzz_client: ClientConnection,
                                                              message: dict[str, Any]) -> None:
    rid = readable_id(message)
    reply = answer(fuzz_client, msgpack.packb(message, use_bin_type=True), rid)
    if reply["t"] == "error" and rid is not None:
        assert reply["re"] == rid


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=64), ANY.map(lambda v: msgpack.packb(v, use_bin_type=True))))
def test_garbage_frames_get_an_error(fuzz_client: ClientConnection, frame: bytes) -> None:
    try:
        message = msgpack.unpackb(frame, raw=False)
    except Exception:
        message = None
    rid = readable_id(message) if isinstance(message, dict) else None
    reply = answer(fuzz_client, frame, rid)
    assert reply["t"] == "error" or (isinstance(message, dict) and message.get("t") in CLIENT_MESSAGES)


def test_the_server_is_healthy_after_the_fuzzing(fuzz_url: str, fuzz_client: ClientConnection) -> None:
    with urllib.request.urlopen(fuzz_url.replace("ws://", "http://") + "/health", timeout=5) as response:
        assert response.status == 200
    reply = answer(fuzz_client, encode({"t": "list_rooms", "id": 424242}), 424242)
    assert reply["t"] == "rooms"
