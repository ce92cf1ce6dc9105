"""One client's session: greet, rate-limit, decode, dispatch, and answer every failure with an error."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, decode, encode, error
from protocol.messages import MAX_FRAME
from server import admission, chat, expiry, metrics, rematch
from server.connection import Connection
from server.history import over_frame
from server.identity import identify
from server.lobby import Lobby
from server.quota import check_spectators
from server.records import match_record
from server.room import Room

__all__ = ["Session"]

log = logging.getLogger(__name__)
IN_MEMORY = frozenset({"hello", "list_rooms", "spectate", "leave"})
"""Requests served from memory alone: they need no store, so an outage does not refuse them."""
RATE = 40.0
BURST = 80.0


class Session:
    """Serves one websocket until it closes."""

    def __init__(self, ws: ServerConnection, lobby: Lobby) -> None:
        self.lobby = lobby
        self.conn = Connection(ws, on_drop=self.leave_all)
        self.address = admission.address(ws)
        self.tokens = BURST
        self.stamp = time.monotonic()
        self.chat = chat.Limiter()

    def allow(self) -> bool:
        """A token bucket: RATE messages a second on average, BURST at once."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def _hello_deadline(self) -> None:
        if not self.conn.greeted:
            self.conn.drop(f"no 'hello' within {admission.HELLO_SECONDS:g} s")

    async def run(self) -> None:
        ws = self.conn.ws
        deadline = asyncio.get_running_loop().call_later(admission.HELLO_SECONDS, self._hello_deadline)
        try:
            async for frame in ws:
                await self.handle(frame)
        except ConnectionClosed:
            pass
        finally:
            deadline.cancel()
            self.leave_all(self.conn)
            await self.conn.close()

    def leave_all(self, conn: Connection) -> None:
        """Stop every room from sending to this connection (it closed, or it was dropped)."""
        for room_id in list(conn.rooms):
            room = self.lobby.rooms.get(room_id)
            if room is not None:
                room.unwatch(conn)

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

    def reply(self, re: int, kind: str, **fields: Any) -> None:
        self.conn.send(encode({"t": kind, "re": re, **fields}))

    async def on_hello(self, m: dict[str, Any], re: int) -> None:
        if m["v"] != PROTOCOL_VERSION:
            raise ProtocolError(ErrorCode.PROTOCOL_VERSION, f"server speaks protocol {PROTOCOL_VERSION}, not {m['v']}")
        who = await identify(self.lobby.names, m.get("name", ""), m.get("key"))
        self.conn.greeted = True
        self.conn.name = who.name
        self.conn.player = who.player
        self.reply(re, "welcome", v=PROTOCOL_VERSION, server="cardroom", max_frame=MAX_FRAME, rate=RATE,
                   player=who.player, name=who.name)

    async def on_my_rooms(self, m: dict[str, Any], re: int) -> None:
        """Summaries of the rooms where this player (by key) holds a seat, with the seat; none for a guest."""
        rooms = []
        if self.conn.player is not None:
            try:
                held = await self.lobby.store.player_rooms(self.conn.player)
            except (RedisError, OSError) as exc:
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"your rooms could not be read, try again: {exc}") from None
            for room_id in held:
                try:
                    room = await self.lobby.find(room_id)
                except ProtocolError:  # cancelled, expired, or gone from the store
                    continue
                if self.conn.player in room.owners:
                    rooms.append({**room.summary(), "seat": room.owners.index(self.conn.player)})
        self.reply(re, "rooms", rooms=rooms)

    async def on_resign(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        seat = room.seat_of(m["token"])
        if room.watchers.get(self.conn, -1) != seat:
            room.watch(self.conn, seat)
        await room.resign(self.conn, m["token"], re)

    async def on_abort(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        seat = room.seat_of(m["token"])
        if room.watchers.get(self.conn, -1) != seat:
            room.watch(self.conn, seat)
        await room.abort(self.conn, m["token"], re)

    async def on_list_rooms(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "rooms", rooms=self.lobby.listing(m.get("game")))

    async def on_create_room(self, m: dict[str, Any], re: int) -> None:
        self.lobby.quota.check(self.address, self.lobby.rooms)
        spectator_chat = chat.setting(m.get("spectator_chat"))
        room = await self.lobby.create(m["game"], m.get("options", {}), m.get("seed"), m.get("daily", False),
                                       clock=m.get("clock"), spectator_chat=spectator_chat)
        self.lobby.quota.record(self.address, room.id)
        self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment)
        if m.get("sit", True):
            await self.sit(room.id, None, re)

    async def on_join(self, m: dict[str, Any], re: int) -> None:
        await self.sit(m["room"], m.get("seat"), re)

    async def sit(self, room_id: str, seat: int | None, re: int) -> None:
        room = await self.lobby.find(room_id)
        if room.over:  # nothing to sit in: the late comer watches the result
            await self.enter(room, None, re, "spectating", commitment=room.commitment)
            return
        seat, token = await room.claim(seat, self.conn.name, self.conn.player or "")
        log.info("seat granted", extra={"room": room.id, "seat": seat, "conn": self.conn.id, "re": re})
        await self.enter(room, seat, re, "seat_granted", seat=seat, token=token)

    async def enter(self, room: Room, watching: int | None, re: int, kind: str, **fields: Any) -> None:
        """Reply ``kind`` and watch the room: its view with ``re`` and its recent events, the result if
        it is over, its last chat lines; all sent at once, after what must be read first."""
        await room.history.rebuild(room)
        lines = await chat.past(self.lobby.store, room, watching)
        if room.closed:  # cancelled or expired while the above was read
            raise ProtocolError(ErrorCode.ROOM_CLOSED, f"room {room.id} was {room.closed}")
        self.reply(re, kind, room=room.id, game=room.game.name, **fields)
        room.watch(self.conn, watching)
        self.conn.send(room.view_frame(watching, [], re, room.history.recent(watching)))
        over = over_frame(room)
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
        if self.conn not in room.watchers:
            check_spectators(self.lobby.rooms)
        await self.enter(room, None, re, "spectating", commitment=room.commitment)

    async def on_cancel(self, m: dict[str, Any], re: int) -> None:
        await expiry.cancel(self.lobby, await self.lobby.find(m["room"]), self.conn, m["token"], re)

    async def on_chat(self, m: dict[str, Any], re: int) -> None:
        await chat.post(self.lobby.store, await self.lobby.find(m["room"]), self.conn, m["text"], self.chat, re)

    async def on_rematch(self, m: dict[str, Any], re: int) -> None:
        await rematch.rematch(self.lobby, await self.lobby.find(m["room"]), self.conn, m["token"], re)

    async def on_scores(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "scores", **await self.lobby.scores(m["game"], m.get("daily", False), m.get("limit", 10)))

    async def on_leave(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.find(m["room"])
        if self.conn not in room.watchers:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"you are not in room {room.id}")
        room.unwatch(self.conn)
        self.reply(re, "left", room=room.id)

    async def on_export(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "match", record=await match_record(self.lobby, m["room"]))

    async def on_decide(self, m: dict[str, Any], re: int) -> None:
        received = time.perf_counter()
        room = await self.lobby.find(m["room"])
        await room.decide(self.conn, m["token"], m["version"], m["decision"], re)
        if self.conn not in room.watchers:
            room.watch(self.conn, room.seat_of(m["token"]))
        metrics.DECISION_SECONDS.observe(time.perf_counter() - received)
