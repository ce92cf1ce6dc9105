"""A Redis outage: every request that needs the store answers `unavailable` (never `internal`), at once once the
outage is known; /health says degraded; everything serves again when Redis is back; a server started before
Redis waits for it."""
from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest

from client import Client, ClientError
from server.edge.app import run
from tests.server.redis_proxy import ReplyDropper
from tests.server.servers import stopped


def health(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url.replace("ws://", "http://") + "/health", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def poll_health(url: str, status: int) -> str:
    for _ in range(100):
        code, text = await asyncio.to_thread(health, url)
        if code == status:
            return text
        await asyncio.sleep(0.1)
    raise AssertionError(f"/health never answered {status}")


async def test_requests_during_an_outage_are_unavailable(proxied: tuple[str, ReplyDropper]) -> None:
    url, proxy = proxied
    async with await Client.connect(url) as player:
        seat = await player.create("queens_challenge", seed=4)
        assert not isinstance(seat, str)
        proxy.go_down()
        for request in (player.create("creature_wars"), player.request("scores", game="queens_challenge")):
            with pytest.raises(ClientError) as failed:
                await request
            assert failed.value.code == "unavailable"
        assert "degraded" in await poll_health(url, 503)
        with pytest.raises(ClientError) as fast:  # known down: refused without asking Redis
            await player.resume(seat.room, seat.token)
        assert fast.value.code == "unavailable" and "store" in fast.value.message
        assert isinstance(await player.list_rooms(), list)  # memory-only requests still served
        proxy.down = False
        assert (await poll_health(url, 200)).startswith("ok\nnode ")
        again = await player.resume(seat.room, seat.token)
        assert again.seat == seat.seat
        assert not isinstance(await player.create("creature_wars"), str)


async def test_a_server_started_before_redis_waits_for_it(redis_url: str) -> None:
    port = urlsplit(redis_url).port
    assert port is not None
    proxy = ReplyDropper(port)
    proxy_port = await proxy.start()
    proxy.go_down()
    ready: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=f"redis://127.0.0.1:{proxy_port}/0",
                                   ready=ready, stop=stop))
    try:
        await asyncio.sleep(1.0)
        assert not ready.done() and not task.done()  # waiting, not crashed
        proxy.down = False
        host, server_port = await asyncio.wait_for(ready, 15)
        async with await Client.connect(f"ws://{host}:{server_port}") as player:
            assert not isinstance(await player.create("queens_challenge"), str)
    finally:
        stop.set()
        if ready.done():
            await stopped(task)
        else:
            task.cancel()
        await proxy.close()


CHANNELS = ("cardroom:listing", "cardroom:relay:{node}", "cardroom:paired:{node}")
"""What a node follows: the lobby across nodes, requests relayed to it, pairings made for its players."""


async def test_an_outage_breaks_each_subscription_once_in_the_log_and_they_come_back(
        proxied: tuple[str, ReplyDropper], caplog: pytest.LogCaptureFixture) -> None:
    """Each subscription of the node (CHANNELS) is made again every half second during an outage: the log
    says so once per channel, and once more when each stands again, not once per attempt."""
    url, proxy = proxied
    caplog.set_level("INFO", logger="server.cluster.channel")
    proxy.go_down()
    assert "degraded" in await poll_health(url, 503)
    await asyncio.sleep(2)  # several attempts to subscribe again
    proxy.down = False
    node = (await poll_health(url, 200)).split("\n")[1].removeprefix("node ")
    for _ in range(300):  # each waits up to a second between attempts, and a refresh of the listing may be due
        if sum(r.getMessage().startswith("subscribed to") for r in caplog.records) == len(CHANNELS):
            break
        await asyncio.sleep(0.05)
    messages = [r.getMessage() for r in caplog.records if r.name == "server.cluster.channel"]
    assert sorted(m.split(" (")[0] for m in messages if "broke" in m) == sorted(
        f"the subscription to {channel.format(node=node)} broke" for channel in CHANNELS)
    assert len([m for m in messages if m.startswith("subscribed to")]) == len(CHANNELS)


async def test_a_subscription_stands_only_once_redis_confirms_it(proxied: tuple[str, ReplyDropper],
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A Redis that takes the connection and the SUBSCRIBE and then cuts it unanswered has not subscribed anyone:
    the log says each subscription broke once, and stands again only when it truly does."""
    url, proxy = proxied
    caplog.set_level("INFO", logger="server.cluster.channel")
    proxy.go_down()
    assert "degraded" in await poll_health(url, 503)
    proxy.mute = True  # every attempt to subscribe again is sent, and cut
    await asyncio.sleep(3)
    messages = [r.getMessage() for r in caplog.records if r.name == "server.cluster.channel"]
    assert not [m for m in messages if m.startswith("subscribed to")], "a subscription nobody confirmed was taken to stand"
    assert len([m for m in messages if "broke" in m]) == len(CHANNELS), "each subscription broke once"
    proxy.mute = proxy.down = False
    for _ in range(300):
        if sum(r.getMessage().startswith("subscribed to") for r in caplog.records) == len(CHANNELS):
            break
        await asyncio.sleep(0.05)
    messages = [r.getMessage() for r in caplog.records if r.name == "server.cluster.channel"]
    assert len([m for m in messages if m.startswith("subscribed to")]) == len(CHANNELS)
    assert len([m for m in messages if "broke" in m]) == len(CHANNELS)


async def test_no_request_meets_a_connection_the_outage_broke(proxied: tuple[str, ReplyDropper]) -> None:
    """Connections to Redis left idle across an outage are broken; once Redis is back, no request is answered
    `unavailable` for meeting one of them."""
    url, proxy = proxied
    async with await Client.connect(url) as player:
        seat = await player.create("queens_challenge", seed=4)
        assert not isinstance(seat, str)
        players = [await Client.connect(url) for _ in range(8)]
        try:
            # many requests at once leave many idle connections in the server's pool
            await asyncio.gather(*(p.request("scores", game="queens_challenge") for p in players for _ in range(4)))
            proxy.go_down()
            assert "degraded" in await poll_health(url, 503)
            proxy.down = False
            await poll_health(url, 200)
            replies = await asyncio.gather(*(p.request("scores", game="queens_challenge") for p in players for _ in range(4)),
                                           return_exceptions=True)
            assert [r for r in replies if isinstance(r, Exception)] == []
            again = await player.resume(seat.room, seat.token)
            assert again.room == seat.room
        finally:
            for p in players:
                await p.close()
