"""Textual messages: what the server said (posted by the link worker) and what the player asked for (posted by screens).

Server messages flow one way: the worker that owns the connection turns each one into
a message below and posts it to the app, which hands the data to the screens. Screens
never talk to the connection; they post a request message that bubbles up to the app.
"""
from __future__ import annotations

from typing import Any

from textual.message import Message

from client.connection import Seat

__all__ = [
    "WatchersCounted",
    "CancelPlayNow",
    "Paired",
    "PlayNow",
    "Queued",
    "Unqueued",
    "RequestStandings",
    "StandingsArrived",
    "WatchReplay",
    "AbortMatch",
    "AbortOffered",
    "SeatMoved",
    "CancelRoom",
    "ChatArrived",
    "ClockArrived",
    "RecentArrived",
    "NameRefused",
    "OfferRematch",
    "PresenceChanged",
    "RematchOffered",
    "RematchReady",
    "ResignMatch",
    "RoomClosed",
    "SayChat",
    "YourRooms",
    "Connected",
    "CreateRoom",
    "Decide",
    "Disconnected",
    "JoinRoom",
    "LeaveRoom",
    "Left",
    "MatchOver",
    "RefreshRooms",
    "RequestScores",
    "RoomsListed",
    "ScoresArrived",
    "SeatGranted",
    "ServerError",
    "Spectating",
    "SpectateRoom",
    "ViewArrived",
]


# -- from the server ---------------------------------------------------------


class Connected(Message):
    """The link is up (again) and greeted; ``reconnected`` after a lost connection."""

    def __init__(self, address: str, reconnected: bool) -> None:
        super().__init__()
        self.address = address
        self.reconnected = reconnected


class Disconnected(Message):
    """The link is down; it tries again in ``retry_in`` seconds."""

    def __init__(self, address: str, reason: str, retry_in: float) -> None:
        super().__init__()
        self.address = address
        self.reason = reason
        self.retry_in = retry_in


class RoomsListed(Message):
    """The lobby listing (each room as the server summarises it)."""

    def __init__(self, rooms: list[dict[str, Any]], more: bool = False) -> None:
        super().__init__()
        self.rooms = rooms
        self.more = more
        """The server has more rooms than this first page."""


class SeatGranted(Message):
    """A seat is ours (joined, created, or resumed after a reconnect)."""

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.seat = seat


class Spectating(Message):
    """We watch ``room`` as a spectator."""

    def __init__(self, room: str, game: str) -> None:
        super().__init__()
        self.room = room
        self.game = game


class ViewArrived(Message):
    """A new view of ``room`` at ``version``, and the events (as we may see them) that led to it; ``view`` is
    None while the room waits for players (its deal is set up once every seat is taken)."""

    def __init__(self, room: str, version: int, view: dict[str, Any] | None, events: list[dict[str, Any]],
                 blocked: list[str | None] | None = None) -> None:
        super().__init__()
        self.room = room
        self.version = version
        self.view = view
        self.events = events
        self.blocked = blocked or []
        """Per card of our hand, why it may not be played now (None: it may); empty when nothing is awaited."""


