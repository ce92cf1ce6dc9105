"""The games this server hosts, by their wire name."""
from __future__ import annotations

from engine.creature_wars import GAME as CREATURE_WARS
from engine.fairy_meat import GAME as FAIRY_MEAT
from engine.fairy_tableau import GAME as FAIRY_TABLEAU
from engine.queens_challenge import GAME as QUEENS_CHALLENGE
from engine.rules_game import RulesGame

__all__ = ["GAMES", "get"]

_ALL: tuple[RulesGame, ...] = (CREATURE_WARS, FAIRY_MEAT, FAIRY_TABLEAU, QUEENS_CHALLENGE)
GAMES: dict[str, RulesGame] = {game.name: game for game in _ALL}


def get(name: str) -> RulesGame | None:
    return GAMES.get(name)
