"""The lobby: every live room by id; creating rooms and reloading them after a restart."""
from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import hashlib
import hmac
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from typing import Any

import msgpack

from engine import registry
from engine.errors import EngineError
from engine.interface import Game
from protocol import ErrorCode, ProtocolError
from server.errors import ServerError
from server.lobby.listing import Elsewhere, Rooms
from server.lobby.quota import Quota
from server.players import standings
from server.players.identity import Names
from server.rooms import chat, seeding, snapshots
from server.rooms.clock import limits_for
from server.rooms.room import Room
from server.store import keys
from server.store.health import Health
from server.store.lease import LEASE_MS, Leases, new_node_id
from server.store.store import RoomRecord, Store

__all__ = ["Lobby", "new_room_id"]

log = logging.getLogger(__name__)
KEEP_FINISHED = 500
"""Finished rooms nobody watches kept in memory (the oldest beyond these are let go; Redis keeps them)."""
EVICT_EVERY = 64
"""Rooms made between two sweeps of the finished ones out of memory: a sweep looks at every room, so it is not done
for every room made (with 10,000 rooms that was a millisecond each)."""
WARM_BATCH = 8
"""Rooms loaded between two yields to the event loop while a restart warms up."""
LOAD_BATCH = 256
"""Rooms read from Redis at a time while a restart warms up."""
DAILY_PER_ADDRESS = int(os.environ.get("CARDROOM_DAILY_PER_ADDRESS", "1"))
"""Daily attempts of a game one client address may make a day, whatever keys it uses."""
LISTING_WAIT = 2.0
"""Seconds a listing waits for a restart's warm-up before it lists the rooms loaded so far."""
MAX_OPTIONS_BYTES = 8192
"""The largest room options (msgpack), scenario decks and hands included: they are stored with the room."""


def new_room_id() -> str:
    """A random room id (six hex digits), for :meth:`Lobby.create` to try."""
    return secrets.token_hex(3)


