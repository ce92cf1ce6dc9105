"""An async client: one task owns the websocket; requests await their replies by id.

Pushed messages (views, match_over) are kept per room and queued on ``inbox`` in the
order they arrived, so a caller can await "the next view of room R" or read everything.
A client asks for view deltas by default (docs/protocol.md, "View deltas"): each delta is applied here, so every
``view`` message handed on holds the whole view under ``view``, as in whole-view mode.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import PROTOCOL_VERSION, decode_any, decode_frame, encode
from protocol.delta import DeltaError, apply
from protocol.framing import at_frame_start, header

LIMITED_BACKOFF = (0.25, 0.5, 1.0, 2.0, 2.0)
"""Pauses (seconds, each jittered by 0.5x to 1.5x) before sending again a message the server's rate limit dropped."""

__all__ = ["Client", "ClientError", "ConnectionLost", "Seat", "new_nonce"]


_CONTROL = frozenset({0x88, 0x89, 0x8A})
"""A whole close's, ping's and pong's first byte: frames websockets reads (it answers them), carrying no message."""


class Socket(ClientConnection):
    """websockets' client connection, reading the server's plain frames itself once nothing else is to be read
    before them: each whole, unfragmented binary frame (every message the server sends) goes to ``on_message`` as it
    arrives, with no parser generator, message queue or reader task between; a ping, a pong or a close goes to
    websockets' parser whole, which answers it; any other frame, and all that follows it, to that parser and its
    queue as before. Messages so keep their order: the frames read here start only once the reader waits on an
    empty queue (``reading``), and none are read here after one goes to the queue."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_message: Callable[[bytes], None] | None = None
        self.reading = False
        """The reader waits on websockets' queue, having handled every message it took."""
        self.framing: bytearray | None = None
        """Bytes of frames not yet whole, while frames are read here."""
        self.handed_over = False
        """A frame went to websockets' queue: from there on it reads them all."""

    def data_received(self, data: bytes) -> None:
        if self.framing is None:
            protocol = self.protocol
            if (self.on_message is None or not self.reading or self.handed_over or protocol.state is not State.OPEN
                    or protocol.extensions or len(self.recv_messages.frames) or not at_frame_start(protocol)):
                super().data_received(data)
                return
            self.framing = bytearray()
        self._read_frames(data)

    def _read_frames(self, data: bytes) -> None:
        buf = self.framing
        assert buf is not None and self.on_message is not None
        buf += data
        limit = self.protocol.max_message_size
        size, at = len(buf), 0
        while size - at >= 2:
            found = header(buf, at, size)
            if found is None:
                break
            head, (start, length) = buf[at], found
            end = start + length
            plain = head == 0x82 and not buf[at + 1] & 0x80 and (limit is None or length <= limit)
            if not (plain or head in _CONTROL) or self.protocol.state is not State.OPEN:
                self._hand_over(at)
                return
            if end > size:
                break
            if plain:
                self.on_message(bytes(buf[start:end]))
                if self.framing is not buf:  # abandoned: the connection ends, nothing more is read
                    return
            else:
                super().data_received(bytes(buf[at:end]))
            at = end
        del buf[:at]

    def _hand_over(self, at: int) -> None:
        """From byte ``at`` of what is held on, websockets' parser reads everything."""
        assert self.framing is not None
        rest = bytes(self.framing[at:])
        self.abandon()
        super().data_received(rest)

    def abandon(self) -> None:
        """Read nothing more here: websockets reads what follows (or a message could not be handled, and the
        connection is closed)."""
        self.framing = None
        self.handed_over = True


def new_nonce() -> str:
    """A seat's contribution to the deal: 128 random bits, so that the server alone does not pick it."""
    return secrets.token_hex(16)


