"""Events (server/lobby/events.py) with real servers: Swiss events played out by bots through the protocol (no
repeat pairing, one bye a round for an odd count and at most one per player, standings as computed by hand from
the recorded results, the same on every node), a dropped player left out of later rounds, a node killed mid-round
(its results kept, the event finished by another node), and a solitaire event ranking two players on one deal."""
from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
import redis.asyncio as aioredis

from bots.players import Bot, make
from client import Client, ClientError
from client.connection import ConnectionLost, Seat
from client.events import create_event, drop, follow, list_events, register, start_event, wait_event
from server.lobby import events
from server.rooms import clock
from tests.server.helpers import LOST_AT_DEAL
from tests.server.nodes import Start

GAME = "creature_wars"
QUICK = {"hp": 1}
"""Creature Wars options that end a match at the first damage."""
FLOOR = 1 / 3
Hold = Callable[[dict[str, Any], str], Awaitable[None]]
"""Called with the event's state and the player's name before the player takes a table."""


def key_of(name: str) -> str:
    return f"{name}-secret-key-0123456789"


@dataclass
class Entrant:
    """A bot registered for an event: it follows it, takes each table the event gives it and plays it out, on the
    first of ``urls`` that answers (another when its node dies)."""

    name: str
    urls: list[str]
    client: Client | None = None
    played: list[str] = field(default_factory=list)

    async def connect(self, event: str | None = None) -> Client:
        for _ in range(200):
            for url in self.urls:
                client = None
                try:
                    client = await Client.connect(url, name=self.name, key=key_of(self.name))
                    if event is not None:
                        await follow(client, event)
                    self.client = client
                    return client
                except (OSError, ClientError, ConnectionLost):
                    if client is not None:
                        await client.close()
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.name} found no node to connect to")

    async def play(self, event: str, hold: Hold | None = None) -> dict[str, Any]:
        """Play every table the event gives, until it is over; its final state."""
        assert self.client is not None
        client = self.client
        bot = make(GAME, "random", self.name)
        while True:
            try:
                state = await self._next(client, event)
                if state["status"] in ("finished", "cancelled"):
                    return state
                table = state["you"]["table"]
                if hold is not None:
                    await hold(state, self.name)
                seat = await client.resume(table["room"], table["token"])
                await play_seat(client, seat, bot)
                self.played.append(seat.room)
            except (ConnectionLost, ClientError) as exc:
                if isinstance(exc, ClientError) and exc.code != "unavailable":
                    raise
                await client.close()
                await asyncio.sleep(0.1)
                client = await self.connect(event)

    async def _next(self, client: Client, event: str) -> dict[str, Any]:
        """The event's state once it gives a table not played yet, or is over."""
        def ready() -> bool:
            state = client.events.get(event)
            if client.ws.close_code is not None or state is None:
                return client.ws.close_code is not None
            table = state["you"]["table"]
            return state["status"] in ("finished", "cancelled") or (table is not None and table["room"] not in self.played)

        await client.wait_for(ready, timeout=60)
        if client.ws.close_code is not None:
            raise ConnectionLost("closed")
        return client.events[event]


async def play_seat(client: Client, seat: Seat, bot: Bot) -> None:
    """Decide from the seat's views until its match is over."""
    def acting() -> bool:
        view = client.views.get(seat.room)
        return client.ws.close_code is not None or (view is not None and (bool(view["legal"])
                                                                          or view["outcome"] is not None))

    while True:
        await client.wait_for(acting, timeout=60)
        if client.ws.close_code is not None:
            raise ConnectionLost("closed")
        view = client.views[seat.room]
        if view["outcome"] is not None:
            return
        version = view["version"]
        try:
            await client.decide(seat, bot.decide(view))
        except ClientError as exc:
            if exc.code == "unavailable":
                raise
            with contextlib.suppress(TimeoutError):
                await client.wait_for(lambda v=version: client.ws.close_code is not None  # type: ignore[misc]
                                      or client.versions.get(seat.room) != v, timeout=5)


