"""Property tests: random duels from random seeds and options, each seat taking random legal decisions."""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import NotYourTurn
from engine.fairy_meat import GAME
from engine.fairy_meat import cards as fc
from engine.fairy_meat.state import State
from engine.interface import Decision, Event, Seat, redact_all

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
FAIRY = st.fixed_dictionaries({}, optional={
    "weapon": st.sampled_from(["claws", "moon_dagger", "vibro_master"]),
    "twinkle": st.integers(min_value=0, max_value=2),
    "conditions": st.lists(st.sampled_from(["gbh", "bleeder", "gusher", "clipped_wings"]), max_size=2),
    "mushrooms": st.integers(min_value=0, max_value=3),
    "hand_size": st.integers(min_value=0, max_value=6),
    "flutter_penalty": st.integers(min_value=0, max_value=2),
}) | st.builds(lambda live, kill: {"live": live, "kill": kill},
               st.integers(min_value=0, max_value=4), st.integers(min_value=1, max_value=4))
OPTIONS = st.fixed_dictionaries({}, optional={
    "decks": st.integers(min_value=1, max_value=2),
    "jokers": st.integers(min_value=0, max_value=4) | st.booleans(),
    "trumps": st.sampled_from(["normal", "more", "fewer"]),
    "numbered": st.sampled_from(["normal", "extreme", "median"]),
    "colours": st.sampled_from(["balanced", "more_red", "more_black"]),
    "spoils": st.sampled_from(["heap", "reshuffle"]),
    "damage_scale": st.sampled_from(["halved", "tiered"]),
    "split_points": st.booleans(),
    "nasty_hits": st.just(True),
    "fungus": st.booleans(),
    "best_of": st.sampled_from([1, 1, 3]),
    "fairies": st.lists(FAIRY, min_size=2, max_size=2),
    "round_limit": st.integers(min_value=1, max_value=60),
})
SMALL_DECK = st.lists(st.sampled_from([*fc.full_pack(), "JK1", "JK2"]), min_size=2, max_size=24)
SCENARIO = st.fixed_dictionaries({"deck": SMALL_DECK}, optional={"spoils": st.sampled_from(["heap", "reshuffle"]),
                                                                  "round_limit": st.integers(min_value=1, max_value=60),
                                                                  "band": st.integers(min_value=1, max_value=3)})
BANDS = st.integers(min_value=2, max_value=3).flatmap(lambda band: st.fixed_dictionaries({"band": st.just(band)}, optional={
    "fairies": st.lists(FAIRY, min_size=2 * band, max_size=2 * band) | st.lists(FAIRY, min_size=2, max_size=2),
    "round_limit": st.integers(min_value=1, max_value=60),
    "best_of": st.sampled_from([1, 3]),
    "split_points": st.booleans(),
    "fungus": st.booleans(),
    "decks": st.integers(min_value=1, max_value=2),
    "damage_scale": st.sampled_from(["halved", "tiered"]),
}))
"""Bands of two or three fairies a side, with a scenario map for each seat or for each fairy."""
ANY_OPTIONS = OPTIONS | SCENARIO | BANDS
FAST = settings(max_examples=40, deadline=None)
BOUND = 3000


@dataclass
class Step:
    seat: Seat
    decision: Decision
    state: State
    events: list[Event]


@dataclass
class Match:
    start: State
    steps: list[Step] = field(default_factory=list)

    @property
    def states(self) -> list[State]:
        return [self.start, *(s.state for s in self.steps)]


def play(options: dict[str, Any], seed: int, rnd: random.Random) -> Match:
    state: State = GAME.setup(options, seed)
    match = Match(state)
    while GAME.outcome(state) is None:
        waiting = [s for s in (0, 1) if GAME.legal(state, s)]
        assert waiting, "the match is on but nobody may act"
        seat = rnd.choice(waiting)
        timed = GAME.timer(state)
        if timed is not None and timed[0] == seat and rnd.random() < 0.1:
            decision: Decision = {"kind": "timeout"}
        else:
            decision = rnd.choice(list(GAME.legal(state, seat)))
        state, events = GAME.apply(state, seat, decision)
        match.steps.append(Step(seat, decision, state, list(events)))
        assert len(match.steps) <= BOUND, "the match does not end"
    return match


