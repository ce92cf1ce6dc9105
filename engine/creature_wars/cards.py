"""Creature Wars cards: tribes, power types, the card value and its text notation."""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = [
    "BASE_STRENGTH", "POWER_TYPES", "TRIBES", "Card", "CardKind", "PowerType", "Tribe", "WITCH_BASE", "beats", "replace",
]


class Tribe(enum.StrEnum):
    """The seven creature tribes."""

    SERPENT = "Serpent"
    WOLF = "Wolf"
    SKELETON = "Skeleton"
    PIRATE = "Pirate"
    GIANT = "Giant"
    VAMPIRE = "Vampire"
    DRAGON = "Dragon"


BASE_STRENGTH: Final[dict[Tribe, int]] = {
    Tribe.SERPENT: 0,
    Tribe.WOLF: 2,
    Tribe.SKELETON: 3,
    Tribe.PIRATE: 3,
    Tribe.GIANT: 4,
    Tribe.VAMPIRE: 5,
    Tribe.DRAGON: 7,
}
WITCH_BASE: Final = 3


class PowerType(enum.StrEnum):
    """The four power types; each beats the next in the cycle."""

    ANCIENT = "Ancient"
    FIRE = "Fire"
    NIGHTMARE = "Nightmare"
    HOLY = "Holy"


TRIBES: Final = tuple(Tribe)
"""The tribes in their order (a constant: iterating an enum is slow)."""
POWER_TYPES: Final = tuple(PowerType)
"""The power types in their order."""

_CYCLE: Final = (PowerType.ANCIENT, PowerType.FIRE, PowerType.NIGHTMARE, PowerType.HOLY)
_BEATEN: Final = {attacker: _CYCLE[(i + 1) % 4] for i, attacker in enumerate(_CYCLE)}
"""The type each type beats."""


def beats(attacker: PowerType | None, defender: PowerType | None) -> bool:
    """True when ``attacker``'s type has the advantage over ``defender``'s (+3 power)."""
    if attacker is None or defender is None:
        return False
    return _BEATEN[attacker] is defender


class CardKind(enum.StrEnum):
    CREATURE = "creature"
    WITCH = "witch"


