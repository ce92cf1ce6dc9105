"""The Queen's Challenge table: the card in play, the power piles, the summoning zone, the hand, the decks.

Drawn from the view's fields as ``engine/queens_challenge/view.py`` sends them, each read
with a fallback so a field the view lacks leaves its line blank rather than failing: the
moves (gathers, attacks, gifts, ending the turn, and the diamonds gift's reordering)
are only the view's legal decisions by their labels. Spectators get no hand cards from
the server; they see its count.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from client.playing_cards import SUIT_SYMBOLS, card_box, face_text, faces_text, suit_colour
from client.render import blocked_text
from client.screens.solitaire import OnePlayerScreen

__all__ = ["QueensScreen", "hand_renderable", "in_play_line", "in_play_renderable", "piles_renderable", "piles_table",
           "queens_info"]

RULES = """\
Defeat the challenge deck's cards one by one. Gather cards from your
hand onto the power pile of their suit (each higher than the last);
attack the card in play with the pile of its enemy suit (♥ ↔ ♠, ♦ ↔ ♣)
and spells of that suit; one gift a turn (the clubs gift's card may be
summoned or not; the diamonds gift's cards are put back card by card).
Ending the turn flips a challenge card, and first burns a magic card
while a challenge card is still in play. Score: cards defeated.
"""


def in_play_renderable(view: Mapping[str, Any]) -> RenderableType:
    """The card in play with its value (and how far it was lowered), the suit that may attack it, and what lies beneath."""
    card = view.get("in_play")
    if not card:
        return card_box(None, ["nothing in play until the next flip"], title="In play", empty="—")
    lines: list[str | Text] = [f"value {card.get('value', '?')}"]
    if card.get("lowered"):
        lines.append(Text(f"lowered by {card['lowered']} (printed {card.get('printed', '?')})", style="bold"))
    enemy = view.get("enemy")
    if enemy:
        line = Text("attack with ")
        line.append(f"{SUIT_SYMBOLS.get(str(enemy), str(enemy))} {_pile_name(view, str(enemy))}",
                    style=suit_colour(str(enemy)))
        lines.append(line)
    beneath = list(view.get("in_play_stack") or [])[:-1]
    if beneath:
        under = Text(f"beneath ({len(beneath)}): ")
        under.append_text(faces_text(reversed(beneath)))
        lines.append(under)
    return card_box(card, lines, title="In play")


def _pile_name(view: Mapping[str, Any], suit: str) -> str:
    pile = (view.get("piles") or {}).get(suit) or {}
    return str(pile.get("name") or suit)


def piles_renderable(view: Mapping[str, Any]) -> RenderableType:
    """One box per suit: the power pile's top card, its power and attack strength, and the summoned card."""
    piles: Mapping[str, Any] = view.get("piles") or {}
    summoned: Mapping[str, Any] = view.get("summoned") or {}
    boxes = []
    for suit in [*piles] or list(SUIT_SYMBOLS):
        pile = piles.get(suit) or {}
        symbol = SUIT_SYMBOLS.get(suit, suit)
        lines: list[str | Text] = [f"power {pile.get('power', 0)}"]
        if "strength" in pile:
            lines.append(f"attack {pile['strength']}")
        summon = Text("summoned ")
        summon.append_text(face_text(summoned.get(suit)))
        lines.append(summon)
        box = card_box(pile.get("top"), lines, title=f"{symbol} {pile.get('name', suit)}", empty="no pile")
        box.border_style = suit_colour(suit)
        boxes.append(box)
    return Columns(boxes, padding=(0, 1))


def piles_table(view: Mapping[str, Any]) -> RenderableType:
    """The four piles for a narrow table: one line each (suit, top card, power, attack, summoned card)."""
    piles: Mapping[str, Any] = view.get("piles") or {}
    summoned: Mapping[str, Any] = view.get("summoned") or {}
    grid = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False)
    for heading in ("pile", "top", "power", "attack", "summoned"):
        grid.add_column(heading, header_style="dim", no_wrap=True)
    for suit in [*piles] or list(SUIT_SYMBOLS):
        pile = piles.get(suit) or {}
        name = Text(f"{SUIT_SYMBOLS.get(suit, suit)} {pile.get('name', suit)}", style=suit_colour(suit))
        grid.add_row(name, face_text(pile.get("top")), str(pile.get("power", 0)), str(pile.get("strength", "")),
                     face_text(summoned.get(suit)))
    return grid


def in_play_line(view: Mapping[str, Any]) -> Text:
    """The card in play in one or two lines, for a narrow table."""
    card = view.get("in_play")
    out = Text("In play: ", style="bold")
    if not card:
        out.append("nothing until the next flip", style="italic")
        return out
    out.append_text(face_text(card))
    out.append(f" value {card.get('value', '?')}")
    if card.get("lowered"):
        out.append(f" (lowered by {card['lowered']} from {card.get('printed', '?')})", style="bold")
    enemy = view.get("enemy")
    if enemy:
        out.append(" · attack with ")
        out.append(f"{SUIT_SYMBOLS.get(str(enemy), str(enemy))} {_pile_name(view, str(enemy))}",
                   style=suit_colour(str(enemy)))
    beneath = list(view.get("in_play_stack") or [])[:-1]
    if beneath:
        out.append(f" · beneath ({len(beneath)}): ")
        out.append_text(faces_text(reversed(beneath)))
    return out


