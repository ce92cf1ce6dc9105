"""Table talk: the chat lines of a room and the line to type one, always shown as plain text.

What players type is never read as markup: every line is built as a Rich ``Text`` whose
content is exactly the characters sent, so ``[bold]`` shows as ``[bold]``. Notices (a seat
that dropped or came back, a closed room, a refused line) are written in the same log.
"""
from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, RichLog

__all__ = ["MAX_CHAT", "ChatInput", "TableTalk", "chat_line"]

MAX_CHAT = 200
"""Longest line the server accepts (characters)."""


def chat_line(name: str, seat: int | None, text: str, ts: float, *, own: int | None = None) -> Text:
    """``12:03 ada (Player 1): text`` — every part plain text, the speaker's seat or "spectator" said."""
    clock = time.strftime("%H:%M", time.localtime(ts)) if ts else "--:--"
    line = Text(f"{clock} ", style="dim")
    who = name or ("anonymous" if seat is None else f"Player {seat + 1}")
    line.append(who, style="bold" if seat is not None else "italic")
    if seat is None:
        line.append(" (spectator)", style="dim")
    elif own is not None and seat == own:
        line.append(" (you)", style="dim")
    else:
        line.append(f" (Player {seat + 1})", style="dim")
    line.append(": ")
    line.append(text)
    return line


class ChatInput(Input):
    """The line to type a chat message into; Esc gives the keys back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "close chat", show=False)]

    class Closed(Message):
        """The player left the chat line without sending."""

    def action_close(self) -> None:
        self.value = ""
        self.post_message(self.Closed())


class TableTalk(Vertical):
    """The chat log (shown once something was said) and the input line (shown while typing)."""

    DEFAULT_CSS = """
    TableTalk { height: auto; display: none; }
    TableTalk.-active { display: block; }
    TableTalk RichLog { height: 2; background: $boost; padding: 0 1; scrollbar-size-vertical: 1; }
    TableTalk ChatInput, TableTalk ChatInput:focus { display: none; height: 1; border: none; padding: 0 1; }
    TableTalk.-typing ChatInput { display: block; }
    """

    class Said(Message):
        """The player typed ``text`` and pressed Enter."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.texts: list[str] = []
        """Every line written, as plain text (what the log shows)."""
        self._unwritten: list[Text] = []
        """Lines written while the log was not mounted: before its first compose, or while its screen is taken down."""
        self._focus_before: Widget | None = None

    def compose(self) -> ComposeResult:
        yield RichLog(id="chat-log", wrap=True, markup=False, max_lines=200, auto_scroll=True)
        yield ChatInput(placeholder="say something · Enter sends · Esc closes", max_length=MAX_CHAT, id="chat-input")

    def on_mount(self) -> None:
        """The log is composed now: show what was said before."""
        self._flush()

    def write(self, line: Text) -> None:
        """Add a line (plain Text only) and show the panel.

        A push may arrive before the log is composed or while the app takes the screen down (quitting): the line
        is kept and shown once the log is there, never an error."""
        self.add_class("-active")
        self.texts.append(line.plain)
        self._unwritten.append(line)
        self._flush()

    def _flush(self) -> None:
        try:
            log = self.query_one("#chat-log", RichLog)
        except NoMatches:
            return
        for line in self._unwritten:
            log.write(line)
        self._unwritten.clear()

    def notice(self, text: str, *, error: bool = False) -> None:
        """A line from the room, not from a player."""
        self.write(Text(f"— {text}", style="bold red" if error else "italic"))

    def open(self) -> None:
        """Show the input line and give it the keys."""
        if not self.has_class("-typing"):
            self._focus_before = self.screen.focused
        self.add_class("-active", "-typing")
        self.query_one(ChatInput).focus()

    def close(self) -> None:
        self.remove_class("-typing")
        if not self.texts:
            self.remove_class("-active")
        before, self._focus_before = self._focus_before, None
        self.screen.set_focus(before if before is not None and before.is_attached else None)

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.post_message(self.Said(text))
        self.close()

    @on(ChatInput.Closed)
    def _chat_closed(self, event: ChatInput.Closed) -> None:
        event.stop()
        self.close()
