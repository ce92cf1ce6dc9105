"""Honest daily challenges: the day's seed is told only once the day has ended, and each player has one ranked attempt."""
from __future__ import annotations

import datetime
import itertools
from typing import Any

import pytest
import redis

from client import Client, ClientError
from client.connection import Seat
from client.verify import verify
from engine import registry
from server.lobby import lobby
from server.lobby.lobby import daily_seed, today
from server.rooms.reveal import seed_fields
from server.store import keys
from server.store.store import DAILY_SECRET
from tests.server.helpers import play_out
from tests.server.players import keyed, pushed

KEY = "daily-player-secret-key-0001"



def tomorrow() -> str:
    day = datetime.date.fromisoformat(today()) + datetime.timedelta(days=1)
    return f"{day.isoformat()}T00:00:00Z"


async def test_a_daily_seed_is_withheld_until_its_day_ends(server_url: str, redis_url: str) -> None:
    player, _ = await keyed(server_url, "dana", KEY)
    async with player:
        seat = await player.create("fairy_tableau", daily=True)
        assert isinstance(seat, Seat)
        await play_out(player, seat, seed=1)
        over = await pushed(player, "match_over", room=seat.room)
        assert over["seed"] is None and over["reveal_after"] == tomorrow()
        record = (await player.request("export", room=seat.room))["record"]
        assert record["seed"] is None and record["reveal_after"] == tomorrow()
        verdict = verify(record)
        assert not verdict.ok and "after its day ends" in verdict.message
        # nobody watches it before the day ends: its last table would show the day's deal
        async with await Client.connect(server_url) as late:
            with pytest.raises(ClientError) as refused:
                await late.spectate(seat.room)
            assert refused.value.code == "day_not_over"
        # once the day is over (here: the archived record says it was yesterday's), the seed is told
        redis.Redis.from_url(redis_url).hset(keys.match(seat.room), "daily", "2000-01-01")
        record = (await player.request("export", room=seat.room))["record"]
        stored = int(redis.Redis.from_url(redis_url).hget(keys.match(seat.room), "seed") or 0)
        assert record["seed"] == stored and "reveal_after" not in record
        assert verify(record).ok


async def test_a_daily_deal_lost_at_once_seats_its_player_and_enters_the_days_table(server_url: str,
                                                                                   redis_url: str) -> None:
    """About one Fairy Tableau deal in 80 is lost before any decision. The day's deal is dealt as the room is
    made, so such a day's room waits for its player, and the seat's claim ends it: the player is seated, told
    the result, and scored in the day's table."""
    game = registry.get("fairy_tableau")
    assert game is not None
    secret = next(s for s in (n.to_bytes(32, "big") for n in itertools.count())
                  if game.outcome(game.setup({}, daily_seed(s, game.name, today()))) is not None)
    redis.Redis.from_url(redis_url).set(DAILY_SECRET, secret)
    player, _ = await keyed(server_url, "gil", KEY)
    async with player:
        seat = await player.create("fairy_tableau", daily=True)
        assert isinstance(seat, Seat)
        over = await pushed(player, "match_over", room=seat.room)
        assert over["outcome"]["reason"] == "lost" and over["seed"] is None and over["reveal_after"] == tomorrow()
        entries = (await player.request("scores", game="fairy_tableau", daily=True))["entries"]
        assert [(e["name"], e["room"], e["score"]) for e in entries] == [("gil", seat.room, over["outcome"]["scores"][0])]


async def test_a_daily_room_in_play_is_not_watched_but_its_player_resumes_it(server_url: str) -> None:
    player, _ = await keyed(server_url, "dora", KEY + "x")
    async with player:
        seat = await player.create("queens_challenge", daily=True)
        assert isinstance(seat, Seat)
        async with await Client.connect(server_url) as watcher:
            with pytest.raises(ClientError) as refused:
                await watcher.spectate(seat.room)
            assert refused.value.code == "day_not_over" and "day has ended" in refused.value.message
            assert seat.room not in watcher.views, "no view of the day's deal reached the watcher"
        async with await Client.connect(server_url) as again:
            resumed = await again.resume(seat.room, seat.token)
            assert resumed.room == seat.room and seat.room in again.views


