"""Bots at a real server: they decide from their own connection's frames alone, play a match out and leave;
``cardroom bot`` and ``cardroom serve --bots N`` run them as separate clients."""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from bots import make
from bots.runner import decider, play_seat
from client.connection import Client, Seat
from tests.server.helpers import play_to_end, strings
from tests.server.nodes import serving_url

QUICK = {"hp": 5}


async def _random_side(client: Client, seat: Seat, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        view = await client.wait_view(seat.room, lambda v: bool(v["legal"]) or v["outcome"] is not None, timeout=20)
        if view["outcome"] is not None:
            return
        await client.decide(seat, rng.choice(view["legal"]))
    raise AssertionError("the match did not end")


async def _bot_match(server_url: str, game: str, options: dict[str, Any], seed: int, level: str, bot_seed: int
                     ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """A match between a random human (seat 0) and a bot (seat 1) at a real server: the views handed to the bot,
    the views its connection received, every message the human received, and the human's last view."""
    handed: list[dict[str, Any]] = []
    async with await Client.connect(server_url, name="human", record_frames=True) as human, \
            await Client.connect(server_url, name="bot", record_frames=True) as bot_client:
        seat = await human.create(game, options, seed=seed)
        assert isinstance(seat, Seat)
        bot_seat = await bot_client.join(seat.room)
        bot = make(game, level, bot_seed)
        await asyncio.gather(
            _random_side(human, seat, seed),
            play_seat(server_url, bot_client, bot_seat, decider(bot, lambda v: handed.append(dict(v))), "bot"),
        )
        received = [m["view"] for m in bot_client.received() if m["t"] == "view" and m["view"]]
        return handed, received, human.received(), human.views[seat.room]


async def test_a_bot_decides_from_its_own_frames_only(server_url: str) -> None:
    """Every view the bot is handed is one its connection received, for its seat; none holds a card of the
    other hand."""
    handed, received, humans, _ = await _bot_match(server_url, "creature_wars", QUICK, 8, "strong", 1)
    hidden = {c["text"] for m in humans if m["t"] == "view" and m["view"] for c in m["view"]["hands"][0]["cards"]}
    assert handed and all(v in received and v["seat"] == 1 for v in handed)
    assert all("cards" not in v["hands"][0] for v in handed)
    secret = hidden - _public(handed)  # cards of the other hand that never reached the table
    assert secret and not any(text in strings(v) for v in handed for text in secret)


def _public(views: list[dict[str, Any]]) -> set[str]:
    """Card texts the table has seen (played, discarded): no secret once shown."""
    return {s for v in views for s in strings([v.get("discard"), v.get("last_duel"), v.get("revealed")])}


async def test_cardroom_bot_joins_a_room_plays_it_out_and_leaves(server_url: str, repo_root: Path) -> None:
    async with await Client.connect(server_url, name="human") as human:
        seat = await human.create("creature_wars", QUICK, seed=4)
        assert isinstance(seat, Seat)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", "bot", "--url", server_url, "--game", "creature_wars",
            "--level", "random", "--room", seat.room, cwd=repo_root, stdout=subprocess.PIPE)
        try:
            for _ in range(300):  # the bot sits
                if next(r for r in await human.list_rooms() if r["room"] == seat.room)["taken"] == 2:
                    break
                await asyncio.sleep(0.05)
            await play_to_end([(human, seat)], seed=2, bound=2000)
            out, _ = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        assert proc.returncode == 0 and f"room {seat.room} over" in out.decode()
        rooms = {r["room"]: r for r in await human.list_rooms()}
        assert rooms[seat.room]["status"] == "over" and rooms[seat.room]["players"][1] == "random bot"


async def test_serve_with_bots_keeps_bot_rooms_waiting(redis_url: str, repo_root: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", "0", "--redis-url", redis_url,
                             "--bots", "2", "--bot-level", "random"], cwd=repo_root,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        url = await serving_url(proc, "the server")
        waiting: list[dict[str, Any]] = []
        for _ in range(400):  # bounded: 40 s for the server and its bots to start on a loaded machine
            try:
                async with await Client.connect(url) as looker:
                    waiting = [r for r in await looker.list_rooms() if r["status"] == "waiting"]
            except OSError:
                pass
            if len(waiting) == 2 and all(r["players"][0] for r in waiting):  # made, and the bot's seat claimed
                break
            await asyncio.sleep(0.1)
        assert sorted(r["game"] for r in waiting) == ["creature_wars", "fairy_meat"], waiting
        assert all(r["players"][0] == "random bot" for r in waiting)
        room = next(r["room"] for r in waiting if r["game"] == "creature_wars")
        async with await Client.connect(url, name="night owl") as owl:
            seat = await owl.join(room)
            await _random_side(owl, seat, 5)
            assert owl.views[room]["outcome"] is not None
            for _ in range(200):  # the bot leaves and opens another room
                fresh = [r for r in await owl.list_rooms() if r["status"] == "waiting" and r["game"] == "creature_wars"]
                if fresh:
                    break
                await asyncio.sleep(0.1)
            assert fresh and fresh[0]["room"] != room
    finally:
        proc.kill()
        proc.wait()


async def test_a_fairy_meat_bot_decides_from_its_own_frames_only(server_url: str) -> None:
    """The strong Fairy Meat bot at a real server: every view it is handed is one its connection received, for
    its seat, and it plays the match out."""
    handed, received, _, last = await _bot_match(server_url, "fairy_meat", {}, 9, "strong", 2)
    assert last["outcome"] is not None
    assert handed and all(v in received and v["seat"] == 1 for v in handed)
