"""Instructions per decision, counted by valgrind's callgrind: the same for the same build and inputs whatever else
the machine does, where this machine's CPU time per decision moves by a fifth from one minute to the next, so that
a change of a few per cent shows.

    python -m bench.instructions                     # bench.room: a room's own work
    python -m bench.instructions --server            # a server under bench.load
    python -m bench.instructions --server --decisions 4000
    python -m bench.instructions --lifecycle 15      # a server making, joining, ending and leaving matches
    python -m bench.instructions --client            # bench.load's client: the client library playing
    python -m bench.instructions --fanout 200        # a server sending each decision to 200 spectators

Room: ``bench.room`` runs under callgrind for ``--matches`` and for four times as many; the difference of the two
counts over the difference of their decisions is what one decision costs, the process's start taken out.

Server: one redis-server (fsync always) and one ``cardroom serve`` under callgrind, on loopback. ``bench.load``
(40 matches) plays 300 decisions to warm it, the counts are zeroed, ``bench.load`` plays ``--decisions`` more, and
the counts are dumped: the server's instructions per decision, the matches' making, joining and ending included,
as in ``bench.load``'s CPU figure. Under callgrind the server runs some fifty times slower, so more decisions share
each commit than at full speed: compare one build with another with it, not with ``bench.load``'s figures.

Lifecycle: the same server, but each of 20 pairs of clients makes a match, joins it, resigns it at once and both
leave it, ``--lifecycle`` times each after a warm-up: the server's instructions per match so made and left, the part
of ``bench.load``'s figure that comes once a match (some 35 decisions there) rather than once a decision.

Client: ``bench.load`` itself (40 matches) under callgrind against one server (not under callgrind), for
``--decisions`` and for four times as many: the difference of the two counts over the difference of their decisions is
what a decision costs the client library and the bench's own play, its start and connections taken out. The server's
computer players are such clients, in the server's process.

Fan-out: the same server, one Creature Wars match (200 HP, so that it lasts) watched by ``--fanout`` bare spectators
(``bench.fanout``'s, which take whole views, as a client that asks for no deltas does); after :data:`FANOUT_WARM`
decisions the counts are zeroed and :data:`FANOUT_DECISIONS` more are played, each once every spectator has the one
before: the server's instructions per spectator frame, the decision's own work shared among them.

Instructions are not time (a cache miss costs a hundred of them), but where two builds run the same work, fewer
instructions is less time. Needs Debian's valgrind.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench import REPO
from bench.fanout import Watcher, each_received, reached
from bench.load import spawned
from client.connection import Client, Seat

__all__ = ["client", "fanout", "lifecycle", "main", "room", "server"]

WARM = 300
"""Decisions ``bench.load`` plays against the server before its counts are zeroed."""
STARTUP = 180.0
"""Seconds the server under callgrind may take to start answering (its imports run some fifty times slower)."""


def _callgrind(out: Path) -> list[str]:
    return ["valgrind", "--quiet", "--tool=callgrind", f"--callgrind-out-file={out}"]


def _total(out: Path) -> int:
    """The instructions a callgrind dump counted."""
    for line in out.read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"{out}: no totals in the callgrind dump")


def _decisions(output: str, pattern: str) -> int:
    found = re.search(pattern, output, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no decision count in:\n{output[-2000:]}")
    return int(found.group(1))


def room(matches: int) -> tuple[float, int]:
    """``bench.room``'s instructions per decision, and the decisions the larger run made."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="cardroom-instructions-") as tmp:
        for n in (matches, 4 * matches):
            out = Path(tmp) / f"room{n}.out"
            run = subprocess.run([*_callgrind(out), sys.executable, "-m", "bench.room", "--matches", str(n)],
                                 cwd=REPO, capture_output=True, text=True, check=True)
            counts.append((_decisions(run.stdout, r"(\d+) decisions"), _total(out)))
    (few, few_ir), (many, many_ir) = counts
    return (many_ir - few_ir) / (many - few), many


