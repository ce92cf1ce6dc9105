"""The asyncio websockets shell around the engine, in layers that import only downwards (docs/architecture.md):
``cli`` > ``edge`` > ``cluster`` > ``lobby`` > ``rooms`` > ``players`` > ``store`` > ``ops`` > ``errors``."""
from __future__ import annotations

__all__: list[str] = []
