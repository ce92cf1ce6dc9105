"""Helpers for server tests: play random legal moves, replay a room's log, find leaked cards."""
from __future__ import annotations

import asyncio
import random
from typing import Any

from client import Client
from client.connection import Seat
from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import Event, redact_all
from protocol import decode_any
from protocol.delta import apply
from server.rooms.peer import Peer
from server.rooms.room import Room
from server.rooms.tokens import hash_token
from server.store.store import RoomRecord, Store

LOST_AT_DEAL = 7
"""A Fairy Tableau seed whose deal is lost before any decision (about one deal in 80 is)."""
OVER_AT_DEAL = 3012
"""A Creature Wars seed whose deal at 1 HP (``QUICK``) ends the match at turn 1's draws, before anyone decides (about
one such deal in 10,000 does)."""


async def play_turn(players: list[tuple[Client, Seat]], rng: random.Random) -> bool:
    """Each seat with a legal decision sends one, then every player is :func:`caught_up`: the turns a seeded ``rng``
    plays, and the versions each player holds on return, do not depend on how fast the pushes come. False once the
    match is over."""
    moved = False
    for client, seat in players:
        view = client.views.get(seat.room)
        if view is None or view["outcome"] is not None:
            continue
        if view["legal"]:
            await client.decide(seat, rng.choice(view["legal"]))
            moved = True
    if moved:
        await caught_up(players)
    else:
        await asyncio.sleep(0.01)
    first = players[0][0].views.get(players[0][1].room)
    return first is not None and first["outcome"] is None


async def caught_up(players: list[tuple[Client, Seat]]) -> None:
    """Until every player holds the newest version any of them holds: a decision's reply reaches its decider before
    the other seats' pushes reach them (a seat whose view is behind would skip a turn, or a test read a version
    it has yet to be sent)."""
    latest = max(client.versions.get(seat.room, -1) for client, seat in players)
    for client, seat in players:
        await client.wait_for(lambda c=client, room=seat.room: c.versions.get(room, -1) >= latest)  # type: ignore[misc]


async def play_to_end(players: list[tuple[Client, Seat]], seed: int, bound: int = 400) -> None:
    """Random decisions until the match is over and every player has its ``match_over`` (it follows the last
    view: a caller may read ``over`` at once)."""
    rng = random.Random(seed)
    for _ in range(bound):
        if not await play_turn(players, rng):
            for client, seat in players:
                await client.wait_for(lambda c=client, room=seat.room: room in c.over)  # type: ignore[misc]
            return
    raise AssertionError("match did not end within the bound")


async def replay(redis_url: str, room: str, options: dict[str, Any], seed: int) -> dict[int, State]:
    """Every state of a room by version, rebuilt from the stored decision log with the engine."""
    states, _ = await replay_with_events(redis_url, room, options, seed)
    return states


async def replay_with_events(redis_url: str, room: str, options: dict[str, Any], seed: int
                             ) -> tuple[dict[int, State], dict[int, list[Event]]]:
    """States and the events that led to each version, rebuilt from the stored log with the engine."""
    store = Store(redis_url)
    try:
        records = await store.log(room)
    finally:
        await store.close()
    state = GAME.setup(options, seed)
    states = {state.version: state}
    events: dict[int, list[Event]] = {state.version: []}
    for record in records:
        state, new = GAME.apply(state, record["seat"], record["d"])
        assert state.version == record["v"]
        states[state.version] = state
        events[state.version] = list(new)
    return states, events


def received(frames: list[bytes]) -> list[dict[str, Any]]:
    """The frames decoded, each ``view`` delta applied to the view before it in its room (its ``base`` must be the
    version of that view), so every view message holds its whole view under ``view``."""
    held: dict[str, tuple[int, Any]] = {}
    out = []
    for frame in frames:
        message = decode_any(frame)
        if message.get("t") == "view":
            room = message["room"]
            if "delta" in message:
                version, view = held[room]
                assert message["base"] == version, f"a delta on v{message['base']} came to a client holding v{version}"
                message["view"] = apply(view, message["delta"])
            held[room] = message["version"], message["view"]
        out.append(message)
    return out


def projection_errors(frames: list[bytes], states: dict[int, State], events: dict[int, list[Event]],
                      seat: int | None) -> list[str]:
    """Frames that are not exactly the engine's view and redacted events for ``seat`` at their version."""
    errors = []
    for message in received(frames):
        if message.get("t") != "view":
            continue
        version = message["version"]
        if message["view"] != GAME.view(states[version], seat):
            errors.append(f"v{version}: the view differs from view(state, {seat})")
        if message["events"] not in ([], redact_all(events[version], seat)):
            errors.append(f"v{version}: the events differ from redact_all(events, {seat})")
    return errors


def announced(frames: list[bytes]) -> dict[int, set[str]]:
    """By version, every string a spectator had been told or shown so far: what is public knowledge by then (a
    creature seen in a duel may be named later, when it is back in a hand: Seductive Witch's modifier)."""
    told: set[str] = set()
    out: dict[int, set[str]] = {}
    for message in received(frames):
        if message.get("t") == "view":
            told |= set(strings(message["events"])) | set(strings(message.get("recent") or []))
            told |= set(strings(message["view"] or {}))
            out[message["version"]] = set(told)
    return out


