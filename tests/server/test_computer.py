"""Computer opponents served by the server: ``create_room`` with ``computer`` has the node's own bot take the
other seat, as a client of the protocol seeing only its seat, and play the match out."""
from __future__ import annotations

import asyncio
import random

import pytest

import server.edge.computer
from client import Client, ClientError
from client.connection import Seat
from tests.server.helpers import announced, leaks, replay
from tests.server.servers import QUICK


async def _play_out(client: Client, seat: Seat, rng: random.Random) -> None:
    """Our seat plays at random until the match is over; the computer plays the other."""
    await client.wait_view(seat.room, lambda v: "hands" in v, timeout=10)
    for _ in range(400):
        view = client.views[seat.room]
        if view["outcome"] is not None:
            return
        if view["legal"]:
            await client.decide(seat, rng.choice(view["legal"]))
        else:  # the computer's move: it decides from its own view
            await client.wait_view(seat.room, lambda v, at=view["version"]: v["version"] != at, timeout=10)
    raise AssertionError("the match did not end")


async def test_the_computer_takes_the_other_seat_and_plays_the_match_out(server_url: str, redis_url: str) -> None:
    rng = random.Random(5)
    async with await Client.connect(server_url, name="ada", record_frames=True) as ada, \
            await Client.connect(server_url, record_frames=True) as watcher:
        seat = await ada.create("creature_wars", QUICK, computer="random")  # dealt once the computer sits
        assert isinstance(seat, Seat)
        await watcher.spectate(seat.room)  # what it is told is public: a witch may show a card in the open
        await _play_out(ada, seat, rng)
        listed = {r["room"]: r for r in await ada.list_rooms()}
        assert listed[seat.room]["players"] == ["ada", "random bot"]
        states = await replay(redis_url, seat.room, QUICK, ada.over[seat.room]["seed"])
        assert len(states) >= 2, "both seats decided"
        assert leaks(ada.frames, states, seat.seat, announced(watcher.frames)) == []


async def test_the_computer_accepts_a_rematch(server_url: str) -> None:
    rng = random.Random(9)
    async with await Client.connect(server_url, name="ada") as ada:
        seat = await ada.create("creature_wars", QUICK, computer="random")
        assert isinstance(seat, Seat)
        await _play_out(ada, seat, rng)
        await ada.rematch(seat)
        for _ in range(200):  # the computer answers within a moment
            if seat.room in ada.rematches:
                break
            await asyncio.sleep(0.05)
        again = ada.rematches[seat.room]
        assert again.room != seat.room and again.seat == 1 - seat.seat, "a new room, seats swapped"
        await _play_out(ada, again, rng)
        listed = {r["room"]: r for r in await ada.list_rooms()}
        assert sorted(listed[again.room]["players"]) == ["ada", "random bot"]


async def test_the_computer_leaves_a_finished_room_once_its_opponent_has(server_url: str) -> None:
    """It waits for a rematch only while the other player is there (``presence``, told after the match too): a
    computer player of the node's pool is free again at once, not after ``REMATCH_WAIT`` seconds."""
    rng = random.Random(3)
    async with await Client.connect(server_url, name="ada") as ada, await Client.connect(server_url) as watcher:
        seat = await ada.create("creature_wars", QUICK, computer="random")
        assert isinstance(seat, Seat)
        await watcher.spectate(seat.room)
        await _play_out(ada, seat, rng)
        await ada.leave(seat.room)
        told = watcher.presence.setdefault(seat.room, {})
        await watcher.wait_for(lambda: told.get(seat.seat) is False, timeout=5)
        await watcher.wait_for(lambda: told.get(1 - seat.seat) is False, timeout=5)  # the computer left too


@pytest.mark.parametrize(("fields", "words"), [
    ({"game": "creature_wars", "computer": "genius"}, "field 'computer' must be one of random, strong"),
    ({"game": "fairy_tableau", "computer": "random"}, "the computer plays creature_wars, fairy_meat"),
    ({"game": "creature_wars", "computer": "random", "sit": False}, "its creator sits"),
    ({"game": "creature_wars", "computer": "random", "daily": True}, "not daily"),
])
async def test_a_room_the_computer_cannot_play_is_refused_naming_why(server_url: str, fields: dict[str, object],
                                                                      words: str) -> None:
    async with await Client.connect(server_url, name="ada") as ada:
        with pytest.raises(ClientError) as refused:
            await ada.request("create_room", **fields)
        assert refused.value.code == "bad_field"
        assert words in refused.value.message
        assert await ada.list_rooms() == [], "nothing was created"


async def test_a_room_whose_computer_cannot_take_its_seat_is_cancelled(server_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its creator is told (``room_closed``, ``cancelled``) after the bot's attempts, not left waiting for an opponent
    who never comes."""
    attempts: list[str] = []

    async def refused(url: str, room: str, *_: object, **__: object) -> None:
        attempts.append(room)
        raise OSError("the bot's connection was refused")

    monkeypatch.setattr(server.edge.computer, "play_room", refused)
    monkeypatch.setattr(server.edge.computer, "SIT_PAUSE", 0.01)
    async with await Client.connect(server_url, name="ada") as ada:
        seat = await ada.create("creature_wars", QUICK, computer="random")
        assert isinstance(seat, Seat)
        await ada.wait_for(lambda: seat.room in ada.closed)
        assert ada.closed[seat.room] == "cancelled"
        assert attempts == [seat.room] * server.edge.computer.SIT_ATTEMPTS
        assert seat.room not in {r["room"] for r in await ada.list_rooms()}


async def test_a_room_someone_else_sat_in_stays_when_the_computer_cannot(server_url: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's failure cancels only a room still waiting: a player who took the seat meanwhile plays on."""
    taken = asyncio.Event()

    async def late(*_: object, **__: object) -> None:
        await taken.wait()
        raise OSError("the bot's connection was refused")

    monkeypatch.setattr(server.edge.computer, "play_room", late)
    monkeypatch.setattr(server.edge.computer, "SIT_PAUSE", 0.01)
    async with await Client.connect(server_url, name="ada") as ada, await Client.connect(server_url, name="bo") as bo:
        seat = await ada.create("creature_wars", QUICK, computer="random")
        assert isinstance(seat, Seat)
        other = await bo.join(seat.room)
        taken.set()
        with pytest.raises(TimeoutError):  # no room_closed within a second
            await ada.wait_for(lambda: seat.room in ada.closed, timeout=1)
        for client, held in ((ada, seat), (bo, other)):
            await client.wait_view(held.room, lambda v: "hands" in v)
        # the match goes on: a seat decides (one whose play was forced at the deal waits for the other)
        mover, held = (bo, other) if bo.views[other.room]["legal"] else (ada, seat)
        await mover.decide(held, mover.views[held.room]["legal"][0])