def hand_standings(state: dict[str, Any]) -> list[tuple[str, float, float, float]]:
    """(player, points, opponents' match-win %, game-win %) of every entrant, from the recorded results alone,
    best first (ties in registration order)."""
    order = [e["player"] for e in state["entrants"]]
    points = dict.fromkeys(order, 0.0)
    games = dict.fromkeys(order, 0.0)
    played_games = dict.fromkeys(order, 0)
    rounds = dict.fromkeys(order, 0)
    opponents: dict[str, list[str]] = {p: [] for p in order}
    by_name = {e["name"]: e["player"] for e in state["entrants"]}
    for r in state["pairings"]:
        if r["bye"] is not None:
            p = by_name[r["bye"]]
            points[p] += 1
            games[p] += 1
            played_games[p] += 1
            rounds[p] += 1
        for t in r["tables"]:
            res = t["result"]
            assert res is not None
            for seat, p in enumerate(t["player_ids"]):
                points[p] += res["points"][seat]
                games[p] += res["games"][seat]
                played_games[p] += res["played"]
                rounds[p] += 1
                opponents[p].append(t["player_ids"][1 - seat])

    def mwp(p: str) -> float:
        return max(FLOOR, points[p] / rounds[p]) if rounds[p] else FLOOR

    def omw(p: str) -> float:
        return sum(mwp(o) for o in opponents[p]) / len(opponents[p]) if opponents[p] else 0.0

    def gw(p: str) -> float:
        return max(FLOOR, games[p] / played_games[p]) if played_games[p] else 0.0

    rows = [(p, points[p], round(omw(p), 4), round(gw(p), 4)) for p in order]
    return sorted(rows, key=lambda row: (-row[1], -row[2], -row[3]))


def check_event(state: dict[str, Any], rounds: int) -> None:
    """The finished event's pairings and standings: no pair met twice, at most one bye each, and the standings
    those of the recorded results."""
    assert state["status"] == "finished" and len(state["pairings"]) == rounds
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for r in state["pairings"]:
        for t in r["tables"]:
            pair = frozenset(t["player_ids"])
            assert pair not in met, f"round {r['round']}: {t['players']} met before"
            met.add(pair)
        if r["bye"] is not None:
            byes.append(r["bye"])
    assert len(byes) == len(set(byes))
    told = [(s["player"], s["points"], s["omw"], s["gw"]) for s in state["standings"]]
    computed = hand_standings(state)
    assert [row[1:] for row in told] == [row[1:] for row in computed]
    assert {row[0] for row in told} == {row[0] for row in computed}
    assert [s["rank"] for s in state["standings"]] == list(range(1, len(told) + 1))


async def results_match_the_rooms(client: Client, state: dict[str, Any]) -> None:
    """Each recorded result is its room's: the winner of the match record."""
    for r in state["pairings"]:
        for t in r["tables"]:
            record = (await client.request("export", room=t["room"]))["record"]
            winner = record["outcome"]["winner"]
            assert t["result"]["winner"] == winner
            assert t["result"]["points"] == ([1.0, 0.0] if winner == 0 else [0.0, 1.0] if winner == 1 else [0.5, 0.5])


@contextlib.asynccontextmanager
async def opened(url: str, names: list[str], urls: list[str], rounds: int, **fields: Any
                 ) -> AsyncIterator[tuple[Client, str, list[Entrant]]]:
    """A Swiss event made by a keyed organiser, ``names`` registered (the n-th on ``urls[n % len]``) and following;
    every connection closed at the end."""
    organiser = await Client.connect(url, name="org", key=key_of("org"))
    entrants: list[Entrant] = []
    try:
        made = await create_event(organiser, GAME, rounds=rounds, options=QUICK, title="test swiss", **fields)
        event = made["event"]
        assert made["status"] == "upcoming" and made["kind"] == "swiss"
        for n, name in enumerate(names):
            e = Entrant(name, [urls[n % len(urls)], *[u for u in urls if u != urls[n % len(urls)]]])
            entrants.append(e)
            client = await e.connect()
            state = await register(client, event)
            assert state["you"]["registered"] is True
            await follow(client, event)
        yield organiser, event, entrants
    finally:
        await organiser.close()
        for e in entrants:
            if e.client is not None:
                await e.client.close()


async def cut_round(r: aioredis.Redis, event: str, entrants: list[Entrant], room: str) -> None:
    """Round 1 stored as a node left it that recorded its one table's ``room`` and stopped before seating anyone."""
    players = [e.client.player for e in entrants if e.client is not None]
    await r.hset(f"cardroom:event:{{{event}}}:tables", "1:1", msgpack.packb(players))
    await r.hset(f"cardroom:event:{{{event}}}:rooms", "1:1", room)
    await r.hset(f"cardroom:event:{{{event}}}", mapping={"phase": "pairing:1", "round": "1"})
    await r.hincrby(f"cardroom:event:{{{event}}}", "version", 1)


