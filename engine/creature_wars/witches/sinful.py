"""Sinful witches (levels 7-9): the most perilous effects."""
from __future__ import annotations

from engine.creature_wars.effects import Effect, Hit, Rule, Source, effect, rule
from engine.creature_wars.table import Table

__all__: list[str] = []


@rule("wrath")
class Wrath(Rule):
    """For the rest of the game, a player who loses a duel takes 3 more damage."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.kind == "duel":
            hit.add += 3


@effect("witch_of_wrath")
class WitchOfWrath(Effect):
    """Put the Wrath rule in play for the rest of the game."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("wrath", src.owner, "Witch of Wrath: whoever loses a duel takes 3 more damage.")
