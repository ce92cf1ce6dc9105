"""Links to one Redis (server/store/link.py): batches of commands written whole, their replies handed back in
order as they come; the script calls of ``keys.run_all`` go through one, and through redis-py when it fails."""
from __future__ import annotations

import asyncio
import socket

import pytest
import redis
from redis.exceptions import NoScriptError, ResponseError

from server.store import group, keys, link
from server.store.link import Link, pack
from server.store.redis_process import RedisProcess
from server.store.store import Store


async def test_a_link_hands_each_batch_its_replies_in_order(redis_url: str) -> None:
    """Replies that come in many pieces, and error replies among them, as redis-py would make them."""
    settings = redis.Redis.from_url(redis_url).connection_pool.connection_kwargs
    link = await Link.open(settings["host"], int(settings["port"]))
    try:
        big = b"x" * 300_000
        first = link.call(pack([("SET", "big", big), ("GET", "big"), ("EVALSHA", "0" * 40, 0)]), 3)
        second = link.call(pack([("INCR", "big"), ("PING",)]), 2)
        stored, got, missing = await asyncio.wait_for(first, 10)
        assert (stored, got) == (b"OK", big) and isinstance(missing, NoScriptError)
        not_a_number, pong = await asyncio.wait_for(second, 10)
        assert isinstance(not_a_number, ResponseError) and pong == b"PONG"
    finally:
        link.close()
    with pytest.raises(ConnectionError):
        await link.call(pack([("PING",)]), 1)


async def test_script_calls_go_through_the_stores_link_and_load_what_redis_forgot(redis_url: str) -> None:
    store = Store(redis_url)
    try:
        scripts = link.scripts_of(store.redis)
        assert scripts is not None and scripts is store.scripts
        echo = store.redis.register_script("return ARGV[1]")
        assert await keys.run_all(store.redis, [(echo, ["k"], ["one"]), (echo, ["k"], ["two"])]) == [b"one", b"two"]
        carrier = store._commit.link  # they go with the commits' batches (tests/server/test_group.py)
        assert carrier is not None and carrier.lost is None, "the calls went through redis-py"
        redis.Redis.from_url(redis_url).script_flush()
        assert await keys.run_all(store.redis, [(echo, ["k"], ["three"])]) == [b"three"]
    finally:
        await store.close()


async def test_a_store_on_a_unix_socket_commits_and_calls_scripts_through_a_link(redis_process: RedisProcess,
                                                                               redis_url: str) -> None:
    """The embedded Redis's socket (``cardroom serve``'s own): the group commit and the script calls take a link over
    it, not redis-py's pool."""
    store = Store(redis_process.local_url)
    try:
        assert store.url.startswith("unix://") and store._commit.plain and store.scripts is not None
        echo = store.redis.register_script("return ARGV[1]")
        assert await keys.run_all(store.redis, [(echo, ["k"], ["one"])]) == [b"one"]
        carrier = store._commit.link
        assert carrier is not None and carrier.lost is None and carrier.transport is not None
        assert carrier.transport.get_extra_info("socket").family == socket.AF_UNIX
    finally:
        await store.close()


