"""A real Redis Cluster on loopback ports: six redis-server processes (three primaries, one replica each),
append-only, joined by ``redis-cli --cluster create``.

Started by the cluster tests and by ``bench.load --spawn --cluster``; a deployment runs its own cluster.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from server.errors import StoreUnavailable
from server.store.redis_process import RedisProcess, cluster_binary

__all__ = ["RedisCluster", "ask"]


def ask(port: int, command: bytes) -> bytes:
    """One inline command's reply: a status line, or a bulk string read whole (enough for PING and INFO)."""
    with socket.create_connection(("127.0.0.1", port), timeout=2.0) as sock:
        sock.sendall(command + b"\r\n")
        data = b""
        while b"\r\n" not in data:
            data += sock.recv(65536) or b"\r\n"
        head, _, body = data.partition(b"\r\n")
        if not head.startswith(b"$"):
            return head
        size = int(head[1:])
        while len(body) < size + 2:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return body[:size]


class RedisCluster:
    """Start and stop a Redis Cluster of ``primaries`` primaries with one replica each in ``data_dir``;
    ``url`` is the server's ``redis+cluster://``. Needs the redis-server and redis-cli on PATH (Redis 7)."""

    def __init__(self, data_dir: str | Path, primaries: int = 3, *, fsync: str = "always") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.processes = [RedisProcess(self.data_dir / f"n{n}", fsync=fsync, cluster=True) for n in range(2 * primaries)]
        """Each picks its port, and another if that one is taken before its redis-server binds it: the nodes learn
        each other's ports only once all have started (``redis-cli --cluster create``)."""
        self.primaries = primaries

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.processes[0].port}"

    @property
    def ports(self) -> list[int]:
        return [p.port for p in self.processes]

    def start(self, timeout: float = 30.0) -> RedisCluster:
        """Start every process, join them and wait until the cluster is ok and every replica in sync (stopping
        all of them if any step fails or ``timeout`` passes)."""
        beside = Path(cluster_binary()).with_name("redis-cli")  # of the same Redis as the nodes, where it is there
        cli = str(beside) if beside.exists() else shutil.which("redis-cli")
        if cli is None:
            raise StoreUnavailable("redis-cli is not installed (Debian: apt-get install redis-server)")
        try:
            for proc in self.processes:
                proc.start()
            subprocess.run([cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                            "--cluster-replicas", "1", "--cluster-yes"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
            deadline = time.monotonic() + timeout
            while not all(b"cluster_state:ok" in ask(p, b"CLUSTER INFO") for p in self.ports):
                if time.monotonic() > deadline:
                    raise StoreUnavailable("the cluster never reached cluster_state:ok")
                time.sleep(0.1)
            while not self._replicated():  # every replica in sync with its primary
                if time.monotonic() > deadline:
                    raise StoreUnavailable("the replicas never caught up")
                time.sleep(0.1)
        except BaseException:
            self.stop()
            raise
        return self

    def primary_ports(self) -> list[int]:
        """The ports of the processes that are primaries now (a failover changes them)."""
        return [p for p in self.ports if b"role:master" in ask(p, b"INFO replication")]

    def _replicated(self) -> bool:
        links = [ask(p, b"INFO replication") for p in self.ports]
        replicas = [info for info in links if b"role:slave" in info]
        return len(replicas) == self.primaries and all(b"master_link_status:up" in info for info in replicas)

    def stop(self) -> None:
        for proc in self.processes:
            proc.stop()

    def __enter__(self) -> RedisCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
