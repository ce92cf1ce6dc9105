"""Group commit: the commits of one loop tick share a round trip to Redis, and each keeps its own result."""
from __future__ import annotations

import asyncio

import msgpack
import pytest
import redis
from prometheus_client import REGISTRY
from redis.exceptions import ResponseError

from server.errors import StaleWrite
from server.store import group, keys
from server.store.keys import log as keys_log
from server.store.link import REPLY_TIMEOUT, Link, pack
from server.store.store import RoomRecord, Store


def _batches() -> tuple[float, float]:
    return (REGISTRY.get_sample_value("cardroom_commit_batch_count") or 0.0,
            REGISTRY.get_sample_value("cardroom_commit_batch_sum") or 0.0)


async def _rooms(store: Store, count: int) -> list[str]:
    ids = [f"g{n}" for n in range(count)]
    for room in ids:
        assert await store.create(RoomRecord(room=room, game="creature_wars", options={}, seed=1, commitment="c",
                                             created=1.0, version=0, state={"x": 1}, seats=(None, None)))
    return ids


def _commit(store: Store, room: str, expected: int) -> asyncio.Future[None]:
    record = msgpack.packb({"v": expected + 1, "seat": 0, "d": {"kind": "play", "slot": 0}, "ts": 1.0})
    return asyncio.ensure_future(store.commit(room, expected, expected + 1, b"", record, False))


async def test_commits_of_one_tick_go_together_and_fail_alone(redis_url: str) -> None:
    store = Store(redis_url)
    try:
        rooms = await _rooms(store, 3)
        await _commit(store, rooms[0], 0)  # loads the script
        count, total = _batches()
        results = await asyncio.gather(_commit(store, rooms[0], 0), _commit(store, rooms[1], 0),
                                       _commit(store, rooms[2], 0), return_exceptions=True)
        assert isinstance(results[0], StaleWrite) and results[1:] == [None, None]
        assert _batches() == (count + 1, total + 3)  # one round trip for the three
        assert [await store.version(room) for room in rooms] == [1, 1, 1]
        assert [len(await store.log(room)) for room in rooms] == [1, 1, 1]
    finally:
        await store.close()


def _evalsha_calls(admin: redis.Redis) -> int:
    stats = admin.info("commandstats").get("cmdstat_evalsha")
    return int(stats["calls"]) if stats else 0


@pytest.mark.parametrize("protocol", ["", "?protocol=3"], ids=["link", "redis-py"])
async def test_a_batch_is_one_script_call_and_each_commit_fails_alone_in_it(redis_url: str, protocol: str) -> None:
    """On one Redis a batch costs it one script call, whether sent on the commit link or on a redis-py connection
    (RESP3 is not the link's); in it, a commit refused or failing (its log is not a list: Redis' own error) gets its
    own result, and the others land."""
    store = Store(redis_url + protocol)
    admin = redis.Redis.from_url(redis_url)
    try:
        rooms = await _rooms(store, 4)
        await _commit(store, rooms[0], 0)  # loads the script
        admin.set(keys_log(rooms[3]), "not a list")
        admin.config_resetstat()
        results = await asyncio.gather(_commit(store, rooms[0], 0), _commit(store, rooms[1], 0),
                                       _commit(store, rooms[2], 0), _commit(store, rooms[3], 0),
                                       return_exceptions=True)
        assert isinstance(results[0], StaleWrite) and results[1:3] == [None, None], results
        assert isinstance(results[3], ResponseError) and "WRONGTYPE" in str(results[3]), repr(results[3])
        assert _evalsha_calls(admin) == 1
        assert [await store.version(room) for room in rooms[:3]] == [1, 1, 1]
        assert [len(await store.log(room)) for room in rooms[:3]] == [1, 1, 1]
    finally:
        admin.close()
        await store.close()


