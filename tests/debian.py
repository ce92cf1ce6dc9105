"""Debian packages the tests need (a browser, Redis 7), installed with apt-get when missing in a root shell on
Debian: one installer at a time across the test run's worker processes, which would otherwise meet on dpkg's lock
and all but one fail (apt-get's exit status 100)."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["LOCK", "install"]

LOCK = Path(tempfile.gettempdir()) / "cardroom-tests-apt.lock"
"""The file the workers take turns on (an advisory lock, released when its holder exits, however it ends)."""


def install(package: str, *commands: str) -> bool:
    """Whether every one of ``commands`` is on PATH, after installing ``package`` if one was missing and this is a
    root shell with apt-get: a worker that finds another installing waits for it, then looks again."""
    if all(shutil.which(c) for c in commands):
        return True
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    with LOCK.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            if not all(shutil.which(c) for c in commands):  # else installed while this worker waited
                env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
                subprocess.run(["apt-get", "update", "-qq"], check=True, timeout=600, env=env)
                subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, timeout=1200, env=env)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    return all(shutil.which(c) for c in commands)
