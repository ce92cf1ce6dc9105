"""No file tracked by git holds the markers of an unresolved merge conflict."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Built, not written out: this file must not hold the markers it looks for.
OURS = "<" * 7 + " "
THEIRS = ">" * 7 + " "
BASE = "|" * 7 + " "
"""diff3 style: the common ancestor's side."""
MIDDLE = "=" * 7
"""A marker only between ``OURS`` and ``THEIRS``: alone, such a line is a Markdown or reST underline."""


def conflict_lines(text: str) -> list[int]:
    """The line numbers (from 1) of the conflict markers in ``text``."""
    found: list[int] = []
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(OURS) or line == OURS.rstrip():
            inside = True
            found.append(number)
        elif line.startswith(THEIRS) or line == THEIRS.rstrip():
            inside = False
            found.append(number)
        elif inside and (line == MIDDLE or line.startswith(BASE) or line == BASE.rstrip()):
            found.append(number)
    return found


def tracked_files() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_the_marker_finder_finds_a_conflict_and_nothing_else() -> None:
    conflict = f"a\n{OURS}HEAD\nb\n{MIDDLE}\nc\n{THEIRS}branch\nd\n"
    assert conflict_lines(conflict) == [2, 4, 6]
    assert conflict_lines(f"Title\n{MIDDLE}\n\n| a | b |\n|---|---|\n") == []


def test_no_tracked_file_holds_conflict_markers() -> None:
    problems = []
    for path in tracked_files():
        if not path.is_file():  # deleted in the work tree, or a submodule
            continue
        data = path.read_bytes()
        if b"\0" in data:  # binary
            continue
        lines = conflict_lines(data.decode("utf-8", errors="replace"))
        if lines:
            problems.append(f"{path.relative_to(ROOT)}: lines {', '.join(map(str, lines))}")
    assert not problems, "unresolved merge conflicts:\n  " + "\n  ".join(problems)
