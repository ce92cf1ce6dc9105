"""The games this server hosts, by their wire name."""
from __future__ import annotations

from engine.creature_wars import GAME as CREATURE_WARS
from engine.fairy_tableau import GAME as FAIRY_TABLEAU
from engine.interface import Game

__all__ = ["GAMES", "get"]

GAMES: dict[str, Game] = {game.name: game for game in (CREATURE_WARS, FAIRY_TABLEAU)}


def get(name: str) -> Game | None:
    return GAMES.get(name)