async def test_a_commit_after_redis_forgot_its_scripts_lands(redis_url: str) -> None:
    store = Store(redis_url)
    try:
        rooms = await _rooms(store, 2)
        await _commit(store, rooms[0], 0)
        redis.Redis.from_url(redis_url).script_flush()
        await asyncio.gather(_commit(store, rooms[0], 1), _commit(store, rooms[1], 0))
        assert [await store.version(room) for room in rooms] == [2, 1]
        with pytest.raises(StaleWrite):
            await _commit(store, rooms[1], 0)
    finally:
        await store.close()


async def test_commits_that_arrive_while_a_batch_is_in_flight_go_together_in_the_next(redis_url: str) -> None:
    """One batch in flight at a time: under load the batches grow instead of each tick paying a round trip."""
    store = Store(redis_url)
    pauser = redis.Redis.from_url(redis_url)
    try:
        rooms = await _rooms(store, 3)
        await _commit(store, rooms[0], 0)  # loads the script
        count, total = _batches()
        pauser.execute_command("CLIENT", "PAUSE", "300", "WRITE")  # the first batch waits in flight
        first = _commit(store, rooms[0], 1)
        await asyncio.sleep(0.05)
        later = [_commit(store, rooms[1], 0)]
        await asyncio.sleep(0.05)  # another tick, another moment: still behind the batch in flight
        later.append(_commit(store, rooms[2], 0))
        await asyncio.gather(first, *later)
        assert _batches() == (count + 2, total + 3), "the two that waited went in one batch"
        assert [await store.version(room) for room in rooms] == [2, 1, 1]
    finally:
        pauser.close()
        await store.close()


async def test_under_load_a_batch_waits_a_few_turns_of_the_loop_for_the_commits_being_made(redis_url: str) -> None:
    """After a batch of more than one commit, the next waits a few turns of the event loop (``GATHER``) before it is
    sent: a request its room is still deciding (its commit comes a turn or two later) joins it, and Redis fsyncs once
    for both. After a lone commit (a quiet node) the next is sent at once."""
    store = Store(redis_url)
    pauser = redis.Redis.from_url(redis_url)
    try:
        rooms = await _rooms(store, 4)
        await _commit(store, rooms[0], 0)  # loads the script
        count, total = _batches()

        async def decided_after(done: asyncio.Future[None], expected: int = 0) -> None:
            await done
            await asyncio.sleep(0)  # the turn its room takes to decide
            await _commit(store, rooms[3], expected)

        pauser.execute_command("CLIENT", "PAUSE", "200", "WRITE")  # the first batch, of two, waits in flight
        first = [_commit(store, rooms[0], 1), _commit(store, rooms[1], 0)]
        await asyncio.sleep(0.05)
        behind = _commit(store, rooms[2], 0)
        late = asyncio.ensure_future(decided_after(first[0]))
        await asyncio.gather(*first, behind, late)
        assert _batches() == (count + 2, total + 4), "the late commit joined the batch waiting behind the first"
        assert [await store.version(room) for room in rooms] == [2, 1, 1, 1]

        count, total = _batches()  # after a lone commit (a quiet node), the next batch does not wait
        pauser.execute_command("CLIENT", "PAUSE", "200", "WRITE")
        lone = _commit(store, rooms[0], 2)
        await asyncio.sleep(0.05)
        behind = _commit(store, rooms[1], 1)
        late = asyncio.ensure_future(decided_after(lone, 1))
        await asyncio.gather(lone, behind, late)
        assert _batches() == (count + 3, total + 3), "each went alone"
    finally:
        pauser.close()
        await store.close()


def test_a_batch_is_packed_as_redis_py_packs_it() -> None:
    """hiredis' packer writes the same bytes as redis-py's for every kind of argument a commit carries."""
    connection = redis.asyncio.Redis().connection_pool.make_connection()
    commands = [("EVALSHA", "0" * 40, 3, "k1", b"k2", "k3", "4", "5", b"\x00\x81\xa1v\x01", "1", b"", 1795776737.25, ""),
                ("EVALSHA", "0" * 40, 1, "room:\u00e9", "x" * 70_000), ("WAIT", 1, 1000)]
    assert pack(commands) == b"".join(connection.pack_commands(commands))


