"""A lane for the requests that read rather than play (listings, spectating, tables, records): at most
``PER_TURN`` of them start per turn of the event loop, the rest wait their turn in order.

A decision takes a few turns of the loop (read, commit, reply). A burst of reading requests handled all
at once (hundreds of spectators arriving together, a client flooding listings) makes each of those turns
long, and every player waits; spread over turns, the burst costs each turn at most ``PER_TURN`` requests.
Every request still gets its answer: a queued one starts within its place in the line, in turns.
"""
from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["PER_TURN", "READING", "Lane"]

PER_TURN = 4
"""Reading requests started per turn of the event loop."""
READING = frozenset({"list_rooms", "spectate", "scores", "ratings", "history", "export", "replay", "my_rooms", "list_events",
                     "follow_event"})
"""The requests that go through the lane: nothing a seat needs to play."""


class Lane:
    """Starts at most ``per_turn`` waiters per turn of the loop, first come first served."""

    def __init__(self, per_turn: int = PER_TURN) -> None:
        self.per_turn = per_turn
        self.started = 0
        """Requests started in this turn."""
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.armed = False

    async def turn(self) -> None:
        """Return once this request may start."""
        if not self.waiting and self.started < self.per_turn:
            self.started += 1
            self._arm()
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        self._arm()
        await waiter

    def _arm(self) -> None:
        if not self.armed:
            self.armed = True
            asyncio.get_running_loop().call_soon(self._next_turn)

    def _next_turn(self) -> None:
        """A new turn: start the next waiters (those cancelled meanwhile are skipped)."""
        self.armed = False
        self.started = 0
        while self.waiting and self.started < self.per_turn:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                self.started += 1
        if self.started or self.waiting:
            self._arm()
