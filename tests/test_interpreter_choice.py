"""scripts/_env.sh makes .venv with an optimized CPython where one is found: its check agrees with the server's own
(server/ops/interpreter.py), and an interpreter that fails it, or is missing, is passed over for the next."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.ops import interpreter

ROOT = Path(__file__).resolve().parents[1]


def chosen(path: str, candidates: str = "") -> str:
    """The interpreter _env.sh's choice settles on with ``path`` as the PATH (and no .venv, no $PYTHON)."""
    script = (ROOT / "scripts" / "_env.sh").read_text()
    head = script[script.index("optimized() {"):script.index('if [ ! -x .venv/bin/python ]; then\n  "$PY" -m venv')]
    env = {key: value for key, value in os.environ.items() if key != "PYTHON"}
    env["PATH"] = path
    code = head.replace("[ -x .venv/bin/python ]", "false") + '\necho "$PY"\n'
    if candidates:
        code = code.replace("python3 python3.13 python3.12 python3.11 /usr/bin/python3 /usr/local/bin/python3", candidates)
    ran = subprocess.run(["/bin/bash", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.strip()


def test_this_interpreter_is_chosen_exactly_when_the_server_calls_it_optimized() -> None:
    here = chosen(os.environ.get("PATH", ""), sys.executable)
    assert here == (sys.executable if interpreter.note() is None else "python3")


def test_the_first_interpreter_that_passes_is_chosen_and_those_failing_or_missing_are_passed_over(
        tmp_path: Path) -> None:
    def fake(name: str, status: int) -> Path:
        path = tmp_path / name
        path.write_text(f"#!/bin/sh\ncat >/dev/null\nexit {status}\n")
        path.chmod(0o755)
        return path

    broken, passing, later = fake("slow-python", 1), fake("fast-python", 0), fake("later-python", 0)
    candidates = f"{tmp_path / 'missing-python'} {broken} {passing} {later}"
    assert chosen(f"{tmp_path}:/usr/bin:/bin", candidates) == str(passing)
    assert chosen(f"{tmp_path}:/usr/bin:/bin", f"{broken} {tmp_path / 'missing-python'}") == "python3"
