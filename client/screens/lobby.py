"""The lobby: the server's rooms in a table; creating a room of any game (a solitaire's daily deal too); the high scores."""
from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Label, Select, Static

from client.clock import clock_setting
from client.messages import CreateRoom, JoinRoom, RefreshRooms, SpectateRoom
from client.scores import SOLITAIRES
from client.screens.dialogs import HelpScreen
from client.screens.high_scores import ScoresScreen
from client.screens.your_rooms import YourRoomsList
from client.widgets import Banner

__all__ = ["GAME_CHOICES", "LobbyScreen", "room_row"]

GAME_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("creature_wars", "Creature Wars", "two players · 30 HP, 5 cards, 10 witches"),
    ("fairy_tableau", "Fairy Tableau", "solitaire · one fairy (K♥), fizzles cost mana"),
    ("queens_challenge", "Queen's Challenge", "solitaire · two full decks"),
    ("fairy_meat", "Fairy Meat", "two players · a fairy duel, 54 cards with Jokers, Nasty Hits and Fungus"),
)
"""Games the create pane offers: wire name, title, the default options in words."""

AUTO_REFRESH = 5.0
"""Seconds between automatic refreshes while the lobby is on screen (the server does not push the list)."""

HELP = """\
[b]Lobby[/b]

  ↑ ↓        move through the rooms
  Enter      sit in the selected room (or take back your seat)
  s          spectate the selected room
  g          choose the game to create (Creature Wars, Fairy Tableau, Queen's Challenge,
             Fairy Meat)
  d          daily deal on / off (solitaires: today's seed, the same for everyone)
  c          create a room of the chosen game and sit in it
  t          high scores of the solitaires (all time and today)
  r          refresh the list
  y          your rooms: the seats you hold (kept across restarts); Enter there takes one back
  ?          this help
  q          quit
"""


def room_row(room: dict[str, Any], held: bool) -> tuple[str, str, str, str, str, str]:
    """One table row: ``#id``, game title, ``taken/seats``, the players' names ("—" for a free seat), the score
    so far (solitaires), and the status (whether a seat is ours, daily or scenario, watchers)."""
    status = str(room.get("status", ""))
    if held:
        status += " · your seat"
    ranked = str(room.get("ranked") or "")
    if ranked.startswith("daily:"):
        status += " · daily"
    elif room.get("scenario"):
        status += " · scenario"
    if room.get("spectators"):
        status += f" · {room['spectators']} watching"
    clock = clock_setting(room.get("clock"))
    if clock:
        status += f" · ⏱ {clock}"
    players = ", ".join(str(name) or "—" for name in room.get("players") or ())
    score = room.get("score")
    return (f"#{room['room']}", str(room.get("title") or room.get("game", "")),
            f"{room.get('taken', 0)}/{room.get('seats', 0)}", players, "" if score is None else str(score), status)


class LobbyScreen(Screen[None]):
    """Rooms to join or watch; creating a room sits you in it."""

    DEFAULT_CSS = """
    LobbyScreen #lobby { height: 1fr; }
    LobbyScreen #rooms-pane { width: 2fr; border: round $primary; border-title-align: left; }
    LobbyScreen #create-pane { width: 1fr; min-width: 30; border: round $secondary; padding: 0 1; }
    LobbyScreen #rooms { height: 1fr; }
    LobbyScreen #hint { height: auto; color: $text-muted; padding: 0 1; }
    LobbyScreen #create-pane Button { width: 100%; margin-top: 1; }
    LobbyScreen #create-pane Select { margin-top: 1; }
    LobbyScreen #options { height: auto; color: $text-muted; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "join"),
        Binding("s", "spectate", "spectate"),
        Binding("c", "create", "create and sit"),
        Binding("g", "next_game", "game"),
        Binding("d", "toggle_daily", "daily"),
        Binding("t", "scores", "scores"),
        Binding("r", "refresh", "refresh"),
        Binding("y", "your_rooms", "your rooms", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "app.quit", "quit"),
    ]

    rooms: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    held: reactive[frozenset[str]] = reactive(frozenset())
    notice: reactive[str] = reactive("")
    yours_shown = False
    """Whether "your rooms" was filled once (only a client that starts with held seats moves the focus there)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        with Horizontal(id="lobby"):
            with Vertical(id="rooms-pane"):
                yield YourRoomsList(id="yours")
                table: DataTable[str] = DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
                yield table
                yield Static("Enter join · s spectate · r refresh", id="hint")
            with Vertical(id="create-pane"):
                yield Label("[b]Create[/b] (g game · d daily · c create)")
                yield Select([(title, name) for name, title, _ in GAME_CHOICES], value=GAME_CHOICES[0][0],
                             allow_blank=False, id="game")
                yield Static(GAME_CHOICES[0][2], id="options")
                yield Checkbox("Daily deal (solitaires)", id="daily", disabled=True)
                yield Button("Create and sit", id="create", variant="primary")
                yield Button("High scores (t)", id="scores")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rooms-pane").border_title = "Rooms"
        table = self.query_one("#rooms", DataTable)
        table.add_columns("room", "game", "seats", "players", "score", "status")
        table.focus()
        self.set_interval(AUTO_REFRESH, self._refresh_tick)

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
        table: DataTable[str] = self.query_one("#rooms", DataTable)
        current = self.selected_room()
        table.clear()
        for room in self.rooms:
            table.add_row(*room_row(room, room["room"] in self.held), key=str(room["room"]))
        if current is not None and any(r["room"] == current for r in self.rooms):
            table.move_cursor(row=table.get_row_index(current))
        hint = self.query_one("#hint", Static)
        if self.rooms:
            hint.update("Enter join · s spectate · r refresh")
        else:
            hint.update("No rooms yet: press c to create one · r refresh")

    def selected_room(self) -> str | None:
        """The room id under the table's cursor, if any."""
        table: DataTable[str] = self.query_one("#rooms", DataTable)
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
        """Whether the daily deal is ticked (and applies: the chosen game is a solitaire)."""
        box = self.query_one("#daily", Checkbox)
        return box.value and not box.disabled

    @on(Select.Changed, "#game")
    def _game_changed(self) -> None:
        game = self.chosen_game()
        words = next((about for name, _, about in GAME_CHOICES if name == game), "")
        box = self.query_one("#daily", Checkbox)
        box.disabled = game not in SOLITAIRES
        if box.disabled:
            box.value = False
        self.query_one("#options", Static).update(words + ("\ndaily: today's seed, default options" if box.value else ""))

    @on(Checkbox.Changed, "#daily")
    def _daily_changed(self) -> None:
        self._game_changed()

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

    def action_create(self) -> None:
        self.post_message(CreateRoom(self.chosen_game(), daily=self.daily()))

    @on(Button.Pressed, "#scores")
    def _scores_pressed(self) -> None:
        self.action_scores()

    def action_scores(self) -> None:
        self.app.push_screen(ScoresScreen())

    def action_refresh(self) -> None:
        self.post_message(RefreshRooms())

    def show_your_rooms(self, rooms: list[tuple[Any, dict[str, Any] | None]], checked: bool) -> None:
        """The seats we hold; if the client started holding some, the focus goes to them (Enter resumes)."""
        yours = self.query_one("#yours", YourRoomsList)
        first, self.yours_shown = not self.yours_shown, True
        yours.checked = checked
        yours.rooms = tuple(rooms)
        if rooms and first and self.is_current:
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
