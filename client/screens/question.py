"""The modal a witch's question opens for the seat it asks: the prompt, the options, and the time left.

It only picks an option: it dismisses with the option's index (``None`` when hidden with
Esc), and the table checks the answer against ``view["legal"]`` before sending it. The
countdown is the view's ``timeout`` counted from when the question arrived; when it runs
out the server answers for the player (the first option), and the next view closes this.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from client import clock
from client.render import WITCH_COLOUR

__all__ = ["QuestionScreen", "time_left_text"]


def time_left_text(seconds: float) -> str:
    """``time left: 27 s``, or what happens once none is left."""
    if seconds <= 0:
        return "time is up: the server answers for you (the first option)"
    return f"time left: {int(seconds + 0.999)} s"


class QuestionScreen(ModalScreen[int | None]):
    """A witch asks: choose one of its options (1-9 or arrows, then Enter); Esc hides the question (a reopens it)."""

    DEFAULT_CSS = """
    QuestionScreen { align: center middle; }
    QuestionScreen > Vertical { width: 72; height: auto; max-height: 90%; border: round $success;
                                padding: 1 2; background: $panel; }
    QuestionScreen #prompt { text-style: bold; margin-bottom: 1; }
    QuestionScreen OptionList { height: auto; max-height: 12; }
    QuestionScreen #countdown { margin-top: 1; color: $warning; }
    QuestionScreen #keys { color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"pick({n})", "pick", show=n == 1, key_display="1-9") for n in range(1, 10)),
        Binding("escape", "hide", "hide"),
    ]

    def __init__(self, question: Mapping[str, Any], *, allowed: Collection[int], deadline: float) -> None:
        super().__init__()
        self.question = question
        self.options: list[str] = [str(o) for o in question.get("options") or ()]
        self.allowed = frozenset(allowed)
        self.deadline = deadline
        """``time.monotonic()`` when the time to answer runs out."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(str(self.question.get("prompt", "Choose one:")), style=WITCH_COLOUR), id="prompt")
            choices = OptionList(*self._prompts(), id="options", markup=False)
            yield choices
            yield Static(time_left_text(self.deadline - clock.monotonic()), id="countdown")
            yield Static("1-9 or ↑ ↓ pick · Enter answers · Esc hides (a shows it again)", id="keys")

    def _prompts(self) -> list[Option]:
        out = []
        for i, text in enumerate(self.options):
            label = Text(f"{i + 1 if i < 9 else ' '} ")
            label.append(text)
            if i not in self.allowed:
                label.append("  (not offered)", style="dim")
            out.append(Option(label, disabled=i not in self.allowed))
        return out

    def on_mount(self) -> None:
        choices = self.query_one("#options", OptionList)
        first = min(self.allowed, default=None)
        choices.highlighted = first
        choices.focus()
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        self.query_one("#countdown", Static).update(time_left_text(self.deadline - clock.monotonic()))

    def action_pick(self, n: int) -> None:
        """Move the highlight to the n-th option (Enter then answers with it)."""
        if 1 <= n <= len(self.options) and n - 1 in self.allowed:
            self.query_one("#options", OptionList).highlighted = n - 1
        else:
            self.notify(f"Option {n} is not offered.", severity="warning")

    def action_hide(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected, "#options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)
