"""Every refusal of our hello asks for a name (with the server's reason); nothing the client shows, logs or prints
ever holds the player's secret key."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from client.app import CardroomApp
from client.identity import FILE_NAME
from client.link import scrub
from client.screens.lobby import LobbyScreen
from client.screens.name import NameScreen
from tests.client.helpers import screen_text, until

LONG = "Z" * 60
"""A name over the protocol's 40 characters: the server answers ``bad_field``."""


async def test_a_60_character_name_gets_a_prompt_and_no_output_holds_the_key(
        server_url: str, state_dir: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    app = CardroomApp(server_url, LONG)
    shown: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen), "the name prompt")
        shown.append(screen_text(app))
        assert "bad_field" in shown[-1], shown[-1]
        assert "longer than 40" in shown[-1], "the server's reason"
        key = json.loads((state_dir / FILE_NAME).read_text())
        keys = [entry["key"] for entry in key["servers"].values()]
        assert keys and all(len(k) >= 16 for k in keys)
        await pilot.press(*["backspace"] * 40, *"zoe", "enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.link.client is not None, "the lobby")
        shown.append(screen_text(app))
        assert app.link.client is not None and app.link.client.name == "zoe"
    assert app.return_code in (None, 0)
    out, err = capfd.readouterr()
    everything = "\n".join([*shown, out, err, caplog.text, app.sub_title, app.lobby.notice])
    for secret in keys:
        assert secret not in everything
        assert secret[:12] not in everything


def test_scrub_blanks_the_key_and_pieces_of_it() -> None:
    key = "k" * 5 + "abcdefghijklmnopqrstuvwxyz0123456789ABCD"
    assert key not in scrub(f"hello refused for {key}", key)
    assert key[10:30] not in scrub(f"partly {key[10:30]}", key)
    assert scrub("nothing secret", key) == "nothing secret"
    assert scrub("text", None) == "text"
