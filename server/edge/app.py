"""The server shell: websockets serve loop, health endpoint, graceful SIGTERM, embedded Redis."""
from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from client.browser import ROOT as BROWSER_CLIENT
from protocol.messages import MAX_FRAME
from server.cluster import channel
from server.cluster.directory import Directory
from server.cluster.relay import Relay
from server.edge import exposure, forwarded
from server.edge.admission import PER_ADDRESS, Admission
from server.edge.computer import GAMES, LEVELS, ComputerPool
from server.edge.connection import WRITE_LIMIT, socket_class
from server.edge.lane import Lane
from server.edge.pages import Pages
from server.edge.session import Session
from server.lobby.events import Events
from server.lobby.expiry import Sweeper, unplayed
from server.lobby.lobby import Lobby
from server.lobby.pools import Pools
from server.ops import collector, descriptors, interpreter, logs, metrics
from server.rooms.clock import heartbeat
from server.store.health import Health, wait_for_store
from server.store.lease import new_node_id
from server.store.redis_process import RedisProcess
from server.store.store import Store

__all__ = ["Companions", "run", "serve_forever"]

Companions = Callable[[str, asyncio.Event], Awaitable[None]]
"""What runs beside the server once it listens (``serve --bots``: bots that are clients of it), given its
URL and the stop event."""

log = logging.getLogger("cardroom")


async def run(
    *,
    host: str,
    port: int,
    redis_url: str,
    ready: asyncio.Future[tuple[str, int]] | None = None,
    stop: asyncio.Event | None = None,
    per_address: int = PER_ADDRESS,
    origins: Sequence[str] = (),
    allow_plain: bool = False,
    companions: Companions | None = None,
    node: str = "",
    trusted_proxies: Sequence[str] = (),
    replicas: int = 0,
) -> None:
    """Serve until ``stop`` is set (or SIGTERM/SIGINT), with rooms reloaded from Redis first; websockets from
    web pages only of ``origins``; plain ws:// beyond loopback only with ``allow_plain``; the client's address
    from a PROXY or X-Forwarded-For header only of ``trusted_proxies`` (addresses or networks); a decision acknowledged
    only once ``replicas`` replicas of its Redis primary confirm it."""
    trusted = forwarded.Trusted(trusted_proxies)
    exposure.check_bind(host, allow_plain)
    store = Store(redis_url, replicas)
    await wait_for_store(store)
    health = Health(store)
    health.start()
    lobby = Lobby(store, health, node or new_node_id(port))
    lane = Lane()
    await lobby.leases.beat()  # alive before it serves: other nodes end what relays through a node not alive
    restored = await lobby.restore()
    relay: Relay = Relay(lobby, lambda peer, address, name, player, scope:
                         Session.stand_in(lobby, relay, peer, address, name, player, scope, lane))
    lobby.sweeps.append(relay.sweep)
    await relay.start()
    directory = lobby.directory = Directory(lobby)
    await directory.start()
    metrics.ROOMS.lobbies.add(lobby)
    stop = stop or asyncio.Event()
    beating = asyncio.create_task(heartbeat(store, stop))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)

    admission = Admission(per_address, trusted)
    computers = ComputerPool()
    computers.unseated = functools.partial(unplayed, lobby)
    pools = Pools(lobby, computers, GAMES, LEVELS)
    events = Events(lobby)
    lobby.serving_players = lambda: bool(admission.open or relay.stand_ins)
    accepted = exposure.origins(origins)
    pages = Pages(BROWSER_CLIENT)

    def process_request(connection: ServerConnection, request: Request) -> Response | None:
        if request.path == "/health":
            if not health.up:
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "degraded: redis does not answer\n")
            return connection.respond(HTTPStatus.OK, f"ok\nnode {lobby.leases.node}\nrooms {' '.join(lobby.owned())}\n")
        if request.path == "/metrics":
            response = connection.respond(HTTPStatus.OK, metrics.scrape().decode())
            response.headers["Content-Type"] = CONTENT_TYPE_LATEST
            return response
        page = pages.respond(request)
        if page is not None:
            return page
        origin = request.headers.get("Origin")
        if exposure.foreign(origin, accepted) and not exposure.same_origin(origin, request.headers.get("Host")):
            metrics.REFUSED.labels("origin").inc()
            return connection.respond(HTTPStatus.FORBIDDEN, f"Invalid Origin header: {origin}\n")
        return admission.check(connection, request)

    async def handler(ws: ServerConnection) -> None:
        peer = admission.enter(ws)
        metrics.CONNECTIONS.inc()
        try:
            await Session.over(ws, lobby, relay, computers, pools, events, lane).run()
        finally:
            metrics.CONNECTIONS.dec()
            admission.leave(peer)

    # websockets closes a connection on frames over max_size; below that, oversize frames get an error reply;
    # origins are checked in process_request (the node's own page is of its own origin, whatever the address)
    async with serve(handler, host, port, process_request=process_request, max_size=MAX_FRAME * 16, compression=None,
                     create_connection=socket_class(trusted), write_limit=WRITE_LIMIT) as server:
        sock = next(iter(server.sockets))
        bound = sock.getsockname()[:2]
        log.info("cardroom serving on ws://%s:%s (%d rooms restored, redis %s, trusted proxies %s)", bound[0], bound[1],
                 restored, redis_url, ", ".join(str(n) for n in trusted.networks) or "none")
        print(f"cardroom: serving on ws://{bound[0]}:{bound[1]} ({restored} rooms restored); "
              f"in a browser: http://{_dial(bound[0])}:{bound[1]}/", flush=True)
        if ready is not None:
            ready.set_result((bound[0], bound[1]))
        computers.url = f"ws://{_dial(bound[0])}:{bound[1]}"
        sweeper = asyncio.create_task(Sweeper(lobby).run(stop))
        descriptors_watch = asyncio.create_task(descriptors.watch(stop))
        collecting = asyncio.create_task(collector.watch(stop))
        keeper = asyncio.create_task(lobby.keep(stop))
        pairing = asyncio.create_task(pools.run(stop))
        stepping = asyncio.create_task(events.run(stop))
        told = asyncio.create_task(channel.follow(store.redis, pools.channel, pools.receive, subscribed=pools.check,
                                                  broken=lambda: None, pause=0.5, every=2.0, tick=pools.check))
        beside = asyncio.ensure_future(companions(computers.url, stop)) if companions else None
        await stop.wait()
        await sweeper
        await descriptors_watch
        await collecting
        await keeper
        await pairing
        await stepping
        await channel.cancel([told])
        with contextlib.suppress(Exception):  # a stopped node gives its rooms up: another may take them at once
            await lobby.leases.retire(lobby.owned())
        await computers.stop()
        if beside is not None:
            beside.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beside
        if lobby.warming is not None:
            lobby.warming.cancel()
        await relay.stop()
        await directory.stop()
    await beating
    metrics.ROOMS.lobbies.discard(lobby)
    await health.stop()
    await store.close()


