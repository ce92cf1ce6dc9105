"""Players routed to their room's node: behind a real HAProxy configured as deploy/haproxy.cfg, a client told that its
room is on another node connects again naming it, and nothing of its match is relayed between nodes (counted by
every node's ``cardroom_relayed_frames_total``); without routing the same match is relayed. Offers to abort or
rematch are stored with the room: the other seat's accept completes them on the node the room moved to."""
from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.message import Message

from client import Client
from client.connection import Seat
from client.link import Link
from client.messages import Connected, Disconnected, SeatGranted
from client.routing import routed, spectate_on_owner, to_owner
from tests.server.haproxy import haproxy, haproxy_binary, relayed_frames
from tests.server.helpers import play_to_end, play_turn
from tests.server.nodes import Start, nodes, on_node, resume_on
from tests.server.servers import QUICK

pytestmark = pytest.mark.slow  # real nodes behind a real HAProxy, killed and started: the slow suite's


@pytest.fixture
async def trusting(redis_url: str, repo_root: Path) -> AsyncIterator[Start]:
    """Nodes that believe the proxy's PROXY header (it is on loopback, as the tests are)."""
    async with nodes(redis_url, repo_root, ("--trusted-proxy", "127.0.0.1")) as start:
        yield start


def _relayed(urls: list[str]) -> float:
    return sum(relayed_frames(url) for url in urls)


async def _settled(urls: list[str]) -> float:
    """The relayed frames of every node, once frames in flight between nodes have arrived."""
    await asyncio.sleep(0.5)
    return await asyncio.to_thread(_relayed, urls)


async def _relayed_in_a_match(proxy: str, urls: list[str], routing: bool, seed: int) -> float:
    """Frames relayed between nodes while two players and a spectator, who reached the nodes A and B through the
    proxy, play a match node A owns (``routing``: after those on B connected again to A, as the replies told them)."""
    host = await Client.connect(routed(proxy, "A"))  # the room's maker, on the node that makes it
    guest = await Client.connect(routed(proxy, "B"))  # the other player reached the other node
    fan = await Client.connect(routed(proxy, "B"))
    assert (host.node, guest.node, fan.node) == ("A", "B", "B")
    assert host.proxied and guest.proxied and fan.proxied  # the nodes trust the proxy's PROXY header
    sa = await host.create("creature_wars", QUICK, seed=seed)
    assert isinstance(sa, Seat) and sa.node == "A"
    sb = await guest.join(sa.room)
    assert sb.node == "A"  # answered by the owner, through the relay
    if routing:
        guest, sb = await to_owner(guest, sb)
        fan, shown = await spectate_on_owner(fan, sa.room)
        assert guest.node == fan.node == "A" and shown["node"] == "A"
    else:
        assert (await fan.spectate(sa.room))["node"] == "A"
    before = await _settled(urls)
    await play_to_end([(host, sa), (guest, sb)], seed=seed)
    final = host.versions[sa.room]
    await fan.wait_for(lambda: fan.versions.get(sa.room) == final and sa.room in fan.over)
    relayed = await _settled(urls) - before
    for client in (host, guest, fan):
        await client.close()
    return relayed


@contextlib.asynccontextmanager
async def behind_proxy(trusting: Start, repo_root: Path, tmp_path: Path) -> AsyncIterator[tuple[str, Any, str, str]]:
    """Nodes A and B behind a real HAProxy routing by node: the proxy's URL, A's process, A's and B's URLs."""
    binary = haproxy_binary()
    proc_a, url_a = await trusting("A")
    _, url_b = await trusting("B")
    async with haproxy(binary, repo_root, tmp_path, {"A": url_a, "B": url_b}) as proxy:
        yield proxy, proc_a, url_a, url_b


async def test_players_and_spectators_routed_to_the_owner_are_not_relayed(trusting: Start, repo_root: Path,
                                                                         tmp_path: Path) -> None:
    async with behind_proxy(trusting, repo_root, tmp_path) as (proxy, _, url_a, url_b):
        urls = [url_a, url_b]
        assert await _relayed_in_a_match(proxy, urls, routing=False, seed=3) > 0  # else the routed case proves nothing
        assert await _relayed_in_a_match(proxy, urls, routing=True, seed=4) == 0


