"""The Fairy Meat table: both fairies, the round and its order, the combat, the last reveal, your combat hand.

Everything is drawn from the view (``engine/fairy_meat/view.py``) and the event texts
the server sends with it: the fairies' points, weapons and conditions; the combat's
hand counts, declared directions, Trumps face up (or only how many lie face down) and
the Numbered cards; who has locked in (a lock glyph, nothing more); the last attack's
record with every step of its sum as the server wrote it. What may be decided is only
ever an entry of ``view["legal"]``, shown by its ``label`` in the numbered moves list
(:class:`client.screens.solitaire.SolitaireScreen`): a selection of several Trumps is
one entry like any other. A spectator's view carries no combat hand, so none is drawn.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.widget import Widget
from textual.widgets import Static

from client import clock
from client.playing_cards import SUIT_SYMBOLS, face_text, faces_text
from client.render import LOCK, blocked_text, player_name, with_names
from client.screens.duel import DUEL_HELP, DuelScreen
from client.screens.solitaire import SolitaireScreen
from client.screens.table import decision_of

__all__ = [
    "FACE_DOWN",
    "FairyMeatScreen",
    "band_of",
    "choice_text",
    "code_card",
    "combat_renderable",
    "compact_fairy",
    "fairy_name_for",
    "fairy_renderable",
    "fairy_meat_info",
    "fairy_meat_status",
    "hand_renderable",
    "heap_renderable",
    "reveal_renderable",
    "seat_name",
    "time_left",
]

FACE_DOWN = "🂠"
"""The back of a card: a face-down Trump (only how many there are is public)."""

LIVE, KILL, TWINKLE, MUSHROOM = "●", "●", "✦", "🍄"

REVEAL_EXTRAS = frozenset({"ace_of_spades", "wrestle_draw", "hit", "nasty_hit"})
"""Event kinds that follow an attack's result in the same message and belong to its reveal (doubling, hits)."""

PHASE_NAMES: dict[str, str] = {
    "setup": "set-up: weapons",
    "action": "choosing an action",
    "declare": "declaring Add or Subtract",
    "trumps": "choosing Trumps",
    "numbered": "playing Numbered cards",
    "reveal": "revealing face-down Trumps or not",
    "apply_points": "applying points as Trumps or not",
    "points": "taking points as bonus cards or Trumps",
    "damage": "taking damage",
    "cure": "choosing a cure",
    "over": "over",
    "idle": "—",
}
"""How the info line names each phase the view reports (names only; the moves come from ``legal``)."""

PHASE_PROMPTS: dict[str, str] = {
    "setup": "choose your weapon",
    "action": "choose your action",
    "declare": "declare Add or Subtract",
    "trumps": "choose your Trumps (or None)",
    "numbered": "play your card",
    "reveal": "reveal your face-down Trumps, or keep them",
    "apply_points": "apply your points as Trumps, or not",
    "points": "take your points as bonus cards or as Trumps",
    "damage": "choose where the damage comes from",
    "cure": "choose what the mushroom cures",
}
"""The status line's words for "your move" in each phase."""

RULES = """\
A duel of two fairies (or two bands of up to three). Each round the Order cards decide who
acts first; on her turn a fairy attacks (in bands: a foe of her choice), wrestles, eats a
mushroom or kisses a condition away. ▶ marks the fairy whose turn it is, ⚔ the fighters. In a combat both
declare Add or Subtract (sealed), then for each attack choose Trumps of one colour (or
None) and a Numbered card, both sealed and revealed together. Same colours: the highest
wins; different colours: the lowest. The reveal panel shows each step of the sum the
server made. Opponent's Trumps kept face down show only as 🂠. Nobody may look through the
Spoils Heap: the table shows its size and its top card.

Weapons, chosen by each fairy before the first round:
  Claws         one attack a combat; no extra card.
  Moon Dagger   one attack a combat, with 1 more card in the attack hand.
  Vibro-Master  two attacks from one combat hand, 1 more attack card, and
                the defender draws 1 card fewer to defend with.
"""


# -- pure drawing helpers ---------------------------------------------------------


def _player(seat: int, names: Sequence[str] = ()) -> str:
    """A seat's player by the lobby's name, or "Player 2" while no name is known."""
    return (names[seat] if 0 <= seat < len(names) else "") or player_name(seat)


def _short_player(seat: int, names: Sequence[str] = ()) -> str:
    """A seat's player in a narrow line: the name (cut to 12 characters), or "P2"."""
    name = names[seat] if 0 <= seat < len(names) else ""
    return (name if len(name) <= 12 else name[:11] + "…") or f"P{seat + 1}"


def seat_name(seat: int | None, own: int | None, names: Sequence[str] = ()) -> str:
    """"you", "the opponent", or (for a spectator) the player's name ("Player 2" while none is known)."""
    if seat is None:
        return "nobody"
    if own is None:
        return _player(int(seat), names)
    return "you" if seat == own else "the opponent"


