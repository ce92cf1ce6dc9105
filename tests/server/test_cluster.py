"""Redis Cluster: two server processes on a real six-process cluster (three primaries, one replica each).
Matches whose rooms lie in every primary's slots play to their end, relayed between the nodes over sharded
pub/sub; their ratings, histories and scores are written exactly once; a room's keys share one slot."""
from __future__ import annotations

import asyncio
import random
import urllib.request
from pathlib import Path

import pytest
from redis.asyncio.cluster import RedisCluster as ClusterClient

import server.lobby.quota
from client import Client, ClientError
from client.connection import Seat
from protocol import ErrorCode, ProtocolError
from server.lobby.quota import Quota
from server.store import keys
from server.store.redis_cluster import RedisCluster, ask
from server.store.store import OPEN
from tests.server.helpers import play_out, play_to_end, play_turn
from tests.server.nodes import nodes, resume_on
from tests.server.players import keyed

pytestmark = pytest.mark.slow

QUICK = {"hp": 1}
ANN, BOB = "cluster-ann-secret-key-0001", "cluster-bob-secret-key-0002"


async def _client(cluster: RedisCluster) -> ClusterClient:
    """A cluster client that knows which primary serves which slot."""
    return await ClusterClient(host="127.0.0.1", port=cluster.ports[0]).initialize()


