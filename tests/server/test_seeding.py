"""Nobody alone picks the deal: a salted commitment, a nonce from every seat, the seed derived from both once
the last seat is taken, everything revealed at the end and checked by ``cardroom verify``."""
from __future__ import annotations

import asyncio
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from client import Client, ClientError
from client.connection import Seat
from client.records import fetch_record
from client.verify import derived_seed, salted_commitment, verify
from engine.creature_wars import GAME
from engine.fairy_tableau import GAME as TABLEAU
from server.cli import main
from server.rooms import seeding
from tests.server.helpers import play_to_end, strings
from tests.server.redis_proxy import ReplyDropper
from tests.server.servers import QUICK, serving

NONCES = ("a1" * 16, "b2" * 16)


async def _play_out(a: Client, sa: Seat, b: Client, sb: Seat) -> dict[str, Any]:
    """Play the room to its end; the ``match_over`` seat 0 got."""
    await play_to_end([(a, sa), (b, sb)], seed=3)
    return await a.wait_message(lambda m: m["t"] == "match_over")


async def test_a_finished_match_verifies_with_the_players_nonces(server_url: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    async with await Client.connect(server_url, record_frames=True) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])
        assert not isinstance(sa, str)
        published = next(m for m in a.received() if m["t"] == "room_created")["commitment"]
        sb = await b.join(sa.room, nonce=NONCES[1])
        over = await _play_out(a, sa, b, sb)
    record = await fetch_record(server_url, sa.room)
    assert record["seeding"] == "players" and record["nonces"] == list(NONCES)
    assert record["commitment"] == published == over["commitment"]
    assert record["commitment"] == salted_commitment(sa.room, record["server_seed"], record["salt"])
    assert len(record["salt"]) == 32 and int(record["salt"], 16) >= 0
    assert record["seed"] == derived_seed(record["server_seed"], record["salt"], list(NONCES))
    assert record["seed"] != record["server_seed"]
    for key in ("seed", "server_seed", "salt", "nonces", "seeding"):
        assert over[key] == record[key], key  # match_over reveals the same chain
    verdict = verify(record)
    assert verdict.ok and "2 player nonces" in verdict.message, verdict.message
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    assert await asyncio.to_thread(main, ["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK: server seed and salt match the commitment")


async def test_a_tampered_nonce_salt_or_server_seed_fails_at_the_chain(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])
        assert not isinstance(sa, str)
        await _play_out(a, sa, b, await b.join(sa.room, nonce=NONCES[1]))
    record = await fetch_record(server_url, sa.room)
    assert verify(record).ok
    nonce = copy.deepcopy(record)
    nonce["nonces"][1] = "b3" + NONCES[1][2:]
    salt = {**record, "salt": ("0" if record["salt"][0] != "0" else "1") + record["salt"][1:]}
    server_seed = {**record, "server_seed": record["server_seed"] ^ 1}
    fixed = {**record, "seeding": "fixed"}  # a server claiming afterwards that nobody's nonce counted
    dropped = {**record, "nonces": record["nonces"][:1]}
    for tampered, says in ((nonce, "nonces"), (salt, "commitment"), (server_seed, "commitment"),
                           (fixed, "server seed"), (dropped, "nonces")):
        verdict = verify(tampered)
        assert not verdict.ok and verdict.at == 0, verdict  # refused before any decision is replayed
        assert says in verdict.message, verdict.message


def test_the_seed_depends_on_every_nonce_and_the_docs_scheme_is_the_servers() -> None:
    server_seed, salt = random.Random(1).getrandbits(63), "0f" * 16
    seed = seeding.derive(server_seed, salt, NONCES)
    assert seed == derived_seed(server_seed, salt, list(NONCES))  # verify's own implementation agrees
    assert 0 <= seed < 2**63
    others = {seeding.derive(server_seed, salt, (NONCES[0], "b2" * 15 + "b3")),
              seeding.derive(server_seed, salt, ("a1" * 15 + "a0", NONCES[1])),
              seeding.derive(server_seed, salt, (NONCES[1], NONCES[0])),
              seeding.derive(server_seed, salt, (NONCES[0] + NONCES[1][:1], NONCES[1][1:]))}
    assert seed not in others and len(others) == 4  # one changed nonce, the order, or the split between seats
    deals = {str(GAME.view(GAME.setup({}, s), 0)["hands"]) for s in {seed} | others}
    assert len(deals) == 5  # and so the deal
    assert seeding.commitment("r1", server_seed, salt) == salted_commitment("r1", server_seed, salt)
    assert seeding.commitment("r1", server_seed, salt) != seeding.commitment("r1", server_seed, "1f" * 16)


