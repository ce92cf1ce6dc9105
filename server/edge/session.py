"""One client's session: greet, rate-limit, decode, dispatch, and answer every failure with an error."""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from typing import Any

from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from engine import registry
from protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, decode, encode, error
from protocol.messages import MAX_FRAME
from server.cluster.relay import ROUTED, Relay, Relayed
from server.edge import admin, admission, computer
from server.edge.connection import Connection, Socket, next_request
from server.edge.lane import READING, Lane
from server.lobby import expiry, rematch, replays, retries
from server.lobby.events import Event, Events
from server.lobby.lobby import Lobby, new_room_id
from server.lobby.pools import SITTING, Pools
from server.lobby.quota import check_spectators
from server.lobby.records import match_record
from server.lobby.replay_pages import replay_page
from server.ops import collector, metrics
from server.players import standings
from server.players.identity import identify
from server.rooms import chat
from server.rooms.peer import Peer
from server.rooms.reveal import day_end
from server.rooms.room import Room

__all__ = ["Session"]

log = logging.getLogger(__name__)
IN_MEMORY = frozenset({"hello", "list_rooms", "spectate", "leave", "view"})
"""Requests served from memory alone: they need no store, so an outage does not refuse them."""
RATE = float(os.environ.get("CARDROOM_MESSAGES_PER_SECOND", "40"))
"""Messages a second a connection may send on average (decisions the server stores aside: :meth:`Session.refund`)."""
BURST = 2 * RATE
"""Messages a connection may send at once."""


