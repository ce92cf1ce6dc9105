"""Witch effects (sacred_a)."""
from __future__ import annotations

__all__: list[str] = []
