"""Small modal screens: the key help of a screen, and a yes/no question."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

__all__ = ["ConfirmScreen", "HelpScreen", "HelpText"]

KEY_LINE = re.compile(r"^(\s+\S+(?: \S+)*\s{2,})\S")
"""A line of a keys table ("  q / Esc     leave the table"): its key column, up to where the text starts."""


class HelpText:
    """A help text that wraps to the width it is given: paragraphs flow, and a keys table's lines wrap under
    their description, not under the key.

    The help strings are written with hard line breaks (at about 80-90 columns); the lines of one paragraph,
    and the indented continuation lines of a key's description, are joined first, then wrapped again.
    """

    def __init__(self, markup: str) -> None:
        self.text = Text.from_markup(markup)
        self.widest = max((cell_len(line) for line in self.text.plain.splitlines()), default=0)

    def logical_lines(self) -> Iterator[tuple[int, Text]]:
        """(indent, line) for each paragraph or key line, hard-wrapped lines joined."""
        current: Text | None = None
        indent = 0
        for line in self.text.split("\n", allow_blank=True):
            plain = line.plain
            stripped = plain.lstrip()
            lead = len(plain) - len(stripped)
            if current is not None and stripped and (
                    (lead == 0 and indent == 0 and current.plain and not current.plain.startswith(" "))
                    or (lead > 0 and indent > 0 and lead == indent)):
                current.append(" ")
                current.append_text(line[lead:])
                continue
            if current is not None:
                yield indent, current
            key = KEY_LINE.match(plain)
            indent = len(key.group(1)) if key else 0
            current = line.copy()
        if current is not None:
            yield indent, current

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 1)
        out = Text()
        for n, (indent, line) in enumerate(self.logical_lines()):
            if n:
                out.append("\n")
            if indent > width // 2:  # too narrow for a hanging indent: wrap the whole line
                indent = 0
            head, rest = line[:indent], line[indent:]
            wrapped = rest.wrap(console, width - indent) if rest.plain else [rest]
            for i, part in enumerate(wrapped):
                if i:
                    out.append("\n")
                out.append_text(head if i == 0 else Text(" " * indent))
                out.append_text(part)
        yield out

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(20, options.max_width), min(self.widest, options.max_width))


class HelpScreen(ModalScreen[None]):
    """A screen's keys, in a box as wide as its longest line (never wider than the terminal, scrolling when taller);
    any of Esc, ? or q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 100%; height: auto; max-height: 100%;
                                  border: round $accent; padding: 0 1; background: $panel; }
    HelpScreen Static { width: 100%; }
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
            yield Static(HelpText(self.text), id="help-text")
            yield Static("[dim]Esc closes · ↑ ↓ scroll[/dim]")

    def on_resize(self, event: events.Resize) -> None:
        """The box is as wide as the help's longest written line, or the terminal (then the text wraps)."""
        widest = HelpText(self.text).widest + 4 + 1  # the border, the padding, a scroll bar's column
        self.query_one(VerticalScroll).styles.width = min(widest, event.size.width)


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
