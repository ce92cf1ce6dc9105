"""The lobby's "your rooms": the seats this player holds (kept on disk), checked against the server's ``my_rooms``.

Enter on one takes the seat back with its stored token; a fresh client starts with the
focus here, so resuming a match is one key.
"""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from client.connection import Seat
from client.messages import JoinRoom

__all__ = ["YourRoomsList", "your_room_label"]

TITLES = {"creature_wars": "Creature Wars", "fairy_meat": "Fairy Meat", "fairy_tableau": "Fairy Tableau",
          "queens_challenge": "Queen's Challenge"}


def your_room_label(seat: Seat, summary: dict[str, Any] | None, checked: bool) -> Text:
    """``R game · Pn · status vs name`` (short enough for 80 columns); "not listed" when ``my_rooms`` lacks it."""
    title = str((summary or {}).get("title") or TITLES.get(seat.game, seat.game or "?"))
    line = Text(seat.room, style="bold")
    line.append(f" {title} · P{seat.seat + 1}")
    if summary is None:
        if checked:
            line.append(" · not listed", style="dim")
        return line
    line.append(f" · {summary.get('status', '')}")
    names = [str(n) for n in summary.get("players") or ()]
    others = [n for i, n in enumerate(names) if i != seat.seat and n]
    if others:
        line.append(" vs ")
        line.append(", ".join(others))
    return line


class YourRoomsList(OptionList):
    """One line per held seat; Enter resumes it. Hidden while there is none."""

    DEFAULT_CSS = """
    YourRoomsList { height: auto; max-height: 6; display: none; border: round $success; }
    YourRoomsList:focus { border: round $accent; }
    YourRoomsList.-some { display: block; }
    """

    rooms: reactive[tuple[tuple[Seat, dict[str, Any] | None], ...]] = reactive((), always_update=True)
    checked: bool = False
    """Whether the server answered ``my_rooms`` (else a missing summary says nothing)."""

    def on_mount(self) -> None:
        self.border_title = "Your rooms (Enter resumes · y)"

    def watch_rooms(self, rooms: tuple[tuple[Seat, dict[str, Any] | None], ...]) -> None:
        highlighted = self.highlighted
        self.clear_options()
        self.add_options([Option(your_room_label(seat, summary, self.checked), id=seat.room) for seat, summary in rooms])
        self.set_class(bool(rooms), "-some")
        if rooms:
            self.highlighted = min(highlighted or 0, len(rooms) - 1)

    def room_ids(self) -> list[str]:
        return [seat.room for seat, _ in self.rooms]

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(JoinRoom(event.option.id))
