"""Worked examples: whole combats from exact scenario decks, every value checked."""
from __future__ import annotations

from engine.fairy_meat import GAME
from tests.engine.fairy_meat.helpers import act, both, decide, events_of, fairy, start, texts, told, view

ADD = {"kind": "declare", "direction": "add"}
SUB = {"kind": "declare", "direction": "subtract"}
NONE = {"kind": "trumps", "cards": []}


def trumps(*codes: str, colour: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"kind": "trumps", "cards": list(codes)}
    if colour:
        out["colour"] = colour
    return out


def card(code: str) -> dict[str, str]:
    return {"kind": "numbered", "card": code}


def test_a_whole_attack_with_a_cheating_defender() -> None:
    """P1 (Claws, Kill 3) attacks P2 (Live 3, not yet acted): 4 cards against 4.

    P1 adds J♥ to 7♥ (8). P2 subtracts, but her Q♠ (black) does not match her 6♦: P1 applies it,
    moving her own card up and P2's down (both red: the highest wins): 9 against 5, P1 wins by 4,
    2 points (4 halved) of damage. P2 takes them from Live.
    """
    deck = ["KH", "2C", "7H", "JH", "3S", "9D", "5H", "QS", "4C", "6D", "8C", "10H"]
    state = start(deck)
    seen = view(state, None)
    assert (seen["round"], seen["order"], seen["turn"], seen["phase"]) == (1, [0, 1], 0, "action")
    assert [c["code"] for c in seen["fairies"][0]["order_cards"]] == ["KH"]
    state, events = act(state, 0, "attack")
    assert texts(events)[:3] == [
        "Player 1 attacks Player 2 with Claws.",
        "Player 1 draws a combat hand of 4 cards (Kill 3 + for attacking 1).",
        "Player 2 draws a combat hand of 4 cards (Live 3 + Posed: not yet acted 1).",
    ]
    assert [c["code"] for c in view(state, 0)["hand"]] == ["3S", "7H", "9D", "JH"]
    assert [c["code"] for c in view(state, 1)["hand"]] == ["4C", "5H", "6D", "QS"]
    state, _ = both(state, ADD, SUB)
    state, events = both(state, trumps("JH"), trumps("QS"))
    assert texts(events)[-1] == "Player 1 reveals J♥ (red); Player 2 reveals Q♠ (black)."
    state, events = both(state, card("7H"), card("6D"))
    assert texts(events)[2:] == [
        "Player 1 plays 7♥; Player 2 plays 6♦.",
        "Player 1's Numbered card: 7♥ (red 7).",
        "Player 2's Numbered card: 6♦ (red 6).",
        "Player 1 adds J♥ (red, matching 7♥): 7 → 8.",
        "Player 2's Q♠ (black) does not match her 6♦: a Naughty Little Cheat! Player 1 applies it for her best "
        "result: Player 1's 8 → 9, Player 2's 6 → 5.",
        "Same colour: the highest wins (9 against 5).",
        "Player 1 wins by 4: 2 points (4 halved, rounded up).",
        "Player 2 is hit by the attack for 2 damage.",
    ]
    last = view(state, None)["last"]
    assert (last["winner"], last["diff"], last["points"], last["damage"]) == (0, 4, 2, [0, 2])
    assert [s["value"] for s in last["sides"]] == [9, 5]
    assert view(state, 1)["phase"] == "damage" and GAME.timer(state) == (1, 30)
    state, events = decide(state, 1, {"kind": "damage", "from": "live"})
    state, events = decide(state, 1, {"kind": "damage", "from": "live"})
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (1, 3)
    assert "The combat is over: the cards left in the combat hands (2 and 2) go to the Spoils Heap face down." in texts(events)
    seen = view(state, None)
    assert state.spoils == ["KH", "2C", "JH", "7H", "QS", "6D"] and len(state.spoils_down) == 4
    assert seen["spoils"] == 10 and seen["spoils_top"] is None and seen["turn"] == 1 and seen["phase"] == "action"


