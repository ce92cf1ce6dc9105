"""A room: one match, its seats and watchers; decisions applied one at a time, persisted first."""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from typing import Any

import msgpack

from engine.errors import EngineError
from engine.interface import Decision, Event, Game, Outcome, Seat, redact_all
from protocol import ErrorCode, ProtocolError, encode
from server import metrics
from server.connection import Connection
from server.history import History
from server.store import RoomRecord, Store

__all__ = ["Room", "commitment", "hash_token", "state_digest"]

log = logging.getLogger(__name__)
RETRY_WINDOW = 64
"""How many versions back a retried decision is still recognised as already stored."""
DISPLAY_ONLY = frozenset({"label", "loses"})
"""Keys ``legal`` adds to a decision for display; a client may send them back, and they are not stored."""


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a copy of the store does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def state_digest(packed: bytes) -> str:
    """The digest a log record keeps of the state a decision led to: a replay that departs is caught there."""
    return hashlib.sha256(packed).hexdigest()[:16]


def commitment(room: str, seed: int) -> str:
    """Published at creation, the seed revealed at the end: the deck was fixed before play."""
    return hashlib.sha256(f"cardroom:{room}:{seed}".encode()).hexdigest()


def clock_setting(room: Room) -> dict[str, Any] | None:
    """The room's clock setting (``room.clock.limits``) as plain data, or ``None`` for a room without one."""
    limits = getattr(getattr(room, "clock", None), "limits", None)
    data = getattr(limits, "data", None)
    return data() if callable(data) else None


