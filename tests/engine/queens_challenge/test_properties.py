"""Property tests: random Queen's Challenge games from random seeds and decks with random legal decisions."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.interface import Decision, Event, redact
from engine.playing_cards import PlayingCard, full_deck
from engine.queens_challenge import GAME
from engine.queens_challenge.state import State

CODES = [c.code for c in full_deck()]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly full shuffled decks; sometimes short scenario decks (so wins happen too) and a starting hand."""
    if draw(st.booleans()):
        return {}
    challenge = draw(st.permutations(CODES))[: draw(st.integers(min_value=1, max_value=12))]
    magic = draw(st.permutations(CODES))
    hand_size = draw(st.integers(min_value=0, max_value=5))
    out: dict[str, Any] = {"challenge": challenge, "magic": magic[hand_size: hand_size + draw(st.integers(0, 40))]}
    if draw(st.booleans()):
        out["hand"] = magic[:hand_size]
    return out


FAST = settings(max_examples=30, deadline=None)


@dataclass
class Step:
    decision: Decision
    state: State
    events: list[Event]


@dataclass
class Game:
    start: State
    steps: list[Step] = field(default_factory=list)

    @property
    def end(self) -> State:
        return self.steps[-1].state if self.steps else self.start

    @property
    def states(self) -> list[State]:
        return [self.start, *(s.state for s in self.steps)]


def bound(state: State) -> int:
    """Every end_turn flips a challenge card or burns a magic card; a turn has at most 5 gathers or spells,
    one gift and its order (at most 12 decisions) or summoning; attacks defeat challenge cards."""
    decks = len(state.challenge) + len(state.in_play) + len(state.magic) + len(state.hand)
    return 20 * (decks + 2) + len(state.challenge) + len(state.in_play)


def play_random(opts: dict[str, Any], seed: int, rnd: random.Random) -> Game:
    state: State = GAME.setup(opts, seed)
    game = Game(state)
    limit = bound(state)
    while GAME.outcome(state) is None:
        choices = list(GAME.legal(state, 0))
        assert choices, "the game is on but nothing is legal"
        assert any(d["kind"] in ("end_turn", "order", "summon", "decline") for d in choices), "the turn cannot be ended"
        decision = rnd.choice(choices)
        state, events = GAME.apply(state, 0, decision)
        game.steps.append(Step(decision, state, list(events)))
        assert len(game.steps) <= limit, "the game does not end"
    return game


def challenge_zones(state: State) -> Counter[PlayingCard]:
    return Counter([*state.challenge, *(c.card for c in state.in_play), *state.challenge_discard])


def magic_zones(state: State) -> Counter[PlayingCard]:
    summoned = [c for c in (*state.summoned, state.summoning) if c is not None]
    return Counter([*state.hand, *state.magic, *state.magic_discard, *(c for p in state.piles for c in p), *summoned])


