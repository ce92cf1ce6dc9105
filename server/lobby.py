"""The lobby: every live room by id; creating rooms and reloading them after a restart."""
from __future__ import annotations

import datetime
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any

import msgpack

from engine import registry
from engine.errors import EngineError
from protocol import ErrorCode, ProtocolError
from server import expiry
from server.clock import limits_for
from server.health import Health
from server.identity import Names
from server.quota import Quota
from server.room import Room, commitment
from server.store import RoomRecord, Store

__all__ = ["Lobby"]

log = logging.getLogger(__name__)
KEEP_FINISHED = 500
MAX_OPTIONS_BYTES = 8192
"""The largest room options (msgpack), scenario decks and hands included: they are stored with the room."""


def today() -> str:
    """The UTC date that names the daily table."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def daily_seed(secret: bytes, game: str, day: str) -> int:
    """The same seed for everyone playing ``game`` on ``day``, keyed by the server's secret so that
    nobody can compute a day's deal before it is dealt."""
    digest = hmac.new(secret, f"cardroom:daily:{game}:{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Lobby:
    """Rooms in memory, backed by the store."""

    def __init__(self, store: Store, health: Health | None = None) -> None:
        self.store = store
        self.health = health
        self.rooms: OrderedDict[str, Room] = OrderedDict()
        self.quota = Quota()
        self.names = Names(store.redis)

    def get(self, room: str) -> Room:
        found = self.rooms.get(room)
        if found is None:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room {room!r}")
        return found

    def listing(self, game: str | None = None) -> list[dict[str, Any]]:
        now = time.time()
        return [r.summary() for r in self.rooms.values()
                if (game is None or r.game.name == game) and expiry.listed(r, now)]

    async def find(self, room_id: str) -> Room:
        """A room in memory, else a finished one loaded from Redis; ``room_closed`` for a cancelled or expired one."""
        found = self.rooms.get(room_id)
        if found is not None:
            return found
        reason = await self.store.closed(room_id)
        if reason:
            raise ProtocolError(ErrorCode.ROOM_CLOSED, f"room {room_id} was {reason}")
        record = await self.store.load(room_id)
        game = registry.get(record.game) if record is not None else None
        if record is None or game is None:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room {room_id!r}")
        found = self.rooms.get(room_id)
        if found is None:
            found = self.rooms[room_id] = Room(record, game, game.load(record.state), self.store)
        return found

    async def create(self, game_name: str, options: dict[str, Any], seed: int | None, daily: bool = False,
                     clock: Any = None, spectator_chat: str = "all") -> Room:
        """Set up a match and store it before anyone is told of it.

        A solitaire dealt from a server-chosen seed is ranked in the game's ``all`` table;
        a daily room (default options, the day's seed) in that day's table; a room with a
        chosen seed or scenario options is not ranked.
        """
        game = registry.get(game_name)
        if game is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"unknown game {game_name!r}; games: {', '.join(registry.GAMES)}")
        limits = limits_for(game, clock)
        if daily and (seed is not None or options):
            raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: a daily room takes no 'seed' and no 'options'")
        size = len(msgpack.packb(options))
        if size > MAX_OPTIONS_BYTES:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, f"create_room: the options take {size} bytes; at most "
                                                       f"{MAX_OPTIONS_BYTES} are accepted (scenario decks included)")
        if seed is not None and not 0 <= seed < 2**63:
            raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: field 'seed' must be from 0 to 2**63 - 1")
        try:
            seats = game.seats(options)
            scenario = game.scenario(options)
        except EngineError as exc:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, exc.message) from None
        table = ""
        if daily:
            day = today()
            seed, table = daily_seed(await self.store.daily_secret(), game.name, day), f"daily:{day}"
        elif seed is None:
            seed = secrets.randbits(63)
            table = "" if scenario else "all"
        if seats != 1:
            table = ""
        try:
            state = game.setup(options, seed)
        except EngineError as exc:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, exc.message) from None
        for _ in range(8):
            room_id = secrets.token_hex(3)
            record = RoomRecord(
                room=room_id, game=game.name, options=options, seed=seed, commitment=commitment(room_id, seed),
                created=time.time(), version=game.version(state), state=game.dump(state), seats=(None,) * seats,
                table=table, spectator_chat=spectator_chat, limits=limits.data(),
            )
            if await self.store.create(record):
                room = Room(record, game, state, self.store)
                self.rooms[room_id] = room
                self._evict()
                return room
        raise ProtocolError(ErrorCode.INTERNAL, "could not find a free room id")

    async def scores(self, game_name: str, daily: bool, limit: int) -> dict[str, Any]:
        """A game's high-score table (or today's), best first."""
        if registry.get(game_name) is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"unknown game {game_name!r}; games: {', '.join(registry.GAMES)}")
        if not 1 <= limit <= 100:
            raise ProtocolError(ErrorCode.BAD_FIELD, "scores: field 'limit' must be from 1 to 100")
        table = f"daily:{today()}" if daily else "all"
        rows = await self.store.scores(game_name, table, limit)
        entries = []
        for rank, (member, points) in enumerate(rows, 1):
            name, _, room = member.rpartition("|")
            entries.append({"rank": rank, "name": name, "room": room, "score": points})
        return {"game": game_name, "table": table, "entries": entries}

    def _evict(self) -> None:
        finished = [rid for rid, room in self.rooms.items() if room.over and not room.watchers]
        for rid in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.rooms[rid]

    async def restore(self) -> int:
        """Reload every unfinished room from the store; returns how many."""
        count = 0
        alive = await self.store.alive()
        for record in await self.store.open_rooms():
            game = registry.get(record.game)
            if game is None:
                log.error("unknown game %r, not restored", record.game, extra={"room": record.room})
                continue
            room = Room(record, game, game.load(record.state), self.store, alive)
            self.rooms[record.room] = room
            await self.store.save_clock(record.room, msgpack.packb(room.clock.data()))
            room.arm()
            count += 1
        return count
