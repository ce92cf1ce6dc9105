"""Match clocks: settings checked, shown in views, time-outs applied by the server, forfeits, away seats."""
from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from redis import asyncio as aioredis

from client import Client, ClientError
from client.connection import Seat
from engine.creature_wars import GAME
from server.rooms import clock as clocks
from server.store import keys
from server.store.store import Store
from tests.server.helpers import replay
from tests.server.players import pushed


async def timed_room(a: Client, b: Client, clock: dict[str, int] | None, seed: int = 11,
                     game: str = "creature_wars") -> tuple[Seat, Seat]:
    """A full two-player room with the given clock (None: the game's default)."""
    fields: dict[str, Any] = {"game": game, "sit": False, "seed": seed}
    if clock is not None:
        fields["clock"] = clock
    room = (await a.request("create_room", **fields))["room"]
    return await a.join(room), await b.join(room)


@pytest.mark.parametrize(("clock", "says"), [
    ({"move": -1}, "clock.move"),
    ({"move": "30"}, "clock.move"),
    ({"bank": True}, "clock.bank"),
    ({"move": 10**6}, "clock.move"),
    ({"moves": 30}, "'moves'"),
    ({"increment": 5}, "increment"),
])
async def test_bad_clocks_are_refused(server_url: str, clock: dict[str, Any], says: str) -> None:
    async with await Client.connect(server_url) as client:
        with pytest.raises(ClientError) as caught:
            await client.request("create_room", game="creature_wars", clock=clock)
        assert caught.value.code == "bad_field" and says in caught.value.message
        with pytest.raises(ClientError) as caught:
            await client.request("create_room", game="fairy_tableau", clock={"move": 30})
        assert caught.value.code == "bad_field" and "solitaire" in caught.value.message
        assert await client.list_rooms() == []


async def test_views_carry_the_clock_and_it_starts_when_the_room_fills(server_url: str) -> None:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    try:
        room = (await a.request("create_room", game="fairy_meat", sit=False))["room"]
        await a.join(room)
        waiting = await pushed(a, "view", room=room)
        assert waiting["clock"]["limits"] == {"move": 30, "bank": 60, "increment": 0}
        assert [s["left"] for s in waiting["clock"]["seats"]] == [None, None]
        await b.join(room)
        full = await pushed(b, "view", room=room)
        seats = full["clock"]["seats"]
        # both weapon choices are sealed and awaited: both clocks run, with the full bank behind them
        assert all(0 < s["left"] <= 30 and s["bank"] == 60 and s["strikes"] == 0 for s in seats)
        assert full["presence"] == [True, True]
    finally:
        await a.close()
        await b.close()


