"""The lobby listing in pages (filters, cursor, limit), summaries kept until they change, and waiting rooms per player."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

import server.edge.admission
import server.lobby.quota
from client import Client, ClientError
from client.connection import Seat
from server.rooms.room import Room
from tests.server.players import keyed


@pytest.fixture
def roomy(monkeypatch: pytest.MonkeyPatch) -> None:
    """One address may make and hold many rooms here."""
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 1000)
    monkeypatch.setattr(server.lobby.quota, "WAITING", 1000)


async def all_pages(client: Client, **fields: Any) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor = None
    while True:
        reply = await client.request("list_rooms", **fields, **({"cursor": cursor} if cursor else {}))
        pages.append([r["room"] for r in reply["rooms"]])
        cursor = reply["next"]
        if cursor is None:
            return pages


async def test_list_rooms_pages_in_creation_order(server_url: str, roomy: None) -> None:
    async with await Client.connect(server_url) as a:
        # the solitaires dealt from seed 1, a deal not lost at once (about one random deal in 80 is: "over" at once)
        made = [await (a.create("fairy_tableau", sit=False, seed=1) if n % 2 else a.create("creature_wars", sit=False))
                for n in range(7)]
        assert await all_pages(a, limit=3) == [made[0:3], made[3:6], made[6:7]]
        odd = [r for n, r in enumerate(made) if n % 2]
        assert await all_pages(a, game="fairy_tableau", limit=2) == [odd[0:2], odd[2:3]]
        await a.join(str(made[0]))
        await a.join(str(made[1]))  # a solitaire: playing once seated
        playing = await a.request("list_rooms", status="playing")
        assert [r["room"] for r in playing["rooms"]] == [made[1]] and playing["next"] is None
        waiting = await a.request("list_rooms", status="waiting", game="creature_wars")
        assert [r["room"] for r in waiting["rooms"]] == [made[0], made[2], made[4], made[6]]


async def test_the_default_page_holds_fifty_rooms(server_url: str, roomy: None) -> None:
    async with await Client.connect(server_url) as a:
        for _ in range(52):
            await a.create("queens_challenge", sit=False)
        first = await a.request("list_rooms")
        assert len(first["rooms"]) == 50 and first["next"] is not None
        rest = await a.request("list_rooms", cursor=first["next"])
        assert len(rest["rooms"]) == 2 and rest["next"] is None
        assert len(await a.list_rooms()) == 50  # the client library fetches the first page


@pytest.mark.parametrize(("fields", "named"), [
    ({"limit": 0}, "limit"), ({"limit": 201}, "limit"), ({"status": "lost"}, "status"), ({"cursor": "nonsense"}, "cursor"),
])
async def test_bad_listing_fields_are_refused(server_url: str, fields: dict[str, Any], named: str) -> None:
    async with await Client.connect(server_url) as a:
        with pytest.raises(ClientError) as refused:
            await a.request("list_rooms", **fields)
        assert refused.value.code == "bad_field" and named in refused.value.message


async def test_a_summary_is_rebuilt_only_when_its_room_changed(server_url: str, roomy: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    summary = Room.summary

    def counting(room: Room) -> dict[str, Any]:
        built.append(room.id)
        return summary(room)

    monkeypatch.setattr(Room, "summary", counting)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        seat = await a.create("fairy_tableau", seed=1)  # a deal with a move (a random one is lost at once now and then)
        assert isinstance(seat, Seat)
        for _ in range(5):
            await a.create("queens_challenge", sit=False)
        await a.list_rooms()
        built.clear()
        for _ in range(3):
            await a.list_rooms()
        assert built == []  # nothing changed: no summary (nor view) built
        await a.decide(seat, a.views[seat.room]["legal"][0])
        await b.spectate(seat.room)
        rooms = await a.list_rooms()
        assert built == [seat.room]
        mine = next(r for r in rooms if r["room"] == seat.room)
        assert mine["version"] == a.versions[seat.room] and mine["spectators"] == 1


async def test_waiting_rooms_are_capped_per_player(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cap of waiting rooms, a player is refused even when each room comes from another address."""
    monkeypatch.setattr(server.lobby.quota, "WAITING", 2)
    counter = itertools.count()
    monkeypatch.setattr(server.edge.admission, "address", lambda ws: f"10.0.0.{next(counter)}")
    key = "waiting-cap-secret-key-0001"
    for _ in range(2):
        client, _ = await keyed(server_url, "wes", key)
        async with client:
            await client.create("creature_wars")
    last, _ = await keyed(server_url, "wes", key)
    async with last:
        with pytest.raises(ClientError) as refused:
            await last.create("creature_wars")
        assert refused.value.code == "too_many_rooms" and "you hold 2 rooms" in refused.value.message
    async with await Client.connect(server_url) as guest:
        await guest.create("creature_wars")  # another address, no key: not counted against the player
