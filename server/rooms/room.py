"""A room: one match, its seats and watchers; decisions applied one at a time, persisted first."""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from typing import Any

from engine.errors import EngineError
from engine.interface import Decision, Event, Outcome, Seat, redact_all
from engine.rules_game import RulesGame
from protocol import ErrorCode, Fields, ProtocolError, encode
from protocol.delta import diff
from protocol.packing import Shared, pack, shared
from server.errors import Fenced, StoreMissing, Unreplicated
from server.ops import metrics
from server.players import standings
from server.rooms import clock as clocks
from server.rooms import seeding, snapshots
from server.rooms.history import History
from server.rooms.lock import RoomLock
from server.rooms.peer import Peer
from server.rooms.reveal import reveal_fields
from server.rooms.tokens import hash_token
from server.store.store import Outbox, RoomRecord, Store

__all__ = ["SERVER_ONLY", "Room", "commitment"]

SERVER_ONLY = frozenset({"timeout", "forfeit", "abort"})
"""Decision kinds only the server applies (a clock ran out, a seat stayed away, both seats agreed to abort)."""

log = logging.getLogger(__name__)
RETRY_REFUSALS = frozenset({ErrorCode.STALE_VERSION, ErrorCode.NOT_YOUR_TURN, ErrorCode.MATCH_OVER,
                            ErrorCode.ILLEGAL_DECISION, ErrorCode.BAD_FIELD})
"""Refusals that a retried, already stored decision would meet: only then is the log asked about it."""
WATCHERS_EVERY = 1.0
"""Seconds between two ``watchers`` pushes of one room: changes in between are told together at its end."""
ABSENT = -1
"""Not a seat: what ``watchers`` gives for a connection that does not watch the room."""
RETRY_WINDOW = 64
"""How many versions back a retried decision is still recognised as already stored."""
TOKENS_KEPT = 16
"""Seat tokens whose hash a connection keeps (it plays a few rooms at once; more, and the oldest are hashed again)."""
DISPLAY_ONLY = frozenset({"label", "loses"})
"""Keys ``legal`` adds to a decision for display; a client may send them back, and they are not stored."""


def commitment(room: str, seed: int) -> str:
    """The commitment of rooms stored before salts (``sha256("cardroom:" + room + ":" + seed)``); new rooms
    commit to a salted server secret (server/rooms/seeding.py)."""
    return hashlib.sha256(f"cardroom:{room}:{seed}".encode()).hexdigest()


class Tally:
    """Counts across a node's rooms, kept as each room's change rather than summed over them when asked."""

    def __init__(self) -> None:
        self.spectating = 0
        """Connections watching a room of the node without a seat (the node's cap, server/lobby/quota.py)."""


