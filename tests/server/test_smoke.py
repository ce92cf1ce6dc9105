"""The server answers hello and lists rooms over a real websocket."""
from __future__ import annotations

from client import Client


async def test_create_and_list(server_url: str) -> None:
    async with await Client.connect(server_url, name="a") as a:
        seat = await a.create("creature_wars", seed=1)
        rooms = await a.list_rooms()
        assert [r["room"] for r in rooms] == [seat.room]
        assert rooms[0]["taken"] == 1 and rooms[0]["status"] == "waiting"
