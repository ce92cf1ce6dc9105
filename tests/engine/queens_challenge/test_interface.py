"""Queen's Challenge satisfies the Game protocol (checked by mypy) and behaves as one."""
from __future__ import annotations

from engine.interface import Game
from engine.queens_challenge import GAME

PROTOCOL: Game = GAME


def test_game_is_a_game() -> None:
    assert PROTOCOL.name == "queens_challenge"
