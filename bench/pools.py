"""Matchmaking pools: how long pairing a pool of 10,000 waiting tickets takes.

    python -m bench.pools --tickets 10000

Against a spawned redis-server (fsync always), in this process: ``--tickets`` players with keys and ratings drawn
from N(1500, 200) queue for Creature Wars through the server's own code (server/lobby/pools.py), their waits
spread over the last minute. Then one pairing pass of the pool is timed, split into its steps: reading the pool
(one round trip), planning the pairs (pure Python), and taking the paired tickets out of Redis (one script);
then the rooms of ``--rooms`` of those pairs are made and both seats claimed, as the pairing node does, to give
rooms a second (each room is its own stored writes: the pairing itself does not wait for them).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import msgpack

from bench import run_main
from server.lobby.lobby import Lobby
from server.lobby.pools import Candidate, Pools, plan
from server.rooms.peer import Peer
from server.store import keys
from server.store.redis_process import RedisProcess
from server.store.store import Store

__all__ = ["main"]

GAME = "creature_wars"
POOL = f"{GAME}:casual:30-60-0"


class Quiet(Peer):
    """A player's connection that is never written to."""

    def send(self, frame: bytes) -> None:
        pass

    def drop(self, reason: str) -> None:
        pass


async def bench(redis_url: str, tickets: int, rooms: int, seed: int) -> None:
    rng = random.Random(seed)
    store = Store(redis_url)
    lobby = Lobby(store, node="bench")
    await lobby.leases.beat()
    pools = Pools(lobby)
    ratings = {f"p{i}": max(100.0, rng.gauss(1500, 200)) for i in range(tickets)}
    async with store.redis.pipeline(transaction=False) as pipe:
        for player, r in ratings.items():
            pipe.hset(keys.ratings(GAME), player, msgpack.packb([r, 80.0, 0.06, 5, player]))
        await pipe.execute()
    started = time.perf_counter()
    peers = []
    for start in range(0, tickets, 500):
        batch = []
        for i in range(start, min(tickets, start + 500)):
            peer = Quiet()
            peer.player, peer.name = f"p{i}", f"p{i}"
            peers.append(peer)
            batch.append(pools.queue(peer, {"game": GAME}))
        await asyncio.gather(*batch)
    queued = time.perf_counter() - started
    # spread the waits over the last minute, as a busy pool would have them
    now = time.time()
    raw = await store.redis.hgetall(f"{keys.POOLS}pool:{POOL}:tickets")
    async with store.redis.pipeline(transaction=False) as pipe:
        for ticket, blob in raw.items():
            info = msgpack.unpackb(blob, raw=False)
            info["since"] = now - rng.uniform(0, 60)
            pipe.hset(f"{keys.POOLS}pool:{POOL}:tickets", ticket, msgpack.packb(info))
        await pipe.execute()
    print(f"{tickets} tickets queued through Pools.queue in {queued:.2f} s ({tickets / queued:,.0f}/s)")

    assert (await lobby.leases.hold([f"{keys.POOLS}pool:{POOL}:lease"]))[0]
    live = {pools.owner}
    t0 = time.perf_counter()
    async with store.redis.pipeline(transaction=False) as pipe:
        pipe.zrange(f"{keys.POOLS}pool:{POOL}:rating", 0, -1, withscores=True)
        pipe.hgetall(f"{keys.POOLS}pool:{POOL}:tickets")
        ranked, blobs = await pipe.execute()
    t1 = time.perf_counter()
    candidates = []
    for member, rating in ranked:
        info = msgpack.unpackb(blobs[member], raw=False)
        candidates.append(Candidate(member.decode(), float(rating), float(info["since"]), float(info["after"])))
    t2 = time.perf_counter()
    pairs, _ = plan(candidates, time.time())
    t3 = time.perf_counter()
    print(f"read the pool: {1000 * (t1 - t0):.1f} ms; unpack {len(candidates)} tickets: {1000 * (t2 - t1):.1f} ms; "
          f"plan: {1000 * (t3 - t2):.1f} ms ({len(pairs)} pairs)")
    gaps = sorted(abs(candidates[i].rating - candidates[j].rating) for i, j in pairs)
    if gaps:
        print(f"rating gap of the pairs: median {gaps[len(gaps) // 2]:.2f}, max {gaps[-1]:.2f}")

    # the whole pass as the pairing node runs it: read, plan, take (the tickets are put back first)
    t4 = time.perf_counter()
    taken = await pools.take(POOL, live)
    t5 = time.perf_counter()
    assert taken is not None
    left = await store.redis.zcard(f"{keys.POOLS}pool:{POOL}:rating")
    print(f"one pairing pass (read + plan + take, Pools.take): {1000 * (t5 - t4):.1f} ms: "
          f"{len(taken)} pairs taken, {left} tickets left waiting")

    t6 = time.perf_counter()
    await asyncio.gather(*(pools._seat(POOL, group) for group in taken[:rooms]))
    t7 = time.perf_counter()
    made = min(rooms, len(taken))
    if made:
        print(f"{made} rooms made and both seats claimed: {t7 - t6:.2f} s ({made / (t7 - t6):,.0f} rooms/s)")
    await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--rooms", type=int, default=500, help="pairs whose rooms are made after the pass (timed apart)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisProcess(Path(tmp) / "redis").start()
        try:
            run_main(bench(redis.url, args.tickets, args.rooms, args.seed))
        finally:
            redis.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
