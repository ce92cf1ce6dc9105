"""The Creature Wars table, for a seated player or (without a hand) for a spectator.

The app sets :attr:`MatchScreen.view` with each view the server sends; every widget is
redrawn from it. What may be locked in comes from ``view["legal"]`` alone.
"""
from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer, Header, Static

from client import clock
from client.messages import Decide
from client.render import dealt_damage, legal_slots, status_line, with_names
from client.screens.dialogs import HelpScreen
from client.screens.duel import DUEL_HELP, DuelScreen
from client.screens.question import QuestionScreen
from client.screens.table import SPECTATOR_BANNER
from client.widgets import (
    Banner,
    DuelPanel,
    EmpirePanel,
    EventLog,
    HandPanel,
    ModifiersPanel,
    StatusLine,
    TableInfo,
    WitchPanel,
    seat_label,
    set_empire,
)

__all__ = ["SPECTATOR_BANNER", "MatchScreen"]

SHORT = 32
"""Terminals shorter than this get the short table."""

NOTATION = """
A card reads  Lvl.3 Fire Dragon {7}: Lvl.3 is its level, Fire its Power Type,
Dragon its tribe and {7} its base strength (its power is 7 + 3 = 10; when it
loses a duel, its Empire takes 7). A witch reads  Lvl.2 Blind Witch {3}.
": (2)" after a card: back in hand, it waits 2 more turns (its cooldown);
": (-)": it may never be played. "!" after a Power Type, a tribe or a witch's
name (only ever in its holder's hand): the card is in a Rally. 4 cards of one
tribe or of one Power Type in a hand give each of them +2 levels (+6 for both),
and 4 witches give each witch +2.
"""
"""What the notation of a card means (read from ``engine/creature_wars/cards.py``'s ``notation``)."""

HELP = """\
[b]Creature Wars[/b]

Each turn both players lock in one card face down; then both are revealed.
Power = base strength {b} + level, +3 when your Power Type beats theirs
(Ancient > Fire > Nightmare > Holy > Ancient). The loser's Empire takes the
losing card's base strength (witches differ: select one and press w);
a tie sends both cards back with a cooldown.

  1-9         select the n-th card of your hand (or click it; a click on the
              selected card locks it in)
  ← → h l     move the selection (also ↑ ↓ j k)
  Enter       lock in the selected card
  w           show / hide the selected witch's rules (a selected witch's
              text is also written under it in your hand)
  a           show the witch's question again, if one waits for you
  ctrl+b      bell and flash on / off (your move, a reveal)
  ?           this help
  q / Esc     leave the table (asks first while you play)

Dimmed cards marked ✗ cannot be played now: the lines under your hand say
why (a witch held, a rule in play), and so does Enter on one.
""" + NOTATION

SPECTATOR_HELP = """\
[b]Creature Wars[/b] (spectating)

Each turn both players lock in one card face down; then both are revealed.
Power = base strength {b} + level, +3 when its Power Type beats the other's
(Ancient > Fire > Nightmare > Holy > Ancient). The loser's Empire takes the
losing card's base strength (witches differ); a tie sends both cards back
with a cooldown. Spectators see both Empires, hand sizes, who has locked in,
each revealed duel and the log; never a card in a hand.

  ctrl+b      bell and flash on / off (a reveal)
  ?           this help
  q / Esc     leave the table
""" + NOTATION


