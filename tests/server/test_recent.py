"""The view after create_room/join/resume/spectate answers its request (``re``) and carries the room's recent events."""
from __future__ import annotations

import random
from typing import Any

from client import Client
from server.rooms.history import RECENT
from tests.server.helpers import play_turn
from tests.server.servers import serving


async def _entry_view(client: Client, re: int) -> dict[str, Any]:
    """The one view that answers request ``re``."""
    await client.wait_message(lambda m: m["t"] == "view" and m["re"] == re)
    views = [m for m in client.received() if m["t"] == "view" and m["re"] == re]
    assert len(views) == 1, views
    return views[0]


def _events_seen(client: Client, room: str) -> list[dict[str, Any]]:
    """Every event ``client`` was told of in the room, in order."""
    return [e for m in client.received() if m["t"] == "view" and m["room"] == room for e in m["events"]]


async def test_the_entry_view_answers_its_request(server_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    w = await Client.connect(server_url, record_frames=True)
    a2 = await Client.connect(server_url, record_frames=True)
    try:
        created = await a.request("create_room", game="creature_wars", seed=8)
        room = created["room"]
        token = (await a.wait_message(lambda m: m["t"] == "seat_granted"))["token"]
        assert (await _entry_view(a, created["re"]))["recent"] == []
        joined = await b.request("join", room=room)
        assert (await _entry_view(b, joined["re"]))["room"] == room
        watching = await w.request("spectate", room=room)
        assert (await _entry_view(w, watching["re"]))["view"]["hands"]
        resumed = await a2.request("resume", room=room, token=token)
        assert (await _entry_view(a2, resumed["re"]))["version"] == 0
        # the views pushed to others in the meantime answer nothing
        assert all(m["re"] is None for m in b.received() + w.received()
                   if m["t"] == "view" and m["re"] not in (joined["re"], watching["re"]))
    finally:
        for c in (a, b, w, a2):
            await c.close()


async def test_recent_events_on_resume_and_spectate_also_after_a_restart(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    w = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", seed=12)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await w.spectate(sa.room)
        rng = random.Random(4)
        turns = 0
        while len(_events_seen(w, sa.room)) <= RECENT + 10 and turns < 300:
            if not await play_turn([(a, sa), (b, sb)], rng):
                break
            turns += 1
        version = a.versions[sa.room]
        await w.wait_view(sa.room, lambda v: v["version"] == version)
        await b.wait_view(sa.room, lambda v: v["version"] == version)
        expected = {0: _events_seen(a, sa.room)[-RECENT:], 1: _events_seen(b, sa.room)[-RECENT:],
                    None: _events_seen(w, sa.room)[-RECENT:]}
        assert len(expected[None]) > 0
        assert expected[0] != expected[None]  # each seat's copy differs (its own draws)
        # on this server (events kept in memory) and on another node that took the room over once this one's
        # lease lapsed (rebuilt from the log)
        for url in (server_url, None):
            async with serving(redis_url) if url is None else _same(server_url) as target:
                for seat in (0, 1, None):
                    async with await Client.connect(target, record_frames=True) as late:
                        if seat is None:
                            reply = await late.request("spectate", room=sa.room)
                        else:
                            reply = await late.request("resume", room=sa.room, token=(sa, sb)[seat].token)
                        view = await _entry_view(late, reply["re"])
                        assert view["version"] == version
                        assert view["recent"] == expected[seat]
    finally:
        for c in (a, b, w):
            await c.close()


class _same:
    """The running server, as an async context (to loop over it and a serving one alike)."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def __aenter__(self) -> str:
        return self.url

    async def __aexit__(self, *exc: object) -> None:
        return None
