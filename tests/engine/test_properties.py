"""Property tests: random full matches from random seeds with random legal decisions."""
from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.creature_wars import GAME
from engine.creature_wars.cards import Card
from engine.creature_wars.state import PASS, State
from engine.interface import Decision, Event, Seat, redact, redact_all

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "hp": st.integers(min_value=1, max_value=40),
        "hand_size": st.integers(min_value=0, max_value=8),
        "witches": st.integers(min_value=0, max_value=40),
        "first_drawer": st.sampled_from([0, 1]),
    },
)
FAST = settings(max_examples=60, deadline=None)


@dataclass
class Step:
    """One applied decision and what it produced."""

    seat: Seat
    decision: Decision
    state: State
    events: list[Event]


@dataclass
class Match:
    """A whole match: its start and every step."""

    start: State
    steps: list[Step] = field(default_factory=list)

    @property
    def end(self) -> State:
        return self.steps[-1].state if self.steps else self.start


def play_random(options: dict[str, Any], seed: int, rnd: random.Random) -> Match:
    """Play to the end, each step a random seat that may act taking a random legal decision."""
    state: State = GAME.setup(options, seed)
    match = Match(state)
    bound = 3000  # witch effects add cards and questions; MAYHEM still comes
    while GAME.outcome(state) is None:
        waiting = [s for s in (0, 1) if GAME.legal(state, s)]
        assert waiting, "the match is on but nobody may act"
        seat = rnd.choice(waiting)
        decision = rnd.choice(list(GAME.legal(state, seat)))
        state, events = GAME.apply(state, seat, decision)
        match.steps.append(Step(seat, decision, state, list(events)))
        assert len(match.steps) <= bound, "the match does not end"
    return match


def replay(options: dict[str, Any], seed: int, decisions: list[tuple[Seat, Decision]]) -> Match:
    """Replay recorded decisions from the same seed."""
    state: State = GAME.setup(options, seed)
    match = Match(state)
    for seat, decision in decisions:
        state, events = GAME.apply(state, seat, decision)
        match.steps.append(Step(seat, decision, state, list(events)))
    return match


def zones(state: State) -> list[Card]:
    """Every card the state holds: hands (sealed cards stay in hand until revealed), deck, discard,
    cards removed from the game, Grinch's sacks, and the cards in a duel a question interrupted."""
    in_play = [c for c in state.in_play or () if c is not None]
    return [*state.hands[0], *state.hands[1], *state.deck, *state.discard, *state.removed,
            *state.sacks[0], *state.sacks[1], *in_play]


def walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, leaf) and (key, container) pair of nested maps and lists."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield None, item
            yield from walk(item)


# -- the invariants checked after every step -------------------------------------------------


def check_conservation(state: State, start: State) -> None:
    """Every card is in exactly one zone: none lost (made ones included) or duplicated; new cards are only those
    the engine made (witches, tokens, creatures)."""
    uids = [c.uid for c in zones(state)]
    assert len(uids) == len(set(uids)), "a card is in two places"
    initial = {c.uid for c in zones(start)}
    generated = set(range(start.next_uid, state.next_uid))
    assert initial <= set(uids) <= initial | generated
    lost = set(range(state.next_uid)) - set(uids)
    assert not lost, f"cards made but in no zone: {sorted(lost)}"
    for seat in (0, 1):
        sealed = state.sealed[seat]
        assert sealed is None or sealed == PASS or 0 <= sealed < len(state.hands[seat])
    if state.last_duel is not None:
        assert {c.uid for c in state.last_duel.cards if c is not None} <= set(uids)


def seen(state: State, seat: Seat | None) -> set[str]:
    """The faces ``seat`` (None: a spectator) has seen in ``state``: the table's, and its own hand's. What a seat has
    seen it knows from then on, wherever the card goes: a creature back in its owner's hand after a duel may be
    named by a modifier (Seductive Witch), a card taken from one's hand (Witch of the Ancients' Call) is known."""
    public = {c.notation() for c in [*state.discard, *state.removed]}
    public |= {c.notation() for c in state.in_play or () if c is not None}
    if state.last_duel is not None:
        public |= {c.notation() for c in state.last_duel.cards if c is not None}
    if seat is not None:
        public |= {c.notation() for c in state.hands[seat]}
    return public


def check_view(state: State, seat: Seat | None, known: set[str] | None = None) -> None:
    """A view holds no uid, no RNG state and no hidden card (one the viewer has not seen: ``known``, earlier in the
    match); counts match; it serialises."""
    view = GAME.view(state, seat)
    shown = {k: v for k, v in view.items() if k != "question"}  # a question may name cards the effect shows its asker
    blob = json.dumps(shown)
    msgpack.packb(view, use_bin_type=True)
    keys = {key for key, _ in walk(view) if key is not None}
    assert not keys & {"uid", "rng", "seed", "next_uid"}
    assert str(state.rng) not in blob
    assert all(leaf != state.rng for _, leaf in walk(view) if isinstance(leaf, int))
    for s in (0, 1):
        entry = view["hands"][s]
        assert entry["count"] == len(state.hands[s])
        if s == seat:
            assert [c["text"] for c in entry["cards"]] == [c.notation(state.turn, marks=True) for c in state.hands[s]]
        else:
            assert set(entry) == {"count"}
    if seat is None:
        assert view["legal"] == [] and "locked_card" not in view and "locked_slot" not in view
    else:
        own = state.sealed[seat]
        assert ("locked_slot" in view) == (own is not None and own != PASS)
    check_rally_marks(view)
    public = seen(state, seat) | (known or set())
    public |= {text.split(": (")[0] for text in public}  # a banned "X: (-)" looks like X: the same face is public
    hidden = [*state.deck, *(c for s in (0, 1) if s != seat for c in state.hands[s])]
    for card in hidden:
        if card.notation() in public:
            continue  # an identical card is public (e.g. two equal witches): not a leak
        assert card.notation() not in blob, f"{card.notation()} leaks to seat {seat}"
        assert card.notation(state.turn) not in blob


