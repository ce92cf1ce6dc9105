"""A full match between two real clients and a spectator, every frame checked for hidden cards."""
from __future__ import annotations

from client import Client
from server.store.store import Store
from tests.server.helpers import announced, leaks, play_to_end, projection_errors, received, replay_with_events

SEED = 20261121


async def test_full_match_hides_what_each_may_not_see(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url, name="a", record_frames=True)
    b = await Client.connect(server_url, name="b", record_frames=True)
    watcher = await Client.connect(server_url, name="w", record_frames=True)
    try:
        sa = await a.create("creature_wars", {}, seed=SEED)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await watcher.spectate(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=1)
        await watcher.wait_view(sa.room, lambda v: v["outcome"] is not None)
        over = a.over[sa.room]
        assert over["seed"] == SEED
        states, events = await replay_with_events(redis_url, sa.room, {}, over["seed"])
        final = max(states)
        assert a.versions[sa.room] == b.versions[sa.room] == watcher.versions[sa.room] == final
        assert states[final].outcome is not None
        assert over["outcome"]["winner"] == states[final].outcome.winner
        public = announced(watcher.frames)
        for client, seat in ((a, 0), (b, 1), (watcher, None)):
            # exactly the engine's projection for that recipient, and no card it may not know
            assert projection_errors(client.frames, states, events, seat) == []
            assert leaks(client.frames, states, seat, public) == []
        # the spectator saw every version, and every one of its views hid both hands
        spectator_views = received(watcher.frames)
        seen = {m["version"] for m in spectator_views if m.get("t") == "view"}
        assert seen >= set(range(min(seen), final + 1))
        assert all("cards" not in h for m in spectator_views if m.get("t") == "view" for h in m["view"]["hands"])
    finally:
        for c in (a, b, watcher):
            await c.close()


async def test_acknowledged_means_stored(server_url: str, redis_url: str) -> None:
    """When a decision's reply arrives, Redis already holds that version and its log record."""
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=7)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        for client, seat in ((a, sa), (b, sb)):
            view = client.views[seat.room]
            reply = await client.decide(seat, view["legal"][0])
            record = await store.load(seat.room)
            assert record is not None and record.version == reply["version"]
            log = await store.log(seat.room)
            assert log[-1]["v"] == reply["version"] and log[-1]["seat"] == seat.seat
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_sealed_plays_reveal_together(server_url: str) -> None:
    """The first lock-in shows only 'locked in'; the second reveals both cards in one view."""
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", seed=11)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        start = a.versions[sa.room]
        card_a = a.views[sa.room]["hands"][0]["cards"][0]["text"]
        first = await a.decide(sa, {"kind": "play", "slot": 0})
        view_b = await b.wait_view(sb.room, lambda v: v["version"] == start + 1)
        assert view_b["locked"] == [True, False]
        assert card_a not in str(view_b) and card_a not in str(b.frames[-1])
        assert first["view"]["locked_card"]["text"] == card_a
        # b's decision made against the version before a locked in is still current
        second = await b.decide(sb, {"kind": "play", "slot": 0}, version=start)
        revealed = second["view"]["last_duel"]["cards"]
        assert revealed[0]["text"].split(":")[0] == card_a.split(":")[0]
        view_a = await a.wait_view(sa.room, lambda v: v["version"] == start + 2)
        assert view_a["last_duel"] == second["view"]["last_duel"]
    finally:
        await a.close()
        await b.close()


def test_leak_check_catches_a_leak() -> None:
    """The checker above is not vacuous: seat 1's own view, sent to seat 0, is flagged."""
    from engine.creature_wars import GAME
    from protocol import encode

    state = GAME.setup({}, SEED)
    frame = encode({"t": "view", "room": "r", "version": state.version, "view": GAME.view(state, 1), "events": []})
    assert leaks([frame], {state.version: state}, 0)
    own = encode({"t": "view", "room": "r", "version": state.version, "view": GAME.view(state, 0), "events": []})
    assert leaks([own], {state.version: state}, 0) == []