async def test_a_waiting_room_shows_no_card_of_a_deal_that_will_not_be_played(server_url: str) -> None:
    placeholder = GAME.setup(QUICK, seeding.PLACEHOLDER_SEED)
    provisional = {c.notation() for hand in placeholder.hands for c in hand} | {c.notation() for c in placeholder.deck}
    async with await Client.connect(server_url, record_frames=True) as a, \
            await Client.connect(server_url, record_frames=True) as w, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])
        assert not isinstance(sa, str)
        await w.spectate(sa.room)
        summary = next(r for r in await w.list_rooms() if r["room"] == sa.room)
        assert summary["status"] == "waiting" and summary["score"] is None and summary["seeding"] == "players"
        before = a.received() + w.received()
        views = [m for m in before if m["t"] == "view"]
        assert views and all(m["view"] is None for m in views)  # no deal yet: no view of one
        assert sa.room not in a.views and sa.room not in w.views
        assert not [s for s in strings(before) if any(card in s for card in provisional)]
        with pytest.raises(ClientError) as refused:
            await a.decide(sa, {"kind": "play", "slot": 0}, version=0)
        assert refused.value.code == "not_your_turn"
        sb = await b.join(sa.room, nonce=NONCES[1])
        dealt = await a.wait_message(lambda m: m["t"] == "view" and m["view"] is not None)
        watched = await w.wait_message(lambda m: m["t"] == "view" and m["view"] is not None)
        await _play_out(a, sa, b, sb)
    record = await fetch_record(server_url, sa.room)
    real = GAME.setup(QUICK, record["seed"])
    assert dealt["view"] == GAME.view(real, 0)  # the first view a seat sees is the deal that was played
    assert watched["view"] == GAME.view(real, None)