def _title(seat: int, own: int | None, names: Sequence[str] = ()) -> str:
    if own is None:
        return _player(seat, names)
    return f"{'You' if seat == own else 'Opponent'} ({_player(seat, names)})"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _who_first(seat: int | None, own: int | None, names: Sequence[str] = ()) -> str:
    """A seat opening a sentence: "You", "The opponent", or a player's name as typed (never capitalised)."""
    who = seat_name(seat, own, names)
    return who if own is None else _capital(who)


def code_card(code: str | None) -> dict[str, Any] | None:
    """A card code from the last attack's record (``7H``, ``10D``, ``JK1``) as a drawable card: face and colour."""
    if not code:
        return None
    code = str(code)
    if code.upper().startswith("JK"):
        return {"code": code, "face": f"Joker {code[2:]}".strip(), "colour": None}
    rank, suit = code[:-1], code[-1:].upper()
    symbol = SUIT_SYMBOLS.get(suit, suit)
    return {"code": code, "face": f"{rank}{symbol}", "colour": "red" if suit in ("H", "D") else "black"}


def _points(label: str, n: int, glyph: str, style: str) -> Text:
    out = Text(f"{label} ")
    if n > 0:
        out.append(glyph * min(n, 12), style=style)
        out.append(" ")
    out.append(str(n), style="bold")
    return out


def _fairy(view: Mapping[str, Any], fid: int) -> Mapping[str, Any]:
    fairies: Sequence[Mapping[str, Any]] = view.get("fairies") or ()
    return fairies[fid] if fid < len(fairies) else {}


def band_of(view: Mapping[str, Any], seat: int) -> list[int]:
    """The indices of ``seat``'s fairies in ``view["fairies"]`` (one, or a band of up to three), A first."""
    fairies: Sequence[Mapping[str, Any]] = view.get("fairies") or ()
    found = [i for i, f in enumerate(fairies) if int(f.get("seat", i % 2)) == seat]
    return found or [seat]


def _banded(view: Mapping[str, Any]) -> bool:
    return int(view.get("band") or 1) > 1


def _marks(view: Mapping[str, Any], fid: int) -> str:
    """▶ the fairy whose turn it is, ⚔ a fairy in the combat on the table (bands only: one fairy a side needs none)."""
    if not _banded(view):
        return ""
    combat: Mapping[str, Any] = view.get("combat") or {}
    marks = ""
    if view.get("turn_fairy") == fid:
        marks += "▶"
    if fid in (combat.get("fighters") or ()):
        marks += "⚔"
    return f"{marks} " if marks else ""