async def test_a_client_may_not_send_a_timeout(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    store = Store(redis_url)
    try:
        sa, _ = await timed_room(a, b, None)
        for kind in ("timeout", "forfeit", "abort"):
            with pytest.raises(ClientError) as caught:
                await a.decide(sa, {"kind": kind})
            assert caught.value.code == "illegal_decision"
        assert await store.log(sa.room) == []
        assert a.versions[sa.room] == 0
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_a_silent_seat_loses_by_forfeit_after_its_clock(server_url: str, redis_url: str) -> None:
    """Seat 0 plays at once every time; seat 1 never does: two time-outs, then the third is a forfeit."""
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    try:
        sa, _ = await timed_room(a, b, {"move": 2})
        room = sa.room
        for _ in range(100):
            view = a.views[room]
            if view["outcome"] is not None:
                break
            seen = a.versions[room]
            if view["legal"]:
                try:
                    await a.decide(sa, view["legal"][0])
                except ClientError:
                    pass  # the server decided for a slow seat meanwhile
            await a.wait_view(room, lambda v, seen=seen: a.versions[room] > seen, timeout=20)
        over = await pushed(a, "match_over", room=room, timeout=20)
        assert over["outcome"]["reason"] == "forfeit" and over["outcome"]["winner"] == 0
    finally:
        await a.close()
        await b.close()
    store = Store(redis_url)
    try:
        log = await store.log(room)
    finally:
        await store.close()
    silent = [(r["d"]["kind"], r.get("server")) for r in log if r["seat"] == 1]
    assert silent == [("timeout", True), ("timeout", True), ("forfeit", True)]
    # the log replays with the pure engine to the same ending
    states = await replay(redis_url, room, {}, 11)
    final = states[max(states)]
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.reason.value == "forfeit" and outcome.winner == 0


async def test_a_seat_away_past_the_grace_forfeits(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clocks, "GRACE", 1.0)
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    try:
        sa, _ = await timed_room(a, b, None)
        back = await pushed(a, "presence", room=sa.room, seat=1)
        assert back["connected"] is True  # told when seat 1 came (with its first connection)
        await b.close()
        await pushed(a, "presence", room=sa.room, seat=1, connected=False)
        over = await pushed(a, "match_over", room=sa.room, timeout=20)
        assert over["outcome"]["reason"] == "forfeit" and over["outcome"]["winner"] == 0
    finally:
        await a.close()


async def test_fairy_meat_sealed_choices_time_out_too(server_url: str, redis_url: str) -> None:
    """Nobody decides in a Fairy Meat room: the server times out the sealed weapon choices, and so on to a forfeit."""
    from engine.fairy_meat import GAME as FAIRY_MEAT

    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    try:
        sa, _ = await timed_room(a, b, {"move": 1}, seed=6, game="fairy_meat")
        over = await pushed(a, "match_over", room=sa.room, timeout=30)
        assert over["outcome"]["reason"] == "forfeit"
    finally:
        await a.close()
        await b.close()
    store = Store(redis_url)
    try:
        log = await store.log(sa.room)
    finally:
        await store.close()
    assert {r["seat"] for r in log[:2]} == {0, 1}  # both sealed weapon choices were timed out
    assert all(r["server"] for r in log) and [r["d"]["kind"] for r in log][-1] == "forfeit"
    state = FAIRY_MEAT.setup({}, 6)
    for record in log:
        state, _ = FAIRY_MEAT.apply(state, record["seat"], record["d"])
    outcome = FAIRY_MEAT.outcome(state)
    assert outcome is not None and outcome.data() == over["outcome"]  # the log replays to the same ending


async def test_in_an_untimed_room_only_a_witchs_question_is_timed(server_url: str, redis_url: str) -> None:
    from tests.server.test_questions import OPTIONS

    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    store = Store(redis_url)
    try:
        room = (await a.request("create_room", game="creature_wars", options=OPTIONS, seed=5, sit=False,
                                clock={"move": 0, "bank": 0}))["room"]
        sa = await a.join(room)
        sb = await b.join(room)
        first = await pushed(b, "view", room=room)
        assert first["clock"]["limits"] == {"move": 0, "bank": 0, "increment": 0}
        assert [s["left"] for s in first["clock"]["seats"]] == [None, None]  # sealed plays: untimed
        await a.decide(sa, {"kind": "play", "slot": 0})
        await b.decide(sb, {"kind": "play", "slot": 0})
        asked = await a.wait_view(room, lambda v: "question" in v)
        after = await a.wait_view(room, lambda v: v["version"] == asked["version"] + 1, timeout=10)
        assert "question" not in after
        log = await store.log(room)
        assert log[-1]["d"] == {"kind": "timeout"} and log[-1]["server"] is True
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_every_decision_stores_the_clock_it_leaves(server_url: str, redis_url: str) -> None:
    """A decision's commit stores the room's clock as the decision left it (a restart resumes from it), not the clock
    the full room started with."""
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    r = aioredis.Redis.from_url(redis_url)
    try:
        sa, _ = await timed_room(a, b, {"move": 30})
        await pushed(a, "view", room=sa.room)
        started = msgpack.unpackb(await r.hget(keys.room(sa.room), "clock"))
        assert [seat[1] for seat in started["seats"]] == [30.0, 30.0]  # both seats' plays are awaited
        await asyncio.sleep(0.2)
        await a.decide(sa, {"kind": "play", "slot": 0})
        assert int(await r.hget(keys.room(sa.room), "version") or 0) == 1
        stored = msgpack.unpackb(await r.hget(keys.room(sa.room), "clock"))
        assert stored["stamp"] >= started["stamp"] + 0.2
        assert stored["seats"] != started["seats"]
    finally:
        await r.aclose()
        await a.close()
        await b.close()
