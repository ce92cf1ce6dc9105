"""Logs carry room, seat and request id, as JSON lines off a terminal; never a seat token or a hidden card."""
from __future__ import annotations

import json
import logging

import pytest

from client import Client
from server.ops.logs import JsonFormatter
from tests.server.helpers import play_to_end, replay


async def test_no_log_line_of_a_match_holds_a_token_or_a_hidden_card(
        server_url: str, redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b:
        options = {"witches": 10}
        sa = await a.create("creature_wars", options, seed=21)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=4)
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    parsed = [json.loads(line) for line in lines]
    mine = [p for p in parsed if p.get("room") == sa.room]
    assert any(p["msg"] == "decision stored" and "seat" in p and "version" in p for p in mine)
    assert {p["seat"] for p in mine if p["msg"] == "seat granted"} == {0, 1}
    text = "\n".join(lines)
    assert sa.token not in text and sb.token not in text
    states = await replay(redis_url, sa.room, options, 21)
    hidden = {c.notation() for state in states.values() for hand in state.hands for c in hand}
    hidden |= {c.notation() for state in states.values() for c in state.deck}
    assert hidden, "the replay found no cards to look for"
    assert not [card for card in hidden if card in text]
