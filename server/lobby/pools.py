"""Matchmaking pools: "find me a game now". A player queues a ticket for a game (rated or casual, a clock) and is
paired with the waiting player of nearest rating, within a gap that widens the longer they wait; one who opted
in is given a computer opponent after the wait they chose (docs/protocol.md, "Matchmaking").

The pools live in Redis, so any node takes tickets and pairs them (prefix ``cardroom:{pools}:``, one slot):

- ``pool:{pool}:rating`` a sorted set, ticket -> the player's rating; ``pool:{pool}:tickets`` a hash, ticket ->
  msgpack {player, name, nonce, since, holder, after, level}; ``pools`` the set of pools that had tickets;
- ``ticket:{ticket}`` a hash {pool, holder}: where a ticket waits and whose it is. A ticket's id is the game and
  the player (by key), or the game and the connection for a guest: one ticket per player per game;
- ``tickets:{owner}`` the tickets a node's run (``node|incarnation``) took, and ``ticket-owners`` those runs:
  the tickets of a run that stopped saying it is alive are removed (its connections are gone with it);
- ``paired:{holder}:{ticket}`` what a paired ticket's connection is told (kept two minutes).

One node at a time pairs a pool, under the pool's lease (``pool:{pool}:lease``, server/store/lease.py), every
``PAIR_EVERY`` seconds: it reads the pool, plans the pairs (:func:`plan`, nearest ratings first), takes their
tickets in one script that checks the lease is still its own (a node that lost it takes nothing), creates each
room, claims both seats with the players' nonces, and tells each ticket's node (pub/sub ``cardroom:paired:{node}``,
with a poll as a backstop) to push ``paired`` with the seat token to the connection, which resumes the seat.
"""
from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack

from engine import registry
from protocol import ErrorCode, ProtocolError, encode
from server.lobby.lobby import Lobby
from server.players import standings
from server.rooms.clock import limits_for
from server.rooms.peer import Peer
from server.store import keys, pubsub
from server.store.lease import LEASE_MS

__all__ = ["BASE_GAP", "PAIR_EVERY", "SITTING", "WIDEN_EVERY", "WIDEN_GAP", "Candidate", "Computers", "Pools",
           "allowance", "plan"]

log = logging.getLogger(__name__)

BASE_GAP = 100.0
"""The rating gap allowed at once."""
WIDEN_GAP = 50.0
"""Added to the allowed gap for every ``WIDEN_EVERY`` seconds waited."""
WIDEN_EVERY = 5.0
PAIR_EVERY = 0.5
"""Seconds between two pairings of a pool."""
MAX_COMPUTER_AFTER = 600
"""The longest ``computer_after`` a ticket may ask for (seconds)."""
PAIRED_TTL = 120
"""Seconds a pairing waits in Redis for its connection's node to tell it."""
CHECK_EVERY = 2.0
"""Seconds between two looks of a node for pairings of its tickets that pub/sub did not bring."""
SEAT_BATCH = 64
"""Rooms of one pass made at once."""
SITTING = frozenset({"create_room", "join", "resume", "play_event"})
"""Requests that sit a connection in a room: they end its tickets first."""

_P = keys.POOLS
"""Every matchmaking key's prefix (``cardroom:{pools}:``): one slot, so that each script touches one."""
POOLS = _P + "pools"
OWNERS = _P + "ticket-owners"


def _pool_key(pool: str, part: str) -> str:
    return f"{_P}pool:{pool}:{part}"


def _ticket_key(ticket: str) -> str:
    return f"{_P}ticket:{ticket}"


def _owned_key(owner: str) -> str:
    return f"{_P}tickets:{owner}"


def _paired_key(holder: str, ticket: str) -> str:
    return f"{_P}paired:{holder}:{ticket}"


def channel_of(node: str) -> str:
    return f"cardroom:paired:{node}"


