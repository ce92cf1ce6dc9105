"""The test helpers' own promises: a turn played by ``play_turn`` leaves every player at the newest version."""
from __future__ import annotations

import asyncio
import random
from typing import Any

from client.connection import Client, Seat
from tests.server.helpers import play_turn


async def test_play_turn_returns_with_every_player_at_the_newest_version(server_url: str) -> None:
    """The first seat's reading is held up after its own decision, so the push of the second seat's decision
    reaches it late: ``play_turn`` waits for it rather than leave the first seat a version behind (which made a
    test that read views right after it depend on how fast the pushes came)."""
    a, b = await Client.connect(server_url), await Client.connect(server_url)
    try:
        sa = await a.create("creature_wars", seed=21)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        await a.wait_view(sa.room, lambda v: bool(v["legal"]))
        await b.wait_view(sb.room, lambda v: bool(v["legal"]))
        decide = a.decide

        async def decide_then_stall(seat: Seat, decision: dict[str, Any]) -> Any:
            answer = await decide(seat, decision)
            transport = a.ws.transport
            transport.pause_reading()
            asyncio.get_running_loop().call_later(0.3, transport.resume_reading)
            return answer

        a.decide = decide_then_stall  # type: ignore[method-assign]
        before = a.versions[sa.room]
        assert await play_turn([(a, sa), (b, sb)], random.Random(1))
        assert b.versions[sb.room] == before + 2  # both seats locked in: the duel resolved
        assert a.versions[sa.room] == b.versions[sb.room]
    finally:
        await a.close()
        await b.close()
