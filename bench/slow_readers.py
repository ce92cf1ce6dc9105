"""Slow readers: spectators that never read, watching busy rooms. What each costs the server, and whether it is dropped.

    python -m bench.slow_readers --readers 50 --rooms 20 --duration 15

Spawns a real redis-server and a ``cardroom serve`` child on loopback (as ``bench.load --spawn``),
starts ``--rooms`` Creature Wars matches played by random seats (restarted when they end), then opens
``--readers`` connections that each say hello and spectate every room, and never read a frame again
(each also asks for the lobby listing ``--ask`` times a second, as a flooding client would). The readers
live in a process of their own, so that opening them does not delay the players' client, whose
decide latencies are measured.
Samples the server's RSS before the readers, while they are open, and after they are gone; reads
the server's own count of dropped connections (``/metrics``); prints figures only. ``--readers 0`` runs the same
without readers: the players' latency over the same seconds is the baseline the readers' run is held to.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import socket
import sys
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench import check_loopback, percentile, run_main
from bench.load import spawned
from client.connection import Client, ClientError, ConnectionLost
from protocol import PROTOCOL_VERSION, encode
from server.edge.connection import OUTBOX, OUTBOX_BYTES, STALL_SECONDS

__all__ = ["main"]

MB = 1024 * 1024
RCVBUF = 16 * 1024
"""The readers' socket receive buffer: without a bound, loopback's kernel buffers would hold megabytes per reader."""


def rss(pid: int) -> int:
    """The process's resident set size in bytes (psutil, else /proc)."""
    try:
        import psutil  # type: ignore[import-untyped]

        return int(psutil.Process(pid).memory_info().rss)
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def drops(url: str) -> tuple[int, int]:
    """The server's counts of connections dropped for not reading (its /metrics): for a full outbox, and for
    no progress reading (stalled)."""
    page = urllib.request.urlopen(url.replace("ws://", "http://") + "/metrics", timeout=10).read().decode()
    counts = {"cardroom_outbox_drops_total": 0, "cardroom_stalled_drops_total": 0}
    for line in page.splitlines():
        name, _, value = line.partition(" ")
        if name in counts:
            counts[name] = int(float(value))
    return counts["cardroom_outbox_drops_total"], counts["cardroom_stalled_drops_total"]


async def dropped_by(url: str, readers: int, opened: float, seconds: float) -> list[float]:
    """Seconds after ``opened`` at which the server had dropped each reader (its /metrics, read every 0.25 s)."""
    base = sum(await asyncio.to_thread(drops, url))
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(times) < readers:
        now = sum(await asyncio.to_thread(drops, url)) - base
        times += [time.monotonic() - opened] * (now - len(times))
        await asyncio.sleep(0.25)
    return times


def emptied(client: Client) -> None:
    """Empty the inbox the library queues every message on: left to grow, this process's garbage collections
    would grow with it, to pauses of a second that would count as the server's latency."""
    while not client.inbox.empty():
        client.inbox.get_nowait()


async def play(url: str, seed: int, stop: asyncio.Event, latencies: list[tuple[float, float]]) -> str:
    """One room kept busy: two seats deciding at random, a new match when one ends; its first room id."""
    rng = random.Random(seed)
    a = await Client.connect(url, name=f"a{seed}")
    b = await Client.connect(url, name=f"b{seed}")
    first = ""
    try:
        while not stop.is_set():
            seat_a = await a.create("creature_wars", seed=rng.randrange(2**32))
            assert not isinstance(seat_a, str)
            first = first or seat_a.room
            seat_b = await b.join(seat_a.room)
            for _ in range(2000):
                if stop.is_set():
                    break
                moved = False
                for client, seat in ((a, seat_a), (b, seat_b)):
                    view = client.views.get(seat.room)
                    if view is None or view["outcome"] is not None or not view["legal"]:
                        continue
                    sent = time.monotonic()
                    await client.decide(seat, rng.choice(view["legal"]))
                    latencies.append((sent, time.monotonic() - sent))
                    moved = True
                    await asyncio.sleep(1 / 30)  # under the server's rate limit
                for client in (a, b):
                    emptied(client)
                if a.views[seat_a.room]["outcome"] is not None:
                    break
                if not moved:
                    await asyncio.sleep(0.02)
            for client in (a, b):  # what the library keeps of a finished room
                for kept in (client.views, client.versions, client.over):
                    kept.pop(seat_a.room, None)
    except (ClientError, ConnectionLost, TimeoutError):
        pass
    finally:
        await a.close()
        await b.close()
    return first


async def reader(url: str, rooms: list[str]) -> ClientConnection:
    """A connection that says hello, spectates every room, and then never reads (its library stops reading
    the socket once one frame is queued; its kernel holds at most ``RCVBUF`` more)."""
    host, port = check_loopback(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)  # a reader far away: little in flight
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    ws = await connect(url, sock=sock, max_queue=1, compression=None, open_timeout=10)
    await ws.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION}))
    for n, room in enumerate(rooms, 2):
        await ws.send(encode({"t": "spectate", "id": n, "room": room}))
    return ws


async def ask(ws: ClientConnection, rate: float, stop: asyncio.Event) -> bool:
    """Keep asking for the lobby listing (a large reply) without reading it; True once the server closed us."""
    request = 10_000
    while not stop.is_set():
        try:
            await ws.send(encode({"t": "list_rooms", "id": request, "limit": 200}))
        except ConnectionClosed:
            return True
        request += 1
        await asyncio.sleep(1 / rate)
    return False


