"""How Creature Wars things are drawn: cards, HP bars, the revealed duel, the status line.

Pure functions from the server's view dicts to Rich renderables. Nothing here decides
what is allowed: playability comes from the view (``legal``, ``playable``), and colour
only ever repeats what the written-out notation already says, so the screen reads the
same in monochrome (``NO_COLOR``).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

__all__ = [
    "LOCK",
    "TYPE_COLOURS",
    "WITCH_COLOUR",
    "card_colour",
    "card_label",
    "dealt_damage",
    "duel_renderable",
    "hand_renderable",
    "hp_bar",
    "legal_slots",
    "modifiers_renderable",
    "player_name",
    "revealed_renderable",
    "status_line",
    "witch_renderable",
]

TYPE_COLOURS: dict[str, str] = {
    "Ancient": "#d7af00",
    "Fire": "#ff5f5f",
    "Nightmare": "#af87ff",
    "Holy": "#afd7ff",
}
"""One colour per Power Type (Ancient gold, Fire red, Nightmare purple, Holy pale blue)."""
WITCH_COLOUR = "#5fd75f"
LOCK = "🔒"


def player_name(seat: int) -> str:
    """Seats as the server's event texts name them (seat 0 is "Player 1")."""
    return f"Player {seat + 1}"


def card_colour(card: Mapping[str, Any]) -> str:
    """The colour of a card: green for a witch, else its Power Type's colour ("" for none)."""
    if card.get("kind") == "witch":
        return WITCH_COLOUR
    return TYPE_COLOURS.get(str(card.get("type")), "")


def card_label(card: Mapping[str, Any] | None) -> Text:
    """A card's notation in its colour; ``None`` (a pass) reads "pass"."""
    if card is None:
        return Text("pass", style="italic")
    return Text(str(card["text"]), style=card_colour(card) or "")


def legal_slots(view: Mapping[str, Any]) -> set[int]:
    """The hand slots the server says may be played now (from ``view["legal"]`` only)."""
    return {int(d["slot"]) for d in view.get("legal") or () if d.get("kind") == "play" and "slot" in d}


def hp_bar(hp: int, max_hp: int, width: int = 15) -> Text:
    """``███████░░░ 22/30``: filled blocks for HP left, in green, yellow or red by how much is left."""
    max_hp = max(max_hp, 1)
    filled = max(0, min(width, round(width * max(hp, 0) / max_hp)))
    share = hp / max_hp
    colour = "green" if share > 0.5 else "yellow" if share > 0.25 else "red"
    bar = Text("█" * filled, style=colour)
    bar.append("░" * (width - filled), style="bright_black")
    bar.append(f" {hp}/{max_hp}")
    return bar


def hand_renderable(cards: Sequence[Mapping[str, Any]], *, selected: int | None, playable: set[int],
                    locked_slot: int | None) -> Text:
    """Numbered cards in notation, one per line: the selection marked, unplayable cards dimmed.

    One card a line keeps each notation unbroken at any width; the number is the key
    that picks it (1-9).
    """
    out = Text()
    if not cards:
        out.append("(no cards in hand)", style="italic")
        return out
    for i, card in enumerate(cards):
        if i:
            out.append("\n")
        marker = "▶" if i == selected else " "
        number = str(i + 1) if i < 9 else " "
        style = Style.parse(card_colour(card) or "none")
        if i not in playable and i != locked_slot:
            style += Style(dim=True)
        if i == selected:
            style += Style(reverse=True)
        out.append(f"{marker} {number} ")
        out.append(f" {card['text']} ", style=style)
        if i == locked_slot:
            out.append(f" {LOCK} locked in", style="bold")
        elif card.get("cooldown"):
            out.append(f"  cooldown {card['cooldown']}", style="dim")
        elif card.get("banned"):
            out.append("  may never be played", style="dim")
        if card.get("kind") == "witch":
            out.append(f"  witch · {card.get('rarity', '')}", style="dim")
            if i == selected and card.get("rules"):
                for line in str(card["rules"]).splitlines():
                    out.append(f"\n      {line}", style=WITCH_COLOUR)
    return out


def _duel_card(card: Mapping[str, Any] | None, power: int | None, title: str, won: bool, damage: int) -> Panel:
    body = Text()
    body.append_text(card_label(card))
    if power is not None:
        body.append(f"\npower {power}")
    if won:
        body.append("  ★ wins", style="bold")
    if damage:
        body.append(f"\ntakes {damage}", style="bold")
    colour = card_colour(card) if card else ""
    return Panel(body, title=title, border_style=colour or "none", expand=False, padding=(0, 1))


def dealt_damage(events: Sequence[Mapping[str, Any]]) -> tuple[list[int], str] | None:
    """The Empire damage the last duel in ``events`` dealt to each seat after every modifier, and the server's
    sentence saying so ("" when no modifier changed it); None when no duel is in the events.

    The ``fight`` event (like ``last_duel``) carries the damage the duel called for, before modifiers
    such as Witch of Wrath's +3; the ``damage`` event the server sends right after it for the loser
    says what the Empire actually took, as the log does.
    """
    for i in range(len(events) - 1, -1, -1):
        fight = events[i]
        if fight.get("kind") != "fight":
            continue
        dealt = [int(d or 0) for d in fight.get("damage") or [0, 0]]
        winner = fight.get("winner")
        after = events[i + 1] if i + 1 < len(events) else {}
        if winner is None or not dealt[1 - int(winner)] or after.get("kind") != "damage" \
                or after.get("seat") != 1 - int(winner):
            return dealt, ""
        took = int(after.get("amount") or 0)
        changed = took != dealt[1 - int(winner)]
        dealt[1 - int(winner)] = took
        return dealt, str(after.get("text") or "") if changed else ""
    return None


