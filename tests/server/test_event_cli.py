"""``cardroom event``: create, list, register, start and show an event from the command line."""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from client import Client
from client.events import follow, wait_event
from server.cli import main


async def test_the_event_command_creates_lists_registers_and_starts(server_url: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def run(*args: str, who: str = "org") -> int:
        return main(["event", *args, "--url", server_url, "--name", who, "--state-dir", str(tmp_path / who)])

    assert await asyncio.to_thread(run, "create", "creature_wars", "--rounds", "2", "--title", "Cup", "--clock",
                                   "20,40,0") == 0
    made = capsys.readouterr().out
    found = re.match(r"([0-9a-f]{8})  Cup  \(swiss, creature_wars, upcoming\)", made)
    assert found is not None, made
    event = found.group(1)
    assert "2 rounds, starts when its creator starts it; 0 registered" in made
    assert await asyncio.to_thread(run, "register", event, who="ann") == 0
    assert await asyncio.to_thread(run, "register", event, who="bob") == 0
    capsys.readouterr()
    assert await asyncio.to_thread(run, "list", "--status", "upcoming") == 0
    listed = capsys.readouterr().out
    assert event in listed and "2 players" in listed
    assert await asyncio.to_thread(run, "start", event, who="bob") == 1  # only its creator starts it
    assert "only the creator" in capsys.readouterr().err
    async with await Client.connect(server_url) as looker:
        state = await follow(looker, event)
        assert state["clock"] == {"move": 20, "bank": 40, "increment": 0}
        assert await asyncio.to_thread(run, "start", event) == 0
        await wait_event(looker, event, lambda s: s["status"] == "running" and bool(s["pairings"])
                         and s["pairings"][0]["tables"][0]["room"] is not None)
    capsys.readouterr()
    assert await asyncio.to_thread(run, "show", event) == 0
    shown = capsys.readouterr().out
    assert "round 1:" in shown and ("ann v bob" in shown or "bob v ann" in shown) and "playing" in shown
    assert await asyncio.to_thread(run, "create", "fairy_tableau", "--rounds", "2") == 1
    assert "solitaire" in capsys.readouterr().err
