"""Which modifiers a hook point asks: a modifier taken out while others are asked is skipped, one replaced by an
equal copy is still asked (as ``in`` on the list has always told)."""
from __future__ import annotations

from engine.creature_wars import GAME
from engine.creature_wars.effects import RULES
from engine.creature_wars.state import Modifier
from engine.creature_wars.table import Table


def test_a_modifier_is_in_play_itself_or_as_an_equal_copy() -> None:
    key = next(iter(RULES))
    table = Table(GAME.setup({}, 1))
    mod, other = Modifier(key, 0, 1), Modifier(key, 1, 2)
    table.modifiers = [other, mod]
    assert table._in_play(mod) and table._in_play(other)
    table.modifiers = [other, Modifier(key, 0, 1)]  # an equal copy in its place
    assert table._in_play(mod)
    table.modifiers = [other]
    assert not table._in_play(mod)
