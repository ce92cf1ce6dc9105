"""The high-score screen (``t`` in the lobby): all-time and today's tables of both solitaires.

It asks the app for the tables (:class:`~client.messages.RequestScores`); the app fetches
each with the ``scores`` request and hands it back through :meth:`ScoresScreen.put`.
Each table is written with :func:`client.scores.format_table`, as ``cardroom scores``
prints it; a table the server refused shows the server's message instead.
"""
from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from client.messages import RequestScores
from client.scores import SOLITAIRES, format_table, game_title

__all__ = ["ScoresScreen", "TABLES", "table_id"]

TABLES: tuple[tuple[str, bool], ...] = tuple((game, daily) for game in SOLITAIRES for daily in (False, True))
"""Every table shown: (game, today's table instead of all time)."""


def table_id(game: str, daily: bool) -> str:
    """The widget id of one table's box."""
    return f"scores-{game}-{'daily' if daily else 'all'}"


class ScoresScreen(Screen[None]):
    """Four boxes: each solitaire's all-time and today's tables; r refreshes, Esc or q goes back."""

    DEFAULT_CSS = """
    ScoresScreen Grid { grid-size: 2; grid-gutter: 1 2; padding: 1 2; height: 1fr; }
    ScoresScreen Grid > Static { border: round $primary; padding: 0 1; height: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "refresh"),
        Binding("escape,q,t", "back", "back"),
    ]

    tables: reactive[dict[str, str]] = reactive(dict, always_update=True)
    """The text of each box, by widget id."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid():
            for game, daily in TABLES:
                yield Static("loading…", id=table_id(game, daily), markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "cardroom · high scores"
        self.action_refresh()

    def put(self, game: str, daily: bool, table: dict[str, Any] | None, error: str = "") -> None:
        """One table arrived (or could not be had: ``error`` says why)."""
        if table is not None:
            text = format_table(table)
        else:
            heading = f"{game_title(game)} — {'today' if daily else 'all time'}"
            text = f"{heading}\n{'-' * len(heading)}\n  unavailable: {error}"
        self.tables = {**self.tables, table_id(game, daily): text}

    def watch_tables(self, tables: dict[str, str]) -> None:
        for key, text in tables.items():
            self.query_one(f"#{key}", Static).update(Text(text))  # plain text: the tables hold players' names

    def action_refresh(self) -> None:
        self.post_message(RequestScores())

    def action_back(self) -> None:
        self.dismiss()
