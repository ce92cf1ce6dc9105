"""Computer opponents served by the server: a room created with ``computer`` (a level) gets its other seat taken
by a bot of this node's pool.

Each bot is a client of the protocol like any other (bots/runner.py): it connects to this node's own
websocket, joins the room, and decides from the views its own connection receives, so it sees only its seat.
A node runs at most ``MAX_GAMES`` of them at once (``CARDROOM_COMPUTER_GAMES``). A bot that cannot take its seat
(``SIT_ATTEMPTS`` tries) has its room cancelled if the room still waits for players, so that its creator is told."""
from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from bots.players import LEVELS
from bots.runner import play_room
from protocol import ErrorCode, ProtocolError

__all__ = ["GAMES", "LEVELS", "MAX_GAMES", "ComputerPool", "check"]

log = logging.getLogger(__name__)
GAMES = ("creature_wars", "fairy_meat")
"""The games the computer plays (two-player games with a bot of every level)."""
MAX_GAMES = int(os.environ.get("CARDROOM_COMPUTER_GAMES", "32"))
"""Matches the computer plays at once on one node; more are refused with ``unavailable`` (its bots connect from
loopback, within that address's connection cap)."""
SIT_ATTEMPTS = 3
"""Times a bot tries to take its seat (connect and join) before its room is cancelled."""
SIT_PAUSE = 0.5
"""Seconds between those attempts."""


def check(m: dict[str, Any]) -> str | None:
    """The level a ``create_room`` asks the computer to play at (None: no computer), or ``bad_field`` naming
    what does not go with it."""
    level = m.get("computer")
    if level is None:
        return None
    if level not in LEVELS:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: field 'computer' must be one of {', '.join(LEVELS)}")
    if m["game"] not in GAMES:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: the computer plays {', '.join(GAMES)}, not {m['game']!r}")
    if not m.get("sit", True) or m.get("ranked") or m.get("daily"):
        raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: a room against the computer is unrated, not daily, "
                                                 "and its creator sits")
    return str(level)


class ComputerPool:
    """This node's bots: one task per match, each a websocket client of ``url`` (this node)."""

    def __init__(self) -> None:
        self.url = ""
        """This node's own address; set once it listens."""
        self.games: set[asyncio.Task[Any]] = set()
        self.unseated: Callable[[str], Awaitable[None]] | None = None
        """Awaited with a room whose seat a bot could not take (its creator would otherwise wait for an opponent who
        never comes): the node cancels it if it still waits for players."""

    def reserve(self) -> None:
        """Refuse a new match when the pool is full or not listening yet (before the room is made)."""
        if not self.url or len(self.games) >= MAX_GAMES:
            raise ProtocolError(ErrorCode.UNAVAILABLE, "create_room: no computer player is free on this node; try again")

    def join(self, room: str, game: str, level: str) -> None:
        """A bot of ``level`` takes the free seat of ``room`` and plays the match out."""
        task = asyncio.create_task(self._play(room, game, level))
        self.games.add(task)
        task.add_done_callback(self.games.discard)

    async def _play(self, room: str, game: str, level: str) -> None:
        for attempt in range(1, SIT_ATTEMPTS + 1):
            seated = asyncio.Event()
            try:
                await play_room(self.url, room, game, level, seed=f"computer:{room}", name=f"{level} bot",
                                rematches=True, seated=seated)
                return
            except Exception as exc:
                if seated.is_set():  # the room stays playable: its clock and forfeit rules end a match nobody plays
                    log.warning("computer player left: %s", exc, extra={"room": room})
                    return
                log.warning("computer player could not take its seat (attempt %d of %d): %s", attempt, SIT_ATTEMPTS,
                            exc, extra={"room": room})
            if attempt < SIT_ATTEMPTS:
                await asyncio.sleep(SIT_PAUSE)
        if self.unseated is not None:
            try:
                await self.unseated(room)
            except Exception:  # the room then waits, as any, until it expires
                log.exception("room the computer could not sit in not closed", extra={"room": room})

    async def stop(self) -> None:
        for task in list(self.games):
            task.cancel()
        await asyncio.gather(*self.games, return_exceptions=True)
