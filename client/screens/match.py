"""The Creature Wars table, for a seated player or (without a hand) for a spectator.

The app sets :attr:`MatchScreen.view` with each view the server sends; every widget is
redrawn from it. What may be locked in comes from ``view["legal"]`` alone.
"""
from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from client.messages import Decide, LeaveRoom
from client.render import legal_slots, player_name, status_line
from client.screens.dialogs import ConfirmScreen, HelpScreen
from client.widgets import (
    Banner,
    DuelPanel,
    EmpirePanel,
    EventLog,
    HandPanel,
    StatusLine,
    TableInfo,
    WitchPanel,
    set_empire,
)

__all__ = ["SPECTATOR_BANNER", "MatchScreen"]

SPECTATOR_BANNER = "spectating: you see only public information"

HELP = """\
[b]Creature Wars[/b]

Each turn both players lock in one card face down; then both are revealed.
Power = base strength {b} + level, +3 when your Power Type beats theirs
(Ancient > Fire > Nightmare > Holy > Ancient). The loser's Empire takes the
losing card's base strength (witches differ: select one and press w);
a tie sends both cards back with a cooldown.

  1-9         select the n-th card of your hand
  ← → h l     move the selection (also ↑ ↓ j k)
  Enter       lock in the selected card
  w           show / hide the selected witch's rules
  ?           this help
  q / Esc     leave the table (asks first while you play)

Dimmed cards cannot be played now; ": (n)" after a card is its cooldown.
"""


