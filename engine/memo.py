"""Remembering pure functions of immutable values by identity: a decision's check, its clock and every view
ask ``legal`` of the same state object, and every view draws the same discard pile, so each is computed once."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["per_state", "per_value"]

R = TypeVar("R")
KEEP = 8
"""How many recent answers are kept."""


def per_state(fn: Callable[[Any, int], R]) -> Callable[[Any, int], R]:
    """``fn(state, seat)`` remembered for the last ``KEEP`` calls, by the state's identity (states are frozen,
    so one object always has one answer). The answer is shared: callers must not change it."""
    recent: list[tuple[Any, int, R]] = []

    def remembered(state: Any, seat: int) -> R:
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


def per_value(fn: Callable[[Any], R]) -> Callable[[Any], R]:
    """``fn(value)`` remembered for the last ``KEEP`` values, by identity (a frozen value, such as a tuple of
    cards that successive states share). The answer is shared: callers must not change it."""
    recent: list[tuple[Any, R]] = []

    def remembered(value: Any) -> R:
        for held, answer in recent:
            if held is value:
                return answer
        answer = fn(value)
        recent.insert(0, (value, answer))
        del recent[KEEP:]
        return answer

    remembered.__doc__ = fn.__doc__
    remembered.__name__ = fn.__name__
    return remembered
