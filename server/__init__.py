"""The asyncio websockets shell: sessions, rooms, lobby and the Redis store."""
from __future__ import annotations

__all__: list[str] = []
