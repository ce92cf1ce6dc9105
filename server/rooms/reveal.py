"""When a room's seed may be told: a daily room's only once its day has ended (UTC), so that nobody
can replay the day's deal while the day's table is still open; any other room's at its end."""
from __future__ import annotations

import datetime
import time
from typing import Any

__all__ = ["day_end", "reveal_fields", "seed_fields"]


def day_end(day: str) -> datetime.datetime | None:
    """The end (the UTC midnight after it) of a daily room's day (``YYYY-MM-DD``), or a solitaire event room's end
    of window (an ISO time, ``YYYY-MM-DDTHH:MM:SSZ``); None for "" (neither): most rooms, so told apart first, not by
    the ValueError parsing it would raise."""
    if not day:
        return None
    if "T" in day:
        try:
            return datetime.datetime.fromisoformat(day.replace("Z", "+00:00"))
        except ValueError:
            return None
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


def reveal_fields(seed: int | None, day: str, commitment: str, server_seed: int | None, salt: str,
                  nonces: list[str], how: str, now: float | None = None) -> dict[str, Any]:
    """Everything a finished room reveals of its deal: the seed (withheld for a daily room until its day
    ends), the commitment and, for a salted commitment, the server's secret, its salt, the seats' nonces
    and how the seed was made (the secret withheld with the seed: a fixed room's secret is its seed)."""
    out: dict[str, Any] = {**seed_fields(seed if seed is not None else 0, day, now), "commitment": commitment}
    if server_seed is not None:
        out["seeding"] = how
        if out["seed"] is not None:
            out.update(server_seed=server_seed, salt=salt, nonces=nonces)
    return out