def test_the_seed_is_told_from_the_first_second_of_the_next_day() -> None:
    end = datetime.datetime(2026, 11, 25, tzinfo=datetime.UTC).timestamp()
    assert seed_fields(7, "2026-11-24", end - 1) == {"seed": None, "reveal_after": "2026-11-25T00:00:00Z"}
    assert seed_fields(7, "2026-11-24", end) == {"seed": 7}
    assert seed_fields(7, "", end - 1) == {"seed": 7}


async def test_one_daily_attempt_per_player_and_no_practice_room(server_url: str) -> None:
    """A later daily room of the same game that day is refused, not a practice room dealt the same cards."""
    player, _ = await keyed(server_url, "erin", KEY)
    async with player:
        first = await player.request("create_room", game="queens_challenge", daily=True)
        assert first["ranked"] == f"daily:{today()}"
        with pytest.raises(ClientError) as refused:
            await player.request("create_room", game="queens_challenge", daily=True)
        assert refused.value.code == "daily_played" and "after the day ends" in refused.value.message
        # another game's daily is a first attempt of its own
        other = await player.request("create_room", game="fairy_tableau", daily=True)
        assert other["ranked"] == f"daily:{today()}"
        rooms = {r["room"]: r for r in await player.list_rooms()}
        assert set(rooms) == {first["room"], other["room"]}
        assert rooms[first["room"]]["ranked"] == f"daily:{today()}" and rooms[first["room"]]["daily"] == today()
    # the same key on another connection, under another of its names, is the same player: refused too
    again, _ = await keyed(server_url, "erin2", KEY)
    async with again:
        with pytest.raises(ClientError) as refused:
            await again.create("queens_challenge", daily=True)
        assert refused.value.code == "daily_played"


async def test_a_new_key_from_the_same_address_is_not_a_new_attempt(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second key (and name) made to try the day's deal again from the same address is refused; an address
    allowed two attempts (a household) has two, and a refused attempt counts for nothing."""
    first, _ = await keyed(server_url, "fay", KEY)
    async with first:
        await first.request("create_room", game="fairy_tableau", daily=True)
    second, _ = await keyed(server_url, "fay2", "daily-player-secret-key-0002")
    async with second:
        with pytest.raises(ClientError) as refused:
            await second.request("create_room", game="fairy_tableau", daily=True)
        assert refused.value.code == "daily_played" and "from your address" in refused.value.message
        monkeypatch.setattr(lobby, "DAILY_PER_ADDRESS", 2)
        made = await second.request("create_room", game="fairy_tableau", daily=True)
        assert made["ranked"] == f"daily:{today()}"
    third, _ = await keyed(server_url, "fay3", "daily-player-secret-key-0003")
    async with third:
        with pytest.raises(ClientError) as refused:
            await third.request("create_room", game="fairy_tableau", daily=True)
        assert refused.value.code == "daily_played"


@pytest.mark.parametrize("fields", [{}, {"sit": False}])
async def test_nobody_sees_the_daily_deal_outside_a_ranked_attempt(server_url: str, fields: dict[str, Any]) -> None:
    """A guest (no key) may not open a daily room, nor may anyone open one without sitting in it: such a room
    would show the day's deal to someone who is then free to make a ranked attempt knowing it."""
    key = KEY if fields else None
    client, _ = await keyed(server_url, "guesty", key)
    async with client:
        with pytest.raises(ClientError) as refused:
            await client.request("create_room", game="fairy_tableau", daily=True, **fields)
        assert refused.value.code == "key_required"
        assert await client.list_rooms() == []
        # and a keyed player who sits has the attempt still to come
        if key is not None:
            made = await client.request("create_room", game="fairy_tableau", daily=True)
            assert made["ranked"] == f"daily:{today()}"


async def test_a_daily_room_is_for_one_player_games(server_url: str) -> None:
    player, _ = await keyed(server_url, "fay", KEY)
    async with player:
        with pytest.raises(ClientError) as refused:
            await player.request("create_room", game="creature_wars", daily=True)
        assert refused.value.code == "bad_field" and "one-player" in refused.value.message
