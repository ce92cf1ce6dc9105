"""Remembering pure functions of immutable values by identity: a decision's check, its clock and every view
ask ``legal`` of the same state object, and every view draws the same discard pile, so each is computed once."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

__all__ = ["Values", "carry_over", "per_state"]

R = TypeVar("R")
KEEP: Final = 8
"""How many recent answers :func:`per_state` keeps for states that keep none themselves."""
VALUES: Final = 8192
"""How many values :class:`Values` remembers the answer for."""


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


class Values:
    """Answers remembered for the last ``VALUES`` or so values, by the identity of the value (a frozen value, such
    as a tuple of cards that successive states share) and the equality of ``more`` (a small hashable value, such
    as a turn): enough for the views of every room a node serves in turn, where a few would be pushed out by the
    other rooms' before their own came round again. Answers are shared: callers must not change them.

    Two generations of half as many each: a new answer goes into the young one, an answer found in the old one
    moves to the young one, and a full young generation becomes the old one (the old one dropped): each step
    O(1), where dropping the oldest of one dict one at a time makes finding the next oldest ever slower. Called
    as methods (``get``, then ``keep`` what was not found) rather than through a decorator, so that compiled
    callers reach them without a generic call."""

    def __init__(self) -> None:
        self.young: dict[object, tuple[object, Any]] = {}
        self.old: dict[object, tuple[object, Any]] = {}

    def get(self, value: object, more: object = None) -> Any:
        """The answer kept for ``value`` (and ``more``), or None."""
        key: object = id(value) if more is None else (id(value), more)
        held = self.young.get(key)
        if held is not None and held[0] is value:
            return held[1]
        held = self.old.get(key)
        if held is not None and held[0] is value:
            self._keep(key, held)
            return held[1]
        return None

    def keep(self, value: object, answer: R, more: object = None) -> R:
        """Keep ``answer`` (not None) for ``value`` (and ``more``); returns it."""
        self._keep(id(value) if more is None else (id(value), more), (value, answer))
        return answer

    def _keep(self, key: object, held: tuple[object, Any]) -> None:
        if len(self.young) >= VALUES // 2:
            self.young, self.old = {}, self.young
        self.young[key] = held

