"""The modules of the compiled build written in C (``engine/_compiled.py``'s ``NATIVE``), for the tests that compare
them with what they stand in for."""
from __future__ import annotations

import importlib
from typing import Any

import pytest


def native(name: str) -> tuple[Any, pytest.MarkDecorator]:
    """``protocol.<name>`` as the compiled build loads it (None without that build), and a mark that skips a test
    without it."""
    try:
        module: Any = importlib.import_module(f"protocol.{name}")
    except ImportError:
        module = None
    return module, pytest.mark.skipif(module is None, reason=f"no compiled build: protocol.{name} is not built")
