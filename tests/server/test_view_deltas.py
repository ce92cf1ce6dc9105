"""Views as deltas through the real server: every delta a seat or a spectator is sent builds on the version it
holds and rebuilds exactly the view the engine gives at that version, in seeded random matches of every game;
a client that misses a version asks for a whole view and gets it; a client that does not ask for deltas gets
whole views only."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest

from client import Client, ClientError
from client.connection import Seat
from engine import registry
from protocol import decode_any
from server.store.store import Store
from tests.server.helpers import received

SEEDS = tuple(range(11, 19))
ROUNDS = 150


def wire(value: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


async def seated(game: str, seed: int, url: str) -> tuple[list[tuple[Client, Seat]], Client]:
    """Every seat of a new room of ``game`` taken by its own client (asking for deltas), and a spectator."""
    seats = registry.GAMES[game].seats({})
    first = await Client.connect(url, record_frames=True)
    created = await first.create(game, seed=seed)
    assert isinstance(created, Seat)
    players = [(first, created)]
    for _ in range(seats - 1):
        client = await Client.connect(url, record_frames=True)
        players.append((client, await client.join(created.room)))
    watcher = await Client.connect(url, record_frames=True)
    await watcher.spectate(created.room)
    return players, watcher


async def play(players: list[tuple[Client, Seat]], rng: random.Random, rounds: int) -> None:
    """Random legal decisions (of those that do not lose at once, when there are), each seat in turn, for
    ``rounds`` rounds or until the match is over."""
    for _ in range(rounds):
        moved = False
        for client, seat in players:
            view = client.views.get(seat.room)
            if view is None or view.get("outcome") is not None or not view["legal"]:
                continue
            safe = [d for d in view["legal"] if not d.get("loses")] or view["legal"]
            try:
                await client.decide(seat, rng.choice(safe))
            except ClientError as exc:  # the other seat's decision came first
                assert exc.code in ("stale_version", "not_your_turn", "illegal_decision", "match_over"), exc
            moved = True
        if not moved:
            if all(c.views.get(s.room, {}).get("outcome") is not None for c, s in players):
                return
            await asyncio.sleep(0.01)


async def states_of(redis_url: str, game: str, room: str, seed: int) -> dict[int, Any]:
    """Every state of the room by version, replayed from its stored log with the engine."""
    rules = registry.GAMES[game]
    store = Store(redis_url)
    try:
        records = await store.log(room)
    finally:
        await store.close()
    state = rules.setup({}, seed)
    states = {rules.version(state): state}
    for record in records:
        state, _ = rules.apply(state, record["seat"], record["d"])
        states[rules.version(state)] = state
    return states


@pytest.mark.parametrize("game", sorted(registry.GAMES))
async def test_each_delta_rebuilds_the_whole_view_of_its_version(server_url: str, redis_url: str, game: str) -> None:
    rules = registry.GAMES[game]
    for seed in SEEDS:
        players, watcher = await seated(game, seed, server_url)
        room = players[0][1].room
        try:
            await play(players, random.Random(seed), ROUNDS)
            states = await states_of(redis_url, game, room, seed)
            final = max(states)
            for client in [c for c, _ in players] + [watcher]:
                await client.wait_for(lambda c=client, r=room, v=final: c.versions.get(r) == v)  # type: ignore[misc]
            deltas = 0
            for client, seat in [(c, s.seat) for c, s in players] + [(watcher, None)]:
                # received() checks each delta's base is the version of the view before it
                views = [m for m in received(client.frames) if m.get("t") == "view" and m["view"] is not None]
                assert views and views[-1]["version"] == final
                for message in views:
                    expected = wire(rules.view(states[message["version"]], seat))
                    assert message["view"] == expected, f"{game} seed {seed}: seat {seat}'s view at v{message['version']}"
                deltas += sum(1 for f in client.frames if "delta" in decode_any(f))
                assert client.views[room] == wire(rules.view(states[final], seat))
            assert deltas > 0 or final == 0
        finally:
            for client in [c for c, _ in players] + [watcher]:
                await client.close()


async def test_a_client_that_misses_a_version_asks_for_the_whole_view(server_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url)
    try:
        sa = await a.create("creature_wars", seed=5)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        room = sa.room
        await b.decide(sb, b.views[room]["legal"][0])
        await a.wait_for(lambda: a.versions.get(room) == 1)
        held = a.versions[room]
        a.versions[room] = held - 1  # as if the view of this version had been lost
        reply = await a.decide(sa, a.views[room]["legal"][0], version=held)
        whole = await a.request("view", room=room)
        assert "delta" not in whole and whole["re"] is not None
        assert reply["version"] == whole["version"] == a.versions[room] == 2
        assert reply["view"] == whole["view"] == a.views[room]
        frames = [decode_any(f) for f in a.frames]
        views = [m for m in frames if m.get("t") == "view"]
        gap = next(n for n, m in enumerate(views) if "delta" in m and m["base"] == held)
        asked = views[gap + 1]
        assert "view" in asked and asked["re"] not in (None, reply["re"]), "a whole view answered the client's request"
        with pytest.raises(ClientError) as refused:
            await b.request("view", room="nosuchroom")
        assert refused.value.code == "unknown_room"
        await b.leave(room)
        with pytest.raises(ClientError) as refused:
            await b.request("view", room=room)
        assert refused.value.code == "unknown_room"
    finally:
        await a.close()
        await b.close()


async def test_a_client_that_does_not_ask_gets_whole_views(server_url: str) -> None:
    plain = await Client.connect(server_url, record_frames=True, deltas=False)
    other = await Client.connect(server_url, record_frames=True)
    plain_watcher = await Client.connect(server_url, record_frames=True, deltas=False)
    watcher = await Client.connect(server_url, record_frames=True)
    try:
        sp = await plain.create("fairy_meat", seed=9)
        assert isinstance(sp, Seat)
        so = await other.join(sp.room)
        await plain_watcher.spectate(sp.room)
        await watcher.spectate(sp.room)
        await play([(plain, sp), (other, so)], random.Random(3), 20)
        final = max(c.versions[sp.room] for c in (plain, other))
        for client in (plain_watcher, watcher):
            await client.wait_for(lambda c=client: c.versions.get(sp.room) == final)  # type: ignore[misc]
        for client in (plain, plain_watcher):
            views = [decode_any(f) for f in client.frames]
            views = [m for m in views if m.get("t") == "view"]
            assert views and all("view" in m and "delta" not in m and "base" not in m for m in views)
        assert any("delta" in decode_any(f) for f in other.frames + watcher.frames)
        whole = {m["version"]: m["view"] for m in received(plain_watcher.frames) if m.get("t") == "view"}
        rebuilt = {m["version"]: m["view"] for m in received(watcher.frames) if m.get("t") == "view"}
        assert rebuilt == {v: whole[v] for v in rebuilt}
    finally:
        for client in (plain, other, plain_watcher, watcher):
            await client.close()
