"""Sacred witches (levels 4-6), part c of the catalogue's order."""
from __future__ import annotations

__all__: list[str] = []