def walk(value: Any) -> Iterator[Any]:
    """Every map and list nested in a view."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def shown_cards(view: dict[str, Any]) -> Counter[str]:
    """Every card a view shows (a card is a map with a 'code')."""
    return Counter(v["code"] for v in walk(view) if isinstance(v, dict) and "code" in v)


def check_view(state: State, seat: int | None) -> None:
    """A view shows exactly the visible cards: never the magic deck's order beyond the diamonds reveal,
    never the challenge deck, never the hand to a spectator; it serialises; it holds no RNG state."""
    view = GAME.view(state, seat)
    blob = json.dumps(view, ensure_ascii=False)
    msgpack.packb(view, use_bin_type=True)
    assert "\"rng\"" not in blob and (state.rng < 10**6 or str(state.rng) not in blob)
    tops = [p[-1] for p in state.piles if p]
    summoned = [c for c in state.summoned if c is not None]
    target = [state.in_play[-1].card] if state.in_play else []
    summoning = [] if state.summoning is None else [state.summoning]
    visible = [*tops, *summoned, *summoning, *(c.card for c in state.in_play), *target, *state.magic_discard]
    secret_visible: list[PlayingCard] = []
    if seat == 0:
        secret_visible = [*state.hand, *state.magic[:state.reveal], *state.magic[:state.known]]
        assert [c["code"] for c in view["hand"]["cards"]] == [c.code for c in state.hand]
    else:
        assert view["hand"] == {"count": len(state.hand)}
        assert view["legal"] == [] and "reveal" not in view and "known_top" not in view
    assert shown_cards(view) == Counter(c.code for c in [*visible, *secret_visible])
    for decision in view["legal"]:
        named = [decision.get("card"), *decision.get("spells", []), *decision.get("cards", [])]
        allowed = {c.code for c in [*state.hand, *state.magic[:state.reveal]]}
        assert {n for n in named if n is not None} <= allowed
    # no hidden card's code or face anywhere, labels and texts included, unless the same card is shown
    shown = {c.code for c in [*visible, *secret_visible]}
    hidden = [*state.magic[state.known if seat == 0 else 0:], *state.challenge]
    if seat is None:
        hidden += state.hand
    for card in hidden:
        if card.code in shown:
            continue
        assert f'"{card.code}"' not in blob, f"{card.code} leaks to seat {seat}"
        assert not re.search(rf"(?<![0-9A-Z]){re.escape(card.face)}", blob), f"{card.face} leaks to seat {seat}"


def check_events(events: list[Event]) -> None:
    """What the player alone may know (draws, the diamonds reveal) reaches no spectator."""
    for event in events:
        for seat in (0, None):
            json.dumps(redact(event, seat))
        assert set(event.secret) <= {0}
        seen = redact(event, None)
        assert seen == {"kind": event.kind, **event.public}
        for secret in event.secret.values():
            for code in secret.get("cards", []):
                card = PlayingCard.parse(code)
                assert f'"{code}"' not in json.dumps(seen) and card.face not in seen["text"]


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
@FAST
@given(opts=options(), seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_games_end_conserve_cards_and_hide_what_they_must(opts: dict[str, Any], seed: int,
                                                                 rnd: random.Random) -> None:
    game = play_random(opts, seed, rnd)
    outcome = GAME.outcome(game.end)
    assert outcome is not None and outcome.scores == (len(game.end.challenge_discard),)
    assert (outcome.winner == 0) == (not game.end.challenge and not game.end.in_play)
    challenge, magic = challenge_zones(game.start), magic_zones(game.start)
    assert all(n == 1 for n in challenge.values()) and all(n == 1 for n in magic.values())
    for number, state in enumerate(game.states):
        assert GAME.version(state) == number == GAME.opened(state, 0)
        assert challenge_zones(state) == challenge and magic_zones(state) == magic
        assert len(state.hand) <= 5 and 0 <= state.known <= len(state.magic) and state.reveal <= state.known
        for seat in (0, None):
            check_view(state, seat)
    for step in game.steps:
        check_events(step.events)


@FAST
@given(opts=options(), seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_decisions_replay_byte_for_byte(opts: dict[str, Any], seed: int, rnd: random.Random) -> None:
    first = play_random(opts, seed, rnd)
    state: State = GAME.setup(opts, seed)
    assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(first.start))
    for step in first.steps:
        state, events = GAME.apply(state, 0, step.decision)
        assert msgpack.packb(GAME.dump(state)) == msgpack.packb(GAME.dump(step.state))
        assert list(events) == step.events
    assert GAME.outcome(state) == GAME.outcome(first.end)


@FAST
@given(opts=options(), seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_dump_load_round_trip(opts: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """load(dump(s)) == s at every step, also through msgpack bytes; play goes on from a loaded state."""
    game = play_random(opts, seed, rnd)
    for before, step in zip(game.states, game.steps, strict=False):
        data = GAME.dump(before)
        wire = msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False)
        assert GAME.load(data) == before and GAME.load(wire) == before and GAME.dump(GAME.load(wire)) == data
        after, events = GAME.apply(GAME.load(wire), 0, step.decision)
        assert after == step.state and list(events) == step.events
    assert GAME.load(GAME.dump(game.end)) == game.end


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_setup_views_hide_both_decks(seed: int) -> None:
    state: State = GAME.setup({}, seed)
    for seat in (0, None):
        check_view(state, seat)
