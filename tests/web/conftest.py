"""Browser-test fixtures: Debian's Chromium, found or installed once per run."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium; installed with apt-get when missing and this is a root shell on Debian."""
    found = shutil.which("chromium")
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, timeout=600, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, timeout=1200, env=env)
        found = shutil.which("chromium")
    if found is None:
        pytest.fail("the browser test needs Debian's chromium package: run `apt-get install chromium` as root")
    return found
