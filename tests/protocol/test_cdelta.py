"""The view deltas made in C (``protocol/_cdelta.c``, built with the compiled engine) are the very deltas
``protocol.delta.walk`` makes, key for key and byte for byte: on every view of seeded random matches of every game,
on random nested values (with the values msgpack tells apart where Python's equality does not), and its sizes are
msgpack's. Without the compiled build there is nothing to compare: these are skipped, and ``diff`` is the walk."""
from __future__ import annotations

import enum
import random
from typing import Any

import msgpack
import pytest

from engine import _compiled, registry
from protocol import delta
from tests.protocol.native import native
from tests.protocol.test_delta import mutate, random_value, successive_views

cdelta, needs_c = native("_cdelta")


def packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def same_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """C's delta, after checking that it is the walk's, and packs to the same bytes."""
    made = cdelta.diff(old, new)
    expected = delta.walk(old, new)
    assert made == expected
    assert packed(made) == packed(expected)
    return made  # type: ignore[no-any-return]


def test_the_compiled_build_makes_deltas_in_c() -> None:
    """With the compiled build, ``diff`` is C's; without it, the Python walk."""
    assert (delta._NATIVE is not None) == (_compiled.active() == "compiled")
    if cdelta is not None:
        assert delta._NATIVE is cdelta.diff


@needs_c
@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_view_of_random_matches(game: str) -> None:
    """Every seat's and a spectator's view after each decision, from the view before it (and from the first)."""
    for first, before, now in successive_views(game, range(8), 2000, 200):
        same_delta(before, now)
        same_delta(first, now)


class Level(enum.IntEnum):
    """An int of another type: packed as an int by msgpack, sized through the packer by C."""
    LOW = 1
    HIGH = 300


def odd_value(rng: random.Random) -> Any:
    """Values where sizes and equality are easy to get wrong."""
    return rng.choice([
        0, 1, True, False, 1.0, 0.0, -0.0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, 2**64 - 1,
        -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**63, 1.5, float("inf"),
        "", "x" * 31, "x" * 32, "x" * 255, "x" * 256, "é" * 20, "😀" * 9, b"", b"x" * 300, (1, 2), Level.LOW,
        Level.HIGH, [0] * 16, list(range(20)), {str(n): n for n in range(16)}, None,
    ])


def odd_tree(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 2)
    if kind == 0:
        return odd_value(rng)
    if kind == 1:
        return random_value(rng, 3)
    if kind in (2, 3):
        return [odd_tree(rng, depth + 1) for _ in range(rng.randrange(22))]
    return {rng.choice("abcdefgh"): odd_tree(rng, depth + 1) for _ in range(rng.randrange(6))}


def changed(rng: random.Random, value: Any) -> Any:
    """``value`` changed a little (:func:`mutate`), or one of its scalars swapped for one equal to it in Python that
    msgpack tells apart (1 and True, 0.0 and -0.0, 1 and 1.0)."""
    if isinstance(value, dict):
        return {key: changed(rng, item) if rng.random() < 0.4 else item for key, item in value.items()}
    if isinstance(value, list):
        out = [changed(rng, item) if rng.random() < 0.3 else item for item in value]
        return mutate(rng, out) if rng.random() < 0.5 else out
    if type(value) is float and value == 0.0:
        return -value
    if type(value) is bool and rng.random() < 0.5:
        return int(value)
    if type(value) is int and value in (0, 1) and rng.random() < 0.5:
        return bool(value)
    if type(value) is int and rng.random() < 0.3:
        return float(value) if abs(value) < 2**53 else value
    return mutate(rng, value)


@needs_c
def test_random_nested_values() -> None:
    rng = random.Random(11)
    for _ in range(4000):
        old = {"v": odd_tree(rng), "w": random_value(rng), "x": {"y": odd_tree(rng), "z": odd_tree(rng)}}
        same_delta(old, changed(rng, old))
        same_delta(old, mutate(rng, old))


@needs_c
def test_values_equal_in_python_and_apart_on_the_wire() -> None:
    """``True`` is not ``1`` nor ``1.0`` ``1``, and a map's keys in another order pack apart: each is a change."""
    for was, now in ((1, True), (1, 1.0), (False, 0)):
        assert same_delta({"a": [was, 5, 6, 7, 8]}, {"a": [now, 5, 6, 7, 8]}) == {"a": [4, [0, [0, now]]]}
        assert same_delta({"a": was}, {"a": now}) == {"a": [0, now]}
    x, y = {"a": 1, "b": 2, "c": 3}, {"c": 3, "b": 2, "a": 1}
    assert same_delta({"d": {"p": x, "q": 1, "r": 2}}, {"d": {"p": y, "q": 5, "r": 6}}) == {
        "d": [0, {"p": y, "q": 5, "r": 6}]}
    assert same_delta({"d": {"p": x, "q": 1, "r": 2}}, {"d": {"p": dict(x), "q": 1, "r": 2}}) == {}


@needs_c
def test_sizes_are_msgpacks() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        value = odd_tree(rng)
        assert cdelta.size(value) == len(packed(value)), value


@needs_c
def test_what_neither_packs_is_refused() -> None:
    """A value msgpack cannot pack fails as the walk fails: with msgpack's TypeError, not a wrong delta."""
    with pytest.raises(TypeError):
        cdelta.size(object())
    with pytest.raises(OverflowError):
        cdelta.size(2**64)
    with pytest.raises(TypeError):
        cdelta.diff({"a": [1, 2, 3, 4, 5]}, {"a": [object(), 2, 3, 4, 5, 6]})
    with pytest.raises(TypeError):
        cdelta.diff({"a": 1}, [])