def _load(url: str, decisions: int, wrap: list[str] | None = None) -> int:
    """Play ``decisions`` through ``bench.load`` against ``url`` (run under ``wrap``, if given); how many it made."""
    run = subprocess.run([*(wrap or []), sys.executable, "-m", "bench.load", "--url", url, "--matches", "40",
                          "--max-decisions", str(decisions), "--duration", "3600"],
                         cwd=REPO, capture_output=True, text=True, check=True)
    return _decisions(run.stdout, r"^\s*decisions\s+(\d+)")


def _counted(warm: Callable[[str], int], counted: Callable[[str], int]) -> tuple[float, int]:
    """One server under callgrind: ``warm`` played against its URL, the counts zeroed, ``counted`` played (it returns
    how many it made) and the counts dumped: the instructions per one made, and how many were made."""
    with tempfile.TemporaryDirectory(prefix="cardroom-instructions-") as tmp:
        out = Path(tmp) / "server.out"
        with spawned("always", wrap=_callgrind(out), startup=STARTUP) as run:
            pid = str(run.server_pids[0])
            warm(run.urls[0])
            subprocess.run(["callgrind_control", "--zero", pid], check=True, capture_output=True)
            made = counted(run.urls[0])
            subprocess.run(["callgrind_control", "--dump", pid], check=True, capture_output=True)
            dumped = Path(f"{out}.1")  # the first dump: the counts since they were zeroed
            total = _total(dumped)
    return total / made, made


def server(decisions: int) -> tuple[float, int]:
    """A server's instructions per decision under ``bench.load``, and the decisions counted."""
    return _counted(lambda url: _load(url, WARM), lambda url: _load(url, decisions))


def client(decisions: int) -> tuple[float, int]:
    """``bench.load``'s client's instructions per decision, and the decisions the larger run made."""
    counts = []
    with tempfile.TemporaryDirectory(prefix="cardroom-instructions-") as tmp, spawned("always") as run:
        for n in (decisions, 4 * decisions):
            out = Path(tmp) / f"client{n}.out"
            counts.append((_load(run.urls[0], n, _callgrind(out)), _total(out)))
    (few, few_ir), (many, many_ir) = counts
    return (many_ir - few_ir) / (many - few), many


PAIRS = 20
"""Pairs of clients making matches at once under ``--lifecycle``."""


async def _matches(url: str, each: int) -> int:
    """Each of :data:`PAIRS` pairs makes, joins, resigns and leaves ``each`` matches; how many were made."""

    async def pair(n: int) -> int:
        host = await Client.connect(url, name=f"host{n}")
        guest = await Client.connect(url, name=f"guest{n}")
        try:
            for _ in range(each):
                made = await host.create("creature_wars", seed=n)
                assert isinstance(made, Seat)
                await guest.join(made.room)
                await host.resign(made)
                for client in (host, guest):
                    with contextlib.suppress(Exception):  # the match is over: leaving it is all that is asked
                        await client.leave(made.room)
            return each
        finally:
            await host.close()
            await guest.close()

    return sum(await asyncio.gather(*(pair(n) for n in range(PAIRS))))


def lifecycle(per_pair: int) -> tuple[float, int]:
    """A server's instructions per match made, joined, resigned and left, and the matches counted."""
    return _counted(lambda url: asyncio.run(_matches(url, 2)), lambda url: asyncio.run(_matches(url, per_pair)))


FANOUT_WARM = 4
"""Decisions played to a fan-out's spectators before the counts are zeroed."""
FANOUT_DECISIONS = 30
"""Decisions counted under ``--fanout``: each is sent to every spectator, some fifty times slower than at full speed."""


