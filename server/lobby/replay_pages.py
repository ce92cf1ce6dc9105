"""A finished match's replay as views (``replay``): for a client with no engine of its own, the browser's.

The match is rebuilt from its record (the one ``export`` gives, under the same rules: refused with
``match_running`` while it runs, ``replay_private`` per the room's ``replays`` setting, a daily
room's ``day_not_over`` until its day ends) with the pure engine, as ``cardroom replay`` does; each
step is shown as the terminal's replay viewer shows it: the full view (a spectator's table with
each hand from its own seat's view) and each seat's view, with the step's events as each was told
them. A page holds at most ``MOST`` steps (``start``, ``limit``; ``next`` the first step of the
next page). Rebuilt matches are kept for the next pages (``KEPT`` of them, the most recently asked).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import registry
from engine.errors import EngineError
from engine.interface import Game, redact_all
from engine.record import Step, full_events, replayed
from protocol import ErrorCode, ProtocolError
from server.lobby.lobby import Lobby
from server.lobby.records import match_record

__all__ = ["KEPT", "MOST", "STEPS", "replay_page"]

STEPS = 20
"""Steps in a page when ``limit`` is not given."""
MOST = 30
"""The most steps a page holds (a two-seat step carries three views, 25 kB at most: a page stays under a megabyte)."""
KEPT = 16
"""Rebuilt matches this node keeps for the pages that follow."""


@dataclass(frozen=True, slots=True)
class _Rebuilt:
    game: Game
    seats: int
    steps: tuple[Step, ...]


_kept: OrderedDict[tuple[str, int], _Rebuilt] = OrderedDict()


def _rebuild(record: Mapping[str, Any]) -> _Rebuilt:
    """Every state of the match, from the record's seed and decisions."""
    key = (str(record["room"]), len(record["decisions"]))
    found = _kept.get(key)
    if found is not None:
        _kept.move_to_end(key)
        return found
    game = registry.get(str(record["game"]))
    if game is None:  # a record is only ever written for a known game
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"room {record['room']} is of an unknown game {record['game']!r}")
    options: Mapping[str, Any] = record["options"] or {}
    try:
        steps = replayed(game, options, int(record["seed"]), record["decisions"])
    except EngineError as exc:  # checked as it was written: played under other rules, or changed in the store
        raise ProtocolError(ErrorCode.RECORD_UNREPLAYABLE,
                            f"room {record['room']}: its record does not replay under these rules ({exc.message})") from None
    rebuilt = _Rebuilt(game, game.seats(options), steps)
    _kept[key] = rebuilt
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return rebuilt


def _viewers(seats: int) -> Sequence[int | None]:
    """Whose views a step carries: the full view (a spectator's, or a solitaire's one player), then each seat's."""
    return (None, *range(seats)) if seats > 1 else (0,)


def _step(rebuilt: _Rebuilt, n: int) -> dict[str, Any]:
    step, game = rebuilt.steps[n], rebuilt.game
    viewers = _viewers(rebuilt.seats)
    return {
        "step": n,
        "version": game.version(step.state),
        "seat": step.seat,
        "kind": str(step.decision.get("kind", "")) if step.decision is not None else "",
        "label": step.label,
        "mark": step.mark,
        "views": [game.view(step.state, viewer) for viewer in viewers],
        "events": [full_events(step.events, rebuilt.seats) if viewer is None else redact_all(list(step.events), viewer)
                   for viewer in viewers],
    }


def _bounds(start: Any, limit: Any, last: int) -> tuple[int, int]:
    start = 0 if start is None else start
    limit = STEPS if limit is None else limit
    if not 0 <= start <= last:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"replay: field 'start' must be a step from 0 to {last}, not {start}")
    if not 1 <= limit <= MOST:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"replay: field 'limit' must be from 1 to {MOST}, not {limit}")
    return start, limit


async def replay_page(lobby: Lobby, room_id: str, player: str | None, token: str | None, start: int | None = None,
                      limit: int | None = None) -> dict[str, Any]:
    """One page of a finished match's replay: the ``replay`` reply's fields."""
    record = await match_record(lobby, room_id, player, token)
    if record.get("seed") is None:
        raise ProtocolError(ErrorCode.DAY_NOT_OVER, f"room {room_id} dealt a day's deal: its replay is given once "
                                                    f"the day has ended ({record.get('reveal_after')})")
    last = len(record["decisions"])
    first, count = _bounds(start, limit, last)
    rebuilt = _rebuild(record)
    end = min(last, first + count - 1)
    return {
        "room": room_id,
        "game": rebuilt.game.name,
        "options": record["options"],
        "seats": rebuilt.seats,
        "names": record["names"],
        "outcome": record["outcome"],
        "last": last,
        "marks": [n for n, step in enumerate(rebuilt.steps) if step.mark],
        "steps": [_step(rebuilt, n) for n in range(first, end + 1)],
        "next": end + 1 if end < last else None,
    }
