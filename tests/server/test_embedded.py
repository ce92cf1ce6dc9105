"""``cardroom serve`` without ``--redis-url`` starts its own redis-server in the data directory and reaches it over a
Unix socket there: on one machine each round trip then costs both processes less CPU than over loopback TCP."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import redis

from client import Client
from server.store.redis_process import RedisProcess
from tests.server.nodes import serving_url


async def test_the_embedded_redis_is_reached_over_its_unix_socket(tmp_path: Path, repo_root: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", "0", "--data-dir", str(tmp_path)],
                            cwd=repo_root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        url = await serving_url(proc, "the server")
        async with await Client.connect(url, name="ada") as ada, await Client.connect(url, name="bo") as bo:
            seat = await ada.create("creature_wars", seed=3)
            await bo.join(seat.room)
            view = ada.views[seat.room]
            await ada.decide(seat, view["legal"][0])  # a commit, through the group commit's link
        socket = tmp_path / "redis" / "redis.sock"
        clients = redis.Redis(unix_socket_path=str(socket)).client_list()
        others = [c for c in clients if c["cmd"] != "client|list" and c["cmd"] != "client"]
        assert others, clients
        # a Unix socket's client is named by the socket's path (cut short), a TCP one by its address and port
        assert all(c["addr"].startswith("/") for c in others), others
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_data_directory_too_deep_for_a_unix_socket_keeps_tcp(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 100)
    assert RedisProcess(deep, unix_socket=True).local_url.startswith("redis://127.0.0.1:")
    near = RedisProcess(tmp_path / "r", unix_socket=True)
    assert near.local_url == f"unix://{tmp_path / 'r' / 'redis.sock'}?db=0"
    assert RedisProcess(tmp_path / "r").local_url.startswith("redis://"), "no socket unless asked"
