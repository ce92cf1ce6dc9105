"""The per-connection rate limit counts what a connection makes the server do for nothing: a decision the server
stores gives its token back (the game's pace bounds those), on the node that greeted the client too when another
node's room stored it; refused decisions and every other message are counted."""
from __future__ import annotations

import pytest

import client.connection
import server.edge.session
from client import Client, ClientError
from client.connection import Seat
from tests.server.nodes import Start, resume_on

RATE, BURST = 2.0, 4.0
DECISIONS = 12
"""Three times the burst: far more than a connection counted for each could send in the second they take."""


@pytest.fixture
def no_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message the server drops for its rate raises at once (the client library would send it again later)."""
    monkeypatch.setattr(client.connection, "LIMITED_BACKOFF", ())


@pytest.fixture
def slow_rate(monkeypatch: pytest.MonkeyPatch, no_retries: None) -> None:
    monkeypatch.setattr(server.edge.session, "RATE", RATE)
    monkeypatch.setattr(server.edge.session, "BURST", BURST)


async def _play(c: Client, seat: Seat, decisions: int) -> int:
    """Decide the first legal play ``decisions`` times in a row, as fast as replies come; how many were made."""
    made = 0
    await c.wait_view(seat.room, lambda _: True)  # the seat's view follows its grant (through the relay, later)
    while made < decisions:
        view = c.views[seat.room]
        if view["outcome"] is not None or not view["legal"]:
            break
        await c.decide(seat, view["legal"][0])
        made += 1
    return made


async def test_decisions_the_server_stores_are_not_counted(slow_rate: None, server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        seat = await c.create("queens_challenge", seed=3)
        assert isinstance(seat, Seat)
        assert await _play(c, seat, DECISIONS) == DECISIONS


async def test_refused_decisions_are_counted(slow_rate: None, server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        seat = await c.create("queens_challenge", seed=3)
        assert isinstance(seat, Seat)
        codes = []
        for _ in range(DECISIONS):  # a version from the future: refused, nothing stored
            with pytest.raises(ClientError) as caught:
                await c.decide(seat, c.views[seat.room]["legal"][0], version=1_000)
            codes.append(caught.value.code)
        # the burst's tokens left after hello and create answer first (and one more for each half second taken)
        assert codes[0] == "stale_version" and "rate_limited" in codes, codes


async def test_a_relayed_decision_stored_by_the_owner_is_not_counted_where_the_client_came_in(
        node: Start, no_retries: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_MESSAGES_PER_SECOND", str(RATE))
    _, url_a = await node("A")
    _, url_b = await node("B")
    async with await Client.connect(url_a) as host:
        seat = await host.create("queens_challenge", seed=3)
        assert isinstance(seat, Seat)
    player, resumed = await resume_on(url_b, seat)  # node B relays the seat's requests to node A, which owns the room
    async with player:
        assert player.node == "B"
        assert await _play(player, resumed, DECISIONS) == DECISIONS
