"""The lobby: the server's rooms in a table; creating a room of any game (a solitaire's daily deal too); the high scores."""
from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Select, Static

from client import clock
from client.clock import clock_short
from client.messages import CancelPlayNow, CreateRoom, JoinRoom, PlayNow, RefreshRooms, SpectateRoom
from client.scores import SOLITAIRES
from client.screens.dialogs import ConfirmScreen, HelpScreen
from client.screens.events import OpenEvents
from client.screens.high_scores import ScoresScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.your_rooms import YourRoomsList
from client.widgets import Banner, Listing

__all__ = ["COMPUTER_AFTER", "GAME_CHOICES", "QUIT_QUESTION", "LobbyScreen", "box_label", "room_row"]

GAME_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("creature_wars", "Creature Wars", "two players · 30 HP, 5 cards, 10 witches"),
    ("fairy_tableau", "Fairy Tableau", "solitaire · one fairy (K♥), fizzles cost mana"),
    ("queens_challenge", "Queen's Challenge", "solitaire · two full decks"),
    ("fairy_meat", "Fairy Meat", "two players · a fairy duel, 54 cards with Jokers, Nasty Hits and Fungus"),
)
"""Games the create pane offers: wire name, title, the default options in words."""

ROOM_KEYS = "Enter join · s spectate · r refresh · g game to create · c create"
"""The hint under the rooms (the footer has room for the main keys only at 80 columns)."""

COMPUTER_AFTER = 20
"""Seconds ``P`` (play now) waits for a person before the computer takes the other seat."""

AUTO_REFRESH = 5.0
"""Seconds between automatic refreshes while the lobby is on screen (the server does not push the list)."""

HELP = """\
[b]Lobby[/b]

  ↑ ↓        move through the rooms
  Enter      sit in the selected room (or take back your seat)
  s          spectate the selected room
  g          choose the game to create: Creature Wars, Fairy Tableau,
             Queen's Challenge, Fairy Meat
  R          rated on / off for a two-player room (on by default: both
             players' ratings move when it ends; a guest plays casual)
  d          daily deal on / off (solitaires only: today's seed, the same
             for everyone, ranked in today's table; off again once the room
             is made or another game is chosen)
  c          create a room of the chosen game and sit in it
  p          play now: be paired with a waiting player of near rating for the
             chosen two-player game (rated when you play with a player key);
             the wait is shown under the rooms, Esc cancels it
  P          play now, casual: and a computer opponent if nobody comes in 20 s
  Esc        stop waiting to be paired
  b / B      play the chosen two-player game against the computer: a strong
             bot (b) or a random one (B); it sees only its own seat's view
  t          high scores of the solitaires (all time and today)
  l          leaderboard: ratings of the two-player games, your matches (Enter replays one)
  e          events: Swiss tournaments and solitaire events; register, your table,
             pairings and standings, watch a table
  r          refresh the list
  ctrl+b     bell and flash on / off (your move, a reveal)
  y          your rooms: the seats you hold (kept across restarts); Enter there takes one back
  ?          this help
  q          quit (asks first while you hold a seat in a running room)
"""

QUIT_QUESTION = "You hold a seat in a running match: {rooms}.\nQuit anyway?"


def box_label(what: str, on: bool) -> str:
    """A check box's label says whether it is on: colour alone is lost on some terminals."""
    return f"{what}: {'on' if on else 'off'}"


def room_row(room: dict[str, Any], held: bool) -> tuple[str, Text, str, Text, Text]:
    """One table row: ``#id``, game title, ``taken/seats``, the players' names ("—" for a free seat), and the
    status (the score so far of a solitaire, whether a seat is ours, daily or scenario, watchers)."""
    status = str(room.get("status", ""))
    score = room.get("score")
    if score is not None:
        status += f" · {score} pts"
    if held:
        status += " · your seat"
    ranked = str(room.get("ranked") or "")
    if ranked.startswith("daily:"):
        status += " · daily"
    elif room.get("daily"):
        status += " · daily practice"
    elif room.get("scenario"):
        status += " · scenario"
    if room.get("spectators"):
        status += f" · {room['spectators']} watching"
    clock = clock_short(room.get("clock"))
    if clock:
        status += f" · ⏱{clock}"
    players = ", ".join(str(name) or "—" for name in room.get("players") or ())
    # names (and anything else a server sends) are plain text: a str cell of a DataTable would be read as markup
    return (f"#{room['room']}", Text(str(room.get("title") or room.get("game", ""))),
            f"{room.get('taken', 0)}/{room.get('seats', 0)}", Text(players), Text(status))