def hand_renderable(view: Mapping[str, Any]) -> Text:
    """The hand's cards for the player; for a spectator (no cards sent) only how many there are."""
    hand: Mapping[str, Any] = view.get("hand") or {}
    out = Text("Hand: ", style="bold")
    cards = hand.get("cards")
    if cards is None:
        out.append(f"{hand.get('count', '?')} card(s), hidden", style="italic")
        if view.get("summoning"):
            out.append("\nRevealed by the gift of clubs: ", style="bold")
            out.append_text(face_text(view["summoning"]))
        return out
    out.append_text(faces_text(cards, empty="empty"))
    summoning = view.get("summoning")
    if summoning:
        out.append("\nRevealed by the gift of clubs: ", style="bold")
        out.append_text(face_text(summoning))
        out.append("  — summon it or not in the moves list", style="dim")
    known = view.get("known_top") or []
    reveal = view.get("reveal") or []
    if reveal:
        out.append("\nRevealed by the gift of diamonds (top first): ", style="bold")
        out.append_text(faces_text(reveal))
        placed = int(view.get("placed") or 0)
        if placed:
            out.append(f"  — the top {placed} placed", style="dim")
        out.append("  — pick their order in the moves list, card by card", style="dim")
    elif known:
        out.append("\nTop of the magic deck (only you know): ", style="dim")
        out.append_text(faces_text(known))
    return out


def queens_info(view: Mapping[str, Any]) -> Text:
    """Turn, phase, score, the gift used, and the decks' counts."""
    out = Text()
    out.append(f"score {view.get('score', '?')}", style="bold")
    out.append(f" · turn {view.get('turn', '?')}")
    phase = view.get("phase")
    if phase and phase != "actions":
        out.append(f" · {phase}", style="bold")
    gift = view.get("gift_used")
    out.append(" · gift used: ")
    if gift:
        out.append(f"{SUIT_SYMBOLS.get(str(gift), str(gift))} {_pile_name(view, str(gift))}", style=suit_colour(str(gift)))
    else:
        out.append("none yet")
    out.append(f"\nchallenge deck {view.get('challenge_deck', '?')} · defeated {view.get('challenge_discard', '?')}"
               f" · magic deck {view.get('magic_deck', '?')}")
    discard: Sequence[Mapping[str, Any]] = view.get("magic_discard") or []
    out.append(f" · magic discard {len(discard)}")
    if discard:
        out.append(" (top ")
        out.append_text(face_text(discard[-1]))
        out.append(")")
    if view.get("scenario"):
        out.append(" · scenario", style="dim")
    return out


class QueensScreen(OnePlayerScreen):
    """One Queen's Challenge room, for its player or a spectator (no hand cards, no moves)."""

    GAME_TITLE = "Queen's Challenge"
    RULES_HELP = RULES

    DEFAULT_CSS = """
    QueensScreen #in-play, QueensScreen #piles, QueensScreen #hand { height: auto; margin-bottom: 1; }
    QueensScreen.-compact #in-play, QueensScreen.-compact #piles { margin-bottom: 0; }
    """

    COMPACT_WIDTH = 100
    """Narrower terminals (80 columns) get the piles as a table and the card in play as a line, not boxes."""

    def on_resize(self) -> None:
        compact = self.size.width < self.COMPACT_WIDTH or self.size.height < 32
        if compact != self.has_class("-compact"):
            self.set_class(compact, "-compact")
            if self.view is not None:
                self.draw(self.view)

    def compose_table(self) -> Iterable[Widget]:
        yield Static(id="in-play")
        yield Static(id="piles")
        yield Static(id="hand")

    def headline(self, view: dict[str, Any]) -> str:
        return f"score {view.get('score', '?')} · turn {view.get('turn', '?')}"

    def info(self, view: dict[str, Any]) -> Text:
        return queens_info(view)

    def draw(self, view: dict[str, Any]) -> None:
        if self.has_class("-compact"):
            self.query_one("#in-play", Static).update(in_play_line(view))
            self.query_one("#piles", Static).update(piles_table(view))
        else:
            self.query_one("#in-play", Static).update(in_play_renderable(view))
            self.query_one("#piles", Static).update(Group(Text("Power piles and summoning zone", style="bold"),
                                                          piles_renderable(view)))
        hand = hand_renderable(view)
        reasons = blocked_text(list((view.get("hand") or {}).get("cards") or []), self.blocked)
        if reasons:  # the cards no gather and no attack uses now, and why
            hand.append("\n")
            hand.append_text(reasons)
        self.query_one("#hand", Static).update(hand)
