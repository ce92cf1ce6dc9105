"""The witch effect system: hooks, and the registries of witch effects, lasting rules and tokens.

Three kinds of thing react to the game, all through the same hooks:

- an :class:`Effect` belongs to a witch card (by catalogue key): it is cast when the witch
  is played, reacts to the witch's own fight, and may act while the witch is held;
- a :class:`Rule` belongs to a :class:`~engine.creature_wars.state.Modifier` in play
  ("for the rest of the game ...", "the next duel ..."), by the modifier's key;
- a :class:`Token` belongs to a made-up card (a Wraith, a Scarecrow, a Raven ...), by name.

The turn loop calls the hooks at fixed points (see :mod:`engine.creature_wars.table`);
no witch is a special case in the loop. The hooks are generic in the table they act on
(``TableT``): this module never imports the table, whose module imports this one; the
witches subclass ``Effect[Table]``, ``Rule[Table]`` and ``Token[Table]``.

:func:`hooked` tells which hooks a class really overrides, so that a hook point asks only
the effects, rules and tokens that do something there.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

from engine.creature_wars.cards import Card
from engine.creature_wars.resolution import Fight, Hit, Source
from engine.creature_wars.state import Pending

__all__ = [
    "EFFECTS", "RULES", "TOKENS", "Effect", "Fight", "Hit", "Hooks", "Rule", "Source", "Token",
    "effect", "hooked", "rule", "token",
]

TableT = TypeVar("TableT")
"""The table hooks act on (:class:`engine.creature_wars.table.Table`)."""


class Hooks(Generic[TableT]):
    """Every hook, doing nothing by default. ``t`` is the table being changed."""

    overrides: frozenset[str]
    """The hooks this one's class overrides (see :func:`hooked`), set when it is registered."""

    counts_passed_plays = False
    """Whether ``played`` also sees a card played against a pass (only where the witch's ruling says so)."""

    def power(self, t: TableT, src: Source, fight: Fight, seat: int, power: int) -> int:
        """The fighting power of ``seat``'s card in ``fight``."""
        return power

    def decide(self, t: TableT, src: Source, fight: Fight) -> None:
        """Override the fight's result (set ``winner``/``outcome``/``returns``) after the powers are known."""

    def damage(self, t: TableT, src: Source, hit: Hit) -> None:
        """Adjust damage about to be dealt."""

    def after_fight(self, t: TableT, src: Source, fight: Fight) -> None:
        """React to a fight's result, after its damage."""

    def played(self, t: TableT, src: Source, seat: int, card: Card) -> None:
        """Any card was played (revealed in a duel)."""

    def drawn(self, t: TableT, src: Source, seat: int, card: Card) -> Card | None:
        """A card drawn from the deck is about to enter ``seat``'s hand: return it (changed or not), or None if taken."""
        return card

    def gained(self, t: TableT, src: Source, seat: int, card: Card) -> Card:
        """Any card is about to enter ``seat``'s hand (drawn, returned, made)."""
        return card

    def draws(self, t: TableT, src: Source, seat: int) -> bool:
        """False to skip ``seat``'s draw this turn."""
        return True

    def can_play(self, t: TableT, src: Source, seat: int, card: Card) -> str | None:
        """Why ``seat`` may not play ``card`` now, or None."""
        return None

    def forced(self, t: TableT, src: Source, seat: int) -> int | None:
        """A hand position ``seat`` must play this turn (sealed for it), or None."""
        return None

    def turn_start(self, t: TableT, src: Source) -> None:
        """At the start of each turn, before the draws."""

    def turn_end(self, t: TableT, src: Source) -> None:
        """At each turn's end."""

    def can_lose(self, t: TableT, src: Source, seat: int) -> bool:
        """False while ``seat`` cannot lose the match."""
        return True


class Effect(Hooks[TableT]):
    """A witch's effect. Fight hooks apply while the witch itself is fighting; ``held_*`` while it is in hand."""

    key = ""

    def cast(self, t: TableT, src: Source) -> None:
        """The witch was played: its effect, before the fight."""

    def answer(self, t: TableT, src: Source, pending: Pending, choice: int) -> None:
        """The player answered the question this effect asked (``choice`` indexes its options)."""

    def escaped(self, t: TableT, src: Source, fight: Fight) -> None:
        """The witch won or tied its fight."""

    def died(self, t: TableT, src: Source, fight: Fight) -> None:
        """The witch lost its fight."""

    def playable(self, t: TableT, src: Source) -> str | None:
        """Why this witch may not be played now, or None."""
        return None

    def held_start(self, t: TableT, src: Source) -> None:
        """At the start of each turn while the witch is in its holder's hand."""

    def held_end(self, t: TableT, src: Source) -> None:
        """At each turn's end while the witch is in its holder's hand."""

    def blocks(self, t: TableT, src: Source, card: Card) -> str | None:
        """Why, while this witch is held, its holder may not play ``card``; or None."""
        return None


class Rule(Hooks[TableT]):
    """The behaviour of a :class:`Modifier` in play; ``src.mod`` is the modifier."""

    key = ""


class Token(Hooks[TableT]):
    """A made-up card's behaviour: fight hooks while it fights, ``held_*`` while held."""

    name = ""

    def playable(self, t: TableT, src: Source) -> str | None:
        return None

    def held_start(self, t: TableT, src: Source) -> None:
        """At the start of each turn while the token is in a hand."""

    def held_end(self, t: TableT, src: Source) -> None:
        """At each turn's end while the token is in a hand."""


EFFECTS: dict[str, Effect[Any]] = {}
RULES: dict[str, Rule[Any]] = {}
TOKENS: dict[str, Token[Any]] = {}

H = TypeVar("H", bound=Hooks[Any])

_DEFAULTS = frozenset(
    value for base in (Hooks, Effect, Rule, Token) for name, value in vars(base).items() if callable(value)
)
"""The do-nothing hooks of the base classes."""


def hooked(hooks: Hooks[Any]) -> frozenset[str]:
    """The names of the hooks ``hooks``' class overrides (a hook not named does nothing)."""
    return _hooked(type(hooks))


def _hooked(cls: type) -> frozenset[str]:
    found = _HOOKED.get(cls)
    if found is None:
        found = _HOOKED[cls] = frozenset(
            name for name in dir(cls)
            if not name.startswith("_") and callable(value := getattr(cls, name)) and value not in _DEFAULTS
        )
    return found


_HOOKED: dict[type, frozenset[str]] = {}


def _registrar(registry: dict[str, Any], key: str, attr: str, what: str) -> Callable[[type[H]], type[H]]:
    """A class decorator that registers one instance under ``key`` (and tells the instance its key)."""
    def register(cls: type[H]) -> type[H]:
        if key in registry:
            raise ValueError(f"{what} {key!r} registered twice")
        instance = cls()
        setattr(instance, attr, key)
        instance.overrides = _hooked(cls)
        registry[key] = instance
        return cls
    return register


def effect(key: str) -> Callable[[type[H]], type[H]]:
    """Register a witch's effect under its catalogue key."""
    return _registrar(EFFECTS, key, "key", "effect")


def rule(key: str) -> Callable[[type[H]], type[H]]:
    """Register the rule behind modifiers with this key."""
    return _registrar(RULES, key, "key", "rule")


def token(name: str) -> Callable[[type[H]], type[H]]:
    """Register a token card's behaviour under its name."""
    return _registrar(TOKENS, name, "name", "token")