async def test_an_eight_player_swiss_of_three_rounds_plays_out_the_same_on_every_node(node: Start) -> None:
    _, url_a = await node("A")
    _, url_b = await node("B")
    names = [f"p{i}" for i in range(8)]
    async with opened(url_a, names, [url_a, url_b], rounds=3) as (organiser, event, entrants):
        listed = await list_events(organiser, game=GAME)
        assert [e["event"] for e in listed] == [event] and listed[0]["players"] == 8
        assert listed[0]["status"] == "upcoming"
        watcher = await Client.connect(url_b, name="watcher")
        await follow(watcher, event)
        await start_event(organiser, event)
        playing = [asyncio.ensure_future(e.play(event)) for e in entrants]
        running = await wait_event(watcher, event, lambda s: s["status"] == "running" and bool(s["pairings"])
                                   and all(t["room"] for t in s["pairings"][0]["tables"]), timeout=30)
        assert running["you"] == {"registered": False, "dropped": False, "table": None}
        first = running["pairings"][0]["tables"][0]
        spectating = await watcher.spectate(first["room"])  # a table is an ordinary room: anyone may watch it
        assert spectating["room"] == first["room"]
        finals = await asyncio.wait_for(asyncio.gather(*playing), 120)
        assert all(f["status"] == "finished" for f in finals)
        final = await follow(watcher, event)
        check_event(final, 3)
        assert all(r["bye"] is None for r in final["pairings"])
        assert sum(s["points"] for s in final["standings"]) == 12  # one point a table, 4 tables a round
        other = await follow(organiser, event)
        assert other["standings"] == final["standings"] and other["pairings"] == final["pairings"]
        await results_match_the_rooms(watcher, final)
        for e in entrants:  # each played the three tables the event gave it, and every table was one of them
            assert len(e.played) == 3
        history = (await entrants[0].client.request("history"))["entries"]  # type: ignore[union-attr]
        assert {h["room"] for h in history} >= set(entrants[0].played)
        await watcher.close()


async def test_an_odd_count_gives_one_bye_a_round_to_a_new_player_and_rated_tables_move_ratings(
        server_url: str, redis_url: str) -> None:
    names = ["ann", "bob", "cy", "dee", "eve"]
    async with opened(server_url, names, [server_url], rounds=3, rated=True) as (organiser, event, entrants):
        await start_event(organiser, event)
        finals = await asyncio.wait_for(asyncio.gather(*(e.play(event) for e in entrants)), 120)
        final = await follow(organiser, event)
        check_event(final, 3)
        assert all(r["bye"] is not None and len(r["tables"]) == 2 for r in final["pairings"])
        byes = [r["bye"] for r in final["pairings"]]
        assert len(set(byes)) == 3
        assert all(f["status"] == "finished" for f in finals)
        # a rated event's tables are rated rooms: each played table moved both its players' ratings once
        rated = {e["name"]: e["games"] for e in (await organiser.request("ratings", game=GAME))["entries"]}
        played = {n: sum(n in t["players"] for r in final["pairings"] for t in r["tables"]) for n in names}
        assert rated == played
        async with aioredis.Redis.from_url(redis_url) as r:  # the seat tokens were kept while their tables played
            assert await r.hlen(f"cardroom:event:{{{event}}}:seats") == 0


async def test_a_dropped_player_is_not_paired_again(server_url: str) -> None:
    names = ["ann", "bob", "cy", "dee"]
    async with opened(server_url, names, [server_url], rounds=2) as (organiser, event, entrants):
        quitter, stayers = entrants[3], entrants[:3]
        await start_event(organiser, event)
        assert quitter.client is not None
        seated = await wait_event(quitter.client, event, lambda s: s["you"]["table"] is not None)
        dropped = await drop(quitter.client, event)
        assert dropped["you"]["dropped"] is True
        with pytest.raises(ClientError) as again:
            await register(quitter.client, event)
        assert again.value.code == "event_closed"
        table = seated["you"]["table"]
        seat = await quitter.client.resume(table["room"], table["token"])
        await quitter.client.resign(seat)  # its table ends; the event goes on without it
        final = await asyncio.wait_for(asyncio.gather(*(e.play(event) for e in stayers)), 120)
        state = final[0]
        check_event(state, 2)
        second = state["pairings"][1]
        assert "dee" not in [p for t in second["tables"] for p in t["players"]] and second["bye"] != "dee"
        assert second["bye"] is not None and len(second["tables"]) == 1
        assert [s["dropped"] for s in state["standings"] if s["name"] == "dee"] == [1]


