"""The server reads a client's frames itself once the handshake is done (server/edge/connection.py
``Socket._read_frames``): requests split anywhere across TCP segments, or many in one, are read whole and in order;
pings, fragments, text and close frames still reach websockets' own parser between them, and a frame too large, or
unmasked, fails the connection as websockets fails it."""
from __future__ import annotations

import asyncio
import base64
import os
import struct
from typing import Any
from urllib.parse import urlparse

import msgpack
import pytest

from protocol.messages import MAX_FRAME, PROTOCOL_VERSION
from server.edge import connection


def _frame(payload: bytes, opcode: int = 0x2, fin: bool = True, masked: bool = True) -> bytes:
    """One client frame (masked, as a client must mask them) in RFC 6455's layout."""
    head = bytes([(0x80 if fin else 0) | opcode])
    size = len(payload)
    bit = 0x80 if masked else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _request(kind: str, rid: int, **fields: Any) -> bytes:
    return _frame(msgpack.packb({"t": kind, "id": rid, **fields}))


class Raw:
    """A websocket client written by hand: the handshake, then frames as the test writes them, byte by byte if need be."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str) -> Raw:
        where = urlparse(url)
        reader, writer = await asyncio.wait_for(asyncio.open_connection(where.hostname, where.port), 5)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET / HTTP/1.1\r\nHost: {where.hostname}:{where.port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        status = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert status.startswith(b"HTTP/1.1 101"), status
        return cls(reader, writer)

    async def send(self, data: bytes, pieces: int = 1) -> None:
        """Write ``data`` in ``pieces`` writes, each drained (so each is likely a segment of its own)."""
        step = max(1, -(-len(data) // pieces))
        for at in range(0, len(data), step):
            self.writer.write(data[at:at + step])
            await self.writer.drain()
            if pieces > 1:
                await asyncio.sleep(0.002)

    async def frame(self) -> tuple[int, bytes]:
        """The next frame the server sends: its opcode and payload (the server never masks)."""
        head = await asyncio.wait_for(self.reader.readexactly(2), 10)
        size = head[1] & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return head[0] & 0x0F, await asyncio.wait_for(self.reader.readexactly(size), 10)

    async def reply(self, rid: int) -> dict[str, Any]:
        """The message that answers request ``rid`` (frames before it, pushes, are skipped)."""
        for _ in range(50):
            opcode, payload = await self.frame()
            if opcode == 0x2:
                message: dict[str, Any] = msgpack.unpackb(payload, raw=False, strict_map_key=False)
                if message.get("re") == rid:
                    return message
        raise AssertionError(f"no reply to request {rid}")

    async def close(self) -> None:
        self.writer.close()
        await asyncio.wait_for(self.writer.wait_closed(), 5)


async def _greeted(url: str) -> Raw:
    raw = await Raw.open(url)
    await raw.send(_request("hello", 1, v=PROTOCOL_VERSION, name="raw"))
    assert (await raw.reply(1))["t"] == "welcome"
    return raw


async def test_requests_split_anywhere_or_many_in_one_write_are_read_whole_and_in_order(server_url: str) -> None:
    raw = await _greeted(server_url)
    try:
        padded = _request("list_rooms", 2, pad="x" * 300)  # a 16-bit length, split inside its header and its mask
        await raw.send(padded, pieces=len(padded))
        assert (await raw.reply(2))["t"] == "rooms"
        await raw.send(b"".join(_request("list_rooms", n) for n in range(3, 9)))
        assert [(await raw.reply(n))["t"] for n in range(3, 9)] == ["rooms"] * 6
        both = _request("list_rooms", 9) + _request("list_rooms", 10)
        await raw.send(both, pieces=3)  # the second request's first bytes come with the first's last
        assert (await raw.reply(9))["t"] == "rooms" and (await raw.reply(10))["t"] == "rooms"
    finally:
        await raw.close()


async def test_pings_fragments_and_text_between_requests_reach_websockets_parser(server_url: str) -> None:
    raw = await _greeted(server_url)
    try:
        await raw.send(_frame(b"are you there", opcode=0x9) + _request("list_rooms", 2))
        assert await raw.frame() == (0xA, b"are you there")  # the pong comes before the reply: frames stay in order
        assert (await raw.reply(2))["t"] == "rooms"
        message = msgpack.packb({"t": "list_rooms", "id": 3})
        fragments = (_frame(message[:4], fin=False) + _frame(message[4:9], opcode=0x0, fin=False)
                     + _frame(message[9:], opcode=0x0))
        await raw.send(fragments + _request("list_rooms", 4), pieces=5)
        assert (await raw.reply(3))["t"] == "rooms" and (await raw.reply(4))["t"] == "rooms"
        await raw.send(_frame(b"{}", opcode=0x1) + _request("list_rooms", 5))
        opcode, payload = await raw.frame()
        assert opcode == 0x2 and msgpack.unpackb(payload)["code"] == "bad_frame"
        assert (await raw.reply(5))["t"] == "rooms"
        await raw.send(_frame(struct.pack("!H", 1000) + b"bye", opcode=0x8))
        assert await raw.frame() == (0x8, struct.pack("!H", 1000) + b"bye")  # the close echoed: a clean close
    finally:
        await raw.close()


@pytest.mark.parametrize("bad", ["too_large", "unmasked"])
async def test_a_frame_too_large_or_unmasked_fails_the_connection(server_url: str, bad: str) -> None:
    raw = await _greeted(server_url)
    try:
        if bad == "too_large":
            await raw.send(b"\x82\xff" + struct.pack("!Q", 64 * MAX_FRAME * 16) + os.urandom(4))  # refused unread
            code = 1009
        else:
            await raw.send(_frame(msgpack.packb({"t": "list_rooms", "id": 2}), masked=False))
            code = 1002
        opcode, payload = await raw.frame()
        assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == code
    finally:
        await raw.close()



async def test_a_first_frame_split_after_its_first_two_bytes_is_read_whole(server_url: str) -> None:
    """websockets' parser reads the first frames after the handshake; this class takes over only where that parser
    waits for a frame's first byte. Here it has read a frame's first two bytes when they come alone, and the next two
    (the length, 0x82A0) would read as a binary frame's first two if this class took over there."""
    raw = await Raw.open(server_url)
    try:
        body = msgpack.packb({"t": "list_rooms", "id": 1, "pad": ""})
        message = msgpack.packb({"t": "list_rooms", "id": 1, "pad": "x" * (0x82A0 - len(body) - 2)})
        assert len(message) == 0x82A0
        frame = _frame(message)
        await raw.send(frame[:2])
        await asyncio.sleep(0.2)  # read by then: the rest comes in a segment of its own
        await raw.send(frame[2:])
        assert (await raw.reply(1))["code"] == "hello_first"  # the whole request read, and answered
        await raw.send(_request("hello", 2, v=PROTOCOL_VERSION, name="raw"))
        assert (await raw.reply(2))["t"] == "welcome"
    finally:
        await raw.close()


