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
from client.identity import IdentityStore, StoredSeat
from client.messages import (
    AbortOffered,
    ChatArrived,
    ClockArrived,
    Connected,
    Disconnected,
    Left,
    MatchOver,
    NameRefused,
    Paired,
    PresenceChanged,
    Queued,
    RecentArrived,
    RematchOffered,
    RematchReady,
    RoomClosed,
    RoomsListed,
    SeatGranted,
    SeatMoved,
    ServerError,
    Spectating,
    Unqueued,
    ViewArrived,
    WatchersCounted,
    YourRooms,
)
from client.routing import routed

__all__ = ["RETRY_DELAYS", "Link", "address_of", "scrub"]

REVEALED = ("server_seed", "salt", "seeding", "nonces", "reveal_after")
"""What ``match_over`` reveals of the deal besides the seed and the commitment (docs/protocol.md, Seeds)."""
RETRY_DELAYS: tuple[float, ...] = (0.25, 1.0, 2.0, 4.0, 8.0)
"""Pauses before each reconnection attempt; the last one repeats."""

NAME_ERRORS = frozenset({"name_taken", "bad_name"})
"""Refusals of our name: the player must choose another one."""
BUSY_ERRORS = frozenset({"rate_limited", "server_full", "unavailable", "internal"})
"""Refusals of our hello that trying again later may cure: retried like a failed connection. Every other refusal
(``bad_field`` for a name over 40 characters, ``protocol_version``…) asks the player for a name again, with the
server's reason."""
GONE_ERRORS = frozenset({"unknown_room", "bad_token", "room_closed"})
"""Refusals that mean a stored seat token will never work again."""

CONNECT_ERRORS = (OSError, TimeoutError, WebSocketException, ClientError, ConnectionError)