def test_both_fairies_cheating() -> None:
    """Both add; P1's Q♣ sits under her 7♥, P2's K♦ under her 5♠ (different colours: the lowest wins).

    P2 applies P1's cheat: her own 5 → 4 and P1's 7 → 8. P1 applies P2's: her own 8 → 7, P2's 4 → 5.
    7 against 5: P2 wins by 2, 1 point: a bonus card for her attack back this round.
    """
    deck = ["AH", "3C", "QC", "7H", "2S", "10S", "KD", "5S", "9H", "8D", "4H", "4S", "6C", "6H", "3D", "3H"]
    state = start(deck)
    state, _ = act(state, 0, "attack")
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, trumps("QC"), trumps("KD"))
    state, events = both(state, card("7H"), card("5S"))
    assert texts(events)[5:10] == [
        "Player 1's Q♣ (black) does not match her 7♥: a Naughty Little Cheat! Player 2 applies it for her best "
        "result: Player 2's 5 → 4, Player 1's 7 → 8.",
        "Player 2's K♦ (red) does not match her 5♠: a Naughty Little Cheat! Player 1 applies it for her best "
        "result: Player 1's 8 → 7, Player 2's 4 → 5.",
        "Different colours: the lowest wins (7 against 5).",
        "Player 2 wins by 2: 1 point (2 halved, rounded up).",
        "Player 2 gains 1 bonus card for her attack back this round (1 in all).",
    ]
    assert fairy(state, 1)["bonus"] == 1
    state, events = act(state, 1, "attack")
    assert "Player 2 draws a combat hand of 5 cards (Kill 3 + for attacking 1 + bonus 1)." in texts(events)
    assert "Player 1 draws a combat hand of 3 cards (Live 3)." in texts(events)
    assert fairy(state, 1)["bonus"] == 0


def test_a_wild_trump_draw_and_a_face_down_reveal() -> None:
    """P1 (a scenario hand size of 2) holds only J♠ and Q♦: she must play a Trump as a Wild Trump.

    P1 says None, so P2's K♠ stays face down. P1's J♠ goes wild; the server draws A♥ (a Trump: wild
    too) then 9♣: her Numbered card. J♠ matches (9 → 10); A♥ is a cheat that P2 applies. P2 reveals
    her K♠ (matching her 8♠, +1): 9, then the cheat moves her up and P1 down: 9 against 10.
    """
    deck = ["KH", "2C", "JS", "QD", "8S", "KS", "3H", "4D", "AH", "9C", "2D", "2H"]
    state = start(deck, [{"hand_size": 2}, {}])
    state, events = act(state, 0, "attack")
    assert "Player 1 draws a combat hand of 2 cards (scenario hand size 2)." in texts(events)
    assert [c["code"] for c in view(state, 0)["hand"]] == ["JS", "QD"]
    assert [c["code"] for c in view(state, 1)["hand"]] == ["3H", "4D", "8S", "KS"]
    state, _ = both(state, ADD, ADD)
    state, events = both(state, NONE, trumps("KS"))
    assert texts(events, None)[-1] == ("Player 1 says None, so Player 2's 1 Trump stays face down (she may reveal and "
                                       "use them once the Numbered cards are shown).")
    assert "K♠" not in told(events, None) and "K♠" not in told(events, 0) and "K♠" in told(events, 1)
    assert view(state, 0)["combat"]["sides"][1]["face_down"] == 1
    assert "KS" not in str(view(state, 0)) and "KS" not in str(view(state, None))
    assert [c["code"] for c in view(state, 1)["my_face_down"]] == ["KS"]
    legal = GAME.legal(state, 0)
    assert [d["kind"] for d in legal] == ["wild", "wild", "no_card"]
    state, events = both(state, {"kind": "wild", "card": "JS"}, card("8S"))
    assert texts(events)[2:] == [
        "Player 1 has no Numbered card and plays J♠ as a Wild Trump; Player 2 plays 8♠.",
        "For J♠ played as a Wild Trump, the server draws for Player 1 from the Fairy Deck until a Numbered card: "
        "A♥ (a Trump: a Wild Trump too), 9♣ (her Numbered card).",
    ]
    assert view(state, None)["phase"] == "reveal" and GAME.timer(state) == (1, 30)
    labels = [d["label"] for d in GAME.legal(state, 1)]
    assert labels == ["Reveal and apply your Trumps: 10 against 9, you win by 1 (1 point)",
                      "Keep your Trumps face down: 9 against 9, a draw"]
    state, events = decide(state, 1, {"kind": "reveal_trumps", "reveal": True})
    assert texts(events)[:8] == [
        "Player 2 reveals her face-down Trumps: K♠ (black).",
        "Player 1's Numbered card: 9♣ (black 9).",
        "Player 2's Numbered card: 8♠ (black 8).",
        "Player 1 adds J♠ (wild) (black, matching 9♣): 9 → 10.",
        "Player 2 adds K♠ (black, matching 8♠): 8 → 9.",
        "Player 1's A♥ (wild) (red) does not match her 9♣: a Naughty Little Cheat! Player 2 applies it for her best "
        "result: Player 2's 9 → 10, Player 1's 10 → 9.",
        "Same colour: the highest wins (9 against 10).",
        "Player 2 wins by 1: 1 point (1 halved, rounded up).",
    ]


