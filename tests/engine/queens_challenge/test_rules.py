"""One focused test per Queen's Challenge rule, each from an exact scenario position."""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.interface import OutcomeReason, redact, redact_all
from engine.playing_cards import full_deck
from engine.queens_challenge import GAME
from engine.queens_challenge.state import State
from tests.engine.queens_challenge.helpers import (
    act,
    attack,
    end_turn,
    events_of,
    gather,
    gift,
    hand,
    mine,
    start,
    table,
    told,
)

FILL = ["8H", "9H", "10H", "JH", "QH", "8D", "9D", "10D"]
"""Magic cards for decks that only need to be there (a flip burns the bottom card)."""


def in_play(state: State) -> str | None:
    card = table(state)["in_play"]
    return None if card is None else str(card["code"])


def stack(state: State) -> list[str]:
    return [c["code"] for c in table(state)["in_play_stack"]]


def attacks(state: State) -> list[tuple[list[str], bool]]:
    return [(d["spells"], d["with_pile"]) for d in GAME.legal(state, 0) if d["kind"] == "attack"]


def kinds(state: State) -> list[str]:
    return [d["kind"] for d in GAME.legal(state, 0)]


def power(state: State, suit: str) -> int:
    return int(table(state)["piles"][suit]["power"])


def magic_discard(state: State) -> list[str]:
    return [c["code"] for c in table(state)["magic_discard"]]


# -- the game, set-up, scenario options ------------------------------------------------------


def test_one_seat_name_and_title() -> None:
    assert GAME.seats({}) == 1
    assert GAME.name == "queens_challenge"
    assert GAME.title == "Queen's Challenge"


def test_setup_shuffles_two_full_decks_and_draws_five() -> None:
    """Two 52-card decks; nothing is in play until turn 1's flip; turn 1 has drawn 5."""
    state = GAME.setup({}, 12345)
    data = GAME.dump(state)
    assert sorted(data["challenge"]) == sorted(c.code for c in full_deck()) and data["in_play"] == []
    assert sorted(data["magic"] + data["hand"]) == sorted(c.code for c in full_deck())
    view = mine(state)
    assert view["challenge_deck"] == 52 and view["in_play_stack"] == [] and view["in_play"] is None
    assert view["hand"]["count"] == 5 and view["magic_deck"] == 47
    assert view["score"] == 0 and view["turn"] == 1 and view["phase"] == "actions" and not view["scenario"]
    assert GAME.version(state) == 0 and GAME.opened(state, 0) == 0
    assert GAME.dump(GAME.setup({}, 12345)) == data
    assert GAME.dump(GAME.setup({}, 12346))["challenge"] != data["challenge"]


def test_scenario_decks_are_used_as_given_top_first() -> None:
    state = start(["KH", "2S"], ["AS", "2C", "3D", "4H", "5S", "6C", "7D"])
    assert in_play(state) == "KH"
    assert hand(state) == ["AS", "2C", "3D", "4H", "5S"]
    view = mine(state)
    assert view["magic_deck"] == 2 and view["challenge_deck"] == 1 and view["scenario"]


def test_scenario_hand_is_the_whole_first_hand() -> None:
    """A given hand replaces turn 1's draw; later turns draw up to five as usual."""
    state = start(["KH", "2S"], ["AS", "2C", "3D", "4H", "5S", "6C"], hand=["9C"])
    assert hand(state) == ["9C"] and mine(state)["magic_deck"] == 6
    state, _ = end_turn(state)
    assert hand(state) == ["9C", "AS", "2C", "3D", "4H"]


