"""Small modal screens: the key help of a screen, and a yes/no question."""
from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

__all__ = ["ConfirmScreen", "HelpScreen"]


class HelpScreen(ModalScreen[None]):
    """A screen's keys, in a box as wide as its longest line (never wider than the terminal, scrolling when taller);
    any of Esc, ? or q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: auto; max-width: 100%; height: auto; max-height: 100%;
                                  border: round $accent; padding: 0 1; background: $panel; }
    HelpScreen Static { width: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "close"),
        Binding("question_mark", "dismiss", "close"),
        Binding("q", "dismiss", "close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.text)
            yield Static("[dim]Esc closes · ↑ ↓ scroll[/dim]")


class ConfirmScreen(ModalScreen[bool]):
    """Ask a yes/no question; dismisses with the answer (y/Enter yes, n/Esc no)."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 50; height: auto; border: round $warning; padding: 1 2; background: $panel; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: center; margin-top: 1; }
    ConfirmScreen Button { margin: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
        Binding("escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question)
            with Horizontal():
                yield Button("Yes (y)", id="yes", variant="warning")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
