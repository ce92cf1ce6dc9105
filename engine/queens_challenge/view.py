"""What the player, or a spectator, may see of a Queen's Challenge state.

The table (power piles, summoning zone, the in-play stack, counts, the magic discard
pile) is public. The hand and what the diamonds gift revealed are the player's alone.
The magic deck's order is never shown, except the top cards the diamonds gift revealed
(to the player); the challenge deck's order is never shown to anyone.
"""
from __future__ import annotations

from typing import Any

from engine.interface import Seat
from engine.playing_cards import PlayingCard
from engine.queens_challenge.rules import legal, strength
from engine.queens_challenge.state import ENEMY, HAND_SIZE, SUIT_NAME, SUITS, Challenger, State

__all__ = ["card_view", "view"]


def card_view(card: PlayingCard) -> dict[str, Any]:
    """A card as a client draws it: its code, its face and its value (A 1 ... K 13)."""
    return {"code": card.code, "face": card.face, "suit": card.suit.value, "value": card.rank}


def _maybe(card: PlayingCard | None) -> dict[str, Any] | None:
    return None if card is None else card_view(card)


def _challenger_view(entry: Challenger) -> dict[str, Any]:
    return {**card_view(entry.card), "value": entry.value, "printed": entry.card.rank, "lowered": entry.lowered}


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The public table for everyone; seat 0 also sees its hand, the diamonds reveal and its legal decisions."""
    mine = seat == 0
    target = state.target
    hand: dict[str, Any] = {"count": len(state.hand)}
    if mine:
        hand["cards"] = [card_view(c) for c in state.hand]
    piles = {}
    for suit in SUITS:
        pile = state.pile(suit)
        piles[suit.value] = {"name": SUIT_NAME[suit], "power": len(pile),
                             "top": card_view(pile[-1]) if pile else None, "strength": strength(state, suit)}
    out: dict[str, Any] = {
        "game": "queens_challenge",
        "version": state.version,
        "seat": seat,
        "phase": state.phase.value,
        "turn": state.turn,
        "hand": hand,
        "hand_size": HAND_SIZE,
        "piles": piles,
        "summoned": {s.value: _maybe(state.summon(s)) for s in SUITS},
        "in_play": None if target is None else _challenger_view(target),
        "enemy": None if target is None else ENEMY[target.card.suit].value,
        "in_play_stack": [_challenger_view(c) for c in state.in_play],
        "challenge_deck": len(state.challenge),
        "challenge_discard": len(state.challenge_discard),
        "score": state.score,
        "magic_deck": len(state.magic),
        "magic_discard": [card_view(c) for c in state.magic_discard],
        "gift_used": None if state.gift_used is None else state.gift_used.value,
        "summoning": _maybe(state.summoning),
        "legal": legal(state, 0) if mine else [],
        "outcome": None,
        "scenario": state.options.scenario,
    }
    if mine:
        out["reveal"] = [card_view(c) for c in state.magic[:state.reveal]]
        out["placed"] = state.placed
        out["known_top"] = [card_view(c) for c in state.magic[:state.known]]
    if state.outcome is not None:
        out["outcome"] = state.outcome.data()
    return out