def _dial(host: str) -> str:
    """The address a client on this machine reaches a server bound to ``host`` at."""
    return "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)


def serve_forever(*, host: str, port: int, redis_url: str | None, data_dir: str, per_address: int = PER_ADDRESS,
                  origins: Sequence[str] = (), allow_plain: bool = False, companions: Companions | None = None,
                  node: str = "", trusted_proxies: Sequence[str] = (), replicas: int = 0) -> None:
    """``cardroom serve``: use ``redis_url``, or start the embedded redis-server in ``data_dir``."""
    exposure.check_bind(host, allow_plain)
    logs.configure(os.environ.get("CARDROOM_LOG", "INFO"))
    embedded: RedisProcess | None = None
    if redis_url is None:
        embedded = RedisProcess(Path(data_dir) / "redis", unix_socket=True).start()
        redis_url = embedded.local_url
        print(f"cardroom: embedded redis-server (append-only, fsync always) in {embedded.data_dir}", flush=True)
    collector.tune()
    slow = interpreter.note()
    if slow is not None:
        print(slow, file=sys.stderr, flush=True)
    try:
        _run_loop(run(host=host, port=port, redis_url=redis_url, per_address=per_address, origins=origins,
                      allow_plain=allow_plain, companions=companions, node=node, trusted_proxies=trusted_proxies,
                      replicas=replicas))
    finally:
        if embedded is not None:
            embedded.stop()


def _run_loop(main: Any) -> None:
    try:
        import uvloop

        uvloop.run(main)
    except ImportError:
        asyncio.run(main)
