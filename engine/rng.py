"""A small seeded RNG whose whole state is one integer kept in the game state.

SplitMix64: fast in pure Python, good enough statistically for shuffles, and its
state serialises as one int, so the same seed always replays the same match.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final, Sequence, TypeVar

if TYPE_CHECKING:  # (an annotation only: compiled, mypyc makes it a machine integer; nothing of mypy runs)
    from mypy_extensions import i64

__all__ = ["Rng"]

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_TWO64: Final = 1 << 64
_TOP: Final = (1 << 63) - 1
"""The largest state that reads the same as a signed 64-bit integer."""
_SMALL: Final = 1 << 31
"""Bounds below this are drawn in machine arithmetic when it wraps (see :data:`_NATIVE`)."""
# The SplitMix64 constants as signed 64-bit integers (the same bits).
_GOLDEN_I: Final[i64] = -7046029254386353131
_MIX1: Final[i64] = -4658895280553007687
_MIX2: Final[i64] = -7723592293110705685
_QUARTER: Final[i64] = 4611686018427387904
"""2**62."""


def _wraps(x: i64) -> bool:
    """Whether 64-bit arithmetic wraps here: in the compiled build ``i64`` is a machine integer (C built with
    ``-fwrapv``, as Python's own extensions are), interpreted it is an ordinary unbounded int."""
    return x * 4 == 0


_NATIVE: Final = _wraps(1 << 62)
"""Whether :func:`_below` may draw in machine arithmetic: the same draws, without a heap integer per step."""


_UNKNOWN: Final = -1
"""A state not worked out yet (an RNG made by a draw in machine arithmetic knows only its word)."""


class Rng:
    """An immutable RNG: every draw returns the value and the next RNG; nothing changes one.

    Its state is an unsigned 64-bit integer (what a game's state stores). In the compiled build a draw runs on the
    same bits as a signed machine integer, its *word*: the state and the word are each worked out from the other
    only when asked for, so a chain of draws (a deal, a table's turn) makes no heap integer per draw, and a table
    that draws nothing converts nothing. Interpreted, the word is the state."""

    _state: int
    _word: i64
    _worded: bool

    def __init__(self, state: int, word: i64 = 0) -> None:
        """``Rng(state)``; ``Rng(_UNKNOWN, word)`` is the RNG of a word, its state worked out when asked for."""
        self._state = state
        self._word = word
        self._worded = state == _UNKNOWN

    @property
    def state(self) -> int:
        if self._state == _UNKNOWN:
            self._state = _unsigned(self._word)
        return self._state

    def word(self) -> i64:
        """The state as a signed machine integer with the same bits (compiled build only: see :data:`_NATIVE`)."""
        if not self._worded:
            self._word = _signed(self._state)
            self._worded = True
        return self._word

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.state == other.state

    def __hash__(self) -> int:
        return hash((self.state,))

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"

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
        if _NATIVE and 0 < n < _SMALL:
            value, s = _below_i64(self.word(), n)
            return value, Rng(_UNKNOWN, s)
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
        total = 0
        for weight in weights:
            total += weight
        roll, rng = self.below(total)
        for i in range(min(len(items), len(weights))):
            weight = weights[i]
            if roll < weight:
                return items[i], rng
            roll -= weight
        raise AssertionError("unreachable: roll exceeded total weight")

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A Fisher-Yates shuffle of ``items``."""
        out = list(items)
        if _NATIVE and len(out) < _SMALL:
            s = self.word()
            for i in range(len(out) - 1, 0, -1):
                j, s = _below_i64(s, i + 1)
                out[i], out[j] = out[j], out[i]
            return tuple(out), Rng(_UNKNOWN, s)
        state = self.state
        for i in range(len(out) - 1, 0, -1):
            j, state = _below(state, i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(state)


def _below(state: int, n: int) -> tuple[int, int]:
    """:meth:`Rng.below` on the bare state (the same draws as :meth:`Rng.next64`, with no RNG made per draw)."""
    if n <= 0:
        raise ValueError("below() needs n >= 1")
    if _NATIVE and n < _SMALL:
        value, s = _below_i64(_signed(state), n)
        return value, _unsigned(s)
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + _GOLDEN) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


def _signed(state: int) -> i64:
    """A 64-bit state as the signed integer with the same bits."""
    return state - _TWO64 if state > _TOP else state


def _unsigned(s: i64) -> int:
    """The inverse of :func:`_signed`."""
    return int(s) + _TWO64 if s < 0 else int(s)


def _below_i64(s: i64, n: i64) -> tuple[int, i64]:
    """:func:`_below` in wrapping 64-bit arithmetic, the state as signed (only where :data:`_NATIVE`; ``n`` below
    :data:`_SMALL`): unsigned shifts are arithmetic ones masked, and the unsigned value's rest and rejection are
    worked out from its signed bits."""
    quarter = _QUARTER % n
    half = quarter * 2 % n  # 2**63 % n
    rest = half * 2 % n  # 2**64 % n: the values from 2**64 - rest up are rejected
    while True:
        s = s + _GOLDEN_I
        z = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _MIX1
        z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
        z = z ^ ((z >> 31) & 0x1FFFFFFFF)
        below_top = ~z  # 2**64 - 1 - value, read as signed: negative when it is 2**63 or more
        if below_top < 0 or below_top >= rest:
            if z >= 0:
                return int(z % n), s
            return int(((z & 0x7FFFFFFFFFFFFFFF) % n + half) % n), s
