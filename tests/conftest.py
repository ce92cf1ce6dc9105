"""Shared fixtures: a real redis-server on a free loopback port, and a real cardroom server."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import redis

from server.store.redis_process import RedisProcess
from tests.server.servers import serving


@pytest.fixture(scope="session")
def redis_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    """One real redis-server (append-only, fsync always) for the whole run."""
    with RedisProcess(tmp_path_factory.mktemp("redis")) as proc:
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
