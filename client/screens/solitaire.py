"""What both solitaire tables share: the header line, the numbered legal moves, the log, confirming a losing move.

A game's screen subclasses :class:`SolitaireScreen` and draws its table from the view
(:meth:`~SolitaireScreen.compose_table`, :meth:`~SolitaireScreen.draw`, and the status
line's :meth:`~SolitaireScreen.status_text`); the Fairy Meat duel uses the same frame. What may be
played is only ever an entry of ``view["legal"]``, shown by its ``label``; an entry
marked ``"loses": true`` asks first.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Footer, Header, OptionList, Static

from client.messages import CreateRoom, Decide, LeaveRoom
from client.moves import MoveList
from client.screens.dialogs import ConfirmScreen, HelpScreen
from client.screens.solitaire_end import Finished, SolitaireEndScreen
from client.screens.table import SPECTATOR_BANNER, TableScreen, decision_of
from client.widgets import Banner, EventLog, StatusLine

__all__ = ["LOSING_QUESTION", "OnePlayerScreen", "SolitaireScreen", "solitaire_status"]

LOSING_QUESTION = "This play loses the game. Play it anyway?"

KEYS_HELP = """
  1-9         pick the n-th move in the list
  ↑ ↓         move through the list
  Enter       play the picked move (a move marked ⚠ asks first)
  ctrl+b      bell and flash on / off (your move, a reveal)
  ?           this help
  q / Esc     leave the table (asks first while you play)
"""

SPECTATOR_KEYS_HELP = """
Spectating: the table as the player sees it, without the moves.

  ?           this help
  q / Esc     leave the table
