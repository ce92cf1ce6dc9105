"""Baseline benchmark: a bare websockets request/reply server and the client library against it.

    python -m bench.echo --conns 16 --duration 10
    python -m bench.echo --url ws://127.0.0.1:PORT --server-pid PID --conns 16 --duration 10

The same client path as ``bench.load`` (``Client.request`` over msgpack binary frames, a
decide-shaped request, a reply of ``--reply-bytes``), but a server that does nothing except
answer: the floor that the per-decision figures of ``bench.load`` compare against.

``--decision`` adds what a decision costs the server outside its room: each request is committed through the
server's own store (``Store.commit``: the group commit and its script, on a spawned redis-server that fsyncs every
write) with a log record, its link and a clock packed as a room packs them, before it is answered; and the
connection paired with the requester (0 with 1, 2 with 3, ...) is sent a push of the same size, as the other seat
is. What ``bench.load`` costs beyond it is the room's: the engine, the views, their deltas and their encoding.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from bench import REPO, Pacer, check_loopback, cpu_seconds, format_cpu, loop_name, percentile, run_main, stop_child, wait_for_port
from client.connection import Client, ClientError
from protocol import MAX_FRAME, encode
from server.rooms import snapshots
from server.store import keys
from server.store.redis_process import RedisProcess, free_port
from server.store.store import Store

__all__ = ["main"]

LIFETIME = 600.0
"""Seconds a spawned echo server lives at most, so it stops by itself even if its parent dies."""
FRAME_SAMPLE = 16
"""Measure the size of every this-many-th reply."""
LOOP_STEPS = 100_000_000
"""Bound on one connection's request loop; the duration or --max-round-trips ends it first."""


# ---------------------------------------------------------------- the server


async def _write(ws: ServerConnection, outbox: asyncio.Queue[bytes]) -> None:
    """A connection's writer task (``--queued``): sends what its outbox holds, in order, until the connection closes."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await ws.send(await outbox.get())


class Committer:
    """``--decision``: each connection's requests committed as one room's decisions, through the server's store."""

    def __init__(self, redis_url: str) -> None:
        self.store = Store(redis_url)
        self.pack = msgpack.Packer(use_bin_type=True).pack
        self.clock = self.pack({"seats": [{"left": 60.0, "bank": 0.0, "strikes": 0}] * 2, "turn": 0, "at": time.time()})

    async def open(self, room: str) -> None:
        """The room's hash at version 0, as a made room's is (the commit script checks the version)."""
        await self.store.redis.hset(keys.room(room), mapping={"version": "0"})

    async def commit(self, room: str, version: int, link: str, decision: object) -> str:
        """Store decision ``version`` of ``room`` as a room does (its record, its link, the clock); the new link."""
        link = snapshots.link(link, version, 0, decision)
        record = self.pack({"v": version, "seat": 0, "d": decision, "ts": time.time(), "c": link})
        await self.store.commit(room, version - 1, version, b"", record, False, clock=self.clock, link=link)
        return link


async def serve_echo(port: int, reply_bytes: int, queued: bool, lifetime: float, redis_url: str | None = None) -> None:
    """Answer every binary msgpack request with ``{"t": "echo", "re": id, "pad": ...}`` of about ``reply_bytes``.

    ``queued`` sends through a per-connection queue and writer task, as cardroom's Connection does; ``redis_url``
    (``--decision``) commits each request first and pushes a frame to the paired connection too.
    """
    pad = bytes(max(0, reply_bytes - 24))
    packb = msgpack.Packer(use_bin_type=True).pack
    push = packb({"t": "pushed", "pad": pad})  # a kind the client library only queues
    committer = Committer(redis_url) if redis_url else None
    sends: list[Callable[[bytes], object] | None] = []
    """Each connection's way to be sent a push, by its index in accepting order (None once it has gone)."""

    async def direct(ws: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in ws:
                if isinstance(frame, bytes):
                    await ws.send(packb({"t": "echo", "re": msgpack.unpackb(frame).get("id"), "pad": pad}))

    async def through_outbox(ws: ServerConnection) -> None:
        outbox: asyncio.Queue[bytes] = asyncio.Queue(512)

        writer = asyncio.create_task(_write(ws, outbox))
        try:
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    if isinstance(frame, bytes):
                        outbox.put_nowait(packb({"t": "echo", "re": msgpack.unpackb(frame).get("id"), "pad": pad}))
        finally:
            writer.cancel()

    async def answer(request: bytes, room: str, state: list[Any], partner: int) -> bytes:
        message = msgpack.unpackb(request)
        assert committer is not None
        state[0] += 1
        state[1] = await committer.commit(room, state[0], state[1], message.get("decision"))
        other = sends[partner] if partner < len(sends) else None
        if other is not None:
            other(push)
        reply: bytes = packb({"t": "echo", "re": message.get("id"), "pad": pad})
        return reply

    async def deciding(ws: ServerConnection) -> None:
        """``--decision``: each request committed, answered, and pushed to the paired connection."""
        index = len(sends)
        room, state = f"echo{index}", [0, ""]
        outbox: asyncio.Queue[bytes] = asyncio.Queue(512)
        sends.append(outbox.put_nowait if queued else lambda frame: broadcast([ws], frame))
        assert committer is not None
        await committer.open(room)

        writer = asyncio.create_task(_write(ws, outbox)) if queued else None
        try:
            with contextlib.suppress(ConnectionClosed):
                async for frame in ws:
                    if isinstance(frame, bytes):
                        reply = await answer(frame, room, state, index ^ 1)
                        if queued:
                            outbox.put_nowait(reply)
                        else:
                            await ws.send(reply)
        finally:
            sends[index] = None
            if writer is not None:
                writer.cancel()

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    handler = deciding if committer is not None else through_outbox if queued else direct  # the echo as it always was
    async with serve(handler, "127.0.0.1", port, max_size=MAX_FRAME * 16, compression=None):
        print(f"echo: serving on ws://127.0.0.1:{port} ({'queued' if queued else 'direct'} sends)", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), lifetime)


