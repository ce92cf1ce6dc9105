"""A bot at the table: a client of the protocol that joins (or opens) a room, decides from the views its own
connection receives, and leaves once the match is over. ``cardroom bot`` and ``cardroom serve --bots N`` run it."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from bots.players import Bot, make
from client.connection import Client, ClientError, ConnectionLost, Seat

__all__ = ["decider", "host_forever", "play_room", "play_seat", "rematched"]

log = logging.getLogger(__name__)
WAIT = 600.0
"""Seconds a bot waits for its next view (an opponent to sit, a move) before it gives the seat up."""
RECONNECTS = 5
"""Attempts to reconnect and resume the seat after the connection drops."""
REMATCH_WAIT = 60.0
"""Seconds a bot waits, once a match is over, for the other seat to ask for a rematch (it always accepts)."""

Decider = Callable[[Mapping[str, Any]], dict[str, Any]]


def _moved_from(version: int) -> Callable[[dict[str, Any]], bool]:
    """A view past ``version``, or the match's end."""
    return lambda view: view["version"] != version or view["outcome"] is not None


def _act(view: Mapping[str, Any]) -> bool:
    return bool(view.get("legal")) or view.get("outcome") is not None


async def play_seat(url: str, client: Client, seat: Seat, decide: Decider, name: str) -> Client:
    """Decide whenever the seat's latest view asks for it, until the match is over; reconnects and resumes
    the seat if the connection drops. Returns the client it ended on."""
    room = seat.room
    for _ in range(RECONNECTS + 1):
        try:
            while True:
                view = await client.wait_view(room, _act, timeout=WAIT)
                if view.get("outcome") is not None:
                    return client
                try:
                    await client.decide(seat, decide(view))
                except ClientError as exc:  # a stale or refused decision: act on the next view
                    log.info("bot decision refused: %s", exc.code)
                    with contextlib.suppress(TimeoutError):
                        await client.wait_view(room, _moved_from(int(view["version"])), timeout=5)
        except ConnectionLost:
            await asyncio.sleep(1.0)
            with contextlib.suppress(Exception):
                await client.close()
            try:
                client = await Client.connect(url, name=name)
                await client.resume(room, seat.token)
            except (OSError, ClientError, ConnectionLost):
                continue
    return client


async def play_room(url: str, room: str, game: str, level: str, *, seed: int | str | None = None,
                    name: str = "", on_decide: Callable[[Mapping[str, Any]], None] | None = None,
                    rematches: bool = False, seated: asyncio.Event | None = None) -> dict[str, Any] | None:
    """Join ``room`` as a bot of ``level``, play its match out (with ``rematches``, and each rematch the other
    seat asks for within ``REMATCH_WAIT`` s) and leave; the final view (None if it never ended while the bot
    held the seat). ``seated`` is set once the bot holds its seat."""
    bot = make(game, level, seed)
    name = name or f"{level} bot"
    client = await Client.connect(url, name=name)
    try:
        seat: Seat | None = await client.join(room)
        if seated is not None:
            seated.set()
        final = None
        while seat is not None:  # the match, then each rematch the other seat asks for
            client = await play_seat(url, client, seat, decider(bot, on_decide), name)
            final = client.views.get(seat.room)
            played, seat = seat, (await rematched(client, seat)) if rematches else None
            with contextlib.suppress(ClientError, ConnectionLost):
                await client.leave(played.room)
        return final
    finally:
        await client.close()


def _others_gone(client: Client, seat: Seat) -> bool:
    """Whether the room last told (``presence``) that no connection holds the other seat of this two-seat room: a
    player gone will not ask for a rematch."""
    return client.presence.get(seat.room, {}).get(1 - seat.seat) is False


async def rematched(client: Client, seat: Seat, wait: float | None = None) -> Seat | None:
    """Once the match is over, accept the rematch the other seat asks for within ``wait`` (``REMATCH_WAIT``)
    seconds: the seat in the new room; None if nobody asked, or at once when the other player has left."""
    deadline = asyncio.get_running_loop().time() + (REMATCH_WAIT if wait is None else wait)
    while asyncio.get_running_loop().time() < deadline and not client.ws.close_code:
        if client.rematch_offers.get(seat.room, set()) - {seat.seat}:
            try:
                await client.rematch(seat)
                for _ in range(100):
                    if seat.room in client.rematches:
                        return client.rematches[seat.room]
                    await asyncio.sleep(0.05)
            except (ClientError, ConnectionLost, TimeoutError) as exc:
                log.info("rematch not taken: %s", exc)
            return None
        if _others_gone(client, seat):
            return None
        await asyncio.sleep(0.1)
    return None


async def host_forever(url: str, game: str, level: str, *, seed: int | str | None = None, matches: int | None = None,
                       stop: asyncio.Event | None = None) -> int:
    """Open a room, wait for someone to sit, play, leave; again, ``matches`` times (or until ``stop``).
    Returns how many matches it finished."""
    bot = make(game, level, seed)
    name = f"{level} bot"
    played = 0
    stop = stop or asyncio.Event()
    while not stop.is_set() and (matches is None or played < matches):
        try:
            client = await Client.connect(url, name=name)
        except OSError:
            await asyncio.sleep(2.0)
            continue
        try:
            seat = await client.create(game)
            assert isinstance(seat, Seat)
            waiting = asyncio.ensure_future(play_seat(url, client, seat, decider(bot, None), name))
            stopped = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({waiting, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if waiting in done:
                client = waiting.result()
                played += 1
                with contextlib.suppress(ClientError, ConnectionLost):
                    await client.leave(seat.room)
            else:
                waiting.cancel()
                with contextlib.suppress(ClientError, ConnectionLost):
                    await client.cancel(seat)  # a room still waiting: nobody is left hanging
            stopped.cancel()
        except (ClientError, ConnectionLost, TimeoutError) as exc:
            log.warning("bot room ended: %s", exc)
            await asyncio.sleep(1.0)
        finally:
            await client.close()
    return played


def decider(bot: Bot, on_decide: Callable[[Mapping[str, Any]], None] | None) -> Decider:
    """The bot's decision on the ``view`` map of a view message (the part ``game.view`` made for its seat)."""
    def decide(message: Mapping[str, Any]) -> dict[str, Any]:
        if on_decide is not None:
            on_decide(message)
        return bot.decide(message)
    return decide