class ClientError(Exception):
    """An ``error`` reply from the server, with its stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConnectionLost(ConnectionError):
    """The connection closed before the reply to a request came: every request still waiting fails with it."""


@dataclass
class Seat:
    """A seat this client holds: room, seat number and the secret token that resumes it."""

    room: str
    seat: int
    token: str
    game: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    node: str = ""
    """The server node that owns the room, as the reply that granted the seat named it ("" if it did not)."""


def _seat(reply: dict[str, Any]) -> Seat:
    """The seat a ``seat_granted`` reply gives."""
    return Seat(reply["room"], reply["seat"], reply["token"], reply["game"], node=str(reply.get("node") or ""))


class Client:
    """A connection to a cardroom server."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.views: dict[str, dict[str, Any]] = {}
        self.versions: dict[str, int] = {}
        self.over: dict[str, dict[str, Any]] = {}
        self.granted: dict[int, Seat] = {}
        self.tables: dict[str, str] = {}
        """The high-score table each room we made enters, by room (``room_created``'s ``ranked``: ``all``,
        ``daily:…``, "" for none): known before a lobby listing names the room, as a deal lost at once ends."""
        self.refused: dict[int, ClientError] = {}
        """Errors under a request id whose reply came already (a room made, then its seat refused)."""
        self.frames: list[bytes] = []
        self.record_frames = False
        self.player: str | None = None
        """The public player id the server greeted us with (None for a guest)."""
        self.name = ""
        """Our name as the server normalised it."""
        self.node = ""
        """The server node this connection reached, as ``welcome`` named it ("" from a server that does not)."""
        self.proxied = False
        """``welcome`` said the connection came through a proxy the server trusts: one that may route by node."""
        self.url = ""
        self.key: str | None = None
        """Where and with which player key :meth:`connect` connected: what a connection to another node repeats."""
        self.deltas = True
        """Whether this connection asked for view deltas (a move to another node asks the same)."""
        self.chats: dict[str, list[dict[str, Any]]] = {}
        self.presence: dict[str, dict[int, bool]] = {}
        self.closed: dict[str, str] = {}
        self.rematch_offers: dict[str, set[int]] = {}
        """Seats that asked for a rematch, by room."""
        self.rematches: dict[str, Seat] = {}
        """``rematch_ready`` by old room: the seat and token in the new room."""
        self.paired: dict[str, dict[str, Any]] = {}
        """``paired`` pushes by game: the matchmaking pool seated us (resume the seat with its token)."""
        self.tickets_ended: dict[str, str] = {}
        """By game, why our ticket ended other than by pairing (an ``unqueued`` push: ``seated``, ``paired``, ``replaced``)."""
        self.events: dict[str, dict[str, Any]] = {}
        """The latest state of each event we follow, by event id (``event`` replies and pushes)."""
        self.unqueued: set[int] = set()
        """Request ids whose replies are not put on ``inbox`` (the caller takes them from the request)."""
        self.held_back: dict[str, list[dict[str, Any]]] = {}
        """By room, the view deltas that came while this client asked for a whole view (their base is not the
        version it holds): handed on once that view comes."""
        self.asking: set[asyncio.Task[None]] = set()
        """The requests for a whole view under way (kept so that they are not lost before they end)."""
        self.broken: Exception | None = None
        """What ended the connection when a message from the server could not be read."""
        self._waiting: list[asyncio.Future[None]] = []
        """Those waiting for a message to arrive (:meth:`wait_for`), woken by each one."""
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, url: str, *, name: str = "", key: str | None = None, record_frames: bool = False,
                      deltas: bool = True) -> Client:
        """Open a websocket, say hello (with the secret player ``key``, if any; asking for view deltas unless
        ``deltas`` is false), and return the greeted client."""
        ws = await connect(url, max_size=2**24, compression=None, open_timeout=10, create_connection=Socket)
        client = cls(ws)
        client.record_frames = record_frames
        try:
            extra: dict[str, Any] = {"key": key} if key else {}
            if deltas:
                extra["deltas"] = True
            welcome = await client.request("hello", v=PROTOCOL_VERSION, name=name, **extra)
        except BaseException:
            await client.close()
            raise
        player = welcome.get("player")
        client.player = player if isinstance(player, str) else None
        client.name = str(welcome.get("name") or name)
        client.node = str(welcome.get("node") or "")
        client.proxied = welcome.get("proxied") is True
        client.url, client.key, client.deltas = url, key, deltas
        return client

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self) -> None:
        ws = self.ws
        socket = ws if isinstance(ws, Socket) else None
        if socket is not None:
            socket.on_message = self._take
        try:
            while True:
                if socket is not None:
                    socket.reading = True
                frame = await ws.recv()
                if socket is not None:
                    socket.reading = False
                if isinstance(frame, bytes):
                    self._take(frame)
                    if self.broken is not None:
                        break
        except ConnectionClosed:
            pass
        finally:
            pending, self._pending = list(self._pending.values()), {}
            for future in pending:
                if not future.done():
                    future.set_exception(ConnectionLost("connection closed"))
                    future.exception()  # mark it retrieved: the caller may already have given up waiting
            self._wake()

    def _received(self, frame: bytes) -> None:
        """Keep what a message from the server says, and hand it on."""
        if self.record_frames:
            self.frames.append(frame)
        message = decode_frame(frame)
        if message.get("t") == "view":
            for each in self._viewed(message):
                self._deliver(each)
        else:
            self._deliver(message)

    def _take(self, frame: bytes) -> None:
        """:meth:`_received`, whether the socket read the frame itself or the reader took it from websockets' queue.
        One that cannot be read (not msgpack, say) ends the connection: the reader then ends, failing what waits with
        :class:`ConnectionLost`, and the error is kept as ``broken``."""
        try:
            self._received(frame)
        except Exception as exc:
            self.broken = exc
            if isinstance(self.ws, Socket):
                self.ws.abandon()
            self.ws.transport.abort()

    def _wake(self) -> None:
        """Wake whoever waits for a message (each looks again at what it waits for)."""
        waiting, self._waiting = self._waiting, []
        for future in waiting:
            if not future.done():
                future.set_result(None)

    def _deliver(self, message: dict[str, Any]) -> None:
        """Keep what a message says, answer the request it replies to, and queue it on ``inbox``."""
        kind = message.get("t")
        if kind == "room_created" and isinstance(message.get("room"), str):
            self.tables[message["room"]] = str(message.get("ranked") or "")
        if kind == "match_over":
            self.over[message["room"]] = message
        elif kind == "seat_granted" and isinstance(message.get("re"), int):
            self.granted[message["re"]] = _seat(message)
        elif kind != "view":
            self._note(message)
        re = message.get("re")
        future = self._pending.pop(re, None) if isinstance(re, int) else None
        if future is not None and not future.done():
            if kind == "error":
                future.set_exception(ClientError(message["code"], message["message"]))
            else:
                future.set_result(message)
        elif kind == "error" and isinstance(re, int):
            self.refused[re] = ClientError(message["code"], message["message"])
        if (kind != "error" or future is None) and re not in self.unqueued:
            self.inbox.put_nowait(message)
        self._wake()

    def _viewed(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """The ``view`` messages to hand on now, each with its whole view: this one, its delta applied to the view
        held (and the deltas held back before it, when it is the whole view asked for), or none while a delta
        waits for a whole view."""
        room = message["room"]
        if "delta" in message:
            if room in self.held_back or not self._apply_delta(message):
                self.held_back.setdefault(room, []).append(message)
                if len(self.held_back[room]) == 1:
                    self._ask_view(room)
                return []
        elif message["view"] is not None:  # null while the room waits for players: no deal yet
            self.views[room] = message["view"]
        self.versions[room] = message["version"]
        out = [message]
        if "delta" not in message and room in self.held_back:
            for waiting in self.held_back.pop(room):
                if waiting["version"] <= message["version"]:  # the whole view is newer: it goes with that
                    waiting["view"], waiting["version"] = self.views.get(room), message["version"]
                    out.append(waiting)
                else:
                    out.extend(self._viewed(waiting))
        return out

    def _apply_delta(self, message: dict[str, Any]) -> bool:
        """Apply a view delta to the held view of its room, if that is the version it builds on."""
        room = message["room"]
        held = self.views.get(room)
        if held is None or self.versions.get(room) != message.get("base"):
            return False
        try:
            message["view"] = apply(held, message["delta"])
        except DeltaError:
            return False
        self.views[room] = message["view"]
        return True

    def _ask_view(self, room: str) -> None:
        """Ask for a whole view of ``room`` (a delta came whose base is not the version held)."""
        async def ask() -> None:
            try:
                await self.request("view", room=room, queue=False)
            except (ClientError, ConnectionLost, TimeoutError):  # not watching it any more: nothing to wait for
                for waiting in self.held_back.pop(room, []):
                    waiting["view"] = self.views.get(room)
                    self._deliver(waiting)

        task = asyncio.get_running_loop().create_task(ask())
        self.asking.add(task)
        task.add_done_callback(self.asking.discard)

    def _note(self, message: dict[str, Any]) -> None:
        """Keep what the table-talk, end-of-match and matchmaking pushes say (they are queued on ``inbox`` too)."""
        kind, room = message.get("t"), message.get("room")
        if kind == "paired":
            self.paired[str(message["game"])] = message
            return
        if kind == "event":  # a reply read before a change may come after that change's push: keep the newest
            state, known = message["event"], self.events.get(str(message["event"]["event"]))
            if known is None or state["version"] >= known["version"]:
                self.events[str(state["event"])] = state
            return
        if kind == "unqueued" and message.get("re") is None:
            self.tickets_ended[str(message["game"])] = str(message.get("reason", ""))
            return
        if not isinstance(room, str):
            return
        if kind == "chat":
            self.chats.setdefault(room, []).append(message)
        elif kind == "presence":
            self.presence.setdefault(room, {})[int(message["seat"])] = bool(message["connected"])
        elif kind == "room_closed":
            self.closed[room] = str(message.get("reason", ""))
        elif kind == "rematch_offered":
            self.rematch_offers.setdefault(room, set()).add(int(message["seat"]))
        elif kind == "rematch_ready":
            self.rematches[room] = Seat(str(message["new_room"]), int(message["seat"]), str(message["token"]),
                                        str(message.get("game", "")))

    async def send_raw(self, data: bytes | str) -> None:
        """Send a frame as is (tests use it for malformed input)."""
        await self.ws.send(data)

    async def _send(self, frame: bytes) -> None:
        """Send a binary frame: written at once while the connection is open, writing is not paused and no message
        is being sent in parts (what websockets' ``send`` checks before it writes, and what it then does), else by
        that ``send``."""
        ws = self.ws
        if ws.protocol.state is State.OPEN and ws.send_in_progress is None and not ws.paused:
            ws.protocol.send_binary(frame)
            ws.send_data()
            return
        await ws.send(frame)

    async def request(self, kind: str, timeout: float = 10.0, *, queue: bool = True, **fields: Any) -> dict[str, Any]:
        """Send a message and wait for the reply that names its id.

        An ``error`` reply raises :class:`ClientError`; a connection that closes first raises :class:`ConnectionLost`.
        ``queue=False`` keeps the reply off ``inbox`` (the caller alone handles it). A message the server dropped
        for going over its rate (``rate_limited``, which it answers before doing anything) is sent again after a
        growing pause, up to ``LIMITED_RETRIES`` times; a chat line is not (its limit is the table's, not a burst).
        """
        for pause in (*LIMITED_BACKOFF, None):
            try:
                return await self._request_once(kind, timeout, queue, fields)
            except ClientError as exc:
                if exc.code != "rate_limited" or kind == "chat" or pause is None:
                    raise
            await asyncio.sleep(pause * (0.5 + random.random()))
        raise AssertionError("unreachable")

    async def _request_once(self, kind: str, timeout: float, queue: bool, fields: dict[str, Any]) -> dict[str, Any]:
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        if not queue:
            self.unqueued.add(rid)
        try:
            try:
                await self._send(encode({"t": kind, "id": rid, **fields}))
            except ConnectionClosed as exc:
                raise ConnectionLost(f"connection closed; {kind!r} was not sent") from exc
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._pending.pop(rid, None)
            if future.done() and not future.cancelled():
                future.exception()  # a failure that came as the caller stopped waiting is not logged as unretrieved
            self.unqueued.discard(rid)

    async def list_rooms(self, game: str | None = None) -> list[dict[str, Any]]:
        """The first page of the lobby listing (up to 50 rooms, oldest first)."""
        rooms: list[dict[str, Any]] = (await self.list_page(game))["rooms"]
        return rooms

    async def list_page(self, game: str | None = None, *, status: str | None = None, cursor: str | None = None,
                        limit: int | None = None) -> dict[str, Any]:
        """One page of the lobby listing: the ``rooms`` reply, whose ``next`` (None at the end) asks for the next page."""
        fields: dict[str, Any] = {"game": game, "status": status, "cursor": cursor, "limit": limit}
        return await self.request("list_rooms", **{k: v for k, v in fields.items() if v is not None})

    async def create(self, game: str, options: dict[str, Any] | None = None, *, seed: int | None = None,
                     sit: bool = True, daily: bool = False, spectator_chat: str | None = None,
                     nonce: str | None = None, ranked: bool = False, replays: str | None = None,
                     computer: str | None = None) -> Seat | str:
        """Create a room (``daily``: today's seed, default options); returns the seat taken, once the room's first view
        has come (in ``views`` from the deal on), or the room id with ``sit=False``.
        ``computer`` (a level, ``random`` or ``strong``): the server's computer player takes the other seat.

        Sitting sends ``nonce`` (a fresh random one unless given) for the deal: see :func:`new_nonce`."""
        fields: dict[str, Any] = {"game": game, "sit": sit}
        if sit:
            fields["nonce"] = new_nonce() if nonce is None else nonce
        if options:
            fields["options"] = options
        if daily:
            fields["daily"] = True
        if seed is not None:
            fields["seed"] = seed
        if spectator_chat is not None:
            fields["spectator_chat"] = spectator_chat
        if ranked:
            fields["ranked"] = True
        if replays is not None:
            fields["replays"] = replays
        if computer is not None:
            fields["computer"] = computer
        created = await self.request("create_room", **fields)
        if not sit:
            room: str = created["room"]
            return room
        return await self._granted(created["re"])

    async def _granted(self, rid: int) -> Seat:
        """The ``seat_granted`` that follows ``room_created`` under the same request id (or the error that
        refused the seat instead, raised)."""
        await self.wait_for(lambda: self._find(rid) is not None or rid in self.refused, 10)
        found = self._find(rid)
        if found is None:
            raise self.refused.pop(rid)
        return await self._entered(found)

    async def _entered(self, seat: Seat) -> Seat:
        """``seat`` once its room's first view frame has come too (the server sends it right after the seat, but
        it may arrive in a later read): a caller finds the room in ``views`` (or its null view before the deal)."""
        await self.wait_for(lambda: seat.room in self.versions, 10)
        return seat

    def _find(self, rid: int) -> Seat | None:
        return self.granted.get(rid)

    async def join(self, room: str, seat: int | None = None, nonce: str | None = None) -> Seat:
        """Take a seat (the first free one unless ``seat``), contributing ``nonce`` (fresh unless given) to the deal;
        returns once the room's first view has come too."""
        fields: dict[str, Any] = {"nonce": new_nonce() if nonce is None else nonce}
        if seat is not None:
            fields["seat"] = seat
        return await self._entered(_seat(await self.request("join", room=room, **fields)))

    async def resume(self, room: str, token: str) -> Seat:
        return _seat(await self.request("resume", room=room, token=token))

    async def spectate(self, room: str) -> dict[str, Any]:
        return await self.request("spectate", room=room)

    async def leave(self, room: str) -> None:
        await self.request("leave", room=room)

    async def decide(self, seat: Seat, decision: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        """Send a decision against the latest view's version (or ``version``); returns the new view message."""
        v = self.versions.get(seat.room, 0) if version is None else version
        return await self.request("decide", room=seat.room, token=seat.token, version=v, decision=decision)

    async def resign(self, seat: Seat) -> dict[str, Any]:
        """Give up the match in ``seat.room``: the other seat wins (reason ``resigned``); returns the view message."""
        return await self.request("resign", room=seat.room, token=seat.token)

    async def abort(self, seat: Seat) -> dict[str, Any]:
        """Offer (or accept the offer) to abort the match before its first result; returns the reply."""
        return await self.request("abort", room=seat.room, token=seat.token)

    async def cancel(self, seat: Seat) -> dict[str, Any]:
        """Cancel a room still waiting for players; returns the ``room_closed`` reply."""
        return await self.request("cancel", room=seat.room, token=seat.token)

    async def chat(self, room: str, text: str) -> dict[str, Any]:
        """Say a line in a room this connection watches; returns the line as everyone gets it."""
        return await self.request("chat", room=room, text=text)

    async def rematch(self, seat: Seat) -> dict[str, Any]:
        """Ask for a rematch of a finished match: ``rematch_offered`` first, ``rematch_ready`` once all agree."""
        return await self.request("rematch", room=seat.room, token=seat.token, nonce=new_nonce())

    async def queue(self, game: str, *, rated: bool = False, clock: dict[str, int] | None = None,
                    computer_after: int | None = None, computer: str | None = None,
                    nonce: str | None = None) -> dict[str, Any]:
        """Queue for a game in a matchmaking pool (the ``queued`` reply); ``paired`` comes later (see :meth:`wait_paired`).
        Sends ``nonce`` (fresh unless given): this seat's contribution to the deal, as when sitting."""
        fields: dict[str, Any] = {"game": game, "nonce": new_nonce() if nonce is None else nonce}
        if rated:
            fields["rated"] = True
        if clock is not None:
            fields["clock"] = clock
        if computer_after is not None:
            fields["computer_after"] = computer_after
        if computer is not None:
            fields["computer"] = computer
        self.paired.pop(game, None)
        self.tickets_ended.pop(game, None)
        return await self.request("queue", **fields)

    async def unqueue(self, game: str) -> dict[str, Any]:
        """Take our ticket for ``game`` out of its pool (the ``unqueued`` reply: ``reason`` ``cancelled`` or ``not_queued``)."""
        return await self.request("unqueue", game=game)

    async def wait_paired(self, game: str, timeout: float = 10.0) -> dict[str, Any]:
        """The ``paired`` push for ``game``, once it comes."""
        await self.wait_for(lambda: game in self.paired, timeout)
        return self.paired[game]

    async def play_paired(self, game: str, timeout: float = 10.0) -> Seat:
        """Wait until the pool pairs us for ``game``, then take the seat it gave (``resume`` with its token)."""
        told = await self.wait_paired(game, timeout)
        return await self.resume(told["room"], told["token"])

    async def my_rooms(self) -> list[dict[str, Any]]:
        """The summaries of every room where our player key holds a seat (the reply is not queued on ``inbox``)."""
        reply = await self.request("my_rooms", queue=False)
        rooms: list[dict[str, Any]] = reply["rooms"]
        return rooms

    async def wait_for(self, ready: Callable[[], object], timeout: float = 10.0) -> None:
        """Wait until ``ready()`` holds, looked at now and after every message that arrives (``TimeoutError`` after
        ``timeout`` seconds)."""
        if ready():
            return
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            while not ready():
                future: asyncio.Future[None] = loop.create_future()
                self._waiting.append(future)
                await future

    def received(self) -> list[dict[str, Any]]:
        """Every message received so far, decoded (needs ``record_frames``), each view delta applied to the view
        before it in its room, so that every ``view`` message holds its whole ``view`` (null if the delta did not
        build on that view: the whole view asked for then follows)."""
        held: dict[str, tuple[int, Any]] = {}
        out = []
        for frame in self.frames:
            message = decode_any(frame)
            if message.get("t") == "view":
                room = message["room"]
                if "delta" in message:
                    version, view = held.get(room, (-1, None))
                    message["view"] = None
                    if isinstance(view, dict) and version == message.get("base"):
                        with contextlib.suppress(DeltaError):
                            message["view"] = apply(view, message["delta"])
                held[room] = message["version"], message["view"]
            out.append(message)
        return out

    async def wait_message(self, until: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Wait until a received message satisfies ``until`` (needs ``record_frames``); returns the first such."""
        def found() -> dict[str, Any] | None:
            return next((m for m in self.received() if until(m)), None)

        await self.wait_for(lambda: found() is not None, timeout)
        message = found()
        assert message is not None
        return message

    async def wait_view(self, room: str, until: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Wait until the latest view of ``room`` satisfies ``until``; returns that view."""
        def ready() -> bool:
            view = self.views.get(room)
            return view is not None and until(view)

        await self.wait_for(ready, timeout)
        return self.views[room]
