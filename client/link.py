"""The link: the one owner of the :class:`~client.connection.Client`, run by the app's connection worker.

It connects, turns every message from ``client.inbox`` into a Textual message, and when
the connection drops it reconnects by itself with growing pauses, then takes back every
seat it held (their tokens are kept in memory only) and re-spectates what it watched.
Requests from the screens go through here too, so nothing else touches the websocket.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from textual.message import Message
from websockets.exceptions import WebSocketException

from client.connection import Client, ClientError, Seat
from client.messages import (
    Connected,
    Disconnected,
    Left,
    MatchOver,
    RoomsListed,
    SeatGranted,
    ServerError,
    Spectating,
    ViewArrived,
)

__all__ = ["RETRY_DELAYS", "Link", "address_of"]

RETRY_DELAYS: tuple[float, ...] = (0.25, 1.0, 2.0, 4.0, 8.0)
"""Pauses before each reconnection attempt; the last one repeats."""

CONNECT_ERRORS = (OSError, TimeoutError, WebSocketException, ClientError, ConnectionError)


def address_of(url: str) -> str:
    """``HOST:PORT`` of a ws:// or wss:// URL, for the header."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    return f"{parts.hostname or '?'}:{port}"


class Link:
    """Holds the connection, the seats' tokens and the rooms being watched; posts what the server says."""

    def __init__(self, url: str, name: str, post: Callable[[Message], object], *,
                 delays: Sequence[float] = RETRY_DELAYS) -> None:
        self.url = url
        self.name = name
        self.post = post
        self.delays = tuple(delays) or (1.0,)
        self.address = address_of(url)
        self.client: Client | None = None
        self.seats: dict[str, Seat] = {}
        """Every seat we hold, by room: the token is what lets us take it back."""
        self.watching: dict[str, bool] = {}
        """Rooms we have open, by room: True when seated, False when spectating."""

    async def run(self) -> None:
        """Connect, pump messages until the connection drops, reconnect; forever (until cancelled)."""
        failures = 0
        connected_before = False
        try:
            while True:
                try:
                    client = await Client.connect(self.url, name=self.name)
                except CONNECT_ERRORS as exc:
                    delay = self.delays[min(failures, len(self.delays) - 1)]
                    failures += 1
                    self.post(Disconnected(self.address, _reason(exc), delay))
                    await asyncio.sleep(delay)
                    continue
                failures = 0
                self.client = client
                self.post(Connected(self.address, connected_before))
                connected_before = True
                try:
                    await self._restore(client)
                    await self._pump(client)
                finally:
                    self.client = None
                    with contextlib.suppress(Exception):
                        await client.close()
                delay = self.delays[0]
                failures = 1
                self.post(Disconnected(self.address, "the connection was lost", delay))
                await asyncio.sleep(delay)
        finally:
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.close()

    async def _restore(self, client: Client) -> None:
        """After a reconnect: resume each held seat with its token and re-spectate watched rooms."""
        for room, seated in list(self.watching.items()):
            try:
                if seated and room in self.seats:
                    await client.resume(room, self.seats[room].token)
                else:
                    await client.spectate(room)
            except ClientError as exc:
                self.watching.pop(room, None)
                if exc.code in ("unknown_room", "bad_token"):
                    self.seats.pop(room, None)
                self.post(ServerError(exc.code, f"could not return to room {room}: {exc.message}"))

    async def _pump(self, client: Client) -> None:
        """Hand every inbox message on until the websocket closes."""
        closed = asyncio.ensure_future(client.ws.wait_closed())
        try:
            while True:
                getter = asyncio.ensure_future(client.inbox.get())
                done, _ = await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    self.handle(getter.result())
                    continue
                getter.cancel()
                while not client.inbox.empty():
                    self.handle(client.inbox.get_nowait())
                return
        finally:
            closed.cancel()

    def handle(self, message: dict[str, Any]) -> None:
        """Turn one server message into a Textual message (replies we do not show are dropped)."""
        kind = message.get("t")
        if kind == "view":
            self.post(ViewArrived(message["room"], int(message["version"]), message["view"],
                                  list(message.get("events") or [])))
        elif kind == "match_over":
            self.post(MatchOver(message["room"], dict(message.get("outcome") or {}), message.get("seed"),
                                str(message.get("commitment", ""))))
        elif kind == "seat_granted":
            seat = Seat(message["room"], int(message["seat"]), message["token"], message.get("game", ""))
            self.seats[seat.room] = seat
            self.watching[seat.room] = True
            self.post(SeatGranted(seat))
        elif kind == "spectating":
            self.watching[message["room"]] = False
            self.post(Spectating(message["room"], message.get("game", "")))
        elif kind == "rooms":
            self.post(RoomsListed(list(message.get("rooms") or []), message.get("next") is not None))
        elif kind == "left":
            self.post(Left(message["room"]))
        elif kind == "error":
            self.post(ServerError(str(message.get("code", "")), str(message.get("message", ""))))

    # -- requests from the screens; replies arrive through the inbox ---------------

    def require(self) -> Client:
        """The live client, or ConnectionError while the link is down."""
        if self.client is None:
            raise ConnectionError(f"not connected to {self.address}; reconnecting")
        return self.client

    async def list_rooms(self) -> None:
        """Ask for the lobby listing (it arrives as :class:`RoomsListed`)."""
        await self.require().list_rooms()

    async def create(self, game: str, seed: int | None = None, *, daily: bool = False) -> None:
        """Create a room and sit in it; ``seed`` fixes the deal (tests); ``daily`` deals today's seed instead.

        The ``seat_granted`` that follows arrives through the inbox like every pushed message.
        """
        if daily:
            await self.require().request("create_room", game=game, daily=True, sit=True)
        else:
            await self.require().create(game, seed=seed, sit=True)

    async def scores(self, game: str, *, daily: bool, limit: int = 10) -> dict[str, Any]:
        """One high-score table (the ``scores`` reply), all time or today's."""
        return await self.require().request("scores", game=game, daily=daily, limit=limit)

    async def join(self, room: str) -> None:
        """Sit in ``room``; if we already hold a seat there, take it back with its token instead."""
        held = self.seats.get(room)
        if held is not None:
            await self.require().resume(room, held.token)
        else:
            await self.require().join(room)

    async def spectate(self, room: str) -> None:
        """Watch ``room`` with no seat: views carry only public information."""
        await self.require().spectate(room)

    async def leave(self, room: str) -> None:
        """Stop watching ``room``; its seat token is kept so the seat can be resumed from the lobby."""
        self.watching.pop(room, None)
        await self.require().leave(room)

    async def decide(self, room: str, decision: dict[str, Any]) -> None:
        """Send a decision for our seat in ``room``, against the latest view's version."""
        seat = self.seats.get(room)
        if seat is None:
            raise ClientError("bad_token", f"you hold no seat in room {room}")
        await self.require().decide(seat, decision)


def _reason(exc: BaseException) -> str:
    """A short human reason for a failed connection attempt."""
    if isinstance(exc, ClientError):
        return exc.message
    text = str(exc) or type(exc).__name__
    return text if len(text) < 120 else text[:117] + "…"
