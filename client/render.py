"""How Creature Wars things are drawn: cards, HP bars, the revealed duel, the status line.

Pure functions from the server's view dicts to Rich renderables. Nothing here decides
what is allowed: playability comes from the view (``legal``, ``playable``), and colour
only ever repeats what the written-out notation already says, so the screen reads the
same in monochrome (``NO_COLOR``).
"""
from __future__ import annotations

import re
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
    "blocked_reasons",
    "blocked_text",
    "card_colour",
    "card_label",
    "damage_line",
    "dealt_damage",
    "duel_renderable",
    "hand_renderable",
    "hp_bar",
    "legal_slots",
    "modifiers_renderable",
    "player_name",
    "revealed_renderable",
    "status_line",
    "with_names",
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
                    locked_slot: int | None, rules: bool = True, blocked: Sequence[str | None] = ()) -> Text:
    """Numbered cards in notation, one per line: the selection marked, unplayable cards dimmed and marked ✗.

    One card a line keeps each notation unbroken at any width; the number is the key
    that picks it (1-9). ``blocked`` (the server's reasons, per card) is said under the hand,
    one line per reason with the cards it holds back, so a reason shared by the whole hand
    (a Cornfield Witch held) takes one line, not one per card.
    """
    out = Text()
    if not cards:
        out.append("(no cards in hand)", style="italic")
        return out
    for i, card in enumerate(cards):
        if i:
            out.append("\n")
        start = len(out)
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
        elif i < len(blocked) and blocked[i]:
            out.append("  ✗", style="bold")
        elif playable and i not in playable:
            out.append("  ✗ not playable now (Enter says why)", style="dim")
        witch = card.get("kind") == "witch"
        if witch:
            out.append(f"  witch · {card.get('rarity', '')}", style="dim")
        out.stylize(Style(meta={"slot": i}), start, len(out))  # a click on the line names the card (HandPanel)
        if witch and rules and i == selected and card.get("rules"):
            for line in str(card["rules"]).splitlines():
                out.append(f"\n      {line}", style=WITCH_COLOUR)
    for reason, slots in blocked_reasons(cards, blocked, locked_slot):
        numbers = ", ".join(str(n + 1) for n in slots)
        out.append(f"\n✗ {'card' if len(slots) == 1 else 'cards'} {numbers}: ", style="bold")
        out.append(reason)
    return out


def blocked_reasons(cards: Sequence[Mapping[str, Any]], blocked: Sequence[str | None],
                    locked_slot: int | None = None) -> list[tuple[str, list[int]]]:
    """Each reason the server gave for holding cards back, with their slots (in hand order); a cooldown or a ban is
    left out: the card's own line says it."""
    out: dict[str, list[int]] = {}
    for i, card in enumerate(cards):
        reason = blocked[i] if i < len(blocked) else None
        if reason and i != locked_slot and not card.get("cooldown") and not card.get("banned"):
            out.setdefault(reason, []).append(i)
    return list(out.items())


def blocked_text(cards: Sequence[Mapping[str, Any] | None], blocked: Sequence[str | None]) -> Text:
    """The server's reasons why cards (playing cards, by face; an empty slot None) have no move now, one line per
    reason with the cards it holds back ("✗ 5♦, 4♦: …"; a reason that names its one card first is said alone:
    "✗ 5♦ cannot be gathered: …"); empty when nothing is held back."""
    out = Text()
    for reason, slots in blocked_reasons([card or {} for card in cards], blocked):
        if out:
            out.append("\n")
        named = ", ".join(str((cards[n] or {}).get("face", n + 1)) for n in slots)
        out.append(f"✗ {'' if reason.startswith(named + ' ') else named + ': '}", style="bold")  # a reason naming its card
        out.append(reason)
    return out


def _duel_card(card: Mapping[str, Any] | None, power: int | None, title: str, won: bool, damage: int) -> Panel:
    body = _duel_row(card, power, won, damage, sep="\n")
    colour = card_colour(card) if card else ""
    return Panel(body, title=Text(title), border_style=colour or "none", expand=False, padding=(0, 1))


DAMAGE_TEXT = re.compile(r"takes (?:\d+|no) damage \((?P<why>.*)\)(?:; -?\d+ HP left)?\.?$")
"""The server's sentence for an Empire's damage: "Player 2's Empire takes 5 damage (lost the duel); 25 HP left."."""


