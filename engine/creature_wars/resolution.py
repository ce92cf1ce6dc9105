"""The values a duel's resolution hands the witch effects' hooks (engine/creature_wars/effects.py): who a hook acts
for (:class:`Source`), the fight being resolved (:class:`Fight`) and damage about to be dealt (:class:`Hit`).

Compiled with the engine, apart from the hooks (which stay interpreted, as the witches subclass them): the table makes
several of these every duel, and an interpreted class's ``__init__`` costs a compiled caller a generic call each.
Each has a written ``__init__``, as dataclasses' own is interpreted code even in the compiled build.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.creature_wars.cards import Card
from engine.creature_wars.state import Modifier

__all__ = ["Fight", "Hit", "Source"]


@dataclass(init=False, unsafe_hash=True, slots=True)
class Source:
    """Who a hook is acting for: the seat it belongs to, its card (if any) and its modifier (if any). A value: never
    changed once made (not frozen, for speed: see ``State.__init__`` in engine/creature_wars/state.py)."""

    owner: int
    card: Card | None = None
    mod: Modifier | None = None

    def __init__(self, owner: int, card: Card | None = None, mod: Modifier | None = None) -> None:
        self.owner = owner
        self.card = card
        self.mod = mod


@dataclass(slots=True, init=False)
class Fight:
    """One fight being resolved; ``decide`` hooks may change it before it is applied.

    ``winner`` is a seat or ``None`` (a tie, or no fight). ``fought`` False means nothing
    happens but the cards' dispositions: no damage, no Tribal Clash, no Bizarre Victory.
    Each card then goes back to its holder's hand if ``returns[s]`` (with ``cooldown[s]``
    turns of cooldown), out of the game if ``removed[s]``, else to the discard pile.
    The defaults follow the rules: a tie sends both creatures back with cooldown 1; a
    creature that fought a witch goes back with none.
    """

    cards: list[Card]
    powers: list[int]
    winner: int | None = None
    fought: bool = True
    returns: list[bool] = field(default_factory=lambda: [False, False])
    cooldown: list[int] = field(default_factory=lambda: [0, 0])
    removed: list[bool] = field(default_factory=lambda: [False, False])
    damage: list[int] = field(default_factory=lambda: [0, 0])
    summary: str = ""

    def __init__(self, cards: list[Card], powers: list[int], winner: int | None = None, fought: bool = True,
                 returns: list[bool] | None = None, cooldown: list[int] | None = None, removed: list[bool] | None = None,
                 damage: list[int] | None = None, summary: str = "") -> None:
        self.cards = cards
        self.powers = powers
        self.winner = winner
        self.fought = fought
        self.returns = [False, False] if returns is None else returns
        self.cooldown = [0, 0] if cooldown is None else cooldown
        self.removed = [False, False] if removed is None else removed
        self.damage = [0, 0] if damage is None else damage
        self.summary = summary

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    def no_fight(self, summary: str) -> None:
        """Call the fight off: nothing is won or lost."""
        self.fought = False
        self.winner = None
        self.summary = summary


@dataclass(slots=True, init=False)
class Hit:
    """Damage about to be dealt to ``seat``'s Empire: base * mult + add, then halved, unless cancelled.

    ``kind`` is ``duel`` (lost a duel), ``effect`` or ``mayhem``; ``card`` is the card the damage
    comes from (the losing card in a duel, the creature in hand at MAYHEM) when there is one.
    """

    seat: int
    amount: int
    kind: str
    card: Card | None = None
    winner_card: Card | None = None
    mult: int = 1
    add: int = 0
    halve: bool = False
    cancel: bool = False

    def __init__(self, seat: int, amount: int, kind: str, card: Card | None = None, winner_card: Card | None = None,
                 mult: int = 1, add: int = 0, halve: bool = False, cancel: bool = False) -> None:
        self.seat = seat
        self.amount = amount
        self.kind = kind
        self.card = card
        self.winner_card = winner_card
        self.mult = mult
        self.add = add
        self.halve = halve
        self.cancel = cancel

    @property
    def total(self) -> int:
        if self.cancel:
            return 0
        value = self.amount * self.mult + self.add
        return value // 2 if self.halve else value
