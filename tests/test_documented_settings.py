"""Every ``CARDROOM_`` setting the packages and scripts read is named in the README or in ``docs/``: a setting
added to the code alone would be one that only its reader knows of."""
from __future__ import annotations

import re
from pathlib import Path

from tests.test_image import installed_packages

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(rb"CARDROOM_[A-Z][A-Z0-9_]*")


def _named_in(paths: list[Path]) -> set[str]:
    return {match.decode() for path in paths for match in NAME.findall(path.read_bytes())}


def test_every_setting_the_code_reads_is_documented() -> None:
    read = _named_in([path for folder in (*sorted(installed_packages()), "scripts") for path in (ROOT / folder).rglob("*")
                      if path.is_file() and path.suffix in ("", ".py", ".sh") and "__pycache__" not in path.parts])
    documented = _named_in([ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])
    assert len(read) > 20, sorted(read)  # the scan found the settings (a moved folder would find none)
    assert read <= documented, f"read but named in no document: {sorted(read - documented)}"