def everywhere(state: State) -> Counter[str]:
    """Every card of the match: deck, Spoils Heap (both faces), combat hands and the cards in play."""
    out = Counter(state.deck + state.spoils + state.spoils_down)
    if state.combat is not None:
        for side in state.combat.sides:
            out.update(side.hand + side.trumps + side.wild + ([side.card] if side.card else []))
    return out


def hidden_from(state: State, seat: Seat | None, deck: bool = True) -> set[str]:
    """Cards ``seat`` (``None``: a spectator) may not see now: the other hands, face-down Trumps, face-down discards,
    and (``deck``) the Fairy Deck. A step's events may name a card that ends the step in the deck (shown, then
    shuffled back in with the Spoils Heap), so they are checked without it."""
    out: set[str] = set()
    if state.combat is not None:
        for side in state.combat.sides:
            if side.seat == seat:
                continue
            out.update(side.hand)
            if side.face_down and not side.shown:
                out.update(side.trumps)
    if seat is None:
        out.update(state.spoils_down)
    if deck:
        out.update(state.deck)
    unique = Counter(state.options.fairy_deck())
    return {code for code in out if unique[code] == 1}


def leaks(blob: str, codes: set[str]) -> list[str]:
    return [c for c in codes if f'"{c}"' in blob or fc.face(c) in blob]