def _relayed(url: str) -> float:
    """The requests a node relayed to another (its /metrics)."""
    with urllib.request.urlopen(url.replace("ws://", "http://") + "/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith("cardroom_relayed_requests_total") and 'direction="out"' in line)


async def _rooms_on_every_primary(client: Client, r: ClusterClient) -> list[Seat]:
    """Rated rooms made until one lies on each primary; the others are cancelled."""
    primaries = {node.name for node in r.get_primaries()}
    kept: dict[str, Seat] = {}
    for _ in range(60):
        seat = await client.create("creature_wars", QUICK, ranked=True)
        assert isinstance(seat, Seat)
        primary = r.get_node_from_key(keys.room(seat.room))
        assert primary is not None
        if primary.name in kept:
            await client.request("cancel", room=seat.room, token=seat.token)
            continue
        kept[primary.name] = seat
        if set(kept) == primaries:
            return list(kept.values())
    raise AssertionError(f"no room on every primary: {sorted(kept)} of {sorted(primaries)}")


async def test_matches_on_every_primary_play_to_the_end_through_two_nodes(
        redis_cluster: RedisCluster, repo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ROOMS_PER_MINUTE", "200")
    r = await _client(redis_cluster)
    async with nodes(redis_cluster.url, repo_root) as start:
        (_, url_a), (_, url_b) = await asyncio.gather(start("A"), start("B"))
        a, welcome_a = await keyed(url_a, "ann", ANN)
        b, welcome_b = await keyed(url_b, "bob", BOB)
        async with a, b:
            rooms = await _rooms_on_every_primary(a, r)
            wanted = {s.room for s in rooms}
            for _ in range(100):  # node B lists node A's rooms (the listing's announcements: sharded pub/sub)
                if wanted <= {room["room"] for room in await b.list_rooms()}:
                    break
                await asyncio.sleep(0.05)
            assert wanted <= {room["room"] for room in await b.list_rooms()}
            for n, seat in enumerate(rooms):  # ann on node A, which owns the rooms; bob relayed from node B
                await play_to_end([(a, seat), (b, await b.join(seat.room))], seed=n)
                await a.wait_view(seat.room, lambda v: v["outcome"] is not None)
            ratings = (await b.request("ratings", game="creature_wars"))["entries"]
            assert sorted(e["name"] for e in ratings) == ["ann", "bob"] and [e["games"] for e in ratings] == [3, 3]
            for client in (a, b):
                history = (await client.request("history"))["entries"]
                assert sorted(h["room"] for h in history) == sorted(s.room for s in rooms)
            solo = await b.create("fairy_tableau")
            assert isinstance(solo, Seat)
            await b.wait_view(solo.room, lambda v: True)
            await play_out(b, solo, seed=1)
            entries = (await a.request("scores", game="fairy_tableau"))["entries"]
            assert [e["room"] for e in entries] == [solo.room]
            assert _relayed(url_b) > 0
        for seat in rooms:
            assert await r.exists(keys.rated("creature_wars", seat.room))
            assert await r.hget(keys.room(seat.room), "out") is None
        for player, played in ((welcome_a["player"], 3), (welcome_b["player"], 4)):  # bob's solitaire too
            assert await r.llen(f"cardroom:history:{player}") == played
        assert not await r.smembers(OPEN)  # every room ended or cancelled has left the open set
    await r.aclose()


async def test_a_rooms_keys_lie_in_one_slot_of_the_cluster(redis_cluster: RedisCluster, repo_root: Path) -> None:
    r = await _client(redis_cluster)
    async with nodes(redis_cluster.url, repo_root) as start:
        _, url = await start("A")
        a, b = await Client.connect(url), await Client.connect(url)
        async with a, b:
            sa = await a.create("creature_wars", QUICK)
            assert isinstance(sa, Seat)
            sb = await b.join(sa.room)
            await a.request("chat", room=sa.room, text="good luck")
            await play_to_end([(a, sa), (b, sb)], seed=random.randrange(1000))
            await a.wait_view(sa.room, lambda v: v["outcome"] is not None)
    named = [keys.room(sa.room), keys.log(sa.room), keys.chat(sa.room), keys.match(sa.room), keys.match_log(sa.room)]
    assert all([await r.exists(key) for key in named])
    slots = {await r.cluster_keyslot(key) for key in named}  # CLUSTER KEYSLOT, asked of the cluster
    assert slots == {await r.cluster_keyslot(keys.lease(sa.room))} and len(slots) == 1
    await r.aclose()


async def test_players_queued_on_two_nodes_are_paired_and_play_on_the_cluster(redis_cluster: RedisCluster,
                                                                              repo_root: Path) -> None:
    """The pools' keys share one slot, their scripts run on the cluster, and a pairing is told over sharded pub/sub."""
    async with nodes(redis_cluster.url, repo_root) as start:
        (_, url_a), (_, url_b) = await asyncio.gather(start("A"), start("B"))
        async with await Client.connect(url_a, name="ann") as ann, await Client.connect(url_b, name="bob") as bob:
            await ann.queue("creature_wars")
            await bob.queue("creature_wars")
            told_a, told_b = await ann.wait_paired("creature_wars"), await bob.wait_paired("creature_wars")
            assert told_a["room"] == told_b["room"] and {told_a["seat"], told_b["seat"]} == {0, 1}
            seats = [(ann, await ann.resume(told_a["room"], told_a["token"])),
                     (bob, await bob.resume(told_b["room"], told_b["token"]))]
            await play_to_end(seats, seed=2, bound=2000)
            assert (await ann.wait_view(told_a["room"], lambda v: v["outcome"] is not None))["outcome"]


def _replica_of(cluster: RedisCluster, port: int) -> int:
    """The port of the process replicating the primary on ``port``."""
    for other in cluster.ports:
        if other != port and f"master_port:{port}\r\n".encode() in ask(other, b"INFO replication"):
            return other
    raise AssertionError(f"no replica of {port}")


async def test_a_killed_primarys_replica_takes_over_with_every_acknowledged_decision(
        redis_cluster_binaries: None, tmp_path: Path, repo_root: Path) -> None:
    """With --min-replicas-acked 1, a decision is acknowledged once a replica has it too: the primary holding the
    room is killed (kill -9) mid-match and its replica promoted, and every decision acknowledged before is
    there; the players resume and play the match to its end."""
    with RedisCluster(tmp_path / "cluster") as cluster:
        r = await _client(cluster)
        async with nodes(cluster.url, repo_root, ("--min-replicas-acked", "1")) as start:
            _, url = await start("A")
            a, b = await Client.connect(url), await Client.connect(url)
            sa = await a.create("creature_wars", seed=11)
            assert isinstance(sa, Seat)
            sb = await b.join(sa.room)
            rng = random.Random(7)
            for _ in range(6):
                await play_turn([(a, sa), (b, sb)], rng)
            acknowledged = max(a.views[sa.room]["version"], b.views[sb.room]["version"])
            primary = r.get_node_from_key(keys.room(sa.room))
            assert primary is not None
            doomed = next(p for p in cluster.processes if p.port == int(primary.port))
            heir = _replica_of(cluster, doomed.port)
            assert doomed.process is not None
            doomed.process.kill()  # kill -9
            assert ask(heir, b"CLUSTER FAILOVER TAKEOVER").startswith(b"+OK")
            await a.close()
            await b.close()
            for _ in range(200):
                if b"role:master" in ask(heir, b"INFO replication"):
                    break
                await asyncio.sleep(0.05)
            promoted = await ClusterClient(host="127.0.0.1", port=heir).initialize()
            stored = int(await promoted.hget(keys.room(sa.room), "version") or 0)
            assert stored >= acknowledged and await promoted.llen(keys.log(sa.room)) >= acknowledged
            await promoted.aclose()
            (a, sa), (b, sb) = await resume_on(url, sa), await resume_on(url, sb)
            async with a, b:
                mover = a if a.views[sa.room]["legal"] else b
                seat = sa if mover is a else sb
                for _ in range(3):  # the first may meet the commit connection the killed primary closed: not stored
                    with pytest.raises(ClientError) as alone:  # the new primary has no replica yet: nothing confirms
                        await mover.decide(seat, mover.views[seat.room]["legal"][0])
                    assert alone.value.code == "unavailable"
                    if "was not stored" not in alone.value.message:
                        break
                assert "replicas" in alone.value.message
                doomed.start()  # back, as the new primary's replica
                for _ in range(200):
                    if b"master_link_status:up" in ask(doomed.port, b"INFO replication"):
                        break
                    await asyncio.sleep(0.05)
            (a, sa), (b, sb) = await resume_on(url, sa), await resume_on(url, sb)
            async with a, b:
                await play_to_end([(a, sa), (b, sb)], seed=3, bound=3000)
                assert (await a.wait_view(sa.room, lambda v: v["outcome"] is not None))["outcome"]
        await r.aclose()


async def test_quota_places_are_taken_and_judged_across_the_clusters_slots(
        redis_cluster: RedisCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """An address's and a player's places (two slots) are taken in one round trip; rooms held that no node serves,
    in other slots, are judged (stored or not, open or not) when they would refuse a creation."""
    monkeypatch.setattr(server.lobby.quota, "WAITING", 2)
    r = await _client(redis_cluster)
    quota = Quota(r)  # type: ignore[arg-type]  # the cluster client speaks the same commands
    try:
        for room in ("aaa111", "bbb222"):
            async with quota.claim("10.0.0.4", {}, "p4", room=room) as place:
                place.room = room
        with pytest.raises(ProtocolError) as refused:  # neither is stored yet: being made, for all this node knows
            async with quota.claim("10.0.0.4", {}, "p4", room="ccc333"):
                pass
        assert refused.value.code is ErrorCode.TOO_MANY_ROOMS
        await r.hset(keys.room("aaa111"), "closed", "cancelled")  # one made, then cancelled
        await r.hset(keys.room("bbb222"), "game", "creature_wars")  # one made and open
        await r.sadd(OPEN, "bbb222")
        async with quota.claim("10.0.0.4", {}, "p4", room="ccc333") as place:
            place.room = "ccc333"
        assert sorted(await r.zrange(keys.quota_held("10.0.0.4"), 0, -1)) == [b"bbb222", b"ccc333"]
        assert sorted(await r.zrange("cardroom:quota:held:player:p4", 0, -1)) == [b"bbb222", b"ccc333"]
    finally:
        await r.aclose()


def test_a_node_whose_port_is_taken_before_it_binds_it_takes_another(
        redis_cluster_binaries: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster's nodes learn each other's ports only once all have started: a node whose picked port another
    process took meanwhile (another test's connection, say) picks another, and the cluster forms all the same."""
    import socket

    from server.store import redis_process

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        picks = iter([taken])
        free = redis_process.free_port
        monkeypatch.setattr(redis_process, "free_port", lambda: next(picks, None) or free())
        with RedisCluster(tmp_path / "cluster") as cluster:
            assert taken not in cluster.ports and len(set(cluster.ports)) == 6
            assert all(b"cluster_state:ok" in ask(port, b"CLUSTER INFO") for port in cluster.ports)
