"""A real HAProxy in front of test nodes, configured as deploy/haproxy.cfg is (its routing by node included), with
the test's nodes as its servers."""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import WebSocketException

from client import Client, ClientError
from client.routing import routed
from server.store.redis_process import free_port

SERVER = re.compile(r"^\s*server\s.*$", re.MULTILINE)


def haproxy_binary() -> str:
    """Debian's haproxy (2.6 or later: ``use-server`` with a log-format name); installed with apt-get when missing
    and this is a root shell on Debian, else the test is skipped."""
    found = shutil.which("haproxy")
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        try:
            subprocess.run(["apt-get", "update", "-qq"], check=True, timeout=600, env=env)
            subprocess.run(["apt-get", "install", "-y", "-qq", "haproxy"], check=True, timeout=1200, env=env)
        except (subprocess.SubprocessError, OSError) as exc:
            pytest.skip(f"routing by node needs HAProxy, and `apt-get install haproxy` failed: {exc}")
        found = shutil.which("haproxy")
    if found is None:
        pytest.skip("routing by node needs HAProxy: run `apt-get install haproxy` as root")
    return found


def config(deployed: str, port: int, servers: dict[str, str]) -> str:
    """deploy/haproxy.cfg listening on loopback ``port``, its servers replaced by ``servers`` (node id -> ws:// URL),
    checked often so that a test need not wait seconds for a node's state, with fewer connections than a test
    process may open files."""
    text = deployed.replace("bind :8765", f"bind 127.0.0.1:{port}").replace("maxconn 20000", "maxconn 1000")  # (fd limit)
    assert "use-server" in text and text.rstrip().splitlines()[-1].lstrip().startswith("server ")  # the backend ends it
    lines = [f"    server {name} {urlsplit(url).netloc} send-proxy-v2 check inter 200ms fall 2 rise 1"
             for name, url in servers.items()]
    return SERVER.sub("", text).rstrip() + "\n" + "\n".join(lines) + "\n"


@asynccontextmanager
async def haproxy(binary: str, repo_root: Path, tmp: Path, servers: dict[str, str]) -> AsyncIterator[str]:
    """HAProxy in front of ``servers`` (node id -> URL); its ws:// URL once it routes to each of them."""
    port = free_port()
    cfg = tmp / "haproxy.cfg"
    cfg.write_text(config((repo_root / "deploy" / "haproxy.cfg").read_text(), port, servers))
    check = subprocess.run([binary, "-c", "-q", "-f", str(cfg)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    log = (tmp / "haproxy.log").open("wb")
    proc = subprocess.Popen([binary, "-db", "-f", str(cfg)], stdout=log, stderr=subprocess.STDOUT)
    url = f"ws://127.0.0.1:{port}/"
    try:
        for name in servers:  # up, and routing to each node by name
            for _ in range(100):
                try:
                    async with await Client.connect(routed(url, name)) as probe:
                        if probe.node == name:
                            break
                except (OSError, TimeoutError, WebSocketException, ClientError):
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError(f"HAProxy never routed to node {name}")
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


def relayed_frames(url: str) -> float:
    """The ``cardroom_relayed_frames_total`` of the node at ``url`` (read from its /metrics), both sides summed."""
    parts = urlsplit(url)
    with urllib.request.urlopen(f"http://{parts.netloc}/metrics", timeout=5) as response:
        text = response.read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("cardroom_relayed_frames_total{"))