# KEYS: the ticket's pointer, the pool's rating set, its tickets hash, the pools, the owner's tickets, the owners.
# ARGV: ticket, pool, rating, blob, holder, owner, pool key prefix, only_if_absent. The ticket queued (any earlier
# ticket of the same id taken out of its pool first); returns {the earlier ticket's holder or '', tickets in the
# pool}, or {'-', 0} when only_if_absent and the ticket exists.
_QUEUE = """
local old = redis.call('HMGET', KEYS[1], 'pool', 'holder')
if old[1] and ARGV[8] == '1' then return {'-', 0} end
local replaced = ''
if old[1] then
  redis.call('ZREM', ARGV[7] .. old[1] .. ':rating', ARGV[1])
  redis.call('HDEL', ARGV[7] .. old[1] .. ':tickets', ARGV[1])
  replaced = old[2]
end
redis.call('HSET', KEYS[1], 'pool', ARGV[2], 'holder', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('SADD', KEYS[5], ARGV[1])
redis.call('SADD', KEYS[6], ARGV[6])
return {replaced, redis.call('ZCARD', KEYS[2])}
"""

# KEYS: the ticket's pointer, the owner's tickets. ARGV: ticket, holder, pool key prefix. The ticket out of its
# pool if it is still this holder's: 1, else 0.
_CANCEL = """
local at = redis.call('HMGET', KEYS[1], 'pool', 'holder')
if not at[1] or at[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', ARGV[3] .. at[1] .. ':rating', ARGV[1])
redis.call('HDEL', ARGV[3] .. at[1] .. ':tickets', ARGV[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
"""

