"""The lobby: the server's rooms in a table, and a button that creates a Creature Wars room and sits in it."""
from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Label, Static

from client.messages import CreateRoom, JoinRoom, RefreshRooms, SpectateRoom
from client.screens.dialogs import HelpScreen
from client.widgets import Banner

__all__ = ["LobbyScreen", "room_row"]

AUTO_REFRESH = 5.0
"""Seconds between automatic refreshes while the lobby is on screen (the server does not push the list)."""

HELP = """\
[b]Lobby[/b]

  ↑ ↓        move through the rooms
  Enter      sit in the selected room (or take back your seat)
  s          spectate the selected room
  c          create a Creature Wars room and sit in it
  r          refresh the list
  ?          this help
  q          quit
"""


def room_row(room: dict[str, Any], held: bool) -> tuple[str, str, str, str]:
    """One table row: ``#id``, game title, ``taken/seats``, status (with watchers and whether a seat is ours)."""
    status = str(room.get("status", ""))
    if room.get("spectators"):
        status += f" · {room['spectators']} watching"
    if held:
        status += " · your seat"
    return (f"#{room['room']}", str(room.get("title") or room.get("game", "")),
            f"{room.get('taken', 0)}/{room.get('seats', 0)}", status)


class LobbyScreen(Screen[None]):
    """Rooms to join or watch; creating a room sits you in it."""

    DEFAULT_CSS = """
    LobbyScreen #lobby { height: 1fr; }
    LobbyScreen #rooms-pane { width: 2fr; border: round $primary; border-title-align: left; }
    LobbyScreen #create-pane { width: 1fr; min-width: 30; border: round $secondary; padding: 0 1; }
    LobbyScreen #rooms { height: 1fr; }
    LobbyScreen #hint { height: auto; color: $text-muted; padding: 0 1; }
    LobbyScreen #create-pane Button { width: 100%; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "join"),
        Binding("s", "spectate", "spectate"),
        Binding("c", "create", "create and sit"),
        Binding("r", "refresh", "refresh"),
        Binding("question_mark", "help", "help"),
        Binding("q", "app.quit", "quit"),
    ]

    rooms: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    held: reactive[frozenset[str]] = reactive(frozenset())
    notice: reactive[str] = reactive("")

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        with Horizontal(id="lobby"):
            with Vertical(id="rooms-pane"):
                table: DataTable[str] = DataTable(id="rooms", cursor_type="row", zebra_stripes=True)
                yield table
                yield Static("Enter join · s spectate · r refresh", id="hint")
            with Vertical(id="create-pane"):
                yield Label("[b]Create[/b]")
                yield Static("Game: Creature Wars\nOptions: standard (30 HP, 5 cards, 10 witches)")
                yield Button("Create and sit", id="create", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rooms-pane").border_title = "Rooms"
        table = self.query_one("#rooms", DataTable)
        table.add_columns("room", "game", "players", "status")
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

    def action_create(self) -> None:
        self.post_message(CreateRoom("creature_wars"))

    def action_refresh(self) -> None:
        self.post_message(RefreshRooms())

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(HELP))
