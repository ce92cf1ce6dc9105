"""Retried create_room and join: the same request key gets the same room and seat, not a second one."""
from __future__ import annotations

import hashlib

import pytest
import redis

from client import Client, ClientError
from server.store.store import _CREATE
from tests.server.players import keyed
from tests.server.redis_proxy import ReplyDropper

ANN = "retrying-ann-secret-key-0001"
BOB = "retrying-bob-secret-key-0002"


def open_rooms(redis_url: str) -> set[bytes]:
    return redis.Redis.from_url(redis_url).smembers("cardroom:open")  # type: ignore[return-value]


async def test_a_retried_create_room_gets_the_same_room_and_seat(server_url: str, redis_url: str) -> None:
    first, _ = await keyed(server_url, "ann", ANN)
    async with first:
        made = await first.request("create_room", game="creature_wars", request="make-1")
        seat = await first._granted(made["re"])
    # the reply was "lost": the same player sends the same request again, from a new connection
    again, _ = await keyed(server_url, "ann", ANN)
    async with again:
        remade = await again.request("create_room", game="creature_wars", request="make-1")
        assert remade["room"] == made["room"] and remade["commitment"] == made["commitment"]
        reseat = await again._granted(remade["re"])
        assert (reseat.room, reseat.seat) == (seat.room, seat.seat)
        assert open_rooms(redis_url) == {made["room"].encode()}
        summary = next(r for r in await again.list_rooms() if r["room"] == made["room"])
        assert summary["taken"] == 1
        # the new token holds the seat; the one whose reply was lost no longer does
        await again.resume(reseat.room, reseat.token)
        with pytest.raises(ClientError) as old:
            await again.resume(seat.room, seat.token)
        assert old.value.code == "bad_token"
        # another request key makes another room
        other = await again.request("create_room", game="creature_wars", request="make-2")
        assert other["room"] != made["room"]


async def test_a_retried_join_gets_the_same_seat(server_url: str) -> None:
    host, _ = await keyed(server_url, "ann", ANN)
    async with host:
        seat = await host.create("creature_wars")
        assert not isinstance(seat, str)
        bob, _ = await keyed(server_url, "bob", BOB)
        async with bob:
            joined = await bob.request("join", room=seat.room, request="sit-1")
            assert joined["seat"] == 1
        bob, _ = await keyed(server_url, "bob", BOB)
        async with bob:
            again = await bob.request("join", room=seat.room, request="sit-1")  # not room_full
            assert again["seat"] == 1 and again["token"] != joined["token"]
            view = await bob.wait_view(seat.room, lambda v: True)
            if not view["legal"]:  # the host's seat moves first in this deal
                first = await host.wait_view(seat.room, lambda v: bool(v["legal"]))
                await host.decide(seat, first["legal"][0])
                view = await bob.wait_view(seat.room, lambda v: bool(v["legal"]))
            await bob.decide(type(seat)(seat.room, 1, again["token"]), view["legal"][0])
            with pytest.raises(ClientError) as elsewhere:
                await bob.request("join", room="abcdef", request="sit-1")
            assert elsewhere.value.code == "bad_field" and "sit-1" in elsewhere.value.message
    # a request key is the player's own: another player's same key is a request of its own
    cy, _ = await keyed(server_url, "cy", "retrying-cy-secret-key-0003")
    async with cy:
        with pytest.raises(ClientError) as full:
            await cy.request("join", room=seat.room, request="sit-1")
        assert full.value.code == "room_full"


async def test_a_guest_retry_counts_on_its_connection(server_url: str) -> None:
    async with await Client.connect(server_url) as guest:
        made = await guest.request("create_room", game="queens_challenge", request="g-1")
        again = await guest.request("create_room", game="queens_challenge", request="g-1")
        assert again["room"] == made["room"]
        first, second = await guest._granted(made["re"]), await guest._granted(again["re"])
        assert first.seat == second.seat == 0
    async with await Client.connect(server_url) as other:  # another connection: another scope
        fresh = await other.request("create_room", game="queens_challenge", request="g-1")
        assert fresh["room"] != made["room"]


async def test_a_create_room_whose_reply_redis_lost_is_not_made_twice(proxied: tuple[str, ReplyDropper],
                                                                      redis_url: str) -> None:
    url, proxy = proxied
    proxy.arm(hashlib.sha1(_CREATE.encode()).hexdigest().encode())  # the create script's reply is lost
    client, _ = await keyed(url, "ann", ANN)
    async with client:
        try:
            made = await client.request("create_room", game="creature_wars", request="lossy-1", sit=False)
        except ClientError as exc:
            assert exc.code == "unavailable"
            made = await client.request("create_room", game="creature_wars", request="lossy-1", sit=False)
        assert proxy.dropped == 1
        again = await client.request("create_room", game="creature_wars", request="lossy-1", sit=False)
        assert again["room"] == made["room"]
        assert open_rooms(redis_url) == {made["room"].encode()}