async def sample(pid: int, seconds: float, peaks: list[int]) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        peaks.append(rss(pid))
        await asyncio.sleep(0.2)


async def bench(args: argparse.Namespace, url: str, pid: int) -> None:
    stop = asyncio.Event()
    latencies: list[tuple[float, float]] = []
    players = [asyncio.create_task(play(url, args.seed + n, stop, latencies)) for n in range(args.rooms)]
    async with await Client.connect(url) as lobby:
        for _ in range(100):
            listed = await lobby.list_page(status="playing", limit=200)
            if len(listed["rooms"]) >= args.rooms:
                break
            await asyncio.sleep(0.1)
        rooms = [r["room"] for r in listed["rooms"]]
    await asyncio.sleep(2)
    base: list[int] = []
    await sample(pid, 2, base)
    before = max(base)
    opened = time.monotonic()
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.slow_readers", "--hold", url, "--readers", str(args.readers),
        "--ask", str(args.ask), "--duration", str(args.duration), *rooms,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert holder.stdin is not None and holder.stdout is not None
    during: list[int] = []
    watch = asyncio.create_task(dropped_by(url, args.readers, opened, args.duration))
    await sample(pid, args.duration, during)
    closed_seen = int(await asyncio.wait_for(holder.stdout.readline(), 30 + args.duration))
    cut = await watch
    outbox_drops, stalled_drops = drops(url)
    dropped = outbox_drops + stalled_drops
    closed = time.monotonic()
    async with await Client.connect(url) as lobby:
        watching = {r["room"]: r["spectators"] for r in (await lobby.list_page(limit=200))["rooms"]}
    still = sum(watching.get(room, 0) for room in rooms)
    holder.stdin.close()  # the readers are aborted
    await asyncio.wait_for(holder.wait(), 30)
    await asyncio.sleep(3)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    after: list[int] = []
    await sample(pid, 2, after)
    quiet = sorted(d for t, d in latencies if t < opened)
    gone = opened + cut[-1] if cut and len(cut) == args.readers else closed  # every reader dropped by then
    loaded = sorted(d for t, d in latencies if opened <= t < gone)
    freed = sorted(d for t, d in latencies if gone <= t < closed)
    peak = max(during)
    print(f"slow readers: {args.readers} connections, each spectating {len(rooms)} busy rooms, never reading, "
          f"for {args.duration:g} s")
    print(f"  outbox bound     {OUTBOX} frames or {OUTBOX_BYTES / MB:.1f} MiB per connection")
    print(f"  server RSS       before {before / MB:.1f} MiB, peak during {peak / MB:.1f} MiB, "
          f"after {max(after) / MB:.1f} MiB")
    print(f"  per connection   worst case {(peak - before) / max(1, args.readers) / 1024:.0f} KiB "
          f"(peak RSS growth / readers)")
    print(f"  dropped          {dropped} of {args.readers} readers ({outbox_drops} for a full outbox, {stalled_drops} "
          f"stalled for {STALL_SECONDS:g} s); {still} of {args.readers * len(rooms)} spectator seats still fed at the end"
          + (f"; {closed_seen} readers saw their connection closed" if args.ask > 0 else ""))
    if cut:
        print(f"  dropped after    p50 {percentile(cut, 50):.1f} s, max {cut[-1]:.1f} s from the readers' start "
              f"({len(cut)} of {args.readers})")
    stay = sorted(d for t, d in latencies if opened <= t < closed)
    for label, values in (("before readers", quiet), ("with readers", loaded), ("once all dropped", freed),
                          (f"the readers' {args.duration:g} s", stay)):
        if values:
            print(f"  decide latency   {label}: p50 {percentile(values, 50) * 1000:.1f} ms, "
                  f"p99 {percentile(values, 99) * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms ({len(values)} decisions)")


async def hold(url: str, rooms: list[str], count: int, rate: float, seconds: float) -> None:
    """The readers' process: open them, keep them ``seconds`` (asking as ``rate`` says), print how many saw
    their connection closed by the server, and abort them all once stdin closes."""
    readers: list[ClientConnection] = await asyncio.gather(*(reader(url, rooms) for _ in range(count)))
    stop = asyncio.Event()
    asking = [asyncio.create_task(ask(ws, rate, stop)) for ws in readers] if rate > 0 else []
    await asyncio.sleep(seconds)
    stop.set()
    print(sum(await asyncio.gather(*asking)), flush=True)
    await asyncio.to_thread(sys.stdin.read)
    for ws in readers:
        ws.transport.abort()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slow_readers", description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, default=50,
                        help="connections that never read (default 50); 0: the same run without them, the baseline "
                             "for the same load at the same moments")
    parser.add_argument("--rooms", type=int, default=20, help="busy rooms each reader spectates (default 20)")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds the readers stay (default 15)")
    parser.add_argument("--ask", type=float, default=20.0,
                        help="list_rooms requests per second each reader also sends, never reading the replies; "
                             "0: spectate only (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hold", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("room", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.hold:  # the readers' own process (see ``bench``)
        run_main(hold(args.hold, args.room, args.readers, args.ask, args.duration))
        return 0
    if args.readers < 0 or args.rooms < 1 or args.duration <= 0:
        parser.error("need --readers >= 0, --rooms >= 1, --duration > 0")
    with spawned("everysec") as run:
        run_main(bench(args, run.urls[0], run.server_pids[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
