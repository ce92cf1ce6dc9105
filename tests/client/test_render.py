"""The drawing helpers: colour repeats the notation, never replaces it; playability comes from the view."""
from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from client.render import (
    TYPE_COLOURS,
    WITCH_COLOUR,
    card_label,
    duel_renderable,
    hand_renderable,
    hp_bar,
    legal_slots,
    status_line,
)


def creature(text: str, ptype: str | None, **extra: Any) -> dict[str, Any]:
    return {"text": text, "kind": "creature", "type": ptype, **extra}


def plain(renderable: Any, width: int = 100) -> str:
    console = Console(width=width, no_color=True, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_card_colour_by_power_type_and_witch_green() -> None:
    for ptype, colour in TYPE_COLOURS.items():
        label = card_label(creature(f"Lvl.1 {ptype} Wolf {{2}}", ptype))
        assert label.plain == f"Lvl.1 {ptype} Wolf {{2}}" and str(label.style) == colour
    witch = card_label({"text": "Lvl.2 Blind Witch {3}", "kind": "witch", "type": None})
    assert witch.plain == "Lvl.2 Blind Witch {3}" and str(witch.style) == WITCH_COLOUR
    assert card_label(None).plain == "pass"
    assert sorted(TYPE_COLOURS) == ["Ancient", "Fire", "Holy", "Nightmare"]


def test_hand_numbers_cards_marks_selection_and_dims_what_is_not_offered() -> None:
    cards = [creature("Lvl.3 Fire! Giant {4}", "Fire"), creature("Lvl.2 Holy Wolf {2}: (1)", "Holy", cooldown=1)]
    text = hand_renderable(cards, selected=0, playable={0}, locked_slot=None)
    lines = text.plain.splitlines()
    assert lines[0].split() == ["▶", "1", "Lvl.3", "Fire!", "Giant", "{4}"]
    assert lines[1].split() == ["2", "Lvl.2", "Holy", "Wolf", "{2}:", "(1)", "cooldown", "1"]
    styles = {text.plain[span.start:span.end].strip(): span.style for span in text.spans}
    first, second = styles["Lvl.3 Fire! Giant {4}"], styles["Lvl.2 Holy Wolf {2}: (1)"]
    assert not isinstance(first, str) and first.reverse and not first.dim
    assert not isinstance(second, str) and second.dim and not second.reverse
    locked = hand_renderable(cards, selected=1, playable=set(), locked_slot=0)
    assert "🔒 locked in" in locked.plain.splitlines()[0]


def test_legal_slots_come_from_the_view_only() -> None:
    assert legal_slots({"legal": [{"kind": "play", "slot": 2}, {"kind": "play", "slot": 0}]}) == {0, 2}
    assert legal_slots({"legal": []}) == set()
    assert legal_slots({}) == set()


def test_status_line_says_whose_move_it_is() -> None:
    base: dict[str, Any] = {"seat": 0, "turn": 3, "locked": [False, False], "passed": [False, False],
                            "legal": [{"kind": "play", "slot": 0}], "outcome": None}
    assert status_line(None) == "waiting for the table…"
    assert status_line(base) == "your move"
    assert status_line({**base, "locked": [False, True]}) == "your move · opponent 🔒 locked in"
    assert status_line(base, free_seats=1) == "waiting for an opponent to join"
    locked = {**base, "legal": [], "locked": [True, False], "locked_card": {"text": "Lvl.1 Fire Wolf {2}"}}
    assert status_line(locked) == "you locked in Lvl.1 Fire Wolf {2} — waiting for the opponent"
    assert status_line({**base, "legal": []}) == "waiting for the opponent"
    over = {**base, "legal": [], "outcome": {"winner": 1, "reason": "knockout", "detail": "Player 2 wins by knockout"}}
    assert status_line(over) == "match over: Player 2 wins by knockout — you lose"
    assert status_line({**over, "seat": None}) == "match over: Player 2 wins by knockout"
    assert status_line({**base, "seat": None, "legal": [], "locked": [True, False]}) == \
        "spectating · turn 3 · Player 1 🔒 locked in"


def test_duel_and_hp_read_in_monochrome() -> None:
    duel = {"turn": 4, "cards": [creature("Lvl.4 Holy Wolf {2}", "Holy"), creature("Lvl.6 Fire Dragon {7}", "Fire")],
            "powers": [6, 13], "winner": 1, "damage": [2, 0], "summary": "Player 2 wins the duel; Player 1 takes 2."}
    text = plain(duel_renderable(duel, (1, 0), ("Opponent", "You")))
    assert "Turn 4 duel" in text and "Player 2 wins the duel; Player 1 takes 2." in text
    fire_line = next(line for line in text.splitlines() if "Fire Dragon" in line)
    assert fire_line.index("Fire Dragon") < fire_line.index("Holy Wolf"), "the opponent's card comes first"
    assert "power 13" in text and "★ wins" in text and "takes 2" in text
    assert hp_bar(22, 30, width=15).plain == "███████████░░░░ 22/30"
    assert hp_bar(-3, 30, width=4).plain == "░░░░ -3/30"
