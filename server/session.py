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
from server import admission, metrics
from server.connection import Connection
from server.lobby import Lobby
from server.quota import check_spectators
from server.records import match_record

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
        self.conn.greeted = True
        self.conn.name = m.get("name", "")
        self.reply(re, "welcome", v=PROTOCOL_VERSION, server="cardroom", max_frame=MAX_FRAME, rate=RATE)

    async def on_list_rooms(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "rooms", rooms=self.lobby.listing(m.get("game")))

    async def on_create_room(self, m: dict[str, Any], re: int) -> None:
        self.lobby.quota.check(self.address, self.lobby.rooms)
        room = await self.lobby.create(m["game"], m.get("options", {}), m.get("seed"), m.get("daily", False))
        self.lobby.quota.record(self.address, room.id)
        self.reply(re, "room_created", room=room.id, game=room.game.name, commitment=room.commitment)
        if m.get("sit", True):
            await self.sit(room.id, None, re)

    async def on_join(self, m: dict[str, Any], re: int) -> None:
        await self.sit(m["room"], m.get("seat"), re)

    async def sit(self, room_id: str, seat: int | None, re: int) -> None:
        room = self.lobby.get(room_id)
        seat, token = await room.claim(seat, self.conn.name)
        self.reply(re, "seat_granted", room=room.id, game=room.game.name, seat=seat, token=token)
        log.info("seat granted", extra={"room": room.id, "seat": seat, "conn": self.conn.id, "re": re})
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
        if self.conn not in room.watchers:
            check_spectators(self.lobby.rooms)
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

    async def on_export(self, m: dict[str, Any], re: int) -> None:
        self.reply(re, "match", record=await match_record(self.lobby.get(m["room"])))

    async def on_decide(self, m: dict[str, Any], re: int) -> None:
        received = time.perf_counter()
        room = self.lobby.get(m["room"])
        await room.decide(self.conn, m["token"], m["version"], m["decision"], re)
        if self.conn not in room.watchers:
            room.watch(self.conn, room.seat_of(m["token"]))
        metrics.DECISION_SECONDS.observe(time.perf_counter() - received)
