"""Screens without a server: the messages a server would send, made from the engine, fed to an app that never connects.

Snapshot tests (``snap_compare``) run the app in their own event loop, so no server can
serve it; and a snapshot must not change from run to run (no ports, no random room ids).
:class:`ReplayApp` is the real app with its connection worker left out: the messages go
through the same :meth:`client.link.Link.handle` a live connection uses. :func:`table_messages`
plays a match with the engine (fixed seed, fixed decisions) and returns what the server sends
one seat (or a spectator): ``seat_granted``/``spectating``, each ``view`` with its events,
and ``match_over``.

To add a snapshot: build the messages, then
``assert snap_compare(ReplayApp(messages), terminal_size=(80, 24), run_before=replay)``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from textual.pilot import Pilot

from client.app import CardroomApp
from client.messages import Connected
from client.widgets import EventLog
from engine import registry
from engine.interface import redact_all
from server.rooms import seeding
from tests.client.helpers import settle

__all__ = ["ADDRESS", "ROOM", "URL", "ReplayApp", "replay", "room_summary", "table_messages"]

URL = "ws://cardroom.test:8765"
ADDRESS = "cardroom.test:8765"
SALT = "5a17" * 8
"""The salt of the replayed rooms' commitments (a server draws a random one)."""
ROOM = "a1b2c3d4"
"""The room id the replayed tables use (a server picks a random one)."""


class ReplayApp(CardroomApp):
    """The cardroom app that never connects: :func:`replay` hands it the server's messages.

    The bell and flash are off: a flash lasts a moment, and a snapshot must not depend on when it is taken.
    """

    def __init__(self, messages: Iterable[Mapping[str, Any]], name: str = "alice", **kwargs: Any) -> None:
        kwargs.setdefault("cues", False)
        super().__init__(URL, name, **kwargs)
        self.messages = [dict(m) for m in messages]

    def run_link(self) -> None:  # type: ignore[override]
        """No connection: the messages come from :func:`replay`."""


async def replay(pilot: Pilot[Any]) -> None:
    """Say the link is up, then hand each message to the link as if the server had sent it; let the screens settle."""
    app = pilot.app
    assert isinstance(app, ReplayApp)
    app.post_message(Connected(ADDRESS, False))
    await pilot.pause()
    for message in app.messages:
        app.link.handle(message)
        await pilot.pause()
    await settle(pilot, linger=0)
    for log in app.screen.query(EventLog):  # lines written before the log had its size may leave it short of the end
        log.scroll_end(animate=False, immediate=True)
    await settle(pilot, linger=0)


def room_summary(game: str, *, room: str = ROOM, players: Sequence[str] = (), seats: int = 2, status: str = "waiting",
                 spectators: int = 0, ranked: str = "", scenario: bool = False, score: int | None = None) -> dict[str, Any]:
    """One room as the server's ``rooms`` listing summarises it."""
    found = registry.get(game)
    return {"room": room, "game": game, "title": found.title if found else game, "seats": seats,
            "taken": sum(1 for p in players if p), "spectators": spectators, "status": status,
            "version": 0, "scenario": scenario, "ranked": ranked, "players": list(players), "score": score,
            "commitment": "0" * 64}


def table_messages(game: str, seat: int | None, *, options: Mapping[str, Any] | None = None, seed: int = 1,
                   decisions: Sequence[tuple[int, Mapping[str, Any] | int]] = (), room: str = ROOM,
                   clock: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """What the server sends ``seat`` (``None``: a spectator) of a match played with the engine.

    Each decision is ``(seat, decision)``; a decision given as an int is the index of that seat's
    ``legal`` entry at that point. The first view comes after ``seat_granted`` (or ``spectating``),
    as a server sends it once every seat is taken; ``match_over`` follows the view that ended the match.
    Each view message carries the seat's ``blocked`` reasons and, when given, ``clock``.
    """
    engine = registry.get(game)
    assert engine is not None, game
    options = dict(options or {})
    state = engine.setup(options, seed)
    out: list[dict[str, Any]] = []
    if seat is None:
        out.append({"t": "spectating", "room": room, "game": game, "re": 1})
    else:
        out.append({"t": "seat_granted", "room": room, "game": game, "seat": seat, "token": "t" * 32, "re": 1})

    def view(events: list[dict[str, Any]]) -> dict[str, Any]:
        message = {"t": "view", "room": room, "version": engine.version(state), "view": engine.view(state, seat),
                   "events": events, "re": None, "spectators": 0,
                   "blocked": [] if seat is None else engine.blocked(state, seat)}
        if clock is not None:
            message["clock"] = dict(clock)
        return message

    out.append(view([]))
    for who, decision in decisions:
        chosen = engine.legal(state, who)[decision] if isinstance(decision, int) else dict(decision)
        state, events = engine.apply(state, who, dict(chosen))
        out.append(view(redact_all(list(events), seat)))
        outcome = engine.outcome(state)
        if outcome is not None:
            out.append({"t": "match_over", "room": room, "outcome": outcome.data(), "seed": seed,
                        "commitment": seeding.commitment(room, seed, SALT), "server_seed": seed, "salt": SALT,
                        "seeding": seeding.FIXED, "nonces": []})
            break
    return out
