"""Finished rooms are let go from memory in sweeps, one every ``EVICT_EVERY`` rooms made: a sweep looks at every
room, so it is not run for each room made, and what it keeps stays bounded."""
from __future__ import annotations

import pytest

from server.lobby import lobby as lobby_module
from server.lobby.lobby import Lobby
from server.rooms.room import Room
from server.store.store import Store


async def test_finished_rooms_are_swept_every_few_rooms_made_and_stay_bounded(redis_url: str,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "KEEP_FINISHED", 2)
    monkeypatch.setattr(lobby_module, "EVICT_EVERY", 4)
    monkeypatch.setattr(Room, "over", property(lambda room: True))  # every room made counts as finished, unwatched
    store = Store(redis_url)
    try:
        lobby = Lobby(store)
        held = []
        for _ in range(9):
            await lobby.create("queens_challenge", {}, 7)
            held.append(len(lobby.rooms))
        assert held == [1, 2, 3, 2, 3, 4, 5, 2, 3], "a sweep at the 4th and the 8th room made, none between"
        assert max(held) <= 2 + 4 - 1
    finally:
        await store.close()


async def test_finished_rooms_kept_let_go_of_their_views_and_are_shown_alike_after(
        redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep trims the finished rooms it keeps: their views and what their final state remembers are made again
    when someone comes to watch, equal to the ones let go (a full collection then walks fewer objects)."""
    monkeypatch.setattr(lobby_module, "KEEP_FINISHED", 10)
    monkeypatch.setattr(lobby_module, "EVICT_EVERY", 4)
    monkeypatch.setattr(Room, "over", property(lambda room: True))
    store = Store(redis_url)
    try:
        lobby = Lobby(store)
        first = await lobby.create("creature_wars", {}, 7)
        shown = [first.view_of(0), first.view_of(1), first.view_of(None)]
        assert first.made and first.state.memo
        for _ in range(3):  # the 4th room made sweeps
            await lobby.create("creature_wars", {}, 8)
        assert lobby.rooms[first.id] is first, "kept"
        assert not first.made and not first.state.memo
        again = [first.view_of(0), first.view_of(1), first.view_of(None)]
        assert again == shown and all(a is not b for a, b in zip(again, shown, strict=True))
    finally:
        await store.close()
