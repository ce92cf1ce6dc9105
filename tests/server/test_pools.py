"""Matchmaking pools (server/lobby/pools.py): a player queues for a game and is paired with the waiting player of
nearest rating, within a gap that widens with the wait, into a room both are seated in; across nodes; a ticket
cancelled, disconnected, or of a dead node is never paired; a computer opponent after the chosen wait."""
from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgpack
import pytest
import redis.asyncio as aioredis

from client import Client, ClientError
from server.lobby.pools import Candidate, allowance, plan
from server.store import keys
from tests.server.helpers import play_turn
from tests.server.nodes import LEASE_MS, Start

GAME = "creature_wars"
CASUAL = f"{GAME}:casual:30-60-0"
RATED = f"{GAME}:rated:30-60-0"


def player_of(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:16]


async def rate(redis_url: str, ratings: dict[str, float]) -> None:
    """Give the players of these keys these ratings, as settled matches would have."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        for key, rating in ratings.items():
            await r.hset(keys.ratings(GAME), player_of(key), msgpack.packb([rating, 60.0, 0.06, 10, key[:8]]))
    finally:
        await r.aclose()


@asynccontextmanager
async def paused(redis_url: str, pool: str) -> AsyncIterator[aioredis.Redis]:
    """Nobody pairs ``pool`` inside the block (its lease is held by nobody's node); the nodes pair it after."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        await r.set(f"{keys.POOLS}pool:{pool}:lease", "test", px=30000)
        yield r
        await r.delete(f"{keys.POOLS}pool:{pool}:lease")
    finally:
        await r.aclose()


async def keyed(url: str, name: str) -> Client:
    return await Client.connect(url, name=name, key=f"{name}-secret-key-0123456789")


def test_the_plan_pairs_the_nearest_ratings_first_and_only_within_the_allowed_gap() -> None:
    now = 1000.0
    tickets = [Candidate("a", 1500, now), Candidate("b", 1540, now), Candidate("c", 1560, now),
               Candidate("d", 1900, now - 4), Candidate("e", 2150, now - 10)]
    pairs, alone = plan(tickets, now)
    assert pairs == [(1, 2)]  # b-c (20) before a-b (40); d and e too far for now
    assert alone == []
    assert allowance(0) == 100 and allowance(4.9) == 100 and allowance(5) == 150 and allowance(30) == 400
    pairs, _ = plan(tickets, now + 5)  # e has waited 15 s: 100 + 3 * 50 = 250 >= 2150 - 1900
    assert sorted(pairs) == [(1, 2), (3, 4)]
    _, alone = plan([Candidate("a", 1500, now, after=3), Candidate("b", 2500, now, after=10)], now + 4)
    assert alone == [0]


def test_the_plan_pairs_ten_thousand_tickets_quickly() -> None:
    import time

    rng = random.Random(1)
    now = 1000.0
    tickets = sorted((Candidate(f"t{i}", rng.gauss(1500, 200), now - rng.uniform(0, 60)) for i in range(10_000)),
                     key=lambda c: c.rating)
    started = time.perf_counter()
    pairs, _ = plan(tickets, now)
    assert time.perf_counter() - started < 1.0
    assert len(pairs) > 4900
    used = [i for pair in pairs for i in pair]
    assert len(used) == len(set(used))
    assert all(abs(tickets[i].rating - tickets[j].rating) <= max(allowance(now - tickets[i].since),
                                                                 allowance(now - tickets[j].since)) for i, j in pairs)


async def test_two_players_queued_on_different_nodes_are_paired_into_one_room(node: Start) -> None:
    _, url_a = await node("A")
    _, url_b = await node("B")
    async with await Client.connect(url_a, name="ann") as ann, await Client.connect(url_b, name="bob") as bob:
        queued = await ann.queue(GAME)
        assert queued["game"] == GAME and queued["rated"] is False and queued["waiting"] == 1
        assert queued["clock"] == {"move": 30, "bank": 60, "increment": 0} and queued["rating"] == 1500
        await bob.queue(GAME)
        told_a, told_b = await ann.wait_paired(GAME), await bob.wait_paired(GAME)
        assert told_a["room"] == told_b["room"]
        assert {told_a["seat"], told_b["seat"]} == {0, 1}
        assert told_a["opponent"] == "bob" and told_b["opponent"] == "ann" and told_a["computer"] is None
        seat_a = await ann.resume(told_a["room"], told_a["token"])
        seat_b = await bob.resume(told_b["room"], told_b["token"])
        view = await ann.wait_view(seat_a.room, lambda v: "hands" in v)
        assert view["seat"] == told_a["seat"]
        listed: dict[str, Any] = {}
        for _ in range(100):  # another node's rooms reach this node's listing within about a second
            listed = {r["room"]: r for r in await bob.list_rooms()}
            if listed.get(seat_a.room, {}).get("status") == "playing":
                break
            await asyncio.sleep(0.05)
        assert listed[seat_a.room]["status"] == "playing"
        assert sorted(listed[seat_a.room]["players"]) == ["ann", "bob"]
        await play_turn([(ann, seat_a), (bob, seat_b)], random.Random(1))  # the match is played as any other


async def test_near_ratings_pair_first(server_url: str, redis_url: str) -> None:
    names = {"anna": 1500.0, "bert": 1900.0, "cleo": 1520.0, "dora": 1880.0}
    await rate(redis_url, {f"{n}-secret-key-0123456789": r for n, r in names.items()})
    clients = {n: await keyed(server_url, n) for n in names}
    try:
        async with paused(redis_url, RATED):
            for n, c in clients.items():
                assert (await c.queue(GAME, rated=True))["rating"] == names[n]
        told = {n: await c.wait_paired(GAME) for n, c in clients.items()}
        assert told["anna"]["room"] == told["cleo"]["room"] and told["bert"]["room"] == told["dora"]["room"]
        assert told["anna"]["room"] != told["bert"]["room"] and told["anna"]["rated"] is True
        seat = await clients["anna"].resume(told["anna"]["room"], told["anna"]["token"])
        listed = {r["room"]: r for r in await clients["anna"].list_rooms()}
        assert listed[seat.room]["ranked"] == "rated"
    finally:
        for c in clients.values():
            await c.close()


async def test_a_widening_wait_pairs_distant_ratings(server_url: str, redis_url: str) -> None:
    await rate(redis_url, {"near-secret-key-0123456789": 1500.0, "far-secret-key-01234567890": 1640.0})
    async with await keyed(server_url, "near") as near, \
            await Client.connect(server_url, name="far", key="far-secret-key-01234567890") as far:
        await near.queue(GAME)
        await far.queue(GAME)
        with pytest.raises(TimeoutError):  # 140 apart: more than the 100 allowed at once
            await near.wait_paired(GAME, timeout=3.5)
        told = await near.wait_paired(GAME, timeout=6)  # after 5 s waited, 150 are allowed
        assert told["opponent"] == "far"
        assert (await far.wait_paired(GAME))["room"] == told["room"]


async def test_a_cancelled_or_disconnected_ticket_is_never_paired(server_url: str, redis_url: str) -> None:
    async with paused(redis_url, CASUAL) as r:
        gone = await Client.connect(server_url, name="gone")
        await gone.queue(GAME)
        await gone.close()  # its connection's drop ends its ticket
        quitter = await Client.connect(server_url, name="quitter")
        await quitter.queue(GAME)
        assert (await quitter.unqueue(GAME))["reason"] == "cancelled"
        assert (await quitter.unqueue(GAME))["reason"] == "not_queued"
        stays = await Client.connect(server_url, name="stays")
        await stays.queue(GAME)
        for _ in range(100):
            if await r.zcard(f"{keys.POOLS}pool:{CASUAL}:rating") == 1:
                break
            await asyncio.sleep(0.05)
        assert await r.zcard(f"{keys.POOLS}pool:{CASUAL}:rating") == 1
    with pytest.raises(TimeoutError):
        await stays.wait_paired(GAME, timeout=2)
    assert quitter.paired == {}
    async with await Client.connect(server_url, name="late") as late:
        await late.queue(GAME)
        told = await stays.wait_paired(GAME)
        assert told["opponent"] == "late"
    await stays.close()
    await quitter.close()


async def test_sitting_in_another_room_ends_the_ticket(server_url: str, redis_url: str) -> None:
    async with paused(redis_url, CASUAL):
        async with await Client.connect(server_url, name="ann", record_frames=True) as ann:
            await ann.queue(GAME)
            await ann.create("fairy_tableau")
            ended = await ann.wait_message(lambda m: m.get("t") == "unqueued")
            assert ended["reason"] == "seated" and ended["game"] == GAME
            assert ann.tickets_ended == {GAME: "seated"}
            async with await Client.connect(server_url, name="bob") as bob:
                await bob.queue(GAME)
                with pytest.raises(TimeoutError):
                    await bob.wait_paired(GAME, timeout=1.5)


async def test_queuing_again_replaces_the_ticket(server_url: str, redis_url: str) -> None:
    key = "twice-secret-key-0123456789"
    async with paused(redis_url, CASUAL), paused(redis_url, f"{GAME}:casual:60-0-0"):
        async with await Client.connect(server_url, name="one", key=key) as one, \
                await Client.connect(server_url, name="two", key=key) as two:
            assert (await one.queue(GAME))["replaced"] is False
            assert (await one.queue(GAME, clock={"move": 60}))["replaced"] is True
            again = await two.queue(GAME)  # the same player on another connection: one ticket per player per game
            assert again["replaced"] is True and again["waiting"] == 1
            await one.wait_for(lambda: one.tickets_ended.get(GAME) == "replaced")


async def test_the_computer_is_offered_after_the_chosen_wait(server_url: str) -> None:
    async with await Client.connect(server_url, name="solo") as solo:
        await solo.queue(GAME, computer_after=2, computer="random")
        with pytest.raises(TimeoutError):
            await solo.wait_paired(GAME, timeout=1.2)
        told = await solo.wait_paired(GAME, timeout=5)
        assert told["computer"] == "random" and told["opponent"] == "random bot" and told["rated"] is False
        seat = await solo.resume(told["room"], told["token"])
        view = await solo.wait_view(seat.room, lambda v: "hands" in v, timeout=10)  # dealt once the bot sat
        assert view["seat"] == seat.seat


@pytest.mark.parametrize(("fields", "code", "words"), [
    ({"game": GAME, "rated": True}, "key_required", "rated pool"),
    ({"game": "fairy_tableau"}, "bad_field", "solitaire"),
    ({"game": "chess"}, "unknown_game", "chess"),
    ({"game": GAME, "clock": {"move": -1}}, "bad_field", "clock.move"),
    ({"game": GAME, "computer_after": 5000}, "bad_field", "computer_after"),
    ({"game": GAME, "computer_after": 5, "computer": "genius"}, "bad_field", "computer"),
])
async def test_a_ticket_the_pools_cannot_take_is_refused_naming_why(server_url: str, fields: dict[str, object],
                                                                     code: str, words: str) -> None:
    async with await Client.connect(server_url, name="ada") as ada:
        with pytest.raises(ClientError) as refused:
            await ada.request("queue", **fields)
        assert refused.value.code == code and words in refused.value.message


async def test_a_dead_nodes_tickets_are_never_paired(node: Start, redis_url: str) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    r = aioredis.Redis.from_url(redis_url)
    try:
        async with paused(redis_url, CASUAL):
            lost = await Client.connect(url_a, name="lost")
            await lost.queue(GAME)
            proc_a.kill()  # SIGKILL: its connection never says goodbye
            proc_a.wait()
            await asyncio.sleep(1.5 * LEASE_MS / 1000)  # until then node A may still be alive, as far as anyone knows
            waiting = await Client.connect(url_b, name="waits")
            await waiting.queue(GAME)
        with pytest.raises(TimeoutError):
            await waiting.wait_paired(GAME, timeout=2.5)
        for _ in range(100):  # node A's run has stopped saying it is alive: its tickets are removed
            if await r.zcard(f"{keys.POOLS}pool:{CASUAL}:rating") == 1:
                break
            await asyncio.sleep(0.05)
        assert await r.zcard(f"{keys.POOLS}pool:{CASUAL}:rating") == 1
        async with await Client.connect(url_b, name="new") as new:
            await new.queue(GAME)
            assert (await waiting.wait_paired(GAME))["opponent"] == "new"
        await waiting.close()
    finally:
        await r.aclose()
