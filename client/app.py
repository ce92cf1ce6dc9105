"""The Textual terminal client: ``CardroomApp(url=..., name=...).run()`` (``cardroom play``).

One worker owns the connection (:class:`client.link.Link`, posting's ``@work`` pattern)
and posts every server message to the app as a Textual message; the app hands the data
to the screens, whose reactive attributes redraw the widgets. Screens ask for things
by posting request messages, which the app sends through the link in short workers;
a refused request comes back as a toast with the server's message.
"""
from __future__ import annotations

import os
from collections.abc import Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType
from websockets.exceptions import WebSocketException

from client.connection import ClientError, Seat
from client.identity import IdentityStore
from client.link import Link, scrub
from client.messages import (
    AbortMatch,
    AbortOffered,
    CancelPlayNow,
    CancelRoom,
    ChatArrived,
    ClockArrived,
    Connected,
    CreateRoom,
    Decide,
    Disconnected,
    JoinRoom,
    LeaveRoom,
    Left,
    MatchOver,
    NameRefused,
    OfferRematch,
    Paired,
    PlayNow,
    PresenceChanged,
    Queued,
    RecentArrived,
    RefreshRooms,
    RematchOffered,
    RematchReady,
    RequestScores,
    RequestStandings,
    ResignMatch,
    RoomClosed,
    RoomsListed,
    SayChat,
    ScoresArrived,
    SeatGranted,
    SeatMoved,
    ServerError,
    SpectateRoom,
    Spectating,
    StandingsArrived,
    Unqueued,
    ViewArrived,
    WatchersCounted,
    WatchReplay,
    YourRooms,
)
from client.replay import Replay, ReplayError
from client.scores import SOLITAIRES
from client.screens import (
    FairyMeatScreen,
    LobbyScreen,
    MatchScreen,
    QueensScreen,
    ScoresScreen,
    TableauScreen,
    TableScreen,
)
from client.screens.duel import DuelScreen
from client.screens.end import EndScreen
from client.screens.events import EventsScreen, OpenEvents
from client.screens.high_scores import TABLES
from client.screens.leaderboard import RATED_GAMES, LeaderboardScreen
from client.screens.name import NameScreen
from client.screens.replay import ReplayScreen
from client.screens.solitaire import OnePlayerScreen
from client.screens.solitaire_end import Finished
from client.widgets import StatusLine

REFUSALS = frozenset({"illegal_decision", "not_your_turn", "match_over"})
"""Error codes of a refused decision: the table says why in its status line."""

__all__ = ["CUES_ENV", "GAMES_SHOWN", "REVEAL_KINDS", "TABLE_SCREENS", "CardroomApp", "left_behind"]

TABLE_SCREENS: dict[str, type[TableScreen]] = {
    "creature_wars": MatchScreen,
    "fairy_tableau": TableauScreen,
    "queens_challenge": QueensScreen,
    "fairy_meat": FairyMeatScreen,
}
"""The table screen of each game this client can show."""

GAMES_SHOWN = frozenset(TABLE_SCREENS)
"""Games this client has a table screen for."""

REVEAL_KINDS = frozenset({"reveal", "trumps", "numbered"})
"""Event kinds of a simultaneous reveal (Creature Wars' duel; Fairy Meat's Trumps and Numbered cards): each is cued."""

CUES_ENV = "CARDROOM_CUES"
"""Set to ``off`` to start without the bell and flash (ctrl+b turns them on and off while playing)."""


def left_behind(rooms: Sequence[tuple[Seat, Mapping[str, Any] | None]]) -> list[str]:
    """The rooms of our seats to take back on start: running (or waiting) on the server and held by no connection,
    so that nobody counts as away. A seat another terminal plays now is left to it; a finished room to the list."""
    out = []
    for seat, summary in rooms:
        if summary is None or summary.get("status") == "over":
            continue
        present = summary.get("present")
        if isinstance(present, list) and seat.seat < len(present) and present[seat.seat]:
            continue
        out.append(seat.room)
    return out


