"""A small seeded RNG whose whole state is one integer kept in the game state.

SplitMix64: fast in pure Python, good enough statistically for shuffles, and its
state serialises as one int, so the same seed always replays the same match.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence, TypeVar

__all__ = ["Rng"]

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(init=False, unsafe_hash=True, slots=True)
class Rng:
    """An immutable RNG: every draw returns the value and the next RNG (not frozen, for speed: a written
    ``__init__``, as dataclasses' own is interpreted code even in the compiled build; nothing changes one)."""

    state: int

    def __init__(self, state: int) -> None:
        self.state = state

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK)

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + _GOLDEN) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform int in ``range(n)``, by rejection so no value is favoured."""
        value, state = _below(self.state, n)
        return value, Rng(state)

    def between(self, low: int, high: int) -> tuple[int, Rng]:
        """A uniform int in ``[low, high]``."""
        value, rng = self.below(high - low + 1)
        return low + value, rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        index, rng = self.below(len(items))
        return items[index], rng

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> tuple[T, Rng]:
        """Pick one of ``items`` with integer ``weights``."""
        roll, rng = self.below(sum(weights))
        for item, weight in zip(items, weights, strict=False):
            if roll < weight:
                return item, rng
            roll -= weight
        raise AssertionError("unreachable: roll exceeded total weight")

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items``."""
        out = list(items)
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            j, state = _below(state, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(state)


def _below(state: int, n: int) -> tuple[int, int]:
    """:meth:`Rng.below` on the bare state (the same draws as :meth:`Rng.next64`, with no RNG made per draw)."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + _GOLDEN) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state
