"""Fairy Tableau rules: the deal, the five plays, refilling the tableau, winning and losing.

Every check lives in :func:`problem`, used both to list the legal plays and to explain
why a decision is refused, so the two can never disagree.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, Mapping

from engine.errors import IllegalDecision, MatchOver, NotYourTurn
from engine.fairy_tableau.cards import FAIRY_VALUE, Role, cost, label, role, value
from engine.fairy_tableau.state import START_MANA, TABLEAU_SIZE, Fizzle, Options, State, score
from engine.interface import Decision, Event, Outcome, OutcomeReason, Seat
from engine.playing_cards import PlayingCard, Suit, full_deck
from engine.rng import Rng

__all__ = [
    "EXTRA_KEYS", "SEARCH_LIMIT", "Kind", "Play", "apply", "blocked", "can_defeat", "candidates", "describe", "legal",
    "loses", "parse", "plays", "price", "problem", "setup",
]

EXTRA_KEYS = frozenset({"label", "loses"})
"""Keys a legal decision carries for the client; ``apply`` ignores them."""


class Kind(enum.StrEnum):
    """The five plays: a Spade for mana, a spell at an enemy, a fizzle, a fairy, a fairy + spell combo."""

    MANA = "mana"
    CAST = "cast"
    FIZZLE = "fizzle"
    FAIRY = "fairy"
    COMBO = "combo"


_KEYS: dict[Kind, tuple[str, ...]] = {
    Kind.MANA: ("slot",),
    Kind.CAST: ("slot", "target"),
    Kind.FIZZLE: ("slot",),
    Kind.FAIRY: ("slot", "target"),
    Kind.COMBO: ("slot", "spell", "target"),
}
"""The keys of each decision kind besides ``kind``: ``slot`` is the card played (the fairy in a
combo), ``target`` the enemy's slot, ``spell`` the diamond's slot in a combo."""

_ROLE_OF: dict[Kind, Role] = {
    Kind.MANA: Role.MANA, Kind.CAST: Role.SPELL, Kind.FIZZLE: Role.SPELL, Kind.FAIRY: Role.FAIRY, Kind.COMBO: Role.FAIRY,
}


@dataclass(frozen=True, slots=True)
class Play:
    """One decision, by tableau positions."""

    kind: Kind
    slot: int
    target: int | None = None
    spell: int | None = None

    def decision(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        for key in _KEYS[self.kind]:
            out[key] = getattr(self, key)
        return out


# -- checks ------------------------------------------------------------------------------


def _at(state: State, slot: int, what: str) -> PlayingCard | str:
    """The card in ``slot``, or why there is none."""
    if not 0 <= slot < TABLEAU_SIZE:
        return f"{what} {slot} is not a tableau position (0 to {TABLEAU_SIZE - 1})"
    card = state.tableau[slot]
    if card is None:
        return f"{what} {slot} is empty"
    return card


def _face(state: State, card: PlayingCard) -> str:
    return label(card, state.options.ranked_enemies)


def _value(state: State, card: PlayingCard) -> int:
    return value(card, state.options.ranked_enemies)


def _weak_enough(state: State, spell: PlayingCard) -> list[int]:
    """The slots of the enemies ``spell`` may be cast at alone (value <= the spell's)."""
    return [i for i, c in enumerate(state.tableau)
            if c is not None and role(c) is Role.ENEMY and _value(state, c) <= _value(state, spell)]


def problem(state: State, play: Play) -> str | None:
    """Why ``play`` is not legal now, or ``None`` when it is (it may still lose: see :func:`loses`)."""
    card = _at(state, play.slot, "slot")
    if isinstance(card, str):
        return card
    need = _ROLE_OF[play.kind]
    if role(card) is not need:
        return f"slot {play.slot} holds {card.face} ({role(card).value}): '{play.kind.value}' plays a {need.value} card"
    if play.kind is Kind.MANA:
        return None
    if play.kind is Kind.FIZZLE:
        targets = _weak_enough(state, card)
        if targets:
            weak = state.tableau[targets[0]]
            assert weak is not None
            return (f"{card.face} may be cast at {_face(state, weak)} in slot {targets[0]}: a spell fizzles only when "
                    "no enemy in the tableau is weak enough for it")
        return None
    assert play.target is not None
    enemy = _at(state, play.target, "target")
    if isinstance(enemy, str):
        return enemy
    if role(enemy) is not Role.ENEMY:
        return f"target {play.target} holds {enemy.face}, not an enemy (a Club)"
    strength = _value(state, enemy)
    if play.kind is Kind.CAST:
        if _value(state, card) < strength:
            return (f"{card.face} ({_value(state, card)}) is too weak for {_face(state, enemy)} ({strength}): "
                    "a spell must meet or exceed the enemy's value")
        return None
    if play.kind is Kind.FAIRY:
        if strength > FAIRY_VALUE:
            return (f"a fairy alone defeats only enemies worth {FAIRY_VALUE} or less; {_face(state, enemy)} is worth "
                    f"{strength}: play it with a spell ('combo')")
        return None
    assert play.spell is not None
    spell = _at(state, play.spell, "spell")
    if isinstance(spell, str):
        return spell
    if role(spell) is not Role.SPELL:
        return f"spell {play.spell} holds {spell.face}, not a spell (a Diamond)"
    if strength <= FAIRY_VALUE:
        return (f"the fairy + spell combo is for enemies worth more than {FAIRY_VALUE}; {_face(state, enemy)} is worth "
                f"{strength}: the fairy defeats it alone ('fairy')")
    if FAIRY_VALUE + _value(state, spell) < strength:
        return (f"{card.face} ({FAIRY_VALUE}) + {spell.face} ({_value(state, spell)}) = {FAIRY_VALUE + _value(state, spell)} "
                f"falls short of {_face(state, enemy)} ({strength})")
    return None


def price(state: State, play: Play) -> int:
    """The mana a legal play costs: a spell's value; a fizzle's too unless fizzles are free."""
    if play.kind is Kind.CAST or (play.kind is Kind.FIZZLE and state.options.fizzle is Fizzle.PAY):
        card = state.tableau[play.slot]
    elif play.kind is Kind.COMBO:
        assert play.spell is not None
        card = state.tableau[play.spell]
    else:
        return 0
    assert card is not None
    return cost(card)


def loses(state: State, play: Play) -> bool:
    """A legal play the player cannot pay for: making it loses the game at once."""
    return price(state, play) > state.mana


def candidates(card: PlayingCard, slot: int) -> list[Play]:
    """Every play the card in ``slot`` could make, legal or not (an enemy makes none: it is a target)."""
    slots = range(TABLEAU_SIZE)
    match role(card):
        case Role.MANA:
            return [Play(Kind.MANA, slot)]
        case Role.SPELL:
            return [Play(Kind.CAST, slot, target=t) for t in slots] + [Play(Kind.FIZZLE, slot)]
        case Role.FAIRY:
            return ([Play(Kind.FAIRY, slot, target=t) for t in slots]
                    + [Play(Kind.COMBO, slot, target=t, spell=s) for t in slots for s in slots])
    return []


def plays(state: State) -> list[Play]:
    """Every legal play in the tableau, losing ones included, in slot order."""
    out: list[Play] = []
    for slot, card in enumerate(state.tableau):
        if card is not None:
            out.extend(p for p in candidates(card, slot) if problem(state, p) is None)
    return out


def _aimed(state: State, play: Play) -> bool:
    """The play names an enemy as its target and a spell as its spell (where it names them): its refusal is news."""
    target = None if play.target is None else state.tableau[play.target]
    spell = None if play.spell is None else state.tableau[play.spell]
    return ((play.target is None or (target is not None and role(target) is Role.ENEMY))
            and (play.spell is None or (spell is not None and role(spell) is Role.SPELL)))


def blocked(state: State, seat: Seat) -> list[str | None]:
    """While the game goes on: per slot of the tableau, None if a legal play uses its card (or the slot is empty),
    else why not, in the words a refused play gives: for an enemy, the first spell's or fairy's play at it; for a
    fairy, its first play at an enemy."""
    if state.outcome is not None or seat != 0:
        return []
    used = {p for play in plays(state) for p in (play.slot, play.target, play.spell) if p is not None}
    out: list[str | None] = []
    for slot, card in enumerate(state.tableau):
        if card is None or slot in used:
            out.append(None)
            continue
        if role(card) is Role.ENEMY:
            tries = [p for s, c in enumerate(state.tableau) if c is not None for p in candidates(c, s) if p.target == slot]
            none = f"no spell (a Diamond) or fairy (a Heart) on the tableau can take on {card.face}"
        else:
            tries = candidates(card, slot)
            none = f"no enemy (a Club) on the tableau for {card.face}"
        reasons = [why for why in (problem(state, p) for p in tries if _aimed(state, p)) if why]
        out.append(reasons[0] if reasons else none)
    return out


def describe(state: State, play: Play) -> str:
    """A short label for a play, e.g. ``Cast 7♦ at 5♣ (-7 mana)``."""
    card = state.tableau[play.slot]
    assert card is not None
    enemy = None if play.target is None else state.tableau[play.target]
    spell = None if play.spell is None else state.tableau[play.spell]
    pay = price(state, play)
    money = f"-{pay} mana" + (f", you have {state.mana}: loses" if pay > state.mana else "")
    match play.kind:
        case Kind.MANA:
            return f"Play {card.face} for mana (+{_value(state, card)})"
        case Kind.CAST:
            assert enemy is not None
            return f"Cast {card.face} at {_face(state, enemy)} ({money})"
        case Kind.FIZZLE:
            return f"Fizzle {card.face} ({money if pay else 'free'})"
        case Kind.FAIRY:
            assert enemy is not None
            return f"{card.face} defeats {_face(state, enemy)}"
        case Kind.COMBO:
            assert enemy is not None and spell is not None
            return f"{card.face} + {spell.face} defeat {_face(state, enemy)} ({money})"
    raise AssertionError(f"unknown play kind {play.kind}")


# -- the interface -----------------------------------------------------------------------


def setup(raw: Mapping[str, Any], seed: int) -> State:
    """Deal: the deck (39 + fairies, shuffled by the seed, or the scenario's), 7 face up, 7 mana."""
    options = Options.parse(raw)
    rng = Rng.from_seed(seed)
    if options.deck is not None:
        deck = tuple(PlayingCard.parse(code) for code in options.deck)
    else:
        fairies = {PlayingCard.parse(code) for code in options.fairy_cards}
        cards = [c for c in full_deck() if c.suit is not Suit.HEARTS or c in fairies]
        deck, rng = rng.shuffled(cards)
    tableau = deck[:TABLEAU_SIZE] + (None,) * max(0, TABLEAU_SIZE - len(deck))
    state = State(options=options, version=0, tableau=tableau, draw=deck[TABLEAU_SIZE:], discard=(), mana=START_MANA,
                  defeated=0, enemies=sum(1 for c in deck if role(c) is Role.ENEMY), rng=rng.state)
    events: list[Event] = []
    return _judge(state, events)


def legal(state: State, seat: Seat) -> list[Decision]:
    """The plays open to the player, each with a ``label`` and ``loses: True`` on a play that loses."""
    if state.outcome is not None or seat != 0:
        return []
    out: list[Decision] = []
    for play in plays(state):
        decision = play.decision()
        decision["label"] = describe(state, play)
        if loses(state, play):
            decision["loses"] = True
        out.append(decision)
    return out


def parse(decision: Decision) -> Play:
    """A decision map as a :class:`Play`, or :class:`IllegalDecision` naming what is malformed."""
    if not isinstance(decision, Mapping):
        raise IllegalDecision(f"a decision must be a map with a 'kind', not {type(decision).__name__}")
    kinds = ", ".join(repr(k.value) for k in Kind)
    raw_kind = decision.get("kind")
    if raw_kind not in [k.value for k in Kind]:
        raise IllegalDecision(f"unknown decision kind {raw_kind!r}; Fairy Tableau takes {kinds}")
    kind = Kind(raw_kind)
    keys = _KEYS[kind]
    extra = sorted(str(k) for k in set(decision) - {"kind", *keys, *EXTRA_KEYS})
    if extra:
        raise IllegalDecision(f"decision '{kind.value}' takes {', '.join(repr(k) for k in keys)}; unexpected {extra[0]!r}")
    values: dict[str, int] = {}
    for key in keys:
        if key not in decision:
            raise IllegalDecision(f"decision '{kind.value}' needs {key!r} (a tableau position)")
        slot = decision[key]
        if not isinstance(slot, int) or isinstance(slot, bool):
            raise IllegalDecision(f"{key!r} must be a tableau position from 0 to {TABLEAU_SIZE - 1}, not {slot!r}")
        values[key] = slot
    play = Play(kind, values["slot"], target=values.get("target"), spell=values.get("spell"))
    positions = [p for p in (play.slot, play.spell, play.target) if p is not None]
    if len(set(positions)) != len(positions):
        raise IllegalDecision(f"decision '{kind.value}' names one tableau position twice: {positions}")
    return play


def apply(state: State, seat: Seat, decision: Decision) -> tuple[State, list[Event]]:
    """Make one play, refill the tableau, then judge: won, lost, or play on."""
    if state.outcome is not None:
        raise MatchOver("the game is over")
    if seat != 0:
        raise NotYourTurn(f"seat {seat} does not exist in Fairy Tableau, a one-player game (seat 0)")
    play = parse(decision)
    why = problem(state, play)
    if why is not None:
        raise IllegalDecision(why)
    events: list[Event] = []
    state = replace(state, version=state.version + 1)
    if loses(state, play):
        return _unpaid(state, play, events), events
    return _judge(_move(state, play, events), events), events


def _move(state: State, play: Play, events: list[Event]) -> State:
    """Make a legal play that is paid for: pay, discard, refill the tableau (no judging)."""
    card = state.tableau[play.slot]
    enemy = None if play.target is None else state.tableau[play.target]
    spell = None if play.spell is None else state.tableau[play.spell]
    assert card is not None
    pay = price(state, play)
    mana = state.mana - pay
    defeated = state.defeated + (enemy is not None)
    left = f"{mana} mana left"
    match play.kind:
        case Kind.MANA:
            mana += _value(state, card)
            text = f"You play {card.face} for {_value(state, card)} mana ({mana} in all)."
        case Kind.CAST:
            assert enemy is not None
            text = f"You cast {card.face} at {_face(state, enemy)} (-{pay} mana, {left}): both are discarded."
        case Kind.FIZZLE:
            text = f"{card.face} fizzles ({f'-{pay} mana' if pay else 'free'}, {left}): it is discarded."
        case Kind.FAIRY:
            assert enemy is not None
            text = f"{card.face} defeats {_face(state, enemy)}: both are discarded."
        case Kind.COMBO:
            assert enemy is not None and spell is not None
            text = (f"{card.face} and {spell.face} defeat {_face(state, enemy)} (-{pay} mana, {left}): "
                    "all three are discarded.")
    public: dict[str, Any] = {"card": card.code, "mana": mana, "defeated": defeated}
    if enemy is not None:
        public["target"] = enemy.code
    if spell is not None:
        public["spell"] = spell.code
    events.append(Event(play.kind.value, {"text": text, **public}))
    used = [p for p in (play.slot, play.spell, play.target) if p is not None]
    tableau = list(state.tableau)
    discard = list(state.discard)
    for slot in used:
        removed = tableau[slot]
        assert removed is not None
        discard.append(removed)
        tableau[slot] = None
    draw = list(state.draw)
    for slot in sorted(used):
        if not draw:
            break
        dealt = draw.pop(0)
        tableau[slot] = dealt
        events.append(Event("deal", {"text": f"{dealt.face} is dealt to slot {slot}.", "card": dealt.code, "slot": slot}))
    return replace(state, tableau=tuple(tableau), draw=tuple(draw), discard=tuple(discard), mana=mana,
                   defeated=defeated)


# -- the end -----------------------------------------------------------------------------


def _tally(state: State) -> str:
    return (f"{state.defeated} of {state.enemies} enemies defeated, {state.mana} mana left: "
            f"score {score(state.defeated, state.mana)}")


def _finish(state: State, won: bool, detail: str, events: list[Event]) -> State:
    reason = OutcomeReason.WON if won else OutcomeReason.LOST
    outcome = Outcome(0 if won else None, reason, (state.score,), detail)
    events.append(Event("over", {"text": f"{'You win' if won else 'You lose'}: {detail}.", "reason": reason.value,
                                 "score": state.score}))
    return replace(state, outcome=outcome)


def _unpaid(state: State, play: Play, events: list[Event]) -> State:
    """A spell the player cannot pay for: nothing moves, nothing is paid, and the game is lost."""
    spell = state.tableau[play.slot if play.spell is None else play.spell]
    assert spell is not None
    pay = price(state, play)
    text = f"You cannot pay {pay} mana for {spell.face} (you have {state.mana}): the spell fails."
    events.append(Event("unpaid", {"text": text, "card": spell.code, "cost": pay, "mana": state.mana}))
    return _finish(state, False, f"could not pay {pay} mana for {spell.face}; {_tally(state)}", events)


_REMOVALS = frozenset({Kind.CAST, Kind.FAIRY, Kind.COMBO})

SEARCH_LIMIT = 5000
"""Positions :func:`can_defeat` looks at before it gives up and lets play go on (a later play is judged again)."""


def can_defeat(state: State) -> bool:
    """Whether some sequence of plays, each paid for, still defeats an enemy.

    Only plays that defeat nothing (mana, fizzles) lead there, so the search runs over them
    alone, through the real draw pile. When fizzles cost mana, playing a Spade first never
    hurts (more mana, one more card dealt, and a Club it deals is a target a fizzle could
    have paid for), so one Spade is tried whenever there is one.
    """
    seen: set[tuple[frozenset[PlayingCard], int, int]] = set()
    stack = [state]
    while stack:
        here = stack.pop()
        key = (frozenset(c for c in here.tableau if c is not None), len(here.draw), here.mana)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > SEARCH_LIMIT:
            return True
        paid = [p for p in plays(here) if not loses(here, p)]
        if any(p.kind in _REMOVALS for p in paid):
            return True
        spades = [p for p in paid if p.kind is Kind.MANA]
        if spades and here.options.fizzle is Fizzle.PAY:
            paid = spades[:1]
        stack.extend(_move(here, p, []) for p in paid)
    return False


def _judge(state: State, events: list[Event]) -> State:
    """Won when every Club is defeated; lost the moment no sequence of plays can defeat another enemy."""
    if state.defeated == state.enemies:
        return _finish(state, True, f"all {state.enemies} enemies defeated, {state.mana} mana left: score {state.score}",
                       events)
    if not can_defeat(state):
        return _finish(state, False, f"no play, now or later, can defeat another enemy; {_tally(state)}", events)
    return state
