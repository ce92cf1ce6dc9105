"""The start-up note on a CPython built without optimizations (server/ops/interpreter.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from server.ops import interpreter

SHARED = "7f00-7f01 r-xp 00000000 00:20 12 /root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0\n"
STATIC = "5600-5601 r-xp 00000000 00:20 12 /usr/bin/python3.11\n"


def test_a_shared_libpython_built_without_pgo_is_the_slow_kind() -> None:
    assert interpreter.unoptimized("'--prefix=/root/.pyenv/versions/3.11.7' '--enable-shared'", SHARED)


def test_a_shared_libpython_built_with_pgo_is_not() -> None:
    # the official images: --enable-shared, with --enable-optimizations and --with-lto
    assert not interpreter.unoptimized("'--enable-optimizations' '--enable-shared' '--with-lto'", SHARED)


def test_a_static_executable_is_not_judged_by_its_packages_sysconfig() -> None:
    # Debian's /usr/bin/python3.11: static, while its sysconfig describes the shared build beside it
    assert not interpreter.unoptimized("'--enable-shared' '--prefix=/usr'", STATIC)


def test_the_note_names_this_interpreter_when_it_is_the_slow_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    maps = Path("/proc/self/maps")
    if not maps.exists():
        pytest.skip("no /proc here")
    monkeypatch.setattr(interpreter, "unoptimized", lambda config_args, text: True)
    line = interpreter.note()
    assert line is not None and sys.executable in line and "docs/deploy.md" in line
    monkeypatch.setattr(interpreter, "unoptimized", lambda config_args, text: False)
    assert interpreter.note() is None

