"""The link turns the table-talk and end-of-match pushes into Textual messages and keeps the seat tokens on disk."""
from __future__ import annotations

from pathlib import Path

from textual.message import Message

from client.identity import IdentityStore, StoredSeat
from client.link import Link
from client.messages import (
    ChatArrived,
    ClockArrived,
    PresenceChanged,
    RematchOffered,
    RematchReady,
    RoomClosed,
    SeatGranted,
    ViewArrived,
)

URL = "ws://127.0.0.1:9"
SERVER = "127.0.0.1:9"


def link_with(tmp_path: Path) -> tuple[Link, list[Message], IdentityStore]:
    posted: list[Message] = []
    store = IdentityStore(tmp_path)
    return Link(URL, "ada", posted.append, store=store), posted, store


def test_stored_seats_are_held_from_the_start(tmp_path: Path) -> None:
    IdentityStore(tmp_path).add_seat(SERVER, StoredSeat("r1", 1, "creature_wars", "tok"))
    link, _, _ = link_with(tmp_path)
    assert link.seats["r1"].token == "tok" and link.seats["r1"].seat == 1
    assert "r1" not in link.watching, "a stored seat is held, not open"


def test_a_granted_seat_is_stored_and_forgetting_keeps_it_in_memory(tmp_path: Path) -> None:
    link, posted, store = link_with(tmp_path)
    link.handle({"t": "seat_granted", "room": "r2", "seat": 0, "token": "t2", "game": "fairy_meat", "re": 3})
    assert isinstance(posted[-1], SeatGranted)
    assert [(s.room, s.token, s.game) for s in store.seats(SERVER)] == [("r2", "t2", "fairy_meat")]
    link.forget("r2")
    assert store.seats(SERVER) == []
    assert link.seats["r2"].token == "t2", "the token stays in memory: a rematch needs it"


def test_pushes_become_messages(tmp_path: Path) -> None:
    link, posted, _ = link_with(tmp_path)
    link.handle({"t": "chat", "room": "r", "name": "bob", "seat": None, "text": "[bold]hi", "ts": 12.5})
    link.handle({"t": "presence", "room": "r", "seat": 1, "connected": False})
    link.handle({"t": "rematch_offered", "room": "r", "seat": 1})
    chat, presence, offered = posted
    assert isinstance(chat, ChatArrived) and (chat.name, chat.seat, chat.text, chat.ts) == ("bob", None, "[bold]hi", 12.5)
    assert isinstance(presence, PresenceChanged) and (presence.seat, presence.connected) == (1, False)
    assert isinstance(offered, RematchOffered) and offered.seat == 1


def test_a_view_with_clocks_posts_them_first(tmp_path: Path) -> None:
    link, posted, _ = link_with(tmp_path)
    clock = {"0": {"left": 12.0, "bank": 60.0}, "1": {"left": None, "bank": 55.0}, "limits": {"move": 30, "bank": 60}}
    link.handle({"t": "view", "room": "r", "version": 4, "view": {}, "events": [], "clock": clock})
    assert isinstance(posted[0], ClockArrived) and posted[0].clock == clock
    assert isinstance(posted[1], ViewArrived)


def test_a_closed_room_drops_its_seat(tmp_path: Path) -> None:
    link, posted, store = link_with(tmp_path)
    link.handle({"t": "seat_granted", "room": "w", "seat": 0, "token": "tw", "game": "creature_wars", "re": 1})
    link.handle({"t": "room_closed", "room": "w", "reason": "cancelled"})
    assert isinstance(posted[-1], RoomClosed) and posted[-1].reason == "cancelled"
    assert "w" not in link.seats and "w" not in link.watching and store.seats(SERVER) == []


def test_a_rematch_seat_is_held_and_stored(tmp_path: Path) -> None:
    link, posted, store = link_with(tmp_path)
    link.handle({"t": "seat_granted", "room": "old", "seat": 0, "token": "t-old", "game": "creature_wars", "re": 1})
    link.handle({"t": "rematch_ready", "room": "old", "new_room": "new", "seat": 1, "token": "t-new"})
    ready = posted[-1]
    assert isinstance(ready, RematchReady) and ready.room == "old"
    assert (ready.seat.room, ready.seat.seat, ready.seat.token, ready.seat.game) == ("new", 1, "t-new", "creature_wars")
    assert link.watching["new"] is True and link.seats["new"].token == "t-new"
    assert ("new", "t-new") in [(s.room, s.token) for s in store.seats(SERVER)]


def test_commitments_are_kept_as_first_published(tmp_path: Path) -> None:
    link, _, _ = link_with(tmp_path)
    link.handle({"t": "room_created", "room": "r", "game": "creature_wars", "commitment": "aaa", "re": 1})
    link.handle({"t": "rooms", "rooms": [{"room": "r", "commitment": "bbb"}, {"room": "s", "commitment": "ccc"}]})
    assert link.commitments == {"r": "aaa", "s": "ccc"}
