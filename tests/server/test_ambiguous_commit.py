"""A commit whose reply is lost: the decision was stored, so it is acknowledged, and the room serves on."""
from __future__ import annotations

from typing import Any

import pytest

from client import Client, ClientError
from protocol import decode_any
from server.store.store import Store
from tests.server.redis_proxy import ReplyDropper


def safe(view: dict[str, Any]) -> dict[str, Any]:
    """A legal decision that does not lose the game at once."""
    return dict(next(d for d in view["legal"] if not d.get("loses")))


async def test_a_lost_commit_reply_does_not_wedge_the_room(proxied: tuple[str, ReplyDropper], redis_url: str) -> None:
    url, proxy = proxied
    async with await Client.connect(url) as player:
        seat = await player.create("queens_challenge", seed=8)
        assert not isinstance(seat, str)
        await player.decide(seat, safe(player.views[seat.room]))  # the commit script is loaded by now
        before = player.views[seat.room]["version"]
        proxy.arm(b"EVALSHA")
        reply = await player.decide(seat, safe(player.views[seat.room]))
        assert proxy.dropped == 1
        assert reply["version"] == before + 1  # acknowledged: it was stored
        for _ in range(3):  # and the room goes on
            await player.decide(seat, safe(player.views[seat.room]))
        store = Store(redis_url)
        try:
            log = await store.log(seat.room)
        finally:
            await store.close()
        assert [r["v"] for r in log] == list(range(1, before + 5))  # each stored once, none lost
        assert player.views[seat.room]["version"] == before + 4


async def test_a_retried_decision_that_was_stored_is_acknowledged(proxied: tuple[str, ReplyDropper],
                                                                   redis_url: str) -> None:
    """Redis is unreachable right after running the commit: the client hears `outcome_unknown` (never "not
    stored": it was); its retry, once Redis is back, is acknowledged (the room resyncs from Redis) and the decision
    is in the log once. The views the resync sends are whole, even to a client that asked for deltas."""
    url, proxy = proxied
    async with await Client.connect(url, record_frames=True) as player:
        seat = await player.create("queens_challenge", seed=8)
        assert not isinstance(seat, str)
        await player.decide(seat, safe(player.views[seat.room]))
        view = player.views[seat.room]
        decision, version = safe(view), view["version"]
        proxy.arm(b"EVALSHA", then_down=True)
        with pytest.raises(ClientError) as failed:
            await player.decide(seat, decision, version)
        assert failed.value.code == "outcome_unknown"
        with pytest.raises(ClientError) as still:  # fails fast while Redis is away; nothing changes
            await player.decide(seat, decision, version)
        assert still.value.code == "unavailable"
        proxy.down = False
        sent = len(player.frames)
        reply = await player.decide(seat, decision, version)
        assert reply["version"] == version + 1
        resynced = next(m for m in map(decode_any, player.frames[sent:]) if m["t"] == "view")
        assert resynced["version"] == version + 1 and "view" in resynced and "delta" not in resynced
        await player.decide(seat, safe(player.views[seat.room]))  # and the room goes on
    store = Store(redis_url)
    try:
        log = await store.log(seat.room)
    finally:
        await store.close()
    assert [r["v"] for r in log] == list(range(1, version + 3))
    assert log[version]["d"] == {k: v for k, v in decision.items() if k not in ("label", "loses")}
