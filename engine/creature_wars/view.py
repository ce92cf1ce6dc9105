"""What one seat, or a spectator, may see of a Creature Wars state."""
from __future__ import annotations

import functools
from typing import Any, Final, TypeVar

from engine.creature_wars.cards import Card
from engine.creature_wars.rules import legal
from engine.creature_wars.state import PASS, PUBLIC, SEALED_FROM, Duel, State
from engine.creature_wars.witch_catalogue import by_name
from engine.interface import Seat
from engine.memo import Values

__all__ = ["card_view", "view"]

K = TypeVar("K")
V = TypeVar("V")

FACES: Final = 8192
"""How many faces each face cache holds before it starts again (far more than the cards of every match look like)."""
_FACES: Final[dict[tuple[Any, ...], dict[str, Any]]] = {}
_HELD_FACES: Final[dict[tuple[Any, ...], dict[str, Any]]] = {}


def _card_face(card: Card, marks: bool = False) -> dict[str, Any]:
    """The parts of a card's view that depend on the card alone (cards are immutable values), kept by its
    :meth:`~Card.look`: one object for every card that looks the same, in whichever match.

    Rallies (``!`` and ``rally``) only with ``marks``: in the holder's own hand; a card the table sees shows none."""
    key = (card.look(), marks)
    found = _FACES.get(key)
    return found if found is not None else _kept(_FACES, key, _new_face(card, marks))


def _kept(kept: dict[K, V], key: K, value: V, most: int = FACES) -> V:
    """Keep ``value`` in ``kept`` under ``key`` (emptied first when it holds ``most``); returns it."""
    if len(kept) >= most:
        kept.clear()
    kept[key] = value
    return value


def _new_face(card: Card, marks: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "text": card.notation(marks=marks),
        "kind": card.kind._value_,
        "level": card.level,
        "base": card.base,
        "tribe": card.tribe._value_ if card.tribe else None,
        "type": card.ptype._value_ if card.ptype else None,
        "rally": [name for name, on in (("tribe", card.tribe_rally), ("type", card.type_rally),
                                          ("witch", card.witch_rally)) if on and marks],
    }
    if card.is_witch:
        assert card.witch is not None
        spec = by_name(card.witch)
        out["name"] = spec.name
        out["rarity"] = spec.rarity._value_
        out["rules"] = spec.text
    return out


def card_view(card: Card, turn: int | None = None) -> dict[str, Any]:
    """A card as a client draws it; never its internal id. With ``turn`` (a card in its holder's hand, shown to
    the holder): its rally marks, cooldown and playability too; without, the face the table sees. The answer
    is shared between calls (cards are immutable values): callers must not change it."""
    if turn is None:
        return _table_face(card)
    return _held_card(card, card.cooldown(turn))


_PILES: Final = Values()
_HELD_HANDS: Final = Values()
_DUELS: Final = Values()
_FLAGS: Final[dict[tuple[bool, bool], list[bool]]] = {(a, b): [a, b] for a in (False, True) for b in (False, True)}
"""The four lists of a flag per seat (locked in, passed): one object for each, shared by every view, so that a view's
delta finds an unchanged one by identity rather than by comparing it."""
_HPS: Final[dict[tuple[int, ...], list[int]]] = {}
HPS: Final = 4096
"""HP pairs kept (emptied when full): every match's HP pairs together are far fewer."""


def _table_face(card: Card) -> dict[str, Any]:
    """The face the table sees, kept with the card object (one card object goes from state to state), found by
    its value when the object has none yet."""
    found = card.face
    if found is None:
        found = card.face = _card_face(card)
    return found


def _held_card(card: Card, cooldown: int) -> dict[str, Any]:
    """A card in its holder's hand with ``cooldown`` turns still to wait, kept with the card object (it looks the
    same from turn to turn while its wait does: a card ready to play stays one object), found by its value when
    the object has none for that wait."""
    held = card.held
    if held is not None and held[0] == cooldown:
        return held[1]
    found = _held_face(card, cooldown)
    card.held = (cooldown, found)
    return found


def _held_face(card: Card, cooldown: int) -> dict[str, Any]:
    """A held card's view, one object for as long as it looks the same (from turn to turn while its cooldown
    stays, and for every card that looks the same with that wait): successive views share it, so comparing them
    skips it. Its text is made only when it is not found."""
    key = (card.look(), cooldown)
    found = _HELD_FACES.get(key)
    return found if found is not None else _kept(_HELD_FACES, key, _new_held_face(card, cooldown))


def _new_held_face(card: Card, cooldown: int) -> dict[str, Any]:
    waits_until = card.ready_turn - cooldown  # a turn on which it waits ``cooldown`` turns (with 0: any turn since)
    return {**_card_face(card, True), "text": card.notation(waits_until, marks=True), "cooldown": cooldown,
            "banned": card.banned, "playable": not card.banned and cooldown == 0}


