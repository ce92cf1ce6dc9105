"""bench.instructions counts what a decision costs under callgrind: a room's own work, a whole server's under
bench.load, and bench.load's client's (slow: the programs run some fifty times slower under valgrind)."""
from __future__ import annotations

import pytest

from bench import instructions
from tests import debian

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def valgrind() -> None:
    if not debian.install("valgrind", "valgrind", "callgrind_control"):
        pytest.fail("bench.instructions needs Debian's valgrind package: run `apt-get install valgrind` as root")


def test_a_room_decision_is_counted_without_the_process_start() -> None:
    each, made = instructions.room(2)
    # a decision of bench.room runs the engine, the views and their deltas: hundreds of thousands of instructions,
    # where the process's start (the imports, which the two runs share) is some two thousand million
    assert made > 100 and 100_000 < each < 5_000_000


def test_a_server_is_counted_from_after_its_warm_up_to_the_dump() -> None:
    each, made = instructions.server(100)
    # counted from the start, the imports (some two thousand million) would give over 5 million per decision
    assert made >= 100 and 200_000 < each < 5_000_000


def test_a_match_made_joined_ended_and_left_is_counted_from_after_the_warm_up() -> None:
    each, made = instructions.lifecycle(2)
    # a match's making deals it, stores it and seats two players: millions of instructions, where counting the
    # imports too would give some hundred million a match
    assert made == 2 * instructions.PAIRS and 1_000_000 < each < 50_000_000


def test_the_client_is_counted_without_its_start_and_connections() -> None:
    each, made = instructions.client(100)
    # a client's decision decodes two frames and applies their deltas: a few hundred thousand instructions, where its
    # start (the imports, 80 connections) would add some ten million a decision to a run of a hundred
    assert made >= 400 and 100_000 < each < 2_000_000