async def test_a_registered_player_is_told_of_its_table_without_following(server_url: str) -> None:
    """Registering follows the event on that connection: the table the first round gives is pushed to it."""
    organiser = await Client.connect(server_url, name="org", key=key_of("org"))
    players = [await Client.connect(server_url, name=n, key=key_of(n)) for n in ("ann", "bob")]
    try:
        event = (await create_event(organiser, GAME, rounds=1, options=QUICK, title="told"))["event"]
        for p in players:
            await register(p, event)
        await start_event(organiser, event)
        for p in players:
            state = await wait_event(p, event, lambda s: s["you"]["table"] is not None, timeout=20)
            assert state["you"]["table"]["room"]
    finally:
        for c in (organiser, *players):
            await c.close()


async def test_a_player_who_never_comes_to_the_table_forfeits_and_is_withdrawn(server_url: str,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered player who does not come to the table loses it by forfeit once the clock's grace for an
    absent seat is over (a minute; here a moment), and is not paired in the rounds after it."""
    monkeypatch.setattr(clock, "GRACE", 1.0)
    names = ["ann", "bob", "cy", "dee"]
    async with opened(server_url, names, [server_url], rounds=2) as (organiser, event, entrants):
        absent, stayers = entrants[3], entrants[:3]
        assert absent.client is not None
        await absent.client.close()  # registered, then gone
        await start_event(organiser, event)
        final = await asyncio.wait_for(asyncio.gather(*(e.play(event) for e in stayers)), 120)
        state = final[0]
        check_event(state, 2)
        first, second = state["pairings"]
        dee_table = next(t for t in first["tables"] if "dee" in t["players"])
        if dee_table["result"]["reason"] == "knockout":
            # about one deal in 160: dee had nothing to play, so dee was never waited for, and the opponent's
            # first card won the table (one point of HP) before the grace ran; the forfeit comes next round
            assert dee_table["result"]["winner"] != dee_table["players"].index("dee")
            dee_table = next(t for t in second["tables"] if "dee" in t["players"])
            assert dee_table["result"]["reason"] == "forfeit"
            assert [s["dropped"] for s in state["standings"] if s["name"] == "dee"] == [2]
            return
        assert dee_table["result"]["reason"] == "forfeit"
        assert "dee" not in [p for t in second["tables"] for p in t["players"]] and second["bye"] != "dee"
        assert [s["dropped"] for s in state["standings"] if s["name"] == "dee"] == [1]


async def test_a_node_killed_mid_round_loses_no_result_and_another_finishes_the_event(node: Start,
                                                                                       redis_url: str) -> None:
    procs = dict([("A", await node("A")), ("B", await node("B"))])
    urls = [procs["A"][1], procs["B"][1]]
    names = [f"k{i}" for i in range(6)]
    release = asyncio.Event()

    async def hold(state: dict[str, Any], name: str) -> None:
        """In round 2 only the players of its first table play until the node is killed."""
        if state["round"] == 2 and name not in state["pairings"][1]["tables"][0]["players"]:
            await release.wait()

    async with opened(urls[0], names, urls, rounds=3) as (organiser, event, entrants), \
            aioredis.Redis.from_url(redis_url) as r, await Client.connect(urls[0], name="watcher") as watcher:
        await follow(watcher, event)
        await start_event(organiser, event)
        playing = [asyncio.ensure_future(e.play(event, hold)) for e in entrants]
        await wait_event(watcher, event, lambda s: len(s["pairings"]) == 2
                         and s["pairings"][1]["tables"][0]["result"] is not None, timeout=60)
        recorded = await r.hgetall(f"cardroom:event:{{{event}}}:results")
        lease = await r.get(f"cardroom:event:{{{event}}}:lease")
        assert isinstance(lease, bytes)
        holder = lease.decode()
        proc, _ = procs[holder]
        proc.kill()  # SIGKILL, mid-round: three tables of round 2 still to play
        proc.wait()
        release.set()
        survivor = urls[1] if holder == "A" else urls[0]
        finals = await asyncio.wait_for(asyncio.gather(*playing), 120)
        assert all(f["status"] == "finished" for f in finals)
        assert await r.get(f"cardroom:event:{{{event}}}:lease") != lease
        async with await Client.connect(survivor, name="late") as late:
            final = await follow(late, event)
            check_event(final, 3)
            assert sum(s["points"] for s in final["standings"]) == 9  # each table counted once: 3 tables, 3 rounds
            await results_match_the_rooms(late, final)
        after = await r.hgetall(f"cardroom:event:{{{event}}}:results")
        assert all(after[k] == v for k, v in recorded.items())  # what was recorded before the kill stands
        assert len(after) == 9


async def test_bad_event_requests_are_refused_naming_why(server_url: str) -> None:
    async with await Client.connect(server_url, name="guest") as guest, \
            await Client.connect(server_url, name="ada", key=key_of("ada")) as ada, \
            await Client.connect(server_url, name="bea", key=key_of("bea")) as bea:
        cases: list[tuple[Client, str, dict[str, Any], str, str]] = [
            (guest, "create_event", {"game": GAME}, "key_required", "key"),
            (ada, "create_event", {"game": "chess"}, "unknown_game", "chess"),
            (ada, "create_event", {"game": GAME, "rounds": 0}, "bad_field", "rounds"),
            (ada, "create_event", {"game": GAME, "clock": {"move": -1}}, "bad_field", "clock.move"),
            (ada, "create_event", {"game": GAME, "options": {"hp": 0}}, "bad_options", "hp"),
            (ada, "create_event", {"game": "fairy_tableau", "rounds": 3}, "bad_field", "solitaire"),
            (ada, "create_event", {"game": "fairy_tableau", "lasts": 5}, "bad_field", "lasts"),
            (ada, "register", {"event": "nope"}, "unknown_event", "nope"),
            (ada, "list_events", {"status": "later"}, "bad_field", "status"),
            (ada, "list_events", {"limit": 0}, "bad_field", "limit"),
            (ada, "create_event", {"game": GAME, "start": 1}, "bad_field", "start"),
            (ada, "create_event", {"game": GAME, "invite": [""]}, "bad_field", "invite"),
        ]
        for client, kind, fields, code, words in cases:
            with pytest.raises(ClientError) as refused:
                await client.request(kind, **fields)
            assert refused.value.code == code and words in refused.value.message, (kind, fields, refused.value)
        private = await create_event(ada, GAME, invite=["Cleo"])
        assert private["invite_only"] is True
        with pytest.raises(ClientError) as uninvited:
            await register(bea, private["event"])
        assert uninvited.value.code == "not_invited"
        with pytest.raises(ClientError) as not_creator:
            await start_event(bea, private["event"])
        assert not_creator.value.code == "forbidden"
        with pytest.raises(ClientError) as not_running:
            await drop(ada, private["event"])
        assert not_running.value.code == "event_closed"
        alone = await register(ada, private["event"])  # the creator may play in its own invite-only event
        assert alone["you"]["registered"] is True
        await follow(ada, private["event"])
        await start_event(ada, private["event"])
        over = await wait_event(ada, private["event"], lambda s: s["status"] != "upcoming", timeout=10)
        assert over["status"] == "cancelled"  # one player is no tournament


async def test_a_solitaire_event_ranks_two_players_on_one_deal(server_url: str) -> None:
    async with await Client.connect(server_url, name="ada", key=key_of("ada")) as ada, \
            await Client.connect(server_url, name="bea", key=key_of("bea")) as bea, \
            await Client.connect(server_url, name="cat") as cat:
        made = await create_event(ada, "fairy_tableau", lasts=600)
        event = made["event"]
        assert made["kind"] == "solitaire" and made["status"] == "running"
        await follow(cat, event)
        seats = []
        for client in (ada, bea):
            made_room = await client.request("play_event", event=event)
            seats.append((client, made_room["room"]))
        views = [await c.wait_view(room, lambda v: v is not None) for c, room in seats]
        assert views[0]["tableau"] == views[1]["tableau"]  # the same deal for everyone
        assert seats[0][1] != seats[1][1]
        with pytest.raises(ClientError) as twice:
            await ada.request("play_event", event=event)
        assert twice.value.code == "event_played"
        with pytest.raises(ClientError) as early:
            await cat.spectate(seats[0][1])
        assert early.value.code == "day_not_over"  # nobody watches the event's deal while its window is open
        rng = random.Random(2)
        for client, room in seats:
            for _ in range(400):
                view = client.views[room]
                if view["outcome"] is not None:
                    break
                seat = next(s for s in client.granted.values() if s.room == room)
                await client.decide(seat, rng.choice(view["legal"]))
            await client.wait_for(lambda c=client, r=room: r in c.over)  # type: ignore[misc]
            over = client.over[room]
            assert over["seed"] is None and "reveal_after" in over
        scores = [client.views[room]["outcome"]["scores"][0] for client, room in seats]
        state = await wait_event(cat, event, lambda s: len(s["scores"]) == 2)
        assert state["players"] == 2  # attempts made
        expected = sorted(zip(scores, ["ada", "bea"], strict=True), key=lambda x: -x[0])
        assert state["scores"][0]["score"] == expected[0][0]
        assert sorted((e["score"], e["name"]) for e in state["scores"]) == sorted(expected)
        assert [e["rank"] for e in state["scores"]] == [1, 2]


async def test_a_solitaire_event_dealt_lost_at_once_seats_its_player_and_ranks_the_score(
        server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event's deal is dealt as the room is made; one lost before any decision (about one Fairy Tableau deal
    in 80) still seats the player, ends at the seat's claim, and enters the event's scores."""
    monkeypatch.setattr(events, "daily_seed", lambda *_: LOST_AT_DEAL)
    async with await Client.connect(server_url, name="ada", key=key_of("ada")) as ada:
        event = (await create_event(ada, "fairy_tableau", lasts=600))["event"]
        await follow(ada, event)
        room = (await ada.request("play_event", event=event))["room"]
        await ada.wait_for(lambda: room in ada.over)
        assert any(s.room == room for s in ada.granted.values()), "the player holds the seat"
        score = ada.over[room]["outcome"]["scores"][0]
        state = await wait_event(ada, event, lambda s: len(s["scores"]) == 1)
        assert [(e["name"], e["score"]) for e in state["scores"]] == [("ada", score)]


async def test_a_round_cut_after_its_room_was_recorded_gets_a_new_room(server_url: str, redis_url: str) -> None:
    """A node that recorded a table's room and stopped before seating anyone: the room is gone (closed, expired)
    by the time another node carries on, which makes the table a new room and seats both players there."""
    async with opened(server_url, ["ann", "bob"], [server_url], rounds=1) as (_, event, entrants), \
            aioredis.Redis.from_url(redis_url) as r:
        await r.set(f"cardroom:event:{{{event}}}:lease", "gone-node", px=30000)  # nobody runs the event meanwhile
        await cut_round(r, event, entrants, "0dead0")
        await r.delete(f"cardroom:event:{{{event}}}:lease")
        finals = await asyncio.wait_for(asyncio.gather(*(e.play(event) for e in entrants)), 60)
        table = finals[0]["pairings"][0]["tables"][0]
        assert table["room"] != "0dead0" and table["result"] is not None
        assert entrants[0].played == entrants[1].played == [table["room"]]


async def test_a_node_that_cannot_seat_a_table_another_node_serves_hands_the_event_over(node: Start,
                                                                                         redis_url: str) -> None:
    """The event's lease went to node B while node A, alive, serves a table's room (A paused past the lease): B
    cannot claim seats in a room A serves, so it gives the event up, and A, which can, carries on."""
    _, url_a = await node("A")
    _, url_b = await node("B")
    async with opened(url_a, ["ann", "bob"], [url_a, url_b], rounds=1) as (organiser, event, entrants), \
            aioredis.Redis.from_url(redis_url) as r:
        made = await organiser.request("create_room", game=GAME, options=QUICK, sit=False)  # a room node A serves
        await r.set(f"cardroom:event:{{{event}}}:lease", "B", px=30000)  # node B runs the event now
        await cut_round(r, event, entrants, made["room"])
        finals = await asyncio.wait_for(asyncio.gather(*(e.play(event) for e in entrants)), 60)
        table = finals[0]["pairings"][0]["tables"][0]
        assert table["room"] == made["room"] and table["result"] is not None


async def test_an_event_starts_at_its_start_time(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann", key=key_of("ann")) as ann, \
            await Client.connect(server_url, name="bob", key=key_of("bob")) as bob:
        made = await create_event(ann, GAME, rounds=1, options=QUICK, start=int(time.time()) + 2)
        event = made["event"]
        assert made["status"] == "upcoming" and made["start"] is not None
        for client in (ann, bob):
            await register(client, event)
        await follow(ann, event)
        running = await wait_event(ann, event, lambda s: s["you"]["table"] is not None, timeout=15)
        assert running["status"] == "running" and time.time() >= made["start"]  # nobody sent start_event
        async with await Client.connect(server_url, name="cy", key=key_of("cy")) as cy:
            with pytest.raises(ClientError) as late:
                await register(cy, event)
        assert late.value.code == "event_closed"