"""


def solitaire_status(view: dict[str, Any] | None, over: dict[str, Any] | None = None) -> str:
    """One line: the result, or how many moves the view offers, or that we only watch."""
    if view is None:
        return "waiting for the table…"
    outcome = view.get("outcome") or (over or {}).get("outcome")
    seat = view.get("seat")
    if outcome:
        detail = str(outcome.get("detail") or outcome.get("reason", ""))
        if seat is None:
            return f"game over: {detail}"
        return f"game over: {detail} — {'you win' if outcome.get('winner') == seat else 'you lose'}"
    if seat is None:
        return f"spectating · score {view.get('score', '?')}"
    count = len(view.get("legal") or ())
    if not count:
        return "nothing to play now"
    return f"your move: {count} possible · 1-9 or ↑ ↓ to pick, Enter plays"


class SolitaireScreen(TableScreen):
    """A one-player table: the game's own panels on the left, the legal moves on the right, the log below."""

    GAME_TITLE: ClassVar[str] = "Solitaire"
    PLAYER_ACTIONS = frozenset({"pick", "play"})
    RULES_HELP: ClassVar[str] = ""
    MORE_KEYS_HELP: ClassVar[str] = ""
    """Keys a player of this table has besides the moves' (listed after them in the help)."""
    moves_kept = False
    """Whether the last view repeated the same version (then the move highlight stays where it was)."""

    DEFAULT_CSS = """
    SolitaireScreen #info { height: auto; padding: 0 1; background: $boost; }
    SolitaireScreen #body { height: 2fr; }
    SolitaireScreen #table { width: 1fr; height: 1fr; padding: 0 1; }
    SolitaireScreen #moves-pane { width: 50; height: 1fr; }
    SolitaireScreen #moves-title { height: 1; padding: 0 1; text-style: bold; }
    SolitaireScreen.-spectator #moves-pane { display: none; }
    SolitaireScreen EventLog { height: 1fr; }
    SolitaireScreen.-short EventLog { height: 4; }
    SolitaireScreen.-narrow #moves-pane { width: 40%; }
    """

    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 (Screen declares it an instance variable)
    """On a short terminal (24 lines) the log keeps three lines and the table the rest."""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (Screen declares it an instance variable)
    """On a narrow terminal (80 columns) the moves take 40% of the width, not 50 columns."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick(1)", "pick", key_display="1-9"),
        *(Binding(str(n), f"pick({n})", "pick", show=False) for n in range(2, 10)),
        Binding("enter", "play", "play"),
        Binding("question_mark", "help", "help"),
        Binding("q", "leave", "leave"),
        Binding("escape", "leave", "leave", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Banner(id="notice")
        yield Banner(id="spectating")
        yield Static(id="info")
        with Horizontal(id="body"):
            with VerticalScroll(id="table"):
                yield from self.compose_table()
            with Vertical(id="moves-pane"):
                yield Static("Moves", id="moves-title")
                yield MoveList(id="moves")
        yield EventLog(id="log", max_lines=500, wrap=True)
        yield StatusLine(id="status")
        yield Footer()

    # -- for each game -----------------------------------------------------------

    def compose_table(self) -> Iterable[Widget]:
        """The game's own panels (filled by :meth:`draw`)."""
        return ()

    def draw(self, view: dict[str, Any]) -> None:
        """Redraw the game's panels from ``view``."""

    def info(self, view: dict[str, Any]) -> Text:
        """The line under the header: score and counts."""
        return Text(f"score {view.get('score', '?')}")

    def headline(self, view: dict[str, Any]) -> str:
        """What the header says after the game's name (score, mana…)."""
        return f"score {view.get('score', '?')}"

    # -- what the app feeds in -----------------------------------------------------

    def on_mount(self) -> None:
        self.set_class(self.spectator, "-spectator")
        self.query_one("#spectating", Banner).message = SPECTATOR_BANNER if self.spectator else ""
        where = f"Watching room #{self.room} as a spectator." if self.spectator else f"You play in room #{self.room}."
        self.query_one("#log", EventLog).add(where, style="dim")
        self.title = f"{self.GAME_TITLE} · room #{self.room}"
        moves = self.query_one("#moves", MoveList)
        if self.spectator:  # no moves to pick: the hidden list must not offer its keys in the footer
            moves.can_focus = False
        else:
            moves.focus()
        self._refresh_status()

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view: log its events, then redraw everything from it."""
        log = self.query_one("#log", EventLog)
        for event in events:
            text = event.get("text")
            if event.get("kind") == "over":
                if self.spectator:  # the result's text speaks to the player ("You win: …"); match_over says it
                    continue
                self.result_logged = True
            if text:
                log.add(self.log_text(str(text)), style="bold" if event.get("kind") == "over" else "")
        same = version == self.version
        if not same:
            self.refusal = ""
        self.version = version
        self.moves_kept = same
        self.view = view

    def match_over(self, outcome: dict[str, Any], seed: int | None, commitment: str) -> None:
        """The end: log the outcome and the revealed seed."""
        self.over = {"outcome": outcome}
        log = self.query_one("#log", EventLog)
        if not self.result_logged:
            log.add(self.log_text(f"Game over: {outcome.get('detail', outcome.get('reason', ''))}"), style="bold")
            self.result_logged = True
        if seed is not None:
            log.add(f"Seed {seed} revealed (commitment {commitment[:16]}…).", style="dim")

    # -- drawing -------------------------------------------------------------------

    def watch_view(self, view: dict[str, Any] | None) -> None:
        if view is None:
            return
        self.title = f"{self.GAME_TITLE} · room #{self.room} · {self.headline(view)}"
        self.query_one("#info", Static).update(self.info(view))
        self.draw(view)
        moves = self.query_one("#moves", MoveList)
        moves.set_moves(list(view.get("legal") or []), keep=self.moves_kept)
        self._refresh_status()
        if self.finished():
            self.refresh_bindings()

    def watch_over(self) -> None:
        self._refresh_status()
        self.refresh_bindings()

    def watch_notice(self, notice: str) -> None:
        self.query_one("#notice", Banner).message = notice

    def log_text(self, text: str) -> str:
        """A line of the server's as the log shows it (a two-player table names the players)."""
        return text

    def status_text(self) -> str:
        """The status line under the log (a game's screen may say more)."""
        return solitaire_status(self.view, self.over)

    def _refresh_status(self) -> None:
        if self.is_mounted:
            self.query_one("#status", StatusLine).status = self.with_refusal(self.status_text())

    # -- keys ------------------------------------------------------------------------

    def action_pick(self, n: int) -> None:
        """Highlight the n-th move (Enter then plays it)."""
        self.app.clear_notifications()
        moves = self.query_one("#moves", MoveList)
        if 1 <= n <= len(moves.moves):
            moves.highlighted = n - 1
            moves.focus()
        elif moves.moves:
            self.notify(f"There are {len(moves.moves)} moves.", severity="warning")
        else:
            self.notify("Nothing to play now.", severity="warning")

    def action_play(self) -> None:
        """Play the highlighted move (Enter when the list does not have the focus)."""
        moves = self.query_one("#moves", MoveList)
        if moves.highlighted is None:
            self.notify("Nothing to play now.", severity="warning")
            return
        self.play(moves.highlighted)

    @on(OptionList.OptionSelected, "#moves")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.play(event.option_index)

    def play(self, index: int) -> None:
        """Send the move at ``index`` of the list, if the current view still offers it; a losing one asks first."""
        self.app.clear_notifications()
        moves = self.query_one("#moves", MoveList).moves
        if self.view is None or not 0 <= index < len(moves):
            return
        entry = moves[index]
        if entry not in (self.view.get("legal") or []):
            self.notify("That move is no longer offered.", severity="warning")
            return
        if not entry.get("loses"):
            self.post_message(Decide(self.room, decision_of(entry)))
            return

        def answered(yes: bool | None) -> None:
            if yes and self.view is not None and entry in (self.view.get("legal") or []):
                self.post_message(Decide(self.room, decision_of(entry)))

        self.app.push_screen(ConfirmScreen(f"{LOSING_QUESTION}\n\n{escape(str(entry.get('label', '')))}"), answered)

    def action_help(self) -> None:
        keys = SPECTATOR_KEYS_HELP if self.spectator else KEYS_HELP + self.MORE_KEYS_HELP
        self.app.push_screen(HelpScreen(f"[b]{self.GAME_TITLE}[/b]\n\n{self.RULES_HELP}{keys}"))


