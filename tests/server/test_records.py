"""Match records: exported once the match is over, verified with the pure engine, and any edit is caught."""
from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path

import pytest

from client import Client, ClientError
from client.records import fetch_record
from client.verify import verify
from server.cli import main
from tests.server.helpers import play_to_end


async def finished_match(server_url: str) -> str:
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        with pytest.raises(ClientError) as running:  # the record reveals the seed: not while the match runs
            await a.request("export", room=sa.room)
        assert running.value.code == "match_running"
        await play_to_end([(a, sa), (b, sb)], seed=9)
    return sa.room


async def test_a_finished_match_exports_and_verifies(server_url: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    room = await finished_match(server_url)
    record = await fetch_record(server_url, room)
    assert record["outcome"] is not None and record["decisions"]
    verdict = verify(record)
    assert verdict.ok, verdict.message
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    assert await asyncio.to_thread(main, ["verify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("OK")
    assert await asyncio.to_thread(main, ["verify", room, "--url", server_url]) == 0


async def test_an_edited_decision_fails_verification_at_that_decision(server_url: str) -> None:
    record = await fetch_record(server_url, await finished_match(server_url))
    plays = [n for n, e in enumerate(record["decisions"]) if e["d"].get("kind") == "play"]
    edited = copy.deepcopy(record)
    n = plays[len(plays) // 2]
    entry = edited["decisions"][n]
    entry["d"] = {**entry["d"], "slot": entry["d"]["slot"] + 1}
    verdict = verify(edited)
    assert not verdict.ok
    assert verdict.at == n + 1, verdict.message  # caught at the edited decision itself


async def test_a_seed_that_does_not_match_the_commitment_fails(server_url: str) -> None:
    record = await fetch_record(server_url, await finished_match(server_url))
    verdict = verify({**record, "seed": record["seed"] ^ 1})
    assert not verdict.ok and "commitment" in verdict.message
    assert not verify({"game": "creature_wars"}).ok
