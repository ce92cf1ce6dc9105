"""Restart: N rooms persisted mid-match (a mix of every game), the server killed, time until it serves again.

    python -m bench.restart --rooms 10000

The rooms are made by the server's own code (its lobby, seats and decisions, each stored as in play) in
this process against a spawned redis-server (fsync always); then a ``cardroom serve`` child starts on it,
is killed with SIGKILL, and starts again. Printed for each start: seconds from spawn until the port
serves, until a resumed seat gets its view (loaded on demand), until every room is loaded (in the
background, after the port opens: its /metrics rooms gauge counts them all) and its memory (RSS).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench import REPO, check_loopback, run_main
from client.connection import Client
from engine import registry
from server.lobby.lobby import Lobby
from server.store.redis_process import RedisProcess, free_port
from server.store.store import Store

__all__ = ["main"]

GAMES = ("creature_wars", "fairy_meat", "fairy_tableau", "queens_challenge")
MAX_DECISIONS = 40
"""Each room gets up to this many random decisions (fewer if its match would end)."""


async def populate(redis_url: str, rooms: int, seed: int) -> list[tuple[str, str]]:
    """``rooms`` rooms stored mid-match (made 64 at a time); returns (room, a seat token) for some of them."""
    store = Store(redis_url)
    lobby = Lobby(store)
    kept: list[tuple[str, str]] = []

    async def one(n: int) -> None:
        rng = random.Random(f"{seed}:{n}")
        game = registry.get(GAMES[n % len(GAMES)])
        assert game is not None
        room = await lobby.create(game.name, {}, None)
        tokens = [(await room.claim(None, f"p{n}s{s}", nonce=f"{seed}:{n}:{s}"))[1] for s in range(len(room.seats))]
        for _ in range(rng.randrange(MAX_DECISIONS)):
            movers = [s for s in range(len(room.seats)) if game.legal(room.state, s)]
            if not movers:
                break
            seat = rng.choice(movers)
            decision = rng.choice(list(game.legal(room.state, seat)))
            state, _ = game.apply(room.state, seat, decision)
            if game.outcome(state) is not None:
                break  # keep it mid-match
            async with room.lock:
                await room._apply(seat, decision, None, None)
        if room.timer is not None:
            room.timer.cancel()
        if n % max(1, rooms // 20) == 0 and not room.over:
            kept.append((room.id, tokens[0]))
        lobby.rooms.pop(room.id, None)

    try:
        for start in range(0, rooms, 64):
            await asyncio.gather(*(one(n) for n in range(start, min(rooms, start + 64))))
    finally:
        await store.close()
    return kept


async def serving(proc: subprocess.Popen[str], port: int, resume: tuple[str, str], started: float
                  ) -> tuple[float, float, float, int]:
    """Seconds until the port serves, until a resumed seat has its view, until every room is loaded; and the
    rooms restored."""
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 120)
    ready = time.monotonic() - started
    found = re.search(r"\((\d+) rooms restored\)", line)
    async with await Client.connect(f"ws://127.0.0.1:{port}") as client:
        await client.resume(*resume)
        await client.wait_view(resume[0], lambda v: True)
        resumed = time.monotonic() - started
    restored = int(found.group(1)) if found else -1
    for _ in range(6000):  # every room loaded: the rooms gauge of /metrics counts them all (bounded: 10 min)
        if await asyncio.to_thread(rooms_in_memory, port) >= restored:
            break
        await asyncio.sleep(0.1)
    return ready, resumed, time.monotonic() - started, restored


def rooms_in_memory(port: int) -> int:
    """The sum of the server's ``cardroom_rooms`` gauge (rooms in its memory, by game and status)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return int(sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("cardroom_rooms{")))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def bench(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="cardroom-restart-") as tmp:
        redis = RedisProcess(Path(tmp) / "redis").start()
        try:
            made = time.monotonic()
            kept = await populate(redis.url, args.rooms, args.seed)
            print(f"cardroom restart: {args.rooms} rooms stored mid-match ({', '.join(GAMES)}) in "
                  f"{time.monotonic() - made:.1f} s")
            port = free_port()
            check_loopback(f"ws://127.0.0.1:{port}")
            env = {**os.environ, "CARDROOM_LOG": "WARNING", "CARDROOM_MAX_ROOMS": str(10 * args.rooms)}
            for label in ("first start", "after kill -9"):
                started = time.monotonic()
                proc = subprocess.Popen(
                    [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                     "--redis-url", redis.url],
                    cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True, env=env,
                )
                try:
                    ready, resumed, loaded, restored = await serving(proc, port, kept[len(kept) // 2], started)
                    print(f"  {label:14}  serving {ready:.2f} s, a resumed seat has its view {resumed:.2f} s, "
                          f"all {restored} rooms loaded {loaded:.2f} s, RSS {rss_mb(proc.pid):.0f} MB")
                finally:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait(10)
        finally:
            redis.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.restart", description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10_000, help="rooms stored before the restart (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the decisions (default 1)")
    args = parser.parse_args(argv)
    if args.rooms < 1:
        parser.error("need --rooms >= 1")
    run_main(bench(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