async def test_a_solitaire_waiting_for_its_player_is_dealt_by_the_claim(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as host, \
            await Client.connect(server_url, record_frames=True) as player:
        room = await host.create("fairy_tableau", sit=False)
        assert isinstance(room, str)
        await host.spectate(room)
        summary = next(r for r in await host.list_rooms() if r["room"] == room)
        assert summary["score"] is None
        assert all(m["view"] is None for m in host.received() if m["t"] == "view")
        await player.join(room, nonce=NONCES[0])
        mine = await player.wait_message(lambda m: m["t"] == "view" and m["re"] is not None)
        assert mine["view"] is not None and mine["view"]["tableau"]
        shown = await host.wait_message(lambda m: m["t"] == "view" and m["view"] is not None)
        assert shown["view"]["tableau"] == mine["view"]["tableau"]
        summary = next(r for r in await host.list_rooms() if r["room"] == room)
        dealt = "playing" if mine["view"]["outcome"] is None else "over"  # some deals are lost before any play
        assert summary["status"] == dealt and summary["score"] == mine["view"]["score"]
        # the placeholder tableau is nowhere; the real one is the seed derived from the player's nonce
        placeholder = TABLEAU.view(TABLEAU.setup({}, seeding.PLACEHOLDER_SEED), None)["tableau"]
        assert mine["view"]["tableau"] != placeholder


async def test_a_seat_that_sends_no_nonce_gets_one_from_the_server(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as a, await Client.connect(server_url) as b:
        created = await a.request("create_room", game="creature_wars", options=QUICK, sit=False)
        sa_reply = await a.request("join", room=created["room"])  # no nonce
        sa = Seat(sa_reply["room"], sa_reply["seat"], sa_reply["token"])
        sb = await b.join(sa.room, nonce="")  # an empty nonce counts as none
        await _play_out(a, sa, b, sb)
    record = await fetch_record(server_url, sa.room)
    assert record["seeding"] == "players" and len(record["nonces"]) == 2
    assert all(len(n) == 32 and int(n, 16) >= 0 for n in record["nonces"]) and record["nonces"][0] != record["nonces"][1]
    assert verify(record).ok


async def test_a_nonce_over_64_characters_is_refused(server_url: str) -> None:
    async with await Client.connect(server_url) as a:
        with pytest.raises(ClientError) as refused:
            await a.create("creature_wars", nonce="x" * 65)
        assert refused.value.code == "bad_field" and "nonce" in refused.value.message
        assert await a.list_rooms() == []


async def test_a_chosen_seed_is_fixed_and_committed_with_a_salt(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", QUICK, seed=5, nonce=NONCES[0])
        assert not isinstance(sa, str)
        assert sa.room in a.views  # a fixed deal exists from the start
        assert next(r for r in await a.list_rooms() if r["room"] == sa.room)["seeding"] == "fixed"
        over = await _play_out(a, sa, b, await b.join(sa.room, nonce=NONCES[1]))
    record = await fetch_record(server_url, sa.room)
    assert record["seeding"] == "fixed" and record["nonces"] == [] and record["seed"] == record["server_seed"] == 5
    assert over["seeding"] == "fixed" and over["nonces"] == []
    verdict = verify(record)
    assert verdict.ok and "fixed seed" in verdict.message, verdict.message
    assert not verify({**record, "seed": 6}).ok


async def test_a_waiting_room_is_dealt_from_its_stored_secret_after_a_restart(server_url: str, redis_url: str) -> None:
    async with await Client.connect(server_url) as a:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])
        assert not isinstance(sa, str)
    async with serving(redis_url) as url, await Client.connect(url) as a, await Client.connect(url) as b:
        sa = await a.resume(sa.room, sa.token)
        sb = await b.join(sa.room, nonce=NONCES[1])
        await a.wait_view(sa.room, lambda v: v["outcome"] is None)
        await play_to_end([(a, sa), (b, sb)], seed=3)
        record = await fetch_record(url, sa.room)
    assert record["nonces"] == list(NONCES)
    verdict = verify(record)
    assert verdict.ok, verdict.message


async def test_a_rematch_deals_from_the_nonces_its_requests_carried(server_url: str) -> None:
    async with await Client.connect(server_url, record_frames=True) as a, \
            await Client.connect(server_url, record_frames=True) as b:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])
        assert not isinstance(sa, str)
        sb = await b.join(sa.room, nonce=NONCES[1])
        await _play_out(a, sa, b, sb)
        await a.request("rematch", room=sa.room, token=sa.token, nonce="c3" * 16)
        ready = await b.request("rematch", room=sb.room, token=sb.token, nonce="d4" * 16)
        got = await a.wait_message(lambda m: m["t"] == "rematch_ready")
        na = Seat(got["new_room"], got["seat"], got["token"])
        nb = Seat(ready["new_room"], ready["seat"], ready["token"])
        await a.wait_view(na.room, lambda v: v["seat"] == na.seat)
        await play_to_end([(a, na), (b, nb)], seed=4)
    record = await fetch_record(server_url, na.room)
    assert (na.seat, nb.seat) == (1, 0)
    assert record["seeding"] == "players" and record["nonces"] == ["d4" * 16, "c3" * 16]  # seats swapped
    assert verify(record).ok


async def test_a_lost_reply_to_the_dealing_claim_still_grants_the_seat_and_the_deal(
        proxied: tuple[str, ReplyDropper]) -> None:
    url, proxy = proxied
    async with await Client.connect(url, record_frames=True) as a, await Client.connect(url) as b:
        sa = await a.create("creature_wars", QUICK, nonce=NONCES[0])  # the claim script is loaded by now
        assert not isinstance(sa, str)
        proxy.arm(b"EVALSHA")
        sb = await b.join(sa.room, nonce=NONCES[1])  # stored with the deal, though its reply was lost
        assert proxy.dropped == 1 and sb.seat == 1
        dealt = await a.wait_message(lambda m: m["t"] == "view" and m["view"] is not None)
        assert dealt["view"]["hands"][0]["cards"]
        await play_to_end([(a, sa), (b, sb)], seed=3)
        record = await fetch_record(url, sa.room)
    assert record["nonces"] == list(NONCES) and verify(record).ok