class OnePlayerScreen(SolitaireScreen):
    """A solitaire's table (Fairy Tableau, Queen's Challenge): at the end its player gets the end screen, the score's
    rank and a new game one key away (``e`` opens it again)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("e", "end", "end screen")]
    MORE_KEYS_HELP = "  e           the end screen again, once the game is over (n there deals a new game)\n"

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__(room, game, spectator=spectator)
        self.ending: Finished | None = None
        self.end_screen: SolitaireEndScreen | None = None
        self.table_entries: tuple[list[dict[str, Any]] | None, str] = (None, "")
        """The high-score table the room entered, once it arrived (or why it could not be had)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "end":
            return self.ending is not None
        return super().check_action(action, parameters)

    def show_end(self, finished: Finished) -> None:
        """Our game is over: open the end screen over the table."""
        self.ending = finished
        self.refresh_bindings()
        self.action_end()

    def ranked(self, entries: list[dict[str, Any]] | None, error: str = "") -> None:
        """The table the room entered arrived: the end screen finds the score's rank in it."""
        self.table_entries = (entries, error)
        if self.end_screen is not None:
            self.end_screen.ranked(entries, error)

    def action_end(self) -> None:
        """Show the end screen (again)."""
        if self.ending is None or (self.end_screen is not None and self.end_screen.is_attached):
            return
        screen = SolitaireEndScreen(self.ending)
        screen.ranked(*self.table_entries)
        self.end_screen = screen

        def closed(choice: str | None) -> None:
            self.end_screen = None
            if choice in ("again", "lobby"):
                self.post_message(LeaveRoom(self.room))
            if choice == "again":
                self.post_message(CreateRoom(self.game))

        self.app.push_screen(screen, closed)
