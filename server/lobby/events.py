"""Events: Swiss tournaments of the two-player games, and solitaire events where everyone plays one deal in a time
window (docs/protocol.md, "Events").

An event lives in Redis, so every node answers the same (prefix ``cardroom:``):

- ``events`` a sorted set, event -> creation time (the listing); ``events:live`` the events not over yet;
- ``event:{id}`` (the id in braces, so that an event's keys share one Redis Cluster hash slot) a hash: kind,
  game, title, options, clock, rounds, start, ends, invite, creator, rated, created,
  ``phase`` (``registering``, ``pairing:{r}``, ``playing:{r}``, ``finished``, ``cancelled``), round, ``version``
  (moved by every change followers are told of), ``news`` (the last such change), ``standings`` (after a round);
- ``event:{id}:players`` player -> msgpack {name, nonce, at}; ``event:{id}:dropped`` player -> the round it was in;
- per table ``{r}:{t}`` of round r: ``event:{id}:tables`` msgpack [seat 0's player, seat 1's] ("" for a bye's),
  ``event:{id}:rooms`` its room, ``event:{id}:results`` msgpack {points, games, played, winner, reason};
- ``event:{id}:seats`` ``{r}:{player}`` -> msgpack {room, seat, token}: the seat the round gave a player, told to it
  (and only to it) until its table has a result, deleted once the round ends.

A Swiss event's rounds are run by one node at a time, under the event's lease (``event:{id}:lease``,
server/store/lease.py), every ``STEP_EVERY`` seconds: each step is a compare-and-set of the event's ``phase`` in
a script that first checks the lease is still this node's, so a node that lost it changes nothing, and a node
that takes it over carries on from the phase stored. A table's result is read from its room's match record
(written with the match's last decision) and recorded once (a field set only if absent): nothing is lost when
a node dies, nothing is counted twice.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import msgpack

from engine import registry
from engine.errors import EngineError
from engine.interface import Game
from protocol import ErrorCode, ProtocolError, encode
from server.lobby import retries, swiss
from server.lobby.lobby import MAX_OPTIONS_BYTES, Lobby, daily_seed
from server.rooms.clock import limits_for
from server.rooms.peer import Peer
from server.rooms.room import Room
from server.store import keys
from server.store.store import PREFIX, RECORD_TTL

__all__ = ["MAX_PLAYERS", "MAX_ROUNDS", "SOLITAIRE", "STEP_EVERY", "SWISS", "Events", "result_of"]

log = logging.getLogger(__name__)

SWISS = "swiss"
SOLITAIRE = "solitaire"
STEP_EVERY = 0.5
"""Seconds between two steps of the events a node runs."""
YIELD_FOR = 4 * STEP_EVERY
"""Seconds a node that gave an event up (it could not seat a table) leaves the event to the other nodes."""
TELL_EVERY = 0.25
"""Seconds between two looks, per node, for changes of the events its connections follow."""
MAX_PLAYERS = 2048
MAX_ROUNDS = 20
MAX_INVITED = 256
MAX_AHEAD = 30 * 24 * 3600
"""How far ahead an event may start (seconds)."""
LASTS = (60, 7 * 24 * 3600, 3600)
"""A solitaire event's window: shortest, longest, default (seconds)."""
SEAT_BATCH = 64
"""Tables of a round seated at once."""
LISTED = 500
"""Newest events a listing looks at."""
LIMIT = 100
STATUSES = ("upcoming", "running", "finished", "cancelled")

EVENTS = PREFIX + "events"
LIVE = PREFIX + "events:live"


def _key(event: str, part: str = "") -> str:
    return f"{PREFIX}event:{{{event}}}" + (f":{part}" if part else "")


def _scores(game: str, event: str) -> str:
    return f"{PREFIX}scores:{game}:event:{event}"


# KEYS: the event's lease, its hash. ARGV: node, guard hash, guard field, expected value ('' absent), news, then
# (hash, field, value) triples. With the lease this node's and the guard field as expected (no guard when the
# field is ''), every triple set and (with news) the version moved: 1; 0 when the guard failed; -1 without lease.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if ARGV[3] ~= '' then
  local cur = redis.call('HGET', ARGV[2], ARGV[3])
  if ARGV[4] == '' then
    if cur then return 0 end
  elseif cur ~= ARGV[4] then return 0 end
end
for i = 6, #ARGV, 3 do redis.call('HSET', ARGV[i], ARGV[i + 1], ARGV[i + 2]) end
if ARGV[5] ~= '' then
  redis.call('HINCRBY', KEYS[2], 'version', 1)
  redis.call('HSET', KEYS[2], 'news', ARGV[5])