def _why(event: Mapping[str, Any]) -> str:
    """The reason a ``damage`` event gives ("lost the duel", "Cursed Witch in hand"), from its sentence."""
    found = DAMAGE_TEXT.search(str(event.get("text") or ""))
    return found.group("why") if found else "other damage"


def dealt_damage(events: Sequence[Mapping[str, Any]]) -> tuple[list[int], list[list[str]]] | None:
    """What each Empire took in the turn of the last duel in ``events``, and why, part by part; None when no duel
    is in the events.

    The ``fight`` event (like ``last_duel``) carries the damage the duel called for, before modifiers
    such as Witch of Wrath's +3; each ``damage`` event the server sends in the same batch (the duel's own,
    a Cursed Witch held at the turn's end, a Voodoo Witch's…) says what an Empire actually took and why.
    The parts read "3 from the duel", "3 from effects in play", "1 Cursed Witch in hand".
    """
    fights = [i for i, event in enumerate(events) if event.get("kind") == "fight"]
    if not fights:
        return None
    fight = events[fights[-1]]
    called = [int(d or 0) for d in fight.get("damage") or [0, 0]]
    winner = fight.get("winner")
    took = [0, 0]
    parts: list[list[str]] = [[], []]
    duel_seen = False
    start = fights[-2] + 1 if len(fights) > 1 else 0
    for i, event in enumerate(events[start:], start=start):
        if event.get("kind") != "damage" or event.get("seat") not in (0, 1):
            continue
        seat, amount, why = int(event["seat"]), int(event.get("amount") or 0), _why(event)
        took[seat] += amount
        if why == "lost the duel" and i > fights[-1] and not duel_seen and winner is not None \
                and seat == 1 - int(winner):
            duel_seen = True
            base = called[seat]
            if amount == base:
                parts[seat].append(f"{amount} from the duel")
            elif amount > base:
                parts[seat] += [f"{base} from the duel", f"{amount - base} from effects in play"]
            else:
                parts[seat].append(f"{amount} from the duel ({base} less {base - amount} by effects in play)")
        elif amount:
            parts[seat].append(f"{amount} {why}")
    if not duel_seen and winner is not None:
        loser = 1 - int(winner)
        if called[loser] and not any(e.get("kind") == "damage" for e in events[start:]):
            took[loser] += called[loser]  # a server that sends no damage event: the duel's own figure
            parts[loser].append(f"{called[loser]} from the duel")
    return took, parts


def damage_line(who: str, took: int, parts: Sequence[str]) -> str:
    """"Opponent takes 4: 3 from the duel + 1 Cursed Witch in hand"; "" when the box's "takes n" says it all."""
    if not took or not parts or (len(parts) == 1 and parts[0] == f"{took} from the duel"):
        return ""
    verb = "take" if who == "You" else "takes"
    return f"{who} {verb} {took}: {' + '.join(parts)}"


def _duel_row(card: Mapping[str, Any] | None, power: int | None, won: bool, damage: int, sep: str = "  ") -> Text:
    """A duel's card, its power, whether it won and what its Empire took; ``sep`` before power and damage (a line
    break in the boxed layout, two spaces on one line)."""
    out = Text()
    out.append_text(card_label(card))
    if power is not None:
        out.append(f"{sep}power {power}")
    if won:
        out.append("  ★ wins", style="bold")
    if damage:
        out.append(f"{sep}takes {damage}", style="bold")
    return out


def duel_renderable(duel: Mapping[str, Any] | None, order: Sequence[int], titles: Sequence[str], *,
                    compact: bool = False, names: Sequence[str] = ("", "")) -> RenderableType:
    """The last revealed duel: both cards (``order`` of seats, with ``titles``), its summary, and the damage's reasons.

    ``damage`` is what each Empire took this turn; ``reasons``, when present, its parts ("3 from the duel",
    "1 Cursed Witch in hand"), written out under the duel whenever more than the duel dealt damage. ``names``
    (per seat: "You", "Opponent") say who took it. ``compact``: one line per card instead of two boxes,
    for a short terminal.
    """
    if duel is None:
        return Text("No duel revealed yet.", style="italic")
    cards = duel.get("cards") or [None, None]
    powers = duel.get("powers") or [None, None]
    damage = duel.get("damage") or [0, 0]
    reasons = duel.get("reasons") or [[], []]
    winner = duel.get("winner")
    grid = Table.grid(padding=(0, 2 if not compact else 1))
    if compact:
        grid.add_column(style="bold")
        grid.add_column(style="bold")
        grid.add_column()
        for i, s in enumerate(order):
            title = names[s] if s < len(names) and names[s] else titles[i]
            grid.add_row(f"Turn {duel.get('turn')}" if i == 0 else "", Text(title),
                         _duel_row(cards[s], powers[s], winner == s, int(damage[s] or 0)))
        lines: list[RenderableType] = [grid]
    else:
        grid.add_column()
        grid.add_column(vertical="middle")
        grid.add_column()
        panels = [_duel_card(cards[s], powers[s], titles[i], winner == s, int(damage[s] or 0))
                  for i, s in enumerate(order)]
        grid.add_row(panels[0], Text("vs", style="bold"), panels[1])
        lines = [Text(f"Turn {duel.get('turn')} duel", style="bold"), grid]
    lines.append(Text(str(duel.get("summary", ""))))
    for s in order:
        who = names[s] if s < len(names) and names[s] else player_name(s)
        line = damage_line(who, int(damage[s] or 0), reasons[s] if s < len(reasons) else ())
        if line:
            lines.append(Text(line, style="bold"))
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


