"""The strong Creature Wars bot: determinized search from its own view.

A *world* is a full engine state consistent with what the seat sees: its own hand, both HP, the turn, the
discard pile, the deck's size, whether the other seat has locked in, are taken from the view; the cards it
cannot see (the other hand, the deck's order) are dealt at random from a fresh deal. Modifiers in play are
left out (the view gives their text, not their workings), so a world is an approximation of the seat's
information set, never a peek at the real one. For each legal play the bot samples worlds, resolves the duel
with the pure engine (the other seat playing at random), and scores the HP difference; the play with the best
total wins (the same worlds for every play, so they are compared fairly). Witch questions are answered the same way.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.cards import Card, CardKind, PowerType, Tribe
from engine.creature_wars.state import Phase, State

__all__ = ["SAMPLES", "SearchBot", "card_of", "world"]

SAMPLES = 4
"""Worlds sampled per decision."""
DEPTH = 1
"""Decisions played at random after the candidate, in each world, before the HP difference is scored: one is
the other seat's play, which resolves the duel."""
WIN = 100
"""A win's worth, in HP difference."""
_UID = 100_000


def _token(shown: Mapping[str, Any]) -> str | None:
    """A token creature's name (one named otherwise than its Tribe), read from its notation:
    ``Lvl.N [Type] Name {b}``."""
    if shown["kind"] != CardKind.CREATURE.value:
        return None
    middle = str(shown["text"]).split(" {", 1)[0].split(" ", 1)[1]
    if shown.get("type"):
        middle = middle.split(" ", 1)[1] if " " in middle else middle
    name = middle.rstrip("!")
    return None if name == shown.get("tribe") else name


def card_of(shown: Mapping[str, Any], uid: int, turn: int) -> Card:
    """The card a view shows, as the engine's value (``uid`` the bot's own numbering)."""
    rally = set(shown.get("rally") or ())
    return Card(
        uid, CardKind(shown["kind"]), int(shown["level"]), int(shown["base"]),
        Tribe(shown["tribe"]) if shown.get("tribe") else None,
        PowerType(shown["type"]) if shown.get("type") else None,
        shown.get("name") if shown["kind"] == CardKind.WITCH.value else None,
        "tribe" in rally, "type" in rally, "witch" in rally,
        turn + int(shown.get("cooldown") or 0), bool(shown.get("banned")), _token(shown),
    )


def world(view: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view`` (the seat's own view), the unseen cards dealt at random."""
    seat = int(view["seat"])
    other = 1 - seat
    turn = int(view["turn"])
    fresh = GAME.setup({"hp": int(view.get("max_hp") or 30)}, rng.randrange(2**62))
    unseen = list(fresh.hands[0] + fresh.hands[1] + fresh.deck)
    rng.shuffle(unseen)
    count = int(view["hands"][other]["count"])
    deck_size = int(view["deck"])
    mine = tuple(card_of(c, _UID + n, turn) for n, c in enumerate(view["hands"][seat]["cards"]))
    theirs = tuple(unseen[:count])
    deck = tuple(unseen[count:count + deck_size])
    discard = tuple(card_of(c, _UID + 1000 + n, turn) for n, c in enumerate(view.get("discard") or ()))
    sealed: list[int | None] = [None, None]
    if view.get("locked_slot") is not None:
        sealed[seat] = int(view["locked_slot"])
    if (view.get("locked") or [False, False])[other] and theirs:
        sealed[other] = rng.randrange(len(theirs))
    hp = view["hp"]
    sampled: State = replace(
        fresh, version=int(view["version"]), opened=int(view["version"]), phase=Phase.DUEL, turn=turn,
        first_drawer=int(view["first_drawer"]), hp=(int(hp[0]), int(hp[1])),
        hands=(mine, theirs) if seat == 0 else (theirs, mine), deck=deck, discard=discard,
        sealed=(sealed[0], sealed[1]), next_uid=_UID * 2,
        last_draw_turn=turn - 1 if view.get("final_duel") else None,
    )
    return sampled


def _score(state: State, seat: int) -> int:
    outcome = state.outcome
    if outcome is not None and outcome.winner is not None:
        return WIN if outcome.winner == seat else -WIN
    return state.hp[seat] - state.hp[1 - seat]


def _playout(state: State, seat: int, first: Mapping[str, Any], rng: random.Random) -> int:
    """Play ``first`` for ``seat``, then everything at random for ``DEPTH`` decisions; the score from ``seat``."""
    try:
        state, _ = GAME.apply(state, seat, dict(first))
        for _ in range(DEPTH):
            if state.outcome is not None:
                break
            movers = [s for s in (0, 1) if GAME.legal(state, s)]
            if not movers:
                break
            mover = rng.choice(movers)
            state, _ = GAME.apply(state, mover, dict(rng.choice(list(GAME.legal(state, mover)))))
    except Exception:  # a world the approximation got wrong (a play the real state refuses): no opinion
        return 0
    return _score(state, seat)


class SearchBot:
    """Determinized search: the legal decision with the best summed score over sampled worlds."""

    level = "strong"

    def __init__(self, seed: int | str | None = None, samples: int = SAMPLES) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def decide(self, view: Mapping[str, Any]) -> dict[str, Any]:
        legal: Sequence[Mapping[str, Any]] = view["legal"]
        if len(legal) == 1 or view.get("seat") is None:
            return dict(legal[0])
        seat = int(view["seat"])
        totals = [0] * len(legal)
        for _ in range(self.samples):
            sample = world(view, self.rng)
            seed = self.rng.randrange(2**62)
            for n, decision in enumerate(legal):
                totals[n] += _playout(sample, seat, decision, random.Random(seed))
        best = max(totals)
        return dict(self.rng.choice([d for d, t in zip(legal, totals, strict=True) if t == best]))
