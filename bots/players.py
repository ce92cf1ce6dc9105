"""The bot interface and the random player; ``make`` picks a game's bot for a level."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["LEVELS", "Bot", "RandomBot", "make"]

LEVELS = ("random", "strong")


class Bot(Protocol):
    """A player deciding from its seat's view alone (the ``view`` map of a ``view`` message)."""

    level: str

    def decide(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """One of ``view["legal"]`` (never called while it is empty)."""
        ...


class RandomBot:
    """Any legal decision, uniformly: the floor every other level is measured against."""

    level = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: Mapping[str, Any]) -> dict[str, Any]:
        legal = list(view["legal"])
        choice: dict[str, Any] = dict(self.rng.choice(legal))
        return choice


def make(game: str, level: str, seed: int | str | None = None) -> Bot:
    """The bot of ``level`` for ``game``: ``strong`` searches where the game has a search (Creature Wars,
    Fairy Meat), elsewhere it plays as ``random``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    if level == "strong" and game == "creature_wars":
        from bots.creature_wars import SearchBot

        return SearchBot(seed)
    if level == "strong" and game == "fairy_meat":
        from bots.fairy_meat import SearchBot as FairyMeatBot

        return FairyMeatBot(seed)
    return RandomBot(seed)