class MatchScreen(Screen[None]):
    """One Creature Wars room: both Empires, the last duel, your hand, the log and whose move it is."""

    DEFAULT_CSS = """
    MatchScreen #body { height: 1fr; }
    MatchScreen #table { height: 1fr; width: 1fr; }
    MatchScreen #hand-title { height: 1; padding: 0 1; text-style: bold; }
    MatchScreen.-spectator #hand-title, MatchScreen.-spectator HandPanel { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(1)", "pick", key_display="1-9"),
        *(Binding(str(n), f"pick({n})", "pick", show=False) for n in range(2, 10)),
        Binding("left,h,up,k", "move(-1)", "move", show=False),
        Binding("right,l,down,j", "move(1)", "move", show=False),
        Binding("enter", "lock_in", "lock in"),
        Binding("w", "witch", "witch text"),
        Binding("question_mark", "help", "help"),
        Binding("q", "leave", "leave"),
        Binding("escape", "back", "back", show=False),
    ]

    view: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    version: reactive[int] = reactive(-1)
    selected: reactive[int] = reactive(0)
    free_seats: reactive[int] = reactive(0)
    over: reactive[dict[str, Any] | None] = reactive(None)
    notice: reactive[str] = reactive("")

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__()
        self.room = room
        self.game = game
        self.spectator = spectator
        self.turn_seen: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        yield Banner(id="spectating")
        with Horizontal(id="body"):
            with Vertical(id="table"):
                yield EmpirePanel(id="top")
                yield TableInfo(id="info")
                yield DuelPanel(id="duel")
                yield EmpirePanel(id="bottom")
                yield Static("Your hand", id="hand-title")
                yield HandPanel(id="hand")
                yield EventLog(id="log", max_lines=500, wrap=True)
            yield WitchPanel(id="witch")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.spectator, "-spectator")
        self.query_one("#spectating", Banner).message = SPECTATOR_BANNER if self.spectator else ""
        where = f"You watch room #{self.room} as a spectator." if self.spectator else f"You sit in room #{self.room}."
        self.query_one("#log", EventLog).add(where, style="dim")
        self.title = f"cardroom · {'spectating' if self.spectator else 'playing'} room #{self.room}"
        self._refresh_status()

    # -- what the app feeds in ---------------------------------------------------

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view from the server: log its events, then redraw everything from it."""
        log = self.query_one("#log", EventLog)
        for event in events:
            text = event.get("text")
            if text:
                log.add(str(text), style="bold" if event.get("kind") in ("reveal", "over", "mayhem") else "")
        if version > 0 or view.get("turn", 0) > 1:
            self.free_seats = 0
        self.version = version
        self.view = view

    def match_over(self, outcome: dict[str, Any], seed: int | None, commitment: str) -> None:
        """The match_over message: log the outcome and the revealed seed (checkable against the commitment)."""
        self.over = {"outcome": outcome}
        log = self.query_one("#log", EventLog)
        log.add(f"Match over: {outcome.get('detail', outcome.get('reason', ''))}.", style="bold")
        if seed is not None:
            log.add(f"Seed {seed} revealed (commitment {commitment[:16]}…).", style="dim")

    # -- drawing -----------------------------------------------------------------

    def watch_view(self, view: dict[str, Any] | None) -> None:
        if view is None:
            return
        own = view.get("seat")
        top, bottom = (0, 1) if own is None else (1 - own, own)
        set_empire(self.query_one("#top", EmpirePanel), view, top)
        set_empire(self.query_one("#bottom", EmpirePanel), view, bottom)
        self.query_one("#info", TableInfo).info = self._info(view)
        duel = self.query_one("#duel", DuelPanel)
        duel.order = (top, bottom)
        duel.titles = ((player_name(0), player_name(1)) if own is None
                       else (f"Opponent ({player_name(top)})", f"You ({player_name(own)})"))
        duel.duel = view.get("last_duel")
        hand = self.query_one("#hand", HandPanel)
        cards = self._cards(view)
        playable = legal_slots(view)
        if view.get("turn") != self.turn_seen or not 0 <= self.selected < max(len(cards), 1):
            self.turn_seen = view.get("turn")
            self.selected = min(playable) if playable else 0
        hand.cards = cards
        hand.playable = frozenset(playable)
        hand.locked_slot = view.get("locked_slot")
        hand.selected = self.selected if cards and own is not None else None
        self._refresh_witch()
        self._refresh_status()

    def watch_selected(self, selected: int) -> None:
        if self.is_mounted and self.view is not None and self.view.get("seat") is not None:
            self.query_one("#hand", HandPanel).selected = selected
            self._refresh_witch()

    def watch_free_seats(self) -> None:
        self._refresh_status()

    def watch_over(self) -> None:
        self._refresh_status()

    def watch_notice(self, notice: str) -> None:
        self.query_one("#notice", Banner).message = notice

    def _info(self, view: dict[str, Any]) -> str:
        own = view.get("seat")
        first = int(view.get("first_drawer", 0))
        if own is None:
            drawer = f"{player_name(first)} draws first"
        else:
            drawer = "you draw first" if first == own else "opponent draws first"
        info = f"deck {view.get('deck')} · turn {view.get('turn')} · {drawer}"
        if view.get("final_duel"):
            info += " · final duel, then MAYHEM"
        return info

    @staticmethod
    def _cards(view: dict[str, Any]) -> list[dict[str, Any]]:
        own = view.get("seat")
        if own is None:
            return []
        return list(view["hands"][own].get("cards") or [])

    def _refresh_status(self) -> None:
        if self.is_mounted:
            self.query_one("#status", StatusLine).status = status_line(self.view, free_seats=self.free_seats,
                                                                        over=self.over)

    def _selected_card(self) -> dict[str, Any] | None:
        cards = self._cards(self.view) if self.view is not None else []
        return cards[self.selected] if 0 <= self.selected < len(cards) else None

    def _refresh_witch(self) -> None:
        panel = self.query_one("#witch", WitchPanel)
        if panel.has_class("-open"):
            panel.card = self._selected_card()

    # -- keys --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Spectators have no hand: the card keys are off (and out of the footer)."""
        return not (self.spectator and action in ("pick", "move", "lock_in", "witch"))

    def action_pick(self, n: int) -> None:
        self.app.clear_notifications()
        count = len(self._cards(self.view)) if self.view is not None else 0
        if 1 <= n <= count:
            self.selected = n - 1
        elif count:
            self.notify(f"Your hand has {count} card(s).", severity="warning")

    def action_move(self, step: int) -> None:
        count = len(self._cards(self.view)) if self.view is not None else 0
        if count:
            self.selected = (self.selected + step) % count

    def action_lock_in(self) -> None:
        """Send the selected card only if the view lists it as a legal play."""
        self.app.clear_notifications()
        view = self.view
        if view is None or view.get("seat") is None:
            self.notify("Spectators watch; they do not play.", severity="warning")
            return
        decision = {"kind": "play", "slot": self.selected}
        if decision in (view.get("legal") or []):
            self.post_message(Decide(self.room, decision))
            return
        if view.get("outcome") or self.over:
            why = "The match is over."
        elif view.get("locked_card"):
            why = "You have already locked in a card this turn."
        elif self._selected_card() is None:
            why = "No card selected."
        else:
            why = "That card cannot be played now."
        self.notify(why, severity="warning")

    def action_witch(self) -> None:
        panel = self.query_one("#witch", WitchPanel)
        card = self._selected_card()
        if panel.has_class("-open"):
            panel.remove_class("-open")
            return
        if card is None or card.get("kind") != "witch":
            self.notify("The selected card is not a witch.", severity="warning")
            return
        panel.add_class("-open")
        panel.card = card

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(HELP))

    def action_back(self) -> None:
        panel = self.query_one("#witch", WitchPanel)
        if panel.has_class("-open"):
            panel.remove_class("-open")
        else:
            self.action_leave()

    def action_leave(self) -> None:
        """Leave the room; a seated player in a running match is asked first."""
        view = self.view
        playing = view is not None and view.get("seat") is not None and not (view.get("outcome") or self.over)
        if not playing:
            self.post_message(LeaveRoom(self.room))
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.post_message(LeaveRoom(self.room))

        self.app.push_screen(ConfirmScreen(f"Leave room #{self.room}?\nYour seat stays yours: "
                                           "Enter on it in the lobby takes it back."), answered)
