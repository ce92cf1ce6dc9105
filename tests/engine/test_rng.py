"""The seeded RNG: deterministic, immutable, in range, every value reachable, shuffles are permutations."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def draws(rng: Rng, n: int, count: int) -> list[int]:
    """``count`` successive ``below(n)`` values."""
    out = []
    for _ in range(count):
        value, rng = rng.below(n)
        out.append(value)
    return out


@settings(max_examples=50, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_stream(seed: int) -> None:
    """Two RNGs from one seed give the same values; drawing does not change the RNG drawn from."""
    a, b = Rng.from_seed(seed), Rng.from_seed(seed)
    assert draws(a, 1000, 20) == draws(b, 1000, 20)
    first, _ = a.next64()
    again, _ = a.next64()
    assert first == again
    assert a == Rng.from_seed(seed)


def test_different_seeds_differ() -> None:
    """Neighbouring seeds give different streams."""
    assert draws(Rng.from_seed(1), 2**32, 4) != draws(Rng.from_seed(2), 2**32, 4)


def test_known_value() -> None:
    """SplitMix64 from seed 0 gives its published first output (guards against silent changes)."""
    value, rng = Rng.from_seed(0).next64()
    assert value == 0xE220A8397B1DCDAF
    assert rng.state == 0x9E3779B97F4A7C15


def test_seed_is_masked_to_64_bits() -> None:
    """Seeds outside 64 bits wrap, so any int is a valid seed."""
    assert Rng.from_seed(-1).state == 2**64 - 1
    assert Rng.from_seed(2**64 + 5) == Rng.from_seed(5)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 52])
def test_below_in_range_and_every_value_hit(n: int) -> None:
    """below(n) stays in range(n), reaches every value, and no value is grossly favoured."""
    count = 400 * n
    values = draws(Rng.from_seed(12345 + n), n, count)
    assert all(0 <= v < n for v in values)
    tally = Counter(values)
    assert set(tally) == set(range(n))
    expected = count / n
    assert all(0.8 * expected <= c <= 1.2 * expected for c in tally.values())


def test_below_large_bound_uses_rejection() -> None:
    """A bound just over 2**63 still gives values in range (rejection path)."""
    n = 2**63 + 1
    assert all(0 <= v < n for v in draws(Rng.from_seed(9), n, 200))


@pytest.mark.parametrize("n", [0, -3])
def test_below_rejects_empty_range(n: int) -> None:
    """below() needs n >= 1."""
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(n)


def test_between_is_inclusive() -> None:
    """between(low, high) reaches both ends and nothing outside."""
    rng = Rng.from_seed(3)
    seen = set()
    for _ in range(500):
        value, rng = rng.between(4, 6)
        seen.add(value)
    assert seen == {4, 5, 6}


def test_weighted_respects_weights() -> None:
    """Zero weight is never picked; 3:2:1 comes out roughly 3:2:1."""
    rng = Rng.from_seed(77)
    tally: Counter[str] = Counter()
    for _ in range(6000):
        item, rng = rng.weighted(["a", "b", "c", "never"], [3, 2, 1, 0])
        tally[item] += 1
    assert tally["never"] == 0
    assert 2700 <= tally["a"] <= 3300 and 1700 <= tally["b"] <= 2300 and 800 <= tally["c"] <= 1200


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, items=st.lists(st.integers(), max_size=60))
def test_shuffled_is_a_permutation(seed: int, items: list[int]) -> None:
    """A shuffle keeps exactly the same multiset and is reproducible from the seed."""
    out, _ = Rng.from_seed(seed).shuffled(items)
    assert sorted(out) == sorted(items)
    again, _ = Rng.from_seed(seed).shuffled(items)
    assert out == again


def test_shuffled_reaches_every_order() -> None:
    """All 6 orders of 3 items appear over many seeds (Fisher-Yates, not a biased swap)."""
    orders = {Rng.from_seed(seed).shuffled("abc")[0] for seed in range(300)}
    assert len(orders) == 6


def test_choice_picks_members() -> None:
    """choice() returns items of the sequence and reaches all of them."""
    rng = Rng.from_seed(8)
    seen = set()
    for _ in range(200):
        item, rng = rng.choice("wxyz")
        seen.add(item)
    assert seen == set("wxyz")


_MASK = 2**64 - 1


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """SplitMix64's draw below ``n`` in plain integers, as written in the rules (the compiled build draws in
    machine arithmetic, which must give the same values)."""
    limit = 2**64 - 2**64 % n
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


def _unmix(value: int) -> int:
    """The state whose next draw is ``value`` (SplitMix64's mixing inverted)."""
    def unshift(x: int, k: int) -> int:
        out = x
        for _ in range(64 // k + 1):
            out = x ^ (out >> k)
        return out
    z = unshift(value, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 2**64)) & _MASK
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 2**64)) & _MASK
    z = unshift(z, 30)
    return (z - 0x9E3779B97F4A7C15) & _MASK


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, n=st.one_of(st.integers(1, 60), st.integers(1, 2**31 + 5), st.integers(1, 2**64)))
def test_below_matches_the_reference(seed: int, n: int) -> None:
    """Every bound, small or not, draws what SplitMix64 in plain integers draws, and leaves the same state."""
    value, rng = Rng.from_seed(seed).below(n)
    assert (value, rng.state) == _reference_below(seed, n)


