"""A server out of file descriptors says so in its log (it cannot accept, so nobody else would know)."""
from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
from pathlib import Path

from client import Client
from tests.server.nodes import serving_url


def _low_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


async def test_running_out_of_file_descriptors_is_logged(redis_url: str, repo_root: Path, tmp_path: Path) -> None:
    err = (tmp_path / "stderr").open("wb")
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", "0", "--redis-url", redis_url],
                            cwd=repo_root, stdout=subprocess.PIPE, stderr=err, preexec_fn=_low_limit,
                            env={**os.environ, "CARDROOM_LOG": "INFO"})
    conns = []
    try:
        url = await serving_url(proc, "the server")
        for _ in range(100):
            try:
                conns.append(await asyncio.wait_for(Client.connect(url), 2))  # kept: it says hello
            except (OSError, TimeoutError):
                if not conns:
                    await asyncio.sleep(0.1)  # still starting
            except Exception:  # refused once the descriptors ran out
                pass
        log = ""
        for _ in range(100):  # it looks every 2 s
            log = (tmp_path / "stderr").read_text()
            if "out of file descriptors" in log:
                break
            await asyncio.sleep(0.1)
        assert "out of file descriptors" in log
    finally:
        for client in conns:
            client.ws.transport.abort()
        proc.kill()
        proc.wait()
        err.close()
