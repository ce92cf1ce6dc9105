"""The arithmetic of one attack: Trumps on Numbered cards, cheats, who wins and by how much.

Pure functions of a :class:`~engine.fairy_meat.state.Combat`; the rules call
:func:`evaluate` to resolve an attack and to preview a choice (reveal or not, apply
points or not) in a decision's label. Every change to a value is a line of text in
``Result.steps``, so the events can show the whole sum.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.fairy_meat import cards
from engine.fairy_meat.cards import Colour
from engine.fairy_meat.state import Combat, DamageScale, Side

__all__ = ["BAND_LETTERS", "Result", "Trump", "applied_trumps", "card_key", "evaluate", "fairy_name", "points_for", "sign",
           "who"]

BAND_LETTERS = "ABC"
"""A band's fairies are its fairy A, B and C."""


def who(seat: int) -> str:
    return f"Player {seat + 1}"


def fairy_name(fid: int, band: int) -> str:
    """Fairy ``fid`` (seat ``fid % 2``'s fairy ``fid // 2``): ``Player 1``, or ``Player 1's fairy B`` in bands."""
    return who(fid % 2) if band == 1 else f"{who(fid % 2)}'s fairy {BAND_LETTERS[fid // 2]}"


def card_key(code: str) -> tuple[int, int]:
    """Sort cards by value, then suit (spades, hearts, diamonds, clubs): how hands and labels list them."""
    if cards.is_joker(code):
        return cards.rank(code), int(code[2:])
    return cards.rank(code), "SHDC".index(code[-1])


def sign(direction: str | None) -> int:
    return -1 if direction == "subtract" else 1


@dataclass(frozen=True, slots=True)
class Trump:
    """One Trump acting on an attack: a card (or a point used as a Trump) and its colour."""

    label: str
    colour: Colour | None
    ace_of_spades: bool = False


@dataclass(slots=True, init=False)
class Result:
    """An attack's values (by seat; ``None``: no Numbered card), the steps, the winner and the points scored."""

    values: list[int | None]
    steps: list[str] = field(default_factory=list)
    winner: int | None = None
    diff: int = 0
    points: int = 0
    rule: str = ""
    aces: int = 0

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the
    # compiled build (engine/creature_wars/state.py's ``State`` says more).
    def __init__(self, values: list[int | None], steps: list[str] | None = None, winner: int | None = None,
                 diff: int = 0, points: int = 0, rule: str = "", aces: int = 0) -> None:
        self.values = values
        self.steps = [] if steps is None else steps
        self.winner = winner
        self.diff = diff
        self.points = points
        self.rule = rule
        self.aces = aces


def points_for(diff: int, scale: DamageScale) -> int:
    """Halved (rounded up) by default; tiered: 1 up to 4, 2 up to 8, 3 from 9."""
    if diff <= 0:
        return 0
    if scale is DamageScale.HALVED:
        return (diff + 1) // 2
    return 1 if diff <= 4 else 2 if diff <= 8 else 3


def applied_trumps(side: Side, reveal: bool | None = None, apply_points: bool | None = None) -> tuple[list[Trump], int]:
    """The Trumps that act on ``side``'s Numbered card, and the points she adds as Trumps.

    Selected Trumps act once face up (or revealed, ``reveal`` previews that choice); Wild
    Trumps and Wild Trump points always act. A Joker played or pulled as a Wild Trump is
    named the colour of her Numbered card.
    """
    out: list[Trump] = []
    shown = side.shown or (side.face_down and bool(reveal))
    card_colour = None if side.card is None else cards.colour(side.card)
    if shown:
        named = None if side.colour is None else Colour(side.colour)
        out += [Trump(cards.face(t), named, t == cards.ACE_OF_SPADES) for t in side.trumps]
    for t in side.wild:
        out.append(Trump(cards.face(t) + " (wild)", card_colour if cards.is_joker(t) else cards.colour(t),
                         t == cards.ACE_OF_SPADES))
    if side.wild_points is not None:
        out += [Trump("a Wild Trump point", Colour(side.wild_points))] * side.points
        return out, 0
    use = side.apply_points if apply_points is None else apply_points
    return out, side.points if use else 0


def _colour_name(code: str) -> str:
    c = cards.colour(code)
    return "" if c is None else c.value


