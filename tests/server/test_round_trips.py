"""Round trips to Redis to make a room, sit in it and end its match: each costs the server tens of µs of CPU
(redis-py's pool, its timeouts, parsing the reply), so a creation takes its quota place in one, stores the room (its
open-set entry and a request's key with it, on one Redis) in one, and claims each seat (the player's room set with
it) in one; nothing is read back that the node has just written (a new room's chat lines). The decision that ends a
match is stored in one, and its room leaves the open set in one more."""
from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio.connection import AbstractConnection

from client import Client
from client.connection import Seat
from server.edge.session import Session
from server.store.link import Link
from tests.server.players import keyed

_serving: contextvars.ContextVar[bool] = contextvars.ContextVar("serving", default=False)


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the round trips to Redis (each write of commands, a pipeline's and a link's included) made while the server
    (in this event loop) serves a client's message; the server's background tasks are not counted."""
    count = [0]
    send = AbstractConnection.send_packed_command
    handle = Session.handle

    async def counted(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
        if _serving.get():
            count[0] += 1
        await send(self, command, check_health)

    async def handling(self: Session, frame: str | bytes) -> None:
        token = _serving.set(True)
        try:
            await handle(self, frame)
        finally:
            _serving.reset(token)

    call = Link.call

    def counted_call(self: Link, packed: bytes, replies: int, *more: Any) -> Any:
        if _serving.get():
            count[0] += 1
        return call(self, packed, replies, *more)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    monkeypatch.setattr(Link, "call", counted_call)
    monkeypatch.setattr(Session, "handle", handling)
    return count


async def _counted(trips: list[int], step: Callable[[], Awaitable[Any]]) -> tuple[Any, int]:
    before = trips[0]
    result = await step()
    return result, trips[0] - before


async def _make_and_join(trips: list[int], host: Client, guest: Client, **fields: Any) -> tuple[int, int]:
    """The round trips of one ``create_room`` (sitting) and one ``join`` of it, after one of each loaded the scripts."""
    warm = await host.create("creature_wars")
    assert isinstance(warm, Seat)
    await guest.join(warm.room)

    async def make() -> Seat:
        made = await host.request("create_room", game="creature_wars", sit=True, nonce="n" * 16, **fields)
        return await host._granted(made["re"])

    seat, made = await _counted(trips, make)
    joining = {"request": "join-" + str(fields["request"])} if "request" in fields else {}
    joined, sat = await _counted(trips, lambda: guest.request("join", room=seat.room, nonce="m" * 16, **joining))
    assert joined["seat"] == 1
    return made, sat


async def test_guests_make_a_room_in_three_round_trips_and_join_it_in_one(server_url: str, trips: list[int]) -> None:
    """The quota's place; the room (with its open-set entry); the creator's seat. Then the guest's seat."""
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b:
        assert await _make_and_join(trips, a, b) == (3, 1)


async def test_players_with_keys_take_no_more_round_trips(server_url: str, trips: list[int]) -> None:
    """The address's and the player's quota places are taken in one round trip; each seat's claim enters the room
    in its player's room set in the same step."""
    a, _ = await keyed(server_url, "ann", "trips-ann-secret-key-0001")
    b, _ = await keyed(server_url, "bob", "trips-bob-secret-key-0002")
    async with a, b:
        assert await _make_and_join(trips, a, b) == (3, 1)


async def test_keyed_requests_take_one_more_round_trip_each(server_url: str, trips: list[int]) -> None:
    """A keyed request first reads whether it was served before; its key is then written with the room, and with the
    seat."""
    a, _ = await keyed(server_url, "ann", "trips-ann-secret-key-0001")
    b, _ = await keyed(server_url, "bob", "trips-bob-secret-key-0002")
    async with a, b:
        assert await _make_and_join(trips, a, b, request="r1") == (4, 2)


async def test_the_decision_that_ends_a_match_takes_two_round_trips(server_url: str, trips: list[int]) -> None:
    """The decision's commit; then, on one Redis in one step, the room leaving the open set with its remaining
    writes cleared (guests: no ratings to settle). A first match ended loads the scripts."""
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b:
        counted = []
        for _ in range(2):
            seat = await a.create("creature_wars")
            assert isinstance(seat, Seat)
            await b.join(seat.room)
            ended, taken = await _counted(trips, functools.partial(a.resign, seat))
            assert ended["view"]["outcome"]["reason"] == "resigned"
            counted.append(taken)
        assert counted[1] == 2
