"""The identity file: a player key made once per server, seat tokens kept and dropped, written safely."""
from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from client.identity import FILE_NAME, STATE_DIR_ENV, IdentityStore, StoredSeat, default_state_dir

SERVER = "127.0.0.1:8765"


def test_the_key_is_made_once_and_kept_per_server(tmp_path: Path) -> None:
    store = IdentityStore(tmp_path / "state")
    assert not store.path.exists(), "nothing is written before it is needed"
    key = store.key(SERVER)
    assert 16 <= len(key) <= 128
    assert IdentityStore(tmp_path / "state").key(SERVER) == key, "a new store of the same directory has the same key"
    other = store.key("example.org:443")
    assert other != key, "another server gets another key"
    assert IdentityStore(tmp_path / "elsewhere").key(SERVER) != key


def test_the_file_is_private_and_replaced_whole(tmp_path: Path) -> None:
    store = IdentityStore(tmp_path)
    store.key(SERVER)
    store.add_seat(SERVER, StoredSeat("abc", 1, "creature_wars", "secret-token"))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME], "no temporary file is left behind"
    data = json.loads(store.path.read_text())
    assert data["servers"][SERVER]["seats"] == [{"room": "abc", "seat": 1, "game": "creature_wars", "token": "secret-token"}]


def test_seats_are_kept_replaced_and_dropped(tmp_path: Path) -> None:
    store = IdentityStore(tmp_path)
    first = StoredSeat("r1", 0, "creature_wars", "t1")
    store.add_seat(SERVER, first)
    store.add_seat(SERVER, StoredSeat("r2", 1, "fairy_meat", "t2"))
    store.add_seat("other:1", StoredSeat("r9", 0, "fairy_meat", "t9"))
    store.add_seat(SERVER, StoredSeat("r1", 0, "creature_wars", "t1b"))
    again = IdentityStore(tmp_path)
    assert [(s.room, s.token) for s in again.seats(SERVER)] == [("r2", "t2"), ("r1", "t1b")]
    assert again.drop_seat(SERVER, "r2") is True
    assert again.drop_seat(SERVER, "r2") is False
    assert [s.room for s in store.seats(SERVER)] == ["r1"]
    assert [s.room for s in store.seats("other:1")] == ["r9"], "seats of another server are untouched"


def test_the_name_is_remembered(tmp_path: Path) -> None:
    store = IdentityStore(tmp_path)
    assert store.name() == ""
    store.set_name("Ada")
    assert IdentityStore(tmp_path).name() == "Ada"


def test_a_broken_file_is_kept_aside_not_trusted(tmp_path: Path) -> None:
    store = IdentityStore(tmp_path)
    store.path.write_text("{not json")
    assert store.seats(SERVER) == []
    assert (tmp_path / "identity.broken").read_text() == "{not json"
    assert len(store.key(SERVER)) >= 16


def test_the_environment_names_the_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_DIR_ENV, str(tmp_path / "x"))
    assert default_state_dir() == tmp_path / "x"
    assert IdentityStore().path == tmp_path / "x" / FILE_NAME
    monkeypatch.delenv(STATE_DIR_ENV)
    assert "cardroom" in str(default_state_dir())


def test_play_takes_the_stored_name_and_the_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from client.app import CardroomApp
    from server.cli import main

    IdentityStore(tmp_path).set_name("Ada")
    started: list[CardroomApp] = []
    monkeypatch.setattr(CardroomApp, "run", lambda self: started.append(self))
    monkeypatch.setenv("USER", "unix-user")
    main(["play", "--state-dir", str(tmp_path), "--url", "ws://127.0.0.1:9"])
    main(["play", "--state-dir", str(tmp_path), "--name", "Bea"])
    main(["play", "--guest"])
    first, named, guest = started
    assert first.player == "Ada" and first.store is not None and first.store.directory == tmp_path
    assert named.player == "Bea"
    assert guest.player == "unix-user" and guest.store is None and guest.link.store is None
