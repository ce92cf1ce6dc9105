"""What the player, or a spectator, may see of a Fairy Tableau state: the same table for both.

The tableau and the discard pile are face up; of the draw pile only its count is shown,
never its order or contents. Only the player's view lists the legal plays.
"""
from __future__ import annotations

from typing import Any

from engine.fairy_tableau.cards import FAIRY_ORDER, role, value
from engine.fairy_tableau.rules import legal
from engine.fairy_tableau.state import Options, State
from engine.interface import Seat
from engine.playing_cards import PlayingCard

__all__ = ["card_view", "options_view", "view"]

_FAIRY_NAMES = dict(zip(FAIRY_ORDER, ("King of Hearts", "Queen of Hearts", "Jack of Hearts"), strict=True))


def card_view(card: PlayingCard, ranked_enemies: bool) -> dict[str, Any]:
    """A face-up card as a client draws it; ``value`` is what it counts for in this game."""
    return {
        "code": card.code,
        "face": card.face,
        "suit": card.suit.name.lower(),
        "value": value(card, ranked_enemies),
        "role": role(card).value,
    }


def options_view(options: Options) -> dict[str, Any]:
    """The room's rules; the fairies by name, and a scenario's deck never (it would show the draw pile)."""
    return {
        "fairies": options.fairies,
        "fairy_names": [_FAIRY_NAMES[code] for code in options.fairy_cards],
        "fizzle": options.fizzle.value,
        "ranked_enemies": options.ranked_enemies,
    }


def view(state: State, seat: Seat | None) -> dict[str, Any]:
    """The table: tableau (7 slots, ``None`` when empty), mana, counts, discard, score, legal plays, outcome."""
    ranked = state.options.ranked_enemies
    tableau: list[dict[str, Any] | None] = [
        None if card is None else {"slot": slot, **card_view(card, ranked)} for slot, card in enumerate(state.tableau)
    ]
    out: dict[str, Any] = {
        "game": "fairy_tableau",
        "version": state.version,
        "seat": seat,
        "tableau": tableau,
        "mana": state.mana,
        "draw_pile": len(state.draw),
        "discard": [card_view(card, ranked) for card in state.discard],
        "defeated": state.defeated,
        "enemies": state.enemies,
        "enemies_left": state.enemies - state.defeated,
        "score": state.score,
        "legal": legal(state, seat) if seat == 0 else [],
        "outcome": None,
        "options": options_view(state.options),
        "scenario": state.options.scenario,
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.data()
    return out
