"""The replay viewer: a finished match stepped through decision by decision, as each seat saw it or in full.

Built from the match record (the ``export`` reply) by :class:`client.replay.Replay`, which
rebuilds every state with the pure engine. The table is drawn with the match screens' own
renderers (client/render.py, fairy_meat.py, tableau.py, queens.py). A seat's view is
``game.view(state, seat)`` and the events as that seat was told them, nothing more; the full
view is the spectators' table with every seat's hand, each from that seat's own view.

Keys: → / ← one decision, Home / End the deal and the last decision, n / p the next or
previous duel (Creature Wars) or attack (Fairy Meat), v the next view (full, then each
seat's), Esc or q closes.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from client import render
from client.replay import MARKS, Replay
from client.screens import fairy_meat as fm
from client.screens import queens, tableau
from client.screens.end import Ending, result_line

__all__ = ["BOARDS", "ReplayScreen", "board"]

Board = Callable[[Replay, int, int | None], RenderableType]


def _hand_title(replay: Replay, seat: int) -> Text:
    return Text(f"{replay.name(seat)}'s hand ({render.player_name(seat)})", style="bold")


def _creature_wars(replay: Replay, n: int, seat: int | None) -> RenderableType:
    """Both Empires and the last duel; the hand of the seat viewed, or in full both hands side by side."""
    view = replay.view(n, seat)
    top, bottom = (0, 1) if seat is None else (1 - seat, seat)

    def empire(s: int) -> Text:
        line = Text(f"{replay.name(s)} ({render.player_name(s)})", style="bold")
        line.append(" ─ Empire ")
        line.append_text(render.hp_bar(int(view["hp"][s]), int(view.get("max_hp") or 30)))
        line.append(f" ─ hand {view['hands'][s]['count']}")
        if (view.get("locked") or [False, False])[s]:
            line.append(f" ─ {render.LOCK} locked in", style="bold")
        return line

    def hand(s: int) -> RenderableType:
        own = replay.view(n, s)
        cards = list(own["hands"][s].get("cards") or [])
        return Group(_hand_title(replay, s),
                     render.hand_renderable(cards, selected=None, playable=set(), locked_slot=own.get("locked_slot")))

    titles = (f"{replay.name(top)}", f"{replay.name(bottom)}")
    parts: list[RenderableType] = [empire(top), render.duel_renderable(view.get("last_duel"), (top, bottom), titles),
                                   empire(bottom)]
    if seat is not None:
        parts.append(hand(seat))
    else:
        grid = Table.grid(padding=(0, 2), expand=True)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_row(hand(0), hand(1))
        parts.append(grid)
    if view.get("modifiers"):
        parts.append(render.modifiers_renderable(list(view["modifiers"]), seat))
    return Group(*parts)


def _fairy_meat(replay: Replay, n: int, seat: int | None) -> RenderableType:
    """The compact Fairy Meat table: fairies and hands (each hand from its own seat's view in full), combat, reveal."""
    view = replay.view(n, seat)
    top, bottom = (0, 1) if seat is None else (1 - seat, seat)

    def side(s: int) -> Text:
        body = Text("\n").join([fm.compact_fairy(view, fid) for fid in fm.band_of(view, s)])
        body.append("\n")
        body.append_text(fm.hand_renderable(view if seat is not None else replay.view(n, s), s, (), True))
        return body

    return Group(fm.fairy_meat_info(view, True), side(top), fm.combat_renderable(view, (), True),
                 fm.reveal_renderable(view.get("last"), seat, (), True), side(bottom), fm.heap_renderable(view, True))


def _fairy_tableau(replay: Replay, n: int, seat: int | None) -> RenderableType:
    view = replay.view(n, 0 if seat is None else seat)
    return Group(tableau.tableau_info(view), Text("Tableau", style="bold"),
                 tableau.tableau_renderable(list(view.get("tableau") or [])),
                 tableau.discard_renderable(list(view.get("discard") or [])))


def _queens(replay: Replay, n: int, seat: int | None) -> RenderableType:
    view = replay.view(n, 0 if seat is None else seat)
    return Group(queens.queens_info(view), queens.in_play_renderable(view),
                 Text("Power piles and summoning zone", style="bold"), queens.piles_renderable(view),
                 queens.hand_renderable(view))


BOARDS: dict[str, Board] = {
    "creature_wars": _creature_wars,
    "fairy_meat": _fairy_meat,
    "fairy_tableau": _fairy_tableau,
    "queens_challenge": _queens,
}
"""How each game's table is drawn at one step, for one seat (None: the full view)."""


def board(replay: Replay, n: int, seat: int | None) -> RenderableType:
    """The table of step ``n`` as ``seat`` saw it (None: in full)."""
    return BOARDS[replay.game.name](replay, n, seat)


class ReplayScreen(Screen[None]):
    """One finished match, stepped through; dismissed with Esc or q."""

    DEFAULT_CSS = """
    ReplayScreen #where { height: auto; max-height: 4; padding: 0 1; background: $boost; }
    ReplayScreen #board-pane { height: 1fr; }
    ReplayScreen #board { height: auto; padding: 0 1; }
    ReplayScreen #events { height: auto; max-height: 5; padding: 0 1; border-top: solid $primary; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "next", priority=True),
        Binding("left", "step(-1)", "back", priority=True),
        Binding("n", "mark(1)", "next duel"),
        Binding("p", "mark(-1)", "prev duel"),
        Binding("v", "switch_view", "view"),
        Binding("home", "go(0)", "first", show=False, priority=True),
        Binding("end", "go(-1)", "last", show=False, priority=True),
        Binding("l", "step(1)", "next", show=False),
        Binding("h", "step(-1)", "back", show=False),
        Binding("escape,q", "close", "close"),
    ]

    step: reactive[int] = reactive(0)
    seat: reactive[int | None] = reactive(None)
    """Whose view is shown: a seat, or None for the full view."""

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.views: tuple[int | None, ...] = (None, *range(replay.seats)) if replay.seats > 1 else (0,)
        self.set_reactive(ReplayScreen.seat, self.views[0])

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="where")
        with VerticalScroll(id="board-pane"):
            yield Static(id="board")
        yield Static(id="events")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"replay · {self.replay.game.title} · room #{self.replay.room}"
        self.draw()

    def watch_step(self) -> None:
        self.draw()

    def watch_seat(self) -> None:
        self.draw()

    def view_name(self) -> str:
        """Whose view is shown, in words."""
        if self.seat is None:
            return "full view: every hand"
        return f"{self.replay.name(self.seat)}'s view"

    def where(self) -> Text:
        """The decision number and the view; who decided what (another seat's choice stays hidden in a seat's
        view); at the last decision, the outcome."""
        replay, step = self.replay, self.replay.steps[self.step]
        line = Text(f"Decision {step.number}/{replay.last}", style="bold")
        if step.mark:
            line.append(" · ⚔ duel" if replay.game.name == "creature_wars" else " · ⚔ attack", style="bold")
        line.append(f" · {self.view_name()}", style="italic")
        line.append("\n")
        if step.seat is None:
            line.append("The deal.")
        else:
            line.append(f"{replay.name(step.seat)} ({render.player_name(step.seat)}): ", style="bold")
            kind = str((step.decision or {}).get("kind", "decides"))
            line.append(step.label if self.seat is None or self.seat == step.seat else f"{kind} (hidden from this view)")
        if step.number == replay.last and replay.outcome is not None:
            line.append("\n")
            line.append_text(self.outcome_text())
        return line

    def outcome_text(self) -> Text:
        """How the match ended: the end screen's words for a duel, the detail for a solitaire."""
        replay, outcome = self.replay, dict(self.replay.outcome or {})
        if replay.seats == 1:
            return Text(f"Over: {outcome.get('detail') or outcome.get('reason', '')}", style="bold")
        ending = Ending(replay.room, replay.game.name, outcome, replay.names, self.seat, None, "")
        return result_line(ending)

    def events_text(self) -> Text:
        """The events of this step as the view's seat was told them."""
        events = [e for e in self.replay.events(self.step, self.seat) if e.get("text")]
        if not events:
            return Text("(no events)" if self.step else "The cards are dealt.", style="italic")
        out = Text()
        for event in events:
            if out:
                out.append("\n")
            if "to" in event:  # the full view: a seat's own copy ("You …") says whose it is
                out.append(f"[{self.replay.name(int(event['to']))}] ", style="bold")
            out.append(str(event["text"]))
        return out

    def draw(self) -> None:
        if not self.query("#where"):  # not composed yet: on_mount draws
            return
        self.query_one("#where", Static).update(self.where())
        self.query_one("#board", Static).update(board(self.replay, self.step, self.seat))
        self.query_one("#events", Static).update(self.events_text())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No view switch for a solitaire, no duel jumps in a game without duels or attacks."""
        if action == "switch_view":
            return len(self.views) > 1
        if action == "mark":
            return self.replay.game.name in MARKS
        return True

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(self.replay.last, self.step + delta))

    def action_go(self, n: int) -> None:
        self.step = self.replay.last if n < 0 else min(n, self.replay.last)

    def action_mark(self, direction: int) -> None:
        found = self.replay.next_mark(self.step, direction)
        if found is None:
            self.notify("No further duel or attack that way." if direction > 0 else "No earlier duel or attack.",
                        title="replay")
            return
        self.step = found

    def action_switch_view(self) -> None:
        self.seat = self.views[(self.views.index(self.seat) + 1) % len(self.views)]

    def action_close(self) -> None:
        self.dismiss()