class Session:
    """Serves one client: a websocket of this node until it closes, or a stand-in for a client another node
    relays (server/cluster/relay.py)."""

    def __init__(self, lobby: Lobby, relay: Relay | None, conn: Peer, address: str,
                 computer: computer.ComputerPool | None = None, pools: Pools | None = None,
                 events: Events | None = None, lane: Lane | None = None) -> None:
        self.lobby = lobby
        self.lane = lane
        """The node's lane for reading requests (server/edge/lane.py); None: they start at once."""
        self.relay = relay
        """Requests about rooms other nodes own go through it (None: a lone server in tests)."""
        self.computer = computer
        """This node's computer players (server/edge/computer.py); None where rooms are not created."""
        self.pools = pools
        """This node's matchmaking pools (server/lobby/pools.py); None for a stand-in (``queue`` is never relayed)."""
        self.events = events
        """This node's side of the events (server/lobby/events.py); None for a stand-in (never relayed)."""
        self.conn = conn
        conn.on_drop = self.leave_all
        self.address = address
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.chat = chat.Limiter()
        self.scope = "conn:" + secrets.token_hex(8)
        """Whose ``request`` keys this connection's are: its own until ``hello`` names a player."""
        self.relayed = False
        """A stand-in for a client of another node (server/cluster/relay.py): that node greeted and rate-limits it."""
        self.link = relay.link_of(conn) if relay is not None else ""
        self.remote: dict[str, str] = {}
        """Rooms this client asked about that another node owns, and that node (server/cluster/relay.py)."""

    @classmethod
    def over(cls, ws: ServerConnection, lobby: Lobby, relay: Relay | None,
             computers: computer.ComputerPool | None = None, pools: Pools | None = None,
             events: Events | None = None, lane: Lane | None = None) -> Session:
        """The session of a client's websocket on this node."""
        return cls(lobby, relay, Connection(ws), admission.address(ws), computers, pools, events, lane)

    @classmethod
    def stand_in(cls, lobby: Lobby, relay: Relay, peer: Peer, address: str, name: str, player: str | None,
                 scope: str, lane: Lane | None = None) -> Session:
        """The session serving, on the node that owns its rooms, a client another node greeted."""
        session = cls(lobby, relay, peer, address, lane=lane)
        peer.greeted, peer.name, peer.player = True, name, player
        session.scope = scope
        session.relayed = True
        return session

    def allow(self) -> bool:
        """A token bucket: RATE messages a second on average, BURST at once."""
        if self.relayed:
            return True
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        """Give back the token of a decision the room stored: the game's own pace bounds those (a seat decides again
        only once the table has moved, and a match ends), so a bot playing as fast as the table allows is never
        slowed; refused decisions, retries and every other message are counted. A stand-in tells the node that
        greeted its client, which counts the client's messages."""
        if isinstance(self.conn, Relayed):
            self.conn.refund()
            return
        self.tokens = min(BURST, self.tokens + 1)

    def _hello_deadline(self) -> None:
        if not self.conn.greeted:
            self.conn.drop(f"no 'hello' within {admission.HELLO_SECONDS:g} s")

    async def run(self) -> None:
        assert isinstance(self.conn, Connection)
        ws = self.conn.ws
        deadline = asyncio.get_running_loop().call_later(admission.HELLO_SECONDS, self._hello_deadline)
        try:
            if isinstance(ws, Socket):  # requests past websockets' queue (server/edge/connection.py)
                ws.read_requests()
                while True:
                    request = await next_request(ws)
                    if request is not None:
                        await self.handle(request)
            else:
                async for frame in ws:
                    await self.handle(frame)
        except ConnectionClosed:
            pass
        finally:
            deadline.cancel()
            self.leave_all(self.conn)
            await self.conn.close()

    def leave_all(self, conn: Peer) -> None:
        """Stop every room from sending to this connection (it closed, or it was dropped), here and on the
        nodes that served it other rooms."""
        for room_id in list(conn.rooms):
            room = self.lobby.rooms.get(room_id)
            if room is not None:
                room.unwatch(conn)
        if self.relay is not None:
            self.relay.closed(self)
        if self.pools is not None:
            self.pools.gone(conn)
        if self.events is not None:
            self.events.gone(conn)

    async def handle(self, frame: str | bytes) -> None:
        if self.conn.dead:
            return
        re: int | None = None
        allowed = self.allow()
        try:
            if isinstance(frame, str):
                raise ProtocolError(ErrorCode.BAD_FRAME, "text frames are not accepted; send msgpack in binary frames")
            message = decode(frame)
            re = message["id"]
            kind = message["t"]
            if not allowed:
                metrics.RATE_LIMITED.inc()
                raise ProtocolError(ErrorCode.RATE_LIMITED, f"more than {RATE:.0f} messages a second; {kind!r} dropped")
            if not self.conn.greeted and kind != "hello":
                raise ProtocolError(ErrorCode.HELLO_FIRST, f"send 'hello' before {kind!r}")
            health = self.lobby.health
            if health is not None and not health.up and kind not in IN_MEMORY:
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"the store does not answer; {kind!r} not served, try again")
            if self.pools is not None and kind in SITTING:  # sitting in a room ends this connection's tickets
                await self.pools.seated(self.conn, kind, message)
            if self.lane is not None and kind in READING:
                await self.lane.turn()
            room_id = message.get("room") if kind in ROUTED or kind == "admin" else None
            if isinstance(room_id, str) and self.lobby.here(room_id) is None and await self.to_owner(room_id, frame):
                return
            await getattr(self, "on_" + kind)(message, re)
        except (RedisError, OSError) as exc:
            metrics.ERRORS.labels(ErrorCode.UNAVAILABLE.value).inc()
            log.warning("store error: %s", exc, extra={"conn": self.conn.id, "re": re})
            self.conn.send(error(ErrorCode.UNAVAILABLE, "the store does not answer; nothing was applied, try again", re))
        except ProtocolError as exc:
            metrics.ERRORS.labels(exc.code.value).inc()
            self.conn.send(error(exc.code, exc.message, exc.re if exc.re is not None else re))
        except Exception:
            log.exception("internal error", extra={"conn": self.conn.id, "re": re})
            metrics.ERRORS.labels(ErrorCode.INTERNAL.value).inc()
            self.conn.send(error(ErrorCode.INTERNAL, "internal server error; the request was not applied", re))

    async def to_owner(self, room_id: str, frame: bytes) -> bool:
        """Relay the request to the node that owns ``room_id``, if another node does (server/cluster/relay.py): it
        answers, through this connection. False: this node serves it."""
        relay = self.relay
        if self.relayed or relay is None:
            return False
        node = await relay.owner(self, room_id)
        if node is None:
            return False
        relay.forward(self, node, room_id, frame)
        return True

    @property
    def node(self) -> str:
        """This node's id, told to clients: of the node a connection reached (``welcome``), of the node that owns a
        room (a seat's or a spectator's reply, made by the owner even for a relayed request), so that a client behind
        a proxy may connect to the owner (``?node=ID``, deploy/haproxy.cfg) and need no relay."""
        return self.lobby.leases.node

    def proxied(self) -> bool:
        """Whether this connection came through a trusted proxy (its PROXY or X-Forwarded-For header was believed):
        only then may a client expect a connection naming a node to reach it."""
        conn = self.conn
        return isinstance(conn, Connection) and isinstance(conn.ws, Socket) and conn.ws.proxied

    def reply(self, re: int, kind: str, **fields: Any) -> None:
        self.conn.send(encode({"t": kind, "re": re, **fields}))

    async def on_hello(self, m: dict[str, Any], re: int) -> None:
        if m["v"] != PROTOCOL_VERSION:
            raise ProtocolError(ErrorCode.PROTOCOL_VERSION, f"server speaks protocol {PROTOCOL_VERSION}, not {m['v']}")
        who = await identify(self.lobby.names, m.get("name", ""), m.get("key"))
        self.conn.greeted = True
        self.conn.deltas = m.get("deltas") is True
        self.conn.name = who.name
        self.conn.player = who.player
        if who.player:
            self.scope = "player:" + who.player
        self.reply(re, "welcome", v=PROTOCOL_VERSION, server="cardroom", max_frame=MAX_FRAME, rate=RATE,
                   player=who.player, name=who.name, node=self.node, proxied=self.proxied())

    async def on_queue(self, m: dict[str, Any], re: int) -> None:
        if self.pools is None:
            raise ProtocolError(ErrorCode.UNAVAILABLE, "queue: this server has no matchmaking pools")
        self.reply(re, "queued", **await self.pools.queue(self.conn, m))

    async def on_unqueue(self, m: dict[str, Any], re: int) -> None:
        ended = self.pools is not None and await self.pools.unqueue(self.conn, m["game"])
        self.reply(re, "unqueued", game=m["game"], reason="cancelled" if ended else "not_queued")

    def _events(self, kind: str) -> Events:
        if self.events is None:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"{kind}: this server runs no events")
        return self.events

    async def _event_reply(self, re: int, kind: str, event: Event) -> None:
        events = self._events(kind)
        self.reply(re, "event", event=await events.state(event, self.conn.player), news="")

    async def on_create_event(self, m: dict[str, Any], re: int) -> None:
        await self._event_reply(re, "create_event", await self._events("create_event").create(self.conn, m))

    async def on_register(self, m: dict[str, Any], re: int) -> None:
        events = self._events("register")
        await self._event_reply(re, "register", await events.register(self.conn, m["event"], m.get("nonce", "")))
        await events.follow(self.conn, m["event"])  # a registered player is told of its tables as they come

    async def on_unregister(self, m: dict[str, Any], re: int) -> None:
        await self._event_reply(re, "unregister", await self._events("unregister").unregister(self.conn, m["event"]))

    async def on_drop(self, m: dict[str, Any], re: int) -> None:
        await self._event_reply(re, "drop", await self._events("drop").drop(self.conn, m["event"]))

    async def on_start_event(self, m: dict[str, Any], re: int) -> None:
        await self._event_reply(re, "start_event", await self._events("start_event").start(self.conn, m["event"]))

    async def on_follow_event(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "event", event=await self._events("follow_event").follow(self.conn, m["event"]), news="")

    async def on_list_events(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "events", events=await self._events("list_events").listing(m.get("game"), m.get("status"),
                                                                                   m.get("limit")))

    async def on_play_event(self, m: dict[str, Any], re: int) -> None:
        room = await self._events("play_event").play(self.conn, m["event"])
        self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment, ranked=room.table,
                   node=self.node)
        await self.sit(room.id, None, re)

    async def on_my_rooms(self, m: dict[str, Any], re: int) -> None:
        """Summaries of the rooms where this player (by key) holds a seat, with the seat; none for a guest."""
        rooms = []
        if self.conn.player is not None:
            try:
                held = await self.lobby.store.player_rooms(self.conn.player)
            except (RedisError, OSError) as exc:
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"your rooms could not be read, try again: {exc}") from None
            for room_id in held:
                elsewhere = self.lobby.elsewhere(room_id)
                if elsewhere is not None:  # another node serves it: as that node published it
                    owners = elsewhere.pop("owners")
                    if self.conn.player in owners:
                        rooms.append({**elsewhere, "seat": owners.index(self.conn.player)})
                    continue
                try:
                    room = await self.lobby.find(room_id)
                except ProtocolError:  # cancelled, expired, or gone from the store
                    continue
                if self.conn.player in room.owners:
                    rooms.append({**self.lobby.rooms.summary(room), "seat": room.owners.index(self.conn.player)})
        self.reply(re, "rooms", rooms=rooms)

    async def seated(self, m: dict[str, Any]) -> Room:
        """The room of a request made with a seat's token; this connection now watches as that seat."""
        room = await self.lobby.find(m["room"])
        seat = room.seat_of(m["token"])
        if room.watchers.get(self.conn, -1) != seat:
            room.watch(self.conn, seat)
        return room

    async def on_resign(self, m: dict[str, Any], re: int) -> None:
        await (await self.seated(m)).resign(self.conn, m["token"], re)

    async def on_abort(self, m: dict[str, Any], re: int) -> None:
        await (await self.seated(m)).abort(self.conn, m["token"], re)

    async def on_list_rooms(self, m: dict[str, Any], re: int) -> None:
        await self.lobby.listing_ready()
        rooms, after = self.lobby.listing(m.get("game"), m.get("status"), m.get("cursor"), m.get("limit"))
        self.reply(re, "rooms", rooms=rooms, next=after)

    async def on_create_room(self, m: dict[str, Any], re: int) -> None:
        request = retries.key("create", self.scope, m.get("request"))
        prior = await self.lobby.store.requested(request) if request else None
        if prior is not None:  # a retry: the room it made (and the seat taken in it)
            if await self.to_owner(prior, encode(m)):  # made through another node, which owns it: it answers
                return
            room = await self.lobby.find(prior)
            self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment,
                       ranked=room.table, node=self.node)
            if m.get("sit", True):
                await self.sit(room.id, None, re, again=True)
            return
        if m.get("ranked") and m.get("sit", True) and not self.conn.player:
            raise ProtocolError(ErrorCode.KEY_REQUIRED, "a rated room seats players with a key: say hello with 'key'")
        level = computer.check(m)
        if level is not None:
            if self.computer is None:
                raise ProtocolError(ErrorCode.UNAVAILABLE, "create_room: this server has no computer players")
            self.computer.reserve()
        spectator_chat = chat.setting(m.get("spectator_chat"))
        room_id = new_room_id()  # the quota's place is taken under it: nothing to settle once the room is made
        async with self.lobby.quota.claim(self.address, self.lobby.rooms, self.conn.player or "", room_id) as place:
            room = await self.lobby.create(m["game"], m.get("options", {}), m.get("seed"), m.get("daily", False),
                                           clock=m.get("clock"), spectator_chat=spectator_chat,
                                           rated=m.get("ranked", False),
                                           player=(self.conn.player or "") if m.get("sit", True) else "",
                                           request=request, replays=replays.setting(m.get("replays")),
                                           hosted=m.get("sit", True), address=self.address, room_id=room_id)
            place.room = room.id
        self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment, ranked=room.table,
                   node=self.node)
        if m.get("sit", True):
            await self.sit(room.id, None, re, again=bool(request), nonce=m.get("nonce", ""))
        if level is not None and self.computer is not None:
            for _ in room.seats[1:]:
                self.computer.join(room.id, room.game.name, level)

    async def on_join(self, m: dict[str, Any], re: int) -> None:
        request = retries.key("join", self.scope, m.get("request"))
        prior = await self.lobby.store.requested(request) if request else None
        if prior is not None:  # a retry: the seat it took
            room_id, _, seat = prior.partition(":")  # (``room:seat`` as stored before hash tags)
            if room_id != m["room"]:
                raise ProtocolError(ErrorCode.BAD_FIELD, f"join: request key {m['request']!r} was used to join room "
                                                         f"{room_id}, not {m['room']}; use a new key")
            took = prior if seat else await self.lobby.store.requested(request, room_id)
            if took is not None:
                await self.sit(room_id, int(took.rpartition(":")[2]), re, again=True, nonce=m.get("nonce", ""))
                return
        await self.sit(m["room"], m.get("seat"), re, request, nonce=m.get("nonce", ""))

    async def sit(self, room_id: str, seat: int | None, re: int, request: str = "", again: bool = False,
                  nonce: str = "") -> None:
        """Claim a seat with the player's ``nonce`` (``request``: remembered under that key); ``again``, a retried
        request: the seat this player (or connection) holds already, under a new token, else a new one."""
        room = await self.lobby.find(room_id)
        if room.over:  # nothing to sit in: the late comer watches the result
            await self.enter(room, None, re, "spectating", commitment=room.commitment)
            return
        if room.table == standings.RATED and not self.conn.player:
            raise ProtocolError(ErrorCode.KEY_REQUIRED, f"room {room.id} is rated: say hello with a 'key' to sit in it")
        held = retries.held_seat(room, self.conn, self.conn.player or "", seat) if again else None
        if held is not None:
            token = await retries.reissue(room, held)
            log.info("seat granted again", extra={"room": room.id, "seat": held, "conn": self.conn.id, "re": re})
            await self.enter(room, held, re, "seat_granted", seat=held, token=token)
            return
        seat, token = await room.claim(seat, self.conn.name, self.conn.player or "", nonce, request)
        log.info("seat granted", extra={"room": room.id, "seat": seat, "conn": self.conn.id, "re": re})
        await self.enter(room, seat, re, "seat_granted", seat=seat, token=token)

    async def enter(self, room: Room, watching: int | None, re: int, kind: str, **fields: Any) -> None:
        """Reply ``kind`` and watch the room: its view with ``re`` and its recent events, the result if
        it is over, its last chat lines; all sent at once, after what must be read first. A room whose last commit's
        fate was unknown reads it first: a resume after ``outcome_unknown`` or ``unavailable`` learns what stands."""
        if room.suspect:
            async with room.lock:
                await room.resync()
        await room.recover_history()
        lines = await chat.past(self.lobby.store, room, watching)
        if room.closed:  # cancelled or expired while the above was read
            raise ProtocolError(ErrorCode.ROOM_CLOSED, f"room {room.id} was {room.closed}")
        self.reply(re, kind, room=room.id, game=room.game.name, node=self.node, **fields)
        room.watch(self.conn, watching)
        room.send_entry(self.conn, watching, re)
        over = room.over_frame()
        if over is not None:
            self.conn.send(over)
        for line in lines:
            self.conn.send(line)

    async def on_resume(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        seat = room.seat_of(m["token"])
        await self.enter(room, seat, re, "seat_granted", seat=seat, token=m["token"])

    async def on_spectate(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        end = day_end(room.daily)
        if end is not None and time.time() < end.timestamp():
            raise ProtocolError(ErrorCode.DAY_NOT_OVER, f"room {room.id} deals the day's deal: it may be watched once "
                                                        f"the day has ended ({end.isoformat()})")
        if self.conn not in room.watchers:
            check_spectators(self.lobby.rooms.tally.spectating)
        await self.enter(room, None, re, "spectating", commitment=room.commitment)

    async def on_cancel(self, m: dict[str, Any], re: int) -> None:
        await expiry.cancel(self.lobby, await self.lobby.find(m["room"]), self.conn, m["token"], re)

    async def on_chat(self, m: dict[str, Any], re: int) -> None:
        await chat.post(self.lobby.store, await self.lobby.find(m["room"]), self.conn, m["text"], self.chat, re)

    async def on_rematch(self, m: dict[str, Any], re: int) -> None:
        try:
            await rematch.rematch(self.lobby, await self.lobby.find(m["room"]), self.conn, m["token"], re,
                                  m.get("nonce", ""))
        except rematch.Elsewhere as elsewhere:  # the node serving the new room seats this player there, and answers
            if not await self.to_owner(elsewhere.room, encode(m)):
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"room {elsewhere.room}, this rematch's, is served by "
                                                           "another server node; try again") from None

    async def on_scores(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "scores", **await self.lobby.scores(m["game"], m.get("daily", False), m.get("limit", 10)))

    async def on_view(self, m: dict[str, Any], re: int) -> None:
        """A whole view of a room this connection watches, as the seat it watches as (after a gap in deltas)."""
        room = await self.lobby.find(m["room"])
        if self.conn not in room.watchers:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"you are not in room {room.id}")
        room.send_view(self.conn, room.watchers[self.conn], [], re, whole=True)

    async def on_leave(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        if self.conn not in room.watchers:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"you are not in room {room.id}")
        room.unwatch(self.conn)
        self.reply(re, "left", room=room.id)

    async def on_admin(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "admin", op=m["op"], result=await admin.handle(self.lobby, m))

    async def on_ratings(self, m: dict[str, Any], re: int) -> None:
        game = m["game"]
        if registry.get(game) is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"unknown game {game!r}; games: {', '.join(registry.GAMES)}")
        self.reply(re, "ratings", game=game, entries=await standings.leaders(self.lobby.store, game, m.get("limit", 20)))

    async def on_history(self, m: dict[str, Any], re: int) -> None:
        player = m.get("player") or self.conn.player
        if not player:
            raise ProtocolError(ErrorCode.BAD_FIELD, "history: give 'player', or say hello with a key for your own")
        self.reply(re, "history", player=player,
                   entries=await standings.history(self.lobby.store, player, m.get("limit", 20)))

    async def on_export(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "match", record=await match_record(self.lobby, m["room"], self.conn.player, m.get("token")))

    async def on_replay(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "replay", **await replay_page(self.lobby, m["room"], self.conn.player, m.get("token"),
                                                      m.get("start"), m.get("limit")))

    async def on_decide(self, m: dict[str, Any], re: int) -> None:
        received = time.perf_counter()
        room = self.lobby.here(m["room"]) or await self.lobby.find(m["room"])
        if await room.decide(self.conn, m["token"], m["version"], m["decision"], re):
            self.refund()
            collector.settled()
        if self.conn not in room.watchers:
            room.watch(self.conn, room.seat_of(m["token"]))
        metrics.DECISION_SECONDS.observe(time.perf_counter() - received)
