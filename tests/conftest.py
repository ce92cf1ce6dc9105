"""Shared fixtures: a real redis-server on a free loopback port, a real cardroom server, and the Redis 7 binaries
that a Redis Cluster needs."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from server.store.redis_process import RedisProcess
from tests import debian
from tests.server.servers import serving


@pytest.fixture(scope="session")
def redis_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    """One real redis-server (append-only, fsync always) for the whole run, on a loopback port and a Unix socket."""
    with RedisProcess(tmp_path_factory.mktemp("redis"), unix_socket=True) as proc:
        yield proc


@pytest.fixture
def redis_url(redis_process: RedisProcess) -> str:
    """The Redis URL, emptied before each test."""
    redis.Redis.from_url(redis_process.url).flushall()
    return redis_process.url


@pytest.fixture
async def server_url(redis_url: str) -> AsyncIterator[str]:
    """A cardroom server in this event loop on a free loopback port; its ws:// URL."""
    async with serving(redis_url) as url:
        yield url


@pytest.fixture
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def redis_cluster_binaries() -> None:
    """Debian's redis-server 7 and redis-cli; installed with apt-get when missing and this is a root shell on Debian."""
    if not debian.install("redis-server", "redis-server", "redis-cli"):
        pytest.fail("the cluster tests need Debian's redis-server package: run `apt-get install redis-server` as root")
