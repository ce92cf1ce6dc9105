"""The URL that names a node for a proxy that routes by node (client/routing.py), and the link's decision to
connect again to its room's node: once per room and node, only when the connection reached another node."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from textual.message import Message

from client.link import Link
from client.routing import routed


def test_routed_sets_the_node_parameter_and_keeps_the_rest() -> None:
    assert routed("ws://proxy:8765", "server2") == "ws://proxy:8765/?node=server2"
    assert routed("ws://proxy:8765/", "a b") == "ws://proxy:8765/?node=a+b"
    assert routed("wss://play.example/ws?x=1&node=old", "new") == "wss://play.example/ws?x=1&node=new"
    assert routed("ws://proxy:8765/?node=old", "") == "ws://proxy:8765/?node=old"


class FakeSocket:
    def __init__(self) -> None:
        self.closed = 0

    async def close(self) -> None:
        self.closed += 1


def _link_on(node: str) -> tuple[Link, FakeSocket, list[Message]]:
    posted: list[Message] = []
    link = Link("ws://127.0.0.1:9", "ada", posted.append)
    ws = FakeSocket()
    fake: Any = SimpleNamespace(node=node, ws=ws, proxied=True)
    link.client = fake
    return link, ws, posted


def _granted(room: str, node: str | None) -> dict[str, Any]:
    message: dict[str, Any] = {"t": "seat_granted", "room": room, "seat": 1, "token": "tok", "game": "fairy_meat", "re": 2}
    if node is not None:
        message["node"] = node
    return message


async def test_a_seat_on_another_node_makes_the_link_connect_again_naming_it_once() -> None:
    link, ws, _ = _link_on("B")
    link.handle(_granted("r1", "A"))
    await asyncio.sleep(0)
    assert (link.route, link.rerouting, ws.closed) == ("A", True, 1)
    link.rerouting = False  # connected again; the same room on the same node never moves it twice
    link.handle(_granted("r1", "A"))
    await asyncio.sleep(0)
    assert ws.closed == 1


async def test_a_seat_on_this_node_or_from_a_server_that_names_none_leaves_the_link_where_it_is() -> None:
    link, ws, _ = _link_on("A")
    link.handle(_granted("r1", "A"))
    link.handle(_granted("r2", None))
    link.handle({"t": "spectating", "room": "r3", "game": "fairy_meat", "commitment": "c", "re": 3, "node": "A"})
    await asyncio.sleep(0)
    assert (link.route, link.rerouting, ws.closed) == ("", False, 0)
    link.routing = False  # this address did not route by node before: the link stays, relayed
    link.handle(_granted("r4", "C"))
    await asyncio.sleep(0)
    assert ws.closed == 0