def test_a_nasty_hit() -> None:
    """P1 (Moon Dagger) wins by 10 with 10♥ + 2 red Trumps against 2♦: 5 points, a Nasty Hit.

    The server draws Q♠ (black Trump: +1) and 6♣: 6 + 2 (damage over 3) + 1 = 9: Bleeder. P2 takes 5
    (forced once Live is gone) and bleeds at the start of her turns for every Trump Order card.
    """
    deck = ["KH", "2C", "10H", "JD", "QH", "3S", "4S", "2D", "5C", "5S", "7C", "QS", "6C", "AD", "9S"]
    state = start(deck, [{"weapon": "moon_dagger"}, {}])
    state, _ = act(state, 0, "attack")
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, trumps("JD", "QH"), NONE)
    state, _ = both(state, card("10H"), card("2D"))
    state, events = decide(state, 0, {"kind": "reveal_trumps", "reveal": True})
    said = texts(events)
    assert "Player 1 wins by 10: 5 points (10 halved, rounded up)." in said
    assert said[-1] == ("Nasty Hit on Player 2 (5 damage in one blow): the server draws Q♠ 6♣: 6♣ 6 + 2 (damage over 3) "
                        "+ 1 (black Trump) = 9: Bleeder: 1 damage at the start of her turn for every Trump she draws "
                        "as an Order card.")
    for _ in range(3):
        state, events = decide(state, 1, {"kind": "damage", "from": "live"})
    assert "Player 2 takes 2 damage from Kill, the only points she has left: Live 0, Kill 1." in texts(events)
    assert "Player 2 suffers Bleeder (1 in all)." in texts(events)
    assert fairy(state, 1)["conditions"] == ["bleeder"]
    # P2's turn, same round: her Order card 2♣ is no Trump, so she does not bleed
    assert view(state, None)["turn"] == 1 and not events_of(events, "bleed")


def test_a_wrestle_draw_hurts_both() -> None:
    """Wrestling uses Kill points for both (P2 Posed: +1); 7♥ against 7♦: a draw, both take 1."""
    deck = ["KH", "2C", "7H", "3C", "4C", "8S", "7D", "9S", "10S", "5C", "6C"]
    state = start(deck, [{"live": 4, "kill": 2}, {"live": 2, "kill": 3}])
    state, events = act(state, 0, "wrestle")
    assert texts(events)[:3] == [
        "Player 1 wrestles Player 2.",
        "Player 1 draws a combat hand of 3 cards (Kill 2 + for attacking 1).",
        "Player 2 draws a combat hand of 4 cards (Kill 3 + Posed: not yet acted 1).",
    ]
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, card("7H"), card("7D"))
    said = texts(events)
    assert "Same colour: the highest wins (7 against 7)." in said
    assert "A draw in a wrestle: both fairies take 1 damage." in said
    state, _ = decide(state, 0, {"kind": "damage", "from": "kill"})
    state, _ = decide(state, 1, {"kind": "damage", "from": "live"})
    assert (fairy(state, 0)["live"], fairy(state, 0)["kill"]) == (4, 1)
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (1, 3)


def test_a_fluttering_defender_draws_a_card_less() -> None:
    """P2 defends with a Flutter penalty of 1: Live 3 + Posed 1 - Flutter 1 = 3 cards against P1's 4.

    Both say None; 9♠ against 4♣ (both black: the highest wins): P1 wins by 5, 3 points, and with
    Nasty Hits off P2 takes the 3 damage point by point.
    """
    deck = ["KH", "2C", "9S", "2H", "3H", "4H", "4C", "5D", "6D"]
    state = start(deck, [{}, {"flutter_penalty": 1}], nasty_hits=False)
    state, events = act(state, 0, "attack")
    assert "Player 2 draws a combat hand of 3 cards (Live 3 + Posed: not yet acted 1 - Flutter penalty 1)." in texts(events)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, card("9S"), card("4C"))
    assert "Player 1 wins by 5: 3 points (5 halved, rounded up)." in texts(events)
    for _ in range(3):
        state, _ = decide(state, 1, {"kind": "damage", "from": "kill"})
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (3, 0)