@pytest.mark.parametrize("n", [3, 7, 52, 1000003, 2**31 - 1])
def test_below_redraws_a_value_in_the_rejected_top(n: int) -> None:
    """A first draw among the top ``2**64 % n`` values is rejected and drawn again, as in plain integers (the
    states are made so that the first draw lands there: its highest value and its lowest)."""
    rest = 2**64 % n
    for top in {0, rest - 1}:
        state = _unmix(_MASK - top)
        value, rng = Rng(state).below(n)
        assert (value, rng.state) == _reference_below(state, n)
        assert rng.state == (state + 2 * 0x9E3779B97F4A7C15) & _MASK  # drawn twice: the first was rejected
    kept = _unmix(_MASK - rest)  # the highest value kept
    assert Rng(kept).below(n)[1].state == (kept + 0x9E3779B97F4A7C15) & _MASK


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, size=st.integers(0, 60))
def test_shuffled_matches_the_reference(seed: int, size: int) -> None:
    """A shuffle is Fisher-Yates over the reference draws."""
    out = list(range(size))
    state = seed
    for i in range(size - 1, 0, -1):
        j, state = _reference_below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    shuffled, rng = Rng(seed).shuffled(range(size))
    assert (list(shuffled), rng.state) == (out, state)


@settings(max_examples=100, deadline=None)
@given(seed=SEEDS, steps=st.lists(st.sampled_from(["below", "choice", "weighted", "shuffled", "between"]), max_size=12),
       n=st.integers(1, 200))
def test_a_chain_of_draws_matches_the_reference_and_its_states(seed: int, steps: list[str], n: int) -> None:
    """RNGs made by draws (in the compiled build, known only by their machine word until their state is asked for)
    draw what the reference draws, report its states, and equal and hash as the RNG made from that state."""
    rng, state = Rng(seed), seed
    for step in steps:
        if step == "shuffled":
            out, rng = rng.shuffled(range(n))
            expected = list(range(n))
            for i in range(n - 1, 0, -1):
                j, state = _reference_below(state, i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert list(out) == expected
        elif step == "weighted":
            item, rng = rng.weighted("abc", [3, n, 1])
            roll, state = _reference_below(state, n + 4)
            assert item == ("a" if roll < 3 else "b" if roll < 3 + n else "c")
        elif step == "between":
            value, rng = rng.between(5, 5 + n)
            drawn, state = _reference_below(state, n + 1)
            assert value == 5 + drawn
        else:
            drawn, state = _reference_below(state, n)
            value, rng = rng.below(n) if step == "below" else rng.choice(range(n))
            assert value == drawn
        again = Rng(state)
        assert rng == again and hash(rng) == hash(again) and repr(rng) == f"Rng(state={state})"
    assert rng.state == state
