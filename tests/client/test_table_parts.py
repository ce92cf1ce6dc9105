"""The pure parts of the two-player tables: clocks counted down, chat lines as plain text, the end's words and seed check."""
from __future__ import annotations

from client.chat import chat_line
from client.clock import Clocks, SeatClock, clock_setting, clock_short, clock_text, clocks_of, fmt_seconds
from client.screens.end import Ending, EndScreen, commitment_of, result_line, seed_check
from client.screens.lobby import room_row


def test_a_running_clock_spends_its_move_time_then_its_bank() -> None:
    seat = SeatClock(left=5.0, bank=60.0)
    assert seat.at(2.0) == (3.0, 60.0)
    assert seat.at(8.0) == (0.0, 57.0)
    assert seat.at(100.0) == (0.0, 0.0)
    assert SeatClock(None, 42.0).at(30.0) == (None, 42.0), "a stopped clock does not move"


def test_clocks_are_read_from_either_shape() -> None:
    numbered = clocks_of({"0": {"left": 30, "bank": 60}, "1": {"left": None, "bank": 50.5}, "limits": {"move": 30}}, at=100.0)
    listed = clocks_of({"seats": [{"left": 30, "bank": 60}, {"left": None, "bank": 50.5}], "limits": {"move": 30}}, at=100.0)
    assert numbered == listed == Clocks((SeatClock(30.0, 60.0), SeatClock(None, 50.5)), {"move": 30}, 100.0)
    assert clocks_of(None) is None and clocks_of({}) is None
    untimed = clocks_of({"0": {"left": None, "bank": 0}, "1": {"left": None, "bank": 0},
                         "limits": {"move": 0, "bank": 0, "increment": 0}})
    assert untimed is not None and not untimed.timed()


def test_the_clock_line_counts_down_between_views() -> None:
    clocks = Clocks((SeatClock(30.0, 60.0), SeatClock(None, 45.0)), {"move": 30, "bank": 60}, at=1000.0)
    assert clock_text(clocks, ("You", "bob"), now=1000.0).plain == "⏱ ▶ You 0:30 + bank 1:00  ·  bob bank 0:45"
    assert clock_text(clocks, ("You", "bob"), now=1012.5).plain == "⏱ ▶ You 0:18 + bank 1:00  ·  bob bank 0:45"
    assert clock_text(clocks, ("You", "bob"), now=1040.0).plain == "⏱ ▶ You 0:00 + bank 0:50  ·  bob bank 0:45"
    assert fmt_seconds(0.2) == "0:01" and fmt_seconds(0) == "0:00" and fmt_seconds(125) == "2:05"


def test_a_chat_line_is_plain_text_never_markup() -> None:
    line = chat_line("[red]eve", None, "[bold]hi[/bold] :smile:", 0)
    assert line.plain == "--:-- [red]eve (spectator): [bold]hi[/bold] :smile:"
    assert chat_line("ada", 0, "gg", 0, own=0).plain.endswith("ada (you): gg")
    assert chat_line("bob", 1, "gg", 0, own=0).plain.endswith("bob (Player 2): gg")


def ending(**changes: object) -> Ending:
    base: dict[str, object] = {
        "room": "r1", "game": "creature_wars", "outcome": {"winner": 1, "reason": "knockout", "scores": [0, 7], "detail": ""},
        "names": ("ada", "bob"), "seat": 0, "seed": 12345678901234567890, "commitment": "",
        "published": commitment_of("r1", 12345678901234567890)}
    base.update(changes)
    return Ending(**base)  # type: ignore[arg-type]


def test_the_result_says_who_and_why() -> None:
    assert result_line(ending()).plain == "You lose — knockout"
    assert result_line(ending(seat=1)).plain == "You win — knockout"
    assert result_line(ending(seat=None)).plain == "bob wins — knockout"
    resigned = {"winner": 1, "reason": "resigned", "scores": [], "detail": ""}
    assert result_line(ending(outcome=resigned)).plain == "You lose — you resigned"
    assert result_line(ending(outcome=resigned, seat=None)).plain == "bob wins — ada resigned"
    forfeit = {"winner": 0, "reason": "forfeit", "scores": [], "detail": ""}
    assert result_line(ending(outcome=forfeit)).plain.startswith("You win — bob lost by forfeit")
    aborted = {"winner": None, "reason": "aborted", "scores": [], "detail": ""}
    assert result_line(ending(outcome=aborted)).plain.startswith("Aborted — aborted by both players")


def test_the_seed_is_checked_against_the_commitment_first_published() -> None:
    text, ok = seed_check(ending())
    assert ok is True and "✓ matches the commitment published when the room was made" in text.plain
    # a server that reveals another seed with a freshly computed commitment is caught by the published one
    other = 42
    text, ok = seed_check(ending(seed=other, commitment=commitment_of("r1", other)))
    assert ok is False and "does NOT match" in text.plain
    assert seed_check(ending(seed=None))[1] is None


def test_the_lobby_says_each_rooms_clock() -> None:
    assert clock_setting({"move": 30, "bank": 60, "increment": 0}) == "30s + 1:00 bank"
    assert clock_setting({"move": 0, "bank": 300, "increment": 5}) == "5:00 bank +5s"
    assert clock_setting({"move": 20, "bank": 120, "increment": 2}) == "20s + 2:00 bank +2s"
    assert clock_setting(None) == "" and clock_setting({"move": 0, "bank": 0, "increment": 0}) == ""
    summary = {"room": "r", "game": "creature_wars", "title": "Creature Wars", "seats": 2, "taken": 1,
               "status": "waiting", "players": ["ada", ""], "clock": {"move": 30, "bank": 60, "increment": 0}}
    assert room_row(summary, held=False)[-1].plain == "waiting · ⏱30s+1:00"
    assert clock_short({"move": 20, "bank": 120, "increment": 2}) == "20s+2:00+2s" and clock_short(None) == ""
    assert room_row({**summary, "clock": None}, held=False)[-1].plain == "waiting"


def test_the_end_screen_says_who_asked_for_a_rematch() -> None:
    screen = EndScreen(ending())
    assert screen.rematch_text().plain == "Press r to ask for a rematch (seats swapped, same clock)."
    screen.offers = frozenset({0})
    assert screen.rematch_text().plain == "You asked for a rematch; waiting for bob."
    screen.offers = frozenset({1})
    assert screen.rematch_text().plain.startswith("bob asks for a rematch: press r to accept")
    watcher = EndScreen(ending(seat=None))
    watcher.offers = frozenset({1})
    assert watcher.rematch_text().plain == "bob asks for a rematch."