class MatchOver(Message):
    """The match in ``room`` ended: its outcome, and the seed revealed against the commitment."""

    def __init__(self, room: str, outcome: dict[str, Any], seed: int | None, commitment: str,
                 reveal: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.room = room
        self.outcome = outcome
        self.seed = seed
        self.commitment = commitment
        self.reveal = reveal or {}
        """The rest of the reveal: ``server_seed``, ``salt``, ``seeding``, ``nonces``, or ``reveal_after``."""


class ScoresArrived(Message):
    """A high-score table (the ``scores`` reply), or why it could not be had (``error``)."""

    def __init__(self, game: str, daily: bool, table: dict[str, Any] | None, error: str = "") -> None:
        super().__init__()
        self.game = game
        self.daily = daily
        self.table = table
        self.error = error


class Left(Message):
    """The server confirmed we no longer watch ``room``."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class ServerError(Message):
    """An ``error`` the server sent, or a request that failed; shown as a toast."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__()
        self.code = code
        self.message = message


# -- from the player ---------------------------------------------------------


class RefreshRooms(Message):
    """Ask the server for the room list; ``background`` when no key was pressed for it (fails quietly)."""

    def __init__(self, background: bool = False) -> None:
        super().__init__()
        self.background = background


class CreateRoom(Message):
    """Create a room of ``game`` and sit in it; ``daily`` deals today's daily seed (solitaires, default options);
    ``bot`` (a level) has a bot take the other seat; ``rated`` asks for a rated room (two players with keys)."""

    def __init__(self, game: str = "creature_wars", daily: bool = False, bot: str = "", rated: bool = False) -> None:
        super().__init__()
        self.game = game
        self.daily = daily
        self.bot = bot
        self.rated = rated


class RequestScores(Message):
    """Fetch the high-score tables (all time and today's) of every solitaire."""


class JoinRoom(Message):
    """Sit in ``room`` (or take our seat back, if we hold one there)."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class SpectateRoom(Message):
    """Watch ``room`` without a seat."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class LeaveRoom(Message):
    """Stop watching ``room`` (a held seat's token is kept, so the seat can be taken back)."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class Decide(Message):
    """Send ``decision`` (one of the view's legal decisions) for our seat in ``room``."""

    def __init__(self, room: str, decision: dict[str, Any]) -> None:
        super().__init__()
        self.room = room
        self.decision = decision


# -- table talk, the end of a match, your rooms (from the server) ---------------------


class ChatArrived(Message):
    """A line said at the table of ``room``: by ``name`` in ``seat`` (None: a spectator), at ``ts`` (Unix seconds)."""

    def __init__(self, room: str, name: str, seat: int | None, text: str, ts: float) -> None:
        super().__init__()
        self.room = room
        self.name = name
        self.seat = seat
        self.text = text
        self.ts = ts


class ClockArrived(Message):
    """The clocks of ``room`` as a view carried them (per seat ``left``/``bank`` and the ``limits``), posted before it,
    with the view's ``presence`` (per seat: does a connection watch it)."""

    def __init__(self, room: str, clock: dict[Any, Any], presence: list[bool] | None = None) -> None:
        super().__init__()
        self.room = room
        self.clock = clock
        self.presence = presence


class WatchersCounted(Message):
    """How many watch ``room`` without a seat (a view's ``spectators``, or a ``watchers`` push)."""

    def __init__(self, room: str, spectators: int) -> None:
        super().__init__()
        self.room = room
        self.spectators = spectators


class RecentArrived(Message):
    """The last events of ``room`` (redacted for us), sent with the view that answers a join, resume or spectate."""

    def __init__(self, room: str, events: list[dict[str, Any]]) -> None:
        super().__init__()
        self.room = room
        self.events = events


class NameRefused(Message):
    """The server refused our name (``name_taken``: bound to another key; ``bad_name``); the link waits for another."""

    def __init__(self, code: str, message: str, name: str) -> None:
        super().__init__()
        self.code = code
        self.message = message
        self.name = name


class PresenceChanged(Message):
    """The player in ``seat`` of ``room`` lost their last connection, or came back."""

    def __init__(self, room: str, seat: int, connected: bool) -> None:
        super().__init__()
        self.room = room
        self.seat = seat
        self.connected = connected


class RoomClosed(Message):
    """``room`` is gone: ``cancelled`` by its creator or ``expired`` waiting for players."""

    def __init__(self, room: str, reason: str) -> None:
        super().__init__()
        self.room = room
        self.reason = reason


class AbortOffered(Message):
    """The player in ``seat`` of ``room`` offers to abort the match (the other seat accepts with ``abort``)."""

    def __init__(self, room: str, seat: int) -> None:
        super().__init__()
        self.room = room
        self.seat = seat


class SeatMoved(Message):
    """Another connection (another terminal of ours) took our seat in ``room``: its views go there now."""

    def __init__(self, room: str, seat: int, message: str) -> None:
        super().__init__()
        self.room = room
        self.seat = seat
        self.message = message


class RematchOffered(Message):
    """The player in ``seat`` of the ended match in ``room`` asks for a rematch."""

    def __init__(self, room: str, seat: int) -> None:
        super().__init__()
        self.room = room
        self.seat = seat


class RematchReady(Message):
    """Both players agreed: the rematch of ``room`` is ``seat`` (new room, seat, token), seats swapped."""

    def __init__(self, room: str, seat: Seat) -> None:
        super().__init__()
        self.room = room
        self.seat = seat


class YourRooms(Message):
    """The seats this player holds, as stored here, each with the server's summary (None: not listed by it)."""

    def __init__(self, rooms: list[tuple[Seat, dict[str, Any] | None]], checked: bool = False) -> None:
        super().__init__()
        self.rooms = rooms
        self.checked = checked
        """Whether the server answered ``my_rooms`` (a None summary then means it does not list the room)."""


# -- table talk, the end of a match (from the player) ----------------------------------


class SayChat(Message):
    """Say ``text`` at the table of ``room``."""

    def __init__(self, room: str, text: str) -> None:
        super().__init__()
        self.room = room
        self.text = text


class ResignMatch(Message):
    """Give up the match in ``room`` (already confirmed by the player)."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class AbortMatch(Message):
    """Offer, or accept, to abort the match in ``room`` before its first result."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class CancelRoom(Message):
    """Delete our room ``room`` while it still waits for players."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class OfferRematch(Message):
    """Ask for (or accept) a rematch of the ended match in ``room``."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class WatchReplay(Message):
    """Open the replay viewer on the finished match of ``room`` (its record is asked of the server: ``export``)."""

    def __init__(self, room: str) -> None:
        super().__init__()
        self.room = room


class RequestStandings(Message):
    """Fetch the rating table of each two-player game and our own match history (the leaderboard)."""


class StandingsArrived(Message):
    """A ``ratings`` reply (``kind`` "ratings", of ``game``) or our ``history`` (``kind`` "history"), or why not."""

    def __init__(self, kind: str, game: str, reply: dict[str, Any] | None, error: str = "") -> None:
        super().__init__()
        self.kind = kind
        self.game = game
        self.reply = reply
        self.error = error


# -- matchmaking: "play now" -------------------------------------------------------


class PlayNow(Message):
    """The player asked to be paired for ``game`` now (``computer_after``: seconds before a computer opponent)."""

    def __init__(self, game: str, computer_after: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.computer_after = computer_after


class CancelPlayNow(Message):
    """The player no longer wants to be paired for ``game``."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game


class Queued(Message):
    """The server took our ticket: its ``queued`` reply."""

    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__()
        self.reply = reply


class Unqueued(Message):
    """Our ticket for ``game`` ended without a pairing (``reason`` as the server said it)."""

    def __init__(self, game: str, reason: str) -> None:
        super().__init__()
        self.game = game
        self.reason = reason


class Paired(Message):
    """The pool paired us: ``seat`` is ours in a new room (the link keeps its token); ``opponent`` and ``computer``
    as ``paired`` said."""

    def __init__(self, seat: Seat, opponent: str, computer: str | None) -> None:
        super().__init__()
        self.seat = seat
        self.opponent = opponent
        self.computer = computer
