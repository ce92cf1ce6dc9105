"""Fan-out: one Creature Wars match watched by many spectators; how long until the last one holds each version.

    python -m bench.load --spawn --fanout 1000 --duration 20

Two library clients play; every spectator is a bare websocket that only stamps each chunk's arrival
(parsing and decoding are left to after the run, so one client process can stand in for a thousand screens).
The players make one decision at a time and wait (bounded) until every spectator has received a frame
after it, so versions do not overlap. Prints, per decision: decide sent -> the deciding seat's reply,
and decide sent -> the last spectator's frame of that version.
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import random
import time
from typing import Any, cast

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from bench import check_loopback, cpu_of, format_cpu, loop_name, percentile
from client.connection import Client, Seat
from protocol import PROTOCOL_VERSION, decode_any, encode

__all__ = ["Watcher", "each_received", "fanout", "reached"]

SETTLE = 10.0
"""Seconds the players wait for every spectator to receive a decision's frame before going on anyway."""


class Watcher(asyncio.Protocol):
    """A spectator that stamps each chunk of bytes as it arrives and parses nothing until the run is over: a
    websocket of its own on a plain asyncio protocol (the handshake and its few sends by websockets' sans-I/O
    client), so that a thousand of them in one process cost it a few microseconds a frame, and the run measures
    the server's fan-out rather than this process's frame parsing."""

    def __init__(self, url: str) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.chunks: list[tuple[float, bytes]] = []
        """Bytes received after the handshake, with when each arrived."""
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    @classmethod
    async def open(cls, url: str, n: int) -> Watcher:
        host, port = check_loopback(url)
        _, watcher = await asyncio.get_running_loop().create_connection(functools.partial(cls, url), host, port)
        await asyncio.wait_for(watcher.opened, 30)
        watcher.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": f"fan{n}"}))
        for _ in range(int(30 / 0.005)):  # its welcome
            if watcher.chunks:
                return watcher
            await asyncio.sleep(0.005)
        raise TimeoutError(f"spectator {n}: no welcome within 30 s")

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of asyncio's
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        if self.opened.done():
            self.chunks.append((time.perf_counter(), data))
            return
        self.ws.receive_data(data)
        self.ws.events_received()  # the handshake's response: frames in the same chunk are not counted
        if self.ws.handshake_exc is not None:
            self.opened.set_exception(self.ws.handshake_exc)
        elif self.ws.state is State.OPEN:
            self.opened.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))

    def _flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self.ws.data_to_send()))

    def send(self, message: bytes) -> None:
        self.ws.send_binary(message)
        self._flush()

    async def spectate(self, room: str, previous: str | None) -> None:
        if previous is not None:
            self.send(encode({"t": "leave", "id": 3, "room": previous}))
        self.send(encode({"t": "spectate", "id": 2, "room": room}))

    def arrivals(self) -> dict[tuple[str, int], float]:
        """When each (room, version)'s view reached this spectator: when the chunk that completed its frame came."""
        out: dict[tuple[str, int], float] = {}
        for at, chunk in self.chunks:
            self.ws.receive_data(chunk)
            for event in self.ws.events_received():
                if not isinstance(event, Frame) or event.opcode is not Opcode.BINARY:
                    continue
                message = decode_any(bytes(event.data))
                if message.get("t") == "view" and isinstance(message.get("version"), int):
                    out.setdefault((str(message["room"]), message["version"]), at)
        return out

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.abort()


async def each_received(watchers: list[Watcher], counts: list[int], seconds: float, poll: float = 0.002) -> bool:
    """Wait (at most ``seconds``) until every watcher holds more chunks than ``counts`` says it held; whether all do."""
    for _ in range(max(1, int(seconds / poll))):
        if all(len(w.chunks) > n for w, n in zip(watchers, counts, strict=True)):
            return True
        await asyncio.sleep(poll)
    return False


