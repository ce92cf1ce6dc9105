"""What one seat, or a spectator, may see of a Fairy Meat state.

Public: every fairy (``fairies``: seat 0's fairy A, seat 1's fairy A, seat 0's fairy B, ...;
``order`` and ``turn_fairy`` are indices into it, ``turn`` the seat), the round and its Order, whose turn, the phase, the combat's
attack n of m, each combat hand's count, who has locked in, the Trumps face up on the
table and the count of face-down ones, the last attack's record, the Spoils Heap's
size and its top card when that went there face up (nobody may look through the heap), the
deck's count, the outcome.
A seat also sees its own combat hand, its own face-down Trumps, its own locked-in
choice and its legal decisions. Never shown: the deck's order, the other hand, the other
seat's sealed choice or face-down Trumps, the RNG.
"""
from __future__ import annotations

from typing import Any

from engine.fairy_meat import cards
from engine.fairy_meat.combat import BAND_LETTERS, card_key, fairy_name
from engine.fairy_meat.rules import Table, legal, refusal
from engine.fairy_meat.state import WEAPONS, Condition, Options, State
from engine.interface import Seat

__all__ = ["CARD_PHASES", "blocked", "card_view", "options_view", "view"]


def card_view(code: str) -> dict[str, Any]:
    """A face-up card as a client draws it."""
    colour = cards.colour(code)
    return {
        "code": code,
        "face": cards.face(code),
        "colour": None if colour is None else colour.value,
        "kind": "joker" if cards.is_joker(code) else "numbered" if cards.is_numbered(code) else "trump",
        "value": cards.rank(code),
    }


def options_view(options: Options) -> dict[str, Any]:
    """The room's rules; never a scenario's deck (it would show the deck's order)."""
    out = options.data()
    out.pop("deck", None)
    out["fixed_deck"] = options.deck is not None
    return out


def _fairy_view(state: State, fid: int) -> dict[str, Any]:
    f = state.fairies[fid]
    weapon = WEAPONS.get(f.weapon) if f.weapon else None
    return {
        "seat": fid % 2,
        "index": fid,
        "letter": BAND_LETTERS[fid // 2],
        "name": fairy_name(fid, state.options.band),
        "live": f.live,
        "kill": f.kill,
        "twinkle": f.twinkle,
        "weapon": f.weapon,
        "weapon_title": weapon.title if weapon else None,
        "conditions": list(f.conditions),
        "condition_titles": [Condition(c).display for c in f.conditions],
        "mushrooms": f.mushrooms,
        "bonus": f.bonus,
        "bonus_against": [{"fairy": int(k), "cards": v} for k, v in sorted(f.bonus_vs.items())],
        "acted": f.acted,
        "order_cards": [card_view(c) for c in f.order_cards],
        "dead": f.dead,
    }


def _combat_view(state: State, seat: Seat | None) -> dict[str, Any] | None:
    c = state.combat
    if c is None:
        return None
    sides = []
    for s in (0, 1):
        side = c.sides[s]
        entry: dict[str, Any] = {
            "seat": s,
            "hand_count": len(side.hand),
            "direction": side.direction,
            "trumps": [card_view(t) for t in side.trumps] if side.shown else [],
            "colour": side.colour if side.shown else None,
            "face_down": len(side.trumps) if side.face_down and not side.shown else 0,
            "card": None if side.card is None else card_view(side.card),
            "wild": [card_view(w) for w in side.wild],
            "wild_points": side.wild_points,
            "points": side.points,
        }
        sides.append(entry)
    return {"kind": c.kind, "attacker": c.attacker, "defender": c.defender, "attack": c.number, "attacks": c.attacks,
            "sides": sides, "fighters": list(c.fighters)}


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The table as ``seat`` (``None``: a spectator) may see it."""
    table = Table(state)
    awaited = table.awaited()
    task = table.front()
    sealing = task is not None and task["do"] == "seal"
    timed = table.timer()
    out: dict[str, Any] = {
        "game": "fairy_meat",
        "version": state.version,
        "seat": seat,
        "phase": table.phase(),
        "duel": state.duel,
        "best_of": state.options.best_of,
        "wins": list(state.wins),
        "round": state.round,
        "band": state.options.band,
        "order": list(state.order),
        "turn": None if state.turn is None else state.turn % 2,
        "turn_fairy": state.turn,
        "fairies": [_fairy_view(state, fid) for fid in range(len(state.fairies))],
        "combat": _combat_view(state, seat),
        "waiting_for": awaited,
        "locked": [sealing and state.sealed[s] is not None for s in (0, 1)],
        "timer": None if timed is None else {"seat": timed[0], "seconds": timed[1]},
        "last": state.last,
        "spoils": len(state.spoils) + len(state.spoils_down),
        "spoils_top": None if state.spoils_top is None else card_view(state.spoils_top),
        "deck": len(state.deck),
        "hand": None,
        "my_face_down": [],
        "my_choice": None,
        "legal": [],
        "outcome": None,
        "options": options_view(state.options),
        "scenario": state.options.scenario,
    }
    if seat in (0, 1):
        assert seat is not None
        if state.combat is not None:
            side = state.combat.sides[seat]
            out["hand"] = [card_view(c) for c in sorted(side.hand, key=card_key)]
            if side.face_down and not side.shown:
                out["my_face_down"] = [card_view(t) for t in side.trumps]
        if sealing:
            out["my_choice"] = state.sealed[seat]
        out["legal"] = legal(state, seat)
    if state.outcome is not None:
        out["outcome"] = state.outcome.data()
    return out


CARD_PHASES = {"trumps": "trumps", "numbered": "numbered"}
"""The phases whose decisions are cards of the combat hand, and the decision kind that plays a card alone in each."""


def blocked(state: State, seat: Seat) -> list[str | None]:
    """While ``seat`` chooses cards of its combat hand (Trumps, or the Numbered card): per card of the hand in the
    view's order, None if a legal decision plays it, else why not, in the words a refused play of it gives. Empty
    otherwise (a spectator, another phase, nothing awaited of the seat)."""
    if seat not in (0, 1) or state.outcome is not None or state.combat is None:
        return []
    kind = CARD_PHASES.get(Table(state).phase())
    offered = legal(state, seat)
    if kind is None or not offered:
        return []
    used = {code for d in offered for code in [d.get("card"), *(d.get("cards") or ())] if isinstance(code, str)}
    out: list[str | None] = []
    for card in sorted(state.combat.sides[seat].hand, key=card_key):
        if card in used:
            out.append(None)
            continue
        out.append(refusal(state, seat, {"kind": kind, "card": card} if kind == "numbered"
                           else {"kind": kind, "cards": [card]}))
    return out
