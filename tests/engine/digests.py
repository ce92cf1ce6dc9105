"""Outcome digests of seeded random matches, hashed decision by decision: what each game's digest test shares.

Per match the digest covers every event as each seat and a spectator are told it (``redact_all``, as the
server sends them), each seat's and a spectator's ``view``, ``legal`` for each seat and the timer after every
decision, what the game's chooser adds (a refused play, say), and the final state as the server stores it
(``msgpack`` of ``dump``) with the outcome.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

from engine.interface import Game, redact_all

Feed = Callable[[str, Any], None]
Choose = Callable[[Any, int, list[dict[str, Any]], Any, random.Random, Feed], dict[str, Any]]
"""(state, seat, its legal decisions, the timer, the match's chooser, feed): the decision to make."""


def digest_match(game: Game, seed: int, options: dict[str, Any], chooser: random.Random, choose: Choose,
                 bound: int) -> str:
    """The hex digest of one seeded random match (see the module's docstring for what goes in)."""
    h = hashlib.sha256()

    def feed(tag: str, value: Any) -> None:
        h.update(tag.encode())
        h.update(msgpack.packb(value))

    state = game.setup(options, seed)
    feed("setup", game.dump(state))
    decisions = 0
    while True:
        for seat in (0, 1, None):
            feed(f"view{seat}", game.view(state, seat))
        legal = {seat: list(game.legal(state, seat)) for seat in (0, 1)}
        feed("legal", [legal[0], legal[1]])
        timed = game.timer(state)
        feed("timer", timed)
        if game.outcome(state) is not None or decisions >= bound:
            break
        ready = [seat for seat in (0, 1) if legal[seat]]
        assert ready, f"seed {seed}: a stall after {decisions} decisions"
        seat = chooser.choice(ready)
        decision = choose(state, seat, legal[seat], timed, chooser, feed)
        feed("decision", [seat, decision])
        state, events = game.apply(state, seat, decision)
        decisions += 1
        for who in (0, 1, None):
            feed(f"events{who}", redact_all(events, who))
        feed("opened", [game.opened(state, 0), game.opened(state, 1), game.version(state)])
    feed("final", game.dump(state))
    outcome = game.outcome(state)
    feed("outcome", None if outcome is None else outcome.data())
    return h.hexdigest()


class Recorded:
    """The digests recorded for ``matches`` seeds in ``path``, and checks against them."""

    def __init__(self, path: Path, matches: int, digest: Callable[[int], str]) -> None:
        self.path = path
        self.matches = matches
        self.digest = digest

    def load(self) -> dict[str, str]:
        data: dict[str, str] = json.loads(self.path.read_text())
        return data

    def check(self, seeds: range) -> None:
        recorded = self.load()
        wrong = [seed for seed in seeds if self.digest(seed) != recorded[str(seed)]]
        assert not wrong, f"{len(wrong)} of {len(seeds)} matches differ from the recorded outcome, first seeds: {wrong[:10]}"

    def record(self) -> None:
        self.path.write_text(json.dumps({str(seed): self.digest(seed) for seed in range(self.matches)}, indent=0) + "\n")
