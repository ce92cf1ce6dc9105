"""Player keys: names bound to keys, names normalised, a player's rooms, and scores under the bound name."""
from __future__ import annotations

import hashlib

import pytest
import redis
import redis.asyncio

from client import Client, ClientError
from server.players.identity import INDEXED, Names
from server.store import keys
from tests.server.helpers import play_out
from tests.server.players import keyed

ALICE = "alice-secret-key-0123456789"
MALLORY = "mallory-secret-key-9876543210"


async def test_a_name_is_bound_to_the_first_key_that_uses_it(server_url: str, redis_url: str) -> None:
    alice, welcome = await keyed(server_url, "Alice", ALICE)
    await alice.close()
    assert welcome["player"] == hashlib.sha256(ALICE.encode()).hexdigest()[:16] and welcome["name"] == "Alice"
    # the same key keeps the name, on any connection
    again, welcome = await keyed(server_url, "Alice", ALICE)
    await again.close()
    assert welcome["name"] == "Alice"
    # another key, or no key, may not take it (nor a case variant of it)
    for name, key in (("Alice", MALLORY), ("alice", MALLORY), ("Alice", None)):
        with pytest.raises(ClientError) as caught:
            await keyed(server_url, name, key)
        assert caught.value.code == "name_taken"
    # the key is stored only as a hash
    stored = b"".join(v for k in redis.Redis.from_url(redis_url).keys(keys.name("") + "*")
                      for v in [redis.Redis.from_url(redis_url).get(k) or b""])
    assert ALICE.encode() not in stored and stored


async def test_guests_may_use_a_free_name_or_none(server_url: str) -> None:
    guest, welcome = await keyed(server_url, "Bob")
    await guest.close()
    assert welcome["player"] is None and welcome["name"] == "Bob"
    # a guest does not bind the name: a key may still take it
    bob, welcome = await keyed(server_url, "Bob", ALICE)
    await bob.close()
    assert welcome["name"] == "Bob"
    nobody, welcome = await keyed(server_url, "")
    await nobody.close()
    assert welcome["player"] is None and welcome["name"] == ""


@pytest.mark.parametrize("name", ["ali\u202ece", "tab\there", "a\u200bb", "W" * 25, "名" * 13])
async def test_bad_names_are_refused(server_url: str, name: str) -> None:
    with pytest.raises(ClientError) as caught:
        await keyed(server_url, name, ALICE)
    assert caught.value.code == "bad_name"


async def test_names_are_normalised(server_url: str) -> None:
    client, welcome = await keyed(server_url, "  Zoe\u0301  ", ALICE)
    await client.close()
    assert welcome["name"] == "Zo\u00e9"
    # a 24-column name is allowed, wide characters counting two
    client, welcome = await keyed(server_url, "名" * 12, MALLORY)
    await client.close()
    assert welcome["name"] == "名" * 12


async def test_a_short_key_is_a_bad_field(server_url: str) -> None:
    with pytest.raises(ClientError) as caught:
        await keyed(server_url, "Carol", "short")
    assert caught.value.code == "bad_field" and "key" in caught.value.message


async def test_my_rooms_lists_the_rooms_a_key_holds_seats_in(server_url: str) -> None:
    alice, _ = await keyed(server_url, "Alice", ALICE)
    bob, _ = await keyed(server_url, "Bob", MALLORY)
    try:
        mine = await alice.create("creature_wars", seed=1)
        theirs = await bob.create("creature_wars", seed=2)
        assert not isinstance(mine, str) and not isinstance(theirs, str)
        joined = await alice.join(theirs.room)
        await bob.create("fairy_meat", seed=3)
    finally:
        await alice.close()
    # a new connection with the same key finds both rooms, and which seat it holds in each
    again, _ = await keyed(server_url, "Alice", ALICE)
    guest = await Client.connect(server_url)
    try:
        rooms = (await again.request("my_rooms"))["rooms"]
        assert {(r["room"], r["seat"]) for r in rooms} == {(mine.room, 0), (theirs.room, joined.seat)}
        assert all(r["game"] == "creature_wars" and "status" in r for r in rooms)
        assert (await guest.request("my_rooms"))["rooms"] == []
    finally:
        await again.close()
        await guest.close()
        await bob.close()


async def test_solitaire_scores_go_under_the_bound_name_only_with_a_key(server_url: str) -> None:
    alice, _ = await keyed(server_url, "Alice", ALICE)
    guest, _ = await keyed(server_url, "Gus")
    try:
        rooms = {}
        for client, seed in ((alice, 1), (guest, 2)):
            seat = await client.create("fairy_tableau")
            assert not isinstance(seat, str)
            await play_out(client, seat, seed)
            rooms[seat.room] = client
        entries = (await alice.request("scores", game="fairy_tableau"))["entries"]
        names = {e["room"]: e["name"] for e in entries}
        assert {names[room] for room, c in rooms.items() if c is alice} == {"Alice"}
        assert {names[room] for room, c in rooms.items() if c is guest} == {"guest"}
    finally:
        await alice.close()
        await guest.close()


@pytest.mark.parametrize("lookalike", ["\u0430lice", "aIice", "a1ice", "\u0430\u0406ice", "\uff41\uff4c\uff49\uff43\uff45"])
async def test_a_name_that_looks_like_a_bound_one_is_refused(server_url: str, lookalike: str) -> None:
    """Cyrillic a (U+0430) for a, capital I or 1 for l, full-width letters: the same UTS #39 skeleton as a bound name."""
    alice, _ = await keyed(server_url, "alice", ALICE)
    await alice.close()
    for key in (MALLORY, None):
        with pytest.raises(ClientError) as caught:
            await keyed(server_url, lookalike, key)
        assert caught.value.code == "name_taken" and "'alice'" in caught.value.message
    # the key that holds the name may use a look-alike of its own
    again, welcome = await keyed(server_url, lookalike, ALICE)
    await again.close()
    assert welcome["name"] == lookalike


async def test_names_that_merely_differ_are_not_confused(server_url: str) -> None:
    for name, key in (("ian", ALICE), ("lan", MALLORY)):
        client, welcome = await keyed(server_url, name, key)
        await client.close()
        assert welcome["name"] == name


async def test_a_name_bound_before_lookalikes_were_checked_is_found_by_its_skeleton(server_url: str, redis_url: str) -> None:
    """Names bound by an older server (only ``name:{casefolded}``) are indexed by skeleton at start."""
    r = redis.Redis.from_url(redis_url)
    r.set(keys.name("alice"), hashlib.sha256(f"cardroom:name-key:{ALICE}".encode()).hexdigest())
    r.delete(INDEXED)  # as an older server left Redis
    await Names(redis.asyncio.Redis.from_url(redis_url)).index_skeletons()
    assert r.exists(INDEXED)
    with pytest.raises(ClientError) as caught:
        await keyed(server_url, "\u0430lice", MALLORY)
    assert caught.value.code == "name_taken"
    # the old binding keeps working
    client, welcome = await keyed(server_url, "alice", ALICE)
    await client.close()
    assert welcome["name"] == "alice"