def duel_renderable(duel: Mapping[str, Any] | None, order: Sequence[int], titles: Sequence[str]) -> RenderableType:
    """The last revealed duel: both cards side by side (``order`` of seats, with ``titles``) and its summary.

    ``damage`` is what each Empire took; ``dealt``, when present, the server's sentence for damage a modifier changed.
    """
    if duel is None:
        return Text("No duel revealed yet.", style="italic")
    cards = duel.get("cards") or [None, None]
    powers = duel.get("powers") or [None, None]
    damage = duel.get("damage") or [0, 0]
    winner = duel.get("winner")
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column(vertical="middle")
    grid.add_column()
    panels = [_duel_card(cards[s], powers[s], titles[i], winner == s, int(damage[s] or 0)) for i, s in enumerate(order)]
    grid.add_row(panels[0], Text("vs", style="bold"), panels[1])
    heading = Text(f"Turn {duel.get('turn')} duel", style="bold")
    lines: list[RenderableType] = [heading, grid, Text(str(duel.get("summary", "")))]
    if duel.get("dealt"):  # what the Empire took once modifiers had their say, as the server wrote it
        lines.append(Text(str(duel["dealt"]), style="bold"))
    return Group(*lines)


def revealed_renderable(cards: Sequence[Mapping[str, Any] | None], order: Sequence[int],
                        titles: Sequence[str]) -> RenderableType:
    """The two cards a question interrupted: face up side by side, the duel not yet fought."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column(vertical="middle")
    grid.add_column()
    panels = [_duel_card(cards[s] if s < len(cards) else None, None, titles[i], False, 0) for i, s in enumerate(order)]
    grid.add_row(panels[0], Text("vs", style="bold"), panels[1])
    heading = Text("Revealed — the duel waits for a witch's question", style="bold")
    return Group(heading, grid)


def modifiers_renderable(modifiers: Sequence[Mapping[str, Any]], seat: int | None) -> Text:
    """The effects in play, one a line: whose it is ("yours" for the viewer's) and until which turn."""
    out = Text()
    out.append("In play", style="bold")
    for modifier in modifiers:
        owner = modifier.get("owner")
        if seat is None:
            whose = "" if owner is None else f" ({player_name(int(owner))}'s)"
        else:
            whose = " (yours)" if owner == seat else " (opponent's)"
        out.append("\n • ")
        out.append(str(modifier.get("text", "")))
        out.append(whose, style="bold" if owner == seat else "")
        until = modifier.get("until")
        if until:
            out.append(f" · until turn {until}", style="dim")
    return out


def witch_renderable(card: Mapping[str, Any] | None) -> RenderableType:
    """A witch's full card: name, rarity, level and rules text (or a hint when none is selected)."""
    if card is None or card.get("kind") != "witch":
        return Text("Select a witch and press w to read its rules.", style="italic")
    out = Text()
    out.append(str(card.get("name", "Witch")), style=f"bold {WITCH_COLOUR}")
    out.append(f"\n{card.get('rarity', '')} witch · Lvl.{card.get('level')} · base {card.get('base')}\n\n")
    out.append_text(card_label(card))
    out.append("\n\n")
    out.append(str(card.get("rules", "")))
    return out


def waiting_line(free_seats: int) -> str:
    """The status of a table with empty seats."""
    return "waiting for an opponent to join" if free_seats == 1 else f"waiting for {free_seats} players to join"


def status_line(view: Mapping[str, Any] | None, *, free_seats: int = 0,
                over: Mapping[str, Any] | None = None) -> str:
    """One line saying whose move it is, drawn from the view (and the lobby's seat count, the match_over message)."""
    if view is None:  # no view yet, or a room not dealt until every seat is taken
        return waiting_line(free_seats) if free_seats else "waiting for the table…"
    seat = view.get("seat")
    outcome = view.get("outcome") or (over or {}).get("outcome")
    if outcome:
        detail = str(outcome.get("detail") or outcome.get("reason", ""))
        winner = outcome.get("winner")
        if seat is None:
            return f"match over: {detail}"
        verdict = "a draw" if winner is None else "you win" if winner == seat else "you lose"
        return f"match over: {detail} — {verdict}"
    if free_seats:
        return waiting_line(free_seats)
    locked = view.get("locked") or [False, False]
    waiting = view.get("waiting_for")
    if waiting is not None:
        if seat is None:
            return f"spectating · turn {view.get('turn')} · waiting for {player_name(int(waiting))}'s choice"
        if waiting == seat:
            question = view.get("question") or {}
            return f"your choice: {question.get('prompt', 'answer the question')} (a to answer)"
        return "waiting for the opponent's choice"
    if seat is None:
        shown = [f"{player_name(s)} {LOCK} locked in" for s in (0, 1) if locked[s]]
        return f"spectating · turn {view.get('turn')}" + ("".join(f" · {s}" for s in shown))
    opponent_locked = locked[1 - seat]
    if view.get("locked_card"):
        return f"you locked in {view['locked_card']['text']} — waiting for the opponent"
    if (view.get("passed") or [False, False])[seat]:
        return "you have no playable card and pass — waiting for the opponent"
    if legal_slots(view):
        return "your move" + (f" · opponent {LOCK} locked in" if opponent_locked else "")
    return "waiting for the opponent"