@contextlib.contextmanager
def spawned(reply_bytes: int, queued: bool, lifetime: float, decision: bool = False) -> Iterator[tuple[str, int, int | None]]:
    """An echo server child on a free loopback port (with ``decision``, and a redis-server that fsyncs every write),
    stopped afterwards; yields its URL, its pid and the redis-server's pid."""
    with tempfile.TemporaryDirectory(prefix="cardroom-echo-") as tmp, contextlib.ExitStack() as stack:
        redis = None
        if decision:
            redis = RedisProcess(Path(tmp) / "redis", fsync="always")
            stack.callback(redis.stop)
            redis.start()
        port = free_port()
        log_path = Path(tmp) / "echo.log"
        with log_path.open("wb") as log:
            args = [sys.executable, "-m", "bench.echo", "--serve", str(port), "--reply-bytes", str(reply_bytes),
                    "--lifetime", str(lifetime)] + (["--queued"] if queued else []) + (
                    ["--redis-url", redis.url] if redis is not None else [])
            server = subprocess.Popen(args, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            try:
                try:
                    wait_for_port(server, port)
                except RuntimeError:
                    sys.stderr.write(log_path.read_text(errors="replace"))
                    raise
                yield (f"ws://127.0.0.1:{port}", server.pid,
                       redis.process.pid if redis is not None and redis.process is not None else None)
            finally:
                stop_child(server)
        logged = [line for line in log_path.read_text(errors="replace").splitlines() if "serving on" not in line]
        if logged:
            print("echo server log (last 20 lines):\n  " + "\n  ".join(logged[-20:]))


# ---------------------------------------------------------------- the client side


class Run:
    """The counters of one run, shared by every connection's loop (one event loop, no locking)."""

    def __init__(self, max_round_trips: int) -> None:
        self.deadline = float("inf")
        self.max_round_trips = max_round_trips
        self.round_trips = 0
        self.latencies: list[float] = []
        self.frame_bytes: list[int] = []
        self.errors: Counter[str] = Counter()
        self.paced = 0.0
        self.pushes = 0
        """Frames pushed to a connection by its pair's requests (``--decision``)."""

    def done(self) -> bool:
        return self.round_trips >= self.max_round_trips or time.monotonic() >= self.deadline


async def loop_requests(client: Client, pacer: Pacer, rng: random.Random, index: int, run: Run) -> None:
    """One connection: decide-shaped requests back to back, each awaiting its reply, until the run is done."""
    token = f"{index:032x}"
    try:
        for version in range(LOOP_STEPS):
            if run.done():
                return
            decision = {"kind": "play", "slot": rng.randrange(5)}
            await pacer.take()
            sent = time.perf_counter()
            reply = await client.request("decide", room=f"echo{index}", token=token, version=version, decision=decision)
            run.latencies.append(time.perf_counter() - sent)
            run.round_trips += 1
            if run.round_trips % FRAME_SAMPLE == 1:
                run.frame_bytes.append(len(encode(reply)))
            while not client.inbox.empty():  # the library queues every message there too
                run.pushes += client.inbox.get_nowait().get("t") == "pushed"
    except (ConnectionError, ClientError, TimeoutError) as exc:
        run.errors[type(exc).__name__] += 1


async def bench(args: argparse.Namespace, url: str, server_pid: int | None, redis_pid: int | None = None) -> None:
    """Connect, run every loop for the duration, print the figures."""
    run = Run(args.max_round_trips)
    clients: list[Client] = []
    pacers: list[Pacer] = []
    try:
        for index in range(args.conns):
            try:
                clients.append(await Client.connect(url, name=f"echo{index}"))
            except (OSError, TimeoutError) as exc:
                raise SystemExit(f"bench: cannot connect to {url}: {exc}") from None
            pacers.append(Pacer(args.rate, rng=random.Random(f"{args.seed}:pacer:{index}")))
        server_before = cpu_seconds(server_pid) if server_pid else None
        redis_before = cpu_seconds(redis_pid) if redis_pid else None
        own_before = time.process_time()
        started = time.monotonic()
        run.deadline = started + args.duration
        loops = (loop_requests(client, pacers[i], random.Random(f"{args.seed}:{i}"), i, run) for i, client in enumerate(clients))
        await asyncio.wait_for(asyncio.gather(*loops), args.duration + 30)  # each request is bounded too (10 s)
        elapsed = time.monotonic() - started
        own = time.process_time() - own_before
        server_after = cpu_seconds(server_pid) if server_pid else None
        redis_after = cpu_seconds(redis_pid) if redis_pid else None
    finally:
        for client in clients:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 5)
    run.paced = sum(p.waited for p in pacers)
    server_cpu = None if server_before is None or server_after is None else server_after - server_before
    redis_cpu = None if redis_before is None or redis_after is None else redis_after - redis_before
    report(args, url, run, elapsed, server_cpu, own, redis_cpu)


