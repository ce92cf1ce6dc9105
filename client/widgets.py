"""The widgets of the Creature Wars table, each driven by reactive attributes the match screen sets.

They only draw what they are given (see :mod:`client.render`); none of them knows a rule.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, RichLog, Static

from client.render import (
    LOCK,
    duel_renderable,
    hand_renderable,
    hp_bar,
    modifiers_renderable,
    player_name,
    revealed_renderable,
    witch_renderable,
)

__all__ = [
    "Listing",
    "Banner",
    "DuelPanel",
    "EmpirePanel",
    "EventLog",
    "HandPanel",
    "ModifiersPanel",
    "StatusLine",
    "TableInfo",
    "WitchPanel",
    "empire_title",
    "seat_label",
    "set_empire",
]


class Banner(Static):
    """A one-line notice across the screen (spectating, connection lost); hidden when empty."""

    DEFAULT_CSS = """
    Banner { width: 1fr; height: auto; padding: 0 1; background: $warning 30%; color: $text; text-style: bold; }
    Banner.-empty { display: none; }
    """

    message: reactive[str] = reactive("")

    def watch_message(self, message: str) -> None:
        self.set_class(not message, "-empty")
        self.update(Text(message))  # plain text: a notice may quote a player's name


class EmpirePanel(Static):
    """One player's Empire: name, HP bar, hand size and the lock glyph; nothing else of the hand."""

    DEFAULT_CSS = """
    EmpirePanel { height: auto; padding: 0 1; background: $boost; }
    """

    title: reactive[str] = reactive("")
    hp: reactive[int] = reactive(0)
    max_hp: reactive[int] = reactive(30)
    hand: reactive[int] = reactive(0)
    locked: reactive[bool] = reactive(False)
    passed: reactive[bool] = reactive(False)
    dealt: reactive[bool] = reactive(False)
    """False until the first view: a room waiting for players has no deal, so no Empire or hand to show."""

    def render(self) -> Text:
        out = Text()
        if not self.dealt:
            out.append(self.title or "Empire", style="bold")
            out.append(" ─ no cards yet: the deal comes once every seat is taken", style="italic")
            return out
        out.append(self.title, style="bold")
        out.append(" ─ Empire ")
        out.append_text(hp_bar(self.hp, self.max_hp, 15 if self.size.width >= 72 else 8))
        out.append(f" ─ hand {self.hand}")
        if self.locked:
            out.append(f" ─ {LOCK} locked in", style="bold")
        elif self.passed:
            out.append(" ─ passes (no playable card)", style="italic")
        return out


class Listing(DataTable[Any]):
    """A table of rows refilled as a whole (rooms, events), drawn anew once it has measured them. A DataTable
    measures new rows' columns when idle, but lines it drew before that stay cached under the same key, so it
    went on showing the old widths (names cut to the headers' width) until something else changed (Textual
    issue #4470)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refilled = False

    def refill(self, rows: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Replace every row with ``rows`` (key, cells)."""
        self.clear()
        for key, cells in rows:
            self.add_row(*cells, key=key)
        self.refilled = True

    def on_idle(self) -> None:
        # runs before DataTable's own idle handler measures the rows: draw anew right after it
        if self.refilled:
            self.refilled = False
            self.call_next(self.notify_style_update)  # drops the cached lines and cells, and repaints


class TableInfo(Static):
    """Deck count, turn, who draws first, and the final-duel warning."""

    DEFAULT_CSS = """
    TableInfo { height: 1; content-align: center middle; width: 1fr; }
    """

    info: reactive[str] = reactive("")

    def render(self) -> Text:
        return Text(self.info)


class DuelPanel(Static):
    """The last duel revealed: both cards in notation with their power, and the summary.

    While a witch's question interrupts a duel, the two cards revealed (``revealed``)
    are shown instead, so both players see what is at stake while one of them chooses.
    """

    DEFAULT_CSS = """
    DuelPanel { height: auto; padding: 0 1; }
    """

    duel: reactive[dict[str, Any] | None] = reactive(None, always_update=True, layout=True)
    revealed: reactive[list[dict[str, Any] | None] | None] = reactive(None, always_update=True, layout=True)
    order: reactive[tuple[int, int]] = reactive((1, 0))
    titles: reactive[tuple[str, str]] = reactive(("Opponent", "You"))
    names: reactive[tuple[str, str]] = reactive(("", ""))
    """Who each seat is in the damage lines ("You", "Opponent"; "" for the server's "Player n")."""
    compact: reactive[bool] = reactive(False, layout=True)
    """One line per card instead of two boxes (a short terminal)."""

    def render(self) -> Any:
        if self.revealed:
            return revealed_renderable(self.revealed, self.order, self.titles)
        return duel_renderable(self.duel, self.order, self.titles, compact=self.compact, names=self.names)


