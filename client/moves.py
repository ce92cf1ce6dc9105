"""The numbered list of legal moves a solitaire's view offers, built only from ``view["legal"]``.

Each entry is shown by the ``label`` the server gave it; an entry marked ``"loses": true``
is flagged, and the screen asks before sending it. Nothing here knows a rule.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList

__all__ = ["LOSES_MARK", "MoveList", "move_label", "move_prompt"]

LOSES_MARK = "⚠ loses the game"


def move_label(decision: Mapping[str, Any]) -> str:
    """The server's label of a legal decision, or its fields written out when it has none."""
    label = decision.get("label")
    if label:
        return str(label)
    fields = ", ".join(f"{key} {value}" for key, value in decision.items() if key not in ("kind", "loses"))
    return f"{decision.get('kind', '?')}" + (f" ({fields})" if fields else "")


def move_prompt(index: int, decision: Mapping[str, Any]) -> Text:
    """One line of the list: the key that picks it (1-9), the label, and the warning on a losing move."""
    out = Text(f"{index + 1 if index < 9 else ' '} ", style="bold")
    out.append(move_label(decision))
    if decision.get("loses"):
        out.append(f"  {LOSES_MARK}", style="bold red")
    return out


class MoveList(OptionList):
    """The legal moves, one a line; ↑ ↓ move, Enter plays (posts ``OptionSelected`` with the move's index)."""

    DEFAULT_CSS = """
    MoveList { height: 1fr; border: round $primary; }
    MoveList:focus { border: round $accent; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "play")]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.moves: list[dict[str, Any]] = []

    def set_moves(self, moves: Sequence[dict[str, Any]], *, keep: bool = False) -> None:
        """Show ``moves`` (the view's ``legal``); the highlight goes to the first, or stays put with ``keep``."""
        where = self.highlighted if keep else None
        self.moves = list(moves)
        self.set_options(move_prompt(i, move) for i, move in enumerate(self.moves))
        if self.moves:
            self.highlighted = min(where or 0, len(self.moves) - 1)
