"""The help wraps to the terminal's width (nothing cut off at 80 columns) and explains the notation and the weapons."""
from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from client.screens.dialogs import HelpScreen, HelpText
from client.screens.duel import DUEL_HELP
from client.screens.fairy_meat import RULES as FAIRY_MEAT_RULES
from client.screens.match import HELP
from tests.client.helpers import screen_lines
from tests.client.replay import ReplayApp, replay
from tests.client.test_snapshots import CREATURE_WARS, FAIRY_MEAT


def box_words(app: Any) -> list[str]:
    """The words inside the help's box, as the terminal shows them."""
    words: list[str] = []
    for line in screen_lines(app):
        if line.count("│") >= 2:
            inner = line[line.index("│") + 1:line.rindex("│")]
            words += inner.replace("▆", " ").replace("▅", " ").split()
    return words


def contains(words: list[str], expected: list[str]) -> bool:
    return any(words[i:i + len(expected)] == expected for i in range(len(words) - len(expected) + 1))


@pytest.mark.parametrize(("messages", "text"), [pytest.param(CREATURE_WARS, HELP + DUEL_HELP, id="creature_wars"),
                                                 pytest.param(FAIRY_MEAT, FAIRY_MEAT_RULES, id="fairy_meat")])
async def test_the_help_at_80_columns_shows_every_word(messages: list[dict[str, Any]], text: str) -> None:
    app = ReplayApp(messages)
    async with app.run_test(size=(80, 80)) as pilot:
        await replay(pilot)
        await pilot.press("question_mark")
        await pilot.pause(0.2)
        assert isinstance(app.screen, HelpScreen)
        expected = Text.from_markup(text).plain.split()
        words = box_words(app)
        assert contains(words, expected), "\n".join(screen_lines(app))


def test_the_help_explains_the_notation_and_the_weapons() -> None:
    for what in ("Lvl.3 is its level", "{7} its base strength", '"!" after a Power Type', "Rally", ": (2)"):
        assert what in HELP
    for weapon in ("Claws", "Moon Dagger", "Vibro-Master"):
        assert f"\n  {weapon}  " in FAIRY_MEAT_RULES


@pytest.mark.parametrize("width", [40, 60, 80])
def test_help_text_wraps_to_the_width_keeping_every_word(width: int) -> None:
    console = Console(width=width, record=True, color_system=None)
    console.print(HelpText(HELP + DUEL_HELP))
    lines = console.export_text().splitlines()
    assert all(cell_len(line) <= width for line in lines)
    assert " ".join(lines).split() == Text.from_markup(HELP + DUEL_HELP).plain.split()
    keyed = [line for line in lines if line.startswith("  c ")]
    after = lines[lines.index(keyed[0]) + 1]
    assert width == 80 or after.startswith(" " * 14), "a key's text wraps under its description"
