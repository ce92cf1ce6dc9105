"""The end of a solitaire: the result and the score, its rank on the high-score table it entered, and what next.

Opened over the table when ``match_over`` arrives for our own solitaire (``e`` on the table
opens it again). ``n`` deals a new game of the same solitaire, ``t`` shows the high scores,
``b`` goes back to the lobby, Esc looks at the final table. The rank is looked up in the table
the room entered (``ranked`` in its summary) once it arrives (:meth:`SolitaireEndScreen.ranked`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from client.scores import game_title
from client.screens.high_scores import ScoresScreen

__all__ = ["Finished", "SolitaireEndScreen", "rank_text"]


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished solitaire: its room and game, the outcome, the table it entered ("all", "daily:…", "" for none,
    None when the lobby has not said), and the seed revealed."""

    room: str
    game: str
    outcome: dict[str, Any]
    ranked: str | None
    seed: int | None = None


def rank_text(finished: Finished, entries: list[dict[str, Any]] | None, error: str = "") -> Text:
    """Where the score stands: its rank on the table it entered, or why it has none (a practice deal)."""
    if finished.ranked == "":
        return Text("Not ranked: a practice deal (chosen options or a fixed seed).", style="italic")
    table = "today's table" if (finished.ranked or "").startswith("daily:") else "the all-time table"
    if error:
        return Text(f"The rank on {table} is not known: {error}", style="italic")
    if entries is None:
        return Text(f"Looking up the rank on {table}…", style="italic")
    entry = next((e for e in entries if e.get("room") == finished.room), None)
    if entry is None:
        return Text(f"Not among the {len(entries)} best of {table}.", style="italic")
    return Text.assemble("Rank ", (str(entry["rank"]), "bold"), f" on {table} (of {len(entries)} listed).")


class SolitaireEndScreen(Screen[str | None]):
    """The end of one solitaire; dismissed with "again" (n), "lobby" (b) or None (Esc: back to the table)."""

    DEFAULT_CSS = """
    SolitaireEndScreen { align: center top; }
    SolitaireEndScreen #end { width: 100%; max-width: 90; height: auto; padding: 0 1; }
    SolitaireEndScreen #end > Static { height: auto; margin-top: 1; }
    SolitaireEndScreen #result { border: round $accent; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "again", "new game"),
        Binding("t", "scores", "high scores"),
        Binding("b", "lobby", "back to lobby"),
        Binding("escape", "table", "see the table"),
        Binding("q", "lobby", "lobby", show=False),
    ]

    entries: reactive[list[dict[str, Any]] | None] = reactive(None, always_update=True)
    """The high-score table the room entered, once it arrived."""
    error: reactive[str] = reactive("")

    def __init__(self, finished: Finished) -> None:
        super().__init__()
        self.finished = finished

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="end"):
            yield Static(id="result")
            yield Static(id="keys")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"cardroom · game over · room #{self.finished.room}"
        self.query_one("#result", Static).border_title = game_title(self.finished.game)
        self._draw()

    def ranked(self, entries: list[dict[str, Any]] | None, error: str = "") -> None:
        """The table the room entered arrived (or could not be had)."""
        self.error = error
        self.entries = entries

    def watch_entries(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if not self.query("#result"):
            return
        finished = self.finished
        outcome = finished.outcome
        won = outcome.get("winner") is not None
        text = Text("You win" if won else "Game over", style="bold")
        detail = str(outcome.get("detail") or outcome.get("reason") or "")
        if detail:
            text.append(f" — {detail}")
        scores = list(outcome.get("scores") or ())
        if scores:
            text.append("\nScore ")
            text.append(str(scores[0]), style="bold")
        text.append("\n")
        text.append_text(rank_text(finished, self.entries, self.error))
        if finished.seed is not None:
            text.append(f"\nSeed {finished.seed} revealed.", style="dim")
        self.query_one("#result", Static).update(text)
        self.query_one("#keys", Static).update(Text(
            f"n new game of {game_title(finished.game)} · t high scores · b back to lobby · Esc see the table",
            style="dim"))

    def action_again(self) -> None:
        self.dismiss("again")

    def action_scores(self) -> None:
        self.app.push_screen(ScoresScreen())

    def action_lobby(self) -> None:
        self.dismiss("lobby")

    def action_table(self) -> None:
        self.dismiss(None)
