"""Swiss pairing and standings (server/lobby/swiss.py): score groups, no rematch when one can be avoided (by
backtracking past the greedy choice), the bye to the lowest-ranked player without one, the usual tie-breaks."""
from __future__ import annotations

import random
import time
from fractions import Fraction

from server.lobby.swiss import FLOOR, Result, pair_round, standings


def met_of(*pairs: tuple[str, str]) -> dict[str, frozenset[str]]:
    met: dict[str, set[str]] = {}
    for a, b in pairs:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return {p: frozenset(o) for p, o in met.items()}


def win(r: int, a: str, b: str) -> Result:
    return Result(r, (a, b), (Fraction(1), Fraction(0)), (Fraction(1), Fraction(0)), 1)


def draw(r: int, a: str, b: str) -> Result:
    half = Fraction(1, 2)
    return Result(r, (a, b), (half, half), (half, half), 1)


def bye(r: int, a: str) -> Result:
    return Result(r, (a, ""), (Fraction(1), Fraction(0)), (Fraction(1), Fraction(0)), 1)


def test_players_of_equal_score_meet_in_rank_order() -> None:
    plan = pair_round(["a", "b", "c", "d", "e", "f"], {})
    assert plan.tables == (("a", "b"), ("c", "d"), ("e", "f")) and plan.bye is None and plan.rematches == 0


def test_a_rematch_is_avoided_by_taking_the_next_nearest() -> None:
    plan = pair_round(["a", "b", "c", "d"], met_of(("a", "b")))
    assert plan.tables == (("a", "c"), ("b", "d")) and plan.rematches == 0


def test_backtracking_undoes_a_greedy_choice_that_would_force_a_rematch_below() -> None:
    # greedy: a-b, then c-d have met -> must backtrack to a-c, b-d
    plan = pair_round(["a", "b", "c", "d"], met_of(("c", "d")))
    assert plan.rematches == 0
    assert {frozenset(t) for t in plan.tables} == {frozenset("ac"), frozenset("bd")}
    # deeper: the last two of six have met, and so have the pairs the first fallback would make
    met = met_of(("e", "f"), ("c", "e"), ("d", "f"))
    plan = pair_round(list("abcdef"), met)
    assert plan.rematches == 0
    assert all(b not in met.get(a, frozenset()) for a, b in plan.tables)
    assert sorted(p for t in plan.tables for p in t) == list("abcdef")


def test_a_rematch_only_when_none_can_be_avoided() -> None:
    plan = pair_round(["a", "b"], met_of(("a", "b")))
    assert plan.tables == (("a", "b"),) and plan.rematches == 1


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    assert pair_round(["a", "b", "c"], {}).bye == "c"
    assert pair_round(["a", "b", "c"], {}, frozenset({"c"})).bye == "b"
    assert pair_round(["a", "b", "c"], {}, frozenset({"a", "b", "c"})).bye == "c"
    # c has had no bye but a and b have met: the bye moves up so that nobody meets again
    plan = pair_round(["a", "b", "c"], met_of(("a", "b")))
    assert plan.bye in ("a", "b") and plan.rematches == 0


def test_standings_count_match_points_then_opponents_then_games() -> None:
    players = ["a", "b", "c", "d"]
    results = [win(1, "a", "b"), draw(1, "c", "d"), win(2, "a", "c"), win(2, "b", "d")]
    table = {s.player: s for s in standings(players, results)}
    assert [s.player for s in standings(players, results)] == ["a", "b", "c", "d"]
    assert table["a"].points == 2 and table["b"].points == 1 and table["c"].points == Fraction(1, 2)
    # b's opponents: a (2/2 = 1) and d (0.5/2 = 1/4 -> floored to 1/3)
    assert table["b"].omw == (1 + FLOOR) / 2
    # c: opponents d (floored 1/3) and a (1)
    assert table["c"].omw == (FLOOR + 1) / 2
    assert table["d"].gw == FLOOR  # 0.5 of 2 games, floored


def test_a_bye_is_a_win_but_no_opponent() -> None:
    table = {s.player: s for s in standings(["a", "b", "c"], [win(1, "a", "b"), bye(1, "c")])}
    assert table["c"].points == 1 and table["c"].byes == 1 and table["c"].omw == 0
    assert table["a"].omw == FLOOR  # b lost its one match: 0, floored


def test_tie_breaks_order_equal_points() -> None:
    # a and c both have 1 point; a beat b (who then won), c beat d (who then lost): a's opponents did better
    results = [win(1, "a", "b"), win(1, "c", "d"), win(2, "b", "d"), win(2, "e", "a"), win(2, "f", "c"),
               win(1, "e", "f")]
    order = [s.player for s in standings(["c", "a", "b", "d", "e", "f"], results)]
    assert order.index("a") < order.index("c")


def test_a_thousand_player_round_pairs_without_rematch_quickly() -> None:
    rng = random.Random(3)
    players = [f"p{i}" for i in range(1000)]
    met: dict[str, set[str]] = {}
    for _ in range(5):  # five earlier rounds of random pairings
        rng.shuffle(players)
        for a, b in zip(players[::2], players[1::2], strict=True):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    started = time.perf_counter()
    plan = pair_round(players, {p: frozenset(o) for p, o in met.items()})
    assert time.perf_counter() - started < 2.0
    assert plan.rematches == 0 and len(plan.tables) == 500
    assert all(b not in met[a] for a, b in plan.tables)


def test_a_tables_result_counts_fairy_meat_duels_as_games_and_an_abort_as_a_draw() -> None:
    from server.lobby.events import result_of

    duels = result_of("fairy_meat", {"winner": 1, "reason": "knockout", "scores": [1, 2]})
    assert duels["points"] == [0.0, 1.0] and duels["games"] == [1.0, 2.0] and duels["played"] == 3
    resigned = result_of("fairy_meat", {"winner": 0, "reason": "resigned", "scores": []})
    assert resigned["games"] == [1.0, 0.0] and resigned["played"] == 1
    hp = result_of("creature_wars", {"winner": 0, "reason": "knockout", "scores": [3, -1]})
    assert hp["games"] == [1.0, 0.0] and hp["played"] == 1  # Creature Wars' scores are HP, not games
    aborted = result_of("creature_wars", {"winner": None, "reason": "aborted", "scores": []})
    assert aborted["points"] == [0.5, 0.5] and aborted["winner"] is None
