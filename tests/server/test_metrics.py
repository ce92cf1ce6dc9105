"""``GET /metrics``: after a match, the counters moved by exactly what the match did."""
from __future__ import annotations

import asyncio
import random
import urllib.request

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from client import Client, ClientError
from server.ops.metrics import Counts, Timings
from server.store.store import Store
from tests.server.helpers import play_to_end


def scrape(server_url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the server's /metrics, by name and labels."""
    http = server_url.replace("ws://", "http://") + "/metrics"
    with urllib.request.urlopen(http, timeout=10) as response:
        text = response.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def moved(before: dict[tuple[str, tuple[tuple[str, str], ...]], float],
          after: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    key = (name, tuple(sorted(labels.items())))
    return after.get(key, 0.0) - before.get(key, 0.0)


async def test_metrics_count_a_whole_match(server_url: str, redis_url: str) -> None:
    before = await asyncio.to_thread(scrape, server_url)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", {"witches": 0}, seed=11)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        during = await asyncio.to_thread(scrape, server_url)
        assert moved(before, during, "cardroom_connections") == 2
        assert during[("cardroom_rooms", (("game", "creature_wars"), ("status", "playing")))] == 1
        try:
            await a.decide(sa, {"kind": "play", "slot": 99})
        except ClientError as exc:
            assert exc.code == "illegal_decision"
        else:
            raise AssertionError("an illegal decision was accepted")
        await play_to_end([(a, sa), (b, sb)], seed=random.Random(2).randrange(1000))
        store = Store(redis_url)
        try:
            records = await store.log(sa.room)
        finally:
            await store.close()
        after = await asyncio.to_thread(scrape, server_url)
    by_players = sum(1 for r in records if not r.get("server"))
    by_server = len(records) - by_players
    assert by_players > 0
    assert moved(before, after, "cardroom_decisions_total", game="creature_wars", by="player") == by_players
    assert moved(before, after, "cardroom_decisions_total", game="creature_wars", by="server") == by_server
    assert moved(before, after, "cardroom_decision_seconds_count") == by_players
    assert moved(before, after, "cardroom_commit_seconds_count") == len(records)
    assert moved(before, after, "cardroom_errors_total", code="illegal_decision") == 1
    assert after[("cardroom_rooms", (("game", "creature_wars"), ("status", "over")))] == 1


def test_timings_are_exposed_as_prometheus_clients_histogram_is() -> None:
    """The lock-free histogram of each decision's timings: the same buckets, count and sum in the exposition."""
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    bounds = (0.0005, 0.001, 0.0025, 1.0, 2.5)
    timings = Timings("t_seconds", "what", bounds, registry=ours)
    histogram = Histogram("t_seconds", "what", buckets=bounds, registry=theirs)
    for amount in (0.0, 0.0005, 0.0007, 0.001, 0.3, 2.5, 2.6, 40.0, 0.0025):
        timings.observe(amount)
        histogram.observe(amount)
    kept = [line for line in generate_latest(theirs).decode().splitlines() if "_created" not in line]
    assert generate_latest(ours).decode().splitlines() == kept


def test_counts_are_exposed_as_prometheus_clients_counter_is() -> None:
    """The lock-free counter of decisions: the same totals by label set in the exposition."""
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    counts = Counts("c", "what", ("game", "by"), registry=ours)
    counter = Counter("c", "what", ["game", "by"], registry=theirs)
    for game, by, amount in (("g", "player", 1.0), ("g", "server", 1.0), ("g", "player", 1.0), ("h", "player", 2.5)):
        counts.labels(game, by).inc(amount)
        counter.labels(game, by).inc(amount)
    assert counts.labels("g", "player") is counts.labels("g", "player")
    kept = [line for line in generate_latest(theirs).decode().splitlines() if "_created" not in line]
    assert generate_latest(ours).decode().splitlines() == kept
