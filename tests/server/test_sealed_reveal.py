"""Fairy Meat's sealed Numbered cards: in either order or at the same instant, both players get one identical reveal."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from client import Client
from client.connection import Seat
from tests.server.helpers import received


async def drive_until_both(players: list[tuple[Client, Seat]], kind: str, rng: random.Random) -> int:
    """Random legal play until both seats may take a ``kind`` decision; returns that version."""
    for _ in range(300):
        views = [c.views[s.room] for c, s in players]
        if views[0]["version"] == views[1]["version"] and all(any(d["kind"] == kind for d in v["legal"]) for v in views):
            version: int = views[0]["version"]
            return version
        assert views[0]["outcome"] is None, "the duel ended before the sealed step came up"
        for client, seat in players:
            view = client.views[seat.room]
            if view["legal"]:
                await client.decide(seat, rng.choice(view["legal"]))
                break
        else:
            await asyncio.sleep(0.01)
    raise AssertionError(f"no sealed {kind!r} step came up")


def views_at(client: Client, version: int) -> list[dict[str, Any]]:
    return [m for m in received(client.frames) if m.get("t") == "view" and m["version"] == version]


@pytest.mark.parametrize("order", ["first_then_second", "second_then_first", "same_instant"])
async def test_both_lock_in_and_both_get_one_identical_reveal(server_url: str, order: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("fairy_meat", {}, seed=7)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await a.wait_view(sa.room, lambda v: v["version"] == b.versions[sb.room])
        players = [(a, sa), (b, sb)]
        version = await drive_until_both(players, "numbered", random.Random(1))
        await a.wait_view(sa.room, lambda v: v["version"] == version)
        picks = [next(d for d in c.views[s.room]["legal"] if d["kind"] == "numbered") for c, s in players]
        if order == "same_instant":
            await asyncio.gather(a.decide(sa, picks[0], version=version), b.decide(sb, picks[1], version=version))
        else:
            sequence = [0, 1] if order == "first_then_second" else [1, 0]
            for i in sequence:
                client, seat = players[i]
                await client.decide(seat, picks[i], version=version)
        final = version + 2
        for client, seat in players:
            await client.wait_view(seat.room, lambda v: v["version"] >= final)
        # the first lock-in told the other seat only that a choice was made
        first_seat = 1 if order == "second_then_first" else 0
        waiting_client = players[1 - first_seat][0]
        middle = views_at(waiting_client, version + 1)
        assert middle and picks[first_seat]["card"] not in str(middle)
        # one message each carries the reveal, identical for both
        reveals = []
        for client, _ in players:
            messages = views_at(client, final)
            assert len(messages) == 1
            events = [e for e in messages[0]["events"] if e["kind"] == "numbered"]
            assert len(events) == 1
            reveals.append((events[0], messages[0]["view"]["last"]))
        assert reveals[0] == reveals[1]
        assert picks[0]["card"] in str(reveals[0][0]) and picks[1]["card"] in str(reveals[0][0])
    finally:
        await a.close()
        await b.close()
