"""Remembering pure functions of immutable values by identity: a decision's check, its clock and every view
ask ``legal`` of the same state object, and every view draws the same discard pile, so each is computed once."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

__all__ = ["carry_over", "per_state", "per_value"]

R = TypeVar("R")
KEEP: Final = 8
"""How many recent answers :func:`per_state` keeps for states that keep none themselves."""
VALUES: Final = 8192
"""How many values :func:`per_value` remembers the answer for."""


def per_state(fn: Callable[[Any, int], R]) -> Callable[[Any, int], R]:
    """``fn(state, seat)`` remembered per state and seat (states are frozen, so one object always has one answer).

    A state that carries a ``memo`` dict (a field left out of its comparisons, made empty with each new state)
    keeps the answers itself, so that many rooms taking turns do not push each other's answers out; for any
    other state the last ``KEEP`` answers are remembered by the state's identity. The answer is shared:
    callers must not change it."""
    recent: list[tuple[Any, int, R]] = []

    def remembered(state: Any, seat: int) -> R:
        memo: dict[Any, Any] | None = getattr(state, "memo", None)
        if memo is not None:
            key = (remembered, seat)
            if key in memo:
                found: R = memo[key]
                return found
            answer = memo[key] = fn(state, seat)
            return answer
        for held, at, answer in recent:
            if held is state and at == seat:
                return answer
        answer = fn(state, seat)
        recent.insert(0, (state, seat, answer))
        del recent[KEEP:]
        return answer

    remembered.__doc__ = fn.__doc__
    remembered.__name__ = fn.__name__
    return remembered


def carry_over(remembered: Callable[[Any, int], Any], old: Any, new: Any, seat: int) -> None:
    """Give ``new`` the answer ``remembered`` (a :func:`per_state` function) gave for ``old`` and ``seat``, if it
    gave one and both states keep answers: for a caller that knows the two answers are the same."""
    old_memo: dict[Any, Any] | None = getattr(old, "memo", None)
    new_memo: dict[Any, Any] | None = getattr(new, "memo", None)
    if old_memo is not None and new_memo is not None and (remembered, seat) in old_memo:
        new_memo[remembered, seat] = old_memo[remembered, seat]


def per_value(fn: Callable[..., R]) -> Callable[..., R]:
    """``fn(value, *more)`` remembered for the last ``VALUES`` or so calls, by the identity of ``value`` (a frozen
    value, such as a tuple of cards that successive states share) and the equality of ``more`` (small hashable
    values, such as a turn): enough for the views of every room a node serves in turn, where a few would be pushed
    out by the other rooms' before their own came round again. The answer is shared: callers must not change it.

    Two generations of half as many each: a new answer goes into the young one, an answer found in the old one
    moves to the young one, and a full young generation becomes the old one (the old one dropped): each step
    O(1), where dropping the oldest of one dict one at a time makes finding the next oldest ever slower."""
    young: dict[tuple[int, tuple[Any, ...]], tuple[Any, R]] = {}
    old: dict[tuple[int, tuple[Any, ...]], tuple[Any, R]] = {}

    def remembered(value: Any, *more: Any) -> R:
        nonlocal young, old
        key = (id(value), more)
        held = young.get(key)
        if held is not None and held[0] is value:
            return held[1]
        held = old.get(key)
        if held is None or held[0] is not value:
            held = (value, fn(value, *more))
        if len(young) >= VALUES // 2:
            young, old = {}, young
        young[key] = held
        return held[1]

    remembered.__doc__ = fn.__doc__
    remembered.__name__ = fn.__name__
    return remembered
