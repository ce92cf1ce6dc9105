"""Any node serves any room: a request about a room another node owns is relayed to that node over Redis
pub/sub, and what the room sends back is relayed to the client's websocket.

Each node listens on its own channel (``cardroom:relay:{node}``). A session whose client asks about a room
that another node holds the lease of publishes the request, as it came, on the owner's channel. The owner
serves it with a stand-in session whose peer (:class:`Relayed`) watches the room like any connection; every
frame the room sends that peer goes back on the origin's channel, to the client's websocket. The replies that
seat or show a room name its owner (``node``), so that a client behind a proxy that routes by node may connect
to the owner itself (deploy/haproxy.cfg): the relay is then the fallback, not the norm.

Pub/sub rather than streams: the room's truth is already in Redis and every frame derives from it, so
nothing relayed needs storing or trimming. A frame lost with a broken subscription is repaired the way a
dropped connection is: the connections relayed through the broken link are dropped, and their clients
reconnect and resume (with their seat tokens; decisions carry versions, so a retry is never applied twice).
One writer task publishes a node's outgoing batches in order, so a link's frames arrive in the order sent.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import msgpack

from server.cluster import channel
from server.ops import metrics
from server.rooms.peer import Peer
from server.store import pubsub

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby

__all__ = ["ROUTED", "Relay", "Relayed"]

log = logging.getLogger(__name__)
CHANNEL = "cardroom:relay:"
"""``cardroom:relay:{node}``: what other nodes send this node."""
ROUTED = frozenset({"join", "resume", "spectate", "decide", "resign", "abort", "cancel", "chat", "rematch", "leave",
                    "export", "view", "replay"})
"""Requests about one room (its ``room`` field): served by the node that owns it."""
OWNER_FRAMES = metrics.RELAYED_FRAMES.labels("owner")
ORIGIN_FRAMES = metrics.RELAYED_FRAMES.labels("origin")
BACKLOG = 256
"""Requests a stand-in session may have waiting before its link is dropped (the origin rate-limits them)."""
RESUBSCRIBE = 0.5
"""Seconds before a broken subscription is made again."""


class Relayed(Peer):
    """A client of another node, as the node that owns its room sees it: frames sent to it go back to that
    node, and dropping it drops the client there."""

    def __init__(self, relay: Relay, origin: str, link: str, on_drop: Callable[[Peer], None] | None = None) -> None:
        super().__init__(on_drop)
        self.relay = relay
        self.origin = origin
        self.link = link

    def send(self, frame: bytes) -> None:
        if not self.dead:
            self.relay.post(self.origin, ["out", self.link, frame])
            OWNER_FRAMES.inc()

    def refund(self) -> None:
        """Tell the origin, which rate-limits the client, that a decision it relayed was stored (not counted)."""
        if not self.dead:
            self.relay.post(self.origin, ["refund", self.link])

    def drop(self, reason: str) -> None:
        if self.dead:
            return
        self.relay.post(self.origin, ["drop", self.link, reason])
        self.relay.end_stand_in(self.link)


class Handler(Protocol):
    """What serves a relayed client's requests on the owner: a session over a :class:`Relayed` peer."""

    conn: Peer

    async def handle(self, frame: bytes) -> None: ...

    def leave_all(self, conn: Peer) -> None: ...


class Origin(Protocol):
    """A session of this node that relays: its client's connection, who the client is, and which node owns
    each room it asked about."""

    link: str
    conn: Peer
    scope: str
    address: str
    remote: dict[str, str]

    def refund(self) -> None: ...


@dataclass
class StandIn:
    """A relayed client on the owner: its session, and the requests it has yet to serve, one at a time."""

    origin: str
    session: Handler
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(BACKLOG))
    task: asyncio.Task[None] | None = None


def _run_of(link: str) -> str:
    """The run of the origin node a link was made by (:meth:`Relay.link_of`)."""
    return link.split("|")[1]