end
return 1
"""

# KEYS: the event's hash, its players. ARGV: player, blob, most players. Registered while the event registers:
# 1, 0 when it was already, -1 when registration is closed, -2 when the event is full.
_REGISTER = """
if redis.call('HGET', KEYS[1], 'phase') ~= 'registering' then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return -2 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'news', 'registered')
return 1
"""

# KEYS: the event's hash, its players. ARGV: player. 1 unregistered, 0 not registered, -1 registration closed.
_UNREGISTER = """
if redis.call('HGET', KEYS[1], 'phase') ~= 'registering' then return -1 end
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'news', 'unregistered')
return 1
"""

# KEYS: the event's hash, its players, its dropped. ARGV: player. 1 dropped (in the round running now), 0 not
# registered or dropped before, -1 the event is not running.
_DROP = """
local phase = redis.call('HGET', KEYS[1], 'phase')
if not phase or (string.sub(phase, 1, 8) ~= 'pairing:' and string.sub(phase, 1, 8) ~= 'playing:') then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[3], ARGV[1], redis.call('HGET', KEYS[1], 'round'))
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'news', 'dropped')
return 1
"""

# KEYS: the event's hash. ARGV: creator, now. The start moved to now while it registers: 1; 0 not the creator;
# -1 not registering.
_START = """
if redis.call('HGET', KEYS[1], 'phase') ~= 'registering' then return -1 end
if redis.call('HGET', KEYS[1], 'creator') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'start', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'news', 'starting')
return 1
"""

# KEYS: the event's lease. ARGV: node. The lease given up, if it is still this node's.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _cell(round_: int, table: int) -> str:
    return f"{round_}:{table}"


def _unpack(raw: bytes) -> Any:
    return msgpack.unpackb(raw, raw=False)


def result_of(game: str, outcome: dict[str, Any]) -> dict[str, Any]:
    """A table's result from its match's outcome: match points per seat (an aborted match is a draw) and game
    points (Fairy Meat's duels won when it ended by knockout, else the match as one game)."""
    winner = outcome.get("winner")
    reason = str(outcome.get("reason", ""))
    if winner in (0, 1):
        points = [1.0, 0.0] if winner == 0 else [0.0, 1.0]
    else:
        points = [0.5, 0.5]
    scores = outcome.get("scores") or []
    if game == "fairy_meat" and reason == "knockout" and len(scores) == 2 and sum(scores) > 0:
        games, played = [float(scores[0]), float(scores[1])], int(sum(scores))
    else:
        games, played = list(points), 1
    return {"points": points, "games": games, "played": played, "winner": winner if winner in (0, 1) else None,
            "reason": reason}


def forfeited(event: Event, r: int, results: dict[tuple[int, int], dict[str, Any]]) -> set[str]:
    """The players who lost a table of round ``r`` by forfeit (they stayed away, or let their clock run out
    again and again): withdrawn from the rounds after it, as a player who drops is, so nobody is paired
    against an empty chair."""
    out = set()
    for cell, players in event.tables.items():
        result = results.get(cell)
        if cell[0] == r and result is not None and result["reason"] == "forfeit" and result["winner"] in (0, 1):
            out.add(players[1 - result["winner"]])
    return out - {""}


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player."""

    player: str
    name: str
    nonce: str
    at: float
    dropped: int
    """The round it dropped in (0: still in)."""


@dataclass(frozen=True)
class Event:
    """An event as stored."""

    id: str
    kind: str
    game: str
    title: str
    options: dict[str, Any]
    clock: dict[str, int]
    rounds: int
    start: float | None
    ends: float | None
    invite: tuple[str, ...]
    creator: str
    creator_name: str
    rated: bool
    created: float
    phase: str
    round: int
    version: int
    news: str
    attempts: int
    """A solitaire event's attempts made."""
    entrants: dict[str, Entrant] = field(default_factory=dict)
    tables: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    rooms: dict[tuple[int, int], str] = field(default_factory=dict)
    results: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)

    def status(self, now: float) -> str:
        """``upcoming``, ``running``, ``finished`` or ``cancelled``."""
        if self.kind == SOLITAIRE:
            if self.phase == "cancelled":
                return "cancelled"
            if self.start is not None and now < self.start:
                return "upcoming"
            return "running" if self.ends is not None and now < self.ends else "finished"
        if self.phase in ("finished", "cancelled"):
            return self.phase
        return "upcoming" if self.phase == "registering" else "running"

    def ordered(self) -> list[str]:
        """The players in registration order."""
        return [e.player for e in sorted(self.entrants.values(), key=lambda e: (e.at, e.player))]

    def recorded(self) -> list[swiss.Result]:
        """Every recorded result, as the standings count them."""
        out = []
        for (r, t), result in sorted(self.results.items()):
            players = self.tables.get((r, t))
            if players is None:
                continue
            out.append(swiss.Result(r, players, (Fraction(result["points"][0]), Fraction(result["points"][1])),
                                    (Fraction(result["games"][0]), Fraction(result["games"][1])), int(result["played"])))
        return out

    def standings(self) -> list[swiss.Standing]:
        return swiss.standings(self.ordered(), self.recorded())


