"""Every client test keeps its identity file in its own temporary directory, never the user's; a snapshot is taken
with the screens' clock standing still."""
from __future__ import annotations

from pathlib import Path

import pytest

from client import clock
from client.identity import STATE_DIR_ENV


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The state directory (``$CARDROOM_STATE_DIR``) of this test's clients."""
    path = tmp_path / "state"
    monkeypatch.setenv(STATE_DIR_ENV, str(path))
    return path


STILL = 1000.0
"""The screens' clock (``client.clock.monotonic``) in a snapshot test."""


@pytest.fixture(autouse=True)
def still_clock(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a snapshot test, countdowns show the seconds their view gave, however long the machine takes to draw
    the screen (a Fairy Meat table once showed 29 s for 30 on a loaded machine)."""
    if "snap_compare" in request.fixturenames:
        monkeypatch.setattr(clock, "monotonic", lambda: STILL)