class Relay:
    """This node's end of the relay: its subscription, its outgoing batches, its origins and stand-ins."""

    def __init__(self, lobby: Lobby, stand_in: Callable[[Relayed, str, str, str | None, str], Handler]) -> None:
        self.lobby = lobby
        self.node = lobby.leases.node
        self.incarnation = lobby.leases.incarnation
        """Tells this run's links from those of an earlier run of the same node id (its liveness record holds it)."""
        self.runs: dict[str, str] = {}
        """The run of each node this node relays clients to, as first seen: another run has none of their stand-ins."""
        self.make = stand_in
        """(peer, address, name, player, scope): the session serving a relayed client here."""
        self.origins: dict[str, Origin] = {}
        """This node's sessions that relay, by link."""
        self.served_by: dict[str, set[str]] = {}
        """The nodes that have served each of those sessions: told when it ends."""
        self.stand_ins: dict[str, StandIn] = {}
        """Other nodes' clients served here, by link."""
        self.outgoing: dict[str, list[list[Any]]] = {}
        self.wake = asyncio.Event()
        self.ready = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    def link_of(self, conn: Peer) -> str:
        return f"{self.node}|{self.incarnation}|{conn.id}"

    async def start(self) -> None:
        """Listen, and wait until the subscription stands (a request relayed here before would be lost)."""
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._write())]
        await asyncio.wait_for(self.ready.wait(), 10)

    async def stop(self) -> None:
        await channel.cancel(self.tasks)
        for link in list(self.stand_ins):
            self.end_stand_in(link)

    # -- the origin: a client's requests out, its frames back

    async def owner(self, origin: Origin, room: str) -> str | None:
        """The node to relay ``origin``'s request about ``room`` to; None to serve it here (this node has it, or
        nobody holds its lease and this node may take it). The node it was relayed to before is asked again
        without a look-up: :meth:`sweep` drops a client whose room moved."""
        if self.lobby.here(room) is not None:
            return None
        known = origin.remote.get(room)
        if known is not None:
            return known
        holder = (await self.lobby.leases.holders([room]))[0]
        if holder is None or holder == self.node:
            return None
        if holder not in self.runs:
            run = (await self.lobby.leases.incarnations([holder]))[0]
            if run is None:  # its lease outlives it: serve here once the lease lapses
                return holder
            self.runs[holder] = run
        return holder

    def forward(self, origin: Origin, node: str, room: str, frame: bytes) -> None:
        """Send a client's request, as it came, to the node that owns ``room``."""
        self.origins[origin.link] = origin
        origin.remote[room] = node
        self.served_by.setdefault(origin.link, set()).add(node)
        conn = origin.conn
        self.post(node, ["req", origin.link, self.node, conn.name, conn.player, origin.scope, origin.address, frame,
                         conn.deltas])
        metrics.RELAYED.labels("out").inc()

    def closed(self, origin: Origin) -> None:
        """The client left: the nodes that served it for some room stop doing so."""
        self.origins.pop(origin.link, None)
        for node in self.served_by.pop(origin.link, ()):
            self.post(node, ["bye", origin.link])

    # -- the owner: a relayed client's session

    def _request(self, link: str, origin: str, name: str, player: str | None, scope: str, address: str,
                 frame: bytes, deltas: bool = False) -> None:
        """A request from a client of ``origin``: served by that client's stand-in session, made on its first
        (``deltas``: the client's ``hello`` asked for view deltas)."""
        stand_in = self.stand_ins.get(link)
        if stand_in is None:
            peer = Relayed(self, origin, link)
            peer.deltas = deltas
            session = self.make(peer, address, name, player, scope)
            peer.on_drop = session.leave_all
            stand_in = self.stand_ins[link] = StandIn(origin, session)
            stand_in.task = asyncio.create_task(self._serve(stand_in))
        try:
            stand_in.queue.put_nowait(frame)
        except asyncio.QueueFull:
            stand_in.session.conn.drop("too many relayed requests waiting")
        metrics.RELAYED.labels("in").inc()

    async def _serve(self, stand_in: StandIn) -> None:
        """A relayed client's requests served in the order it sent them, as a websocket's are."""
        while True:
            frame = await stand_in.queue.get()
            await stand_in.session.handle(frame)

    def end_stand_in(self, link: str) -> None:
        """Stop serving a relayed client here: out of every room, its requests dropped."""
        stand_in = self.stand_ins.pop(link, None)
        if stand_in is None:
            return
        peer = stand_in.session.conn
        if not peer.dead:
            peer.dead = True
            stand_in.session.leave_all(peer)
        if stand_in.task is not None:
            stand_in.task.cancel()

    # -- keeping links true

    async def sweep(self) -> None:
        """Drop what relays through a node that is gone or no longer owns the room: a client relayed to a room's
        old owner reconnects and resumes (and so reaches the new one); a stand-in whose origin died ends. A
        room whose lease lapsed while its owner lives (its match ended) is only forgotten here."""
        watched = [(origin, room, node) for origin in list(self.origins.values()) for room, node in origin.remote.items()]
        nodes = sorted({node for _, _, node in watched} | {stand_in.origin for stand_in in self.stand_ins.values()})
        runs = dict(zip(nodes, await self.lobby.leases.incarnations(nodes), strict=True))
        if watched:
            holders = await self.lobby.leases.holders([room for _, room, _ in watched])
            for (origin, room, node), holder in zip(watched, holders, strict=True):
                restarted = runs[node] is not None and self.runs.get(node, runs[node]) != runs[node]
                if holder == node and not restarted:
                    continue
                if holder is None and runs[node] is not None and not restarted:
                    origin.remote.pop(room, None)
                elif not origin.conn.dead:
                    origin.conn.drop(f"room {room} moved to another server node: reconnect and resume")
        for node, run in runs.items():  # a node gone quiet keeps its last run: if it comes back, it is another
            if run is not None:
                self.runs[node] = run
        for link, stand_in in list(self.stand_ins.items()):
            run = runs[stand_in.origin]
            if run is None or run != _run_of(link):  # (if it lives after all, its client reconnects)
                stand_in.session.conn.drop(f"server node {stand_in.origin} stopped, or started again")

    def drop_all(self, reason: str) -> None:
        """The subscription broke: frames may have been lost either way, so every relayed client reconnects."""
        for origin in list(self.origins.values()):
            origin.conn.drop(reason)
        self.origins.clear()
        self.served_by.clear()
        for link in list(self.stand_ins):
            self.end_stand_in(link)

    # -- the wire

    def post(self, node: str, message: list[Any]) -> None:
        """Queue a message for ``node``; the writer publishes each node's batch in one message, in order. A
        frame sent to several links of one node in a row (a view for its spectators) goes once, with their links."""
        batch = self.outgoing.setdefault(node, [])
        if message[0] == "out":
            last = batch[-1] if batch else None
            if last is not None and last[0] == "outs" and last[2] is message[2]:
                last[1].append(message[1])
            else:
                batch.append(["outs", [message[1]], message[2]])
        else:
            batch.append(message)
        self.wake.set()

    async def _write(self) -> None:
        redis = self.lobby.store.redis
        while True:
            await self.wake.wait()
            self.wake.clear()
            batches, self.outgoing = self.outgoing, {}
            try:
                async with redis.pipeline(transaction=False) as pipe:
                    for node, messages in batches.items():
                        pubsub.publish(redis, pipe, CHANNEL + node, msgpack.packb(messages))
                    await pipe.execute()
            except Exception:
                log.exception("relayed messages not published: their clients reconnect")
                self.drop_all("a server node could not relay this connection's rooms: reconnect and resume")

    async def _listen(self) -> None:
        await channel.follow(self.lobby.store.redis, CHANNEL + self.node, self._receive, subscribed=self._subscribed,
                             broken=lambda: self.drop_all("a server node lost its relay: reconnect and resume"),
                             pause=RESUBSCRIBE)

    async def _subscribed(self) -> None:
        self.ready.set()

    def _receive(self, data: bytes) -> None:
        for message in msgpack.unpackb(data, raw=False):
            kind, link = message[0], message[1]
            if kind == "req":
                self._request(link, *message[2:])
            elif kind == "bye":
                self.end_stand_in(link)
            elif kind == "outs":
                for each in link:
                    origin = self.origins.get(each)
                    if origin is not None:
                        origin.conn.send(message[2])
                        ORIGIN_FRAMES.inc()
            elif kind == "drop":
                origin = self.origins.get(link)
                if origin is not None:
                    origin.conn.drop(message[2])
            elif kind == "refund":
                origin = self.origins.get(link)
                if origin is not None:
                    origin.refund()