async def test_a_batch_redis_does_not_answer_fails_at_the_groups_bound(redis_url: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Each reply is read without redis-py's own per-read timer: the batch's bound alone ends the wait."""
    monkeypatch.setattr(group, "REPLY_TIMEOUT", 0.3)
    monkeypatch.setattr(group, "REPLICA_WAIT_MS", 0)
    store = Store(redis_url)
    pauser = redis.Redis.from_url(redis_url)
    try:
        rooms = await _rooms(store, 1)
        await _commit(store, rooms[0], 0)  # loads the script, opens the commit connection
        pauser.execute_command("CLIENT", "PAUSE", "20000", "WRITE")  # Redis holds every script call unanswered
        silent = _commit(store, rooms[0], 1)
        done, _ = await asyncio.wait([silent], timeout=10)
        assert silent in done, "the commit still waited when Redis had been silent for 10 s"
        assert isinstance(silent.exception(), TimeoutError), repr(silent.exception())
    finally:
        pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
        await store.close()


async def test_the_commit_link_logs_in_and_picks_the_database_the_url_names(redis_url: str) -> None:
    """On one plain Redis the commits go through a link of their own: it logs in as the URL's user and picks its
    database, as redis-py's connections do (else the commit would miss the room, or run as another user)."""
    admin = redis.Redis.from_url(redis_url)
    admin.execute_command("ACL", "SETUSER", "committer", "on", ">s3cret", "~*", "&*", "+@all")
    url = redis_url.replace("redis://", "redis://committer:s3cret@").rsplit("/", 1)[0] + "/5"
    store = Store(url)
    try:
        rooms = await _rooms(store, 1)
        await _commit(store, rooms[0], 0)
        await _commit(store, rooms[0], 1)
        assert store._commit.link is not None, "the commits went through redis-py's connection"
        assert await store.version(rooms[0]) == 2
        clients = [dict(field.split("=", 1) for field in line.split(" ") if "=" in field)
                   for line in admin.execute_command("CLIENT", "LIST").decode().splitlines()]
        in_db5 = [client for client in clients if client.get("db") == "5"]
        assert in_db5 and all(client["user"] == "committer" for client in in_db5), in_db5
    finally:
        await store.close()
        admin.execute_command("ACL", "DELUSER", "committer")
        admin.close()



async def test_a_script_call_rides_with_the_next_batch_in_one_write(redis_url: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A script call made while a batch is in flight (``keys.run_all``: making and seating rooms, leases) goes out
    with the next batch, in the same write as the commits queued meanwhile, so that Redis reads and fsyncs them
    once; each gets its own reply."""
    store = Store(redis_url)
    admin = redis.Redis.from_url(redis_url)
    writes: list[int] = []
    call = Link.call

    def counted(self: Link, packed: bytes, replies: int, timeout: float = REPLY_TIMEOUT) -> asyncio.Future[list[object]]:
        writes.append(replies)
        return call(self, packed, replies, timeout)

    monkeypatch.setattr(Link, "call", counted)
    try:
        rooms = await _rooms(store, 2)
        echo = store.redis.register_script("return ARGV[1]")
        await _commit(store, rooms[0], 0)  # loads the scripts
        assert await keys.run_all(store.redis, [(echo, ["k"], ["loaded"])]) == [b"loaded"]
        writes.clear()
        admin.execute_command("CLIENT", "PAUSE", "300", "WRITE")  # the first batch waits in flight
        first = _commit(store, rooms[0], 1)
        await asyncio.sleep(0.05)
        second = _commit(store, rooms[1], 0)
        ride = asyncio.ensure_future(keys.run_all(store.redis, [(echo, ["k"], ["rode"])]))
        await asyncio.sleep(0.05)
        assert writes == [1], "the first batch alone is in flight"
        await asyncio.wait_for(asyncio.gather(first, second), 10)
        assert await asyncio.wait_for(ride, 10) == [b"rode"]
        assert writes == [1, 2], "the second commit and the script call in one write"
        assert [await store.version(room) for room in rooms] == [2, 1]
    finally:
        admin.execute_command("CLIENT", "UNPAUSE")
        admin.close()
        await store.close()
