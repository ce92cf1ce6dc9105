"""Prometheus metrics of a server process, scraped at ``GET /metrics`` on the game port.

Counters and histograms live in the process's default registry; the room gauges are
read from the lobby at scrape time, so they cost nothing per decision.
"""
from __future__ import annotations

import bisect
import math
import weakref
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from typing import Protocol

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = [
    "COMMIT_BATCH", "COMMIT_SECONDS", "CONNECTIONS", "DECISIONS", "DECISION_SECONDS", "ERRORS", "IGNORED_FORWARDING", "KICKS",
    "OUTBOX_DROPS", "RATE_LIMITED", "Count", "Counted", "Counts",
    "REFUSED", "RELAYED", "RELAYED_FRAMES", "ROOMS", "STALLED_DROPS", "UNREPLICATED", "RoomCollector", "Timings", "scrape",
]


class Timings(Collector):
    """A histogram observed on every decision, exposed as prometheus_client's ``Histogram`` is (buckets, count and
    sum), without its lock and the lock of each bucket's value: an observation costs a sixth. A server observes from
    its event loop's thread alone."""

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...],
                 registry: CollectorRegistry = REGISTRY) -> None:
        self.name, self.documentation = name, documentation
        self.bounds = [float(b) for b in buckets]
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound (+Inf)
        self.sum = 0.0
        registry.register(self)

    def observe(self, amount: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, amount)] += 1
        self.sum += amount

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation)
        total, buckets = 0, []
        for bound, count in zip([*self.bounds, math.inf], self.counts, strict=True):
            total += count
            buckets.append((_le(bound), total))
        family.add_metric([], buckets, self.sum)
        yield family


class Count:
    """One label set's count of a :class:`Counts`."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0.0

    def inc(self, amount: float = 1.0) -> None:
        self.value += amount


class Counts(Collector):
    """A counter by labels counted on every decision, exposed as prometheus_client's ``Counter`` is (a ``_total`` for
    each label set), without its lock: an increment is an addition. A server counts from its event loop's thread
    alone; ``labels`` is called once for each label set (a room binds its own)."""

    def __init__(self, name: str, documentation: str, labelnames: tuple[str, ...],
                 registry: CollectorRegistry = REGISTRY) -> None:
        self.name, self.documentation, self.labelnames = name, documentation, labelnames
        self.children: dict[tuple[str, ...], Count] = {}
        registry.register(self)

    def labels(self, *values: str) -> Count:
        found = self.children.get(values)
        if found is None:
            found = self.children[values] = Count()
        return found

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(self.name, self.documentation, labels=self.labelnames)
        for values, count in self.children.items():
            family.add_metric(list(values), count.value)
        yield family


def _le(bound: float) -> str:
    """A bucket's bound as prometheus_client writes it."""
    return "+Inf" if bound == math.inf else repr(bound)


_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

CONNECTIONS = Gauge("cardroom_connections", "Open websocket connections")
DECISIONS = Counts("cardroom_decisions", "Decisions persisted, by game and by who made them", ("game", "by"))
DECISION_SECONDS = Timings("cardroom_decision_seconds",
                           "A decide request from receipt to every view queued (applied, persisted, sent)", _LATENCY)
COMMIT_BATCH = Timings("cardroom_commit_batch", "Decisions sent to Redis in one round trip (group commit)",
                       (1, 2, 4, 8, 16, 32, 64))
COMMIT_SECONDS = Timings("cardroom_commit_seconds", "The atomic Redis commit of one decision", _LATENCY)
OUTBOX_DROPS = Counter("cardroom_outbox_drops", "Connections dropped for not reading their frames")
IGNORED_FORWARDING = Counter("cardroom_ignored_forwarding",
                             "PROXY or X-Forwarded-For headers ignored: their peer is not a trusted proxy")
STALLED_DROPS = Counter("cardroom_stalled_drops",
                        "Connections dropped for making no progress reading for STALL_SECONDS (server/edge/connection.py)")
RATE_LIMITED = Counter("cardroom_rate_limited", "Messages dropped by the per-connection rate limit")
REFUSED = Counter("cardroom_refused_connections", "Handshakes refused, by reason", ["reason"])
ERRORS = Counter("cardroom_errors", "Error replies sent, by code", ["code"])
RELAYED = Counter("cardroom_relayed_requests",
                  "Requests about a room another node owns: relayed to it (out) or served for another node (in)",
                  ["direction"])
RELAYED_FRAMES = Counter("cardroom_relayed_frames",
                         "Frames for a client of another node: sent by the room's owner (owner), or received from it "
                         "and written to the client's websocket (origin); a client routed to its room's owner costs none",
                         ["side"])
KICKS = Counter("cardroom_kicks", "Connections the operator dropped (admin kick)")
UNREPLICATED = Counter("cardroom_unreplicated_commits",
                       "Decisions answered unavailable: fewer replicas than --min-replicas-acked confirmed them in time")


class Counted(Protocol):
    """What keeps rooms (a server's lobby): each room's game and status, read at scrape time."""

    def games_and_statuses(self) -> Iterable[tuple[str, str]]: ...


class RoomCollector(Collector):
    """Live rooms by game and status, counted from the tracked lobbies when scraped (one per server in
    this process; tests run several)."""

    def __init__(self) -> None:
        self.lobbies: weakref.WeakSet[Counted] = weakref.WeakSet()

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("cardroom_rooms", "Rooms in this server's memory, by game and status",
                                   labels=["game", "status"])
        tally = Tally(pair for lobby in list(self.lobbies) for pair in lobby.games_and_statuses())
        for (game, status), count in sorted(tally.items()):
            family.add_metric([game, status], count)
        yield family


ROOMS = RoomCollector()
REGISTRY.register(ROOMS)


def scrape() -> bytes:
    """The text exposition of every metric."""
    return generate_latest(REGISTRY)