async def _watched(url: str, pid: str, spectators: int) -> int:
    """One match watched by ``spectators`` bare spectators: warm, zero the counts, play, and dump the counts before
    anyone leaves; the decisions counted."""
    a = await Client.connect(url, name="fan-a")
    b = await Client.connect(url, name="fan-b")
    watchers: list[Watcher] = []
    try:
        for start in range(0, spectators, 50):
            watchers += await asyncio.gather(*(Watcher.open(url, n) for n in range(start, min(spectators, start + 50))))
        seat = await a.create("creature_wars", {"hp": 200}, seed=7)
        assert isinstance(seat, Seat)
        seats = [(a, seat), (b, await b.join(seat.room))]
        counts = [len(w.chunks) for w in watchers]
        await asyncio.gather(*(w.spectate(seat.room, None) for w in watchers))
        if not await each_received(watchers, counts, STARTUP):  # every spectator's first view, before anything counts
            raise TimeoutError(f"a spectator had no view within {STARTUP:g} s")
        rng = random.Random(1)
        played = 0
        while played < FANOUT_WARM + FANOUT_DECISIONS:
            if played == FANOUT_WARM:
                subprocess.run(["callgrind_control", "--zero", pid], check=True, capture_output=True)
            mover = next(((c, s) for c, s in seats if c.views[s.room]["legal"]), None)
            if mover is None:
                await asyncio.sleep(0.01)
                continue
            client, held = mover
            counts = [len(w.chunks) for w in watchers]
            reply = await client.decide(held, rng.choice(client.views[held.room]["legal"]))
            if not await each_received(watchers, counts, STARTUP):
                raise TimeoutError(f"a spectator had no frame of the decision within {STARTUP:g} s")
            for c, s in seats:
                await c.wait_view(s.room, functools.partial(reached, reply["version"]))
            played += 1
        subprocess.run(["callgrind_control", "--dump", pid], check=True, capture_output=True)  # before they close
        return FANOUT_DECISIONS
    finally:
        await asyncio.gather(*(w.close() for w in watchers))
        await a.close()
        await b.close()


def fanout(spectators: int) -> float:
    """A server's instructions per spectator frame, one match watched by ``spectators``."""
    with tempfile.TemporaryDirectory(prefix="cardroom-instructions-") as tmp:
        out = Path(tmp) / "server.out"
        with spawned("always", wrap=_callgrind(out), startup=STARTUP) as run:
            pid = str(run.server_pids[0])
            made = asyncio.run(_watched(run.urls[0], pid, spectators))
            total = _total(Path(f"{out}.1"))
    return total / (made * spectators)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", action="store_true", help="count a server under bench.load, not bench.room")
    parser.add_argument("--matches", type=int, default=30, help="bench.room: the smaller run's matches (default 30)")
    parser.add_argument("--decisions", type=int, default=2000,
                        help="--server: decisions counted (default 2,000); --client: the smaller run's (and 4x)")
    parser.add_argument("--client", action="store_true", help="count bench.load's client, not a server")
    parser.add_argument("--lifecycle", type=int, default=0, metavar="N",
                        help=f"count a server's matches made, joined, resigned and left: N a pair, {PAIRS} pairs")
    parser.add_argument("--fanout", type=int, default=0, metavar="N",
                        help=f"count a server sending {FANOUT_DECISIONS} decisions to N spectators of one match")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.decisions < 1 or args.lifecycle < 0 or args.fanout < 0:
        parser.error("need --matches >= 1, --decisions >= 1, --lifecycle >= 0 and --fanout >= 0")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        parser.error("needs valgrind and callgrind_control on PATH (Debian's valgrind package)")
    if args.fanout:
        each = fanout(args.fanout)
        print(f"cardroom instructions: a server sending {FANOUT_DECISIONS} decisions to {args.fanout} spectators (callgrind)")
        print(f"  instructions    {each / 1000:,.1f}k per spectator frame")
        return 0
    if args.lifecycle:
        each, made = lifecycle(args.lifecycle)
        print(f"cardroom instructions: a server making, joining, resigning and leaving {made} matches (callgrind)")
        print(f"  instructions    {each / 1000:,.1f}k per match")
        return 0
    if args.client:
        each, made = client(args.decisions)
        print(f"cardroom instructions: bench.load's client, two runs, {made} decisions in the larger (callgrind)")
    elif args.server:
        each, made = server(args.decisions)
        print(f"cardroom instructions: a server under bench.load, {made} decisions counted (callgrind)")
    else:
        each, made = room(args.matches)
        print(f"cardroom instructions: bench.room, {args.matches} and {4 * args.matches} matches ({made} decisions)")
    print(f"  instructions    {each / 1000:,.1f}k per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
