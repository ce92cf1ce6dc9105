"""A server process freezes what it loaded before serving out of the garbage collections and collects its
young objects less often than CPython's defaults (server/ops/collector.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.edge import app
from server.ops import collector


def test_tune_freezes_what_is_loaded_and_sets_the_thresholds() -> None:
    script = ("import gc, json; from server.edge import app; before = gc.get_freeze_count(); "
              "app.collector.tune(); print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold()]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    before, frozen, thresholds = json.loads(out.stdout.strip().splitlines()[-1])
    assert before == 0 and frozen > 10_000  # the server's modules and what they hold at import
    assert tuple(thresholds) == collector.THRESHOLDS and collector.THRESHOLDS[0] > 700


def test_cardroom_serve_tunes_the_collector_before_it_serves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[str] = []
    monkeypatch.setattr(app.collector, "tune", lambda: calls.append("tune"))
    monkeypatch.setattr(app, "_run_loop", lambda main: (main.close(), calls.append("serve")))
    app.serve_forever(host="127.0.0.1", port=0, redis_url="redis://127.0.0.1:1", data_dir=str(tmp_path))
    assert calls == ["tune", "serve"]
