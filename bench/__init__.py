"""Benchmarks for cardroom: ``python -m bench.load`` (matches) and ``python -m bench.echo`` (baseline).

This module holds what both share: percentiles, process CPU clocks, a client-side pacer,
loopback-only checks and starting/stopping a child server. Benchmarks print figures only.
"""
from __future__ import annotations

import asyncio
import ipaddress
import os
import random
import signal
import socket
import subprocess
import time
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from server.ops import collector

__all__ = [
    "REPO",
    "Pacer",
    "check_loopback",
    "cpu_of",
    "cpu_seconds",
    "format_cpu",
    "loop_name",
    "percentile",
    "run_main",
    "stop_child",
    "wait_for_port",
]

REPO = Path(__file__).resolve().parent.parent
"""The repository root: children run from here so ``-m server.cli`` and ``-m bench.echo`` import."""


def percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted sequence (``q`` from 0 to 100); NaN if empty."""
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used so far (psutil, else /proc); None if unreadable."""
    try:
        import psutil  # type: ignore[import-untyped]

        times = psutil.Process(pid).cpu_times()
        return float(times.user + times.system)
    except ImportError:
        pass
    except Exception:  # psutil.NoSuchProcess, AccessDenied: no figure rather than a crash
        return None
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        # the command name (field 2) may hold spaces; fields after its ')' are space separated
        fields = stat[stat.rindex(")") + 2:].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime: fields 14 and 15 of the whole line
    except (OSError, ValueError, IndexError):
        return None


def format_cpu(used: float | None, operations: int, elapsed: float, what: str) -> str:
    """``N µs/<what> (P% of one core)``, or ``n/a`` when there is no clock or nothing was done."""
    if used is None or operations <= 0 or elapsed <= 0:
        return "n/a"
    return f"{used * 1e6 / operations:.0f} µs/{what} ({100 * used / elapsed:.0f}% of one core)"


def check_loopback(url: str) -> tuple[str, int]:
    """Host and port of a ws:// URL, refused unless the host is a loopback IP literal."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or not parts.hostname or parts.port is None:
        raise SystemExit(f"bench: give a ws://127.0.0.1:PORT URL, not {url!r}")
    try:
        loopback = ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SystemExit(f"bench: only loopback addresses (127.0.0.1) are benchmarked, not {parts.hostname!r}")
    return parts.hostname, parts.port


class Pacer:
    """A client-side token bucket, so one connection stays under a server's per-connection rate limit.

    ``rate <= 0`` turns pacing off. The bucket starts at ``burst - spent`` tokens (the hello is unpaced).
    With ``rng``, each pause is stretched by up to ``jitter`` of itself, so connections started
    together do not stay in lock step and hit the server in synchronized bursts.
    """

    def __init__(self, rate: float, burst: float = 20.0, spent: float = 1.0,
                 rng: random.Random | None = None, jitter: float = 0.25) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = max(0.0, burst - spent)
        self.stamp = time.monotonic()
        self.rng = rng
        self.jitter = jitter
        self.waited = 0.0

    async def take(self) -> None:
        """Wait until a message may be sent, then spend a token for it."""
        if self.rate <= 0:
            return
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return
            pause = (1 - self.tokens) / self.rate
            if self.rng is not None:
                pause *= 1 + self.jitter * self.rng.random()
            self.waited += pause
            await asyncio.sleep(pause)


def cpu_of(pids: list[int]) -> float | None:
    """CPU seconds of all ``pids`` together (the nodes of a run); None if there are none or one cannot be read."""
    times = [cpu_seconds(pid) for pid in pids]
    return None if not times or any(t is None for t in times) else sum(t for t in times if t is not None)


def wait_for_port(process: subprocess.Popen[bytes], port: int, timeout: float = 15.0) -> None:
    """Block until a child listens on 127.0.0.1:``port``; raise if it exits or the time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited at start with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not listen on 127.0.0.1:{port} within {timeout:.0f}s")


def stop_child(process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """SIGTERM a child we started (the servers stop gracefully on it), SIGKILL it if it lingers."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def loop_name() -> str:
    """Which event loop :func:`run_main` uses: uvloop when installed, as the server does."""
    try:
        import uvloop  # noqa: F401

        return "uvloop"
    except ImportError:
        return "asyncio"


def run_main(main: Coroutine[Any, Any, None]) -> None:
    """Run a coroutine on uvloop when installed (as ``cardroom serve`` does), else asyncio; with the garbage
    collector set as the server sets its own (server/ops/collector.py), so that the bench's own collections,
    long with thousands of connections, are not counted as the server's latency."""
    collector.tune()
    if loop_name() == "uvloop":
        import uvloop

        uvloop.run(main)
    else:
        asyncio.run(main)