def hidden_texts(state: State, seat: int | None) -> set[str]:
    """Notations of cards ``seat`` may not see (spectator: ``None``) that are not public or its own."""
    hidden = [c for s in (0, 1) if s != seat for c in state.hands[s]] + list(state.deck)
    public = {c.notation() for c in state.discard}
    if state.last_duel is not None:
        public |= {c.notation() for c in state.last_duel.cards if c is not None}
    # its own cards, Grinch's sack in its hand included (each card it stuffs there is told to its holder alone)
    own = {c.notation() for c in (*state.hands[seat], *state.sacks[seat])} if seat is not None else set()
    return {c.notation() for c in hidden} - public - own


def strings(value: Any) -> list[str]:
    """Every string inside a decoded message, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def leaks(frames: list[bytes], states: dict[int, State], seat: int | None,
          public: dict[int, set[str]] | None = None) -> list[str]:
    """What in ``frames`` names a card hidden from ``seat`` at that frame's version, or internal fields.

    ``public`` (by version) is what had been announced to everyone by then, e.g. a token a witch
    effect gave in the open: naming such a card is not a leak; nor is naming a card a question put to ``seat``
    offered it, one an event about its own hand named (a card given to it, a copy of an enemy creature, the hand
    it took by a swap, a card of its hand as it was before a later effect of the same decision changed it), or one
    an effect showed it alone (the other seat's hand, a creature of it marked): from then on, it has seen it.
    """
    found = []
    asked: set[str] = set()
    for message in received(frames):
        if message.get("t") != "view" or message["view"] is None:  # null: no deal yet, nothing to leak
            continue
        state = states[message["version"]]
        if seat is not None:  # what the rules show this seat alone: it has seen it from then on
            if state.pending is not None and state.pending.seat == seat:
                asked |= set(state.pending.options)  # what a question offers it to choose from (Liberating Witch)
            # an event about its own hand names its cards as they were then, which a later effect of the same
            # decision may change (a card drawn or given to it, a copy of an enemy's creature (Envious Witch)
            # included; the hand it took (Witcheroo); a card of its hand transformed, then raised by a rally)
            # and what an effect showed it alone (Prophetic Witch: the other seat's hand as it was then; Grim Witch:
            # the enemy creature it marked)
            asked |= {text for e in message["events"] if e.get("seat") == seat or e.get("kind") == "secret"
                      for text in strings(e)}
        texts = strings(message)
        for key in ("uid", "rng", "sealed", "next_uid"):
            if key in texts:
                found.append(f"v{message['version']}: internal field {key!r} sent")
        for s, hand in enumerate(message["view"]["hands"]):
            if s != seat and "cards" in hand:
                found.append(f"v{message['version']}: seat {s}'s hand cards sent to {seat}")
        known = (public or {}).get(message["version"], set()) | asked
        # an event may name the seat's own card as it was before this version (Chiquita Witch ripening it)
        before = states.get(message["version"] - 1)
        if seat is not None and before is not None:
            known = known | {c.notation() for c in before.hands[seat]}
        for secret in hidden_texts(state, seat):
            if any(secret in text for text in known):
                continue
            if any(secret in text for text in texts):
                found.append(f"v{message['version']}: {secret!r} sent to {seat}")
    return found


async def play_out(client: Client, seat: Seat, seed: int, bound: int = 600) -> dict[str, Any]:
    """A solitaire played with random legal moves (avoiding moves that lose at once while others exist) until
    it ends; the final view."""
    rng = random.Random(seed)
    for _ in range(bound):
        view = client.views[seat.room]
        if view["outcome"] is not None:
            return view
        safe = [d for d in view["legal"] if not d.get("loses")] or view["legal"]
        await client.decide(seat, rng.choice(safe))
    raise AssertionError("the game did not end within the bound")


def watched_room(seed: int, peers: list[Peer], store: Any) -> Room:
    """A Creature Wars room dealt from ``seed`` in memory, on ``store`` (bench.room's ``Keeps``: one that keeps
    nothing), each of ``peers`` watching its seat with its whole view sent: a room's frames without sockets or Redis."""
    state = GAME.setup({}, seed)
    record = RoomRecord(room=f"room{seed}", game=GAME.name, options={}, seed=seed, commitment="", created=0.0,
                        version=GAME.version(state), state=GAME.dump(state),
                        seats=(hash_token("seat 0"), hash_token("seat 1")))
    room = Room(record, GAME, state, store)
    for seat, peer in enumerate(peers):
        room.watch(peer, seat)
        room.send_entry(peer, seat, 0)
    return room


async def decide_at_random(room: Room, peers: list[Peer], rng: random.Random, n: int) -> bool:
    """One random legal decision of either seat of a :func:`watched_room`, made by its peer (request id ``n``);
    False, and none made, once the match is over."""
    if GAME.outcome(room.state) is not None:
        return False
    seat, decision = rng.choice([(s, d) for s in (0, 1) for d in GAME.legal(room.state, s)])
    await room.decide(peers[seat], f"seat {seat}", room.version, dict(decision), n)
    return True
