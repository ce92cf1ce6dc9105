"""The solitaires online: one seat, spectators, resume, high-score tables and the daily seed."""
from __future__ import annotations

import asyncio
import random

import pytest

from client import Client, ClientError
from server.lobby import lobby
from server.rooms import seeding
from server.store.store import Store
from tests.server.helpers import LOST_AT_DEAL, play_out, received, strings
from tests.server.players import pushed
from tests.server.servers import serving


async def test_a_ranked_game_enters_the_all_time_table(server_url: str) -> None:
    async with await Client.connect(server_url, name="ada") as player:
        seat = await player.create("fairy_tableau")
        assert not isinstance(seat, str)
        rooms = await player.list_rooms()
        assert rooms[0]["ranked"] == "all" and rooms[0]["players"] == ["ada"]
        final = await play_out(player, seat, seed=1)
        outcome = final["outcome"]
        assert isinstance(outcome, dict)
        table = await player.request("scores", game="fairy_tableau")
        assert table["table"] == "all"
        # a guest (no key) is ranked as "guest", whatever name it gave
        assert table["entries"] == [{"rank": 1, "name": "guest", "room": seat.room, "score": outcome["scores"][0]}]
        assert (await player.request("scores", game="fairy_tableau", daily=True))["entries"] == []


async def test_scenario_and_chosen_seed_rooms_are_not_ranked(server_url: str) -> None:
    async with await Client.connect(server_url, name="bo") as player:
        seeded = await player.create("fairy_tableau", seed=42)
        assert not isinstance(seeded, str)
        await play_out(player, seeded, seed=2)
        rooms = {r["room"]: r for r in await player.list_rooms()}
        assert rooms[seeded.room]["ranked"] == ""
        assert (await player.request("scores", game="fairy_tableau"))["entries"] == []


async def test_the_daily_seed_deals_everyone_the_same_game(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby, "DAILY_PER_ADDRESS", 2)  # two players from one (loopback) address
    async with await Client.connect(server_url, name="cy", key="cy-secret-key-0123456789") as one, \
            await Client.connect(server_url, name="di", key="di-secret-key-0123456789") as two:
        a = await one.create("queens_challenge", daily=True)
        b = await two.create("queens_challenge", daily=True)
        assert not isinstance(a, str) and not isinstance(b, str)
        view_a, view_b = one.views[a.room], two.views[b.room]
        assert view_a["hand"] == view_b["hand"] and view_a["in_play"] == view_b["in_play"]
        rooms = {r["room"]: r for r in await one.list_rooms()}
        assert rooms[a.room]["daily"] and rooms[a.room]["ranked"] == f"daily:{rooms[a.room]['daily']}"
        with pytest.raises(ClientError) as refused:
            await one.request("create_room", game="queens_challenge", daily=True, seed=3)
        assert refused.value.code == "bad_field" and "daily" in refused.value.message


