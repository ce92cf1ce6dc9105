"""The drawing helpers: colour repeats the notation, never replaces it; what is playable comes from the view."""
from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from client.moves import move_label, move_prompt
from client.playing_cards import BLACK_SUIT, RED_SUIT, face_text, is_red
from client.render import (
    TYPE_COLOURS,
    WITCH_COLOUR,
    blocked_text,
    card_label,
    damage_line,
    dealt_damage,
    duel_renderable,
    hand_renderable,
    hp_bar,
    legal_slots,
    modifiers_renderable,
    revealed_renderable,
    status_line,
)
from client.screens.solitaire import solitaire_status
from client.screens.table import decision_of


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


def test_witch_questions_and_modifiers_in_words() -> None:
    base: dict[str, Any] = {"seat": 1, "turn": 2, "locked": [True, True], "passed": [False, False],
                            "legal": [], "outcome": None, "waiting_for": 0}
    assert status_line(base) == "waiting for the opponent's choice"
    asked = {**base, "seat": 0, "question": {"prompt": "Choose a Tribe.", "options": ["Wolf"], "timeout": 30}}
    assert status_line(asked) == "your choice: Choose a Tribe. (a to answer)"
    assert status_line({**base, "seat": None}) == "spectating · turn 2 · waiting for Player 1's choice"
    mods = [{"text": "Lucky Witch: the next creature wins.", "owner": 0, "until": 0},
            {"text": "Berserker Witch: the loser takes more.", "owner": 1, "until": 4}]
    lines = modifiers_renderable(mods, 0).plain.splitlines()
    assert lines == ["In play", " • Lucky Witch: the next creature wins. (yours)",
                     " • Berserker Witch: the loser takes more. (opponent's) · until turn 4"]
    assert "(Player 2's)" in modifiers_renderable(mods, None).plain
    shown = plain(revealed_renderable([creature("Lvl.1 Holy Wolf {2}", "Holy"), None], (1, 0), ("Them", "You")))
    assert "the duel waits for a witch's question" in shown and "Lvl.1 Holy Wolf {2}" in shown and "pass" in shown


def test_a_selected_witch_shows_its_rules_under_it() -> None:
    witch = {"text": "Lvl.2 Blind Witch {3}", "kind": "witch", "type": None, "rarity": "lesser",
             "rules": "Your opponent plays blind.\nTwice."}
    cards = [creature("Lvl.1 Fire Wolf {2}", "Fire"), witch]
    assert "Your opponent plays blind." not in hand_renderable(cards, selected=0, playable={0, 1}, locked_slot=None).plain
    lines = hand_renderable(cards, selected=1, playable={0, 1}, locked_slot=None).plain.splitlines()
    assert [line.strip() for line in lines[2:]] == ["Your opponent plays blind.", "Twice."]


def test_playing_cards_are_coloured_by_suit_and_always_written_out() -> None:
    for card in ({"face": "7♦", "suit": "diamonds"}, {"face": "Q♥", "suit": "H"}, {"face": "2♥"}):
        assert is_red(card) and face_text(card).plain == card["face"] and RED_SUIT in str(face_text(card).style)
    for card in ({"face": "7♠", "suit": "spades"}, {"face": "K♣", "suit": "C"}):
        assert not is_red(card) and BLACK_SUIT in str(face_text(card).style)
    assert face_text(None).plain == "—" and is_red("D") and not is_red("S")


def test_moves_come_from_the_labels_and_losing_ones_are_flagged() -> None:
    assert move_prompt(0, {"kind": "mana", "slot": 6, "label": "Play 4♠ for mana (+4)"}).plain == "1 Play 4♠ for mana (+4)"
    losing = move_prompt(9, {"kind": "cast", "slot": 3, "target": 1, "label": "Cast 9♦ at 5♣", "loses": True}).plain
    assert losing == "  Cast 9♦ at 5♣  ⚠ loses the game"
    assert move_label({"kind": "end_turn"}) == "end_turn" and move_label({"kind": "gift", "suit": "S"}) == "gift (suit S)"
    assert decision_of({"kind": "cast", "slot": 3, "target": 1, "label": "x", "loses": True}) == \
        {"kind": "cast", "slot": 3, "target": 1}


