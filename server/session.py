"""One client's session: greet, rate-limit, decode, dispatch, and answer every failure with an error."""
from __future__ import annotations

import logging
import time
from typing import Any

from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, decode, encode, error
from protocol.messages import MAX_FRAME
from server.connection import Connection
from server.identity import identify
from server.lobby import Lobby

__all__ = ["Session"]

log = logging.getLogger(__name__)
RATE = 40.0
BURST = 80.0


class Session:
    """Serves one websocket until it closes."""

    def __init__(self, ws: ServerConnection, lobby: Lobby) -> None:
        self.conn = Connection(ws)
        self.lobby = lobby
        self.tokens = BURST
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """A token bucket: RATE messages a second on average, BURST at once."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def run(self) -> None:
        ws = self.conn.ws
        try:
            async for frame in ws:
                await self.handle(frame)
        except ConnectionClosed:
            pass
        finally:
            for room_id in list(self.conn.rooms):
                room = self.lobby.rooms.get(room_id)
                if room is not None:
                    room.unwatch(self.conn)
            await self.conn.close()

    async def handle(self, frame: str | bytes) -> None:
        re: int | None = None
        allowed = self.allow()
        try:
            if isinstance(frame, str):
                raise ProtocolError(ErrorCode.BAD_FRAME, "text frames are not accepted; send msgpack in binary frames")
            message = decode(frame)
            re = message["id"]
            kind = message["t"]
            if not allowed:
                raise ProtocolError(ErrorCode.RATE_LIMITED, f"more than {RATE:.0f} messages a second; {kind!r} dropped")
            if not self.conn.greeted and kind != "hello":
                raise ProtocolError(ErrorCode.HELLO_FIRST, f"send 'hello' before {kind!r}")
            await getattr(self, "on_" + kind)(message, re)
        except ProtocolError as exc:
            self.conn.send(error(exc.code, exc.message, exc.re if exc.re is not None else re))
        except Exception:
            log.exception("internal error serving connection %s", self.conn.id)
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
                room = self.lobby.rooms.get(room_id)
                if room is not None and self.conn.player in room.owners:
                    rooms.append({**room.summary(), "seat": room.owners.index(self.conn.player)})
        self.reply(re, "rooms", rooms=rooms)

    async def on_resign(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        seat = room.seat_of(m["token"])
        if room.watchers.get(self.conn, -1) != seat:
            room.watch(self.conn, seat)
        await room.resign(self.conn, m["token"], re)

    async def on_abort(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        seat = room.seat_of(m["token"])
        if room.watchers.get(self.conn, -1) != seat:
            room.watch(self.conn, seat)
        await room.abort(self.conn, m["token"], re)

    async def on_list_rooms(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "rooms", rooms=self.lobby.listing(m.get("game")))

    async def on_create_room(self, m: dict[str, Any], re: int) -> None:
        room = await self.lobby.create(m["game"], m.get("options", {}), m.get("seed"), m.get("daily", False),
                                       clock=m.get("clock"))
        self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment)
        if m.get("sit", True):
            await self.sit(room.id, None, re)

    async def on_join(self, m: dict[str, Any], re: int) -> None:
        await self.sit(m["room"], m.get("seat"), re)

    async def sit(self, room_id: str, seat: int | None, re: int) -> None:
        room = self.lobby.get(room_id)
        seat, token = await room.claim(seat, self.conn.name, self.conn.player or "")
        self.reply(re, "seat_granted", room=room.id, game=room.game.name, seat=seat, token=token)
        room.watch(self.conn, seat)
        self.conn.send(room.view_frame(seat, []))

    async def on_resume(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        seat = room.seat_of(m["token"])
        self.reply(re, "seat_granted", room=room.id, game=room.game.name, seat=seat, token=m["token"])
        room.watch(self.conn, seat)
        self.conn.send(room.view_frame(seat, []))

    async def on_spectate(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        self.reply(re, "spectating", room=room.id, game=room.game.name, commitment=room.commitment)
        room.watch(self.conn, None)
        self.conn.send(room.view_frame(None, []))

    async def on_scores(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "scores", **await self.lobby.scores(m["game"], m.get("daily", False), m.get("limit", 10)))

    async def on_leave(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        if self.conn not in room.watchers:
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"you are not in room {room.id}")
        room.unwatch(self.conn)
        self.reply(re, "left", room=room.id)

    async def on_decide(self, m: dict[str, Any], re: int) -> None:
        room = self.lobby.get(m["room"])
        await room.decide(self.conn, m["token"], m["version"], m["decision"], re)
        if self.conn not in room.watchers:
            room.watch(self.conn, room.seat_of(m["token"]))
