"""The games this server hosts, by their wire name."""
from __future__ import annotations

from engine.creature_wars import GAME as CREATURE_WARS
from engine.fairy_meat import GAME as FAIRY_MEAT
from engine.fairy_tableau import GAME as FAIRY_TABLEAU
from engine.interface import Game
from engine.queens_challenge import GAME as QUEENS_CHALLENGE

__all__ = ["GAMES", "get"]

_ALL: tuple[Game, ...] = (CREATURE_WARS, FAIRY_MEAT, FAIRY_TABLEAU, QUEENS_CHALLENGE)
GAMES: dict[str, Game] = {game.name: game for game in _ALL}


def get(name: str) -> Game | None:
    return GAMES.get(name)
