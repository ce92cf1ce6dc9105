"""Asked when the server refuses our hello (``name_taken``, ``bad_name``, ``bad_field``…): type another name, or quit."""
from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

__all__ = ["NAME_HELP", "NameScreen"]

NAME_HELP: dict[str, str] = {
    "name_taken": "That name belongs to another player on this server (it is bound to their player key).",
    "bad_name": "That name cannot be used (no control characters, at most 24 columns wide).",
    "bad_field": "The server could not take that hello: a name has at most 40 characters (and 24 columns).",
}
OTHER_HELP = "The server refused to greet this client; its reason is below. Another name may be accepted."


class NameScreen(ModalScreen[str | None]):
    """The server's refusal, clearly, and a line for another name; Esc quits the client."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen > Vertical { width: 70; max-width: 100%; height: auto; border: round $error; padding: 1 2;
                            background: $panel; }
    NameScreen Input { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "quit", "quit")]

    def __init__(self, code: str, message: str, name: str) -> None:
        super().__init__()
        self.code = code
        self.message = message
        self.refused = name

    def compose(self) -> ComposeResult:
        text = Text(f"The server refused the name {self.refused!r} ({self.code}).\n", style="bold")
        text.append(NAME_HELP.get(self.code, OTHER_HELP))
        if self.message:
            text.append(f"\nServer: {self.message}", style="dim")
        text.append("\n\nChoose another name (Enter), or Esc to quit:")
        with Vertical():
            yield Static(text, id="refusal")
            yield Input(value=self.refused[:40], max_length=40, id="name")

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Input.Submitted, "#name")
    def _submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.dismiss(name)

    def action_quit(self) -> None:
        self.dismiss(None)