def test_solitaire_status_line() -> None:
    view: dict[str, Any] = {"seat": 0, "score": 7, "legal": [{"kind": "mana"}] * 3, "outcome": None}
    assert solitaire_status(view) == "your move: 3 possible · 1-9 or ↑ ↓ to pick, Enter plays"
    assert solitaire_status({**view, "seat": None, "legal": []}) == "spectating · score 7"
    over = {**view, "outcome": {"winner": None, "reason": "lost", "detail": "no play left"}}
    assert solitaire_status(over) == "game over: no play left — you lose"
    assert solitaire_status({**over, "outcome": {"winner": 0, "detail": "all defeated"}}) == \
        "game over: all defeated — you win"


def test_dealt_damage_takes_the_empire_damage_of_the_turn_with_its_reasons() -> None:
    fight = {"kind": "fight", "text": "Player 1 wins the duel; Player 2 takes 2.", "winner": 0, "damage": [0, 2]}
    wrath = {"kind": "damage", "text": "Player 2's Empire takes 5 damage (lost the duel); 25 HP left.", "seat": 1,
             "amount": 5, "hp": 25}
    assert dealt_damage([{"kind": "reveal", "text": ""}, fight, wrath]) == \
        ([0, 5], [[], ["2 from the duel", "3 from effects in play"]])
    plain = {**wrath, "amount": 2, "text": "Player 2's Empire takes 2 damage (lost the duel); 28 HP left."}
    assert dealt_damage([fight, plain]) == ([0, 2], [[], ["2 from the duel"]])
    cursed = {"kind": "damage", "text": "Player 2's Empire takes 1 damage (Cursed Witch in hand); 27 HP left.",
              "seat": 1, "amount": 1, "hp": 27}
    winner_cursed = {**cursed, "seat": 0, "text": "Player 1's Empire takes 1 damage (Cursed Witch in hand); 29 HP left."}
    assert dealt_damage([fight, plain, cursed, winner_cursed]) == \
        ([1, 3], [["1 Cursed Witch in hand"], ["2 from the duel", "1 Cursed Witch in hand"]])
    assert dealt_damage([fight]) == ([0, 2], [[], ["2 from the duel"]]), "no damage event: the duel's own figure"
    assert dealt_damage([{"kind": "fight", "winner": None, "damage": [0, 0]}, {**wrath, "seat": 0}]) == \
        ([5, 0], [["5 lost the duel"], []])
    assert dealt_damage([wrath]) is None


def test_damage_line_says_why_when_more_than_the_duel_dealt_damage() -> None:
    assert damage_line("Opponent", 4, ["3 from the duel", "1 Cursed Witch in hand"]) == \
        "Opponent takes 4: 3 from the duel + 1 Cursed Witch in hand"
    assert damage_line("You", 1, ["1 Cursed Witch in hand"]) == "You take 1: 1 Cursed Witch in hand"
    assert damage_line("You", 3, ["3 from the duel"]) == "", "the box's takes 3 says it all"
    assert damage_line("You", 0, []) == ""
    assert damage_line("Player 2", 3, []) == "", "no reasons known (a replay's duel): the box says it"


def test_blocked_playing_cards_are_told_by_face_one_line_per_reason() -> None:
    cards = [{"code": "5D", "face": "5♦"}, None, {"code": "4D", "face": "4♦"}, {"code": "9S", "face": "9♠"}]
    why = "lower than the diamonds pile's top card"
    text = blocked_text(cards, [why, None, why, None]).plain
    assert text == f"✗ 5♦, 4♦: {why}", "an empty slot and a playable card say nothing"
    assert blocked_text(cards, []).plain == "" and blocked_text(cards, [None] * 4).plain == ""
    named = "9♠ cannot be gathered: the spades pile's top card is K♠"
    assert blocked_text(cards, [None, None, None, named]).plain == f"✗ {named}", "a reason naming its card, said once"
