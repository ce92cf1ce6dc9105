"""Fan-out: one Creature Wars match watched by many spectators; how long until the last one holds each version.

    python -m bench.load --spawn --fanout 1000 --duration 20

Two library clients play; every spectator is a bare websocket that only stamps each frame's arrival
(decoding is left to after the run, so one client process can stand in for a thousand screens).
The players make one decision at a time and wait (bounded) until every spectator has received a frame
after it, so versions do not overlap. Prints, per decision: decide sent -> the deciding seat's reply,
and decide sent -> the last spectator's frame of that version.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench import cpu_of, format_cpu, loop_name, percentile
from client.connection import Client, Seat
from protocol import PROTOCOL_VERSION, decode_any, encode

__all__ = ["fanout"]

SETTLE = 10.0
"""Seconds the players wait for every spectator to receive a decision's frame before going on anyway."""


class Watcher:
    """A spectator that stamps every frame's arrival and decodes nothing until the run is over."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[tuple[float, bytes]] = []
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, n: int) -> Watcher:
        ws = await connect(url, max_size=2**22, compression=None)
        await ws.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": f"fan{n}"}))
        await ws.recv()
        watcher = cls(ws)
        watcher.task = asyncio.create_task(watcher.listen())
        return watcher

    async def spectate(self, room: str, previous: str | None) -> None:
        if previous is not None:
            await self.ws.send(encode({"t": "leave", "id": 3, "room": previous}))
        await self.ws.send(encode({"t": "spectate", "id": 2, "room": room}))

    async def listen(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                self.frames.append((time.perf_counter(), frame if isinstance(frame, bytes) else frame.encode()))

    def arrivals(self) -> dict[tuple[str, int], float]:
        """When each (room, version)'s view reached this spectator."""
        out: dict[tuple[str, int], float] = {}
        for at, frame in self.frames:
            message = decode_any(frame)
            if message.get("t") == "view" and isinstance(message.get("version"), int):
                out.setdefault((str(message["room"]), message["version"]), at)
        return out

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 5)
        if self.task is not None:
            self.task.cancel()


def _reached(version: int, view: dict[str, Any]) -> bool:
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
            counts = [len(w.frames) for w in watchers]
            at = time.perf_counter()
            reply = await client.decide(held, rng.choice(client.views[held.room]["legal"]))
            replies.append(time.perf_counter() - at)
            sent[(room, reply["version"])] = at
            for _ in range(int(SETTLE / 0.002)):
                if all(len(w.frames) > n for w, n in zip(watchers, counts, strict=True)):
                    break
                await asyncio.sleep(0.002)
            for c, s in seats.values():
                await c.wait_view(s.room, functools.partial(_reached, reply["version"]))
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
