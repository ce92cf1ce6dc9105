"""A room's own cost: random Creature Wars matches decided through ``Room.decide`` in this process, with no
sockets and a store that keeps nothing, so what it prints is the room's work alone: the engine, the clocks, the
log record, every seat's view frame (a delta, as a client that asks for them gets) and its encoding.

    python -m bench.room                    # 150 matches
    python -m bench.room --matches 40 --parts
    python -m bench.room --rooms 40         # 40 rooms taking turns, as a node under bench.load serves them

Both seats watch with deltas; each decision is one of the deciding seat's legal ones, picked by a seeded
``random.Random``. It prints the decisions, the process CPU per decision (room creation and the deal included, as in
``bench.load``), the mean frame bytes, the garbage collector's time, and with ``--parts`` the time in the engine's
``apply`` and ``view``, the deltas and the encoding (timed around each call, which adds a little of its own; the
deltas, which the compiled room calls directly, each made once more and timed apart, which adds their time to the CPU
figure). Against ``bench.load``'s server CPU per decision, the difference is the transport, Redis and the event loop.
With ``--rooms N``, N rooms take turns a decision each, as a node's rooms do under load: each decision then finds less
of its room in the processor's caches than one match after another does. What each stored decision leaves behind is
frozen out of the young collections, as a server's session does (server/ops/collector.py).
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine import _compiled
from engine.registry import GAMES
from engine.rules_game import RulesGame
from protocol import delta
from protocol.codec import decode_any
from server.ops import collector
from server.rooms import room as rooms
from server.rooms.peer import Peer
from server.rooms.room import Room
from server.rooms.tokens import hash_token
from server.store.store import RoomRecord

__all__ = ["Keeps", "Report", "Watcher", "run"]


async def _nothing(*_: Any, **__: Any) -> None:
    """Any call of :class:`Keeps`: answered at once, nothing kept."""
    return None


class Keeps:
    """A store that keeps nothing: every call is answered at once (the room's own work is what is timed). What a
    decision and a match's end call are found on the class; any other name goes through ``__getattr__``, at the cost
    of a formatted AttributeError a call, which a server's store does not pay."""

    commit = done = add_score = staticmethod(_nothing)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        return _nothing


class Watcher(Peer):
    """A seat's connection: takes deltas, keeps the frames' bytes, and (``keep``) the frames themselves."""

    def __init__(self, keep: bool = False) -> None:
        super().__init__()
        self.deltas = True
        self.bytes = 0
        self.count = 0
        self.frames: list[bytes] | None = [] if keep else None

    def send(self, frame: bytes) -> None:
        self.bytes += len(frame)
        self.count += 1
        if self.frames is not None:
            self.frames.append(frame)

    def drop(self, reason: str) -> None:
        raise AssertionError(f"a bench watcher was dropped: {reason}")


@dataclass
class Report:
    decisions: int = 0
    cpu: float = 0.0
    """Process CPU seconds over the run."""
    frames: int = 0
    frame_bytes: int = 0
    parts: Counter[str] = field(default_factory=Counter)
    """Seconds inside each timed part (``--parts``)."""
    collector: float = 0.0
    """Seconds in the garbage collector's collections."""
    together: int = 0
    """The most rooms that took turns at once."""
    rooms: list[tuple[Room, list[Watcher]]] = field(default_factory=list)
    """Each match's room and watchers (``keep``)."""


def _timer(report: Report, inner: Callable[..., Any], label: str) -> Callable[..., Any]:
    """``inner``, adding its time to ``report.parts[label]``."""
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            report.parts[label] += time.perf_counter() - started

    return timed


def _timed(report: Report, owner: Any, name: str, label: str) -> Callable[[], None]:
    """Wrap ``owner.name`` to add its time to ``report.parts[label]``; returns what undoes it."""
    inner = getattr(owner, name)
    setattr(owner, name, _timer(report, inner, label))
    return lambda: setattr(owner, name, inner)


def _deltas_again(room: Room, watchers: list[Watcher], held: list[Any], report: Report) -> None:
    """Make each delta the last decision sent once more, timed (the compiled room calls its deltas directly, where
    no wrapper reaches them): from the view each watcher held before it (``held``) to the one it holds now, once per
    seat: ``--parts``' deltas."""
    done: set[int | None] = set()
    for watcher, before in zip(watchers, held, strict=True):
        now = watcher.views.get(room.id)
        if before is None or now is None or now[2] is before[2] or now[1] in done:
            continue
        done.add(now[1])
        started = time.perf_counter()
        delta.diff(before[2], now[2])
        report.parts["deltas"] += time.perf_counter() - started


@dataclass
class _Match:
    """One room playing a match, and its watchers."""

    room: Room
    watchers: list[Watcher]


def _deal(game: Any, match: int, seed: int, keep: bool) -> _Match:
    """Match number ``match``'s room, dealt and watched by both seats (each sent its whole view)."""
    state = game.setup({}, seed + match)
    record = RoomRecord(room=f"bench{match}", game=game.name, options={}, seed=seed + match, commitment="",
                        created=time.time(), version=game.version(state), state=game.dump(state),
                        seats=(hash_token("seat 0"), hash_token("seat 1")))
    room = Room(record, game, state, Keeps())  # type: ignore[arg-type]  # keeps nothing, answers everything
    watchers = [Watcher(keep), Watcher(keep)]
    for seat, watcher in enumerate(watchers):
        room.watch(watcher, seat)
        room.send_entry(watcher, seat, 0)
    return _Match(room, watchers)


def _done(match: _Match, keep: bool, report: Report) -> None:
    if match.room.timer is not None:
        match.room.timer.cancel()
    report.frames += sum(w.count for w in match.watchers)
    report.frame_bytes += sum(w.bytes for w in match.watchers)
    if keep:
        report.rooms.append((match.room, match.watchers))


async def _play(game: RulesGame, matches: int, seed: int, keep: bool, report: Report, parts: bool = False,
                at_once: int = 1) -> None:
    """``matches`` matches, ``at_once`` of them at a time taking turns a decision each (as a node serves its rooms),
    each finished one replaced by the next to deal."""
    rng = random.Random(seed)
    dealt = min(at_once, matches)
    live = [_deal(game, match, seed, keep) for match in range(dealt)]
    while live:
        report.together = max(report.together, len(live))
        still: list[_Match] = []
        for match in live:
            room = match.room
            if game.outcome(room.state) is not None:
                _done(match, keep, report)
                if dealt < matches:
                    still.append(_deal(game, dealt, seed, keep))
                    dealt += 1
                continue
            seat, decision = rng.choice([(s, d) for s in (0, 1) for d in game.legal(room.state, s)])
            held = [w.views.get(room.id) for w in match.watchers] if parts else []
            if await room.decide(match.watchers[seat], f"seat {seat}", room.version, dict(decision), report.decisions):
                collector.settled()  # as a server's session does after a stored decision
            report.decisions += 1
            if parts:
                _deltas_again(room, match.watchers, held, report)
            still.append(match)
        live = still


def run(matches: int = 150, seed: int = 1, parts: bool = False, keep: bool = False, at_once: int = 1) -> Report:
    """Play ``matches`` through rooms, ``at_once`` at a time; ``keep``: hold every room and frame in the report (for
    checking them)."""
    report = Report()
    undo: list[Callable[[], None]] = []
    game = GAMES["creature_wars"]
    if parts:  # the game's rules and views timed in a game of their own (the compiled room calls its methods directly)
        game = replace(game, apply_fn=_timer(report, game.apply_fn, "engine apply"),
                       view_fn=_timer(report, game.view_fn, "engine view"))
        undo = [_timed(report, rooms, "encode", "encoding")]
    began = [0.0]

    def collecting(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            report.collector += time.perf_counter() - began[0]

    gc.callbacks.insert(0, collecting)
    started = time.process_time()
    try:
        asyncio.run(_play(game, matches, seed, keep, report, parts, at_once))
    finally:
        report.cpu = time.process_time() - started
        gc.callbacks.remove(collecting)
        for step in undo:
            step()
    return report


def format_report(report: Report) -> str:
    per = 1e6 / max(report.decisions, 1)
    lines = [
        f"cardroom room bench: {report.decisions} decisions, {report.together} room(s) at a time, engine "
        f"{_compiled.active()}",
        f"  CPU             {report.cpu * per:.1f} µs/decision (room creation and the deal included)",
        f"  frames          {report.frames} sent, {report.frame_bytes / max(report.frames, 1):.0f} B mean",
        f"  collector       {report.collector * per:.1f} µs/decision (its collections, within the CPU above)",
    ]
    for label, seconds in report.parts.most_common():
        lines.append(f"  {label:15s} {seconds * per:.1f} µs/decision")
    return "\n".join(lines)


def check(report: Report) -> None:
    """Every frame a watcher got decodes, and its deltas, applied in turn, rebuild the seat's view of the end."""
    for room, watchers in report.rooms:
        for seat, watcher in enumerate(watchers):
            held: dict[str, Any] | None = None
            for frame in watcher.frames or []:
                message = decode_any(frame)
                if message.get("t") != "view":
                    continue
                held = message["view"] if "view" in message else delta.apply(held, message["delta"])
            assert held == room.game.view(room.state, seat), f"room {room.id}: seat {seat}'s rebuilt view differs"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], prog="python -m bench.room")
    parser.add_argument("--matches", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parts", action="store_true", help="time the engine, the deltas and the encoding apart")
    parser.add_argument("--rooms", type=int, default=1,
                        help="rooms taking turns, a decision each (default 1: one match after another)")
    args = parser.parse_args(argv)
    if args.rooms < 1:
        parser.error("--rooms must be at least 1")
    collector.tune()  # as a server process sets its collector
    print(format_report(run(args.matches, args.seed, args.parts, at_once=args.rooms)))


if __name__ == "__main__":
    main()