class ModifiersPanel(Static):
    """The effects in play (a witch's lasting rules): each one's text, whose it is, until when; hidden when none."""

    DEFAULT_CSS = """
    ModifiersPanel { height: auto; padding: 0 1; border-top: dashed $secondary; }
    ModifiersPanel.-empty { display: none; }
    """

    modifiers: reactive[list[dict[str, Any]]] = reactive(list, always_update=True, layout=True)
    seat: reactive[int | None] = reactive(None)
    names: tuple[str, ...] = ()

    def watch_modifiers(self, modifiers: list[dict[str, Any]]) -> None:
        self.set_class(not modifiers, "-empty")

    def render(self) -> Text:
        return modifiers_renderable(self.modifiers, self.seat, self.names)


class HandPanel(Static):
    """Your hand: numbered cards, the selected one highlighted, the unplayable ones dimmed; a click on a card's line
    says which card it was (:class:`HandPanel.Tapped`)."""

    class Tapped(Message):
        """A card of the hand was clicked: its slot (from 0)."""

        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    DEFAULT_CSS = """
    HandPanel { height: auto; padding: 0 1; }
    """

    cards: reactive[list[dict[str, Any]]] = reactive(list, always_update=True, layout=True)
    selected: reactive[int | None] = reactive(None)
    playable: reactive[frozenset[int]] = reactive(frozenset())
    locked_slot: reactive[int | None] = reactive(None)
    blocked: reactive[tuple[str | None, ...]] = reactive((), layout=True)
    """Per card, why the server says it may not be played now (None: it may)."""
    rules: reactive[bool] = reactive(True, layout=True)
    """Whether a selected witch's rules are written under it (not on a short terminal: ``w`` shows them)."""

    def render(self) -> Text:
        return hand_renderable(self.cards, selected=self.selected, playable=set(self.playable),
                               locked_slot=self.locked_slot, rules=self.rules, blocked=self.blocked)

    def on_click(self, event: Click) -> None:
        slot = event.style.meta.get("slot")
        if isinstance(slot, int):
            self.post_message(self.Tapped(slot))


class WitchPanel(Static):
    """A side panel with the selected witch's full rules text; toggled with ``w``."""

    DEFAULT_CSS = """
    WitchPanel { width: 40; height: 1fr; border-left: solid $accent; padding: 0 1; display: none; }
    WitchPanel.-open { display: block; }
    """

    card: reactive[dict[str, Any] | None] = reactive(None, always_update=True)

    def render(self) -> Any:
        return witch_renderable(self.card)


class EventLog(RichLog):
    """The event texts the server sent with each view, oldest first; never takes focus, so keys reach the screen."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; min-height: 3; border-top: solid $primary; background: $surface; }
    """
    can_focus = False

    def add(self, text: str, style: str = "") -> None:
        self.write(Text(text, style=style))


class StatusLine(Static):
    """Whose move it is, in one line."""

    DEFAULT_CSS = """
    StatusLine { height: 1; padding: 0 1; background: $primary 40%; text-style: bold; }
    StatusLine.-cue { background: $warning; }
    """

    FLASH = 0.8
    """Seconds the line stays lit after a cue."""

    status: reactive[str] = reactive("")

    def flash(self) -> None:
        """Light the line up for a moment (the visual half of the your-move / reveal cue)."""
        self.add_class("-cue")
        self.set_timer(self.FLASH, lambda: self.remove_class("-cue"))

    def render(self) -> Text:
        return Text(self.status)  # plain text: a status may name a player


def seat_label(seat: int, names: Sequence[str] = ()) -> str:
    """A seat's player name as the lobby lists it, or "Player n" when unknown."""
    return (names[seat] if 0 <= seat < len(names) else "") or player_name(seat)


def empire_title(seat: int, own: int | None, names: Sequence[str] = ()) -> str:
    """"You (ada)", "Opponent (bob)", or just "bob" for spectators ("Player n" for a name not known)."""
    if own is None:
        return seat_label(seat, names)
    return f"{'You' if seat == own else 'Opponent'} ({seat_label(seat, names)})"


def set_empire(panel: EmpirePanel, view: Mapping[str, Any], seat: int, names: Sequence[str] = ()) -> None:
    """Fill an Empire panel from the public part of a view."""
    panel.title = empire_title(seat, view.get("seat"), names)
    panel.hp = int(view["hp"][seat])
    panel.max_hp = int(view.get("max_hp") or 30)
    panel.hand = int(view["hands"][seat]["count"])
    panel.locked = bool((view.get("locked") or [False, False])[seat])
    panel.passed = bool((view.get("passed") or [False, False])[seat])
    panel.dealt = True
