"""Every client test keeps its identity file in its own temporary directory, never the user's."""
from __future__ import annotations

from pathlib import Path

import pytest

from client.identity import STATE_DIR_ENV


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The state directory (``$CARDROOM_STATE_DIR``) of this test's clients."""
    path = tmp_path / "state"
    monkeypatch.setenv(STATE_DIR_ENV, str(path))
    return path
