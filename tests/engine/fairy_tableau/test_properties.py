"""Property tests: random games from random seeds, options and decks, with random legal decisions."""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalDecision
from engine.fairy_tableau import GAME
from engine.fairy_tableau.rules import Kind, loses, plays
from engine.fairy_tableau.state import State
from engine.interface import Decision, Event, OutcomeReason, redact
from engine.playing_cards import PlayingCard, Suit, full_deck

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
POOL = [c.code for c in full_deck() if c.suit is not Suit.HEARTS or c.code in ("KH", "QH", "JH")]
SCENARIO = st.permutations(POOL).flatmap(
    lambda order: st.integers(min_value=1, max_value=len(order)).map(lambda n: order[:n])
).filter(lambda deck: any(code.endswith("C") for code in deck))
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "fairies": st.integers(min_value=0, max_value=3),
        "fizzle": st.sampled_from(["pay", "free"]),
        "ranked_enemies": st.booleans(),
    },
) | st.fixed_dictionaries(
    {"deck": SCENARIO},
    optional={"fizzle": st.sampled_from(["pay", "free"]), "ranked_enemies": st.booleans()},
)
FAST = settings(max_examples=60, deadline=None)


@dataclass
class Game:
    """A whole game: its start, every decision, and every state and event list after it."""

    start: State
    decisions: list[Decision] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)

    @property
    def end(self) -> State:
        return self.states[-1] if self.states else self.start

    @property
    def all_states(self) -> list[State]:
        return [self.start, *self.states]


def deck_of(state: State) -> list[PlayingCard]:
    return [c for c in (*state.tableau, *state.draw, *state.discard) if c is not None]


def play_random(options: dict[str, Any], seed: int, rnd: random.Random) -> Game:
    """Play to the end: mostly plays that do not lose, now and then any legal play."""
    state: State = GAME.setup(options, seed)
    game = Game(state)
    bound = len(deck_of(state))
    while GAME.outcome(state) is None:
        legal = list(GAME.legal(state, 0))
        assert legal, "the game is on but no play is legal"
        safe = [d for d in legal if not d.get("loses")]
        assert safe, "only losing plays are left but the game is not over"
        decision = rnd.choice(legal if rnd.random() < 0.05 else safe)
        state, events = GAME.apply(state, 0, decision)
        game.decisions.append(decision)
        game.states.append(state)
        game.events.append(list(events))
        assert len(game.decisions) <= bound, "the game does not end"
    return game


def check_view(state: State, seat: int | None) -> None:
    """Plain, serialisable, no RNG; the draw pile only as a count, none of its cards by code or face."""
    view = GAME.view(state, seat)
    blob = json.dumps(view, ensure_ascii=False)
    msgpack.packb(view, use_bin_type=True)
    assert "rng" not in view and "draw" not in view and "deck" not in view["options"]
    assert view["draw_pile"] == len(state.draw)
    for card in state.draw:
        assert f'"{card.code}"' not in blob, f"{card.code} of the draw pile leaks to {seat}"
        assert card.face not in blob, f"{card.face} of the draw pile leaks to {seat}"
    shown = [c["code"] for c in view["tableau"] if c is not None] + [c["code"] for c in view["discard"]]
    assert shown == [c.code for c in state.tableau if c is not None] + [c.code for c in state.discard]
    assert view["score"] == view["defeated"] * 1000 + view["mana"]
    if seat is None:
        assert view["legal"] == []


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_games_end_and_keep_every_invariant(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """Every game ends within one play per card; cards are conserved; views hide the draw pile; events log."""
    game = play_random(options, seed, rnd)
    outcome = GAME.outcome(game.end)
    assert outcome is not None
    start_deck = Counter(deck_of(game.start))
    assert len(start_deck) == sum(start_deck.values())
    assert len(game.decisions) <= len(start_deck)
    for state in game.all_states:
        assert Counter(deck_of(state)) == start_deck
        assert len(state.tableau) == 7 and 0 <= state.mana < 1000
        assert state.defeated == sum(1 for c in state.discard if c.suit is Suit.CLUBS)
        assert GAME.opened(state, 0) == GAME.version(state)
        for seat in (0, None):
            check_view(state, seat)
    for number, (state, events) in enumerate(zip(game.states, game.events, strict=True), start=1):
        assert GAME.version(state) == number
        assert events and all(e.kind and e.public["text"] for e in events)
        for event in events:
            assert redact(event, 0) == redact(event, None)
            json.dumps(redact(event, None))
    won = outcome.reason is OutcomeReason.WON
    assert won == (game.end.defeated == game.end.enemies)
    assert outcome.winner == (0 if won else None)
    assert outcome.scores == (game.end.defeated * 1000 + game.end.mana,)
    over = [(n, i) for n, events in enumerate(game.events) for i, e in enumerate(events) if e.kind == "over"]
    if game.events:
        assert over == [(len(game.events) - 1, len(game.events[-1]) - 1)], "'over' closes the last step, once"


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_decisions_replay_byte_for_byte(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    first = play_random(options, seed, rnd)
    state: State = GAME.setup(options, seed)
    assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(first.start))
    for decision, expected, expected_events in zip(first.decisions, first.states, first.events, strict=True):
        state, events = GAME.apply(state, 0, decision)
        assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(expected))
        assert list(events) == expected_events


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_dump_load_round_trip(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """load(dump(s)) == s at every step, also through msgpack bytes; play continues from a loaded state."""
    game = play_random(options, seed, rnd)
    for state in game.all_states:
        data = GAME.dump(state)
        assert GAME.load(data) == state
        wire = msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False)
        assert GAME.load(wire) == state and GAME.dump(GAME.load(wire)) == data
    for before, decision, after in zip(game.all_states, game.decisions, game.states, strict=False):
        assert GAME.apply(GAME.load(GAME.dump(before)), 0, decision)[0] == after