def report(args: argparse.Namespace, url: str, run: Run, elapsed: float, server_cpu: float | None, own: float,
           redis_cpu: float | None = None) -> None:
    """Print round trips, their rate, latency percentiles and CPU per round trip."""
    ordered = sorted(run.latencies)
    n = run.round_trips
    where = (f"spawned, {'queued' if args.queued else 'direct'} sends"
             + (", each request committed and pushed to its pair" if args.decision else "")) if args.url is None else url
    print(f"echo: {args.conns} connections, seed {args.seed}, {elapsed:.1f} s ({where}; client on {loop_name()})")
    print(f"  round trips     {n}")
    print(f"  round trips/s   {n / elapsed:.1f}" if elapsed > 0 else "  round trips/s   n/a")
    print(f"  latency ms      p50 {1e3 * percentile(ordered, 50):.2f}  p90 {1e3 * percentile(ordered, 90):.2f}  "
          f"p99 {1e3 * percentile(ordered, 99):.2f}  max {1e3 * (ordered[-1] if ordered else float('nan')):.2f}  "
          "(request sent -> its reply received)")
    print(f"  server CPU      {format_cpu(server_cpu, n, elapsed, 'round trip')}")
    if redis_cpu is not None:
        print(f"  redis CPU       {format_cpu(redis_cpu, n, elapsed, 'round trip')}")
    print(f"  bench CPU       {format_cpu(own, n, elapsed, 'round trip')} (this client process)")
    if run.pushes:
        print(f"  pushes          {run.pushes} received from the paired connections")
    if run.frame_bytes:
        print(f"  reply frame     {sum(run.frame_bytes) / len(run.frame_bytes):.0f} B mean (sampled)")
    if args.rate > 0:
        print(f"  pacing          {args.rate:g} msg/s per connection, cap ~{args.rate * args.conns:.0f}/s, "
              f"{run.paced:.1f} s spent waiting")
    if run.errors:
        print("  errors          " + ", ".join(f"{what} {count}" for what, count in sorted(run.errors.items())))


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.echo", description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a running echo server (loopback only); default: spawn one")
    where.add_argument("--spawn", action="store_true", help="start an echo server of our own (the default)")
    where.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the spawned child
    parser.add_argument("--server-pid", type=int, help="with --url: the echo server's pid, to measure its CPU")
    parser.add_argument("--conns", type=int, default=16, help="concurrent request/reply loops, one per connection "
                        "(default 16: as many connections as --matches 8 of bench.load)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the request contents (default 1)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of requests (default 10)")
    parser.add_argument("--max-round-trips", type=int, default=10_000_000, help="stop after this many (default 1e7)")
    parser.add_argument("--reply-bytes", type=int, default=4096,
                        help="reply frame size (default 4096, near bench.load's mean view frame)")
    parser.add_argument("--rate", type=float, default=0.0, help="messages/s per connection; 0: unpaced (default)")
    parser.add_argument("--queued", action="store_true", help="server sends through a per-connection queue + writer "
                        "task, as cardroom's Connection does")
    parser.add_argument("--decision", action="store_true", help="commit each request through the server's store "
                        "(a spawned redis-server, fsync always) and push a frame to its paired connection, as a "
                        "decision does: its cost outside the room")
    parser.add_argument("--redis-url", help=argparse.SUPPRESS)  # the spawned child's, with --decision
    parser.add_argument("--lifetime", type=float, default=LIFETIME, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.conns < 1 or args.duration <= 0 or args.max_round_trips < 1 or not 0 <= args.reply_bytes <= MAX_FRAME * 8:
        parser.error(f"need --conns >= 1, --duration > 0, --max-round-trips >= 1, 0 <= --reply-bytes <= {MAX_FRAME * 8}")
    if args.server_pid and args.url is None:
        parser.error("--server-pid goes with --url; a spawned echo server is measured anyway")
    if args.decision and args.url is not None:
        parser.error("--decision spawns its own echo server and redis-server; it does not go with --url")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.serve is not None:
        run_main(serve_echo(args.serve, args.reply_bytes, args.queued, args.lifetime, args.redis_url))
    elif args.url is None:
        with spawned(args.reply_bytes, args.queued, max(LIFETIME, args.duration + 120), args.decision) as (url, pid, redis):
            run_main(bench(args, url, pid, redis))
    else:
        check_loopback(args.url)
        run_main(bench(args, args.url, args.server_pid))
    return 0


if __name__ == "__main__":
    sys.exit(main())
