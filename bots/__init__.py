"""Bots: players that see only their own seat's view, as a client receives it, and never the server's state.

``make(game, level, seed)`` gives a bot; ``bot.decide(view)`` answers one of ``view["legal"]``. Levels:
``random`` (any legal decision, every game) and ``strong`` (Creature Wars and Fairy Meat: determinized
search, see bots/creature_wars.py and bots/fairy_meat.py; in the solitaires the random player).
"""
from __future__ import annotations

from bots.players import LEVELS, Bot, RandomBot, make

__all__ = ["LEVELS", "Bot", "RandomBot", "make"]