@settings(max_examples=40, deadline=None)
@given(options=OPTIONS, seed=SEEDS)
def test_legal_decisions_are_exactly_what_apply_accepts(options: dict[str, Any], seed: int) -> None:
    """At the deal, every listed decision applies; every other well-formed decision is refused."""
    state: State = GAME.setup(options, seed)
    if GAME.outcome(state) is not None:
        return
    legal = [{k: v for k, v in d.items() if k not in ("label", "loses")} for d in GAME.legal(state, 0)]
    slots = range(7)
    candidates: list[dict[str, Any]] = [{"kind": k, "slot": s} for k in ("mana", "fizzle") for s in slots]
    candidates += [{"kind": k, "slot": s, "target": t} for k in ("cast", "fairy") for s in slots for t in slots]
    candidates += [{"kind": "combo", "slot": s, "spell": p, "target": t} for s in slots for p in slots for t in slots]
    for decision in candidates:
        try:
            GAME.apply(state, 0, decision)
        except IllegalDecision:
            assert decision not in legal
        else:
            assert decision in legal


def _defeat_reachable(state: State) -> bool:
    """Exhaustively: some line of paid plays that defeat nothing reaches a paid play that defeats an enemy."""
    removals = {Kind.CAST, Kind.FAIRY, Kind.COMBO}
    seen: set[tuple[frozenset[PlayingCard], int, int]] = set()
    stack = [replace(state, outcome=None)]
    while stack:
        here = stack.pop()
        key = (frozenset(c for c in here.tableau if c is not None), len(here.draw), here.mana)
        if key in seen:
            continue
        seen.add(key)
        paid = [p for p in plays(here) if not loses(here, p)]
        if any(p.kind in removals for p in paid):
            return True
        stack.extend(replace(GAME.apply(here, 0, p.decision())[0], outcome=None) for p in paid)
    return False


SMALL = st.permutations(POOL).map(lambda order: order[:12]).filter(lambda deck: any(c.endswith("C") for c in deck))


@settings(max_examples=80, deadline=None)
@given(deck=SMALL, fizzle=st.sampled_from(["pay", "free"]), ranked=st.booleans(), rnd=st.randoms(use_true_random=False))
def test_the_game_is_lost_exactly_when_no_line_of_plays_defeats_another_enemy(
        deck: list[str], fizzle: str, ranked: bool, rnd: random.Random) -> None:
    """The engine's look-ahead (a Spade first when fizzles cost mana) agrees with trying every line of plays."""
    game = play_random({"deck": deck, "fizzle": fizzle, "ranked_enemies": ranked}, 1, rnd)
    for state in game.all_states:
        outcome = GAME.outcome(state)
        if outcome is None:
            assert _defeat_reachable(state)
    unpaid = any(e.kind == "unpaid" for events in game.events[-1:] for e in events)
    outcome = GAME.outcome(game.end)
    assert outcome is not None
    if outcome.reason is OutcomeReason.LOST and not unpaid:
        assert not _defeat_reachable(game.end)