async def test_spectators_see_the_table_but_not_the_hand(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as player, \
            await Client.connect(server_url, record_frames=True) as watcher:
        seat = await player.create("queens_challenge")
        assert not isinstance(seat, str)
        await watcher.spectate(seat.room)
        rng = random.Random(4)
        for _ in range(4):
            view = player.views[seat.room]
            actions = [d for d in view["legal"] if d["kind"] != "end_turn"] or view["legal"]
            await player.decide(seat, rng.choice(actions))
        version = player.versions[seat.room]
        watched = await watcher.wait_view(seat.room, lambda v: v["version"] == version)
        mine = player.views[seat.room]
        assert watched["in_play"] == mine["in_play"] and watched["piles"] == mine["piles"]
        assert watched["hand"] == {"count": mine["hand"]["count"]} and "reveal" not in watched
        for message in received(watcher.frames):
            if message.get("t") != "view":
                continue
            spectator = message["view"]
            assert set(spectator["hand"]) == {"count"} and "known_top" not in spectator
            challenge_cards = {c["code"] for c in spectator["in_play_stack"]}
            hand = {c["code"] for c in player_hand_at(player, message["version"])}
            assert not (hand - challenge_cards) & set(strings(spectator))


def player_hand_at(player: Client, version: int) -> list[dict[str, str]]:
    """The player's own hand at a version, from the views the player was sent."""
    for message in reversed(received(player.frames)):
        if message.get("t") == "view" and message["version"] == version:
            cards: list[dict[str, str]] = message["view"]["hand"]["cards"]
            return cards
    return []


async def test_resume_a_solitaire_after_disconnect(server_url: str) -> None:
    player = await Client.connect(server_url)
    seat = await player.create("fairy_tableau", seed=1)  # a deal with a move (a random one is lost at once now and then)
    assert not isinstance(seat, str)
    await player.decide(seat, player.views[seat.room]["legal"][0])
    before = player.views[seat.room]
    await player.close()
    async with await Client.connect(server_url) as again:
        await again.resume(seat.room, seat.token)
        after = await again.wait_view(seat.room, lambda v: True)
        assert after == before


async def test_cardroom_scores_prints_both_tables(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from client.scores import show_scores

    async with await Client.connect(server_url, name="eve") as player:
        seat = await player.create("fairy_tableau")
        assert not isinstance(seat, str)
        final = await play_out(player, seat, seed=3)
    assert await show_scores(server_url, None, daily=False, limit=5) == 0
    printed = capsys.readouterr().out
    outcome = final["outcome"]
    assert isinstance(outcome, dict)
    assert "Fairy Tableau — all time" in printed and "Queen's Challenge — all time" in printed
    assert f"   1. {outcome['scores'][0]:>6}  guest" in printed and "no scores yet" in printed
    assert await show_scores(server_url, "chess", daily=True, limit=5) == 1


async def test_a_deal_lost_before_any_decision_is_scored(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Fairy Tableau dealt lost (no play can ever defeat an enemy) ends at the deal: it is still archived and
    enters the table, like a game its last decision ends."""
    monkeypatch.setattr(seeding, "derive", lambda *_: LOST_AT_DEAL)
    async with await Client.connect(server_url, name="unlucky") as player:
        seat = await player.create("fairy_tableau")
        assert not isinstance(seat, str)
        await player.wait_view(seat.room, lambda v: v["outcome"] is not None)
        assert player.views[seat.room]["version"] == 0
        entries = (await player.request("scores", game="fairy_tableau"))["entries"]
        assert [(e["room"], e["name"]) for e in entries] == [(seat.room, "guest")]  # no key: posted as a guest
        record = (await player.request("export", room=seat.room))["record"]
        assert record["decisions"] == [] and record["outcome"]["reason"] == "lost"


async def test_a_chosen_seed_lost_at_the_deal_seats_its_player(server_url: str) -> None:
    """A chosen seed is dealt as the room is made: a deal lost at once waits for its player like any room (it is
    not over before anyone sat), and the claim that fills it ends it, so its creator gets the seat and the result
    rather than an answer that never comes."""
    async with await Client.connect(server_url, name="unlucky") as player:
        seat = await player.create("fairy_tableau", seed=LOST_AT_DEAL)
        assert not isinstance(seat, str)
        over = await pushed(player, "match_over", room=seat.room)
        assert over["outcome"]["reason"] == "lost" and over["seed"] == LOST_AT_DEAL
        made = await player.request("create_room", game="fairy_tableau", seed=LOST_AT_DEAL, sit=False)
        assert {r["room"]: r["status"] for r in await player.list_rooms()}[made["room"]] == "waiting"
        async with await Client.connect(server_url, name="late") as joiner:
            joined = await joiner.join(made["room"])
            assert joined.seat == 0
            assert (await pushed(joiner, "match_over", room=made["room"]))["outcome"]["reason"] == "lost"
        record = (await player.request("export", room=made["room"]))["record"]
        assert record["decisions"] == [] and record["outcome"]["reason"] == "lost"


async def test_a_deal_lost_at_once_whose_server_stopped_before_archiving_it_is_archived_on_restart(
        redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's claim stored the deal, and the server stopped before the match was archived and scored: the
    player still holds the seat and is told the result (the match stands, as after a decision that ends one), and
    the restarted server finds the match over but not archived, and finishes the job."""
    monkeypatch.setattr(seeding, "derive", lambda *_: LOST_AT_DEAL)

    async def stopped(*_: object, **__: object) -> bool:
        raise RuntimeError("the server stops here")

    monkeypatch.setattr(Store, "finish", stopped)  # the match's archiving, its first step
    async with serving(redis_url) as url, await Client.connect(url, name="unlucky") as player:
        made = await player.request("create_room", game="fairy_tableau", sit=False)
        seat = await player.join(made["room"])
        assert (await pushed(player, "match_over", room=seat.room))["outcome"]["reason"] == "lost"
    monkeypatch.undo()
    async with serving(redis_url) as url, await Client.connect(url) as player:
        for _ in range(100):
            entries = (await player.request("scores", game="fairy_tableau"))["entries"]
            if entries:
                break
            await asyncio.sleep(0.05)
        assert [(e["room"], e["name"]) for e in entries] == [(made["room"], "guest")]
        record = (await player.request("export", room=made["room"]))["record"]
        assert record["decisions"] == [] and record["outcome"]["reason"] == "lost"


async def test_only_the_standard_options_are_ranked(server_url: str) -> None:
    """Easier rules (free fizzles, three fairies) would fill the all-time table: such rooms are not ranked.
    Options that only spell out the defaults are the standard game."""
    async with await Client.connect(server_url, name="eve") as player:
        easy = await player.create("fairy_tableau", {"fizzle": "free", "fairies": 3})
        spelt = await player.create("fairy_tableau", {"fizzle": "pay", "fairies": 1, "ranked_enemies": False})
        assert not isinstance(easy, str) and not isinstance(spelt, str)
        rooms = {r["room"]: r for r in await player.list_rooms()}
        assert rooms[easy.room]["ranked"] == "" and rooms[spelt.room]["ranked"] == "all"
        await play_out(player, easy, seed=4)
        entries = (await player.request("scores", game="fairy_tableau"))["entries"]
        assert easy.room not in {e["room"] for e in entries}