class Room:
    """The live room: its state, the seat token hashes and the connections watching it."""

    def __init__(self, record: RoomRecord, game: RulesGame, state: Any, store: Store, alive: float | None = None) -> None:
        self.id = record.room
        self.game = game
        self.options = record.options
        self.seed = record.seed
        """The match seed; None until every seat's nonce is in and the deal is set up."""
        self.commitment = record.commitment
        self.server_seed = record.server_seed
        self.salt = record.salt
        self.seeding = record.seeding
        self.nonces: list[str] = list(record.nonces) + [""] * (len(record.seats) - len(record.nonces))
        self.created = record.created
        self.hosted = record.hosted
        """Its players are seated in a step after its making (see :class:`RoomRecord`)."""
        self.seats: list[str | None] = list(record.seats)
        self.names: list[str] = list(record.names) + [""] * (len(record.seats) - len(record.names))
        self.table = record.table
        self.daily = record.daily
        self.state = state
        self.store = store
        self.watchers: dict[Peer, Seat | None] = {}
        self.entry: tuple[Any, Fields] | None = None
        """The fields of a new spectator's view as of a version (:meth:`spectator_frame`), and that version's key."""
        self.chat: deque[dict[str, Any]] | None = None
        """The room's last chat lines (server/rooms/chat.py), as stored; None until read from Redis once."""
        self.tally: Tally | None = None
        """The node's counts across its rooms (server/lobby/listing.py ``Rooms``), kept as this room's change."""
        self._spectating = 0
        self.watchers_timer: asyncio.TimerHandle | None = None
        self.watchers_told = -WATCHERS_EVERY
        """When the last ``watchers`` push went (monotonic), and the count it told."""
        self.watchers_count = 0
        self.watchers_seen: dict[Peer, int] = {}
        """Connections that started watching since the last push, and the count their first view told them."""
        self.lock = RoomLock()
        self.timer: asyncio.TimerHandle | None = None
        """When the clock must act next: a plain timer, so arming it again per decision makes no task."""
        self.waking: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the room's timers run on, found once (asking for the running loop costs a system call)."""
        self.decided = (metrics.DECISIONS.labels(self.game.name, "player"), metrics.DECISIONS.labels(self.game.name, "server"))
        """The decision counters of this room's game, by player and by server (bound once, not per decision)."""
        self.suspect = False
        """A commit's fate is unknown: memory may be behind Redis until :meth:`resync`."""
        self.spectator_chat = record.spectator_chat
        self.replays = record.replays
        """Who may export the finished match: ``everyone`` or ``players`` (server/lobby/replays.py)."""
        self.ended = record.ended
        self.history = History(complete=record.version == 0)
        self.closed = ""
        """Why the room was closed (``cancelled``, ``expired``), once it was."""
        self.rematch_nonces: dict[Seat, str] = dict(record.rematch_nonces)
        """The seats that asked for a rematch of the finished match, each with the nonce it sent for the new deal
        (as stored with the room: a node that serves it next knows them)."""
        self.rematched: tuple[Room, dict[Seat, tuple[Seat, str]]] | None = None
        """The new room and, by old seat, its new seat and token, once every seat asked for a rematch here."""
        self.rematch_room = record.rematched
        """The id of the room the rematch is played in, as stored ("" while there is none)."""
        self.owners: list[str] = list(record.owners) + [""] * (len(record.seats) - len(record.owners))
        now = time.time()
        self.clock = clocks.Clock.load(clocks.Limits.from_data(record.limits), len(self.seats), record.clock, alive, now)
        self.clock.sync(game, state, all(self.seats), now)
        self.away: dict[Seat, float] = dict.fromkeys(range(len(self.seats)), now)
        """Seats no connection watches, and since when (wall time)."""
        self.abort_offers: set[Seat] = set(record.abort_offers)
        """The seats that offer to abort the running match (stored with the room, so a move keeps them)."""
        self.link = record.link
        """The last log record's link in the log's chain (server/rooms/snapshots.py)."""
        self.fence: int | None = None
        """The fencing token this node's lease on the room came with (server/store/lease.py)."""
        self.moved = False
        """Another node took the room over: this copy serves nothing more."""
        self.touched: set[str] | None = None
        """Where the room notes that what the lobby shows of it may have changed (server/lobby/listing.py)."""
        self.out = record.out
        """The finished match's writes outside its slot not yet done (a packed :class:`Outbox`; b"": none)."""
        self.made: dict[Seat | None, tuple[Any, dict[str, Any]]] = {}
        """By seat (None: a spectator), the state its view was last made of, and that view."""
        self.patches: dict[Seat | None, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {}
        """By seat, the last delta made: its base view, its view and the delta; emptied after each broadcast, so that
        deltas do not outlive it (kept, every room's would add to what the garbage collector holds and walks)."""

    @property
    def dealt(self) -> bool:
        """Whether the deal exists: until then the room holds a placeholder state that is never shown."""
        return self.seed is not None

    @property
    def over(self) -> bool:
        """Whether the match has ended: its outcome is settled and its seats were taken. A deal lost at once (a chosen
        or daily seed's, dealt at the making) waits for its players like any room; the claim that fills it ends it."""
        return self.game.outcome(self.state) is not None and (self.ended is not None or all(self.seats))

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
            "spectators": self.spectating,
            "status": self.status,
            "version": self.version,
            "scenario": self.game.scenario(self.options),
            "ranked": self.table,
            "daily": self.daily,
            "players": list(self.names),
            "present": [seat is not None and any(held == n for held in self.watchers.values())
                        for n, seat in enumerate(self.seats)],
            "score": self.game.view(self.state, None).get("score") if self.dealt else None,
            "commitment": self.commitment,
            "seeding": self.seeding or seeding.FIXED,
            "clock": self.clock.limits.data(),
            "spectator_chat": self.spectator_chat,
            "replays": self.replays,
        }

    @property
    def spectating(self) -> int:
        """How many of ``watchers`` have no seat: kept as they come and go (and added to the node's tally), not
        counted per view."""
        return self._spectating

    @spectating.setter
    def spectating(self, count: int) -> None:
        if self.tally is not None:
            self.tally.spectating += count - self._spectating
        self._spectating = count

    def _spectators_changed(self, newcomer: Peer | None = None) -> None:
        """Tell everyone watching how many spectators there are now (``watchers``; a ``newcomer`` reads it in the
        view it is sent next, and is told only of a later change): at once, unless the last push was under
        ``WATCHERS_EVERY`` ago; then once that interval is over, with the count of then. A crowd arriving costs
        a push a second, not one to everyone per arrival."""
        if newcomer is not None:
            self.watchers_seen[newcomer] = self.spectating
        if self.watchers_timer is not None:
            return
        wait = self.watchers_told + WATCHERS_EVERY - time.monotonic()
        if wait > 0:
            self.watchers_timer = asyncio.get_running_loop().call_later(wait, self._tell_watchers)
        else:
            self._tell_watchers()

    def _tell_watchers(self) -> None:
        self.watchers_timer = None
        seen, self.watchers_seen = self.watchers_seen, {}
        count = self.spectating
        if self.closed or self.moved or count == self.watchers_count:
            return
        self.watchers_told, self.watchers_count = time.monotonic(), count
        frame = encode({"t": "watchers", "room": self.id, "spectators": count})
        for conn in list(self.watchers):
            if seen.get(conn) != count:
                conn.send(frame)

    def seat_of(self, token: str, conn: Peer | None = None) -> Seat:
        """The seat ``token`` holds (``bad_token`` if none); with ``conn``, its hash is kept with the connection, so
        that each of its decisions does not hash the token again."""
        digest = None if conn is None else conn.digests.get(token)
        if digest is None:
            digest = hash_token(token)
            if conn is not None:
                if len(conn.digests) >= TOKENS_KEPT:
                    conn.digests.clear()
                conn.digests[token] = digest
        for seat, held in enumerate(self.seats):
            if held is not None and hmac.compare_digest(held, digest):
                return seat
        raise ProtocolError(ErrorCode.BAD_TOKEN, f"that token holds no seat in room {self.id}")

    async def claim(self, seat: Seat | None, name: str = "", player: str = "", nonce: str = "",
                    request: str = "") -> tuple[Seat, str]:
        """Give a free seat (the first, or the one asked for) a new secret token, stored before it is granted;
        the seat contributes ``nonce`` (the server picks one if empty), and the last seat's claim sets up
        the deal from every seat's nonce, stored in the same step, before anyone is told."""
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
            filled = all(held is not None or n == seat for n, held in enumerate(self.seats))
            nonce = seeding.nonce_of(nonce) if self.seeding == seeding.PLAYERS else ""
            nonces = [nonce if n == seat else held for n, held in enumerate(self.nonces)]
            state, deal = self.state, None
            if filled and not self.dealt and self.server_seed is not None:
                seed = seeding.derive(self.server_seed, self.salt, nonces)
                state = self.game.setup(self.options, seed)
                deal = seed, pack(self.game.dump(state))
            now = time.time()
            clock = self.clock.copy()
            clock.drain(now)
            clock.sync(self.game, state, filled, now)
            blob = pack(clock.data()) if filled else b""
            try:
                stored = await self.store.claim(self.id, seat, digest, name, player, blob, nonce, deal, request, self.fence)
            except Fenced:
                raise self.lost() from None
            except Exception as exc:  # stored or not? (the last seat's claim also stored the deal)
                stored = await self._claimed(seat, digest, exc)
            if not stored:
                raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat} of room {self.id} is taken")
            self.seats[seat] = digest
            self.names[seat] = name
            self.owners[seat] = player
            self.nonces = nonces
            if deal is not None:
                self.seed, self.state = deal[0], state
            self.clock = clock
            ended = filled and self.over
            if ended:  # a match over as it was dealt (a solitaire lost at once, a tiny HP): it ended without a decision
                try:
                    await self.end_at_deal()
                except Exception:  # the seat and the deal stand; the sweep writes the end (each write counts once)
                    log.exception("match lost at the deal not settled", extra={"room": self.id})
        self.broadcast((), None, None, ended=ended)
        self.arm()
        return seat, token

    async def end_at_deal(self) -> None:
        """Archive, score and settle a match that ended other than by a stored decision (as it was dealt), as a
        decision that ends one would (each step may be taken again: the archive is written once, a score entry
        and a settlement count once)."""
        outcome = self.game.outcome(self.state)
        assert outcome is not None
        out = self.outbox(outcome)
        if await self.store.finish(self.id, outcome.data(), out):
            self.out = out.pack()
        else:  # archived before: what it left to write, if anything
            self.out = await self.store.outbox(self.id)
        self.ended = self.ended or time.time()
        await self.flush()

    def outbox(self, outcome: Outcome) -> Outbox:
        """What the end of the match writes outside the room's slot: its score entry, and its settlement when a
        player with an id held a seat."""
        return Outbox(self.score_entry(outcome), any(self.owners))

    async def flush(self) -> None:
        """Write what the finished match still has to write outside its slot (the score, the ratings and
        histories, leaving the open set), then clear it: each write counts once, so a flush cut short (a stop,
        an outage) is simply done again, here by the sweep or by whichever node loads the room next."""
        if not self.out:
            return
        out = Outbox.unpack(self.out)
        if out.settle:
            await self.settle()
        if out.score is not None:
            await self.store.add_score(*out.score)
        await self.store.done(self.id, self.out)
        self.out = b""

    async def settle(self) -> bool:
        """Rate the finished match and add it to its players' histories, once (server/players/standings.py)."""
        outcome = self.game.outcome(self.state)
        if outcome is None:
            return False
        return await standings.settle(self.store, standings.Finished(
            self.id, self.game.name, self.table, tuple(self.owners), tuple(self.names), outcome, self.ended or time.time()))

    def lost(self) -> ProtocolError:
        """Another node has taken the room over (its lease lapsed here): stop serving it and drop the
        connections watching it, which reconnect and resume wherever the room is served now."""
        self.moved = True
        self.disarm()
        for conn in list(self.watchers):
            conn.drop(f"room {self.id} moved to another server node: reconnect and resume")
        self.watchers.clear()
        self.spectating = 0
        return ProtocolError(ErrorCode.UNAVAILABLE, f"room {self.id} is now served by another server node: "
                                                    "reconnect and resume it")

    async def _claimed(self, seat: Seat, digest: str, exc: Exception) -> bool:
        """After a failed claim, ask Redis whether it was stored (its reply may have been lost on the way):
        granted if the seat holds this token, ``unavailable`` if it is free or Redis cannot say."""
        try:
            held = await self.store.holder(self.id, seat)
        except Exception as again:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"the store cannot say whether seat {seat} was taken; "
                                                       f"try again: {again}") from None
        if held is None:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"seat {seat} was not taken, try again: {exc}") from None
        return hmac.compare_digest(held, digest)

    def watch(self, conn: Peer, seat: Seat | None) -> None:
        """``conn`` watches the room, as ``seat`` or as a spectator; a seat has one connection at a time:
        any other connection watching as that seat is moved off it and told why (``seat_moved``)."""
        if seat is not None:
            for other, held in list(self.watchers.items()):
                if held == seat and other is not conn:
                    self.watchers.pop(other, None)
                    other.rooms.pop(self.id, None)
                    other.views.pop(self.id, None)
                    other.send(encode({
                        "t": "seat_moved", "room": self.id, "seat": seat,
                        "message": f"seat {seat} of room {self.id} was resumed on another connection; "
                                   "this one no longer gets its views (resume it here to take it back)",
                    }))
        was = self.watchers.get(conn, ABSENT)
        previous = None if was == ABSENT else was
        self.watchers[conn] = seat
        conn.rooms[self.id] = seat
        self.touch()
        if (seat is None) != (was is None):
            self.spectating += 1 if seat is None else -1
            self._spectators_changed(conn)
        if previous is not None and previous != seat:
            self._left(previous)
        if seat is not None and self.away.pop(seat, None) is not None:
            self.presence(seat, True)
            self.arm()

    def touch(self) -> None:
        """What the lobby shows of the room may have changed: other nodes are told (server/cluster/directory.py)."""
        if self.touched is not None:
            self.touched.add(self.id)

    def trim(self) -> None:
        """Let go of what a finished room keeps only to serve its watchers fast (its views, deltas and entry frame,
        and what its final state remembers: made again if someone comes to watch) while no one watches it: a node
        keeps hundreds of finished rooms, and a full collection walks every object they hold."""
        self.made.clear()
        self.patches.clear()
        self.entry = None
        memo = getattr(self.state, "memo", None)
        if isinstance(memo, dict):
            memo.clear()

    def unwatch(self, conn: Peer) -> None:
        if conn not in self.watchers:
            conn.rooms.pop(self.id, None)
            conn.views.pop(self.id, None)
            return
        seat = self.watchers.pop(conn)
        conn.rooms.pop(self.id, None)
        conn.views.pop(self.id, None)
        self.touch()
        if seat is None:
            self.spectating -= 1
            self._spectators_changed()
        if seat is not None:
            self._left(seat)

    def _left(self, seat: Seat) -> None:
        """A connection stopped watching as ``seat``: if it was the last, the seat is away."""
        if seat in self.away or any(held == seat for held in self.watchers.values()):
            return
        self.away[seat] = time.time()
        self.presence(seat, False)
        self.arm()

    def presence(self, seat: Seat, connected: bool) -> None:
        """Tell everyone watching that a seat's last connection dropped or left, or that one came back: while the
        match runs (a clock runs on for an absent seat), and once it is over (a seat gone will not ask for a
        rematch: the other need not wait for one)."""
        frame = encode({"t": "presence", "room": self.id, "seat": seat, "connected": connected})
        for conn in list(self.watchers):
            conn.send(frame)

    def view_of(self, seat: Seat | None) -> dict[str, Any] | None:
        """The seat's view of the room now (None before the deal): made once per state, and the very object every
        frame of it sends, so a connection's last view is known by identity (the base of its next delta)."""
        if not self.dealt:
            return None
        made = self.made.get(seat)
        if made is not None and made[0] is self.state:
            return made[1]
        view = self.game.view(self.state, seat)
        self.made[seat] = (self.state, view)
        return view

    def base_of(self, conn: Peer, seat: Seat | None) -> tuple[int, dict[str, Any]] | None:
        """The version and view a delta to ``conn`` builds on: the last it was sent of this room, as this seat,
        if it asked for deltas and that view was not null; None: it gets a whole view."""
        if not conn.deltas:
            return None
        held = conn.views.get(self.id)
        if held is None or held[1] != seat or held[2] is None or not self.dealt:
            return None
        return held[0], held[2]

    def patch(self, seat: Seat | None, base: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
        """The delta from ``base`` to ``view``: made once for every watcher of the seat that holds that base."""
        made = self.patches.get(seat)
        if made is not None and made[0] is base and made[1] is view:
            return made[2]
        delta = diff(base, view)
        self.patches[seat] = (base, view, delta)
        return delta

    def view_frame(self, seat: Seat | None, events: list[dict[str, Any]], re: int | None = None,
                   recent: list[dict[str, Any]] | None = None, base: tuple[int, dict[str, Any]] | None = None,
                   live: dict[str, Any] | None = None, packer: Shared | None = None) -> bytes:
        """The seat's ``view`` frame: its whole view, or (``base``) the delta from the view of that version; ``live``,
        the clocks and spectators when the caller read them for several frames at once; ``packer``, a broadcast's,
        which packs the parts its frames share once."""
        message = self._view_fields(seat, events, base)
        message["re"] = re
        message.update(live or self._live_fields())
        if recent is not None:
            message["recent"] = recent
        return encode(message) if packer is None else packer.pack(message)

    def _view_fields(self, seat: Seat | None, events: list[dict[str, Any]],
                     base: tuple[int, dict[str, Any]] | None = None) -> dict[str, Any]:
        """The fields of a view frame that change only with the room's version or its players' presence (a new
        map each call: the caller adds its own)."""
        view = self.view_of(seat)
        fields: dict[str, Any] = {"t": "view", "room": self.id, "version": self.version}
        if base is not None and view is not None:
            fields["base"], fields["delta"] = base[0], self.patch(seat, base[1], view)
        else:
            fields["view"] = view
        fields["events"] = events
        fields["presence"] = [n not in self.away for n in range(len(self.seats))]
        fields["blocked"] = self.game.blocked(self.state, seat) if self.dealt and seat is not None else []
        return fields

    def _live_fields(self) -> dict[str, Any]:
        """The fields of a view frame read anew for each: the clocks as of now, the spectators."""
        return {"clock": self.clock.wire(time.time()), "spectators": self.spectating}

    def spectator_frame(self, re: int) -> bytes:
        """The view a new spectator gets, with the room's recent events: encoded once per version (and presence),
        however many come to watch it, with only ``re``, the clocks and the spectators added per frame."""
        key = (self.version, tuple(self.away), len(self.history.events), self.history.complete, self.dealt)
        if self.entry is None or self.entry[0] != key:
            self.entry = key, Fields({**self._view_fields(None, []), "recent": self.history.recent(None)})
        return self.entry[1].encode(re=re, **self._live_fields())

    def sent(self, conn: Peer, seat: Seat | None) -> None:
        """Note the view ``conn`` was just sent as ``seat``: the base of the next delta it is sent (only for a
        connection that takes deltas: the others, a thousand spectators of one room say, keep nothing)."""
        if conn.deltas:
            conn.views[self.id] = (self.version, seat, self.view_of(seat))

    def send_view(self, conn: Peer, seat: Seat | None, events: list[dict[str, Any]], re: int | None = None,
                  recent: list[dict[str, Any]] | None = None, whole: bool = False,
                  live: dict[str, Any] | None = None, packer: Shared | None = None, after: bytes | None = None) -> None:
        """Send ``conn`` the seat's view frame: a delta if it asked for them and holds a base, unless ``whole``;
        ``after``, a frame that follows it in the same write (the match's result)."""
        _send(conn, self.view_frame(seat, events, re, recent, None if whole else self.base_of(conn, seat), live, packer),
              after)
        self.sent(conn, seat)

    def send_entry(self, conn: Peer, seat: Seat | None, re: int) -> None:
        """The whole view that opens the room to ``conn``, with its recent events (a spectator's is shared)."""
        if seat is None:
            conn.send(self.spectator_frame(re))
            self.sent(conn, None)
        else:
            self.send_view(conn, seat, [], re, self.history.recent(seat), whole=True)

    async def decide(self, conn: Peer, token: str, version: int, decision: Decision, re: int) -> bool:
        """Check, apply, persist, and only then tell every watcher what it may see. True when the decision was stored
        now; False when it was one stored before, acknowledged again."""
        lock = self.lock
        if not lock.take():  # (taken as ``async with`` would, with no coroutine made for a free lock)
            await lock.wait()
        try:
            if self.suspect:
                await self.resync()
            seat = self.seat_of(token, conn)
            if not all(self.seats):
                waiting = sum(1 for s in self.seats if s is None)
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"room {self.id} is waiting for {waiting} more player(s)")
            try:
                self._current(seat, version, decision)
                await self._apply(seat, self.schema_fields(seat, decision), conn, re)
            except ProtocolError as exc:
                # only a refused decision can be a retry of a stored one: the normal path reads nothing more
                if (exc.code in RETRY_REFUSALS and version < self.version
                        and await self._applied_before(seat, version, decision)):
                    self.send_view(conn, seat, [], re)  # acknowledged again, not applied twice
                    return False
                raise
            return True
        finally:
            lock.release()

    def _current(self, seat: Seat, version: int, decision: Decision) -> None:
        """Refuse a decision for a finished match, a server-only kind, or a version outside ``opened..current``."""
        if self.over:
            raise ProtocolError(ErrorCode.MATCH_OVER, f"the match in room {self.id} is over")
        if not isinstance(decision.get("kind"), str):
            raise ProtocolError(ErrorCode.BAD_FIELD, "decide: the decision's 'kind' must be a string")
        if decision["kind"] in SERVER_ONLY:
            raise ProtocolError(ErrorCode.ILLEGAL_DECISION,
                                f"only the server applies {decision.get('kind')!r}; send 'resign' or 'abort' instead")
        current = self.version
        if not self.game.opened(self.state, seat) <= version <= current:
            raise ProtocolError(
                ErrorCode.STALE_VERSION,
                f"decision made against version {version}; room {self.id} is at {current}, "
                f"and seat {seat}'s decision opened at {self.game.opened(self.state, seat)}",
            )

    def schema_fields(self, seat: Seat, decision: Decision) -> Decision:
        """The decision with only the fields the game's decisions of its kind have: anything else is refused,
        so no baggage reaches the log; ``label`` and ``loses`` (display hints from ``legal``) are dropped."""
        kind = decision.get("kind")
        legal = self.game.legal(self.state, seat)
        sent = decision.keys() - DISPLAY_ONLY
        if not any(d.get("kind") == kind and sent <= d.keys() for d in legal):  # else its fields are all known
            known = {key for d in legal if d.get("kind") == kind for key in d} - DISPLAY_ONLY
            extra = sorted(sent - known)
            if known and extra:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"decide: a {kind!r} decision has no field(s) "
                                    f"{', '.join(map(repr, extra))}; it takes {', '.join(sorted(known))}")
        return {key: value for key, value in decision.items() if key not in DISPLAY_ONLY}

    async def _apply(self, seat: Seat, decision: Decision, conn: Peer | None, re: int | None,
                     by_server: bool = False) -> None:
        """Apply with the engine, persist, then broadcast; the caller holds the lock."""
        current = self.version
        try:
            state, events = self.game.apply(self.state, seat, decision)
        except EngineError as exc:
            raise ProtocolError(ErrorCode(exc.code.value), exc.message) from None
        new_version = self.game.version(state)
        outcome = self.game.outcome(state)
        now = time.time()
        stored = dict(decision)
        link = snapshots.link(self.link, new_version, seat, stored)
        entry: dict[str, Any] = {"v": new_version, "seat": seat, "d": stored, "ts": now, "c": link}
        packed = b""
        if snapshots.due(new_version, outcome is not None):  # else the log alone holds it (server/rooms/snapshots.py)
            packed = pack(self.game.dump(state))
            entry["h"] = snapshots.digest(packed)
        if by_server:
            entry["server"] = True
        self.clock.drain(now)
        clock = self.clock.copy()
        clock.decided(seat, str(decision.get("kind")), by_server)
        clock.sync(self.game, state, all(self.seats), now)
        out = self.outbox(outcome) if outcome is not None else None
        started = time.perf_counter()
        try:
            await self.store.commit(
                self.id, current, new_version, packed, pack(entry),
                outcome is not None, out, outcome.data() if outcome is not None else None,
                pack(clock.data()), link, self.fence,
            )
        except Fenced:
            raise self.lost() from None
        except Unreplicated as exc:  # the primary has it, too few replicas do: told nothing; the room resyncs
            self.suspect = True
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"the decision was not confirmed by the store's replicas ({exc}); "
                                "resume the seat to learn whether it stands, or send it again (never applied twice)") from None
        except Exception as exc:  # StaleWrite, redis-py and socket errors alike: stored or not?
            landed = await self._landed(new_version)
            if landed is None:
                raise ProtocolError(ErrorCode.OUTCOME_UNKNOWN, "the store did not say whether the decision was stored; "
                                    "resume the seat to learn, or send it again (never applied twice)") from None
            if not landed:
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"the decision was not stored, try again: {exc}") from None
        metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        self.decided[by_server].inc()
        if log.isEnabledFor(logging.DEBUG):  # the record's fields are not made for nothing at every decision
            log.debug("decision stored", extra={"room": self.id, "seat": seat, "version": new_version, "re": re,
                                                "kind": str(decision.get("kind")), "by": "server" if by_server else "player"})
        self.state = state
        self.clock = clock
        self.link = link
        if outcome is not None:  # settled before anyone is told, so the end's view finds the ratings moved
            self.ended = time.time()
            self.out = out.pack() if out is not None else b""
            try:
                await self.flush()
            except Exception:  # the match stands; the sweep writes what remains (each write counts once)
                log.exception("match not settled", extra={"room": self.id})
        self.broadcast(events, conn, re, seat)
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

    async def _landed(self, new_version: int) -> bool | None:
        """After a failed commit, ask Redis whether it was stored (the reply may have been lost on the way); None
        when Redis cannot say. Then, or when Redis holds neither version, the room is ``suspect``: it resyncs
        before serving anything else."""
        try:
            stored = await self.store.version(self.id)
        except Exception:
            self.suspect = True
            return None
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
            was_over = self.over
            self.state = snapshots.rebuild(self.game, record)
            self.link = record.link
            self.out = record.out
            now = time.time()
            self.clock = clocks.Clock.load(clocks.Limits.from_data(record.limits), len(self.seats), record.clock, None, now)
            self.clock.sync(self.game, self.state, all(self.seats), now)
            for conn in self.watchers:  # what memory sent may not be what stands: whole views from here
                conn.views.pop(self.id, None)
            self.broadcast((), None, None, ended=self.over and not was_over)
            self.arm()

    async def resign(self, conn: Peer, token: str, re: int) -> None:
        """The seat gives up: the other wins (reason ``resigned``), stored and told like any decision."""
        async with self.lock:
            seat = self._playing(token)
            await self._apply(seat, {"kind": "resign"}, conn, re)

    async def halt(self) -> None:
        """The operator ends the running match: no result (reason ``aborted``), stored and told like any
        decision, so its record is kept; the caller holds the lock."""
        await self._apply(0, {"kind": "abort"}, None, None, by_server=True)

    async def abort(self, conn: Peer, token: str, re: int) -> None:
        """Offer (or, the last seat to ask, agree) to abort: no result; only before anything is resolved."""
        async with self.lock:
            seat = self._playing(token)
            if not self.game.abortable(self.state):
                raise ProtocolError(ErrorCode.TOO_LATE, f"too late to abort the match in room {self.id}: "
                                                        "the first duel (or attack) has been resolved; resign instead")
            self.abort_offers = set((await self.offer("abort", seat))[0])
            if len(self.abort_offers) == len(self.seats):
                await self._apply(seat, {"kind": "abort"}, conn, re, by_server=True)
                return
            offer = {"t": "abort_offered", "room": self.id, "seat": seat}
            conn.send(encode({**offer, "re": re}))
            for other in list(self.watchers):
                if other is not conn:
                    other.send(encode({**offer, "re": None}))

    async def offer(self, kind: str, seat: Seat, value: str = "") -> tuple[dict[Seat, str], str]:
        """Store ``seat``'s offer to ``abort`` or to ``rematch`` (with ``value``) with the room; every seat's offer of
        that kind as stored now, and the room the rematch is played in ("" while none is)."""
        try:
            return await self.store.offer(self.id, kind, seat, value, len(self.seats), None if self.over else self.fence)
        except Fenced:
            raise self.lost() from None
        except StoreMissing:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"room {self.id} is no longer kept") from None

    def _playing(self, token: str) -> Seat:
        """The seat ``token`` holds, in a match that has started and not ended; the caller holds the lock."""
        seat = self.seat_of(token)
        if self.over:
            raise ProtocolError(ErrorCode.MATCH_OVER, f"the match in room {self.id} is over")
        if not all(self.seats):
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"room {self.id} is still waiting for players")
        return seat

    def arm(self, delay: float | None = None) -> None:
        """(Re)schedule the next thing the clock must do (a time-out or a forfeit), if any clock runs. A timer set to
        fire no later is kept: a decision moves the deadline later, and a timer that fires early finds nothing due
        and is set again (:meth:`_wake`), which costs less than cancelling and making one at every decision."""
        if self.over or not all(self.seats) or self.moved:
            self.disarm()
            return
        if delay is None:
            delay = self.clock.wake(time.time(), self.away)
            if delay is None:
                self.disarm()
                return
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        when = self.loop.time() + delay + 0.005
        timer = self.timer
        if timer is not None:
            if timer.when() <= when:
                return
            timer.cancel()
        self.timer = self.loop.call_at(when, self._due)

    def disarm(self) -> None:
        """Stop the clock's timer: the room is closed, over, moved or runs no clock."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _due(self) -> None:
        assert self.loop is not None  # armed by :meth:`arm`
        self.waking = self.loop.create_task(self._wake(self.timer))

    async def _wake(self, timer: asyncio.TimerHandle | None) -> None:
        """Time is up for a seat: the server takes the game's default (or the forfeit), like any decision."""
        async with self.lock:
            if self.timer is not timer:  # armed again, or stopped, while this waited for the room
                return
            self.timer = None
            now = time.time()
            self.clock.drain(now)
            due = self.clock.due(now, self.away)
            if due is None or self.over:
                self.arm()
                return
            seat, kind = due
            try:
                await self._apply(seat, {"kind": kind}, None, None, by_server=True)
            except ProtocolError:
                log.exception("room %s: %s for seat %s not applied; retrying", self.id, kind, seat)
                self.arm(1.0)
            except Exception:
                log.exception("room %s: %s for seat %s failed; retrying later", self.id, kind, seat)
                self.arm(5.0)

    def score_entry(self, outcome: Outcome | None) -> tuple[str, str, int] | None:
        """A finished ranked solitaire's entry for its high-score table: (table, member, points)."""
        if outcome is None or not self.table or len(self.seats) != 1 or not outcome.scores:
            return None
        member = f"{(self.names[0] if self.owners[0] else '') or 'guest'}|{self.id}"
        return f"{self.game.name}:{self.table}", member, outcome.scores[0]

    def reveal(self) -> dict[str, Any]:
        """What ``match_over`` reveals of the seed: the seed, the commitment and (for rooms with a salted
        commitment) the server's secret, its salt, each seat's nonce and how the seed was made. A daily
        room tells none of it until its day has ended (``reveal_after``): its deal is the day's for everyone."""
        return reveal_fields(self.seed, self.daily, self.commitment, self.server_seed, self.salt,
                             list(self.nonces) if self.seeding == seeding.PLAYERS else [], self.seeding)

    async def recover_history(self) -> None:
        """Replay the stored log with the engine to recover the last events of a reloaded room; once per room
        (if the log cannot be replayed to the room's version, ``recent`` starts empty)."""
        if self.history.done():
            return
        async with self.lock:
            if self.history.done():
                return
            if self.seed is None:  # not dealt yet: nothing has happened
                self.history.restore(())
                return
            events: list[Event] = []
            try:
                state = self.game.setup(self.options, self.seed)
                for record in await self.store.log(self.id):
                    state, new = self.game.apply(state, record["seat"], record["d"])
                    events.extend(new)
                if self.game.version(state) != self.version:
                    raise ValueError(f"log replays to version {self.game.version(state)}, not {self.version}")
            except Exception as exc:  # any record the engine cannot replay: recent starts empty
                log.warning("room %s: recent events not rebuilt: %s", self.id, exc)
                events = []
            self.history.restore(events)

    def over_frame(self) -> bytes | None:
        """The ``match_over`` message of a finished room (``None`` while it goes on or waits for its players)."""
        if not self.over:
            return None
        outcome = self.game.outcome(self.state)
        assert outcome is not None
        return encode({"t": "match_over", "room": self.id, "outcome": outcome.data(), **self.reveal()})

    def broadcast(self, events: Any, decider: Peer | None, re: int | None, decider_seat: Seat | None = None,
                  ended: bool = False) -> None:
        """Each watcher gets its own view (a delta if it asked for them) and events; frames are built once per seat
        and base, and shared by the watchers of that seat. The ``decider`` (as
        ``decider_seat``) is answered even when it does not watch the room: a fresh connection deciding with
        its token, or the other of two connections of one seat. ``ended``: the match ended other than by these
        events (as it was dealt, or by a decision learnt from the store): each watcher gets its result all the same."""
        self.touch()
        frames: dict[tuple[Seat | None, int | None], tuple[Any, bytes]] = {}
        whole: dict[tuple[Seat | None, type[Peer]], list[Peer]] = {}
        evs: tuple[Event, ...] = tuple(events)
        self.history.extend(evs)
        # a decision that ended the match, or its end otherwise: its result follows each frame
        over = self.over_frame() if evs or ended else None
        answered = False
        live = self._live_fields()  # read once: every frame of this broadcast is sent in the same turn of the loop
        packer = shared()  # the parts the frames share (the events told alike, the clocks, the pile's new cards) once
        redacted: dict[Seat | None, list[dict[str, Any]]] = {}
        for conn, seat in list(self.watchers.items()):
            told = redacted.get(seat)
            if told is None:
                told = redacted[seat] = redact_all(evs, seat)
            if conn is decider and (decider_seat is None or seat == decider_seat):
                self.send_view(conn, seat, told, re, live=live, packer=packer, after=over)
                answered = True
            elif not conn.deltas:  # whole views (a thousand spectators, say): one frame per seat, sent below
                whole.setdefault((seat, type(conn)), []).append(conn)
                continue
            else:  # one frame per seat and base: every watcher of the seat normally holds the same
                base = self.base_of(conn, seat)
                held = None if base is None else base[1]
                key = seat, None if held is None else id(held)
                made = frames.get(key)
                if made is None or made[0] is not held:
                    made = frames[key] = held, self.view_frame(seat, told, None, None, base, live, packer)
                _send(conn, made[1], over)
                self.sent(conn, seat)
        made_whole: dict[Seat | None, bytes] = {}
        for (seat, kind), conns in whole.items():  # nothing kept for them
            frame = made_whole.get(seat)
            if frame is None:
                frame = made_whole[seat] = self.view_frame(seat, redacted[seat], None, None, None, live, packer)
            kind.send_all(conns, frame, over)
        if decider is not None and decider_seat is not None and not answered:
            self.send_view(decider, decider_seat, redact_all(evs, decider_seat), re, live=live, packer=packer,
                           after=over)
        packer.close()  # (on an error before it, the packer lets go of the parts when it is dropped)
        self.patches.clear()
        for event in evs:  # what each was told is encoded: kept with the history, it would only add to the heap
            event.told = None


def _send(conn: Peer, frame: bytes, after: bytes | None) -> None:
    """Send ``conn`` a frame and (``after``: the match's result after its last view) the one after it, in one write."""
    if after is None:
        conn.send(frame)
    else:
        conn.send_all([conn], frame, after)
