"""Lesser witches (levels 1-3): students of the art."""
from __future__ import annotations

from engine.creature_wars.effects import Effect, Fight, Source, effect
from engine.creature_wars.state import Pending
from engine.creature_wars.table import Table
from engine.creature_wars.witch_catalogue import CATALOGUE
from engine.creature_wars.witches.common import fighting

__all__: list[str] = []


@effect("blind_witch")
class BlindWitch(Effect):
    """This witch always loses its fight."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if fighting(src, fight) and fight.fought:
            fight.winner = 1 - src.owner


@effect("greedy_witch")
class GreedyWitch(Effect):
    """Draw 2 cards."""

    def cast(self, t: Table, src: Source) -> None:
        t.draw(src.owner, 2, "draws a card (Greedy Witch)")


@effect("cursed_witch")
class CursedWitch(Effect):
    """Each turn this is in your hand, take 1 damage (at the turn's end)."""

    def held_end(self, t: Table, src: Source) -> None:
        t.damage(src.owner, 1, "Cursed Witch in hand")


@effect("pick_a_witch")
class PickAWitch(Effect):
    """Choose to keep 1 of 3 random witch cards: the offer is a question; the memo holds (catalogue index, level) pairs."""

    def cast(self, t: Table, src: Source) -> None:
        offers: list[int] = []
        labels: list[str] = []
        for _ in range(3):
            witch = t.random_witch()
            if witch is None:
                break
            index = next(i for i, s in enumerate(CATALOGUE) if s.name == witch.witch)
            offers += [index, witch.level]
            labels.append(witch.notation())
            t.next_uid -= 1  # only an offer: the card is made when chosen
        if labels:
            t.ask(src.owner, src, "Pick a Witch: keep one of these.", labels, offers)

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        index, level = pending.memo[2 * choice], pending.memo[2 * choice + 1]
        t.gain(src.owner, t.new_witch(CATALOGUE[index], level), "keeps a witch (Pick a Witch)")

