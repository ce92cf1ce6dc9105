"""One test per Sinful witch: set up a position, play the witch, check the effect."""
from __future__ import annotations

from tests.engine.scenario import duel
from tests.engine.witches.helpers import GAME, hand, hp, witch_duel


def test_witch_of_wrath_adds_three_to_every_lost_duel() -> None:
    state, _ = witch_duel("Lvl.7 Witch of Wrath", "Lvl.1 Serpent",
                          hands=[["Lvl.3 Dragon"], ["Lvl.1 Giant"]])
    assert hp(state) == [30, 30]  # the witch (power 10) beat the Serpent: no damage
    assert [m["text"] for m in GAME.view(state, 1)["modifiers"]] == [
        "Witch of Wrath: whoever loses a duel takes 3 more damage."]
    state, _ = duel(state, "Lvl.3 Dragon {7}", "Lvl.1 Giant {4}")
    assert hp(state) == [30, 30 - 4 - 3]
    assert "Lvl.1 Serpent {0}" in hand(state, 1)