class Room:
    """The live room: its state, the seat token hashes and the connections watching it."""

    def __init__(self, record: RoomRecord, game: Game, state: Any, store: Store) -> None:
        self.id = record.room
        self.game = game
        self.options = record.options
        self.seed = record.seed
        self.commitment = record.commitment
        self.created = record.created
        self.seats: list[str | None] = list(record.seats)
        self.names: list[str] = list(record.names) + [""] * (len(record.seats) - len(record.names))
        self.table = record.table
        self.state = state
        self.store = store
        self.watchers: dict[Connection, Seat | None] = {}
        self.lock = asyncio.Lock()
        self.timer: asyncio.Task[None] | None = None
        self.suspect = False
        """A commit's fate is unknown: memory may be behind Redis until :meth:`resync`."""
        self.spectator_chat = record.spectator_chat
        self.ended = record.ended
        self.history = History(complete=record.version == 0)
        self.closed = ""
        """Why the room was closed (``cancelled``, ``expired``), once it was."""
        self.rematch_offers: set[Seat] = set()
        """Seats that asked for a rematch of the finished match."""
        self.rematched: tuple[Room, dict[Seat, tuple[Seat, str]]] | None = None
        """The new room and, by old seat, its new seat and token, once every seat asked for a rematch."""

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over``."""
        return "over" if self.over else ("playing" if all(self.seats) else "waiting")

    @property
    def version(self) -> int:
        return self.game.version(self.state)

    def summary(self) -> dict[str, Any]:
        """The room as the lobby lists it."""
        return {
            "room": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "seats": len(self.seats),
            "taken": sum(1 for s in self.seats if s),
            "spectators": sum(1 for s in self.watchers.values() if s is None),
            "status": self.status,
            "version": self.version,
            "scenario": self.game.scenario(self.options),
            "ranked": self.table,
            "players": list(self.names),
            "score": self.game.view(self.state, None).get("score"),
            "commitment": self.commitment,
            "clock": clock_setting(self),
            "spectator_chat": self.spectator_chat,
        }

    def seat_of(self, token: str) -> Seat:
        digest = hash_token(token)
        for seat, held in enumerate(self.seats):
            if held is not None and hmac.compare_digest(held, digest):
                return seat
        raise ProtocolError(ErrorCode.BAD_TOKEN, f"that token holds no seat in room {self.id}")

    async def claim(self, seat: Seat | None, name: str = "") -> tuple[Seat, str]:
        """Give a free seat (the first, or the one asked for) a new secret token, stored before it is granted."""
        async with self.lock:
            if self.closed:
                raise ProtocolError(ErrorCode.ROOM_CLOSED, f"room {self.id} was {self.closed}")
            if seat is None:
                free = [n for n, held in enumerate(self.seats) if held is None]
                if not free:
                    raise ProtocolError(ErrorCode.ROOM_FULL, f"room {self.id} has no free seat")
                seat = free[0]
            elif not 0 <= seat < len(self.seats):
                raise ProtocolError(ErrorCode.NO_SUCH_SEAT, f"room {self.id} has seats 0 to {len(self.seats) - 1}")
            elif self.seats[seat] is not None:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} of room {self.id} is taken")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            if not await self.store.claim(self.id, seat, digest, name):
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} of room {self.id} is taken")
            self.seats[seat] = digest
            self.names[seat] = name
        self.broadcast((), None, None)
        return seat, token

    def watch(self, conn: Connection, seat: Seat | None) -> None:
        self.watchers[conn] = seat
        conn.rooms[self.id] = seat

    def unwatch(self, conn: Connection) -> None:
        self.watchers.pop(conn, None)
        conn.rooms.pop(self.id, None)

    def view_frame(self, seat: Seat | None, events: list[dict[str, Any]], re: int | None = None,
                   recent: list[dict[str, Any]] | None = None) -> bytes:
        message = {
            "t": "view", "room": self.id, "version": self.version,
            "view": self.game.view(self.state, seat), "events": events, "re": re,
        }
        if recent is not None:
            message["recent"] = recent
        return encode(message)

    async def decide(self, conn: Connection, token: str, version: int, decision: Decision, re: int) -> None:
        """Check, apply, persist, and only then tell every watcher what it may see."""
        async with self.lock:
            await self.resync()
            seat = self.seat_of(token)
            if not all(self.seats):
                waiting = sum(1 for s in self.seats if s is None)
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"room {self.id} is waiting for {waiting} more player(s)")
            current = self.version
            if version < current and await self._applied_before(seat, version, decision):
                conn.send(self.view_frame(seat, [], re))  # a retry of a stored decision: acknowledged again
                return
            if self.over:
                raise ProtocolError(ErrorCode.MATCH_OVER, f"the match in room {self.id} is over")
            if not self.game.opened(self.state, seat) <= version <= current:
                raise ProtocolError(
                    ErrorCode.STALE_VERSION,
                    f"decision made against version {version}; room {self.id} is at {current}, "
                    f"and seat {seat}'s decision opened at {self.game.opened(self.state, seat)}",
                )
            await self._apply(seat, self.schema_fields(seat, decision), conn, re)

    def schema_fields(self, seat: Seat, decision: Decision) -> Decision:
        """The decision with only the fields the game's decisions of its kind have: anything else is refused,
        so no baggage reaches the log; ``label`` and ``loses`` (display hints from ``legal``) are dropped."""
        kind = decision.get("kind")
        known = {key for d in self.game.legal(self.state, seat) if d.get("kind") == kind for key in d} - DISPLAY_ONLY
        extra = sorted(set(decision) - known - DISPLAY_ONLY)
        if known and extra:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"decide: a {kind!r} decision has no field(s) "
                                                     f"{', '.join(map(repr, extra))}; it takes {', '.join(sorted(known))}")
        return {key: value for key, value in decision.items() if key not in DISPLAY_ONLY}

    async def _apply(self, seat: Seat, decision: Decision, conn: Connection | None, re: int | None,
                     by_server: bool = False) -> None:
        """Apply with the engine, persist, then broadcast; the caller holds the lock."""
        current = self.version
        try:
            state, events = self.game.apply(self.state, seat, decision)
        except EngineError as exc:
            raise ProtocolError(ErrorCode(exc.code.value), exc.message) from None
        new_version = self.game.version(state)
        packed = msgpack.packb(self.game.dump(state))
        entry: dict[str, Any] = {"v": new_version, "seat": seat, "d": dict(decision), "ts": time.time(),
                                 "h": state_digest(packed)}
        if by_server:
            entry["server"] = True
        outcome = self.game.outcome(state)
        started = time.perf_counter()
        try:
            await self.store.commit(
                self.id, current, new_version, packed, msgpack.packb(entry),
                outcome is not None, self.score_entry(outcome), outcome.data() if outcome is not None else None,
            )
        except Exception as exc:  # StaleWrite, redis-py and socket errors alike: stored or not?
            if not await self._landed(new_version):
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"the decision was not stored, try again: {exc}") from None
        metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        metrics.DECISIONS.labels(self.game.name, "server" if by_server else "player").inc()
        log.debug("decision stored", extra={"room": self.id, "seat": seat, "version": new_version, "re": re,
                                            "kind": str(decision.get("kind")), "by": "server" if by_server else "player"})
        self.state = state
        if outcome is not None:
            self.ended = time.time()
        self.broadcast(events, conn, re)
        self.arm()

    async def _applied_before(self, seat: Seat, version: int, decision: Decision) -> bool:
        """Whether the seat's first stored decision after ``version`` is this one: a client that retries a
        decision whose acknowledgement it never got is told it was stored, not refused."""
        if self.version - version > RETRY_WINDOW:
            return False
        wanted = {key: value for key, value in decision.items() if key not in DISPLAY_ONLY}
        for record in await self.store.log_since(self.id, version):
            if record["seat"] == seat and not record.get("server"):
                return bool(record["d"] == wanted)
        return False

    async def _landed(self, new_version: int) -> bool:
        """After a failed commit, ask Redis whether it was stored (the reply may have been lost on the way).
        If Redis cannot say, the room is ``suspect``: it resyncs before serving anything else."""
        try:
            stored = await self.store.version(self.id)
        except Exception:
            self.suspect = True
            return False
        if stored != self.version and stored != new_version:
            self.suspect = True
        return stored == new_version

    async def resync(self) -> None:
        """Make memory agree with Redis after an ambiguous commit; ``unavailable`` while Redis cannot answer."""
        if not self.suspect:
            return
        try:
            record = await self.store.load(self.id)
        except Exception as exc:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"room {self.id} cannot reach the store: {exc}") from None
        if record is None:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"room {self.id} is missing from the store")
        self.suspect = False
        if record.version != self.version:
            log.warning("resynced from the store", extra={"room": self.id, "version": record.version})
            self.state = self.game.load(record.state)
            self.broadcast((), None, None)
            self.arm()

    def arm(self) -> None:
        """(Re)start the clock of a timed decision, if the game has one waiting."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        timed = self.game.timer(self.state)
        if timed is not None:
            seat, seconds = timed
            self.timer = asyncio.get_running_loop().create_task(self._expire(seat, self.version, seconds))

    async def _expire(self, seat: Seat, version: int, seconds: float) -> None:
        """Time is up: the server takes the game's default for the seat, like any decision."""
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.version != version or self.over:
                return
            self.timer = None
            try:
                await self._apply(seat, {"kind": "timeout"}, None, None, by_server=True)
            except ProtocolError:
                log.exception("time-out not applied; retrying", extra={"room": self.id, "seat": seat})
                self.timer = asyncio.get_running_loop().create_task(self._expire(seat, version, 1.0))

    def score_entry(self, outcome: Outcome | None) -> tuple[str, str, int] | None:
        """A finished ranked solitaire's entry for its high-score table: (table, member, points)."""
        if outcome is None or not self.table or len(self.seats) != 1 or not outcome.scores:
            return None
        member = f"{self.names[0] or 'anonymous'}|{self.id}"
        return f"{self.game.name}:{self.table}", member, outcome.scores[0]

    def broadcast(self, events: Any, decider: Connection | None, re: int | None) -> None:
        """Each watcher gets its own view and events; frames are built once per seat."""
        frames: dict[Seat | None, bytes] = {}
        evs: tuple[Event, ...] = tuple(events)
        self.history.extend(evs)
        outcome = self.game.outcome(self.state)
        over = None
        if outcome is not None and evs:
            over = encode({
                "t": "match_over", "room": self.id,
                "outcome": outcome.data(),
                "seed": self.seed, "commitment": self.commitment,
            })
        for conn, seat in list(self.watchers.items()):
            if conn is decider:
                frame = self.view_frame(seat, redact_all(evs, seat), re)
            else:
                frame = frames.get(seat) or frames.setdefault(seat, self.view_frame(seat, redact_all(evs, seat)))
            conn.send(frame)
            if over is not None:
                conn.send(over)