async def test_a_call_the_link_cannot_carry_goes_through_redis_py(redis_url: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A link that does not answer (here: every connection it opens is refused) costs the call nothing but the
    way it takes: it is sent through redis-py's pool, as redis-py would send it again after a failed connection."""
    store = Store(redis_url)

    async def refused(*args: object, **kwargs: object) -> Link:
        raise ConnectionRefusedError("no link today")

    monkeypatch.setattr(link, "open_like", refused)
    monkeypatch.setattr(group, "open_like", refused)  # the commits' link, which carries script calls
    try:
        echo = store.redis.register_script("return ARGV[1]")
        assert await keys.run_all(store.redis, [(echo, ["k"], ["via redis-py"])]) == [b"via redis-py"]
        assert store.scripts is not None and store.scripts.link is None and store._commit.link is None
    finally:
        await store.close()


async def test_a_cancelled_call_leaves_the_calls_pipelined_with_it_their_replies(redis_url: str) -> None:
    """A request given up (its client gone) while its script call is in flight: the link stays open, the reply
    it was owed is skipped, and the call written after it gets its own."""
    store = Store(redis_url)
    pauser = redis.Redis.from_url(redis_url)
    try:
        echo = store.redis.register_script("return ARGV[1]")
        assert await keys.run_all(store.redis, [(echo, ["k"], ["warm"])]) == [b"warm"]
        pauser.execute_command("CLIENT", "PAUSE", "300", "WRITE")  # both calls wait in flight
        given_up = asyncio.ensure_future(keys.run_all(store.redis, [(echo, ["k"], ["first"])]))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(keys.run_all(store.redis, [(echo, ["k"], ["second"])]))
        await asyncio.sleep(0.05)
        given_up.cancel()
        assert await asyncio.wait_for(second, 10) == [b"second"]
        carrier = store._commit.link
        assert carrier is not None and carrier.lost is None
        assert await keys.run_all(store.redis, [(echo, ["k"], ["third"])]) == [b"third"]
    finally:
        pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
        await store.close()


async def test_more_script_calls_than_ride_with_commits_take_a_link_of_their_own(redis_url: str) -> None:
    """A run of many calls (a node's leases renewed) is not carried with the commits' batch, which would wait for
    all their replies: it goes on the scripts' own link."""
    store = Store(redis_url)
    try:
        echo = store.redis.register_script("return ARGV[1]")
        many = link.CARRIED + 1
        got = await keys.run_all(store.redis, [(echo, ["k"], [str(n)]) for n in range(many)])
        assert got == [str(n).encode() for n in range(many)]
        assert store.scripts is not None and store.scripts.link is not None and store._commit.link is None
        assert await keys.run_all(store.redis, [(echo, ["k"], ["few"])]) == [b"few"]
        assert store._commit.link is not None, "a few calls ride with the commits"
    finally:
        await store.close()


async def test_a_batch_redis_does_not_answer_in_time_fails_and_closes_the_link() -> None:
    """The link's one timer fails a batch whose replies are overdue (and those written after it, which would wait as
    long) with a TimeoutError, and closes the link; batches answered in time are not touched by it."""
    held: list[asyncio.StreamWriter] = []

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)  # reads nothing, answers nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        quiet = await Link.open("127.0.0.1", port)
        began = asyncio.get_running_loop().time()
        first = quiet.call(pack([("PING",)]), 1, timeout=0.3)
        second = quiet.call(pack([("PING",)]), 1, timeout=5)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(first, 5)
        assert 0.25 <= asyncio.get_running_loop().time() - began < 3
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(second, 1)
        assert quiet.lost is not None and quiet.watch is None
        with pytest.raises(TimeoutError):
            await quiet.call(pack([("PING",)]), 1)
        hurried = await Link.open("127.0.0.1", port)  # a shorter bound written after a longer one is kept too
        began = asyncio.get_running_loop().time()
        patient = hurried.call(pack([("PING",)]), 1, timeout=30)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(hurried.call(pack([("PING",)]), 1, timeout=0.3), 5)
        assert asyncio.get_running_loop().time() - began < 3
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(patient, 1)
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def test_a_link_keeps_one_timer_for_its_batches(redis_url: str) -> None:
    settings = redis.Redis.from_url(redis_url).connection_pool.connection_kwargs
    answered = await Link.open(settings["host"], int(settings["port"]))
    try:
        first = answered.call(pack([("PING",)]), 1)
        watch = answered.watch
        assert watch is not None
        second = answered.call(pack([("PING",)]), 1)
        assert answered.watch is watch, "a second batch arms no timer of its own"
        assert await asyncio.wait_for(asyncio.gather(first, second), 10) == [[b"PONG"], [b"PONG"]]
        assert not answered.waiting, "every batch answered, no deadline left"
    finally:
        answered.close()
    assert answered.watch is None