def modifiers_renderable(modifiers: Sequence[Mapping[str, Any]], seat: int | None, names: Sequence[str] = ()) -> Text:
    """The effects in play, one a line: whose it is ("yours" for the viewer's) and until which turn."""
    out = Text()
    out.append("In play", style="bold")
    for modifier in modifiers:
        owner = modifier.get("owner")
        if seat is None:
            whose = "" if owner is None else f" ({with_names(f'Player {int(owner) + 1}', names)}'s)"
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


SEAT_WORDS = re.compile(r"\b(Player|Seat) (\d+)\b")
"""How the server's texts name a seat: "Player 1" (seat 0) in event texts, "Seat 0" in a forfeit's or resignation's."""


def with_names(text: str, names: Sequence[str]) -> str:
    """The server's text with each "Player n" / "Seat n" it names replaced by that seat's player name, when known."""
    def name(found: re.Match[str]) -> str:
        seat = int(found.group(2)) - (1 if found.group(1) == "Player" else 0)
        known = names[seat] if 0 <= seat < len(names) else ""
        return known or player_name(seat) if 0 <= seat else found.group(0)

    return SEAT_WORDS.sub(name, text)


def status_line(view: Mapping[str, Any] | None, *, free_seats: int = 0,
                over: Mapping[str, Any] | None = None, timed_out: bool = False, names: Sequence[str] = ()) -> str:
    """One line saying whose move it is, drawn from the view (and the lobby's seat count, the match_over message)."""
    if view is None:  # no view yet, or a room not dealt until every seat is taken
        return waiting_line(free_seats) if free_seats else "waiting for the table…"

    def name(seat: int) -> str:
        return (names[seat] if 0 <= seat < len(names) else "") or player_name(seat)

    seat = view.get("seat")
    outcome = view.get("outcome") or (over or {}).get("outcome")
    if outcome:
        detail = str(outcome.get("detail") or outcome.get("reason", ""))
        winner = outcome.get("winner")
        if seat is None:
            return f"match over: {with_names(detail, names)}"
        verdict = "a draw" if winner is None else "you win" if winner == seat else "you lose"
        return f"match over: {detail} — {verdict}"
    if free_seats:
        return waiting_line(free_seats)
    locked = view.get("locked") or [False, False]
    waiting = view.get("waiting_for")
    if waiting is not None:
        if seat is None:
            return f"spectating · turn {view.get('turn')} · waiting for {name(int(waiting))}'s choice"
        if waiting == seat:
            question = view.get("question") or {}
            return f"your choice: {question.get('prompt', 'answer the question')} (a to answer)"
        return "waiting for the opponent's choice"
    if seat is None:
        shown = [f"{name(s)} {LOCK} locked in" for s in (0, 1) if locked[s]]
        return f"spectating · turn {view.get('turn')}" + ("".join(f" · {s}" for s in shown))
    opponent_locked = locked[1 - seat]
    if view.get("locked_card"):
        if timed_out:
            return f"time ran out: the server played {view['locked_card']['text']} for you — waiting for the opponent"
        return f"you locked in {view['locked_card']['text']} — waiting for the opponent"
    if (view.get("passed") or [False, False])[seat]:
        return "you have no playable card and pass — waiting for the opponent"
    if legal_slots(view):
        return "your move" + (f" · opponent {LOCK} locked in" if opponent_locked else "")
    return "waiting for the opponent"