def check_state(state: State) -> None:
    assert everywhere(state) == Counter(state.options.fairy_deck())
    assert 0 <= state.round <= state.options.round_limit
    assert len(state.fairies) == 2 * state.options.band
    for f in state.fairies:
        assert f.live >= 0 and f.kill >= 0 and f.twinkle >= 0 and f.mushrooms >= 0
    if state.combat is not None:
        assert [fid % 2 for fid in state.combat.fighters] == [0, 1]
    for seat in (0, 1, None):
        seen = GAME.view(state, seat)
        assert msgpack.unpackb(msgpack.packb(seen, use_bin_type=True), raw=False) == seen, "the view survives the wire"
        current = {k: v for k, v in seen.items() if k not in ("last", "fairies")}
        current["fairies"] = [{k: v for k, v in f.items() if k != "order_cards"} for f in seen["fairies"]]
        blob = json.dumps(current, ensure_ascii=False)
        assert not leaks(blob, hidden_from(state, seat)), f"hidden cards in the view of {seat}"
        assert "rng" not in seen
        if seat is None:
            assert seen["legal"] == [] and seen["hand"] is None and seen["my_choice"] is None
    last = state.last
    if last is not None:
        for side in last["sides"]:
            assert not (side["face_down"] and side["trumps"])


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
@FAST
@given(options=ANY_OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_duels_end_conserve_cards_and_hide_what_is_hidden(options: dict[str, Any], seed: int,
                                                                 rnd: random.Random) -> None:
    match = play(options, seed, rnd)
    outcome = GAME.outcome(match.states[-1])
    assert outcome is not None and sum(outcome.scores) <= match.start.options.best_of
    for state in match.states:
        check_state(state)
    for number, step in enumerate(match.steps, start=1):
        assert GAME.version(step.state) == number
        assert all(e.kind and e.public["text"] for e in step.events)
        for seat in (0, 1, None):
            told = redact_all(step.events, seat)
            blob = json.dumps(told, ensure_ascii=False)
            assert not leaks(blob, hidden_from(step.state, seat, deck=False)), f"hidden cards in events told to {seat}"
    over = [e for step in match.steps for e in step.events if e.kind == "over"]
    assert len(over) == 1 and match.steps[-1].events[-1].kind == "over"


@FAST
@given(options=ANY_OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_decisions_replay_byte_for_byte_and_dump_load_round_trips(
        options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    match = play(options, seed, rnd)
    state: State = GAME.setup(options, seed)
    assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(match.start))
    for step in match.steps:
        before = state
        wire = msgpack.unpackb(msgpack.packb(GAME.dump(before), use_bin_type=True), raw=False)
        assert GAME.load(wire) == before and GAME.dump(GAME.load(wire)) == GAME.dump(before)
        state, events = GAME.apply(GAME.load(wire), step.seat, step.decision)
        assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(step.state))
        assert list(events) == step.events


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_turns_and_sealed_steps(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """Only awaited seats may act; a lock-in in a sealed step keeps the other seat's decision current."""
    match = play(options, seed, rnd)
    for before, step in zip(match.states, match.steps, strict=False):
        other = 1 - step.seat
        if not GAME.legal(before, other):
            try:
                GAME.apply(before, other, {"kind": "timeout"})
            except NotYourTurn:
                pass
            else:
                raise AssertionError("a seat with nothing to decide was let act")
        both_waiting = bool(GAME.legal(before, 0)) and bool(GAME.legal(before, 1))
        if both_waiting and GAME.legal(step.state, other):
            assert GAME.opened(step.state, other) == GAME.opened(before, other) <= GAME.version(before)
            assert GAME.view(step.state, other)["locked"][step.seat]
        else:
            assert GAME.opened(step.state, other) == GAME.version(step.state)


def test_a_duel_nobody_can_win_ends_at_the_round_limit() -> None:
    """A deck of 5♣ only: every attack is a draw, so only the round limit ends the match (a drawn duel)."""
    state: State = GAME.setup({"deck": ["5C"] * 12, "fairies": [{"weapon": "claws"}, {"weapon": "claws"}]}, 3)
    steps = 0
    while GAME.outcome(state) is None:
        seat = next(s for s in (0, 1) if GAME.legal(state, s))
        legal = GAME.legal(state, seat)
        choice = next((d for d in legal if d.get("action") == "attack"), legal[0])
        state, _ = GAME.apply(state, seat, {k: v for k, v in choice.items() if k != "label"})
        steps += 1
        assert steps < BOUND, "the match does not end"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner is None and state.round == 40


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, rnd=st.randoms(use_true_random=False), limit=st.integers(min_value=1, max_value=6))
def test_random_play_always_ends_by_the_round_limit(seed: int, rnd: random.Random, limit: int) -> None:
    """Tiny decks that rarely hurt anyone: random play still ends, never after the round limit."""
    deck = ["5C", "5S", "6C", "6S", "JC", "QS"]
    match = play({"deck": deck, "round_limit": limit}, seed, rnd)
    assert match.states[-1].round <= limit and GAME.outcome(match.states[-1]) is not None


@settings(max_examples=30, deadline=None)
@given(options=BANDS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_band_matches_end_and_dead_fairies_stay_out(options: dict[str, Any], seed: int,
                                                           rnd: random.Random) -> None:
    """Bands: random play ends; a dead fairy takes no turn, is no target and draws no Order card."""
    match = play(options, seed, rnd)
    assert GAME.outcome(match.states[-1]) is not None
    for before, step in zip(match.states, match.steps, strict=False):
        state = step.state
        dead = {fid for fid, f in enumerate(state.fairies) if f.dead}
        for seat in (0, 1):
            assert not any(d.get("target") in dead for d in GAME.legal(state, seat) if d["kind"] == "action")
        if any(e.kind == "duel" for e in step.events):
            continue
        was_dead = {fid for fid, f in enumerate(before.fairies) if f.dead}
        for event in step.events:
            if event.kind in ("turn", "combat_hand"):
                fid = event.public.get("fairy")
                assert fid is None or fid not in was_dead
            if event.kind == "order":
                assert not was_dead & set(event.public["order"])