def fairy_name_for(view: Mapping[str, Any], fid: int, own: int | None, names: Sequence[str] = ()) -> str:
    """A fairy as the reader says it: "you" / "the opponent" (one fairy a side), "your fairy B", "their fairy A",
    or for a spectator "bob" / "bob's fairy A" ("Player 2" while no name is known)."""
    seat = int(_fairy(view, fid).get("seat", fid % 2))
    if not _banded(view):
        return seat_name(seat, own, names)
    letter = str(_fairy(view, fid).get("letter") or "ABC"[fid // 2])
    if own is None:
        return f"{_player(seat, names)}'s fairy {letter}"
    return f"{'your' if seat == own else 'their'} fairy {letter}"


def short_name(view: Mapping[str, Any], fid: int, names: Sequence[str] = ()) -> str:
    """A fairy in a word or two, for a small terminal: "You", "Them", a spectator's "bob" (or "P2"); with bands
    "You B", "Them A", "bob A"."""
    own = view.get("seat")
    fairy = _fairy(view, fid)
    seat = int(fairy.get("seat", fid % 2))
    who = _short_player(seat, names) if own is None else ("You" if seat == own else "Them")
    if _banded(view):
        who += f" {fairy.get('letter') or 'ABC'[fid // 2]}"
    return who


def compact_fairy(view: Mapping[str, Any], fid: int, names: Sequence[str] = ()) -> Text:
    """One fairy in one short line, for a small terminal: whose, Live, Kill, Twinkle, weapon, conditions, the rest."""
    fairy = _fairy(view, fid)
    out = Text(_marks(view, fid))
    out.append(short_name(view, fid, names), style="bold")
    out.append(" Live ")
    out.append(str(fairy.get("live", 0)), style="bold green")
    out.append(" Kill ")
    out.append(str(fairy.get("kill", 0)), style="bold red")
    out.append(f" {TWINKLE}{fairy.get('twinkle', 0)}", style="yellow")
    weapon = fairy.get("weapon_title") or fairy.get("weapon")
    out.append(f" {weapon}" if weapon else " no weapon", style="" if weapon else "dim")
    if fairy.get("dead"):
        out.append(" DEAD", style="bold red")
    conditions = list(fairy.get("condition_titles") or fairy.get("conditions") or ())
    if conditions:
        out.append(" " + ", ".join(str(c) for c in conditions), style="bold magenta")
    mushrooms = int(fairy.get("mushrooms", 0))
    if mushrooms:
        out.append(f" {MUSHROOM}{mushrooms}")
    if fairy.get("bonus"):
        out.append(f" +{fairy['bonus']} bonus", style="bold")
    order_cards = list(fairy.get("order_cards") or ())
    if order_cards:
        out.append(" ")
        out.append_text(faces_text(order_cards[-1:]))
    if fairy.get("acted"):
        out.append(" ✓", style="dim")
    return out


def fairy_renderable(view: Mapping[str, Any], fid: int, names: Sequence[str] = ()) -> Text:
    """One fairy's line: whose, Live, Kill, Twinkle, weapon, conditions, mushrooms, bonus cards, Order cards.

    ``fid`` indexes ``view["fairies"]``; with one fairy a side it is her seat."""
    own = view.get("seat")
    fairy = _fairy(view, fid)
    seat = int(fairy.get("seat", fid))
    out = Text(_marks(view, fid))
    out.append(_title(seat, own, names), style="bold")
    if _banded(view):
        out.append(f" fairy {fairy.get('letter') or 'ABC'[fid // 2]}", style="bold")
    out.append(" ─ ")
    out.append_text(_points("Live", int(fairy.get("live", 0)), LIVE, "green"))
    out.append(" ")
    out.append_text(_points("Kill", int(fairy.get("kill", 0)), KILL, "red"))
    out.append(" ")
    out.append_text(_points("Twinkle", int(fairy.get("twinkle", 0)), TWINKLE, "yellow"))
    out.append(" ─ ")
    weapon = fairy.get("weapon_title") or fairy.get("weapon")
    out.append(str(weapon) if weapon else "no weapon yet", style="bold" if weapon else "dim")
    conditions = list(fairy.get("condition_titles") or fairy.get("conditions") or ())
    if conditions:
        out.append(" ─ ")
        out.append(", ".join(str(c) for c in conditions), style="bold magenta")
    if fairy.get("dead"):
        out.append(" ─ ")
        out.append("DEAD", style="bold red")
    details: list[Text] = []
    mushrooms = int(fairy.get("mushrooms", 0))
    details.append(Text(f"mushrooms {MUSHROOM * mushrooms} {mushrooms}" if mushrooms else "mushrooms 0"))
    if fairy.get("bonus"):
        details.append(Text(f"bonus cards {fairy['bonus']}", style="bold"))
    details.append(Text("has acted this round" if fairy.get("acted") else "has not acted yet this round", style="dim"))
    order_cards = list(fairy.get("order_cards") or ())
    if order_cards:
        line = Text("Order cards " if len(order_cards) > 1 else "Order card ")
        line.append_text(faces_text(order_cards))
        details.append(line)
    out.append("\n  ")
    out.append_text(Text(" · ").join(details))
    return out


def choice_text(choice: Mapping[str, Any] | None, seen: Iterable[Mapping[str, Any]] = ()) -> str:
    """A locked-in choice in words: the label of the legal entry it was (from ``seen``), else its fields."""
    if not choice:
        return ""
    for entry in seen:
        bare = decision_of(dict(entry))
        if bare and all(choice.get(key) == value for key, value in bare.items()):
            return str(entry.get("label") or "")
    kind = choice.get("kind")
    if kind == "declare":
        return str(choice.get("direction", "")).upper()
    if kind == "weapon":
        return str(choice.get("weapon", "")).replace("_", " ").title()
    if kind == "trumps":
        if choice.get("wild_points"):
            return f"points as {choice['wild_points']} Wild Trumps"
        faces = [c["face"] for c in (code_card(code) for code in choice.get("cards") or ()) if c]
        return " ".join(faces) if faces else "None"
    if kind in ("numbered", "wild"):
        card = code_card(choice.get("card"))
        face = card["face"] if card else "?"
        return f"{face} as a Wild Trump" if kind == "wild" else face
    if kind == "no_card":
        return "no card"
    fields = ", ".join(f"{k} {v}" for k, v in choice.items() if k != "kind")
    return f"{kind} ({fields})" if fields else str(kind)


def hand_renderable(view: Mapping[str, Any], seat: int, seen: Iterable[Mapping[str, Any]] = (),
                    compact: bool = False) -> Text:
    """A seat's combat hand: the cards for their owner, only the count for anyone else; then the lock state."""
    own = view.get("seat")
    combat: Mapping[str, Any] = view.get("combat") or {}
    sides: Sequence[Mapping[str, Any]] = combat.get("sides") or ()
    side: Mapping[str, Any] = sides[seat] if seat < len(sides) else {}
    out = Text("  hand: " if compact else "  combat hand: ", style="bold")
    if not combat:
        out.append("none" if compact else "none (no combat)", style="dim")
    elif seat == own and view.get("hand") is not None:
        out.append_text(faces_text(view.get("hand") or (), empty="empty"))
        out.append(f"  ({len(view.get('hand') or ())} cards)", style="dim")
    else:
        count = int(side.get("hand_count", 0))
        out.append(f"{count} card{'' if count == 1 else 's'}", style="italic")
    locked = bool((view.get("locked") or [False, False])[seat])
    if seat == own and view.get("my_choice"):
        out.append("   ")
        out.append(f"{LOCK} you locked in: {choice_text(view['my_choice'], seen)}", style="bold")
    elif locked:
        out.append("   ")
        out.append(f"{LOCK} locked in", style="bold")
    return out


def _trumps_cell(view: Mapping[str, Any], seat: int, seen: Iterable[Mapping[str, Any]]) -> Text:
    own = view.get("seat")
    combat: Mapping[str, Any] = view.get("combat") or {}
    side: Mapping[str, Any] = (combat.get("sides") or [{}, {}])[seat]
    out = Text()
    trumps = list(side.get("trumps") or ())
    if trumps:
        out.append_text(faces_text(trumps))
        if side.get("colour"):
            out.append(f" ({side['colour']})")
    elif seat == own and view.get("my_face_down"):
        out.append_text(faces_text(view.get("my_face_down") or ()))
        out.append(" face down (only you see them)", style="italic")
    elif int(side.get("face_down") or 0):
        n = int(side["face_down"])
        out.append(" ".join([FACE_DOWN] * n))
        out.append(f" (face down{f', {n}' if n > 1 else ''})", style="italic")
    if side.get("wild_points"):
        out.append(f" {side.get('points', 0)} point(s) as {side['wild_points']} Wild Trumps")
    elif side.get("points"):
        out.append(f" {side['points']} point(s) kept as Trumps")
    if not out.plain:
        choice = view.get("my_choice") if seat == own else None
        if choice and choice.get("kind") == "trumps":
            out.append(f"{LOCK} {choice_text(choice, seen)}", style="bold")
        elif (view.get("locked") or [False, False])[seat] and view.get("phase") == "trumps":
            out.append(f"{LOCK} locked in", style="bold")
        elif view.get("phase") == "trumps" and seat in (view.get("waiting_for") or ()):
            out.append("choosing …", style="dim")
        else:
            out.append("none", style="dim")
    return out


def _card_cell(view: Mapping[str, Any], seat: int, seen: Iterable[Mapping[str, Any]]) -> Text:
    own = view.get("seat")
    combat: Mapping[str, Any] = view.get("combat") or {}
    side: Mapping[str, Any] = (combat.get("sides") or [{}, {}])[seat]
    out = Text()
    if side.get("card"):
        out.append_text(face_text(side["card"]))
    wild = list(side.get("wild") or ())
    if wild:
        out.append(" wild: " if out.plain else "wild: ")
        out.append_text(faces_text(wild))
    if out.plain:
        return out
    choice = view.get("my_choice") if seat == own else None
    if choice and choice.get("kind") in ("numbered", "wild", "no_card"):
        out.append(f"{LOCK} {choice_text(choice, seen)}", style="bold")
    elif (view.get("locked") or [False, False])[seat] and view.get("phase") == "numbered":
        out.append(f"{LOCK} locked in", style="bold")
    elif view.get("phase") == "numbered" and seat in (view.get("waiting_for") or ()):
        out.append("choosing …" if seat != own else "[ choose ]", style="dim")
    else:
        out.append("—", style="dim")
    return out


def combat_renderable(view: Mapping[str, Any], seen: Iterable[Mapping[str, Any]] = (),
                      compact: bool = False, names: Sequence[str] = ()) -> RenderableType:
    """The combat on the table: each side's declared direction, Trumps (face up, or 🂠 for face down) and card."""
    combat: Mapping[str, Any] | None = view.get("combat")
    if not combat:
        return Text("No combat on the table.", style="italic")
    seen = list(seen)
    own = view.get("seat")
    order = (0, 1) if own is None else (1 - int(own), int(own))
    if compact:
        rows = []
        for seat in order:
            who = _short_player(seat, names) if own is None else "You" if seat == own else "Them"
            row = Text(f"{who}: ", style="bold")
            row.append_text(_direction(view, seat))
            row.append(" · trumps ")
            row.append_text(_trumps_cell(view, seat, seen))
            row.append(" · card ")
            row.append_text(_card_cell(view, seat, seen))
            rows.append(row)
        return Text("\n").join(rows)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_column(style="bold")
    grid.add_column()
    whose = [f"{_player(s, names)}'s" for s in order] if own is None else ["Their", "Your"]

    def direction(seat: int) -> Text:
        return _direction(view, seat)

    a, b = order
    grid.add_row(f"{whose[0]} direction:", direction(a), f"{whose[1]} direction:", direction(b))
    grid.add_row(f"{whose[0]} trumps:", _trumps_cell(view, a, seen), f"{whose[1]} trumps:", _trumps_cell(view, b, seen))
    grid.add_row(f"{whose[0]} card:", _card_cell(view, a, seen), f"{whose[1]} card:", _card_cell(view, b, seen))
    return grid


def _direction(view: Mapping[str, Any], seat: int) -> Text:
    """A side's declared direction, or its sealed lock-in."""
    own = view.get("seat")
    combat: Mapping[str, Any] = view.get("combat") or {}
    sides: Sequence[Mapping[str, Any]] = combat.get("sides") or [{}, {}]
    known = sides[seat].get("direction")
    if known:
        return Text(str(known).upper(), style="bold")
    choice = view.get("my_choice") if seat == own else None
    if choice and choice.get("kind") == "declare":
        return Text(f"{LOCK} {str(choice.get('direction', '')).upper()} (sealed)", style="bold")
    if (view.get("locked") or [False, False])[seat] and view.get("phase") == "declare":
        return Text(f"{LOCK} locked in", style="bold")
    return Text("—", style="dim")


def reveal_renderable(last: Mapping[str, Any] | None, own: int | None, extra: Sequence[str] = (),
                      compact: bool = False, names: Sequence[str] = ()) -> RenderableType:
    """The last attack's reveal: both sides' cards, then each step of the sum as the server wrote it, one a line
    (``compact``: only the last step, the result; every step is in the log too)."""
    if not last:
        return Text("─ reveal ─ no attack revealed yet", style="dim")
    kind = str(last.get("kind", "attack"))
    attacker, defender = last.get("attacker"), last.get("defender")
    heading = Text("─ reveal ─ ", style="bold")
    verb = "attack" if kind == "attack" else "wrestle"
    heading.append(f"round {last.get('round', '?')}: {_who_first(attacker, own, names)} "
                   f"{verb if attacker == own else verb + 's'} {seat_name(defender, own, names)}")
    if int(last.get("attacks") or 1) > 1:
        heading.append(f" (attack {last.get('attack')} of {last.get('attacks')})")
    fighters = list(last.get("fighters") or ())
    if len(fighters) == 2 and max(fighters) > 1 and attacker in (0, 1) and defender in (0, 1):
        def named(seat: int) -> str:
            letter = "ABC"[fighters[seat] // 2]
            if compact:
                who = _short_player(seat, names) if own is None else "You" if seat == own else "Them"
                return f"{who} {letter}"
            if own is None:
                return f"{_player(seat, names)}'s fairy {letter}"
            return f"{'your' if seat == own else 'their'} fairy {letter}"
        heading = Text("─ reveal ─ ", style="bold")
        first = named(int(attacker))
        heading.append(f"round {last.get('round', '?')}: {first if own is None else _capital(first)} {verb}s "
                       f"{named(int(defender))}")
        if int(last.get("attacks") or 1) > 1:
            heading.append(f" (attack {last.get('attack')} of {last.get('attacks')})")
    lines: list[RenderableType] = [heading]
    sides: Sequence[Mapping[str, Any]] = last.get("sides") or ()
    for side in sorted(sides, key=lambda s: 0 if s.get("seat") == attacker else 1):
        seat = side.get("seat")
        line = Text(f"  {_who_first(seat, own, names)}: ")
        card = code_card(side.get("card"))
        line.append_text(face_text(card, empty="no card"))
        wild = [c for c in (code_card(w) for w in side.get("wild") or ()) if c]
        if wild:
            line.append(" · wild ")
            line.append_text(faces_text(wild))
        trumps = [c for c in (code_card(t) for t in side.get("trumps") or ()) if c]
        if trumps:
            line.append(" · Trumps ")
            line.append_text(faces_text(trumps))
            if side.get("colour"):
                line.append(f" ({side['colour']})")
        if side.get("face_down"):
            line.append(f" · {' '.join([FACE_DOWN] * int(side['face_down']))} kept face down, not used")
        if side.get("points"):
            line.append(f" · {side['points']} point(s) as Trumps")
        if side.get("direction"):
            line.append(f" · {str(side['direction']).upper()}")
        line.append(" = " if compact else " → final value ")
        value = side.get("value")
        line.append("none" if value is None else str(value), style="bold")
        lines.append(line)
    steps = [with_names(str(step), names) for step in last.get("steps") or ()]
    for step in steps[-1:] if compact else steps:
        lines.append(Text(f"  {step.split(' (')[0].rstrip('.') + '.' if compact else step}"))
    for text in () if compact else extra:
        lines.append(Text(f"  {with_names(text, names)}", style="bold"))
    return Group(*lines)


def heap_renderable(view: Mapping[str, Any], compact: bool = False) -> Text:
    """The Spoils Heap's size and top card (nobody may look through it) and the Fairy Deck's count."""
    size = view.get("spoils")
    count = int(size) if isinstance(size, int) else 0
    if compact:
        out = Text("Heap ", style="bold")
        out.append(str(count))
        top = view.get("spoils_top")
        if count:
            out.append(", top ")
            out.append_text(face_text(top) if top else Text("face down", style="italic"))
        out.append(" · ")
        out.append("Deck ", style="bold")
        out.append(str(view.get("deck", "?")))
        return out
    out = Text("Spoils Heap: ", style="bold")
    out.append(f"{count} card{'' if count == 1 else 's'}")
    top = view.get("spoils_top")
    if count:
        out.append(", top ")
        if top:
            out.append_text(face_text(top))
        else:
            out.append("face down", style="italic")
    out.append(" · ")
    out.append("Fairy Deck: ", style="bold")
    out.append(f"{view.get('deck', '?')} cards")
    return out


def _combat_words(view: Mapping[str, Any], compact: bool = False, names: Sequence[str] = ()) -> str:
    combat: Mapping[str, Any] | None = view.get("combat")
    if not combat:
        return ""
    own = view.get("seat")
    attacker, defender = combat.get("attacker"), combat.get("defender")
    verb = "attack" if combat.get("kind") == "attack" else "wrestle"
    fighters = list(combat.get("fighters") or ())
    if _banded(view) and len(fighters) == 2 and attacker in (0, 1) and defender in (0, 1):
        def name(fid: int) -> str:
            return short_name(view, fid, names) if compact else fairy_name_for(view, fid, own, names)

        words = f"{name(fighters[int(attacker)])} {verb}s {name(fighters[int(defender)])}"
    elif own is None:
        words = f"{seat_name(attacker, own, names)} {verb}s {seat_name(defender, own, names)}"
    elif attacker == own:
        words = f"you {verb} the opponent"
    else:
        words = f"the opponent {verb}s you"
    number, total = int(combat.get("attack") or 0), int(combat.get("attacks") or 1)
    words += f" (attack {number} of {total})" if number else f" ({total} attack{'s' if total > 1 else ''})"
    return words


def _declared(view: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    combat: Mapping[str, Any] | None = view.get("combat")
    if not combat:
        return ""
    own = view.get("seat")
    parts = []
    for side in combat.get("sides") or ():
        if side.get("direction"):
            seat = side.get("seat")
            parts.append(f"{seat_name(seat, own, names)} declared {str(side['direction']).upper()}")
    choice = view.get("my_choice")
    if not parts and choice and choice.get("kind") == "declare":
        parts.append(f"you declared {str(choice.get('direction', '')).upper()} (sealed)")
    return " · ".join(parts)


def fairy_meat_info(view: Mapping[str, Any], compact: bool = False, names: Sequence[str] = ()) -> Text:
    """Duel, round, order, whose turn, the combat ("you attack (attack 1 of 2)"), declarations, the phase
    (``compact``: without the seat reminder and the declarations, which the table shows)."""
    own = view.get("seat")
    out = Text()
    if int(view.get("best_of") or 1) > 1:
        wins = list(view.get("wins") or [0, 0])
        out.append(f"duel {view.get('duel', '?')} of best of {view.get('best_of')} "
                   f"(duels won {wins[0] if wins else 0} to {wins[1] if len(wins) > 1 else 0}) · ")
    out.append(f"round {view.get('round', '?')}", style="bold")
    order = list(view.get("order") or ())
    if order:
        if compact:
            out.append(" · order: " + ", ".join(short_name(view, f, names) for f in order))
        else:
            out.append(" · order: " + ", then ".join(fairy_name_for(view, f, own, names) for f in order))
    turn = view.get("turn")
    if turn is not None:
        out.append(" · ")
        whose = ("your turn" if turn == own else f"{seat_name(turn, own, names)}'s turn" if own is None
                 else "the opponent's turn")
        if _banded(view) and view.get("turn_fairy") is not None:
            fid = int(view["turn_fairy"])
            name = short_name(view, fid, names) if compact else fairy_name_for(view, fid, own, names)
            whose = f"{name}'s turn"
        out.append(whose, style="bold")
    combat = _combat_words(view, compact, names)
    if combat:
        out.append(" · ")
        out.append(combat, style="bold")
    declared = "" if compact else _declared(view, names)
    if declared:
        out.append(" · " + declared)
    phase = str(view.get("phase", ""))
    out.append(f" · {PHASE_NAMES.get(phase, phase)}")
    named = own is not None and 0 <= int(own) < len(names) and bool(names[int(own)])
    if own is not None and not compact and not named:  # once names are known, the panels and the log use them
        out.append(f" · you are {player_name(int(own))}", style="dim")
    if view.get("scenario"):
        out.append(" · scenario", style="dim")
    return out


def time_left(deadline: float | None, now: float | None = None) -> int | None:
    """Whole seconds left until ``deadline`` (``time.monotonic()``), rounded up; ``None`` when no clock runs."""
    if deadline is None:
        return None
    left = deadline - (clock.monotonic() if now is None else now)
    return max(0, int(left + 0.999))


def fairy_meat_status(view: Mapping[str, Any] | None, *, over: Mapping[str, Any] | None = None,
                      free_seats: int = 0, seconds: int | None = None,
                      seen: Iterable[Mapping[str, Any]] = (), compact: bool = False, names: Sequence[str] = ()) -> str:
    """One line: the result, an empty seat, your move (and the time left), or what we wait for (``compact``:
    without the keys, which the footer shows); a spectator reads the players' ``names``."""
    if view is None:  # no view yet, or a room not dealt until every seat is taken
        return "waiting for an opponent to join" if free_seats else "waiting for the table…"
    own = view.get("seat")
    outcome = view.get("outcome") or (over or {}).get("outcome")
    if outcome:
        detail = str(outcome.get("detail") or outcome.get("reason", ""))
        if own is None:
            return f"match over: {detail}"
        winner = outcome.get("winner")
        verdict = "a draw" if winner is None else "you win" if winner == own else "you lose"
        return f"match over: {detail} — {verdict}"
    if free_seats:
        return "waiting for an opponent to join"
    timer: Mapping[str, Any] = view.get("timer") or {}
    clock = ""
    if seconds is not None and timer:
        clock = f" · {seconds} s left" if timer.get("seat") == own else \
            f" · {seat_name(timer.get('seat'), own, names)} has {seconds} s"
    locked = list(view.get("locked") or [False, False])
    if own is None:
        phase = str(view.get("phase", ""))
        waiting = ", ".join(_player(int(s), names) for s in view.get("waiting_for") or ())
        shown = "".join(f" · {_player(s, names)} {LOCK} locked in" for s in (0, 1) if locked[s])
        return f"spectating · {PHASE_NAMES.get(phase, phase)}" + (f" · waiting for {waiting}" if waiting else "") \
            + shown + clock
    other = 1 - int(own)
    if view.get("legal"):
        phase = str(view.get("phase", ""))
        line = f"your move: {PHASE_PROMPTS.get(phase, phase)}" + ("" if compact else " · 1-9 or ↑ ↓ to pick, Enter sends")
        if locked[other]:
            line += f" · opponent {LOCK} locked in"
        return line + clock
    if view.get("my_choice"):
        return f"you locked in {choice_text(view['my_choice'], seen)} — waiting for the opponent" + clock
    return "waiting for the opponent" + clock


# -- the screen ---------------------------------------------------------------------


class FairyMeatScreen(SolitaireScreen, DuelScreen):
    """One Fairy Meat room: the opponent's fairy on top, the combat and the last reveal, yours below.

    A spectator sees both fairies and the public reveal, no hands and no moves.
    """

    GAME_TITLE = "Fairy Meat"
    RULES_HELP = RULES + "\n" + DUEL_HELP

    DEFAULT_CSS = """
    FairyMeatScreen #body { height: 1fr; }
    FairyMeatScreen #moves-pane { width: 44; }
    FairyMeatScreen EventLog { height: 9; }
    FairyMeatScreen #them, FairyMeatScreen #me { height: auto; background: $boost; padding: 0 1; }
    FairyMeatScreen #combat, FairyMeatScreen #reveal, FairyMeatScreen #heap { height: auto; margin-top: 1; }
    FairyMeatScreen #me { margin-top: 1; }
    FairyMeatScreen.-compact Header { display: none; }
    FairyMeatScreen.-compact #table { padding: 0; }
    FairyMeatScreen.-compact #moves-pane { width: 30; }
    FairyMeatScreen.-compact #log { height: 2; }
    FairyMeatScreen.-compact TableTalk RichLog { height: 1; }
    FairyMeatScreen.-compact #them, FairyMeatScreen.-compact #me { padding: 0; }
    FairyMeatScreen.-compact #combat, FairyMeatScreen.-compact #reveal, FairyMeatScreen.-compact #heap,
    FairyMeatScreen.-compact #me { margin-top: 0; }
    """

    COMPACT_BELOW = (100, 32)
    """A terminal narrower or lower than this (80x24, say) gets the compact table: one line a fairy, the
    result of the last attack without its steps (they are in the log), a shorter log, no header."""

    def __init__(self, room: str, game: str, *, spectator: bool) -> None:
        super().__init__(room, game, spectator=spectator)
        self.deadline: float | None = None
        """``time.monotonic()`` when the running decision clock of the view runs out."""
        self.timer_key: tuple[int, int] | None = None
        self.seen: list[dict[str, Any]] = []
        """Legal entries offered so far this attack: a locked-in choice is told by the label it had."""
        self.reveal_extra: tuple[tuple[Any, ...], list[str]] | None = None
        """Texts that followed the last result (Ace of Spades, hits, Nasty Hits), keyed by its record."""

    def compose_table(self) -> Iterable[Widget]:
        yield Static(id="them")
        yield Static(id="combat")
        yield Static(id="reveal")
        yield Static(id="me")
        yield Static(id="heap")

    def on_mount(self) -> None:
        """(The base class's ``on_mount`` runs too.) The countdown ticks while a clock runs."""
        self.set_interval(0.5, self._tick)

    # -- what the app feeds in -----------------------------------------------------

    def show(self, version: int, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """A new view: keep the texts that follow a result for the reveal, restart the clock, then draw."""
        if version > 0:
            self.free_seats = 0
        after: list[str] | None = None
        for event in events:
            kind = event.get("kind")
            if kind == "result":
                after = []
            elif after is not None and kind in REVEAL_EXTRAS and event.get("text"):
                after.append(str(event["text"]))
        if after is not None and view.get("last"):
            self.reveal_extra = (_record_key(view["last"]), after)
        timer = view.get("timer")
        if timer:
            key = (version, int(timer.get("seat", -1)))
            if key != self.timer_key:
                self.timer_key = key
                self.deadline = clock.monotonic() + float(timer.get("seconds") or 0)
        else:
            self.timer_key, self.deadline = None, None
        legal = list(view.get("legal") or ())
        if legal:
            self.seen = [*legal, *self.seen][:200]
        self.note_events(events)
        super().show(version, view, events)

    # -- drawing -------------------------------------------------------------------

    def headline(self, view: dict[str, Any]) -> str:
        return f"round {view.get('round', '?')}"

    def info(self, view: dict[str, Any]) -> Text:
        return fairy_meat_info(view, self.compact, self.names)

    @property
    def compact(self) -> bool:
        return self.has_class("-compact")

    def on_resize(self, event: events.Resize) -> None:
        """Switch to the compact table on a small terminal, and back."""
        width, height = self.COMPACT_BELOW
        compact = event.size.width < width or event.size.height < height
        if compact != self.compact:
            self.set_class(compact, "-compact")
            if self.view is not None:
                self.query_one("#info", Static).update(self.info(self.view))
                self.draw(self.view)
            self._refresh_status()

    def draw(self, view: dict[str, Any]) -> None:
        own = view.get("seat")
        compact = self.compact
        top, bottom = (0, 1) if own is None else (1 - int(own), int(own))
        for widget_id, seat in (("#them", top), ("#me", bottom)):
            lines = [compact_fairy(view, fid, self.names) if compact else fairy_renderable(view, fid, self.names)
                     for fid in band_of(view, seat)]
            body = Text("\n").join(lines)
            body.append("\n")
            body.append_text(hand_renderable(view, seat, self.seen, compact))
            reasons = blocked_text(view.get("hand") or [], self.blocked) if seat == own else Text()
            if reasons:  # the cards of the combat hand no decision plays now, and why
                body.append("\n")
                body.append_text(reasons)
            self.query_one(widget_id, Static).update(body)
        self.query_one("#combat", Static).update(combat_renderable(view, self.seen, compact, self.names))
        last = view.get("last")
        extra: list[str] = []
        if last and self.reveal_extra is not None and self.reveal_extra[0] == _record_key(last):
            extra = self.reveal_extra[1]
        self.query_one("#reveal", Static).update(reveal_renderable(last, own, extra, compact, self.names))
        self.query_one("#heap", Static).update(heap_renderable(view, compact))

    def status_text(self) -> str:
        return fairy_meat_status(self.view, over=self.over, free_seats=self.free_seats,
                                 seconds=time_left(self.deadline, self.frozen), seen=self.seen, compact=self.compact,
                                 names=self.names)

    def watch_free_seats(self) -> None:
        self._refresh_status()

    def watch_names(self) -> None:
        super().watch_names()
        if self.view is not None:
            self.view = self.view  # redraw the fairies, the combat and the status under the names the lobby gave

    def log_text(self, text: str) -> str:
        return with_names(text, self.names)

    def _tick(self) -> None:
        if self.deadline is not None and self.frozen is None:  # frozen: the server is out of reach, time stands
            self._refresh_status()


def _record_key(last: Mapping[str, Any]) -> tuple[Any, ...]:
    """Which attack a record is: duel, round, attacker, attack number (and its steps, in case of a repeat)."""
    return (last.get("duel"), last.get("round"), last.get("attacker"), last.get("attack"), tuple(last.get("steps") or ()))