def check_rally_marks(view: dict[str, Any]) -> None:
    """A rally is its holder's secret: no card the table sees (played, in the last duel, discarded) shows a ``!``
    or a rally list; only the viewer's own hand does."""
    seat = view["seat"]
    table = {k: v for k, v in view.items() if k not in ("hands", "locked_card", "question")}
    if seat is not None:
        table["hands"] = [h for s, h in enumerate(view["hands"]) if s != seat]
    for key, value in walk(table):
        if key == "rally":
            assert value == [], f"a rally shows on the table: {view}"
        if key == "text" and isinstance(value, str) and value.startswith("Lvl."):
            assert "!" not in value.split("{")[0], f"a rally mark shows on the table: {value}"


MARKED = re.compile(r"Lvl\.\d+ [^{}\"]*!\s*[^{}\"]*\{")
"""A card in notation with a rally mark (``Lvl.3 Fire Wolf! {2}``)."""


def check_events(events: list[Event]) -> None:
    """A seat's secret reaches that seat only: the other seat and spectators get the public part,
    or nothing at all for a private event."""
    for event in events:
        for seat in (0, 1, None):
            json.dumps(redact(event, seat))
            told = redact_all([event], seat)
            if event.private and (seat is None or seat not in event.secret):
                assert told == []
            if seat not in event.secret:
                assert not MARKED.search(json.dumps(told, ensure_ascii=False)), f"a rally mark is told: {told}"
        if event.private:
            assert not any(k != "text" for k in event.public) or all(k not in s for s in event.secret.values()
                                                                   for k in event.public if k != "text")
            continue
        for owner, secret in event.secret.items():
            mine = redact(event, owner)
            assert all(mine[k] == v for k, v in secret.items())
            for other in (1 - owner, None):
                seen = redact(event, other)
                assert seen == {"kind": event.kind, **event.public}
                for key, value in secret.items():
                    if key in event.public:
                        assert seen[key] == event.public[key] != value
                    else:
                        assert key not in seen
                card = secret.get("card")
                if card is not None:
                    assert card not in json.dumps(seen)


def check_bound(match: Match) -> None:
    """Every turn draws cards until the deck runs out (witches may add some), and a turn takes few decisions."""
    assert match.end.turn <= 400
    assert len(match.steps) <= 6 * match.end.turn + 10


# -- the properties --------------------------------------------------------------------------


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_matches_end_and_keep_every_invariant(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """Random legal play always ends, conserves cards, and never leaks hidden information."""
    match = play_random(options, seed, rnd)
    assert GAME.outcome(match.end) is not None
    check_bound(match)
    known: dict[Seat | None, set[str]] = {0: set(), 1: set(), None: set()}
    for state in [match.start, *(step.state for step in match.steps)]:
        check_conservation(state, match.start)
        for seat in (0, 1, None):
            check_view(state, seat, known[seat])
            known[seat] |= seen(state, seat)
    for number, step in enumerate(match.steps, start=1):
        check_events(step.events)
        assert GAME.version(step.state) == number


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_same_seed_and_decisions_replay_byte_for_byte(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """Replaying the recorded decisions gives identical dumps and events at every step."""
    first = play_random(options, seed, rnd)
    second = replay(options, seed, [(s.seat, s.decision) for s in first.steps])
    assert GAME.dump(second.start) == GAME.dump(first.start)
    for a, b in zip(first.steps, second.steps, strict=True):
        assert msgpack.packb(GAME.dump(a.state)) == msgpack.packb(GAME.dump(b.state))
        assert a.events == b.events
    assert GAME.outcome(second.end) == GAME.outcome(first.end)


@FAST
@given(options=OPTIONS, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_dump_load_round_trip(options: dict[str, Any], seed: int, rnd: random.Random) -> None:
    """load(dump(s)) == s at every step, also through msgpack bytes; play continues from a loaded state."""
    match = play_random(options, seed, rnd)
    states = [match.start, *(step.state for step in match.steps)]
    for state in states:
        data = GAME.dump(state)
        assert GAME.load(data) == state
        wire = msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False)
        assert GAME.load(wire) == state
        assert GAME.dump(GAME.load(wire)) == data
    for before, step in zip(states, match.steps, strict=False):
        loaded = GAME.load(GAME.dump(before))
        after, events = GAME.apply(loaded, step.seat, step.decision)
        assert after == step.state and list(events) == step.events


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_setup_views_hide_hands_and_deck(seed: int) -> None:
    """Straight after set-up, no seat sees the other's hand or any deck card."""
    state: State = GAME.setup({}, seed)
    for seat in (0, 1, None):
        check_view(state, seat)
    spectator = GAME.view(state, None)
    assert all("cards" not in h for h in spectator["hands"])