def reached(version: int, view: dict[str, Any]) -> bool:
    """Whether ``view`` is at ``version`` or past it."""
    return bool(view["version"] >= version)


async def fanout(args: argparse.Namespace, urls: list[str], server_pids: list[int]) -> None:
    """Open the match and the spectators, then play for the duration and print the figures. With several nodes
    the players sit on the first and spectator ``n`` watches through node ``n % len(urls)``."""
    url = urls[0]
    a = await Client.connect(url, name="fan-a")
    b = await Client.connect(url, name="fan-b")
    rng = random.Random(args.seed)
    watchers: list[Watcher] = []
    sent: dict[tuple[str, int], float] = {}
    replies: list[float] = []
    matches = 0
    try:
        for start in range(0, args.fanout, 100):  # connect in batches, bounded
            batch = [Watcher.open(urls[n % len(urls)], n) for n in range(start, min(args.fanout, start + 100))]
            watchers += await asyncio.wait_for(asyncio.gather(*batch), 60)
        before = cpu_of(server_pids)
        started = time.monotonic()
        room: str | None = None
        seats: dict[int, tuple[Client, Seat]] = {}
        while time.monotonic() - started < args.duration:
            if room is None or a.views[room]["outcome"] is not None:  # the next match, the same spectators
                seat = await a.create("creature_wars", seed=rng.randrange(2**63))
                assert isinstance(seat, Seat)
                seats = {0: (a, seat), 1: (b, await b.join(seat.room))}
                await asyncio.gather(*(w.spectate(seat.room, room) for w in watchers))
                room = seat.room
                matches += 1
                await asyncio.sleep(0.2)  # every spectator's first view
                continue
            mover = next((n for n, (c, s) in seats.items() if c.views[s.room]["legal"]), None)
            if mover is None:
                await asyncio.sleep(0.01)
                continue
            client, held = seats[mover]
            counts = [len(w.chunks) for w in watchers]
            at = time.perf_counter()
            reply = await client.decide(held, rng.choice(client.views[held.room]["legal"]))
            replies.append(time.perf_counter() - at)
            sent[(room, reply["version"])] = at
            await each_received(watchers, counts, SETTLE)  # (going on anyway after SETTLE)
            for c, s in seats.values():
                await c.wait_view(s.room, functools.partial(reached, reply["version"]))
        elapsed = time.monotonic() - started
        after = cpu_of(server_pids)
        server = None if before is None or after is None else after - before
    finally:
        await asyncio.gather(*(w.close() for w in watchers))
        await a.close()
        await b.close()
    last: list[float] = []
    every: list[float] = []
    arrivals = [w.arrivals() for w in watchers]
    missing = 0
    for version, at in sent.items():
        times = [got[version] - at for got in arrivals if version in got]
        missing += len(watchers) - len(times)
        if times:
            last.append(max(times))
            every += times
    last.sort()
    every.sort()
    replies.sort()
    nodes = f", {len(urls)} nodes" if len(urls) > 1 else ""
    print(f"cardroom fan-out: {matches} Creature Wars match(es) in turn, {len(watchers)} spectators{nodes}, "
          f"{len(sent)} decisions, {elapsed:.1f} s (client on {loop_name()})")
    print(f"  decide -> reply      p50 {1e3 * percentile(replies, 50):.2f}  p99 {1e3 * percentile(replies, 99):.2f} ms")
    print(f"  decide -> last spectator  p50 {1e3 * percentile(last, 50):.2f}  p99 {1e3 * percentile(last, 99):.2f}  "
          f"max {1e3 * (last[-1] if last else float('nan')):.2f} ms")
    print(f"  decide -> any spectator   p50 {1e3 * percentile(every, 50):.2f}  p99 {1e3 * percentile(every, 99):.2f} ms")
    print(f"  server CPU      {format_cpu(server, len(sent) * max(1, len(watchers)), elapsed, 'spectator frame')}")
    if missing:
        print(f"  missing         {missing} (spectator, version) frames never arrived")
