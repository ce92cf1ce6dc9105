"""The games this server hosts, by their wire name."""
from __future__ import annotations

from engine.creature_wars import GAME as CREATURE_WARS
from engine.interface import Game

__all__ = ["GAMES", "get"]

GAMES: dict[str, Game] = {CREATURE_WARS.name: CREATURE_WARS}


def get(name: str) -> Game | None:
    return GAMES.get(name)
