"""The Textual terminal client: ``CardroomApp(url=..., name=...).run()`` (``cardroom play``).

One worker owns the connection (:class:`client.link.Link`, posting's ``@work`` pattern)
and posts every server message to the app as a Textual message; the app hands the data
to the screens, whose reactive attributes redraw the widgets. Screens ask for things
by posting request messages, which the app sends through the link in short workers;
a refused request comes back as a toast with the server's message.
"""
from __future__ import annotations

import os
from collections.abc import Coroutine
from typing import Any, ClassVar

from textual import on, work
from textual.app import App
from textual.binding import Binding, BindingType
from websockets.exceptions import WebSocketException

from client.connection import ClientError
from client.link import Link
from client.messages import (
    Connected,
    CreateRoom,
    Decide,
    Disconnected,
    JoinRoom,
    LeaveRoom,
    Left,
    MatchOver,
    RefreshRooms,
    RequestScores,
    RoomsListed,
    ScoresArrived,
    SeatGranted,
    ServerError,
    SpectateRoom,
    Spectating,
    ViewArrived,
)
from client.screens import (
    FairyMeatScreen,
    LobbyScreen,
    MatchScreen,
    QueensScreen,
    ScoresScreen,
    TableauScreen,
    TableScreen,
)
from client.screens.high_scores import TABLES
from client.widgets import StatusLine

__all__ = ["CUES_ENV", "GAMES_SHOWN", "REVEAL_KINDS", "TABLE_SCREENS", "CardroomApp"]

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


class CardroomApp(App[None]):
    """Lobby and tables of a cardroom server, in the terminal.

    ``seed`` fixes the deal of rooms this app creates (tests, replays); ``join`` or
    ``spectate`` name a room to open as soon as the connection is up.
    """

    TITLE = "cardroom"
    NOTIFICATION_TIMEOUT = 6.0
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+b", "toggle_cues", "bell on/off", show=False)]

    def __init__(self, url: str, name: str, *, seed: int | None = None, join: str | None = None,
                 spectate: str | None = None, cues: bool | None = None) -> None:
        super().__init__()
        self.url = url
        self.player = name
        self.seed = seed
        self.auto_join = join
        self.auto_spectate = spectate
        self.link = Link(url, name, self.post_message)
        self.lobby = LobbyScreen()
        self.rooms: dict[str, dict[str, Any]] = {}
        """The latest lobby summary of each room."""
        self.cues = os.environ.get(CUES_ENV, "on").lower() != "off" if cues is None else cues
        """Ring the terminal bell and flash the status line when our move comes or cards are revealed."""
        self.our_move: dict[str, bool] = {}
        """Per open room: whether its latest view offered us a decision."""

    def on_mount(self) -> None:
        self.sub_title = f"connecting to {self.link.address}…"
        self.push_screen(self.lobby)
        self.run_link()

    @work(group="link", exclusive=True, name="link")
    async def run_link(self) -> None:
        """The one worker that owns the websocket, for the app's whole life."""
        await self.link.run()

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

    @on(Disconnected)
    def _disconnected(self, message: Disconnected) -> None:
        self.sub_title = f"reconnecting to {message.address}…"
        self._set_notice(f"connection to {message.address} lost ({message.reason}); "
                         f"reconnecting in {message.retry_in:g}s…")

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

    @on(SeatGranted)
    def _seat_granted(self, message: SeatGranted) -> None:
        if message.seat.room not in self.lobby.held:  # a new seat (one we created or joined): the cursor goes to it
            self.lobby.follow = message.seat.room
        self.lobby.held = frozenset(self.link.seats)
        self._open(message.seat.room, message.seat.game, spectator=False)

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
        self.push_screen(screen(room, game, spectator=spectator))

    @on(ViewArrived)
    def _view_arrived(self, message: ViewArrived) -> None:
        screen = self.match_screen(message.room)
        if screen is None:
            return
        if message.view is None:  # no deal yet: the room waits for players; learn how many from the lobby
            self.request(self.link.list_rooms(), "list rooms", background=True)
            return
        screen.show(message.version, message.view, message.events)
        self._cue(screen, message)
        if message.version == 0 and not message.events:
            # a seat was taken or a table opened: learn from the lobby whether anyone is still missing
            self.request(self.link.list_rooms(), "list rooms", background=True)

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
        if screen is None or not screen.is_current:  # an open table shows the result itself
            detail = message.outcome.get("detail") or message.outcome.get("reason", "")
            self.notify(f"Match over: {detail}", title=f"room #{message.room}", markup=False)

    @on(Left)
    def _left(self, message: Left) -> None:
        self.request(self.link.list_rooms(), "list rooms", background=True)

    @on(ServerError)
    def _server_error(self, message: ServerError) -> None:
        self.notify(message.message, title=f"server: {message.code}", severity="error", markup=False)

    # -- from the screens ------------------------------------------------------------

    @on(RefreshRooms)
    def _refresh_rooms(self, message: RefreshRooms) -> None:
        self.request(self.link.list_rooms(), "list rooms", background=message.background)

    @on(CreateRoom)
    def _create_room(self, message: CreateRoom) -> None:
        self.request(self.link.create(message.game, self.seed, daily=message.daily), "create room")

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
        self.request(self.link.decide(message.room, message.decision), "decision")
