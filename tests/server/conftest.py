"""Server-test fixtures: a server whose Redis sits behind a proxy that can lose replies or go away; server nodes."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis

from server.store.redis_cluster import RedisCluster
from tests.server.nodes import Start, nodes
from tests.server.redis_proxy import ReplyDropper
from tests.server.servers import serving


@pytest.fixture
async def proxied(redis_url: str) -> AsyncIterator[tuple[str, ReplyDropper]]:
    """A server whose Redis is reached through a proxy that can lose a reply."""
    port = urlsplit(redis_url).port
    assert port is not None
    proxy = ReplyDropper(port)
    proxy_port = await proxy.start()
    async with serving(f"redis://127.0.0.1:{proxy_port}/0") as url:
        yield url, proxy
    await proxy.close()




@pytest.fixture
async def node(redis_url: str, repo_root: Path) -> AsyncIterator[Start]:
    """Start server nodes on the test's Redis with short leases: ``await node("A")`` gives the process and
    its URL; each is killed at the end."""
    async with nodes(redis_url, repo_root) as start:
        yield start


@pytest.fixture(scope="session")
def redis_cluster_process(redis_cluster_binaries: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """A real Redis Cluster (three primaries, one replica each, append-only, fsync always) for the whole run."""
    with RedisCluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture
def redis_cluster(redis_cluster_process: RedisCluster) -> RedisCluster:
    """The cluster, every primary emptied before the test."""
    for primary in redis_cluster_process.primary_ports():
        redis.Redis(port=primary).flushall()
    return redis_cluster_process