@dataclass(init=False, eq=False, slots=True)
class Card:
    """One card. ``uid`` is for the engine's bookkeeping only and never leaves in a view.

    ``ready_turn``: the first turn the card may be played in (a tie returns a card
    with ``ready_turn = next turn + 1``); ``banned`` marks a card that may never be
    played, shown as ``(-)``. A value: never changed once made (not frozen, for speed: see
    ``engine.creature_wars.state.State.__init__``).
    """

    uid: int
    kind: CardKind
    level: int
    base: int
    tribe: Tribe | None = None
    ptype: PowerType | None = None
    witch: str | None = None
    tribe_rally: bool = False
    type_rally: bool = False
    witch_rally: bool = False
    ready_turn: int = 0
    banned: bool = False
    token: str | None = None
    tags: tuple[tuple[str, int], ...] = ()
    _hash: int = dataclasses.field(default=-1, init=False, compare=False, repr=False)
    """The hash, made once (-1: not yet): the views' face caches hash cards at every decision."""
    _plain: str | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    _marked: str | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    """:meth:`notation` of a card waiting for no turn, without and with rally marks, made once each."""
    face: dict[str, Any] | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    """The face the table sees (engine/creature_wars/view.py), kept with the card once made."""
    held: tuple[int, dict[str, Any]] | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    """The card as its holder sees it, with the cooldown it was made for (engine/creature_wars/view.py)."""
    _look: tuple[Any, ...] | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    """:meth:`look`, made once."""
    stored: list[Any] | None = dataclasses.field(default=None, init=False, compare=False, repr=False)
    """The card as a state's dump writes it (engine/creature_wars/state.py), kept with the card once made: a
    snapshot writes every card of the match, most of them unchanged since the one before."""

    def __init__(self, uid: int, kind: CardKind, level: int, base: int, tribe: Tribe | None = None,
                 ptype: PowerType | None = None, witch: str | None = None, tribe_rally: bool = False,
                 type_rally: bool = False, witch_rally: bool = False, ready_turn: int = 0, banned: bool = False,
                 token: str | None = None, tags: tuple[tuple[str, int], ...] = ()) -> None:
        self.uid = uid
        self.kind = kind
        self.level = level
        self.base = base
        self.tribe = tribe
        self.ptype = ptype
        self.witch = witch
        self.tribe_rally = tribe_rally
        self.type_rally = type_rally
        self.witch_rally = witch_rally
        self.ready_turn = ready_turn
        self.banned = banned
        self.token = token
        self.tags = tags
        self._hash = -1
        self._plain = None
        self._marked = None
        self.face = None
        self.held = None
        self._look = None
        self.stored = None

    def _key(self) -> tuple[Any, ...]:
        return (self.uid, self.kind, self.level, self.base, self.tribe, self.ptype, self.witch, self.tribe_rally,
                self.type_rally, self.witch_rally, self.ready_turn, self.banned, self.token, self.tags)

    def look(self) -> tuple[Any, ...]:
        """What any view shows of the card but its wait: every field but its uid, its tags and its ready turn. Cards
        alike in these look alike in every view, in whichever match, so the views' face caches are keyed by it:
        each match's cards have uids of their own, and a face made once serves every match (made once a card)."""
        made = self._look
        if made is None:
            made = self._look = (self.kind, self.level, self.base, self.tribe, self.ptype, self.witch,
                                 self.tribe_rally, self.type_rally, self.witch_rally, self.banned, self.token)
        return made

    def __eq__(self, other: object) -> bool:
        """Equal field by field, as a dataclass compares (written: the generated one stays interpreted when
        compiled, and the views' face caches compare cards at every decision)."""
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        """The hash a dataclass with ``unsafe_hash`` gives: of the fields' tuple (made once: a card never changes)."""
        made = self._hash
        if made == -1:  # (a hash is never -1)
            made = self._hash = hash(self._key())
        return made

    @classmethod
    def creature(cls, uid: int, tribe: Tribe, level: int, ptype: PowerType | None) -> Card:
        return Card(uid, CardKind.CREATURE, level, BASE_STRENGTH[tribe], tribe, ptype)  # (positional: a direct call)

    @classmethod
    def new_witch(cls, uid: int, name: str, level: int) -> Card:
        return Card(uid, CardKind.WITCH, level, WITCH_BASE, None, None, name)

    @property
    def is_witch(self) -> bool:
        return self.kind is CardKind.WITCH

    @property
    def kin(self) -> str | None:
        """What Tribal Clashes and Tribe Rallies compare: the Tribe, or a token's own kind (a Phantom)."""
        if self.tribe is not None:
            return self.tribe._value_
        return self.token if self.kind is not CardKind.WITCH else None

    @property
    def name(self) -> str:
        """The word after the Power Type in the notation: Tribe, token name or witch name."""
        if self.kind is CardKind.WITCH:
            return self.witch or "Witch"
        if self.token is not None:
            return self.token
        return self.tribe._value_ if self.tribe else "Creature"

    def tag(self, name: str, default: int = 0) -> int:
        """A mark an effect left on the card (a web, a ring, an explosion turn ...)."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.tags)

    def tagged(self, name: str, value: int = 1) -> Card:
        """The card with a mark set."""
        tags = tuple(sorted([(k, v) for k, v in self.tags if k != name] + [(name, value)]))
        return Card(self.uid, self.kind, self.level, self.base, self.tribe, self.ptype, self.witch, self.tribe_rally,
                    self.type_rally, self.witch_rally, self.ready_turn, self.banned, self.token, tags)

    def untagged(self, name: str) -> Card:
        tags = tuple((k, v) for k, v in self.tags if k != name)
        return Card(self.uid, self.kind, self.level, self.base, self.tribe, self.ptype, self.witch, self.tribe_rally,
                    self.type_rally, self.witch_rally, self.ready_turn, self.banned, self.token, tags)

    def power_against(self, other: Card) -> int:
        """Fight power: base strength + level, +3 with a type advantage."""
        return self.base + self.level + (3 if beats(self.ptype, other.ptype) else 0)

    def cooldown(self, turn: int) -> int:
        """Turns left before the card may be played (0: playable)."""
        return max(0, self.ready_turn - turn)

    def playable(self, turn: int) -> bool:
        return not self.banned and self.ready_turn <= turn

    def fresh(self) -> Card:
        """The card as it leaves play: cooldown gone (rally bonuses stay, they are permanent)."""
        if self.ready_turn == 0:
            return self
        return Card(self.uid, self.kind, self.level, self.base, self.tribe, self.ptype, self.witch, self.tribe_rally,
                    self.type_rally, self.witch_rally, 0, self.banned, self.token, self.tags)

    def rallied(self, level: int, tribe_rally: bool, type_rally: bool, witch_rally: bool) -> Card:
        """The card with its rally marks and level changed (as ``replace``, on the per-turn path)."""
        return Card(self.uid, self.kind, level, self.base, self.tribe, self.ptype, self.witch, tribe_rally,
                    type_rally, witch_rally, self.ready_turn, self.banned, self.token, self.tags)

    def ready_at(self, turn: int) -> Card:
        """The card first playable on ``turn`` (0: at once)."""
        return Card(self.uid, self.kind, self.level, self.base, self.tribe, self.ptype, self.witch, self.tribe_rally,
                    self.type_rally, self.witch_rally, turn, self.banned, self.token, self.tags)

    def notation(self, turn: int | None = None, *, marks: bool = False) -> str:
        """The rules' one-line form: ``Lvl.X <Type> <Tribe> {b}``, ``: (#)``/``: (-)``; with ``marks``, ``!`` for rallies.

        A rally is its holder's secret: the ``!`` marks are shown only in the holder's own hand (``marks=True``),
        never on a card the table sees (played, discarded, in the log). Made once for a card that waits for no
        turn (the events and hands of most decisions name such cards)."""
        if self.banned or (turn is not None and self.ready_turn > turn):
            return self._notation(turn, marks)
        if marks:
            marked = self._marked
            if marked is None:
                marked = self._marked = self._notation(None, True)
            return marked
        plain = self._plain
        if plain is None:
            plain = self._plain = self._notation(None, False)
        return plain

    def _notation(self, turn: int | None, marks: bool) -> str:
        if self.kind is CardKind.WITCH:
            middle = f"{self.witch}!" if marks and self.witch_rally else f"{self.witch}"
        else:
            token, tribe = self.token, self.tribe
            middle = token if token is not None else tribe._value_ if tribe else "Creature"
            if marks and self.tribe_rally:
                middle += "!"
            ptype = self.ptype
            if ptype is not None:
                middle = f"{ptype._value_}! {middle}" if marks and self.type_rally else f"{ptype._value_} {middle}"
        if self.banned:
            return f"Lvl.{self.level} {middle} {{{self.base}}}: (-)"
        if turn is not None and self.ready_turn > turn:
            return f"Lvl.{self.level} {middle} {{{self.base}}}: ({self.ready_turn - turn})"
        return f"Lvl.{self.level} {middle} {{{self.base}}}"


D = TypeVar("D", bound="DataclassInstance")


def replace(obj: D, /, **changes: Any) -> D:
    """``dataclasses.replace``, straight to the constructor for a card (the witches change cards this way: the generic
    one reads every field by name and calls the class with keywords)."""
    if isinstance(obj, Card):  # (no class derives from Card)
        made: Any = _card_with(obj, changes)
        return made  # type: ignore[no-any-return]
    return dataclasses.replace(obj, **changes)


def _card_with(card: Card, changes: dict[str, Any]) -> Card:
    """``card`` with some fields changed by name (an unknown name is a TypeError, as the constructor's)."""
    take = changes.pop
    made = Card(take("uid", card.uid), take("kind", card.kind), take("level", card.level), take("base", card.base),
                take("tribe", card.tribe), take("ptype", card.ptype), take("witch", card.witch),
                take("tribe_rally", card.tribe_rally), take("type_rally", card.type_rally),
                take("witch_rally", card.witch_rally), take("ready_turn", card.ready_turn), take("banned", card.banned),
                take("token", card.token), take("tags", card.tags))
    if changes:
        raise TypeError(f"a card has no field {sorted(changes)[0]!r}")
    return made
