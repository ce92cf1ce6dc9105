"""Browser-test fixtures: Debian's Chromium, found or installed once per run."""
from __future__ import annotations

import shutil

import pytest

from tests import debian


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium; installed with apt-get when missing and this is a root shell on Debian."""
    found = shutil.which("chromium") if debian.install("chromium", "chromium") else None
    if found is None:
        pytest.fail("the browser test needs Debian's chromium package: run `apt-get install chromium` as root")
    return found
