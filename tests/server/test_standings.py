"""Rated rooms move Glicko-2 ratings once per match; every finished match enters its players' histories."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from client import Client, ClientError
from client.connection import Seat
from server.cli import main
from server.lobby.lobby import Lobby
from server.players import standings
from server.players.ratings import DEFAULT, update
from server.store.store import Store
from tests.server.helpers import play_to_end
from tests.server.players import keyed

QUICK = {"hp": 1}
"""Creature Wars options that end a match at the first damage."""


async def rated_match(url: str) -> tuple[Client, Seat, Client, Seat, dict[str, str]]:
    """Two keyed players (ann, bob) seated in a rated Creature Wars room, and their player ids by name."""
    a, wa = await keyed(url, "ann", "k" * 32)
    b, wb = await keyed(url, "bob", "q" * 32)
    sa = await a.create("creature_wars", QUICK, ranked=True)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    return a, sa, b, sb, {"ann": wa["player"], "bob": wb["player"]}


async def finish(a: Client, sa: Seat, b: Client, sb: Seat, seed: int) -> dict[str, object]:
    await play_to_end([(a, sa), (b, sb)], seed=random.Random(seed).randrange(1000))
    outcome: dict[str, object] = (await a.wait_view(sa.room, lambda v: v["outcome"] is not None))["outcome"]
    return outcome


async def test_a_rated_match_moves_both_ratings(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    a, sa, b, sb, ids = await rated_match(server_url)
    try:
        winner = (await finish(a, sa, b, sb, 3))["winner"]
        assert winner in (0, 1)
        won, lost = update(DEFAULT, [(DEFAULT, 1.0)]), update(DEFAULT, [(DEFAULT, 0.0)])
        entries = {e["name"]: e for e in (await a.request("ratings", game="creature_wars"))["entries"]}
        names = ["ann", "bob"]
        assert entries[names[winner]]["rating"] == round(won.r, 1) and entries[names[winner]]["rank"] == 1
        assert entries[names[1 - winner]]["rating"] == round(lost.r, 1)
        assert all(e["games"] == 1 for e in entries.values())
        mine = (await a.request("history"))["entries"]
        assert [h["room"] for h in mine] == [sa.room] and mine[0]["rated"]
        theirs = (await a.request("history", player=ids["bob"]))["entries"]
        assert theirs[0]["rating"][0] == round(DEFAULT.r, 1)
        assert await asyncio.to_thread(main, ["ratings", "creature_wars", "--url", server_url]) == 0
        printed = capsys.readouterr().out
        assert "ann" in printed and "bob" in printed and str(round(won.r, 1)) in printed
    finally:
        await a.close()
        await b.close()


async def test_an_aborted_rated_match_rates_nothing(server_url: str) -> None:
    a, sa, b, sb, _ = await rated_match(server_url)
    try:
        await a.request("abort", room=sa.room, token=sa.token)
        await b.request("abort", room=sb.room, token=sb.token)
        await a.wait_view(sa.room, lambda v: v["outcome"] is not None)
        assert (await a.request("ratings", game="creature_wars"))["entries"] == []
        assert (await a.request("history"))["entries"][0]["rated"] is False
    finally:
        await a.close()
        await b.close()


async def test_rated_rooms_seat_only_players_with_a_key(server_url: str) -> None:
    a, _ = await keyed(server_url, "ann", "k" * 32)
    async with await Client.connect(server_url, name="guest") as guest:
        try:
            sa = await a.create("creature_wars", ranked=True)
            assert not isinstance(sa, str)
            for request in (guest.join(sa.room), guest.create("creature_wars", ranked=True)):
                with pytest.raises(ClientError) as refused:
                    await request
                assert refused.value.code == "key_required"
            with pytest.raises(ClientError) as solo:
                await a.create("fairy_tableau", ranked=True)
            assert solo.value.code == "bad_field" and "two-player" in solo.value.message
            assert [r["ranked"] for r in await guest.list_rooms()] == [standings.RATED]
        finally:
            await a.close()


async def test_the_ratings_have_moved_when_the_players_see_the_end(server_url: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow settlement (Redis busy) still comes before the view that ends the match: whoever asks for the
    ratings on seeing the end finds them moved."""
    settle = standings.settle

    async def slow(*args: Any) -> bool:
        await asyncio.sleep(0.5)
        return await settle(*args)

    monkeypatch.setattr(standings, "settle", slow)
    a, sa, b, sb, _ = await rated_match(server_url)
    try:
        await finish(a, sa, b, sb, 5)
        assert len((await a.request("ratings", game="creature_wars"))["entries"]) == 2
        assert len((await a.request("history"))["entries"]) == 1
    finally:
        await a.close()
        await b.close()


async def test_a_match_is_settled_once(server_url: str, redis_url: str) -> None:
    """Settling a finished room again (a retry, a restart) moves no rating twice and adds no second history entry."""
    a, sa, b, sb, _ = await rated_match(server_url)
    try:
        await finish(a, sa, b, sb, 4)
        before = (await a.request("ratings", game="creature_wars"))["entries"]
        assert len(before) == 2
        store = Store(redis_url)
        try:
            room = await Lobby(store).find(sa.room)  # the room as a restarted server loads it
            assert room.over
            assert await room.settle() is False
        finally:
            await store.close()
        assert (await a.request("ratings", game="creature_wars"))["entries"] == before
        assert len((await a.request("history"))["entries"]) == 1
    finally:
        await a.close()
        await b.close()