@pytest.mark.parametrize(("options", "message"), [
    ({"deck": []}, "unknown option 'deck'"),
    ({"challenge": ["1S"]}, "'1S'"),
    ({"challenge": "AS"}, "option 'challenge' must be a list"),
    ({"challenge": []}, "at least one card"),
    ({"challenge": ["AS", "AS"]}, "AS appears twice"),
    ({"challenge": ["AS"], "in_play": ["AS"]}, "AS appears twice"),
    ({"challenge": [], "in_play": []}, "at least one card"),
    ({"magic": ["AS", "AS"]}, "AS appears twice"),
    ({"hand": ["AS", "2S", "3S", "4S", "5S", "6S"]}, "at most 5"),
    ({"hand": ["AS"], "magic": ["AS"]}, "AS appears twice"),
    ({"piles": {"S": ["3S", "2S"]}}, "2S must be higher than 3S"),
    ({"piles": {"S": ["3H"]}}, "3H is not a spades card"),
    ({"piles": {"X": ["3S"]}}, "suit letters"),
    ({"piles": {"S": ["3S"]}, "hand": ["3S"]}, "3S appears twice"),
    ({"summoned": {"S": "5H"}}, "5H cannot sit in the spades zone"),
])
def test_bad_options_name_what_is_wrong(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        GAME.setup(options, 1)


def test_values_ace_low_and_faces_ranked() -> None:
    """Ace is 1, J/Q/K are 11/12/13 as challenge values."""
    for code, value in (("AH", 1), ("10H", 10), ("JH", 11), ("QH", 12), ("KH", 13)):
        assert mine(start([code], FILL))["in_play"]["value"] == value


# -- gather power -----------------------------------------------------------------------------


def test_gather_the_sources_example_higher_only() -> None:
    """With 3♣ gathered, 6♣ may go on the pile but 2♣ may not."""
    state = start(["KH"], FILL, hand=["2C", "6C"], piles={"C": ["3C"]})
    assert [d["card"] for d in GAME.legal(state, 0) if d["kind"] == "gather"] == ["6C"]
    with pytest.raises(IllegalDecision, match=r"2♣ cannot be gathered: the clubs pile's top card is 3♣"):
        act(state, {"kind": "gather", "card": "2C"})
    state = gather(state, "6C")
    assert table(state)["piles"]["C"]["top"]["code"] == "6C" and power(state, "C") == 2
    assert hand(state) == ["2C"]


def test_gather_any_number_of_times_power_counts_cards() -> None:
    """Gathering repeats freely in a turn; a pile's power is its number of cards, not their sum."""
    state = start(["KH"], FILL, hand=["AS", "2S", "9S", "KS", "QD"])
    state = gather(state, "AS", "2S", "9S", "KS", "QD")
    assert power(state, "S") == 4 and power(state, "D") == 1 and hand(state) == []


@pytest.mark.parametrize(("top", "card", "ok"), [("AS", "2S", True), ("JS", "QS", True), ("QS", "KS", True),
                                                  ("QS", "JS", False), ("KS", "AS", False)])
def test_gather_order_ace_low_jqk_in_order(top: str, card: str, ok: bool) -> None:
    state = start(["KH"], FILL, hand=[card], piles={"S": [top]})
    assert ({"kind": "gather", "card": card} in [{k: v for k, v in d.items() if k != "label"}
                                                for d in GAME.legal(state, 0)]) is ok
    if ok:
        assert power(gather(state, card), "S") == 2
    else:
        with pytest.raises(IllegalDecision, match="must be higher"):
            gather(state, card)


def test_gather_needs_a_card_in_hand() -> None:
    state = start(["KH"], FILL, hand=["2S"])
    with pytest.raises(IllegalDecision, match="3S is not in your hand"):
        gather(state, "3S")
    with pytest.raises(IllegalDecision, match="not a card code"):
        act(state, {"kind": "gather", "card": "ZZ"})
    with pytest.raises(IllegalDecision, match="needs the field 'card'"):
        act(state, {"kind": "gather"})


# -- attack -----------------------------------------------------------------------------------

ENEMIES = [("H", "S"), ("S", "H"), ("D", "C"), ("C", "D")]


@pytest.mark.parametrize(("target", "enemy"), ENEMIES)
def test_only_the_enemy_suit_pile_attacks(target: str, enemy: str) -> None:
    """Hearts and spades are enemies, diamonds and clubs are enemies; the other piles cannot attack."""
    piles = {s: [f"A{s}", f"2{s}", f"3{s}"] for s in "SHDC"}
    state = start([f"3{target}", "KH"], FILL, hand=[], piles=piles)
    assert attacks(state) == [([], True)]
    assert table(state)["enemy"] == enemy
    state, events = attack(state, with_pile=True)
    assert events_of(events, "defeat")[0].public["card"] == f"3{target}"
    assert table(state)["score"] == 1 and in_play(state) is None


@pytest.mark.parametrize(("target", "enemy"), ENEMIES)
def test_a_non_enemy_spell_is_refused(target: str, enemy: str) -> None:
    others = [s for s in "SHDC" if s != enemy]
    state = start([f"2{target}"], FILL, hand=[f"K{s}" for s in others])
    assert attacks(state) == []
    for suit in others:
        with pytest.raises(IllegalDecision, match=f"only {GAME.view(state, 0)['piles'][enemy]['name']} may attack"):
            attack(state, [f"K{suit}"])


def test_attack_needs_power_at_least_the_value() -> None:
    """Power equal to the value defeats the card; one less does not."""
    state = start(["4H", "3H"], FILL, hand=[], piles={"S": ["AS", "2S", "3S"]})
    assert attacks(state) == []
    with pytest.raises(IllegalDecision, match="a total of 3 does not reach the value 4 of 4♥"):
        attack(state, with_pile=True)
    state = start(["3H", "4H"], FILL, hand=[], piles={"S": ["AS", "2S", "3S"]})
    state, _ = attack(state, with_pile=True)
    assert in_play(state) is None and power(state, "S") == 3, "an attack keeps the pile"


def test_attack_with_an_empty_pile_is_refused() -> None:
    state = start(["AH"], FILL, hand=[])
    with pytest.raises(IllegalDecision, match="spades pile has no power and no summoned card"):
        attack(state, with_pile=True)
    with pytest.raises(IllegalDecision, match="needs 'with_pile': true, or at least one spell"):
        act(state, {"kind": "attack"})


def test_defeating_the_top_reveals_the_card_beneath_and_attacks_repeat() -> None:
    """The in-play stack: a new flip covers the old card; defeating the top reveals it; attack again."""
    state = start(["5H", "2S"], FILL, hand=[], piles={"S": ["AS", "2S", "3S", "4S", "5S"], "H": ["AH", "2H"]})
    state, _ = end_turn(state)
    assert stack(state) == ["5H", "2S"] and in_play(state) == "2S"
    state, events = attack(state, with_pile=True)
    assert in_play(state) == "5H" and "5♥ beneath it is in play again" in events[-1].public["text"]
    state, _ = attack(state, with_pile=True)
    assert stack(state) == [] and table(state)["score"] == 2
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is OutcomeReason.WON


def test_no_attack_without_a_card_in_play() -> None:
    state = start(["2H", "3H"], FILL, hand=[], piles={"S": ["AS", "2S"]})
    state, _ = attack(state, with_pile=True)
    assert in_play(state) is None and attacks(state) == []
    with pytest.raises(IllegalDecision, match="no challenge card is in play"):
        attack(state, with_pile=True)


# -- cast a spell -----------------------------------------------------------------------------


def test_a_single_spell_defeats_and_is_discarded() -> None:
    state = start(["9D", "KH"], FILL, hand=["10C", "2C"])
    assert (["10C"], False) in attacks(state) and (["2C"], False) not in attacks(state)
    state, _ = attack(state, ["10C"])
    assert hand(state) == ["2C"] and magic_discard(state) == ["10C"]
    assert in_play(state) is None and table(state)["score"] == 1


def test_sources_example_3_and_9_of_clubs_make_12_against_a_10_of_diamonds() -> None:
    """Spells of one suit combine: 3♣ + 9♣ = 12 defeats a 10♦ (the example's "10 of hearts" read as diamonds)."""
    state = start(["10D", "KH"], FILL, hand=["3C", "9C"])
    assert attacks(state) == [(["3C", "9C"], False)]
    for alone in ("3C", "9C"):
        with pytest.raises(IllegalDecision, match="does not reach the value 10"):
            attack(state, [alone])
    state, events = attack(state, ["3C", "9C"])
    assert "An attack of 12" in events_of(events, "defeat")[0].public["text"]
    assert magic_discard(state) == ["3C", "9C"] and table(state)["score"] == 1


def test_sources_example_read_literally_clubs_never_hit_hearts() -> None:
    """The enemy pairs stand: 3♣ + 9♣ cannot be cast at a 10♥."""
    state = start(["10H", "KH"], FILL, hand=["3C", "9C"])
    assert attacks(state) == []
    with pytest.raises(IllegalDecision, match="only spades may attack the hearts card in play"):
        attack(state, ["3C", "9C"])


def test_sources_example_spell_plus_attack_spades_4_and_5_make_9() -> None:
    """Spades power 4 + a 5♠ spell = 9: enough for a 9♥, not for a 10♥."""
    piles = {"S": ["AS", "2S", "3S", "4S"]}
    state = start(["9H", "KH"], FILL, hand=["5S"], piles=piles)
    assert attacks(state) == [(["5S"], True)]
    state, _ = attack(state, ["5S"], with_pile=True)
    assert table(state)["score"] == 1 and hand(state) == [] and power(state, "S") == 4
    state = start(["10H", "KH"], FILL, hand=["5S"], piles=piles)
    with pytest.raises(IllegalDecision, match="a total of 9 does not reach the value 10"):
        attack(state, ["5S"], with_pile=True)


def test_spells_any_number_per_turn() -> None:
    state = start(["2H", "KH"], FILL, hand=["3S", "KS"])
    state, _ = attack(state, ["3S"])
    state, _ = end_turn(state)
    state, _ = attack(state, ["KS"])
    assert table(state)["score"] == 2


def test_spell_cards_must_be_in_hand_and_distinct() -> None:
    state = start(["2H"], FILL, hand=["3S"])
    with pytest.raises(IllegalDecision, match="spell 4S is not in your hand"):
        attack(state, ["4S"])
    with pytest.raises(IllegalDecision, match="same card twice"):
        attack(state, ["3S", "3S"])
    with pytest.raises(IllegalDecision, match="'spells' must be a list"):
        act(state, {"kind": "attack", "spells": "3S"})
    with pytest.raises(IllegalDecision, match="'with_pile' must be true or false"):
        act(state, {"kind": "attack", "spells": ["3S"], "with_pile": 1})


def test_legal_lists_every_sufficient_combination() -> None:
    state = start(["6H"], FILL, hand=["2S", "4S", "5S", "9C"], piles={"S": ["AS"]})
    assert attacks(state) == [
        (["5S"], True), (["2S", "4S"], True), (["2S", "4S"], False), (["2S", "5S"], True), (["2S", "5S"], False),
        (["4S", "5S"], True), (["4S", "5S"], False), (["2S", "4S", "5S"], True), (["2S", "4S", "5S"], False),
    ]


# -- summoning zone ---------------------------------------------------------------------------


def test_sources_example_summoned_5_of_spades_adds_to_spades_power_6() -> None:
    """Spades power 6 + a summoned 5♠ = 11 defeats a J♥; the summoned card stays."""
    piles = {"S": ["2S", "3S", "4S", "7S", "8S", "9S"]}
    state = start(["JH", "KD"], FILL, hand=[], piles=piles, summoned={"S": "5S"})
    assert mine(state)["piles"]["S"]["strength"] == 11
    assert attacks(state) == [([], True)]
    state, events = attack(state, with_pile=True)
    assert "spades power 6 + summoned 5♠" in events_of(events, "defeat")[0].public["text"]
    assert table(state)["summoned"]["S"]["code"] == "5S" and table(state)["score"] == 1
    without = start(["JH"], FILL, hand=[], piles=piles)
    assert attacks(without) == []


def test_summoned_card_helps_attacks_not_bare_spells() -> None:
    """The summoned card adds to an attack of its pile (even an empty pile), never to spells cast alone."""
    state = start(["JH"], FILL, hand=["6S"], summoned={"S": "5S"})
    assert attacks(state) == [(["6S"], True)]
    with pytest.raises(IllegalDecision, match="a total of 6 does not reach"):
        attack(state, ["6S"])
    state, _ = attack(state, ["6S"], with_pile=True)
    assert table(state)["score"] == 1


def test_summoned_card_of_another_suit_does_not_help() -> None:
    state = start(["5H"], FILL, hand=[], summoned={"C": "KC", "H": "KH", "D": "KD"})
    assert attacks(state) == []


# -- gifts ------------------------------------------------------------------------------------


def test_sources_example_spades_gift_turns_a_king_into_10() -> None:
    """Spades power 3 on a K♥: value 13 - 3 = 10, so a 10♠ spell now defeats it."""
    state = start(["KH", "2C"], FILL, hand=["10S"], piles={"S": ["AS", "2S", "3S"]})
    assert attacks(state) == [(["10S"], True)], "10 + spades power 3 = 13 already; 10 alone is not"
    state, events = gift(state, "S")
    assert "its value is 10" in events[0].public["text"]
    assert mine(state)["in_play"] == {"code": "KH", "face": "K♥", "suit": "H", "value": 10, "printed": 13,
                                      "lowered": 3}
    assert table(state)["in_play"]["value"] == 10 and table(state)["gift_used"] == "S"
    assert attacks(state) == [(["10S"], True), (["10S"], False)]
    state, _ = attack(state, ["10S"])
    assert table(state)["score"] == 1


def test_spades_gift_lasts_while_the_card_stays_in_play() -> None:
    """The lowered value stays over turns, under a newer card, and a later gift lowers it again."""
    state = start(["KD", "QD", "2H"], FILL, hand=[], piles={"S": ["AS", "2S", "3S"], "C": ["AC", "2C"]},
                  summoned={"C": "KC"})
    state, _ = gift(state, "S")
    state, _ = end_turn(state)
    assert stack(state) == ["KD", "QD"] and table(state)["in_play"]["value"] == 12
    assert table(state)["in_play_stack"][0]["value"] == 10
    state, _ = attack(state, [], with_pile=True)  # 2 + K(13) = 15 >= 12
    assert in_play(state) == "KD" and table(state)["in_play"]["value"] == 10
    state, _ = gift(state, "S")
    assert table(state)["in_play"]["value"] == 7 and table(state)["in_play"]["lowered"] == 6


def test_spades_gift_never_goes_below_zero() -> None:
    state = start(["2H"], FILL, hand=[], piles={"S": ["AS", "2S", "3S"]})
    state, _ = gift(state, "S")
    assert table(state)["in_play"]["value"] == 0


def test_spades_gift_needs_a_card_in_play() -> None:
    state = start(["2H", "3H"], FILL, hand=[], piles={"S": ["AS", "2S"]})
    state, _ = attack(state, with_pile=True)
    assert "gift" not in kinds(state)
    with pytest.raises(IllegalDecision, match="needs a challenge card in play"):
        gift(state, "S")


def test_one_gift_a_turn_of_any_suit() -> None:
    piles = {"S": ["AS"], "H": ["AH"], "D": ["AD"], "C": ["AC"]}
    state = start(["KH", "2C", "3C", "4C"], FILL, hand=[], piles=piles)
    assert [d["suit"] for d in GAME.legal(state, 0) if d["kind"] == "gift"] == ["S", "H", "D", "C"]
    state, _ = gift(state, "H")
    assert "gift" not in kinds(state)
    for suit in "SHDC":
        with pytest.raises(IllegalDecision, match="the gift of hearts was already used this turn"):
            gift(state, suit)
    state, _ = end_turn(state)
    assert table(state)["gift_used"] is None
    state, _ = gift(state, "S")
    assert table(state)["gift_used"] == "S"


def test_a_gift_needs_power() -> None:
    state = start(["KH", "2C"], FILL, hand=[], piles={"S": ["AS"]})
    assert [d["suit"] for d in GAME.legal(state, 0) if d["kind"] == "gift"] == ["S"]
    for suit, name in (("H", "hearts"), ("D", "diamonds"), ("C", "clubs")):
        with pytest.raises(IllegalDecision, match=f"your {name} pile has no power"):
            gift(state, suit)
    with pytest.raises(IllegalDecision, match="'suit' must be one of S, H, D, C"):
        gift(state, "X")


def test_sources_example_hearts_gift_of_5_discards_5_and_they_score() -> None:
    """Hearts power 5: the top 5 challenge cards are discarded; they count for the score; the card in play stays."""
    challenge = ["KS", "2C", "3C", "4C", "5C", "6C", "7C"]
    state = start(challenge, FILL, hand=[], piles={"H": ["AH", "2H", "3H", "4H", "5H"]})
    state, events = gift(state, "H")
    assert events[0].public["cards"] == ["2C", "3C", "4C", "5C", "6C"]
    view = table(state)
    assert view["challenge_deck"] == 1 and view["challenge_discard"] == 5 and view["score"] == 5
    assert in_play(state) == "KS"
    state, _ = end_turn(state)
    assert stack(state) == ["KS", "7C"]


def test_hearts_gift_takes_what_is_left_and_can_win() -> None:
    state = start(["2S", "3C", "4C"], FILL, hand=[], piles={"H": ["AH", "2H", "3H", "4H", "5H"]})
    state, _ = attack(state, with_pile=True)
    state, events = gift(state, "H")
    assert events_of(events, "gift")[0].public["cards"] == ["3C", "4C"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason is OutcomeReason.WON
    assert outcome.scores == (3,)


def test_hearts_gift_needs_a_challenge_deck() -> None:
    state = start(["2S"], FILL, hand=[], piles={"H": ["AH"]})
    assert "gift" not in kinds(state)
    with pytest.raises(IllegalDecision, match="needs cards in the challenge deck"):
        gift(state, "H")


def _diamonds_position() -> State:
    magic = ["AS", "2S", "3S", "4S", "5S", "6S"]
    return start(["KH", "QH"], magic, hand=["9C"], piles={"D": ["AD", "2D", "3D", "4D"]})


def test_sources_example_diamonds_gift_of_4_reveals_to_the_player_alone() -> None:
    """Diamonds power 4: the player sees the top 4 magic cards, then puts them back in any order."""
    state, events = gift(_diamonds_position(), "D")
    assert mine(state)["phase"] == "order"
    assert [c["code"] for c in mine(state)["reveal"]] == ["AS", "2S", "3S", "4S"]
    spectator = table(state)
    assert "reveal" not in spectator and "known_top" not in spectator
    blob = json.dumps(spectator, ensure_ascii=False)
    assert not any(code in blob for code in ('"AS"', '"2S"', '"3S"', '"4S"', "A♠", "2♠", "3♠", "4♠"))
    (event,) = events_of(events, "gift")
    assert redact(event, 0)["cards"] == ["AS", "2S", "3S", "4S"]
    assert "cards" not in redact(event, None) and "A♠" not in redact(event, None)["text"]
    steps = GAME.legal(state, 0)
    assert [d["kind"] for d in steps] == ["place"] * 4 + ["order"]
    assert [d["card"] for d in steps[:4]] == ["AS", "2S", "3S", "4S"] and steps[4]["cards"] == ["AS", "2S", "3S", "4S"]
    state, events = act(state, {"kind": "order", "cards": ["4S", "2S", "AS", "3S"]})
    assert "4♠" not in told(events, None)[0]["text"] and redact(events[0], 0)["cards"] == ["4S", "2S", "AS", "3S"]
    assert mine(state)["phase"] == "actions" and mine(state)["reveal"] == []
    assert [c["code"] for c in mine(state)["known_top"]] == ["4S", "2S", "AS", "3S"]
    state, _ = end_turn(state)  # the flip burns 6S from the bottom; the draw takes the known four
    assert magic_discard(state) == ["6S"]
    assert hand(state) == ["9C", "4S", "2S", "AS", "3S"] and mine(state)["known_top"] == []


def test_diamonds_order_must_be_exactly_the_revealed_cards() -> None:
    state, _ = gift(_diamonds_position(), "D")
    for cards in (["AS", "2S", "3S"], ["AS", "2S", "3S", "5S"], ["AS", "AS", "2S", "3S"]):
        with pytest.raises(IllegalDecision, match="must be an order of exactly the revealed cards"):
            act(state, {"kind": "order", "cards": cards})
    for decision in ({"kind": "end_turn"}, {"kind": "gather", "card": "9C"}):
        with pytest.raises(IllegalDecision, match="not accepted in phase 'order', which takes order"):
            act(state, decision)


def test_diamonds_gift_reveals_at_most_the_deck_and_one_card_needs_no_order() -> None:
    state = start(["KH"], ["AS"], hand=[], piles={"D": ["AD", "2D", "3D"]})
    state, events = gift(state, "D")
    assert redact(events[0], 0)["cards"] == ["AS"] and mine(state)["phase"] == "actions"
    assert [c["code"] for c in mine(state)["known_top"]] == ["AS"]
    state = start(["KH"], ["AS", "2S"], hand=[], piles={"D": ["AD", "2D", "3D"]})
    state, _ = gift(state, "D")
    assert len(mine(state)["reveal"]) == 2 and len(GAME.legal(state, 0)) == 2


def test_diamonds_gift_of_six_is_ordered_card_by_card_or_at_once() -> None:
    magic = ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]
    state = start(["KH"], magic, hand=[], piles={"D": ["AD", "2D", "3D", "4D", "5D", "6D"]})
    state, _ = gift(state, "D")
    steps = GAME.legal(state, 0)
    assert [d.get("card") for d in steps] == [*magic[:6], None] and steps[0]["label"] == "Put A♠ 1st from the top"
    placed, events = act(state, {"kind": "place", "card": "5S"})
    assert redact_all(events, None) == [] and redact(events[0], 0)["text"] == "5♠ goes 1st from the top."
    assert [c["code"] for c in mine(placed)["reveal"]] == ["5S", "AS", "2S", "3S", "4S", "6S"]
    assert mine(placed)["placed"] == 1 and mine(placed)["phase"] == "order"
    assert GAME.legal(placed, 0)[-1]["label"] == "Keep this order, top first: 5♠, A♠, 2♠, 3♠, 4♠, 6♠"
    with pytest.raises(IllegalDecision, match="5S is not one of the revealed cards still to order"):
        act(placed, {"kind": "place", "card": "5S"})
    placed, _ = act(placed, {"kind": "order", "cards": ["6S", "4S", "3S", "2S", "AS"]})
    assert [c["code"] for c in mine(placed)["known_top"]] == ["5S", "6S", "4S", "3S", "2S", "AS"]
    state, _ = act(state, {"kind": "order", "cards": ["6S", "4S", "2S", "5S", "3S", "AS"]})
    assert [c["code"] for c in mine(state)["known_top"]] == ["6S", "4S", "2S", "5S", "3S", "AS"]


def test_sources_example_clubs_gift_of_6_summons_a_3_of_diamonds() -> None:
    state = start(["KH"], ["3D", "9D"], hand=[], piles={"C": ["AC", "2C", "3C", "4C", "5C", "6C"]})
    state, _ = gift(state, "C")
    assert table(state)["summoning"]["code"] == "3D" and kinds(state) == ["summon", "decline"]
    state, events = act(state, {"kind": "summon"})
    assert table(state)["summoned"]["D"]["code"] == "3D" and events[0].public["summoned"] is True
    assert table(state)["magic_deck"] == 1


@pytest.mark.parametrize(("top", "summoned"), [("6D", True), ("7D", False), ("KS", False), ("AS", True)])
def test_clubs_gift_summons_only_up_to_clubs_power(top: str, summoned: bool) -> None:
    state = start(["KH"], [top, "9D"], hand=[], piles={"C": ["AC", "2C", "3C", "4C", "5C", "6C"]})
    state, _ = gift(state, "C")
    if summoned:
        state, _ = act(state, {"kind": "summon"})
    view = table(state)
    if summoned:
        assert view["summoned"][top[-1]]["code"] == top and magic_discard(state) == []
    else:
        assert all(v is None for v in view["summoned"].values()) and magic_discard(state) == [top]


def test_clubs_gift_replaces_the_summoned_card_of_that_suit() -> None:
    state = start(["KH"], ["3D"], hand=[], piles={"C": ["AC", "2C", "3C"]}, summoned={"D": "2D", "S": "5S"})
    state, _ = gift(state, "C")
    assert GAME.legal(state, 0)[0]["label"] == "Summon 3♦ to the diamonds summoning zone (replaces 2♦)"
    state, events = act(state, {"kind": "summon"})
    view = table(state)
    assert view["summoned"]["D"]["code"] == "3D" and view["summoned"]["S"]["code"] == "5S"
    assert magic_discard(state) == ["2D"] and "replacing 2♦" in events[0].public["text"]


# -- the flip, the draw, the end ---------------------------------------------------------------


def test_flip_with_a_card_in_play_burns_the_bottom_magic_card() -> None:
    state = start(["KH", "QD"], ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"])
    state, events = end_turn(state)
    assert [e.kind for e in events] == ["end_turn", "burn", "flip", "turn"]
    assert magic_discard(state) == ["8S"] and stack(state) == ["KH", "QD"]
    assert hand(state) == ["AS", "2S", "3S", "4S", "5S"], "a full hand draws nothing"
    assert table(state)["turn"] == 2 and GAME.version(state) == 1


def test_flip_with_no_card_in_play_burns_nothing() -> None:
    state = start(["2H", "QD"], ["AS", "2S", "3S", "4S", "5S", "6S", "7S"])
    state, _ = attack(state, ["2S"])
    state, events = end_turn(state)
    assert not events_of(events, "burn") and magic_discard(state) == ["2S"]
    assert stack(state) == ["QD"] and hand(state) == ["AS", "3S", "4S", "5S", "6S"]


def test_the_player_may_end_the_turn_at_any_time() -> None:
    state = start(["2H", "QD"], FILL, hand=["3S"], piles={"S": ["AS", "2S"]})
    assert kinds(state)[-1] == "end_turn" and "attack" in kinds(state)
    state, _ = end_turn(state)
    assert stack(state) == ["2H", "QD"]


def test_challenge_deck_empty_but_a_card_in_play_still_burns() -> None:
    state = start(["KH"], ["AS", "2S", "3S", "4S", "5S", "6S", "7S"])
    state, events = end_turn(state)
    assert not events_of(events, "flip") and magic_discard(state) == ["7S"]
    assert stack(state) == ["KH"] and GAME.outcome(state) is None


def test_draw_step_with_an_empty_magic_deck_draws_what_is_left() -> None:
    """Running out of magic cards at the draw is no loss: the hand is just short."""
    state = start(["2H", "3C", "4C"], ["AS", "2S", "3S"], hand=["KS"])
    state, _ = attack(state, ["KS"])
    state, events = end_turn(state)  # nothing in play: no burn; draws all three
    assert hand(state) == ["AS", "2S", "3S"] and table(state)["magic_deck"] == 0
    assert "ran out" in events_of(events, "draw")[0].public["text"]
    state, _ = act(state, {"kind": "gather", "card": "AS"})
    with pytest.raises(IllegalDecision):
        attack(state, ["2S"])  # spades do not attack a club
    assert GAME.outcome(state) is None


def test_losing_when_the_flip_needs_a_card_from_an_empty_magic_deck() -> None:
    state = start(["KH", "2C"], [], hand=["AS"])
    (end,) = [d for d in GAME.legal(state, 0) if d["kind"] == "end_turn"]
    assert end["loses"] is True
    state, events = act(state, end)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner is None and outcome.reason is OutcomeReason.LOST
    assert outcome.scores == (0,) and "score 0" in outcome.detail
    assert events[-1].kind == "over" and table(state)["phase"] == "over"
    assert table(state)["outcome"]["reason"] == "lost" and GAME.legal(state, 0) == []
    with pytest.raises(MatchOver):
        end_turn(state)


def test_end_turn_is_not_marked_losing_with_cards_left() -> None:
    state = start(["KH"], ["AS"], hand=[])
    (end,) = [d for d in GAME.legal(state, 0) if d["kind"] == "end_turn"]
    assert "loses" not in end


def test_winning_by_discarding_every_challenge_card() -> None:
    state = start(["2H", "3H"], FILL, hand=["2S", "3S"])
    state, _ = attack(state, ["2S"])
    assert GAME.outcome(state) is None, "the challenge deck still holds a card"
    state, _ = end_turn(state)
    state, events = attack(state, ["3S"])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.reason is OutcomeReason.WON
    assert outcome.scores == (2,) and events[-1].kind == "over"
    assert mine(state)["outcome"] == {"winner": 0, "reason": "won", "scores": [2], "detail": outcome.detail}


# -- the interface ----------------------------------------------------------------------------


def test_only_seat_0_plays() -> None:
    state = start(["KH"], FILL)
    assert GAME.legal(state, 1) == []
    with pytest.raises(NotYourTurn, match="seat 1 does not exist"):
        GAME.apply(state, 1, {"kind": "end_turn"})


def test_unknown_kinds_and_fields_are_refused_labels_are_not() -> None:
    state = start(["2H", "KH"], FILL, hand=["3S"])
    with pytest.raises(IllegalDecision, match="unknown decision kind 'play'"):
        act(state, {"kind": "play"})
    with pytest.raises(IllegalDecision, match="unknown decision kind"):
        act(state, {"kind": ["end_turn"]})
    with pytest.raises(IllegalDecision, match="no field 'with_piles'"):
        act(state, {"kind": "attack", "spells": ["3S"], "with_piles": True})
    for decision in GAME.legal(state, 0):
        assert "label" in decision
        bare = {k: v for k, v in decision.items() if k not in ("label", "loses")}
        assert GAME.apply(state, 0, decision)[0] == GAME.apply(state, 0, bare)[0]


def test_version_counts_decisions_and_opened_follows() -> None:
    state = start(["2H", "KH"], FILL, hand=["3S", "4S"])
    for number in (1, 2, 3):
        state, _ = act(state, GAME.legal(state, 0)[0])
        assert GAME.version(state) == number == GAME.opened(state, 0) == mine(state)["version"]


def test_spectator_sees_the_table_but_not_the_hand() -> None:
    state = start(["KH", "2C"], FILL, hand=["AS", "2S"], piles={"S": ["3S", "4S"]}, summoned={"D": "5D"})
    state, _ = gift(state, "S")
    spectator = table(state)
    assert spectator["hand"] == {"count": 2} and spectator["legal"] == []
    assert spectator["piles"]["S"] == {"name": "spades", "power": 2, "top": mine(state)["piles"]["S"]["top"],
                                       "strength": 2}
    assert spectator["summoned"]["D"]["code"] == "5D" and spectator["in_play"]["value"] == 11
    assert spectator["challenge_deck"] == 1 and spectator["magic_deck"] == len(FILL)
    blob = json.dumps(spectator, ensure_ascii=False)
    assert '"AS"' not in blob and "A♠" not in blob and '"2S"' not in blob


def test_draws_are_secret_to_the_player() -> None:
    state = start(["KH", "2C"], ["AS", "2S", "3S", "4S", "5S", "6S"], hand=[])
    _, events = end_turn(state)
    (draw,) = events_of(events, "draw")
    assert redact(draw, 0)["cards"] == ["AS", "2S", "3S", "4S", "5S"]
    assert redact(draw, None) == {"kind": "draw", "text": draw.public["text"], "count": 5}
    assert "A♠" not in draw.public["text"]


def test_no_decision_is_timed() -> None:
    assert GAME.timer(start(["KH"], FILL)) is None


def test_any_option_makes_a_scenario() -> None:
    assert GAME.scenario({}) is False
    scenarios: list[dict[str, Any]] = [{"challenge": ["KH"]}, {"magic": []}, {"hand": ["AS"]},
                                       {"piles": {"S": ["AS"]}}, {"summoned": {"S": "AS"}}]
    for options in scenarios:
        assert GAME.scenario(options) is True
        assert mine(GAME.setup(options, 3))["scenario"] is True