def today() -> str:
    """The UTC date that names the daily table."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def daily_seed(secret: bytes, game: str, day: str) -> int:
    """The same seed for everyone playing ``game`` on ``day``, keyed by the server's secret so that
    nobody can compute a day's deal before it is dealt."""
    digest = hmac.new(secret, f"cardroom:daily:{game}:{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _dealt(game: Game, options: dict[str, Any], seed: int) -> tuple[Any, dict[str, Any]]:
    """A deal and its dump, as stored."""
    state = game.setup(options, seed)
    return state, game.dump(state)


@functools.lru_cache(maxsize=64)
def _placeholder(game_name: str, packed_options: bytes) -> tuple[Any, dict[str, Any]]:
    """The placeholder state (and its dump) a room holds until its players' nonces deal it: the same for every
    room of a game with the same options, so it is set up once (states are immutable; nobody changes the dump)."""
    game = registry.get(game_name)
    assert game is not None
    return _dealt(game, msgpack.unpackb(packed_options, raw=False), seeding.PLACEHOLDER_SEED)


def _standard(game: Game, options: dict[str, Any]) -> bool:
    """Whether ``options`` set up the game its default options do (none, or the defaults spelt out): the only
    option set whose scores are ranked, so that easier rules never top the table."""
    if not options:
        return True
    try:
        return _placeholder(game.name, msgpack.packb(options))[1] == _placeholder(game.name, msgpack.packb({}))[1]
    except EngineError:  # refused with bad_options when the room is set up
        return False


class Lobby:
    """Rooms in memory, backed by the store."""

    def __init__(self, store: Store, health: Health | None = None, node: str = "") -> None:
        self.store = store
        self.leases = Leases(store.redis, node or new_node_id())
        """This node's room leases: it serves a room only while it holds the room's lease (server/store/lease.py)."""
        self.health = health
        self.rooms = Rooms()
        self.rooms_made = 0
        """Rooms made by this node (a sweep of finished rooms every ``EVICT_EVERY``)."""
        self.quota = Quota(store.redis, self.elsewhere)
        self.names = Names(store.redis)
        self.alive: float | None = None
        """When a server last said it was running, before this one restored its rooms."""
        self.warming: asyncio.Task[None] | None = None
        self.finishing: set[asyncio.Task[None]] = set()
        """Matches being archived after a restart, and names being indexed by their look (kept here so that they
        are not collected midway)."""
        self.serving_players: Callable[[], bool] = lambda: True
        """Whether players are connected to this node now, directly or relayed (set by the app)."""
        self.directory: Elsewhere | None = None
        """What the other nodes list (server/cluster/directory.py; set by the app)."""
        self.sweeps: list[Callable[[], Awaitable[None]]] = []
        """Steps run after each lease pass (the relay's sweep of relayed clients; set by the app)."""
        self.missing: set[str] = set()
        """Open-set entries found with no room at the last adoption pass: dropped if still so at the next."""

    def games_and_statuses(self) -> Iterator[tuple[str, str]]:
        """Each room in memory's game and status (the rooms gauge of server/ops/metrics.py)."""
        return ((room.game.name, room.status) for room in self.rooms.values())

    def get(self, room: str) -> Room:
        found = self.rooms.get(room)
        if found is None:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room {room!r}")
        return found

    def listing(self, game: str | None = None, status: str | None = None, cursor: str | None = None,
                limit: int | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the listed rooms (oldest first) and the cursor of the next one (see server/lobby/listing.py)."""
        return self.rooms.page(game, status, cursor, limit, self.directory.others if self.directory else None)

    def elsewhere(self, room_id: str) -> dict[str, Any] | None:
        """The summary (with ``owners``, the players holding its seats) another node published of a room this
        node does not serve."""
        if self.directory is None or room_id in self.rooms:
            return None
        entry = self.directory.entry(room_id)
        return {k: v for k, v in entry.items() if k != "created"} if entry is not None else None

    def here(self, room_id: str) -> Room | None:
        """The room, when this node holds it in memory and serves it (not moved to another node): what most requests
        find, without a step of the event loop."""
        found = self.rooms.get(room_id)
        return found if found is not None and not found.moved else None

    async def find(self, room_id: str) -> Room:
        """A room in memory, else one loaded from Redis (a finished one, or one a restart has not loaded yet);
        ``room_closed`` for a cancelled or expired one."""
        found = self.here(room_id)
        if found is not None:
            return found
        self.rooms.pop(room_id, None)  # moved to another node, if held at all
        reason = await self.store.closed(room_id)
        if reason:
            raise ProtocolError(ErrorCode.ROOM_CLOSED, f"room {room_id} was {reason}")
        record = await self.store.load(room_id)
        if record is None or registry.get(record.game) is None:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room {room_id!r}")
        found = self.rooms.get(room_id) or await self.adopt(record)  # (loaded meanwhile by another request?)
        if found is None:
            holder = (await self.leases.holders([room_id]))[0]
            if holder is not None and holder != self.leases.node:
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"room {room_id} is served by another server node "
                                                           f"({holder}); try again")
            raise ProtocolError(ErrorCode.INTERNAL, f"room {room_id} cannot be loaded: its stored log does not replay")
        return found

    async def create(self, game_name: str, options: dict[str, Any], seed: int | None, daily: bool = False,
                     clock: Any = None, spectator_chat: str = "all", player: str = "", request: str = "",
                     rated: bool = False, replays: str = "everyone", hosted: bool = False, address: str = "",
                     ranked_as: tuple[str, str] | None = None, room_id: str = "") -> Room:
        """Set up a match and store it before anyone is told of it.

        A solitaire dealt from a server-chosen seed with the standard options is ranked in the game's ``all`` table;
        a daily room (default options, the day's seed) in that day's table. A daily room is
        ``player``'s one attempt of the game that day, or refused: a guest's (``player`` "", also
        a room its creator does not sit in) with ``key_required``, a later one (or one more from ``address`` than
        ``DAILY_PER_ADDRESS``: a new key is not a new attempt) with ``daily_played``,
        so that nobody sees the day's deal before it ends except in their ranked attempt. A room
        with a chosen seed or scenario options is not ranked. ``hosted``: the caller seats its players next (see
        :class:`RoomRecord`).

        Without a chosen seed and outside the daily table, the deal is not set up here: the
        room commits to the server's salted secret and deals once every seat has sent its
        nonce (server/rooms/seeding.py); until then it holds a placeholder state nobody is shown.

        ``ranked_as`` (table, end) makes a solitaire dealt from ``seed`` ranked in that table (a solitaire event's,
        server/lobby/events.py), its seed kept from everyone, as a daily room's is, until ``end`` (an ISO time).
        ``room_id`` (from :func:`new_room_id`): the id tried first (the one a quota's place was taken under).
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
        table = day = ""
        how = seeding.FIXED
        if daily:
            day = today()
            if seats != 1:
                raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: 'daily' is for the one-player games")
            if not player:
                raise ProtocolError(ErrorCode.KEY_REQUIRED, "a daily room is its player's one ranked attempt of the "
                                                            "day: say hello with a 'key', and sit in it")
            refused = await self.store.first_daily(player, address, game.name, day, DAILY_PER_ADDRESS)
            if refused == "player":
                raise ProtocolError(ErrorCode.DAILY_PLAYED, f"you have made your {game.title} daily attempt of {day} "
                                                            "(UTC); its deal is told after the day ends")
            if refused:
                raise ProtocolError(ErrorCode.DAILY_PLAYED, f"{DAILY_PER_ADDRESS} {game.title} daily attempt(s) of "
                                                            f"{day} (UTC) came from your address already; its deal is "
                                                            "told after the day ends")
            seed = daily_seed(await self.store.daily_secret(), game.name, day)
            table = f"daily:{day}"
        elif ranked_as is not None and seed is not None:
            table, day = ranked_as
        elif seed is None:
            how = seeding.PLAYERS
            table = "all" if not scenario and _standard(game, options) else ""
        if seats != 1:
            table = ""
        if rated:
            if seats != 2 or scenario or seed is not None or daily:
                raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: 'ranked' is for two-player rooms dealt by the "
                                                         "players' seeds: no 'seed', no 'daily', no scenario options")
            table = standings.RATED
        server_seed = secrets.randbits(63) if seed is None else seed
        salt = seeding.new_salt()
        try:
            state, dumped = _placeholder(game.name, msgpack.packb(options)) if seed is None else _dealt(game, options, seed)
        except EngineError as exc:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, exc.message) from None
        for attempt in range(8):
            room_id = room_id if attempt == 0 and room_id else new_room_id()
            record = RoomRecord(
                room=room_id, game=game.name, options=options, seed=seed,
                commitment=seeding.commitment(room_id, server_seed, salt),
                created=time.time(), version=game.version(state), state=dumped, seats=(None,) * seats,
                table=table, spectator_chat=spectator_chat, limits=limits.data(), daily=day,
                server_seed=server_seed, salt=salt, seeding=how, replays=replays, hosted=hosted,
            )
            made = await self.store.create(record, request, self.leases.node)
            if made and made != room_id:  # the same keyed request, served before
                try:
                    return await self.find(made)
                except ProtocolError as exc:
                    if exc.code is not ErrorCode.UNKNOWN_ROOM:
                        raise
                # its making was cut between remembering the request and storing the room: made now, under its id
                room_id = made
                record = replace(record, room=made, commitment=seeding.commitment(made, server_seed, salt))
                if not await self.store.create(record, holder=self.leases.node):
                    return await self.find(made)  # made meanwhile, by the request it was remembered for
            if made:
                room = Room(record, game, state, self.store)
                room.fence = 1  # its lease taken as it was made
                chat.none_yet(room)  # made now: whoever sits or watches first reads no lines from Redis
                self.rooms[room_id] = room
                self.rooms_made += 1
                if self.rooms_made % EVICT_EVERY == 0:
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
        """Drop all but the last :data:`KEEP_FINISHED` finished rooms no one watches, and trim those kept."""
        finished = [rid for rid, room in self.rooms.items() if room.over and not room.watchers]
        dropped = max(0, len(finished) - KEEP_FINISHED)
        for rid in finished[:dropped]:
            del self.rooms[rid]
        for rid in finished[dropped:]:
            self.rooms[rid].trim()

    async def restore(self) -> int:
        """Read the ids of every unfinished room and start loading them in the background (:meth:`warm`);
        returns how many. Until it is done a room asked for by id is loaded at once (:meth:`find`), and a
        listing waits for it a while (:meth:`listing_ready`). Keys named before hash tags are moved first
        (server/store/keys.py)."""
        if self.store.cluster is None:
            await keys.migrate(self.store.redis)
        self.alive = await self.store.alive()
        ids = await self.store.open_ids()
        self.warming = asyncio.create_task(self.warm(ids))
        self.finishing.add(task := asyncio.create_task(self._index_names()))
        task.add_done_callback(self.finishing.discard)
        return len(ids)

    async def _index_names(self) -> None:
        try:
            await self.names.index_skeletons()
        except Exception:  # the next start tries again; names bound meanwhile are indexed as they are bound
            log.exception("names bound earlier not indexed by their look")

    async def warm(self, ids: list[str]) -> None:
        """Load restored rooms, ``LOAD_BATCH`` per two round trips, replaying each log's tail and yielding to
        requests every few rooms; their clocks, carried over the downtime, are stored batch by batch."""
        for start in range(0, len(ids), LOAD_BATCH):
            records = await self.store.load_many([i for i in ids[start:start + LOAD_BATCH] if i not in self.rooms])
            fences = await self._fences(records)
            clocks: dict[str, bytes] = {}
            for n, record in enumerate(records):
                if n % WARM_BATCH == WARM_BATCH - 1:
                    await asyncio.sleep(0)
                loaded = record.room in self.rooms  # loaded meanwhile by a request: it carries on
                room = self._install(record, fences[record.room])
                if loaded:
                    continue
                if room is not None:
                    clocks[record.room] = msgpack.packb(room.clock.data())
            try:
                await self.store.save_clocks(clocks)
            except Exception:  # the clocks run on in memory; the next decision stores them
                log.exception("restored clocks not stored")

    async def _fences(self, records: list[RoomRecord]) -> dict[str, int | None]:
        """The leases of many stored rooms taken in one round trip (see :meth:`adopt`): by room, the fencing
        token, 0 for one another node holds, None for a finished match (it needs none)."""
        running = [r.room for r in records if r.ended is None]
        taken = dict(zip(running, await self.leases.take_many(running), strict=True))
        return {r.room: taken.get(r.room) for r in records}

    async def adopt(self, record: RoomRecord) -> Room | None:
        """A stored room made live here, its lease taken if its match runs: see :meth:`_install`."""
        fence = None
        if record.ended is None:  # a finished match is only read: any node may show it, no lease needed
            fence, _ = await self.leases.take(record.room)
        return self._install(record, fence)

    def _install(self, record: RoomRecord, fence: int | None) -> Room | None:
        """A stored room made live with the lease token taken for it (None for a finished match; 0 or less:
        another node holds it, and it is not): its state rebuilt, its clock carried over the downtime and armed."""
        if fence is not None and fence <= 0:
            return None
        loaded = self.rooms.get(record.room)
        if loaded is not None:  # loaded meanwhile here: it carries on with the token just taken
            loaded.fence = fence
            return loaded
        game = registry.get(record.game)
        if game is None:
            log.error("unknown game %r, not restored", record.game, extra={"room": record.room})
            return None
        try:
            state = snapshots.rebuild(game, record)
        except (ServerError, EngineError):
            log.exception("room not restored: its log does not replay", extra={"room": record.room})
            return None
        room = self.rooms[record.room] = Room(record, game, state, self.store, self.alive if record.ended is None else None)
        room.fence = fence
        room.arm()
        if room.over and (record.ended is None or record.out):  # its node stopped before it wrote all of its end
            self.finishing.add(task := asyncio.create_task(self._end_at_deal(room)))
            task.add_done_callback(self.finishing.discard)
        return room

    async def _end_at_deal(self, room: Room) -> None:
        """Archive a deal lost at once, or write what a finished match left to write, after its node stopped."""
        try:
            await room.end_at_deal() if room.ended is None else await room.flush()
            log.info("a finished match's end written after its node stopped", extra={"room": room.id})
        except Exception:  # the sweep, or the next load, tries again
            log.exception("a finished match's end not written", extra={"room": room.id})

    async def keep(self, stop: asyncio.Event) -> None:
        """Renew this node's leases every third of their time; a room whose lease was lost stops being served
        here; open rooms nobody holds (their node died) are adopted, so their matches and clocks go on.

        Renewal runs on its own deadline: adopting rooms and the sweeps run in a loop of their own, so a slow
        adoption (many rooms to load) never delays a renewal and lets this node's own leases lapse."""
        tending = asyncio.create_task(self._tend(stop))
        try:
            await self._every_third(stop, self._beat_and_renew, "leases not renewed; trying again")
        finally:
            await tending

    async def _tend(self, stop: asyncio.Event) -> None:
        await self._every_third(stop, self._adopt_and_sweep, "orphans not adopted; trying again")

    @staticmethod
    async def _every_third(stop: asyncio.Event, step: Callable[[], Awaitable[None]], failed: str) -> None:
        """Run ``step`` every third of a lease until ``stop``; a failed step is logged and tried again."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), LEASE_MS / 3000)
            if stop.is_set():
                return
            try:
                await step()
            except Exception:
                log.exception(failed)

    async def _beat_and_renew(self) -> None:
        others = await self.leases.beat()
        if others and not self.serving_players():
            await self.hand_over()
        else:
            await self.renew()

    async def _adopt_and_sweep(self) -> None:
        await self.adopt_orphans()
        for sweep in self.sweeps:
            await sweep()

    async def renew(self) -> None:
        live = {room_id: room.fence for room_id, room in self.rooms.items() if not room.over and not room.moved}
        for room_id in await self.leases.renew(live):
            room = self.rooms.pop(room_id, None)
            if room is not None:
                log.warning("room lease lost: another node serves it now", extra={"room": room_id})
                room.lost()

    async def hand_over(self) -> None:
        """Nobody plays on this node while others run (it stands by): give its live rooms up, so that the node
        players are connected to adopts them (a node back from a pause must not keep rooms from them)."""
        live = [room_id for room_id, room in self.rooms.items() if not room.over and not room.moved]
        for room_id in live:
            room = self.rooms.pop(room_id)
            room.lost()
        if live:
            await self.leases.release_many(live)
            log.info("rooms handed over: nobody plays on this node", extra={"rooms": len(live)})

    async def adopt_orphans(self) -> None:
        """Open rooms with no lease (their node stopped renewing): load and serve them here, if players are
        connected to this node (a node standing by, that the proxy sends nobody to, leaves them to the node
        that serves, or to a restarting one that takes its rooms back)."""
        if (self.warming is not None and not self.warming.done()) or not self.serving_players():
            return
        away = [i for i in await self.store.open_ids() if i not in self.rooms]
        orphans = [i for i, holder in zip(away, await self.leases.holders(away), strict=True) if holder is None]
        records = await self.store.load_many(orphans)
        found = {r.room for r in records}
        missing = {i for i in orphans if i not in found}  # closed, or a making cut before its hash: twice, it goes
        for room_id in missing & self.missing:
            await self.store.drop_missing(room_id)
        self.missing = missing
        for record in [r for r in records if r.ended is not None and not r.out]:  # finished, all written: it goes
            await self.store.closing(record.room)
        fences = await self._fences(records)
        for record in records:
            loaded = record.room in self.rooms  # loaded meanwhile (made here, or asked for): it carries on
            if self._install(record, fences[record.room]) is not None and not loaded:
                log.info("room adopted from a node that stopped", extra={"room": record.room})

    def owned(self) -> list[str]:
        """The rooms this node serves now."""
        return sorted(room_id for room_id, room in self.rooms.items() if not room.moved)

    async def listing_ready(self) -> None:
        """Wait (a while at most) until every restored room is loaded, so that a listing shows them all; a
        long warm-up lists what is loaded so far rather than keep the lobby waiting."""
        if self.warming is not None and not self.warming.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.warming), LISTING_WAIT)