def _pile(cards: tuple[Card, ...]) -> list[dict[str, Any]]:
    """The faces of a pile every view shows (the discard): the same tuple from state to state until it changes."""
    found: list[dict[str, Any]] | None = _PILES.get(cards)
    return found if found is not None else _PILES.keep(cards, [_table_face(c) for c in cards])


def _held_hand(cards: tuple[Card, ...], turn: int) -> dict[str, Any]:
    """A hand as its holder sees it on ``turn``: the same tuple from state to state until a card comes or goes."""
    found: dict[str, Any] | None = _HELD_HANDS.get(cards, turn)
    if found is not None:
        return found
    return _HELD_HANDS.keep(cards, {"count": len(cards), "cards": [_held_card(c, c.cooldown(turn)) for c in cards]},
                            turn)


@functools.lru_cache(maxsize=64)
def _hidden_hand(count: int) -> dict[str, Any]:
    """A hand as the others see it: how many cards."""
    return {"count": count}


def _duel_view(duel: Duel) -> dict[str, Any]:
    found: dict[str, Any] | None = _DUELS.get(duel)
    return found if found is not None else _DUELS.keep(duel, _new_duel_view(duel))


def _new_duel_view(duel: Duel) -> dict[str, Any]:
    return {
        "turn": duel.turn,
        "cards": [None if c is None else card_view(c) for c in duel.cards],
        "powers": list(duel.powers),
        "winner": duel.winner,
        "damage": list(duel.damage),
        "summary": duel.summary,
    }


def _public(state: State) -> dict[str, Any]:
    """The part of every view of ``state`` that is the same for each seat and a spectator, made once per state, in
    the views' key order (``seat``, ``hands``, ``legal`` and ``modifiers`` hold places each view fills in)."""
    memo = state.memo
    made: dict[str, Any] | None = memo.get(PUBLIC)
    if made is not None:
        return made
    before: dict[str, Any] | None = memo.get(SEALED_FROM)
    if before is not None:  # one seal more than that state (rules.apply): the rest is the very same parts
        made = dict(before)
        made["version"] = state.version
        made["locked"] = _locked(state)
        made["passed"] = _passed(state)
        memo[PUBLIC] = made
        return made
    pending = state.pending
    made = {
        "game": "creature_wars",
        "version": state.version,
        "seat": None,
        "phase": state.phase._value_,
        "turn": state.turn,
        "first_drawer": state.first_drawer,
        "final_duel": state.last_draw_turn is not None and state.last_draw_turn < state.turn and not state.deck,
        "hp": _hp(state.hp),
        "max_hp": state.options.hp,
        "deck": len(state.deck),
        "hands": None,
        "locked": _locked(state),
        "passed": _passed(state),
        "discard": _pile(state.discard),
        "last_duel": None if state.last_duel is None else _duel_view(state.last_duel),
        "legal": [],
        "outcome": None if state.outcome is None else state.outcome.data(),
        "scenario": state.options.scenario,
        "modifiers": None if any(m.hidden for m in state.modifiers) else _modifiers(state, None),
        "revealed": None if state.in_play is None else [None if c is None else card_view(c) for c in state.in_play],
        "waiting_for": None if pending is None else pending.seat,
    }
    memo[PUBLIC] = made
    return made


def _locked(state: State) -> list[bool]:
    """Per seat, whether it has locked in a card this duel."""
    sealed = state.sealed
    return _FLAGS[sealed[0] is not None and sealed[0] != PASS, sealed[1] is not None and sealed[1] != PASS]


def _passed(state: State) -> list[bool]:
    """Per seat, whether it has passed this duel (no playable card)."""
    sealed = state.sealed
    return _FLAGS[sealed[0] == PASS, sealed[1] == PASS]


def _hp(hp: tuple[int, ...]) -> list[int]:
    """The Empires' HP as views show them: one list for equal HP, kept as :data:`_FLAGS` are."""
    found = _HPS.get(hp)
    return found if found is not None else _kept(_HPS, hp, list(hp), HPS)


def _modifiers(state: State, seat: Seat | None) -> list[dict[str, Any]]:
    """The modifiers in play that ``seat`` is shown: a hidden one only to its owner."""
    return [{"text": m.text, "owner": m.owner, "until": m.until}
            for m in state.modifiers if m.text and (not m.hidden or m.owner == seat)]


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """Public table for everyone; a seat also sees its own hand, its sealed card and its legal plays."""
    public = _public(state)
    out = dict(public)
    out["seat"] = seat
    out["hands"] = [_held_hand(state.hands[s], state.turn) if s == seat else _hidden_hand(len(state.hands[s]))
                    for s in (0, 1)]
    if public["modifiers"] is None:
        out["modifiers"] = _modifiers(state, seat)
    pending = state.pending
    if pending is not None and pending.seat == seat:
        out["question"] = {"prompt": pending.prompt, "options": list(pending.options), "timeout": pending.timeout}
    if seat is not None:
        out["legal"] = legal(state, seat)
        sealed = state.sealed[seat]
        if sealed is not None and sealed != PASS:
            out["locked_card"] = card_view(state.hands[seat][sealed], state.turn)
            out["locked_slot"] = sealed
    return out
