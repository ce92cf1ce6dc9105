"""The Fairy Tableau table: seven face-up cards, mana and score, the draw pile's count, the discard pile.

Everything is drawn from the view (``engine/fairy_tableau/view.py``): each card comes
with its face, suit, role and value, so nothing here reads a rule. The moves are the
view's legal plays by their labels (:class:`client.screens.solitaire.SolitaireScreen`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from client.playing_cards import card_box, faces_text
from client.render import blocked_text
from client.screens.solitaire import OnePlayerScreen

__all__ = ["DISCARD_SHOWN", "TableauScreen", "discard_renderable", "rules_line", "tableau_info", "tableau_renderable"]

DISCARD_SHOWN = 16
"""How many of the latest discards are written out (the count says how many there are in all)."""

RULES = """\
Clear the Clubs (enemies) from a tableau of seven face-up cards. Spades
give mana; a Diamond (spell) is cast at a Club worth no more than it,
paying its value in mana; a fairy (♥) defeats a Club for free. Score:
enemies defeated x 1000 + mana left.
"""


def tableau_renderable(tableau: Sequence[Mapping[str, Any] | None]) -> RenderableType:
    """The seven slots side by side (wrapping on a narrow screen): face, role, value; an empty slot says so."""
    boxes = [card_box(card, [str(card.get("role", "")), f"= {card.get('value', '?')}"] if card else ["", ""],
                      padding=(0, 0), empty="empty")
             for card in tableau]
    if not boxes:
        return Text("The tableau is empty.", style="italic")
    return Columns(boxes, padding=(0, 1))


def discard_renderable(discard: Sequence[Mapping[str, Any]]) -> Text:
    """``Discard (12): …`` with the latest cards, newest last."""
    out = Text(f"Discard ({len(discard)}): ", style="bold")
    shown = discard[-DISCARD_SHOWN:]
    if len(discard) > len(shown):
        out.append("… ")
    out.append_text(faces_text(shown, empty="empty"))
    return out


def tableau_info(view: Mapping[str, Any]) -> Text:
    """Mana, score, enemies, the draw pile's count."""
    out = Text()
    out.append(f"mana {view.get('mana', '?')}", style="bold")
    out.append(" · ")
    out.append(f"score {view.get('score', '?')}", style="bold")
    out.append(f" · enemies defeated {view.get('defeated', '?')} of {view.get('enemies', '?')}"
               f" ({view.get('enemies_left', '?')} left)")
    out.append(f" · draw pile {view.get('draw_pile', '?')}")
    if view.get("scenario"):
        out.append(" · scenario", style="dim")
    return out


def rules_line(options: Mapping[str, Any] | None) -> Text:
    """The room's options as the view states them: the fairies, the fizzle rule, ranked enemies."""
    options = options or {}
    names = options.get("fairy_names") or []
    out = Text("fairies: ", style="dim")
    out.append(", ".join(str(n) for n in names) or "none")
    out.append(f" · fizzles {'cost mana' if options.get('fizzle', 'pay') == 'pay' else 'are free'}", style="dim")
    if options.get("ranked_enemies"):
        out.append(" · ranked enemies (J♣ 11, Q♣ 12, K♣ 13)", style="dim")
    return out


class TableauScreen(OnePlayerScreen):
    """One Fairy Tableau room, for its player or a spectator (who sees the same table, and no moves)."""

    GAME_TITLE = "Fairy Tableau"
    RULES_HELP = RULES

    DEFAULT_CSS = """
    TableauScreen #tableau { height: auto; }
    TableauScreen #discard, TableauScreen #rules { height: auto; margin-top: 1; }
    """

    def compose_table(self) -> Iterable[Widget]:
        yield Static(id="tableau")
        yield Static(id="discard")
        yield Static(id="rules")

    def headline(self, view: dict[str, Any]) -> str:
        return f"mana {view.get('mana', '?')} · score {view.get('score', '?')}"

    def info(self, view: dict[str, Any]) -> Text:
        return tableau_info(view)

    def draw(self, view: dict[str, Any]) -> None:
        tableau = list(view.get("tableau") or [])
        reasons = blocked_text(tableau, self.blocked)  # the cards no play uses now, and why
        self.query_one("#tableau", Static).update(Group(Text("Tableau", style="bold"), tableau_renderable(tableau),
                                                        *([reasons] if reasons else [])))
        self.query_one("#discard", Static).update(discard_renderable(list(view.get("discard") or [])))
        self.query_one("#rules", Static).update(rules_line(view.get("options")))
