"""File descriptors: a server out of them refuses connections without a word (the event loop cannot accept),
so their use is watched and said in the log as it nears the limit and when it reaches it."""
from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import resource

__all__ = ["WARN_AT", "usage", "watch"]

log = logging.getLogger(__name__)
WARN_AT = 0.9
"""Share of the limit at which the log warns."""
EVERY = 2.0
"""Seconds between two looks."""


def usage() -> tuple[int, int] | None:
    """(descriptors open, the process's soft limit), where the system tells (Linux); None elsewhere."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        count = len(os.listdir("/proc/self/fd"))
    except OSError as exc:  # listing them takes one more: none left is an answer too
        return (soft, soft) if exc.errno == errno.EMFILE else None
    return count, soft


async def watch(stop: asyncio.Event) -> None:
    """Log once when the descriptors in use pass ``WARN_AT`` of the limit, once when none are left, and once
    when they are back under; until ``stop``."""
    level = 0  # 0 fine, 1 warned, 2 exhausted
    while not stop.is_set():
        seen = usage()
        if seen is not None:
            count, limit = seen
            now = 2 if count >= limit - 4 else 1 if count >= WARN_AT * limit else 0
            if now > level:
                if now == 2:
                    log.error("out of file descriptors (%d open, limit %d): new connections are refused; raise the "
                              "limit (ulimit -n) or lower --max-per-address", count, limit)
                else:
                    log.warning("file descriptors nearly exhausted: %d open of a limit of %d", count, limit)
            elif now == 0 and level:
                log.info("file descriptors back under %d%% of the limit: %d open of %d", WARN_AT * 100, count, limit)
            level = now
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), EVERY)