class MatchScreen(DuelScreen):
    """One Creature Wars room: both Empires, the last duel, your hand, the log and whose move it is.

    When the view carries a ``question`` (only the asked seat's does), a
    :class:`~client.screens.question.QuestionScreen` opens over the table; its answer is
    sent only if ``view["legal"]`` offers it.
    """

    DEFAULT_CSS = """
    MatchScreen #body { height: 1fr; }
    MatchScreen #table { height: 1fr; width: 1fr; }
    MatchScreen #mine { dock: bottom; height: auto; }
    MatchScreen #hand-title { height: 1; padding: 0 1; text-style: bold; }
    MatchScreen.-spectator #hand-title, MatchScreen.-spectator HandPanel { display: none; }
    MatchScreen.-short #hand-title { display: none; }
    MatchScreen.-short ModifiersPanel { border-top: none; }
    MatchScreen.-short EventLog { min-height: 0; }
    """

    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT, "-tall")]  # noqa: RUF012 (Screen declares it an instance variable)
    """A terminal under :data:`SHORT` lines (80x24) gets the short table: the duel in two lines, no witch
    rules under the hand (``w`` shows them), the log takes what is left. Your Empire and your whole hand
    are docked at the bottom of the table, so nothing above them ever pushes a card off the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(1)", "pick", key_display="1-9"),
        *(Binding(str(n), f"pick({n})", "pick", show=False) for n in range(2, 10)),
        Binding("left,h,up,k", "move(-1)", "move", show=False),
        Binding("right,l,down,j", "move(1)", "move", show=False),
        Binding("enter", "lock_in", "lock in"),
        Binding("w", "witch", "witch text"),
        Binding("a", "question", "answer", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "leave", "leave"),
        Binding("escape", "back", "back", show=False),
    ]

    PLAYER_ACTIONS = frozenset({"pick", "move", "lock_in", "witch", "question"})

    selected: reactive[int] = reactive(0)

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__(room, game, spectator=spectator)
        self.turn_seen: int | None = None
        self.asked: tuple[int, float] | None = None
        """The question waiting for us: the version it came with, and when its time runs out."""
        self.question_screen: QuestionScreen | None = None
        self.server_played: int | None = None
        """The turn in which the server locked in our card because our time ran out."""
        self.dealt: tuple[int, list[int], list[list[str]]] | None = None
        """What the Empires took in the turn of the last duel seen in the events: its turn, per seat, and why."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        yield Banner(id="spectating")
        with Horizontal(id="body"):
            with Vertical(id="table"):
                yield EmpirePanel(id="top")
                yield TableInfo(id="info")
                yield DuelPanel(id="duel")
                yield ModifiersPanel(id="modifiers")
                yield EventLog(id="log", max_lines=500, wrap=True)
                with Vertical(id="mine"):
                    yield EmpirePanel(id="bottom")
                    yield Static("Your hand", id="hand-title")
                    yield HandPanel(id="hand")
            yield WitchPanel(id="witch")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.spectator, "-spectator")
        self.query_one("#spectating", Banner).message = SPECTATOR_BANNER if self.spectator else ""
        where = f"Watching room #{self.room} as a spectator." if self.spectator else f"You sit in room #{self.room}."
        self.query_one("#log", EventLog).add(where, style="dim")
        self._refresh_title()
        self._refresh_status()

    def on_resize(self) -> None:
        """A short terminal gets the compact duel and no witch rules under the hand."""
        short = self.size.height < SHORT
        self.query_one("#duel", DuelPanel).compact = short
        self.query_one("#hand", HandPanel).rules = not short

    def _refresh_title(self) -> None:
        """The header: the game, the room, and whether we only watch or the match is over (short, for 80 columns)."""
        state = " · over" if self.finished() else " · watching" if self.spectator else ""
        self.title = f"Creature Wars #{self.room}{state}"

    # -- what the app feeds in ---------------------------------------------------

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view from the server: log its events, then redraw everything from it."""
        log = self.query_one("#log", EventLog)
        self.note_events(events)
        own = view.get("seat")
        for event in events:
            text = event.get("text")
            if event.get("kind") == "timeout" and own is not None and event.get("seat") == own:
                self.server_played = int(view.get("turn") or 0)
                text = "Your time ran out: the server locked in a card for you."
            if text:
                log.add(with_names(str(text), self.names),
                        style="bold" if event.get("kind") in ("reveal", "over", "mayhem") else "")
            if event.get("kind") == "over":
                self.result_logged = True
        dealt = dealt_damage(events)
        if dealt is not None and view.get("last_duel"):
            self.dealt = (int(view["last_duel"].get("turn", 0)), *dealt)
        if version > 0 or view.get("turn", 0) > 1:
            self.free_seats = 0
        if self.view is None or view.get("turn") != self.view.get("turn"):
            self.refusal = ""  # a new turn: the refusal was about the last one
        self.version = version
        self.view = view

    def match_over(self, outcome: dict[str, Any], seed: int | None, commitment: str) -> None:
        """The match_over message: log the outcome and the revealed seed (checkable against the commitment)."""
        self.over = {"outcome": outcome}
        log = self.query_one("#log", EventLog)
        if not self.result_logged:
            log.add(with_names(f"Match over: {outcome.get('detail', outcome.get('reason', ''))}.", self.names),
                    style="bold")
            self.result_logged = True
        if seed is not None:
            log.add(f"Seed {seed} revealed (commitment {commitment[:16]}…).", style="dim")

    # -- drawing -----------------------------------------------------------------

    def watch_view(self, view: dict[str, Any] | None) -> None:
        if view is None:
            return
        own = view.get("seat")
        top, bottom = (0, 1) if own is None else (1 - own, own)
        set_empire(self.query_one("#top", EmpirePanel), view, top, self.names)
        set_empire(self.query_one("#bottom", EmpirePanel), view, bottom, self.names)
        self.query_one("#info", TableInfo).info = self._info(view)
        duel = self.query_one("#duel", DuelPanel)
        duel.order = (top, bottom)
        def label(seat: int) -> str:
            return seat_label(seat, self.names)

        duel.titles = ((label(0), label(1)) if own is None
                       else (f"Opponent ({label(top)})", f"You ({label(own)})"))
        duel.names = ((label(0), label(1)) if own is None
                      else (("You", "Opponent") if own == 0 else ("Opponent", "You")))
        duel.duel = self._duel(view.get("last_duel"))
        duel.revealed = view.get("revealed")
        modifiers = self.query_one("#modifiers", ModifiersPanel)
        modifiers.seat = own
        modifiers.names = self.names
        modifiers.modifiers = list(view.get("modifiers") or [])
        hand = self.query_one("#hand", HandPanel)
        cards = self._cards(view)
        playable = legal_slots(view)
        if view.get("turn") != self.turn_seen or not 0 <= self.selected < max(len(cards), 1):
            self.turn_seen = view.get("turn")
            self.selected = min(playable) if playable else 0
        hand.blocked = tuple(self.blocked) if own is not None else ()
        hand.cards = cards
        hand.playable = frozenset(playable)
        hand.locked_slot = view.get("locked_slot")
        hand.selected = self.selected if cards and own is not None else None
        self._refresh_witch()
        self._refresh_status()
        if self.finished():
            self._refresh_title()
            self.refresh_bindings()
        self._follow_question(view)

    def watch_selected(self, selected: int) -> None:
        if self.is_mounted and self.view is not None and self.view.get("seat") is not None:
            self.query_one("#hand", HandPanel).selected = selected
            self._refresh_witch()

    def watch_names(self) -> None:
        super().watch_names()
        if self.view is not None:
            self.view = self.view  # redraw the panels under the names the lobby gave

    def watch_free_seats(self) -> None:
        self.refusal = ""  # a refusal while the room waited is moot once the seat is taken
        self._refresh_status()

    def watch_over(self) -> None:
        self._refresh_status()
        self._refresh_title()
        self.refresh_bindings()

    def watch_notice(self, notice: str) -> None:
        self.query_one("#notice", Banner).message = notice

    def _duel(self, duel: dict[str, Any] | None) -> dict[str, Any] | None:
        """The last duel with the damage its Empire took as the events said it (``last_duel`` has it before modifiers)."""
        if duel is None:
            return None
        duel = {**duel, "summary": with_names(str(duel.get("summary", "")), self.names)}
        if self.dealt is None or self.dealt[0] != duel.get("turn"):
            return duel
        return {**duel, "damage": list(self.dealt[1]), "reasons": self.dealt[2]}

    def _info(self, view: dict[str, Any]) -> str:
        own = view.get("seat")
        first = int(view.get("first_drawer", 0))
        if own is None:
            drawer = f"{seat_label(first, self.names)} draws first"
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
            timed_out = self.view is not None and self.server_played == self.view.get("turn")
            self.query_one("#status", StatusLine).status = self.with_refusal(
                status_line(self.view, free_seats=self.free_seats, over=self.over, timed_out=timed_out,
                            names=self.names))

    def _selected_card(self) -> dict[str, Any] | None:
        cards = self._cards(self.view) if self.view is not None else []
        return cards[self.selected] if 0 <= self.selected < len(cards) else None

    def _refresh_witch(self) -> None:
        panel = self.query_one("#witch", WitchPanel)
        if panel.has_class("-open"):
            panel.card = self._selected_card()

    # -- keys --------------------------------------------------------------------

    def action_pick(self, n: int) -> None:
        self.app.clear_notifications()
        self.refusal = ""
        count = len(self._cards(self.view)) if self.view is not None else 0
        if 1 <= n <= count:
            self.selected = n - 1
        elif count:
            self.notify(f"Your hand has {count} card(s).", severity="warning")

    @on(HandPanel.Tapped)
    def _tapped(self, event: HandPanel.Tapped) -> None:
        """A click on a card picks it; a click on the picked card locks it in (as Enter does)."""
        event.stop()
        if self.spectator or self.finished():
            return
        if event.slot == self.selected:
            self.action_lock_in()
        else:
            self.action_pick(event.slot + 1)

    def action_move(self, step: int) -> None:
        self.refusal = ""
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
        elif view.get("waiting_for") is not None:
            why = ("A witch's question waits for you: press a to answer it." if view.get("question")
                   else "A witch's question waits for the opponent's choice.")
        elif view.get("locked_card"):
            why = "You have already locked in a card this turn."
        elif self._selected_card() is None:
            why = "No card selected."
        else:  # only the engine knows why (a witch held, a cooldown…): the server's refusal says it
            self.post_message(Decide(self.room, decision))
            return
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
        self.app.push_screen(HelpScreen(SPECTATOR_HELP if self.spectator else HELP + DUEL_HELP))

    def action_back(self) -> None:
        panel = self.query_one("#witch", WitchPanel)
        if panel.has_class("-open"):
            panel.remove_class("-open")
        else:
            self.action_leave()

    # -- a witch's question --------------------------------------------------------

    def _follow_question(self, view: dict[str, Any]) -> None:
        """Open the question modal for a new question; close it once the view no longer asks."""
        question = view.get("question")
        if not question or self.spectator:
            self.asked = None
            self._close_question()
            return
        if self.asked is not None and self.asked[0] == self.version:
            return
        self._close_question()
        self.asked = (self.version, clock.monotonic() + float(question.get("timeout") or 0))
        self.action_question()

    def _close_question(self) -> None:
        modal, self.question_screen = self.question_screen, None
        if modal is not None and modal.is_current:
            modal.dismiss(None)

    def action_question(self) -> None:
        """Show the question waiting for us (again, after Esc hid it)."""
        view = self.view
        question = (view or {}).get("question")
        if view is None or not question or self.asked is None:
            self.notify("No question waits for you.", severity="warning")
            return
        if self.question_screen is not None and self.question_screen in self.app.screen_stack:
            return
        allowed = {int(d["option"]) for d in view.get("legal") or () if d.get("kind") == "choose" and "option" in d}
        modal = QuestionScreen(question, allowed=allowed, deadline=self.asked[1])
        self.question_screen = modal
        self.app.push_screen(modal, self._answered)

    def _answered(self, option: int | None) -> None:
        """The modal's answer: sent only if the current view still offers it."""
        self.question_screen = None
        if option is None:
            return
        decision = {"kind": "choose", "option": option}
        if self.view is not None and decision in (self.view.get("legal") or []):
            self.post_message(Decide(self.room, decision))
        else:
            self.notify("That answer is no longer offered.", severity="warning")
