"""Questions an effect puts to a player: shown only to that player, and answered by the server on time-out."""
from __future__ import annotations

import re

from client import Client
from server.store.store import Store


def witch_name(notation: str) -> str:
    """``Lvl.2 Greedy Witch! {3}`` -> ``Greedy Witch``: the offer and the card in hand agree on this."""
    match = re.match(r"^Lvl\.\d+ (.+?)!? \{\d+\}", notation)
    assert match, notation
    return match.group(1)

OPTIONS = {
    "deck": ["Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Dragon"],
    "hands": [["Lvl.2 Pick a Witch", "Lvl.1 Giant"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]],
    "first_drawer": 0,
    "answer_seconds": 1,
}


async def test_unanswered_question_times_out_to_the_first_option(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", OPTIONS, seed=5)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await a.decide(sa, {"kind": "play", "slot": 0})
        await b.decide(sb, {"kind": "play", "slot": 0})
        asked = await a.wait_view(sa.room, lambda v: "question" in v)
        offered = asked["question"]["options"]
        assert len(offered) == 3 and asked["legal"][0] == {"kind": "choose", "option": 0}
        other = await b.wait_view(sb.room, lambda v: v["version"] == asked["version"])
        assert "question" not in other and other["waiting_for"] == 0 and other["legal"] == []
        # nobody answers: after a second the server takes the first option
        after = await a.wait_view(sa.room, lambda v: v["version"] == asked["version"] + 1, timeout=10)
        assert "question" not in after
        assert witch_name(offered[0]) in [c.get("name") for c in after["hands"][0]["cards"]]
        log = await store.log(sa.room)
        assert log[-1]["d"] == {"kind": "timeout"} and log[-1]["server"] is True and log[-1]["seat"] == 0
        # the witch offers never reached the opponent
        for frame in b.frames:
            assert not any(option.encode() in frame for option in offered)
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_answering_in_time_takes_the_choice(server_url: str) -> None:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    try:
        sa = await a.create("creature_wars", {**OPTIONS, "answer_seconds": 30}, seed=5)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await a.decide(sa, {"kind": "play", "slot": 0})
        await b.decide(sb, {"kind": "play", "slot": 0})
        asked = await a.wait_view(sa.room, lambda v: "question" in v)
        reply = await a.decide(sa, {"kind": "choose", "option": 2})
        chosen = witch_name(asked["question"]["options"][2])
        assert chosen in [c.get("name") for c in reply["view"]["hands"][0]["cards"]]
    finally:
        await a.close()
        await b.close()