def evaluate(combat: Combat, scale: DamageScale, reveal: dict[int, bool] | None = None,
             apply_points: dict[int, bool] | None = None) -> Result:
    """Resolve the current attack of ``combat`` (or preview it with other reveal / apply choices)."""
    reveal = reveal or {}
    apply_points = apply_points or {}
    order = (combat.attacker, combat.defender)
    sides = {s.seat: s for s in combat.sides}
    values: list[int | None] = [None, None]
    result = Result(values)
    for seat in order:
        side = sides[seat]
        if side.card is None:
            result.steps.append(f"{who(seat)} has no Numbered card.")
        else:
            values[seat] = cards.rank(side.card)
            result.steps.append(f"{who(seat)}'s Numbered card: {cards.face(side.card)} ({_colour_name(side.card)} "
                                f"{values[seat]}).")
    acting = {seat: applied_trumps(sides[seat], reveal.get(seat), apply_points.get(seat)) for seat in order}
    result.aces = sum(t.ace_of_spades for seat in order for t in acting[seat][0])
    cheats: dict[int, list[Trump]] = {0: [], 1: []}
    for seat in order:
        side, (trumps, points) = sides[seat], acting[seat]
        value = values[seat]
        if value is None or side.card is None:
            if trumps:
                result.steps.append(f"{who(seat)}'s Trumps ({', '.join(t.label for t in trumps)}) have no Numbered "
                                    "card to act on: they do nothing.")
            continue
        step = sign(side.direction)
        word = "adds" if step > 0 else "subtracts"
        mine = cards.colour(side.card)
        for trump in trumps:
            if trump.colour is mine:
                new = value + step
                result.steps.append(f"{who(seat)} {word} {trump.label} ({mine.value if mine else ''}, matching "
                                    f"{cards.face(side.card)}): {value} → {new}.")
                value = new
            else:
                cheats[seat].append(trump)
        if points:
            new = value + step * points
            result.steps.append(f"{who(seat)} {word} her {points} point{'s' * (points != 1)} from the last attack as "
                                f"Trumps: {value} → {new}.")
            value = new
        values[seat] = value
    for cheater in order:
        if not cheats[cheater]:
            continue
        judge = 1 - cheater
        theirs, mine_card = sides[cheater].card, sides[judge].card
        assert theirs is not None
        if mine_card is None:
            own_step, their_step = 0, -1
        else:
            own_step = 1 if cards.colour(mine_card) is cards.colour(theirs) else -1
            their_step = -own_step
        for trump in cheats[cheater]:
            colour = trump.colour.value if trump.colour else "no colour"
            parts = []
            own, their = values[judge], values[cheater]
            assert their is not None
            if own is not None:
                values[judge] = own + own_step
                parts.append(f"{who(judge)}'s {own} → {values[judge]}")
            values[cheater] = their + their_step
            parts.append(f"{who(cheater)}'s {their} → {values[cheater]}")
            result.steps.append(
                f"{who(cheater)}'s {trump.label} ({colour}) does not match her {cards.face(theirs)}: a Naughty Little "
                f"Cheat! {who(judge)} applies it for her best result: {', '.join(parts)}.")
    a, d = order
    va, vd = values[a], values[d]
    if va is None and vd is None:
        result.rule = "Neither fairy has a Numbered card: nobody scores."
    elif va is None or vd is None:
        seat = a if vd is None else d
        value = va if vd is None else vd
        assert value is not None
        result.rule = (f"{who(1 - seat)} has no Numbered card: {who(seat)} scores her value against nothing "
                       f"({value}).")
        if value > 0:
            result.winner, result.diff = seat, value
    else:
        ca, cd = sides[a].card, sides[d].card
        assert ca is not None and cd is not None
        same = cards.colour(ca) is cards.colour(cd)
        if same:
            result.rule = f"Same colour: the highest wins ({va} against {vd})."
            if va != vd:
                result.winner = a if va > vd else d
        else:
            result.rule = f"Different colours: the lowest wins ({va} against {vd})."
            if va != vd:
                result.winner = a if va < vd else d
        result.diff = abs(va - vd)
        if result.winner is None:
            result.diff = 0
    result.steps.append(result.rule)
    result.points = points_for(result.diff, scale)
    if result.winner is None:
        result.steps.append("A draw: nobody scores.")
    else:
        how = (f"{result.diff} halved, rounded up" if scale is DamageScale.HALVED
               else f"a difference of {result.diff} on the tiered scale")
        result.steps.append(f"{who(result.winner)} wins by {result.diff}: {result.points} "
                            f"point{'s' * (result.points != 1)} ({how}).")
    return result
