"""A burst of reading requests (spectators arriving together, listings in a flood) is spread over the event
loop's turns and costs little each: the lane, a spectator's view encoded once per version, chat lines kept
in memory once read."""
from __future__ import annotations

import asyncio

import pytest
import redis

from client import Client
from protocol import Fields
from server.edge import lane as lane_module
from server.edge.lane import Lane
from server.rooms import room as room_module


async def _turns(started: list[int], count: int, lane: Lane) -> None:
    """Start ``count`` requests through ``lane``, recording the loop turn each started in."""
    turn = 0
    stop = False

    def tick() -> None:
        nonlocal turn
        turn += 1
        if not stop:
            asyncio.get_running_loop().call_soon(tick)

    asyncio.get_running_loop().call_soon(tick)

    async def request() -> None:
        await lane.turn()
        started.append(turn)

    await asyncio.gather(*(request() for _ in range(count)))
    stop = True


async def test_the_lane_starts_a_few_requests_per_turn_in_order() -> None:
    started: list[int] = []
    await _turns(started, 40, Lane(4))
    per_turn = {t: started.count(t) for t in set(started)}
    assert len(started) == 40 and max(per_turn.values()) <= 4
    assert len(per_turn) >= 10 and started == sorted(started)  # spread over turns, first come first served


async def test_a_cancelled_waiter_gives_its_place_to_the_next() -> None:
    lane = Lane(1)
    order: list[int] = []

    async def request(n: int) -> None:
        await lane.turn()
        order.append(n)

    tasks = [asyncio.create_task(request(n)) for n in range(3)]
    await asyncio.sleep(0)  # the first starts, the other two wait for the next turn
    assert order == [0] and len(lane.waiting) == 2
    tasks[1].cancel()
    await asyncio.wait_for(asyncio.gather(tasks[0], tasks[2]), 1)
    assert order == [0, 2] and tasks[1].cancelled()


async def test_reading_requests_take_the_lane_and_play_does_not(server_url: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    passed: list[int] = []
    turn = Lane.turn

    async def counted(self: Lane) -> None:
        passed.append(1)
        await turn(self)

    monkeypatch.setattr(Lane, "turn", counted)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        seat = await a.create("creature_wars", seed=3)
        assert not isinstance(seat, str)
        await b.join(seat.room)
        view = await a.wait_view(seat.room, lambda v: bool(v["legal"]))
        before = len(passed)
        await a.decide(seat, view["legal"][0])
        assert len(passed) == before  # create, join, decide: not through the lane
        await b.list_rooms()
        await b.spectate(seat.room)
        assert len(passed) == before + 2
    assert "decide" not in lane_module.READING and "spectate" in lane_module.READING


async def test_spectators_arriving_at_one_version_share_one_encoded_view(server_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Fields] = []

    def counted(fields: dict[str, object]) -> Fields:
        built.append(Fields(fields))
        return built[-1]

    monkeypatch.setattr(room_module, "Fields", counted)  # what the room encodes a spectator's view once into
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        seat = await a.create("creature_wars", seed=5)
        assert not isinstance(seat, str)
        await b.join(seat.room)
        watchers = [await Client.connect(server_url, record_frames=True) for _ in range(12)]
        try:
            built.clear()
            for w in watchers:
                await w.spectate(seat.room)
            assert len(built) == 1
            views = [next(m for m in w.received() if m["t"] == "view") for w in watchers]
            assert {m["version"] for m in views} == {views[0]["version"]}
            assert all(m["view"] == views[0]["view"] and m["recent"] == views[0]["recent"] for m in views)
            assert [m["spectators"] for m in views] == list(range(1, 13))  # read anew for each
        finally:
            for w in watchers:
                await w.close()


def _lrange_calls(redis_url: str) -> int:
    stats = redis.Redis.from_url(redis_url).info("commandstats")
    return int(stats.get("cmdstat_lrange", {}).get("calls", 0))


async def test_chat_lines_are_read_from_redis_once_per_room(server_url: str, redis_url: str) -> None:
    async with await Client.connect(server_url, name="ann") as a:
        seat = await a.create("creature_wars", seed=6)
        assert not isinstance(seat, str)
        await a.chat(seat.room, "first")
        before = _lrange_calls(redis_url)
        watchers = [await Client.connect(server_url, record_frames=True) for _ in range(6)]
        try:
            for w in watchers[:3]:
                await w.spectate(seat.room)
            await a.chat(seat.room, "second")  # after the lines were read: kept in memory too
            for w in watchers[3:]:
                await w.spectate(seat.room)
            for w in watchers[3:]:
                await w.wait_message(lambda m: m["t"] == "chat" and m["text"] == "second")
                assert [m["text"] for m in w.received() if m["t"] == "chat"] == ["first", "second"]
            assert _lrange_calls(redis_url) - before <= 1
        finally:
            for w in watchers:
                await w.close()
