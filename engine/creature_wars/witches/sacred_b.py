"""Witch effects (sacred_b)."""
from __future__ import annotations

__all__: list[str] = []