def test_the_parser_is_seen_waiting_for_a_frame_s_first_byte_only_between_frames() -> None:
    """What ``at_frame_start`` reads of websockets' parser (its generators, its reader's buffer): if a websockets
    release changed them, requests would all go through websockets' parser again, slower and unnoticed."""
    from websockets.protocol import State
    from websockets.server import ServerProtocol

    from protocol.framing import at_frame_start

    protocol = ServerProtocol()
    protocol.state = State.OPEN
    protocol.parser = protocol.parse()  # as after a handshake: frames next
    next(protocol.parser)
    assert at_frame_start(protocol)
    frame = _request("list_rooms", 1, pad="x" * 300)
    protocol.receive_data(frame[:2])  # a frame's first two bytes: its length and mask still to come
    assert not at_frame_start(protocol)
    protocol.receive_data(frame[2:])
    assert at_frame_start(protocol) and len(protocol.events_received()) == 1
    del protocol.current_size  # a websockets without what the server reads: it parses every frame itself
    assert not at_frame_start(protocol)


async def test_requests_reach_the_session_past_websockets_queue_and_in_order_with_what_it_reads(
        server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests go from this class's reading to the session's inbox (not websockets' queue and ``recv``) from the
    second one that finds websockets' queue empty (the first still goes there, to wake the session waiting on it);
    a frame websockets alone reads (text, here) ends that, after the requests the inbox holds: every request is
    answered in the order it came, those before the text frame, its refusal, those after."""
    put = 0
    real = connection.Inbox.put

    def counted(self: connection.Inbox, payload: bytes) -> None:
        nonlocal put
        put += 1
        real(self, payload)

    monkeypatch.setattr(connection.Inbox, "put", counted)
    raw = await _greeted(server_url)
    try:
        burst = (b"".join(_request("list_rooms", n) for n in range(2, 7)) + _frame(b"{}", opcode=0x1)
                 + b"".join(_request("list_rooms", n) for n in range(7, 10)))
        await raw.send(burst)
        answered = []
        while len(answered) < 9:
            opcode, payload = await raw.frame()
            message = msgpack.unpackb(payload, raw=False)
            if opcode == 0x2 and (message.get("re") is not None or message.get("code") == "bad_frame"):
                answered.append(message.get("re") if message["t"] == "rooms" else message["code"])
        assert answered == [2, 3, 4, 5, 6, "bad_frame", 7, 8, 9]
        assert put == 4, "requests 3 to 6 (2 opened the inbox) went through websockets' queue"
    finally:
        await raw.close()


class _Transport:
    def __init__(self) -> None:
        self.reading = True

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return False


async def test_an_inbox_pauses_reading_while_it_holds_more_than_websockets_would_queue() -> None:
    socket: Any = type("S", (), {})()
    socket.transport = _Transport()
    socket.loop = asyncio.get_running_loop()
    socket.recv_messages = type("Q", (), {"high": 4, "low": 1})()
    inbox = connection.Inbox(socket)
    for n in range(4):
        inbox.put(bytes([n]))
    assert socket.transport.reading
    inbox.put(b"\x04")
    assert not socket.transport.reading, "more held than the high-water mark, and the socket still read"
    assert [await inbox.take() for _ in range(3)] == [b"\x00", b"\x01", b"\x02"]
    assert not socket.transport.reading
    assert await inbox.take() == b"\x03"
    assert socket.transport.reading, "down to the low-water mark, and reading still paused"
    waiting = asyncio.ensure_future(asyncio.gather(inbox.take(), inbox.take()))
    await asyncio.sleep(0)
    inbox.close()
    assert await asyncio.wait_for(waiting, 1) == [b"\x04", None]
