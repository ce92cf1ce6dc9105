"""An invitation: the table of a room we made and wait in says how a friend joins it, and that command seats them."""
from __future__ import annotations

from pathlib import Path

import pytest

from client.app import CardroomApp
from client.chat import TableTalk
from tests.client.helpers import SIZE, table, until


async def test_a_waiting_table_says_how_a_friend_joins_and_that_seats_them(server_url: str, tmp_path: Path) -> None:
    ada = CardroomApp(server_url, "ada")
    async with ada.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ada.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: len(ada.link.seats) == 1, "ada's seat")
        room = next(iter(ada.link.seats))
        talk = table(ada).query_one(TableTalk)
        invite = f"— Invite a friend: cardroom play --url {server_url} --join {room}"
        await until(pilot, lambda: invite in talk.texts, "the invitation")
        assert talk.texts.count(invite) == 1
        bob = CardroomApp(server_url, "bob", join=room, state_dir=tmp_path / "bob")  # what --join ROOM starts
        async with bob.run_test(size=SIZE) as bob_pilot:
            await until(bob_pilot, lambda: room in bob.link.seats, "bob's seat, from the invitation")
            await until(pilot, lambda: table(ada).view is not None, "the deal, both seats taken")


def test_cardroom_play_takes_join_and_spectate(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from server import cli

    made: list[dict[str, object]] = []

    class Recorded:
        def __init__(self, **kwargs: object) -> None:
            made.append(kwargs)

        def run(self) -> None:
            pass

    monkeypatch.setattr("client.app.CardroomApp", Recorded)
    assert cli.main(["play", "--state-dir", str(tmp_path), "--name", "bob", "--join", "ab12cd"]) == 0
    assert cli.main(["play", "--state-dir", str(tmp_path), "--name", "eve", "--spectate", "ab12cd"]) == 0
    assert [(m["join"], m["spectate"]) for m in made] == [("ab12cd", None), (None, "ab12cd")]