def address_of(url: str) -> str:
    """``HOST:PORT`` of a ws:// or wss:// URL, for the header."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    return f"{parts.hostname or '?'}:{port}"


class Link:
    """Holds the connection, the seats' tokens and the rooms being watched; posts what the server says."""

    def __init__(self, url: str, name: str, post: Callable[[Message], object], *,
                 delays: Sequence[float] = RETRY_DELAYS, store: IdentityStore | None = None) -> None:
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
        self.store = store
        """Where the player key and the seat tokens outlive the client (None: a guest, memory only)."""
        self.commitments: dict[str, str] = {}
        """The seed commitment of each room, as first published (checked against the seed revealed at the end)."""
        self.player: str | None = None
        """Our public player id, as the server last greeted us."""
        self.renamed = asyncio.Event()
        self.route = ""
        """The node that owns the room we sat in (or watch) last, when the connection reached another: the next
        connection names it (``?node=ID``: a proxy that routes by node sends it there, see client/routing.py)."""
        self.routing = True
        """False once a connection made to reach a room's node reached another one: this address does not route by
        node, and the link stays where it lands (its rooms are relayed between nodes)."""
        self.rerouting = False
        """The connection is being closed to connect again to :attr:`route`: no lost connection to tell."""
        self.routed: set[tuple[str, str]] = set()
        """(room, node) pairs the link connected again for: once each, so that rooms on two nodes do not make it
        go back and forth."""
        self.closing: asyncio.Task[None] | None = None
        if store is not None:
            for kept in store.seats(self.address):
                self.seats[kept.room] = Seat(kept.room, kept.seat, kept.token, kept.game)

    async def run(self) -> None:
        """Connect, pump messages until the connection drops, reconnect; forever (until cancelled)."""
        failures = 0
        connected_before = False
        try:
            while True:
                key = self.store.key(self.address) if self.store is not None else None
                try:
                    client = await Client.connect(routed(self.url, self.route) if self.routing else self.url,
                                                  name=self.name, key=key)
                except ClientError as exc:
                    if exc.code in BUSY_ERRORS:
                        failures = await self._wait(failures, scrub(_reason(exc), key))
                        continue
                    self.renamed.clear()
                    self.post(NameRefused(exc.code, scrub(exc.message, key), self.name))
                    await self.renamed.wait()
                    continue
                except CONNECT_ERRORS as exc:
                    failures = await self._wait(failures, scrub(_reason(exc), key))
                    continue
                failures = 0
                if self.route and client.node != self.route:  # a node down meanwhile, or no routing by node at all
                    self.routing, self.route = not self.rerouting, ""
                self.client = client
                self.player = client.player
                if self.store is not None and client.name:
                    self.store.set_name(client.name)
                if not self.rerouting:
                    self.post(Connected(self.address, connected_before))
                connected_before = True
                self.rerouting = False
                try:
                    await self._restore(client)
                    await self._pump(client)
                finally:
                    self.client = None
                    with contextlib.suppress(Exception):
                        await client.close()
                if self.rerouting:
                    continue
                delay = self.delays[0]
                failures = 1
                self.post(Disconnected(self.address, "the connection was lost", delay))
                await asyncio.sleep(delay)
        finally:
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.close()

    async def _wait(self, failures: int, reason: str) -> int:
        """Say the connection failed (and why), pause before the next attempt; the failures so far, plus this one."""
        delay = self.delays[min(failures, len(self.delays) - 1)]
        self.post(Disconnected(self.address, reason, delay))
        await asyncio.sleep(delay)
        return failures + 1

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
                if exc.code in GONE_ERRORS:
                    self.seats.pop(room, None)
                    self.forget(room)
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
        if kind in TALK_KINDS:
            self.handle_talk(message)
            return
        if kind in ("room_created", "spectating") and message.get("commitment"):
            self.commitments.setdefault(str(message["room"]), str(message["commitment"]))
        if kind == "view" and isinstance(message.get("clock"), dict):
            presence = message.get("presence")
            self.post(ClockArrived(message["room"], message["clock"],
                                   [bool(p) for p in presence] if isinstance(presence, list) else None))
        if kind == "view" and message.get("recent"):
            self.post(RecentArrived(message["room"], list(message["recent"])))
        if (kind == "view" or kind == "watchers") and isinstance(message.get("spectators"), int):
            self.post(WatchersCounted(str(message["room"]), int(message["spectators"])))
        if kind == "view":
            blocked = message.get("blocked")
            self.post(ViewArrived(message["room"], int(message["version"]), message["view"],
                                  list(message.get("events") or []),
                                  [None if b is None else str(b) for b in blocked] if isinstance(blocked, list) else []))
        elif kind == "match_over":
            reveal: dict[str, Any] = {k: message[k] for k in REVEALED if k in message}
            self.post(MatchOver(message["room"], dict(message.get("outcome") or {}), message.get("seed"),
                                str(message.get("commitment", "")), reveal))
        elif kind == "seat_granted":
            seat = Seat(message["room"], int(message["seat"]), message["token"], message.get("game", ""))
            self.seats[seat.room] = seat
            self.watching[seat.room] = True
            self.keep(seat)
            self.post(SeatGranted(seat))
            self.reroute(seat.room, message.get("node"))
        elif kind == "spectating":
            self.watching[message["room"]] = False
            self.post(Spectating(message["room"], message.get("game", "")))
            self.reroute(str(message["room"]), message.get("node"))
        elif kind == "rooms":
            for summary in message.get("rooms") or ():
                if summary.get("commitment"):
                    self.commitments.setdefault(str(summary["room"]), str(summary["commitment"]))
            self.post(RoomsListed(list(message.get("rooms") or []), message.get("next") is not None))
        elif kind == "left":
            self.post(Left(message["room"]))
        elif kind == "queued":
            self.post(Queued(message))
        elif kind == "unqueued":
            self.post(Unqueued(str(message.get("game", "")), str(message.get("reason", ""))))
        elif kind == "paired":
            seat = Seat(str(message["room"]), int(message["seat"]), str(message["token"]), str(message.get("game", "")))
            self.seats[seat.room] = seat  # a seat of ours: join() takes it with its token
            self.keep(seat)
            computer = message.get("computer")
            self.post(Paired(seat, str(message.get("opponent", "")), computer if isinstance(computer, str) else None))
        elif kind == "error":
            self.post(ServerError(str(message.get("code", "")), str(message.get("message", ""))))

    def handle_talk(self, message: dict[str, Any]) -> None:
        """The pushes of table talk and of a match's end: chat, presence, a closed room, rematches."""
        kind, room = message.get("t"), str(message.get("room", ""))
        if kind == "chat":
            seat = message.get("seat")
            self.post(ChatArrived(room, str(message.get("name") or ""), seat if isinstance(seat, int) else None,
                                  str(message.get("text", "")), float(message.get("ts") or 0)))
        elif kind == "presence":
            self.post(PresenceChanged(room, int(message.get("seat", 0)), bool(message.get("connected"))))
        elif kind == "room_closed":
            self.watching.pop(room, None)
            if self.seats.pop(room, None) is not None:
                self.forget(room)
            self.post(RoomClosed(room, str(message.get("reason", ""))))
        elif kind == "abort_offered":
            self.post(AbortOffered(room, int(message.get("seat", 0))))
        elif kind == "seat_moved":
            self.watching.pop(room, None)  # not ours to take back on a reconnect: the other terminal plays it
            self.post(SeatMoved(room, int(message.get("seat", 0)), str(message.get("message", ""))))
        elif kind == "rematch_offered":
            self.post(RematchOffered(room, int(message.get("seat", 0))))
        elif kind == "rematch_ready":
            old = self.seats.get(room)
            game = str(message.get("game") or (old.game if old else ""))
            seat = Seat(str(message["new_room"]), int(message["seat"]), str(message["token"]), game)
            self.seats[seat.room] = seat
            self.watching[seat.room] = True
            self.keep(seat)
            self.post(RematchReady(room, seat))

    def reroute(self, room: str, node: object) -> None:
        """The room just taken is on ``node``: if the connection reached another node through a proxy, close it and
        connect again naming ``node`` (the seats are resumed and the rooms watched again there, as after a lost connection)."""
        client = self.client
        if (not self.routing or self.rerouting or not isinstance(node, str) or not node or client is None
                or not client.node or not client.proxied or client.node == node or (room, node) in self.routed):
            return
        self.routed.add((room, node))
        self.route, self.rerouting = node, True
        self.closing = asyncio.get_running_loop().create_task(client.ws.close())

    # -- the seats kept on disk ----------------------------------------------------

    def keep(self, seat: Seat) -> None:
        """Store a granted seat's token, so a restarted client can take the seat back."""
        if self.store is not None:
            self.store.add_seat(self.address, StoredSeat(seat.room, seat.seat, seat.game, seat.token))

    def forget(self, room: str) -> None:
        """Drop ``room``'s stored token (its match is over and was seen); the copy in memory stays for a rematch."""
        if self.store is not None:
            self.store.drop_seat(self.address, room)

    def rename(self, name: str) -> None:
        """Try the hello again under ``name`` (after :class:`NameRefused`)."""
        self.name = name
        self.renamed.set()

    # -- requests from the screens; replies arrive through the inbox ---------------

    def require(self) -> Client:
        """The live client, or ConnectionError while the link is down."""
        if self.client is None:
            raise ConnectionError(f"not connected to {self.address}; reconnecting")
        return self.client

    async def list_rooms(self) -> None:
        """Ask for the lobby listing (it arrives as :class:`RoomsListed`)."""
        await self.require().list_rooms()

    async def create(self, game: str, seed: int | None = None, *, daily: bool = False, computer: str | None = None,
                     ranked: bool = False) -> str:
        """Create a room and sit in it (returns its id); ``seed`` fixes the deal (tests); ``daily`` deals today's
        seed instead; ``computer`` (a level): the server's computer player takes the other seat; ``ranked``: a
        rated room (its players' ratings move when it ends).

        The ``seat_granted`` that follows arrives through the inbox like every pushed message.
        """
        if daily:
            made = await self.require().request("create_room", game=game, daily=True, sit=True)
            return str(made["room"])
        seat = await self.require().create(game, seed=seed, sit=True, computer=computer, ranked=ranked)
        return seat if isinstance(seat, str) else seat.room

    async def queue(self, game: str, *, rated: bool = False, computer_after: int | None = None) -> None:
        """Ask to be paired for ``game`` now (``queued`` arrives as :class:`Queued`, then ``paired`` as :class:`Paired`)."""
        await self.require().queue(game, rated=rated, computer_after=computer_after)

    async def unqueue(self, game: str) -> None:
        """Take our ticket for ``game`` out of its pool (``unqueued`` arrives as :class:`Unqueued`)."""
        await self.require().unqueue(game)

    async def scores(self, game: str, *, daily: bool, limit: int = 10) -> dict[str, Any]:
        """One high-score table (the ``scores`` reply), all time or today's."""
        return await self.require().request("scores", game=game, daily=daily, limit=limit)

    async def join(self, room: str) -> None:
        """Sit in ``room``; if we already hold a seat there, take it back with its token instead."""
        held = self.seats.get(room)
        if held is not None:
            try:
                await self.require().resume(room, held.token)
            except ClientError as exc:
                if exc.code in GONE_ERRORS:
                    self.seats.pop(room, None)
                    self.forget(room)
                raise
        else:
            await self.require().join(room)

    async def spectate(self, room: str) -> None:
        """Watch ``room`` with no seat: views carry only public information."""
        await self.require().spectate(room)

    async def leave(self, room: str) -> None:
        """Stop watching ``room``; its seat token is kept so the seat can be resumed from the lobby."""
        self.watching.pop(room, None)
        await self.require().leave(room)

    def seat_in(self, room: str) -> Seat:
        """The seat we hold in ``room``, or the ``bad_token`` refusal the server would give."""
        seat = self.seats.get(room)
        if seat is None:
            raise ClientError("bad_token", f"you hold no seat in room {room}")
        return seat

    async def resign(self, room: str) -> None:
        """Give up the match in ``room``: the opponent wins."""
        await self.require().resign(self.seat_in(room))

    async def abort(self, room: str) -> None:
        """Offer (or accept) aborting the match in ``room``."""
        await self.require().abort(self.seat_in(room))

    async def cancel(self, room: str) -> None:
        """Delete our waiting room (``room_closed`` follows)."""
        await self.require().cancel(self.seat_in(room))

    async def chat(self, room: str, text: str) -> None:
        """Say ``text`` at the table of ``room`` (it comes back as a ``chat`` push, like everyone's)."""
        await self.require().chat(room, text)

    async def rematch(self, room: str) -> None:
        """Offer (or accept) a rematch of the ended match in ``room``."""
        await self.require().rematch(self.seat_in(room))

    async def your_rooms(self) -> None:
        """Post :class:`YourRooms`: the seats held here, each with the server's summary from ``my_rooms``.

        A server that does not answer ``my_rooms`` leaves every summary None; nothing is dropped
        for that: a token is forgotten only when the server refuses it.
        """
        summaries: dict[str, dict[str, Any]] | None = None
        if self.player is not None:
            try:
                summaries = {str(r["room"]): r for r in await self.require().my_rooms()}
            except ClientError:
                summaries = None
        held = sorted(self.seats.values(), key=lambda s: s.room)
        self.post(YourRooms([(seat, (summaries or {}).get(seat.room)) for seat in held], summaries is not None))

    async def decide(self, room: str, decision: dict[str, Any]) -> None:
        """Send a decision for our seat in ``room``, against the latest view's version."""
        seat = self.seats.get(room)
        if seat is None:
            raise ClientError("bad_token", f"you hold no seat in room {room}")
        await self.require().decide(seat, decision)


TALK_KINDS = frozenset({"chat", "presence", "room_closed", "rematch_offered", "rematch_ready", "abort_offered",
                        "seat_moved"})


def scrub(text: str, key: str | None) -> str:
    """``text`` with the secret player key (and any long piece of it) blanked out: nothing shown ever holds it."""
    if not key:
        return text
    text = text.replace(key, "[key hidden]")
    piece = 12
    for start in range(0, max(1, len(key) - piece + 1)):
        fragment = key[start:start + piece]
        if len(fragment) == piece and fragment in text:
            text = text.replace(fragment, "[key hidden]")
    return text


def _reason(exc: BaseException) -> str:
    """A short human reason for a failed connection attempt."""
    if isinstance(exc, ClientError):
        return exc.message
    text = str(exc) or type(exc).__name__
    return text if len(text) < 120 else text[:117] + "…"