async def test_the_terminal_clients_link_moves_to_its_rooms_node_by_itself(trusting: Start, repo_root: Path,
                                                                          tmp_path: Path) -> None:
    async with behind_proxy(trusting, repo_root, tmp_path) as (proxy, _, _, _):
        host = await Client.connect(routed(proxy, "A"))
        sa = await host.create("creature_wars", seed=9)
        assert isinstance(sa, Seat)
        posted: list[Message] = []
        link = Link(routed(proxy, "B"), "bob", posted.append, delays=(0.05,))
        running = asyncio.create_task(link.run())
        try:
            async with asyncio.timeout(10):
                while link.client is None:
                    await asyncio.sleep(0.02)
                assert link.client.node == "B"
                await link.join(sa.room)
                while link.client is None or link.client.node != "A" or sum(isinstance(m, SeatGranted) for m in posted) < 2:
                    await asyncio.sleep(0.02)
            assert link.seats[sa.room].seat == 1 and link.watching == {sa.room: True}
            assert [type(m) for m in posted if isinstance(m, Connected | Disconnected)] == [Connected]  # moved quietly
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await running
            await host.close()


async def test_a_connection_naming_a_node_that_is_down_is_balanced(trusting: Start, repo_root: Path,
                                                                   tmp_path: Path) -> None:
    async with behind_proxy(trusting, repo_root, tmp_path) as (proxy, proc_a, _, url_b):
        async with await Client.connect(routed(proxy, "nobody")) as unknown:
            assert unknown.node in ("A", "B")
        async with await Client.connect(url_b) as direct:
            assert direct.node == "B" and not direct.proxied  # not through the proxy: no routing to expect
        proc_a.kill()
        proc_a.wait()
        await asyncio.sleep(1.0)  # two failed checks, 200 ms apart
        async with await Client.connect(routed(proxy, "A")) as fallen:
            assert fallen.node == "B"


async def test_an_abort_offered_before_its_owner_died_is_completed_on_the_node_the_room_moved_to(node: Start) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    a = await Client.connect(url_a)
    sa = await a.create("creature_wars", seed=21)
    assert isinstance(sa, Seat)
    b1 = await Client.connect(url_b)
    sb = await b1.join(sa.room)
    assert sb.node == "A"
    offered = await a.abort(sa)
    assert offered["t"] == "abort_offered" and offered["seat"] == 0
    proc_a.kill()  # the offer's node dies; the offer is in Redis
    proc_a.wait()
    await asyncio.wait_for(b1.ws.wait_closed(), 10)
    b2, rb = await resume_on(url_b, sb)
    assert rb.node == "B"
    agreed = await b2.abort(rb)
    assert agreed["t"] == "view"
    over = await b2.wait_view(sa.room, lambda v: v["outcome"] is not None)
    assert over["outcome"]["reason"] == "aborted"
    await b2.close()
    await a.close()


async def test_a_rematch_offered_before_its_node_died_is_completed_on_another(node: Start) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    a = await Client.connect(url_a, name="ann")
    sa = await a.create("creature_wars", QUICK, seed=22)
    assert isinstance(sa, Seat)
    b1 = await Client.connect(url_b, name="bob")
    sb = await b1.join(sa.room)
    await play_to_end([(a, sa), (b1, sb)], seed=random.Random(22).randrange(1000))
    await b1.wait_view(sa.room, lambda v: v["outcome"] is not None)
    offered = await a.rematch(sa)
    assert offered["t"] == "rematch_offered" and offered["seat"] == 0
    proc_a.kill()
    proc_a.wait()
    await asyncio.wait_for(b1.ws.wait_closed(), 10)
    b2, _ = await resume_on(url_b, sb)
    ready = await b2.rematch(sb)
    assert ready["t"] == "rematch_ready" and ready["node"] == "B" and ready["seat"] == 0
    new_room = ready["new_room"]
    a2, again = await on_node(url_b, lambda client: client.rematch(sa))  # ann asks on the node alive: same new room
    assert again["t"] == "rematch_ready" and again["new_room"] == new_room and again["seat"] == 1
    players = [(b2, Seat(new_room, 0, ready["token"])), (a2, Seat(new_room, 1, again["token"]))]
    for client, _ in players:
        await client.wait_view(new_room, lambda v: v["outcome"] is None)
    await play_turn(players, random.Random(5))  # both tokens decide in the new room
    await b2.wait_for(lambda: b2.versions.get(new_room, 0) >= 1)
    for client in (a, b2, a2):
        await client.close()