# KEYS: the pool's lease, rating set, tickets hash. ARGV: node, ticket pointer prefix, then groups, each its size
# followed by its tickets. Nothing if the lease is not this node's; else per group, the tickets' blobs in order
# (the group taken out of the pool, every ticket of it at once) or an empty list (one of them is gone).
_TAKE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local out = {}
local i = 3
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  local blobs = {}
  local all = true
  for k = 1, n do
    local blob = redis.call('HGET', KEYS[3], ARGV[i + k])
    if not blob then all = false break end
    blobs[k] = blob
  end
  if all then
    for k = 1, n do
      redis.call('ZREM', KEYS[2], ARGV[i + k])
      redis.call('HDEL', KEYS[3], ARGV[i + k])
      redis.call('DEL', ARGV[2] .. ARGV[i + k])
    end
    out[#out + 1] = blobs
  else
    out[#out + 1] = {}
  end
  i = i + n + 1
end
return out
"""

# KEYS: the owner's tickets, the owners. ARGV: owner, ticket pointer prefix, pool key prefix. Every ticket a
# stopped node's run holds taken out of its pool; returns how many.
_PURGE = """
local n = 0
for _, ticket in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local at = redis.call('HMGET', ARGV[2] .. ticket, 'pool', 'holder')
  if at[1] and string.sub(at[2], 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
    redis.call('DEL', ARGV[2] .. ticket)
    redis.call('ZREM', ARGV[3] .. at[1] .. ':rating', ticket)
    redis.call('HDEL', ARGV[3] .. at[1] .. ':tickets', ticket)
    n = n + 1
  end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return n
"""

# KEYS: the pool's rating set, the pools. ARGV: pool. A pool with no ticket left is forgotten.
_FORGET = """
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) return 1 end
return 0
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def allowance(waited: float) -> float:
    """The rating gap a ticket that has waited ``waited`` seconds accepts."""
    return BASE_GAP + WIDEN_GAP * int(max(0.0, waited) // WIDEN_EVERY)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A ticket as the pairing sees it."""

    ticket: str
    rating: float
    since: float
    after: float = -1.0
    """Seconds after which the player takes a computer opponent (negative: never)."""


def plan(candidates: Sequence[Candidate], now: float) -> tuple[list[tuple[int, int]], list[int]]:
    """Pairs of ``candidates`` (given in rating order) and the ones to give a computer opponent: the two nearest
    ratings first (the longer wait first among equal gaps), each pair within the larger of its two allowed gaps;
    then every ticket left whose ``after`` has passed. O(n log n): the unpaired tickets are a linked list in rating
    order, and only neighbours in it are ever candidates."""
    n = len(candidates)
    prev = list(range(-1, n - 1))
    nxt = list(range(1, n + 1))
    nxt[-1:] = [-1] if n else []
    taken = [False] * n
    allowed = [allowance(now - c.since) for c in candidates]
    heap = [(candidates[i + 1].rating - candidates[i].rating, min(candidates[i].since, candidates[i + 1].since), i, i + 1)
            for i in range(n - 1)]
    heapq.heapify(heap)
    pairs: list[tuple[int, int]] = []
    while heap:
        gap, _, i, j = heapq.heappop(heap)
        if taken[i] or taken[j] or nxt[i] != j:
            continue
        if gap > max(allowed[i], allowed[j]):
            continue
        taken[i] = taken[j] = True
        pairs.append((i, j))
        left, right = prev[i], nxt[j]
        if left >= 0:
            nxt[left] = right
        if right >= 0:
            prev[right] = left
        if left >= 0 and right >= 0:
            c, d = candidates[left], candidates[right]
            heapq.heappush(heap, (d.rating - c.rating, min(c.since, d.since), left, right))
    alone = [i for i, c in enumerate(candidates) if not taken[i] and 0 <= c.after <= now - c.since]
    return pairs, alone


class Computers(Protocol):
    """This node's computer players (server/edge/computer.py)."""

    def reserve(self) -> None: ...

    def join(self, room: str, game: str, level: str) -> None: ...


@dataclass
class Waiting:
    """A ticket of a connection of this node."""

    ticket: str
    game: str
    holder: str
    peer: Peer


class Pools:
    """This node's side of the pools: its connections' tickets, and the pairing of the pools it holds the lease of."""

    def __init__(self, lobby: Lobby, computers: Computers | None = None, computer_games: Sequence[str] = (),
                 levels: Sequence[str] = ()) -> None:
        self.lobby = lobby
        self.redis = lobby.store.redis
        self.node = lobby.leases.node
        self.owner = f"{self.node}|{lobby.leases.incarnation}"
        """This node's run: its tickets are removed once it stops saying it is alive."""
        self.channel = channel_of(self.node)
        self.computers = computers
        self.computer_games = tuple(computer_games)
        self.levels = tuple(levels)
        self.local: dict[str, Waiting] = {}
        """This node's connections' tickets, by ticket."""
        self.tasks: set[asyncio.Task[Any]] = set()
        self.purged = 0.0
        self._queue = self.redis.register_script(_QUEUE)
        self._cancel = self.redis.register_script(_CANCEL)
        self._take = self.redis.register_script(_TAKE)
        self._purge = self.redis.register_script(_PURGE)
        self._forget = self.redis.register_script(_FORGET)
        self.on_paired: Callable[[str], None] | None = None
        """Told each room this node pairs (tests)."""

    # -- a connection's tickets ---------------------------------------------------------

    def _holder(self, peer: Peer) -> str:
        return f"{self.owner}|{peer.id}"

    @staticmethod
    def _ticket(game: str, peer: Peer, holder: str) -> str:
        return f"{game}|p:{peer.player}" if peer.player else f"{game}|c:{holder}"

    async def queue(self, peer: Peer, m: dict[str, Any]) -> dict[str, Any]:
        """Queue ``peer``'s ticket for ``m``'s pool (replacing the player's earlier ticket for the game); the
        ``queued`` reply's fields."""
        game = registry.get(m["game"])
        if game is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"unknown game {m['game']!r}; games: {', '.join(registry.GAMES)}")
        if game.seats({}) != 2:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"queue: {game.title} is a solitaire; matchmaking pairs two players")
        rated = bool(m.get("rated", False))
        if rated and not peer.player:
            raise ProtocolError(ErrorCode.KEY_REQUIRED, "queue: a rated pool pairs players with a key: say hello with 'key'")
        limits = limits_for(game, m.get("clock"))
        after = m.get("computer_after")
        level = m.get("computer", "strong")
        if after is not None:
            if not 0 <= after <= MAX_COMPUTER_AFTER:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"queue: 'computer_after' must be from 0 to {MAX_COMPUTER_AFTER}")
            if rated or game.name not in self.computer_games or self.computers is None:
                raise ProtocolError(ErrorCode.BAD_FIELD, "queue: a computer opponent plays casual matches of "
                                                         f"{', '.join(self.computer_games) or 'no game here'}")
        if level not in self.levels and after is not None:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"queue: field 'computer' must be one of {', '.join(self.levels)}")
        pool = f"{game.name}:{'rated' if rated else 'casual'}:{limits.move}-{limits.bank}-{limits.increment}"
        rating = await standings.rating_of(self.lobby.store, game.name, peer.player)
        holder = self._holder(peer)
        ticket = self._ticket(game.name, peer, holder)
        blob = msgpack.packb({"player": peer.player or "", "name": peer.name, "nonce": m.get("nonce", ""),
                              "since": time.time(), "holder": holder, "after": -1 if after is None else after,
                              "level": level})
        replaced, waiting = await self._queue(
            keys=[_ticket_key(ticket), _pool_key(pool, "rating"), _pool_key(pool, "tickets"), POOLS,
                  _owned_key(self.owner), OWNERS],
            args=[ticket, pool, repr(rating), blob, holder, self.owner, f"{_P}pool:", "0"])
        replaced = _text(replaced)
        earlier = self.local.get(ticket)
        if earlier is not None and earlier.peer is not peer:
            self._ended(earlier, "replaced")
        elif replaced and replaced != holder and not replaced.startswith(self.owner + "|"):
            node = replaced.split("|", 1)[0]
            await pubsub.publish(self.redis, self.redis, channel_of(node), msgpack.packb(["ended", ticket, replaced, "replaced"]))
        self.local[ticket] = Waiting(ticket, game.name, holder, peer)
        log.info("queued", extra={"conn": peer.id})
        return {"game": game.name, "rated": rated, "clock": limits.data(), "rating": round(rating, 1),
                "waiting": int(waiting), "replaced": bool(replaced),
                "computer_after": after}

    async def unqueue(self, peer: Peer, game: str) -> bool:
        """End ``peer``'s ticket for ``game``: whether it was waiting (not paired or ended before)."""
        for waiting in [w for w in self.local.values() if w.peer is peer and w.game == game]:
            self.local.pop(waiting.ticket, None)
            if await self._cancel_ticket(waiting):
                return True
        return False

    async def _cancel_ticket(self, waiting: Waiting) -> bool:
        done = await self._cancel(keys=[_ticket_key(waiting.ticket), _owned_key(self.owner)],
                                  args=[waiting.ticket, waiting.holder, f"{_P}pool:"])
        return bool(done)

    def tickets_of(self, peer: Peer) -> list[Waiting]:
        return [w for w in self.local.values() if w.peer is peer]

    async def seated(self, peer: Peer, kind: str, m: dict[str, Any]) -> None:
        """``peer`` sits in a room (``kind`` is a request of ``SITTING``): its tickets end (``unqueued``, ``seated``)."""
        if kind == "create_room" and not m.get("sit", True):
            return
        for waiting in self.tickets_of(peer):
            self.local.pop(waiting.ticket, None)
            if await self._cancel_ticket(waiting):
                peer.send(encode({"t": "unqueued", "re": None, "game": waiting.game, "reason": "seated"}))

    def gone(self, peer: Peer) -> None:
        """``peer``'s connection closed or was dropped: its tickets end."""
        for waiting in self.tickets_of(peer):
            self.local.pop(waiting.ticket, None)
            self._spawn(self._cancel_ticket(waiting))

    def _ended(self, waiting: Waiting, reason: str) -> None:
        self.local.pop(waiting.ticket, None)
        waiting.peer.send(encode({"t": "unqueued", "re": None, "game": waiting.game, "reason": reason}))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- told by the pairing node ---------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """A message on this node's channel: a ticket of ours was paired, or ended by a newer one."""
        try:
            kind, ticket, holder, *rest = msgpack.unpackb(data, raw=False)
        except Exception:
            log.warning("unreadable message on %s", self.channel)
            return
        waiting = self.local.get(ticket)
        if waiting is None or waiting.holder != holder:
            return
        if kind == "paired":
            self._spawn(self._deliver([waiting]))
        elif kind == "ended":
            self._ended(waiting, str(rest[0]) if rest else "replaced")

    async def check(self) -> None:
        """Pairings of this node's tickets that no message told of (a broken subscription): delivered now."""
        waiting = list(self.local.values())
        if waiting:
            await self._deliver(waiting)

    async def _deliver(self, waiting: list[Waiting]) -> None:
        """Push ``paired`` to the connections of those of ``waiting`` that were paired; their other tickets end."""
        for start in range(0, len(waiting), 512):
            chunk = waiting[start:start + 512]
            async with self.redis.pipeline(transaction=False) as pipe:
                for w in chunk:
                    pipe.getdel(_paired_key(w.holder, w.ticket))
                told = await pipe.execute()
            for w, raw in zip(chunk, told, strict=True):
                if raw is None:
                    continue
                self.local.pop(w.ticket, None)
                w.peer.send(encode({"t": "paired", "re": None, **msgpack.unpackb(raw, raw=False)}))
                for other in self.tickets_of(w.peer):
                    self.local.pop(other.ticket, None)
                    if await self._cancel_ticket(other):
                        other.peer.send(encode({"t": "unqueued", "re": None, "game": other.game, "reason": "paired"}))

    # -- pairing ------------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Pair the pools this node holds the lease of, every ``PAIR_EVERY`` seconds, until ``stop``."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PAIR_EVERY)
            if stop.is_set():
                break
            try:
                await self.pair_all()
            except Exception:
                log.exception("pools not paired; trying again")
        for task in list(self.tasks):
            with contextlib.suppress(Exception):
                await task

    async def live_owners(self) -> set[str]:
        """The node runs alive now (``node|incarnation``)."""
        nodes = await self.lobby.leases.nodes()
        runs = await self.lobby.leases.incarnations(nodes)
        return {f"{node}|{run}" for node, run in zip(nodes, runs, strict=True) if run is not None}

    async def pair_all(self) -> int:
        """One pass over every pool: the tickets of stopped nodes removed (every lease), the pools this node
        holds paired. Returns the rooms made."""
        live = await self.live_owners()
        now = time.monotonic()
        if now - self.purged >= LEASE_MS / 1000:
            self.purged = now
            owners = {_text(o) for o in await self.redis.smembers(OWNERS)}
            for owner in owners - live:
                removed = await self._purge(keys=[_owned_key(owner), OWNERS], args=[owner, f"{_P}ticket:", f"{_P}pool:"])
                log.info("tickets of a stopped node removed", extra={"node": owner, "tickets": int(removed)})
        pools = sorted(_text(p) for p in await self.redis.smembers(POOLS))
        held = await self.lobby.leases.hold([_pool_key(p, "lease") for p in pools])
        made = 0
        for pool, ours in zip(pools, held, strict=True):
            if ours:
                made += await self.pair(pool, live)
        return made

    async def pair(self, pool: str, live: set[str]) -> int:
        """Pair one pool (this node holds its lease): returns the rooms made."""
        taken = await self.take(pool, live)
        if taken is None:
            return 0
        made = 0
        for start in range(0, len(taken), SEAT_BATCH):
            done = await asyncio.gather(*(self._seat_or_requeue(pool, group) for group in taken[start:start + SEAT_BATCH]))
            made += sum(done)
        return made

    async def _seat_or_requeue(self, pool: str, group: list[tuple[str, dict[str, Any]]]) -> bool:
        try:
            await self._seat(pool, group)
            return True
        except Exception:
            log.exception("a pairing's room was not made; its tickets go back to the pool")
            for ticket, blob in group:
                with contextlib.suppress(Exception):
                    await self._requeue(pool, ticket, blob)
            return False

    async def take(self, pool: str, live: set[str], now: float | None = None) -> list[list[tuple[str, dict[str, Any]]]] | None:
        """Read ``pool``, plan it, and take the planned tickets out of it: each group (a pair, or one ticket for a
        computer opponent) as (ticket, its data); None when the pool is empty (and then forgotten)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(_pool_key(pool, "rating"), 0, -1, withscores=True)
            pipe.hgetall(_pool_key(pool, "tickets"))
            ranked, blobs = await pipe.execute()
        if not ranked:
            await self._forget(keys=[_pool_key(pool, "rating"), POOLS], args=[pool])
            return None
        candidates: list[Candidate] = []
        data: dict[str, dict[str, Any]] = {}
        for member, rating in ranked:
            blob = blobs.get(member)
            if blob is None:
                continue
            ticket = _text(member)
            info = msgpack.unpackb(blob, raw=False)
            if info["holder"].rsplit("|", 1)[0] not in live:  # its node stopped: the ticket goes with the next purge
                continue
            data[ticket] = info
            candidates.append(Candidate(ticket, float(rating), float(info["since"]), float(info["after"])))
        pairs, alone = plan(candidates, time.time() if now is None else now)
        if alone and self.computers is not None:
            free = []
            for i in alone:
                try:
                    self.computers.reserve()
                except ProtocolError:
                    break
                free.append(i)
            alone = free
        else:
            alone = []
        groups = [[candidates[i].ticket, candidates[j].ticket] for i, j in pairs] + [[candidates[i].ticket] for i in alone]
        if not groups:
            return []
        args: list[Any] = [self.node, f"{_P}ticket:"]
        for group in groups:
            args += [len(group), *group]
        got = await self._take(keys=[_pool_key(pool, "lease"), _pool_key(pool, "rating"), _pool_key(pool, "tickets")],
                               args=args)
        if got is None:
            return None
        return [[(ticket, msgpack.unpackb(blob, raw=False)) for ticket, blob in zip(group, out, strict=True)]
                for group, out in zip(groups, got, strict=True) if out]

    async def _requeue(self, pool: str, ticket: str, blob: dict[str, Any]) -> None:
        game = pool.split(":")[0]
        rating = await standings.rating_of(self.lobby.store, game, blob["player"] or None)
        owner = blob["holder"].rsplit("|", 1)[0]
        await self._queue(keys=[_ticket_key(ticket), _pool_key(pool, "rating"), _pool_key(pool, "tickets"), POOLS,
                                _owned_key(owner), OWNERS],
                          args=[ticket, pool, repr(rating), msgpack.packb(blob), blob["holder"], owner, f"{_P}pool:", "1"])

    async def _seat(self, pool: str, group: list[tuple[str, dict[str, Any]]]) -> None:
        """Make the room of a taken group, claim its players' seats, and tell their nodes."""
        game_name, kind, clock = pool.split(":")
        move, bank, increment = (int(x) for x in clock.split("-"))
        rated = kind == "rated"
        room = await self.lobby.create(game_name, {}, None, clock={"move": move, "bank": bank, "increment": increment},
                                       rated=rated, hosted=True)
        if len(group) == 2 and secrets.randbelow(2):
            group = [group[1], group[0]]
        names = [info["name"] for _, info in group]
        tokens = []
        for seat, (_, info) in enumerate(group):
            _, token = await room.claim(seat, info["name"], info["player"], info["nonce"])
            tokens.append(token)
        computer = None
        if len(group) == 1:
            computer = str(group[0][1]["level"])
            assert self.computers is not None
            self.computers.join(room.id, game_name, computer)
            names.append(f"{computer} bot")
        async with self.redis.pipeline(transaction=False) as pipe:
            for seat, (ticket, info) in enumerate(group):
                told = {"room": room.id, "game": game_name, "seat": seat, "token": tokens[seat], "rated": rated,
                        "opponent": names[1 - seat], "computer": computer, "node": self.lobby.leases.node}
                pipe.set(_paired_key(info["holder"], ticket), msgpack.packb(told), ex=PAIRED_TTL)
                node = info["holder"].split("|", 1)[0]
                pubsub.publish(self.redis, pipe, channel_of(node), msgpack.packb(["paired", ticket, info["holder"]]))
            await pipe.execute()
        log.info("paired", extra={"room": room.id})
        if self.on_paired is not None:
            self.on_paired(room.id)
