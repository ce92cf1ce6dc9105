"""Offers to abort or to rematch are stored with the room: the server that serves it next (after a restart here;
another node in tests/server/test_routing.py) completes them with the other seat's accept."""
from __future__ import annotations

import random

from client import Client
from client.connection import Seat
from server.store import keys
from server.store.store import Store
from tests.server.helpers import play_to_end
from tests.server.servers import QUICK, serving


async def test_an_abort_offer_outlives_its_server_and_the_other_seats_abort_completes_it(redis_url: str) -> None:
    async with serving(redis_url) as url:
        a, b = await Client.connect(url), await Client.connect(url)
        sa = await a.create("creature_wars", seed=31)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        offered = await a.abort(sa)
        assert (offered["t"], offered["seat"]) == ("abort_offered", 0)
    async with serving(redis_url) as url:  # the server after a restart: only Redis holds the offer
        b2 = await Client.connect(url)
        rb = await b2.resume(sb.room, sb.token)
        agreed = await b2.abort(rb)
        assert agreed["t"] == "view"
        over = await b2.wait_view(sa.room, lambda v: v["outcome"] is not None)
        assert over["outcome"]["reason"] == "aborted" and over["outcome"]["winner"] is None
        await b2.close()
    store = Store(redis_url)
    try:  # the offers stay out of the match record
        record = await store.match(sa.room)
        assert record is not None and not [f for f in record if f.startswith("abort:")]
        assert await store.redis.hget(keys.room(sa.room), "abort:0") == b"="
    finally:
        await store.close()


async def test_a_rematch_offer_outlives_its_server_and_asking_again_elsewhere_gets_the_same_new_room(redis_url: str) -> None:
    async with serving(redis_url) as url:
        a, b = await Client.connect(url, name="ann"), await Client.connect(url, name="bob")
        sa = await a.create("creature_wars", QUICK, seed=32)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=random.Random(32).randrange(1000))
        offered = await b.rematch(sb)
        assert (offered["t"], offered["seat"]) == ("rematch_offered", 1)
    async with serving(redis_url) as url:
        a2 = await Client.connect(url)
        ready = await a2.rematch(sa)
        assert ready["t"] == "rematch_ready" and ready["seat"] == 1
        new_room = ready["new_room"]
        listed = {r["room"]: r for r in await a2.list_rooms()}[new_room]
        assert listed["players"] == ["bob", "ann"] and listed["status"] == "playing"
        await a2.close()
    async with serving(redis_url) as url:  # bob asks on yet another server: the same new room, his seat anew
        b2 = await Client.connect(url)
        again = await b2.rematch(sb)
        assert again["t"] == "rematch_ready" and again["new_room"] == new_room and again["seat"] == 0
        seat = await b2.resume(new_room, again["token"])
        assert seat.seat == 0
        await b2.close()