class LobbyScreen(Screen[None]):
    """Rooms to join or watch; creating a room sits you in it."""

    DEFAULT_CSS = """
    LobbyScreen #rooms-pane { height: 1fr; border: round $primary; border-title-align: left; }
    LobbyScreen #rooms { height: 1fr; }
    LobbyScreen #hint { height: 1; color: $text-muted; padding: 0 1; }
    LobbyScreen #create-pane { height: auto; }
    LobbyScreen #create-pane Select { width: 26; }
    LobbyScreen #create-pane Checkbox { width: auto; }
    LobbyScreen #create-pane Checkbox.-hidden { display: none; }
    LobbyScreen #create-pane Checkbox.-on { background: $success 35%; text-style: bold; }
    LobbyScreen #create-pane Button { min-width: 12; width: auto; margin-left: 1; }
    LobbyScreen #options { height: 1; color: $text-muted; padding: 0 1; }
    LobbyScreen #waiting { height: 1; padding: 0 1; background: $accent 30%; text-style: bold; }
    LobbyScreen #waiting.-idle { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "join"),
        Binding("s", "spectate", "spectate"),
        Binding("c", "create", "create"),
        Binding("p", "play_now", "play now", show=False),
        Binding("P", "play_now(True)", "play now or computer", show=False),
        Binding("escape", "cancel_play_now", "stop waiting", show=False),
        Binding("b", "versus('strong')", "vs computer", key_display="b/B"),
        Binding("B", "versus('random')", "vs random bot", show=False),
        Binding("g", "next_game", "game", show=False),
        Binding("d", "toggle_daily", "daily", show=False),
        Binding("R", "toggle_rated", "rated", key_display="R", show=False),
        Binding("t", "scores", "scores"),
        Binding("l", "leaderboard", "ratings", show=False),
        Binding("e", "events", "events", show=False),
        Binding("r", "refresh", "refresh", show=False),
        Binding("y", "your_rooms", "your rooms", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    rooms: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    more = False
    """The server lists more rooms than the first page shown."""
    held: reactive[frozenset[str]] = reactive(frozenset())
    notice: reactive[str] = reactive("")
    follow: str | None = None
    """A room the cursor goes to as soon as the list shows it (the one we just created), then stays on."""
    waiting_for: reactive[str] = reactive("")
    """The game we wait to be paired for ("" when not queued)."""
    waiting_since = 0.0
    """When we queued (monotonic)."""
    waiting_note = ""
    """What the ``queued`` reply said of the pool."""
    yours_shown = False
    """Whether the server's answer filled "your rooms" once (only a client that starts holding seats in running rooms
    moves the focus there)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        with Vertical(id="rooms-pane"):
            yield YourRoomsList(id="yours")
            yield Listing(id="rooms", cursor_type="row", zebra_stripes=True)
            yield Static(ROOM_KEYS, id="hint")
            yield Static("", id="waiting", classes="-idle")
        with Horizontal(id="create-pane"):
            yield Select([(title, name) for name, title, _ in GAME_CHOICES], value=GAME_CHOICES[0][0],
                         allow_blank=False, id="game")
            yield Checkbox(box_label("daily", False), id="daily", disabled=True, classes="-hidden")
            yield Checkbox(box_label("rated", True), id="rated", value=True)
            yield Button("Create (c)", id="create", variant="primary")
            yield Button("Scores (t)", id="scores")
        yield Static(GAME_CHOICES[0][2], id="options")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rooms-pane").border_title = "Rooms"
        table = self.query_one("#rooms", DataTable)
        table.add_columns("room", "game", "seats", "players", "status")
        table.focus()
        self.set_interval(AUTO_REFRESH, self._refresh_tick)
        self.set_interval(1.0, self._show_wait)

    def on_screen_resume(self) -> None:
        self.post_message(RefreshRooms(background=True))

    def _refresh_tick(self) -> None:
        if self.is_current:
            self.post_message(RefreshRooms(background=True))

    def watch_notice(self, notice: str) -> None:
        self.query_one("#notice", Banner).message = notice

    def watch_rooms(self) -> None:
        self._fill()

    def watch_held(self) -> None:
        self._fill()

    def _fill(self) -> None:
        """Rebuild the table from ``rooms``, keeping the cursor on the same room."""
        if not self.is_mounted:
            return
        try:
            table = self.query_one("#rooms", Listing)
            hint = self.query_one("#hint", Static)
        except NoMatches:  # a listing that comes while the app takes the lobby down: nothing left to fill
            return
        current = self.selected_room()
        table.refill([(str(room["room"]), room_row(room, room["room"] in self.held)) for room in self.rooms])
        listed = {str(r["room"]) for r in self.rooms}
        if self.follow in listed:
            current, self.follow = self.follow, None
        if current is not None and current in listed:
            table.move_cursor(row=table.get_row_index(current))
        if self.rooms:
            hint.update(f"{ROOM_KEYS} · more…" if self.more else ROOM_KEYS)
        else:
            hint.update("No rooms yet: c creates one · g game · r refresh")

    def selected_room(self) -> str | None:
        """The room id under the table's cursor, if any."""
        table: DataTable[str | Text] = self.query_one("#rooms", DataTable)
        if not table.row_count:
            return None
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return row_key.value

    @on(DataTable.RowSelected, "#rooms")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.post_message(JoinRoom(event.row_key.value))

    @on(Button.Pressed, "#create")
    def _create_pressed(self) -> None:
        self.action_create()

    def action_join(self) -> None:
        room = self.selected_room()
        if room is None:
            self.notify("No room selected; press c to create one.", severity="warning")
            return
        self.post_message(JoinRoom(room))

    def action_spectate(self) -> None:
        room = self.selected_room()
        if room is None:
            self.notify("No room selected to spectate.", severity="warning")
            return
        self.post_message(SpectateRoom(room))

    # -- creating a room ------------------------------------------------------------

    def chosen_game(self) -> str:
        """The game the create pane's selector shows."""
        value = self.query_one("#game", Select).value
        return value if isinstance(value, str) else GAME_CHOICES[0][0]

    def daily(self) -> bool:
        """Whether the daily deal is ticked and applies: only a solitaire has a daily table."""
        box = self.query_one("#daily", Checkbox)
        return box.value and self.chosen_game() in SOLITAIRES

    @on(Select.Changed, "#game")
    def _game_changed(self) -> None:
        """Another game: the daily box starts off (a daily deal is chosen for one game, not carried to the next)."""
        box = self.query_one("#daily", Checkbox)
        if box.value:
            box.value = False  # its Changed shows the options
        else:
            self._show_options()

    def _show_options(self) -> None:
        """Show the chosen game's options; the daily box is only there for a game with a daily table."""
        game = self.chosen_game()
        words = next((about for name, _, about in GAME_CHOICES if name == game), "")
        box = self.query_one("#daily", Checkbox)
        box.disabled = game not in SOLITAIRES
        box.set_class(box.disabled, "-hidden")
        if box.disabled:
            box.value = False
        rated = self.query_one("#rated", Checkbox)
        rated.disabled = game in SOLITAIRES
        rated.set_class(rated.disabled, "-hidden")
        self.query_one("#options", Static).update("daily deal: today's seed, default options" if box.value else words)

    @on(Checkbox.Changed, "#daily")
    def _daily_changed(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = box_label("daily", event.value)
        self._show_options()

    @on(Checkbox.Changed, "#rated")
    def _rated_changed(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = box_label("rated", event.value)

    def action_next_game(self) -> None:
        """Cycle the game selector."""
        names = [name for name, _, _ in GAME_CHOICES]
        select = self.query_one("#game", Select)
        select.value = names[(names.index(self.chosen_game()) + 1) % len(names)]

    def action_toggle_daily(self) -> None:
        box = self.query_one("#daily", Checkbox)
        if box.disabled:
            self.notify("Daily deals are for the solitaires (press g to choose one).", severity="warning")
            return
        box.value = not box.value

    def action_toggle_rated(self) -> None:
        box = self.query_one("#rated", Checkbox)
        if box.disabled:
            self.notify("Ratings are for the two-player games (press g to choose one).", severity="warning")
            return
        box.value = not box.value

    def rated(self) -> bool:
        """Whether a two-player room is to be rated (the server rates only players with a key)."""
        box = self.query_one("#rated", Checkbox)
        return box.value and not box.disabled

    def action_create(self) -> None:
        """Create a room of the chosen game; the daily box goes off (the day's deal is played once, not every game)."""
        self.post_message(CreateRoom(self.chosen_game(), daily=self.daily(), rated=self.rated()))
        self.query_one("#daily", Checkbox).value = False

    # -- play now: matchmaking ------------------------------------------------------

    def action_play_now(self, computer: bool = False) -> None:
        """Queue for the chosen two-player game; with ``computer``, casual and a computer after ``COMPUTER_AFTER`` s."""
        game = self.chosen_game()
        if game in SOLITAIRES:
            self.notify("Play now pairs two players (press g to choose a two-player game).", severity="warning")
            return
        self.post_message(PlayNow(game, COMPUTER_AFTER if computer else None))

    def action_cancel_play_now(self) -> None:
        if self.waiting_for:
            self.post_message(CancelPlayNow(self.waiting_for))

    def queued(self, reply: dict[str, Any]) -> None:
        """The server took our ticket: show the wait."""
        self.waiting_for = str(reply.get("game", ""))
        self.waiting_since = clock.monotonic()
        rated = "rated" if reply.get("rated") else "casual"
        after = reply.get("computer_after")
        computer = f" · computer after {after} s" if isinstance(after, int) else ""
        self.waiting_note = f"{rated} · rating {reply.get('rating', 1500):g} · {reply.get('waiting', 1)} in the pool{computer}"
        self._show_wait()

    def stop_waiting(self) -> None:
        self.waiting_for = ""
        self._show_wait()

    def _show_wait(self) -> None:
        if not self.is_mounted:
            return
        line = self.query_one("#waiting", Static)
        line.set_class(not self.waiting_for, "-idle")
        if not self.waiting_for:
            line.update("")
            return
        title = next((t for name, t, _ in GAME_CHOICES if name == self.waiting_for), self.waiting_for)
        waited = int(clock.monotonic() - self.waiting_since)
        line.update(f"Finding a {title} opponent… {waited // 60}:{waited % 60:02d} waited · {self.waiting_note} · Esc cancels")

    def action_versus(self, level: str) -> None:
        """Create a room of the chosen two-player game and have a bot of ``level`` take the other seat."""
        if self.chosen_game() in SOLITAIRES:
            self.notify("The computer plays the two-player games (press g to choose one).", severity="warning")
            return
        self.post_message(CreateRoom(self.chosen_game(), bot=level))

    @on(Button.Pressed, "#scores")
    def _scores_pressed(self) -> None:
        self.action_scores()

    def action_scores(self) -> None:
        self.app.push_screen(ScoresScreen())

    def action_leaderboard(self) -> None:
        self.app.push_screen(LeaderboardScreen())

    def action_events(self) -> None:
        """Open the events screen (tournaments and solitaire events)."""
        self.post_message(OpenEvents())

    def held_running(self) -> list[str]:
        """Rooms where we hold a seat and the match is not over (quitting leaves the other players waiting)."""
        return [str(r["room"]) for r in self.rooms if r["room"] in self.held and r.get("status") != "over"]

    def action_quit(self) -> None:
        """Quit; while we hold a seat in a running room, ask first."""
        rooms = self.held_running()
        if not rooms:
            self.app.exit()
            return
        where = f"room #{rooms[0]}" if len(rooms) == 1 else f"{len(rooms)} rooms (" + ", ".join(f"#{r}" for r in rooms) + ")"

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(ConfirmScreen(QUIT_QUESTION.format(rooms=where)), answered)

    def action_refresh(self) -> None:
        self.post_message(RefreshRooms())

    def show_your_rooms(self, rooms: list[tuple[Any, dict[str, Any] | None]], checked: bool) -> None:
        """The seats we hold; if the client started holding some in running rooms, the focus goes to them (Enter
        resumes). Finished rooms are listed but do not take the focus from the room list."""
        yours = self.query_one("#yours", YourRoomsList)
        yours.checked = checked
        yours.rooms = tuple(rooms)
        running = [seat for seat, summary in rooms if summary is not None and summary.get("status") != "over"]
        if checked and not self.yours_shown:
            self.yours_shown = True
            if running and self.is_current:
                yours.focus()

    def action_your_rooms(self) -> None:
        """Move to "your rooms" (and back to the room list)."""
        yours = self.query_one("#yours", YourRoomsList)
        if not yours.rooms:
            self.notify("You hold no seat in any room.", severity="warning")
        elif yours.has_focus:
            self.query_one("#rooms", DataTable).focus()
        else:
            yours.focus()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(HELP))
