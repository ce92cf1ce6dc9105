"""When a room's seed may be told: a daily room's only once its day has ended (UTC), so that nobody
can replay the day's deal while the day's table is still open; any other room's at its end."""
from __future__ import annotations

import datetime
import time
from typing import Any

__all__ = ["day_end", "seed_fields"]


def day_end(day: str) -> datetime.datetime | None:
    """The end (the UTC midnight after it) of a daily room's day (``YYYY-MM-DD``); None for "" (not a daily room)."""
    try:
        date = datetime.date.fromisoformat(day)
    except ValueError:
        return None
    return datetime.datetime.combine(date + datetime.timedelta(days=1), datetime.time(), datetime.UTC)


def seed_fields(seed: int, day: str, now: float | None = None) -> dict[str, Any]:
    """``seed`` as a finished room tells it: ``{"seed": seed}``, or, for a daily room (ranked or practice)
    whose day has not ended, ``{"seed": None, "reveal_after": "<ISO time of the day's end>"}``."""
    end = day_end(day)
    if end is not None and (time.time() if now is None else now) < end.timestamp():
        return {"seed": None, "reveal_after": end.isoformat().replace("+00:00", "Z")}
    return {"seed": seed}
