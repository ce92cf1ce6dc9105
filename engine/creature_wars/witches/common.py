"""Witch effects (common)."""
from __future__ import annotations

__all__: list[str] = []