class CardroomApp(App[None]):
    """Lobby and tables of a cardroom server, in the terminal.

    ``seed`` fixes the deal of rooms this app creates (tests, replays); ``join`` or
    ``spectate`` name a room to open as soon as the connection is up. The player key and
    the seat tokens live in ``state_dir`` (default: the user's state directory, see
    :mod:`client.identity`); a ``guest`` keeps nothing and sends no key.
    """

    TITLE = "cardroom"
    NOTIFICATION_TIMEOUT = 6.0
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+b", "toggle_cues", "bell on/off", show=False)]

    def __init__(self, url: str, name: str, *, seed: int | None = None, join: str | None = None,
                 spectate: str | None = None, cues: bool | None = None, state_dir: Path | str | None = None,
                 guest: bool = False) -> None:
        super().__init__()
        self.url = url
        self.player = name
        self.seed = seed
        self.auto_join = join
        self.auto_spectate = spectate
        self.inviting: set[str] = set()
        """Two-player rooms we just made, whose tables are still to say how a friend joins."""
        self.store = None if guest else IdentityStore(state_dir)
        """The identity file (None for a guest)."""
        self.link = Link(url, name, self.post_message, store=self.store)
        self.lobby = LobbyScreen()
        self.rooms: dict[str, dict[str, Any]] = {}
        """The latest lobby summary of each room."""
        self.cues = os.environ.get(CUES_ENV, "on").lower() != "off" if cues is None else cues
        """Ring the terminal bell and flash the status line when our move comes or cards are revealed."""
        self.our_move: dict[str, bool] = {}
        """Per open room: whether its latest view offered us a decision."""
        self.recent: dict[str, list[dict[str, Any]]] = {}
        """The room's last events sent with the view that opens its table: a table opened anew rebuilds its log."""
        self.taken_back = False
        """Whether the seats left by a closed terminal were taken back (once, on the first checked "your rooms")."""

    def on_mount(self) -> None:
        self.sub_title = f"connecting to {self.link.address}…"
        self.push_screen(self.lobby)
        self.run_link()

    @work(group="link", exclusive=True, name="link", exit_on_error=False)
    async def run_link(self) -> None:
        """The one worker that owns the websocket, for the app's whole life.

        An error it did not expect is said in one line (never a traceback, whose locals would show the
        player key), with the key blanked out of it."""
        try:
            await self.link.run()
        except Exception as exc:  # shown, not lost: the banner and a toast say it
            key = self.link.store.key(self.link.address) if self.link.store is not None else None
            text = scrub(f"{type(exc).__name__}: {exc}", key)
            self._set_notice(f"the connection stopped: {text} (restart the client)")
            self.notify(text, title="connection stopped", severity="error", markup=False)

    # -- helpers -------------------------------------------------------------------

    def match_screen(self, room: str) -> TableScreen | None:
        """The open table of ``room``, if any (it may be under a dialog)."""
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen) and screen.room == room:
                return screen
        return None

    def match_screens(self) -> list[TableScreen]:
        return [s for s in self.screen_stack if isinstance(s, TableScreen)]

    def scores_screen(self) -> ScoresScreen | None:
        """The high-score screen, if open."""
        return next((s for s in self.screen_stack if isinstance(s, ScoresScreen)), None)

    def request(self, call: Coroutine[Any, Any, None], what: str, *, background: bool = False) -> None:
        """Run one request in its own short worker; failures become toasts, the app carries on.

        ``background`` requests (list refreshes nobody pressed a key for) fail silently while
        the link is down: the banner already says so.
        """
        self.run_worker(self._guarded(call, what, background), group="requests", name=what, exit_on_error=False)

    async def _guarded(self, call: Coroutine[Any, Any, None], what: str, background: bool) -> None:
        try:
            await call
        except ClientError as exc:
            self.notify(exc.message, title=f"{what}: {exc.code}", severity="error", markup=False)
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            if not background:
                self.notify(str(exc) or type(exc).__name__, title=f"{what} failed", severity="warning", markup=False)

    def _set_notice(self, notice: str) -> None:
        self.lobby.notice = notice
        for screen in self.match_screens():
            screen.notice = notice

    # -- from the link ---------------------------------------------------------------

    @on(Connected)
    def _connected(self, message: Connected) -> None:
        self.sub_title = f"connected to {message.address}"
        self._set_notice("")
        if message.reconnected:
            self.notify(f"Reconnected to {message.address}.", title="connection")
        else:
            if self.auto_join:
                self.request(self.link.join(self.auto_join), "join")
            if self.auto_spectate:
                self.request(self.link.spectate(self.auto_spectate), "spectate")
        self.request(self.link.list_rooms(), "list rooms", background=True)
        self._your_rooms()

    @on(Disconnected)
    def _disconnected(self, message: Disconnected) -> None:
        self.sub_title = f"reconnecting to {message.address}…"
        self._set_notice(f"connection to {message.address} lost ({message.reason}); "
                         f"reconnecting in {message.retry_in:g}s…")
        for screen in self.match_screens():
            if isinstance(screen, DuelScreen):
                screen.freeze_clocks()  # only the server keeps time: nothing runs on screen until it speaks again

    @on(RoomsListed)
    def _rooms_listed(self, message: RoomsListed) -> None:
        self.rooms = {str(r["room"]): r for r in message.rooms}
        self.lobby.held = frozenset(self.link.seats)
        self.lobby.more = message.more
        self.lobby.rooms = message.rooms
        for screen in self.match_screens():
            summary = self.rooms.get(screen.room)
            if summary is not None:
                screen.free_seats = max(0, int(summary.get("seats", 0)) - int(summary.get("taken", 0)))
                if isinstance(screen, DuelScreen):
                    screen.names = tuple(str(n or "") for n in summary.get("players") or ())

    @on(SeatGranted)
    def _seat_granted(self, message: SeatGranted) -> None:
        if message.seat.room not in self.lobby.held:  # a new seat (one we created or joined): the cursor goes to it
            self.lobby.follow = message.seat.room
        self.lobby.held = frozenset(self.link.seats)
        self._open(message.seat.room, message.seat.game, spectator=False)
        self._your_rooms()

    @on(Spectating)
    def _spectating(self, message: Spectating) -> None:
        self._open(message.room, message.game, spectator=True)

    def _open(self, room: str, game: str, *, spectator: bool) -> None:
        """Show the table of ``room`` (after a reconnect it is already open and just gets new views)."""
        if self.match_screen(room) is not None:
            return
        screen = TABLE_SCREENS.get(game)
        if screen is None:
            self.notify(f"This client cannot show {game!r} yet.", severity="error")
            self.request(self.link.leave(room), "leave")
            return
        table = screen(room, game, spectator=spectator)
        summary = self.rooms.get(room)
        if summary is not None and isinstance(table, DuelScreen):  # the names the lobby already listed
            table.names = tuple(str(n or "") for n in summary.get("players") or ())
        self.push_screen(table)
        self._invite(room)

    @on(ViewArrived)
    def _view_arrived(self, message: ViewArrived) -> None:
        screen = self.match_screen(message.room)
        if screen is None:
            return
        if message.view is None:  # no deal yet: the room waits for players; learn how many from the lobby
            self.request(self.link.list_rooms(), "list rooms", background=True)
            return
        recent = self.recent.pop(message.room, [])
        screen.blocked = message.blocked
        screen.show(message.version, message.view, [*recent, *message.events] if screen.version < 0 else message.events)
        if isinstance(screen, DuelScreen):
            screen.name_clocks()  # "You" once the view says which seat is ours
        self._cue(screen, message)
        if message.version == 0 and not message.events:
            # a seat was taken or a table opened: learn from the lobby whether anyone is still missing
            self.request(self.link.list_rooms(), "list rooms", background=True)

    @on(WatchersCounted)
    def _watchers_counted(self, message: WatchersCounted) -> None:
        screen = self.match_screen(message.room)
        if screen is not None:
            screen.spectators = message.spectators

    def _cue(self, screen: TableScreen, message: ViewArrived) -> None:
        """Bell and flash when a view brings our move (we had none) or a reveal; not for the first view of a table."""
        ours = message.view is not None and message.view.get("seat") is not None and bool(message.view.get("legal"))
        had = self.our_move.get(message.room)
        self.our_move[message.room] = ours
        revealed = any(event.get("kind") in REVEAL_KINDS for event in message.events)
        if self.cues and had is not None and ((ours and not had) or revealed):
            self.bell()
            for line in screen.query(StatusLine):
                line.flash()

    def action_toggle_cues(self) -> None:
        """ctrl+b: the bell and flash on or off."""
        self.cues = not self.cues
        self.notify(f"Bell and flash {'on' if self.cues else 'off'} (ctrl+b).", title="cues")

    @on(MatchOver)
    def _match_over(self, message: MatchOver) -> None:
        screen = self.match_screen(message.room)
        if screen is not None:
            screen.match_over(message.outcome, message.seed, message.commitment)
        if self.link.watching.get(message.room):
            self.link.forget(message.room)  # over and seen: the stored token has done its work
            self._your_rooms()
        if isinstance(screen, DuelScreen):
            screen.show_end(message.outcome, message.seed, message.commitment, self.link.commitments.get(message.room),
                            message.reveal)
            return  # the end screen says it all
        if isinstance(screen, OnePlayerScreen) and not screen.spectator:
            listed = self.rooms.get(message.room)
            ranked = listed.get("ranked") if listed else None
            if ranked is None and self.link.client is not None:  # over before a listing named it (lost at once)
                ranked = self.link.client.tables.get(message.room)
            finished = Finished(message.room, screen.game, message.outcome, None if ranked is None else str(ranked),
                                message.seed)
            screen.show_end(finished)
            if finished.ranked != "":
                self.run_worker(self._rank(screen, finished), group="requests", name="rank", exit_on_error=False)
            return
        if screen is None or not screen.is_current:  # an open table shows the result itself
            detail = message.outcome.get("detail") or message.outcome.get("reason", "")
            self.notify(f"Match over: {detail}", title=f"room #{message.room}", markup=False)

    @on(Left)
    def _left(self, message: Left) -> None:
        self.request(self.link.list_rooms(), "list rooms", background=True)
        self._your_rooms()

    @on(ServerError)
    def _server_error(self, message: ServerError) -> None:
        self.notify(message.message, title=f"server: {message.code}", severity="error", markup=False)

    # -- from the screens ------------------------------------------------------------

    @on(RefreshRooms)
    def _refresh_rooms(self, message: RefreshRooms) -> None:
        self.request(self.link.list_rooms(), "list rooms", background=message.background)
        if not message.background:
            self._your_rooms()

    @on(CreateRoom)
    def _create_room(self, message: CreateRoom) -> None:
        self.request(self._create(message), "create room")

    async def _create(self, message: CreateRoom) -> None:
        """Create the room; with ``bot`` (a level), the server's computer player takes the other seat. A two-player
        room is rated when asked and we play with a player key (a guest's, a fixed deal's, the computer's: casual)."""
        ranked = (message.rated and self.link.player is not None and self.seed is None and not message.bot
                  and message.game not in SOLITAIRES)
        room = await self.link.create(message.game, self.seed, daily=message.daily, computer=message.bot or None,
                                      ranked=ranked)
        if not message.bot and message.game not in SOLITAIRES:
            self.inviting.add(room)
            self._invite(room)

    def _invite(self, room: str) -> None:
        """Say, once, in the table's chat how a friend joins the room we made and wait in."""
        screen = self.duel_screen(room)
        if screen is None or room not in self.inviting:
            return  # the table opens later (its seat_granted is still on its way): it asks again then
        self.inviting.discard(room)
        screen.room_notice(f"Invite a friend: cardroom play --url {self.url} --join {room}")

    @on(PlayNow)
    def _play_now(self, message: PlayNow) -> None:
        """Queue for a game: rated when we play with a player key and want no computer."""
        rated = self.link.player is not None and message.computer_after is None
        self.request(self.link.queue(message.game, rated=rated, computer_after=message.computer_after), "play now")

    @on(CancelPlayNow)
    def _cancel_play_now(self, message: CancelPlayNow) -> None:
        self.request(self.link.unqueue(message.game), "stop waiting")

    @on(Queued)
    def _queued(self, message: Queued) -> None:
        self.lobby.queued(message.reply)

    @on(Unqueued)
    def _unqueued(self, message: Unqueued) -> None:
        if message.game == self.lobby.waiting_for:
            self.lobby.stop_waiting()
        if message.reason == "replaced":
            self.notify("You queued for this game from another terminal; this one stopped waiting.", title="play now")

    @on(Paired)
    def _paired(self, message: Paired) -> None:
        """The pool seated us: take the seat (the table opens with ``seat_granted``)."""
        self.lobby.stop_waiting()
        against = f"the computer ({message.computer})" if message.computer else (message.opponent or "a guest")
        self.notify(f"Paired against {against} in room #{message.seat.room}.", title="play now", markup=False)
        self.request(self.link.join(message.seat.room), "take the seat")

    @on(RequestScores)
    def _request_scores(self, message: RequestScores) -> None:
        for game, daily in TABLES:
            self.run_worker(self._fetch_scores(game, daily), group="requests", name="scores", exit_on_error=False)

    async def _fetch_scores(self, game: str, daily: bool) -> None:
        """One table; a refusal or a lost connection is shown in that table's box."""
        try:
            table = await self.link.scores(game, daily=daily)
        except ClientError as exc:
            self.post_message(ScoresArrived(game, daily, None, f"{exc.code}: {exc.message}"))
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            self.post_message(ScoresArrived(game, daily, None, str(exc) or type(exc).__name__))
        else:
            self.post_message(ScoresArrived(game, daily, table))

    async def _rank(self, screen: OnePlayerScreen, finished: Finished) -> None:
        """Fetch the high-score table a finished solitaire entered, for its end screen to find the rank in."""
        daily = (finished.ranked or "").startswith("daily:")
        try:
            table = await self.link.scores(finished.game, daily=daily, limit=100)
        except ClientError as exc:
            screen.ranked(None, f"{exc.code}: {exc.message}")
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            screen.ranked(None, str(exc) or type(exc).__name__)
        else:
            screen.ranked(list(table.get("entries") or []))

    @on(ScoresArrived)
    def _scores_arrived(self, message: ScoresArrived) -> None:
        screen = self.scores_screen()
        if screen is not None:
            screen.put(message.game, message.daily, message.table, message.error)

    @on(JoinRoom)
    def _join_room(self, message: JoinRoom) -> None:
        if self.match_screen(message.room) is None:
            self.request(self.link.join(message.room), "join")

    @on(SpectateRoom)
    def _spectate_room(self, message: SpectateRoom) -> None:
        self.request(self.link.spectate(message.room), "spectate")

    @on(LeaveRoom)
    def _leave_room(self, message: LeaveRoom) -> None:
        screen = self.match_screen(message.room)
        if screen is not None and screen is self.screen:
            self.pop_screen()
        self.request(self.link.leave(message.room), "leave")

    @on(Decide)
    def _decide(self, message: Decide) -> None:
        self.request(self._send_decision(message.room, message.decision), "decision")

    async def _send_decision(self, room: str, decision: dict[str, Any]) -> None:
        """Send a decision; a refusal (the engine's reason) goes to the table's status line."""
        try:
            await self.link.decide(room, decision)
        except ClientError as exc:
            screen = self.match_screen(room)
            if screen is None or exc.code not in REFUSALS:
                raise
            screen.refused(exc.message)

    # -- identity, clocks, table talk, the end of a match -------------------------------

    def _your_rooms(self) -> None:
        """Ask the link for the seats we hold, checked against the server (arrives as :class:`YourRooms`)."""
        if self.link.client is not None:
            self.request(self.link.your_rooms(), "your rooms", background=True)

    def duel_screen(self, room: str) -> DuelScreen | None:
        """The open two-player table of ``room``, if any."""
        screen = self.match_screen(room)
        return screen if isinstance(screen, DuelScreen) else None

    @on(YourRooms)
    def _your_rooms_arrived(self, message: YourRooms) -> None:
        self.lobby.held = frozenset(self.link.seats)
        self.lobby.show_your_rooms(message.rooms, message.checked)
        if message.checked and not self.taken_back:
            self.taken_back = True
            for room in left_behind(message.rooms):  # a terminal closed mid-match: its tables open again by themselves
                if self.match_screen(room) is None and room != self.auto_spectate:  # asked to watch it: we only watch
                    self.request(self.link.join(room), "take back your seat", background=True)

    @on(NameRefused)
    def _name_refused(self, message: NameRefused) -> None:
        self.sub_title = f"name refused: {message.code}"
        self._set_notice(f"the server refused the name {message.name!r} ({message.code}): {message.message}")

        def chosen(name: str | None) -> None:
            if name is None:
                self.exit()
                return
            self.player = name
            self.link.rename(name)

        self.push_screen(NameScreen(message.code, message.message, message.name), chosen)

    @on(RecentArrived)
    def _recent_arrived(self, message: RecentArrived) -> None:
        self.recent[message.room] = message.events

    @on(ClockArrived)
    def _clock_arrived(self, message: ClockArrived) -> None:
        screen = self.duel_screen(message.room)
        if screen is not None:
            screen.set_clock(message.clock, message.presence)

    @on(ChatArrived)
    def _chat_arrived(self, message: ChatArrived) -> None:
        screen = self.duel_screen(message.room)
        if screen is not None:
            screen.chat(message.name, message.seat, message.text, message.ts)

    @on(PresenceChanged)
    def _presence_changed(self, message: PresenceChanged) -> None:
        screen = self.duel_screen(message.room)
        if screen is None:
            return
        who = screen.seat_name(message.seat)
        if not screen.set_away(message.seat, not message.connected):
            return  # a player sitting down (or creating the room) is not "back"
        if message.connected:
            text = f"{who} is back."
        elif screen.ending is not None:  # the match is over: no rematch will come from a player gone
            text = f"{who} left."
        else:
            text = f"{who} dropped; a running clock runs on (forfeit after 60 s away)."
        screen.room_notice(text)
        self.notify(text, title=f"room #{message.room}", markup=False)

    @on(RoomClosed)
    def _room_closed(self, message: RoomClosed) -> None:
        text = f"Room #{message.room} was {message.reason or 'closed'}."
        screen = self.match_screen(message.room)
        if isinstance(screen, DuelScreen):
            screen.room_notice(text, error=True)
        if screen is not None and screen is self.screen:
            self.pop_screen()
        self.notify(text, title="room closed", severity="warning", markup=False)
        self.request(self.link.list_rooms(), "list rooms", background=True)
        self._your_rooms()

    @on(AbortOffered)
    def _abort_offered(self, message: AbortOffered) -> None:
        screen = self.duel_screen(message.room)
        if screen is None:
            return
        if message.seat == screen.own_seat():
            screen.room_notice("You offered to abort; the match ends with no result if your opponent agrees.")
            return
        text = f"{screen.seat_name(message.seat)} offers to abort the match (no result): A accepts."
        screen.room_notice(text)
        self.notify(text, title=f"room #{message.room}", markup=False)

    @on(SeatMoved)
    def _seat_moved(self, message: SeatMoved) -> None:
        text = (f"Your seat in room #{message.room} is now played from another connection; "
                "take it back from Your rooms in the lobby.")
        screen = self.duel_screen(message.room)
        if screen is not None:
            screen.room_notice(text, error=True)
        self.notify(text, title="seat moved", severity="warning", markup=False)

    @on(RematchOffered)
    def _rematch_offered(self, message: RematchOffered) -> None:
        screen = self.duel_screen(message.room)
        if screen is not None:
            screen.rematch_offered(message.seat)

    @on(RematchReady)
    def _rematch_ready(self, message: RematchReady) -> None:
        """Both agreed: close the old table (and its end screen), open the new room's."""
        old = self.match_screen(message.room)
        while len(self.screen_stack) > 1 and (
                self.screen is old or (isinstance(self.screen, EndScreen) and self.screen.ending.room == message.room)):
            self.pop_screen()
        if self.link.watching.pop(message.room, None) is not None:
            self.request(self.link.leave(message.room), "leave", background=True)
        self.link.forget(message.room)
        self._open(message.seat.room, message.seat.game, spectator=False)
        self.notify(f"Rematch in room #{message.seat.room}: you are Player {message.seat.seat + 1}.",
                    title="rematch", markup=False)
        self._your_rooms()

    @on(SayChat)
    def _say_chat(self, message: SayChat) -> None:
        self.run_worker(self._chat(message.room, message.text), group="requests", name="chat", exit_on_error=False)

    async def _chat(self, room: str, text: str) -> None:
        """Send a chat line; a refusal (too long, too fast, not watching) is written in the chat log."""
        try:
            await self.link.chat(room, text)
        except ClientError as exc:
            self._chat_refused(room, f"not sent ({exc.code}): {exc.message}")
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            self._chat_refused(room, f"not sent: {exc or type(exc).__name__}")

    def _chat_refused(self, room: str, text: str) -> None:
        screen = self.duel_screen(room)
        if screen is not None:
            screen.room_notice(text, error=True)
        else:
            self.notify(text, title="chat", severity="error", markup=False)

    @on(ResignMatch)
    def _resign(self, message: ResignMatch) -> None:
        self.request(self.link.resign(message.room), "resign")

    @on(AbortMatch)
    def _abort(self, message: AbortMatch) -> None:
        self.request(self.link.abort(message.room), "abort")

    @on(CancelRoom)
    def _cancel(self, message: CancelRoom) -> None:
        self.request(self.link.cancel(message.room), "cancel room")

    @on(OfferRematch)
    def _offer_rematch(self, message: OfferRematch) -> None:
        self.request(self.link.rematch(message.room), "rematch")

    # -- replays and the leaderboard ---------------------------------------------------

    @on(WatchReplay)
    def _watch_replay(self, message: WatchReplay) -> None:
        self.run_worker(self._replay(message.room), group="requests", name="replay", exit_on_error=False)

    async def _replay(self, room: str) -> None:
        """Ask for the record of ``room`` (with our seat's token, for a players-only replay) and open the viewer."""
        held = self.link.seats.get(room)
        fields: dict[str, Any] = {"room": room, "token": held.token} if held is not None else {"room": room}
        try:
            reply = await self.link.require().request("export", **fields)
            replay = Replay(reply["record"])
        except ClientError as exc:
            self.notify(exc.message, title=f"replay: {exc.code}", severity="error", markup=False)
        except ReplayError as exc:
            self.notify(str(exc), title="replay", severity="error", markup=False)
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            self.notify(str(exc) or type(exc).__name__, title="replay failed", severity="warning", markup=False)
        else:
            self.push_screen(ReplayScreen(replay))

    @on(OpenEvents)
    def _open_events(self, message: OpenEvents) -> None:
        self.push_screen(EventsScreen(self.link))

    @on(RequestStandings)
    def _request_standings(self, message: RequestStandings) -> None:
        for game, _ in RATED_GAMES:
            self.run_worker(self._standing("ratings", game), group="requests", name="ratings", exit_on_error=False)
        if self.store is None:  # a guest sends no key: the server knows no history of ours
            self.post_message(StandingsArrived("history", "", None, "a guest keeps no history (play with a player key)"))
            return
        self.run_worker(self._standing("history", ""), group="requests", name="history", exit_on_error=False)

    async def _standing(self, kind: str, game: str) -> None:
        """One ``ratings`` table (of ``game``) or our ``history``; a refusal or a lost connection is shown in its place."""
        fields: dict[str, Any] = {"game": game} if game else {}
        try:
            reply = await self.link.require().request(kind, **fields)
        except ClientError as exc:
            self.post_message(StandingsArrived(kind, game, None, f"{exc.code}: {exc.message}"))
        except (ConnectionError, OSError, TimeoutError, WebSocketException) as exc:
            self.post_message(StandingsArrived(kind, game, None, str(exc) or type(exc).__name__))
        else:
            self.post_message(StandingsArrived(kind, game, reply))

    @on(StandingsArrived)
    def _standings_arrived(self, message: StandingsArrived) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, LeaderboardScreen):
                screen.put(message.kind, message.game, message.reply, message.error)