def _phase_round(phase: str) -> tuple[str, int]:
    step, _, n = phase.partition(":")
    return step, int(n) if n else 0


class Events:
    """This node's side of the events: requests about them, the steps of the Swiss events it holds the lease
    of, and the pushes to its connections that follow an event."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.redis = lobby.store.redis
        self.node = lobby.leases.node
        self._write = self.redis.register_script(_WRITE)
        self._register = self.redis.register_script(_REGISTER)
        self._unregister = self.redis.register_script(_UNREGISTER)
        self._drop = self.redis.register_script(_DROP)
        self._start = self.redis.register_script(_START)
        self._release = self.redis.register_script(_RELEASE)
        self.yielded: dict[str, float] = {}
        """Events this node gave up, and until when (monotonic) it leaves them to the other nodes."""
        self.followers: dict[str, dict[Peer, None]] = {}
        """This node's connections following each event."""
        self.told: dict[str, tuple[int, int]] = {}
        """The version (and score count) each followed event was last told at."""
        self.games: dict[str, str] = {}
        """The game of each followed event."""

    # -- reading ----------------------------------------------------------------------------

    async def load(self, event_id: str) -> Event | None:
        """An event as stored (None: no such event)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(_key(event_id))
            for part in ("players", "dropped", "tables", "rooms", "results"):
                pipe.hgetall(_key(event_id, part))
            raw, players, dropped, tables, rooms, results = await pipe.execute()
        if not raw or b"kind" not in raw:
            return None
        return self._parse(event_id, raw, players, dropped, tables, rooms, results)

    @staticmethod
    def _parse(event_id: str, raw: dict[bytes, bytes], players: dict[bytes, bytes] | None = None,
               dropped: dict[bytes, bytes] | None = None, tables: dict[bytes, bytes] | None = None,
               rooms: dict[bytes, bytes] | None = None, results: dict[bytes, bytes] | None = None) -> Event:
        def cell(k: bytes) -> tuple[int, int]:
            r, t = k.decode().split(":")
            return int(r), int(t)

        gone = {k.decode(): int(v) for k, v in (dropped or {}).items()}
        entrants = {}
        for k, v in (players or {}).items():
            blob = _unpack(v)
            player = k.decode()
            entrants[player] = Entrant(player, blob["name"], blob.get("nonce", ""), float(blob["at"]), gone.get(player, 0))
        start = raw.get(b"start", b"").decode()
        ends = raw.get(b"ends", b"").decode()
        return Event(
            id=event_id, kind=raw[b"kind"].decode(), game=raw[b"game"].decode(), title=raw.get(b"title", b"").decode(),
            options=_unpack(raw[b"options"]), clock=_unpack(raw[b"clock"]), rounds=int(raw.get(b"rounds", b"0")),
            start=float(start) if start else None, ends=float(ends) if ends else None,
            invite=tuple(_unpack(raw[b"invite"])), creator=raw[b"creator"].decode(),
            creator_name=raw.get(b"creator_name", b"").decode(), rated=raw.get(b"rated") == b"1",
            created=float(raw[b"created"]), phase=raw[b"phase"].decode(), round=int(raw.get(b"round", b"0")),
            version=int(raw.get(b"version", b"0")), news=raw.get(b"news", b"").decode(),
            attempts=int(raw.get(b"attempts", b"0")), entrants=entrants,
            tables={cell(k): (str(_unpack(v)[0]), str(_unpack(v)[1])) for k, v in (tables or {}).items()},
            rooms={cell(k): v.decode() for k, v in (rooms or {}).items()},
            results={cell(k): _unpack(v) for k, v in (results or {}).items()},
        )

    async def find(self, event_id: str) -> Event:
        event = await self.load(event_id)
        if event is None:
            raise ProtocolError(ErrorCode.UNKNOWN_EVENT, f"no event {event_id!r}")
        return event

    def summary(self, event: Event, now: float | None = None) -> dict[str, Any]:
        """The event as the listing shows it."""
        return {
            "event": event.id, "kind": event.kind, "game": event.game, "title": event.title,
            "status": event.status(time.time() if now is None else now), "rounds": event.rounds, "round": event.round,
            "start": event.start, "ends": event.ends, "invite_only": bool(event.invite), "rated": event.rated,
            "clock": event.clock, "options": event.options, "creator": event.creator_name,
            "players": event.attempts if event.kind == SOLITAIRE else len(event.entrants), "version": event.version,
        }

    async def state(self, event: Event, player: str | None) -> dict[str, Any]:
        """Everything about the event, and what is ``player``'s in it (its seat's token included, for it alone)."""
        return {**await self.shared(event), "you": await self.yours(event, player)}

    async def shared(self, event: Event) -> dict[str, Any]:
        """The event's state as everyone sees it: the summary, the entrants, the pairings and standings (or scores)."""
        out = self.summary(event)
        names = {p: e.name for p, e in event.entrants.items()}
        out["entrants"] = [{"player": p, "name": names[p], "dropped": event.entrants[p].dropped}
                           for p in event.ordered()]
        if event.kind == SOLITAIRE:
            rows: list[tuple[bytes, float]] = await self.redis.zrevrange(  # type: ignore[assignment]
                _scores(event.game, event.id), 0, LIMIT - 1, withscores=True)
            entries = []
            for rank, (member, points) in enumerate(rows, 1):
                name, _, room = _text(member).rpartition("|")
                entries.append({"rank": rank, "name": name, "room": room, "score": int(points)})
            out["scores"] = entries
            return out
        rounds = []
        for r in range(1, event.round + 1):
            tables, bye = [], None
            for (rr, t), players in sorted(event.tables.items()):
                if rr != r:
                    continue
                if not players[1]:
                    bye = names.get(players[0], players[0])
                    continue
                result = event.results.get((r, t))
                tables.append({"table": t, "room": event.rooms.get((r, t)), "players": [names.get(p, p) for p in players],
                               "player_ids": list(players), "result": result})
            rounds.append({"round": r, "tables": tables, "bye": bye})
        out["pairings"] = rounds
        out["standings"] = [{"rank": s.rank, "player": s.player, "name": names.get(s.player, s.player),
                             "points": float(s.points), "omw": round(float(s.omw), 4), "gw": round(float(s.gw), 4),
                             "ogw": round(float(s.ogw), 4), "played": s.played, "byes": s.byes,
                             "dropped": event.entrants[s.player].dropped} for s in event.standings()]
        return out

    async def yours(self, event: Event, player: str | None) -> dict[str, Any]:
        """``player``'s part: registered, dropped, and the table (with its seat's token) or the attempt it has now."""
        entrant = event.entrants.get(player) if player else None
        you: dict[str, Any] = {"registered": entrant is not None, "dropped": bool(entrant and entrant.dropped)}
        if event.kind == SOLITAIRE:
            played = await self.redis.get(_key(event.id, f"played:{player}")) if player else None
            you["room"] = _text(played) if played is not None else None
            return you
        you["table"] = None
        step, r = _phase_round(event.phase)
        if entrant is None or step != "playing":
            return you
        raw = await self.redis.hget(_key(event.id, "seats"), f"{r}:{player}")
        cell = next((c for c, ps in event.tables.items() if c[0] == r and player in ps), None)
        if isinstance(raw, bytes) and cell is not None and cell not in event.results:
            seat = _unpack(raw)
            players = event.tables[cell]
            opponent = event.entrants.get(players[1 - seat["seat"]])
            you["table"] = {"round": r, "table": cell[1], "room": seat["room"], "seat": seat["seat"],
                            "token": seat["token"], "opponent": opponent.name if opponent is not None else ""}
        return you

    async def listing(self, game: str | None, status: str | None, limit: int | None) -> list[dict[str, Any]]:
        """The newest events (at most ``limit``, default and most 100), newest first, filtered."""
        if status is not None and status not in STATUSES:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"list_events: 'status' must be one of {', '.join(STATUSES)}")
        limit = LIMIT if limit is None else limit
        if not 1 <= limit <= LIMIT:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"list_events: field 'limit' must be from 1 to {LIMIT}")
        newest: list[bytes] = await self.redis.zrevrange(EVENTS, 0, LISTED - 1)  # type: ignore[assignment]
        ids = [_text(i) for i in newest]
        async with self.redis.pipeline(transaction=False) as pipe:
            for i in ids:
                pipe.hgetall(_key(i))
                pipe.hlen(_key(i, "players"))
            got = await pipe.execute()
        now = time.time()
        out = []
        for n, event_id in enumerate(ids):
            raw, count = got[2 * n], got[2 * n + 1]
            if not raw or b"kind" not in raw:  # its keys expired (a month after its end): out of the listing
                await self.redis.zrem(EVENTS, event_id)
                continue
            event = self._parse(event_id, raw)
            entry = self.summary(event, now)
            if event.kind == SWISS:
                entry["players"] = int(count)
            if (game is None or event.game == game) and (status is None or entry["status"] == status):
                out.append(entry)
            if len(out) >= limit:
                break
        return out

    # -- requests ---------------------------------------------------------------------------

    @staticmethod
    def _keyed(peer: Peer, what: str) -> str:
        if not peer.player:
            raise ProtocolError(ErrorCode.KEY_REQUIRED, f"{what}: events know their players by key: say hello with "
                                                        "'key'")
        return peer.player

    async def create(self, peer: Peer, m: dict[str, Any]) -> Event:
        """A new event from ``create_event``'s fields, stored; refused naming the first field at fault."""
        creator = self._keyed(peer, "create_event")
        game = registry.get(m["game"])
        if game is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"unknown game {m['game']!r}; games: {', '.join(registry.GAMES)}")
        options = m.get("options", {})
        self._check_options(game, options, bool(m.get("rated", False)))
        solo = game.seats(options) == 1
        now = time.time()
        start = m.get("start")
        if start is not None and not now - 3600 <= start <= now + MAX_AHEAD:
            raise ProtocolError(ErrorCode.BAD_FIELD, "create_event: 'start' must be a Unix time from an hour ago to "
                                                     f"{MAX_AHEAD // 86400} days ahead")
        invite = m.get("invite", [])
        if len(invite) > MAX_INVITED or not all(isinstance(n, str) and 0 < len(n) <= 40 for n in invite):
            raise ProtocolError(ErrorCode.BAD_FIELD, f"create_event: 'invite' must list at most {MAX_INVITED} names, "
                                                     "each a string of 1 to 40 characters")
        fields: dict[str | bytes, str | bytes | int | float] = {
            "game": game.name, "title": m.get("title") or f"{game.title} {'event' if solo else 'Swiss'}",
            "options": msgpack.packb(options), "creator": creator, "creator_name": peer.name, "created": repr(now),
            "invite": msgpack.packb(sorted({n.strip().casefold() for n in invite})), "phase": "registering",
            "round": "0", "version": "1", "news": "created",
        }
        if solo:
            lasts = m.get("lasts", LASTS[2])
            if not LASTS[0] <= lasts <= LASTS[1]:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"create_event: 'lasts' must be from {LASTS[0]} to {LASTS[1]} "
                                                         "seconds")
            if m.get("rounds") is not None or m.get("clock") is not None or m.get("rated"):
                raise ProtocolError(ErrorCode.BAD_FIELD, f"create_event: {game.title} is a solitaire: its event takes no "
                                                         "'rounds', 'clock' or 'rated' (everyone plays one deal once)")
            begins = now if start is None else float(start)
            fields.update(kind=SOLITAIRE, clock=msgpack.packb({}), rounds="0", start=repr(begins),
                          ends=repr(begins + lasts), rated="0")
        else:
            rounds = m.get("rounds", 3)
            if not 1 <= rounds <= MAX_ROUNDS:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"create_event: 'rounds' must be from 1 to {MAX_ROUNDS}")
            if m.get("lasts") is not None:
                raise ProtocolError(ErrorCode.BAD_FIELD, "create_event: 'lasts' is for a solitaire event's window")
            limits = limits_for(game, m.get("clock"))
            fields.update(kind=SWISS, clock=msgpack.packb(limits.data()), rounds=str(rounds),
                          start="" if start is None else repr(float(start)), rated="1" if m.get("rated") else "0")
        event_id = secrets.token_hex(4)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(_key(event_id), items=[x for pair in fields.items() for x in pair])
            pipe.zadd(EVENTS, {event_id: now})
            pipe.sadd(LIVE, event_id)
            await pipe.execute()
        log.info("event created", extra={"event": event_id})
        return await self.find(event_id)

    @staticmethod
    def _check_options(game: Game, options: dict[str, Any], rated: bool) -> None:
        size = len(msgpack.packb(options))
        if size > MAX_OPTIONS_BYTES:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, f"create_event: the options take {size} bytes; at most "
                                                       f"{MAX_OPTIONS_BYTES} are accepted")
        try:
            game.setup(options, 0)
            scenario = game.scenario(options)
        except EngineError as exc:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, exc.message) from None
        if scenario:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, "create_event: an event deals its tables: no scenario options")
        if rated and game.seats(options) != 2:
            raise ProtocolError(ErrorCode.BAD_FIELD, "create_event: 'rated' is for the two-player games' events")

    @staticmethod
    def _invited(event: Event, peer: Peer, player: str) -> None:
        """``not_invited`` unless the event is open, names ``peer`` or is ``player``'s own."""
        if event.invite and peer.name.casefold() not in event.invite and player != event.creator:
            raise ProtocolError(ErrorCode.NOT_INVITED, f"event {event.id} is invite-only and {peer.name!r} is not invited")

    async def register(self, peer: Peer, event_id: str, nonce: str = "") -> Event:
        player = self._keyed(peer, "register")
        event = await self.find(event_id)
        if event.kind != SWISS:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"register: event {event_id} is a solitaire event: send "
                                                     "'play_event' while its window is open")
        self._invited(event, peer, player)
        blob = msgpack.packb({"name": peer.name, "nonce": nonce, "at": time.time()})
        done = await self._register(keys=[_key(event_id), _key(event_id, "players")], args=[player, blob, MAX_PLAYERS])
        if done == -1:
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} has started: registration is closed")
        if done == -2:
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} is full ({MAX_PLAYERS} players)")
        return await self.find(event_id)

    async def unregister(self, peer: Peer, event_id: str) -> Event:
        player = self._keyed(peer, "unregister")
        await self.find(event_id)
        if await self._unregister(keys=[_key(event_id), _key(event_id, "players")], args=[player]) == -1:
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} has started: send 'drop' to leave it")
        return await self.find(event_id)

    async def drop(self, peer: Peer, event_id: str) -> Event:
        player = self._keyed(peer, "drop")
        await self.find(event_id)
        done = await self._drop(keys=[_key(event_id), _key(event_id, "players"), _key(event_id, "dropped")], args=[player])
        if done == -1:
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} is not running: 'unregister' before it "
                                                        "starts; nothing to drop from once it is over")
        return await self.find(event_id)

    async def start(self, peer: Peer, event_id: str) -> Event:
        player = self._keyed(peer, "start_event")
        await self.find(event_id)
        done = await self._start(keys=[_key(event_id)], args=[player, repr(time.time())])
        if done == -1:
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} is not registering: it has started already")
        if done == 0:
            raise ProtocolError(ErrorCode.FORBIDDEN, f"only the creator of event {event_id} may start it early")
        return await self.find(event_id)

    async def play(self, peer: Peer, event_id: str) -> Room:
        """The room of ``peer``'s one attempt at a solitaire event's deal, made now (the window open)."""
        player = self._keyed(peer, "play_event")
        event = await self.find(event_id)
        if event.kind != SOLITAIRE:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"play_event: event {event_id} is a Swiss event: 'register', and "
                                                     "its rounds seat you")
        status = event.status(time.time())
        if status != "running":
            raise ProtocolError(ErrorCode.EVENT_CLOSED, f"event {event_id} is {status}: its window is "
                                                        f"{event.start:.0f} to {event.ends:.0f} (Unix time)")
        self._invited(event, peer, player)
        marker = _key(event_id, f"played:{player}")
        assert event.ends is not None
        keep = int(event.ends - time.time()) + RECORD_TTL
        if not await self.redis.set(marker, "", nx=True, ex=keep):
            raise ProtocolError(ErrorCode.EVENT_PLAYED, f"you have played event {event_id}: one attempt each")
        seed = daily_seed(await self.lobby.store.daily_secret(), event.game, f"event:{event_id}")
        until = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(event.ends))
        try:
            room = await self.lobby.create(event.game, event.options, seed, ranked_as=(f"event:{event_id}", until),
                                           hosted=True)
        except BaseException:
            await self.redis.delete(marker)
            raise
        await self.redis.set(marker, room.id, ex=keep)
        async with self.redis.pipeline(transaction=True) as pipe:  # one attempt more: followers are told
            pipe.hincrby(_key(event_id), "attempts", 1)
            pipe.hincrby(_key(event_id), "version", 1)
            pipe.hset(_key(event_id), "news", "played")
            await pipe.execute()
        return room

    # -- following ----------------------------------------------------------------------------

    async def follow(self, peer: Peer, event_id: str) -> dict[str, Any]:
        """``peer`` is told of every change of the event from now on; the event's state now. (Added before the state
        is read: a change meanwhile is pushed after the reply, never lost; at worst a state is told twice.)"""
        event = await self.find(event_id)
        self.games[event_id] = event.game
        self.followers.setdefault(event_id, {})[peer] = None
        return await self.state(await self.find(event_id), peer.player)

    def gone(self, peer: Peer) -> None:
        """``peer``'s connection closed: it follows nothing any more."""
        for event_id in [e for e, peers in self.followers.items() if peer in peers]:
            self._unfollow(peer, event_id)

    def _unfollow(self, peer: Peer, event_id: str) -> None:
        peers = self.followers.get(event_id, {})
        peers.pop(peer, None)
        if not peers:
            self.followers.pop(event_id, None)
            self.told.pop(event_id, None)
            self.games.pop(event_id, None)

    async def tell(self) -> None:
        """Push ``event`` to the followers of every event that changed since they were last told."""
        for event_id, peers in list(self.followers.items()):
            for peer in [p for p in peers if p.dead]:
                self._unfollow(peer, event_id)
        followed = list(self.followers)
        if not followed:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for event_id in followed:
                pipe.hget(_key(event_id), "version")
                pipe.zcard(_scores(self.games.get(event_id, ""), event_id))
            got = await pipe.execute()
        for n, event_id in enumerate(followed):
            now = (int(got[2 * n] or 0), int(got[2 * n + 1] or 0))
            if self.told.get(event_id) == now:
                continue
            self.told[event_id] = now
            event = await self.load(event_id)
            if event is None:
                continue
            shared = await self.shared(event)
            for peer in list(self.followers.get(event_id, {})):
                state = {**shared, "you": await self.yours(event, peer.player)}
                peer.send(encode({"t": "event", "re": None, "event": state, "news": event.news}))

    async def keep_telling(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), TELL_EVERY)
            if stop.is_set():
                return
            try:
                await self.tell()
            except Exception:
                log.exception("event changes not told; trying again")

    # -- running -------------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Step the events this node holds the lease of, every ``STEP_EVERY`` seconds, until ``stop``."""
        telling = asyncio.create_task(self.keep_telling(stop))
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), STEP_EVERY)
            if stop.is_set():
                break
            try:
                await self.step_all()
            except Exception:
                log.exception("events not stepped; trying again")
        await telling

    async def step_all(self) -> None:
        """One step of every live event whose lease this node holds (or takes), the lease renewed just before
        each step: a long step of one event never lets another's lapse."""
        now = time.monotonic()
        self.yielded = {e: until for e, until in self.yielded.items() if until > now}
        for event_id in sorted(_text(e) for e in await self.redis.smembers(LIVE)):
            if event_id in self.yielded or not await self._hold(event_id):
                continue
            try:
                await self.step(event_id)
            except ProtocolError as exc:  # a room between nodes, the store away: the next step tries again
                log.info("event step postponed: %s", exc.message, extra={"event": event_id})
                if exc.code is ErrorCode.UNAVAILABLE:  # perhaps a table's room another node serves: that node
                    await self._release(keys=[_key(event_id, "lease")], args=[self.node])  # may take the event
                    self.yielded[event_id] = time.monotonic() + YIELD_FOR
            except Exception:
                log.exception("event step failed; trying again", extra={"event": event_id})

    async def _hold(self, event_id: str) -> bool:
        """Take or renew the event's lease: whether it is this node's now."""
        return (await self.lobby.leases.hold([_key(event_id, "lease")]))[0]

    async def _put(self, event_id: str, news: str, writes: Sequence[tuple[str, str, Any]],
                   guard: tuple[str, str, str] = ("", "", "")) -> int:
        """The guarded write (:data:`_WRITE`): 1 done, 0 guard failed, -1 the lease is no longer ours."""
        args: list[Any] = [self.node, *guard, news]
        for key, name, value in writes:
            args += [key, name, value]
        return int(await self._write(keys=[_key(event_id, "lease"), _key(event_id)], args=args))

    async def _retire(self, event_id: str) -> None:
        """An event over: out of the live set, its keys kept as long as match records."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(LIVE, event_id)
            for part in ("", "players", "dropped", "tables", "rooms", "results", "seats"):
                pipe.expire(_key(event_id, part), RECORD_TTL)
            await pipe.execute()

    async def step(self, event_id: str) -> None:
        """Move one event on from its stored phase (this node holds its lease)."""
        event = await self.load(event_id)
        if event is None:
            await self.redis.srem(LIVE, event_id)
            return
        now = time.time()
        if event.kind == SOLITAIRE:
            if event.status(now) == "finished":
                await self._put(event_id, "finished", [(_key(event_id), "phase", "finished")])
                await self._retire(event_id)
            return
        step, r = _phase_round(event.phase)
        if step in ("finished", "cancelled"):
            await self._retire(event_id)
        elif step == "registering":
            if event.start is not None and now >= event.start:
                await self._begin(event)
        elif step == "pairing":
            await self._seat_round(event, r)
        elif step == "playing":
            await self._collect(event, r)

    async def _begin(self, event: Event) -> None:
        players = event.ordered()
        if len(players) < 2:
            await self._put(event.id, "cancelled", [(_key(event.id), "phase", "cancelled")],
                            (_key(event.id), "phase", event.phase))
            log.info("event cancelled: fewer than two players", extra={"event": event.id})
            return
        await self._pair(event, 1, players, {}, frozenset())

    async def _pair(self, event: Event, r: int, ranked: list[str], met: dict[str, frozenset[str]],
                    had_bye: frozenset[str], also: Sequence[tuple[str, str, Any]] = ()) -> None:
        """Round ``r``'s tables planned and recorded (with the bye's result, and ``also``), phase ``pairing:{r}``."""
        plan = swiss.pair_round(ranked, met, had_bye)
        writes: list[tuple[str, str, Any]] = [(_key(event.id), "phase", f"pairing:{r}"), (_key(event.id), "round", str(r)),
                                              *also]
        for t, (a, b) in enumerate(plan.tables, 1):
            seats = (a, b) if secrets.randbelow(2) else (b, a)
            writes.append((_key(event.id, "tables"), _cell(r, t), msgpack.packb(list(seats))))
        if plan.bye is not None:
            t = len(plan.tables) + 1
            writes.append((_key(event.id, "tables"), _cell(r, t), msgpack.packb([plan.bye, ""])))
            bye = {"points": [1.0, 0.0], "games": [1.0, 0.0], "played": 1, "winner": 0, "reason": "bye"}
            writes.append((_key(event.id, "results"), _cell(r, t), msgpack.packb(bye)))
        done = await self._put(event.id, "round_paired", writes, (_key(event.id), "phase", event.phase))
        if done == 1:
            log.info("event round paired", extra={"event": event.id, "round": r, "tables": len(plan.tables),
                                                  "rematches": plan.rematches})

    async def _seat_round(self, event: Event, r: int) -> None:
        """Make round ``r``'s rooms and seat their players (what a node that died midway left undone), then
        start the round: phase ``playing:{r}``."""
        cells = [c for c, players in sorted(event.tables.items()) if c[0] == r and players[1]]
        seated = {_text(k) for k in await self.redis.hkeys(_key(event.id, "seats"))}
        for start in range(0, len(cells), SEAT_BATCH):
            if start and not await self._hold(event.id):  # a round of many tables takes a while: the lease kept
                return
            done = await asyncio.gather(*(self._seat_table(event, c, seated) for c in cells[start:start + SEAT_BATCH]))
            if not all(done):
                return
        await self._put(event.id, "round_started", [(_key(event.id), "phase", f"playing:{r}")],
                        (_key(event.id), "phase", event.phase))
        log.info("event round started", extra={"event": event.id, "round": r})

    async def _seat_table(self, event: Event, cell: tuple[int, int], seated: set[str]) -> bool:
        """One table's room made (if not yet) and both its players seated: whether it is done."""
        players = event.tables[cell]
        room_id = event.rooms.get(cell)
        room = None
        if room_id is not None:
            try:
                room = await self.lobby.find(room_id)
            except ProtocolError as exc:
                # made by a node that stopped before it seated anyone, and closed since: the table gets a new room
                if exc.code not in (ErrorCode.ROOM_CLOSED, ErrorCode.UNKNOWN_ROOM) or any(
                        f"{cell[0]}:{p}" in seated for p in players):
                    raise
        if room is None:
            room = await self.lobby.create(event.game, event.options, None, clock=event.clock, rated=event.rated,
                                           hosted=True)
            done = await self._put(event.id, "", [(_key(event.id, "rooms"), _cell(*cell), room.id)],
                                   (_key(event.id, "rooms"), _cell(*cell), room_id or ""))
            if done != 1:
                return False
            room_id = room.id
        for seat, player in enumerate(players):
            if f"{cell[0]}:{player}" in seated:
                continue
            entrant = event.entrants.get(player)
            name, nonce = (entrant.name, entrant.nonce) if entrant is not None else ("", "")
            if room.seats[seat] is None:
                _, token = await room.claim(seat, name, player, nonce)
            elif room.owners[seat] == player:  # claimed by a node that died before it told the player
                token = await retries.reissue(room, seat)
            else:
                log.error("an event table's seat is someone else's", extra={"event": event.id, "room": room_id})
                return False
            blob = msgpack.packb({"room": room_id, "seat": seat, "token": token})
            if await self._put(event.id, "", [(_key(event.id, "seats"), f"{cell[0]}:{player}", blob)]) != 1:
                return False
        return True

    async def _collect(self, event: Event, r: int) -> None:
        """Record the results of round ``r``'s tables that ended; once all have, end the round: the next one
        paired, or the event finished."""
        pending = [c for c in sorted(event.tables) if c[0] == r and c not in event.results]
        results = dict(event.results)
        if pending:
            async with self.redis.pipeline(transaction=False) as pipe:
                for c in pending:
                    pipe.hget(keys.match(event.rooms.get(c, "")), "outcome")
                outcomes = await pipe.execute()
            for c, raw in zip(pending, outcomes, strict=True):
                if raw is None:
                    continue
                result = result_of(event.game, _unpack(raw))
                done = await self._put(event.id, "result", [(_key(event.id, "results"), _cell(*c), msgpack.packb(result))],
                                       (_key(event.id, "results"), _cell(*c), ""))
                if done == -1:
                    return
                results[c] = result
            if any(c not in results for c in pending):
                return
        absent = forfeited(event, r, results)
        withdrawn = [(_key(event.id, "dropped"), p, str(r)) for p in absent if not event.entrants[p].dropped]
        decided = replace(event, results=results)
        table = decided.standings()
        blob = msgpack.packb([[s.player, float(s.points), float(s.omw), float(s.gw)] for s in table])
        still = [s.player for s in table if not event.entrants[s.player].dropped and s.player not in absent]
        told = [f"{r}:{p}" for c, players in event.tables.items() if c[0] == r for p in players if p]
        if told:  # every table decided: no token is needed any more
            await self.redis.hdel(_key(event.id, "seats"), *told)
        if r >= event.rounds or len(still) < 2:
            await self._put(event.id, "finished", [(_key(event.id), "phase", "finished"),
                                                   (_key(event.id), "standings", blob), *withdrawn],
                            (_key(event.id), "phase", event.phase))
            log.info("event finished", extra={"event": event.id})
            return
        met: dict[str, set[str]] = {}
        had_bye = set()
        for (_, _), (a, b) in event.tables.items():
            if not b:
                had_bye.add(a)
                continue
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        await self._pair(decided, r + 1, still, {p: frozenset(o) for p, o in met.items()}, frozenset(had_bye),
                         [(_key(event.id), "standings", blob), *withdrawn])
