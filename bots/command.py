"""``cardroom bot``: a bot joins a room or hosts rooms; ``cardroom serve --bots N`` keeps N bot rooms waiting."""
from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

from bots.runner import host_forever, play_room
from client.connection import ClientError, ConnectionLost

__all__ = ["BOT_GAMES", "bot_command", "companions"]

BOT_GAMES = ("creature_wars", "fairy_meat")
"""The games ``serve --bots`` opens rooms of, in turn."""


async def bot_command(url: str, game: str, level: str, room: str | None, host: bool, matches: int | None) -> int:
    """Join ``room`` and play it out, or (``host``) open rooms and play whoever sits, ``matches`` times."""
    try:
        if room is not None:
            final = await play_room(url, room, game, level)
            outcome = (final or {}).get("outcome")
            print(f"cardroom bot: room {room} over: {outcome.get('detail', '') if outcome else 'not finished'}")
            return 0
        played = await host_forever(url, game, level, matches=matches)
        print(f"cardroom bot: {played} match(es) played")
        return 0
    except (OSError, ClientError, ConnectionLost) as exc:
        print(f"cardroom bot: {exc}")
        return 1


def companions(count: int, level: str) -> Callable[[str, asyncio.Event], Awaitable[None]] | None:
    """What ``serve --bots N`` runs beside the server once it listens: N bots hosting rooms, each a real
    websocket client of it (two-player games in turn)."""
    if count <= 0:
        return None

    async def run(url: str, stop: asyncio.Event) -> None:
        games = itertools.cycle(BOT_GAMES)
        await asyncio.gather(*(host_forever(url, next(games), level, seed=f"serve:{n}", stop=stop) for n in range(count)))

    return run
