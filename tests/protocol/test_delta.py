"""View deltas (protocol/delta.py): applying the delta of two views gives the second, over the wire, for the
views of seeded random matches of every game and for random nested values; and the doc's example holds."""
from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine import registry
from protocol.delta import DeltaError, apply, diff, same, walk

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def wire(value: Any) -> Any:
    """``value`` as a client decodes it."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def check(old: dict[str, Any], new: dict[str, Any], make: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] = diff,
          ) -> dict[str, Any]:
    """The delta (``make``'s), after checking that a client holding ``old`` rebuilds exactly ``new`` from it."""
    delta = make(old, new)
    held = wire(old)
    rebuilt = apply(held, wire(delta))
    assert same(rebuilt, wire(new))
    assert held == wire(old), "applying a delta leaves the held view as it was"
    return delta


def successive_views(game: str, seeds: range, first_seed: int, steps: int,
                     ) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """For each decision of seeded random matches of ``game`` (at most ``steps`` a match), every seat's and a
    spectator's view: the first of its match, the one before the decision, and the one after."""
    rules = registry.GAMES[game]
    for seed in seeds:
        rng = random.Random(seed)
        state = rules.setup({}, first_seed + seed)
        seats = [*range(rules.seats({})), None]
        views = {seat: rules.view(state, seat) for seat in seats}
        first = dict(views)
        for _ in range(steps):
            movers = [s for s in seats if s is not None and rules.legal(state, s)]
            if rules.outcome(state) is not None or not movers:
                break
            seat = rng.choice(movers)
            state, _ = rules.apply(state, seat, rng.choice(list(rules.legal(state, seat))))
            for watcher in seats:
                now = rules.view(state, watcher)
                yield first[watcher], views[watcher], now
                views[watcher] = now


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_view_of_random_matches_rebuilds_from_the_one_before(game: str) -> None:
    """Every seat's and a spectator's view after each decision, from the view before it."""
    for _, before, now in successive_views(game, range(6), 1000, 150):
        check(before, now)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return rng.choice([0, 1, 2, True, False, 1.5, None])
    if kind in (1, 2):
        return rng.choice(["a", "b", "", "card"])
    if kind == 3:
        return rng.randrange(-3, 4)
    if kind in (4, 5):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("abcdef"): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def mutate(rng: random.Random, value: Any) -> Any:
    """``value`` with a few random changes (values replaced, keys and items added and removed)."""
    if isinstance(value, dict):
        out = {key: mutate(rng, item) if rng.random() < 0.5 else item for key, item in value.items()}
        if out and rng.random() < 0.3:
            del out[rng.choice(sorted(out))]
        if rng.random() < 0.3:
            out[rng.choice("abcdefg")] = random_value(rng, 2)
        return out
    if isinstance(value, list):
        items = [mutate(rng, item) if rng.random() < 0.3 else item for item in value]
        if items and rng.random() < 0.3:
            del items[rng.randrange(len(items))]
        if rng.random() < 0.3:
            items.insert(rng.randrange(len(items) + 1), random_value(rng, 2))
        return items
    return random_value(rng, 2) if rng.random() < 0.5 else value


def test_random_nested_values_rebuild() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        old = {"v": random_value(rng), "w": random_value(rng), "x": {"y": random_value(rng)}}
        check(old, mutate(rng, old))


def test_only_changes_are_sent_and_true_is_not_one() -> None:
    old = {"hp": [25, 30], "flag": 1, "hand": {"cards": ["A", "B"], "count": 2}, "same": {"x": [1, 2]}}
    assert diff(old, old) == {}
    assert check(old, {**old, "flag": True}) == {"flag": [0, True]}
    assert check(old, {**old, "hp": [25, 29]}) == {"hp": [0, [25, 29]]}  # shorter than [4, [1, [0, 29]]]
    cards = [{"text": f"card {n}", "level": n} for n in range(6)]
    assert check({"cards": cards}, {"cards": [*cards[:2], *cards[3:]]}) == {"cards": [3, [2, 1, []]]}
    drawn = {"text": "card 9", "level": 9}
    assert check({"cards": cards}, {"cards": [*cards[:2], *cards[3:], drawn]}) == {"cards": [3, [2, 1, [], 6, 0, [drawn]]]}
    assert check({"cards": cards}, {"cards": [*cards[:5], {**cards[5], "level": 9}]}) == {
        "cards": [4, [5, [2, {"level": [0, 9]}]]]}
    assert check(old, {**old, "hand": {"cards": ["A", "B", "C"], "count": 3}}) == {
        "hand": [2, {"cards": [0, ["A", "B", "C"]], "count": [0, 3]}]}  # a short list goes whole


def test_parts_two_views_share_are_packed_at_most_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Successive views share the parts that did not change (cards, piles): a delta finds them by identity and
    packs only what differs (and the changed list once, to weigh it against sending it whole), not every item of
    both lists to compare them. (The Python walk: the one in C reckons sizes without packing.)"""
    import protocol.delta as delta

    packed: list[int] = []
    pack = delta._size
    monkeypatch.setattr(delta, "_size", lambda value: packed.append(len(pack(value))) or pack(value))
    pile = [{"text": f"card {n}", "rules": "x" * 100, "level": n} for n in range(40)]
    drawn = {"text": "card 99", "rules": "", "level": 99}
    old = {"discard": pile, "deck": 20}
    new = {"discard": [*pile, drawn], "deck": 19}
    assert check(old, new, walk) == {"discard": [3, [40, 0, [drawn]]], "deck": [0, 19]}
    assert sum(packed) < 1.5 * len(pack(new["discard"]))


def test_a_hand_with_one_card_changed_is_patched_without_packing_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand (nested in the view's ``hands``) where one card of ten changed, or one left and one came: the card's
    patch, or the new card, is all that is packed; neither the hand nor the hands are packed to weigh the delta
    against sending them whole (each patch of a map is at most the map and a few bytes). (The Python walk, as above.)"""
    import protocol.delta as delta

    packed: list[int] = []
    pack = delta._size
    monkeypatch.setattr(delta, "_size", lambda value: packed.append(len(pack(value))) or pack(value))
    cards = [{"text": f"Lvl.{n} Fire Wolf", "rules": "x" * 60, "level": n, "cooldown": 0, "rally": []} for n in range(10)]
    old = {"hands": [{"count": 10, "cards": cards}, {"count": 9}]}
    cooled = {**cards[4], "cooldown": 2}
    new = {"hands": [{"count": 10, "cards": [*cards[:4], cooled, *cards[5:]]}, {"count": 9}]}
    assert check(old, new, walk) == {"hands": [4, [0, [2, {"cards": [4, [4, [2, {"cooldown": [0, 2]}]]]}]]]}
    assert sum(packed) < len(pack(cooled)), "only the patch was packed"
    packed.clear()
    drawn = {"text": "Lvl.9 Holy Dragon", "rules": "", "level": 9, "cooldown": 0, "rally": []}
    new = {"hands": [{"count": 10, "cards": [*cards[:3], *cards[4:], drawn]}, {"count": 9}]}
    assert check(old, new, walk) == {"hands": [4, [0, [2, {"cards": [3, [3, 1, [], 10, 0, [drawn]]]}]]]}
    assert sum(packed) < 3 * len(pack(drawn)), "the drawn card and the patch were packed, not the hand"
    packed.clear()
    new = {"hands": [{"count": 10, "cards": [*cards[:4], cooled, *cards[5:]]}, {"count": 10}]}  # the other drew
    assert check(old, new, walk) == {"hands": [4, [0, [2, {"cards": [4, [4, [2, {"cooldown": [0, 2]}]]]}], 1,
                                                 [2, {"count": [0, 10]}]]]}
    assert sum(packed) < len(pack(cooled)), "both hands changed: their patches, not the hands, were packed"


def test_a_map_mostly_new_is_sent_whole() -> None:
    """A map whose values are mostly new objects (a duel fought since the last view) is set whole, not looked into;
    one equal to the old, as the wire tells them apart, is no change."""
    duel = {"turn": 3, "cards": [{"text": "a"}, {"text": "b"}], "powers": [5, 7], "winner": 1, "summary": "b wins"}
    fought = {"turn": 4, "cards": [{"text": "c"}, {"text": "d"}], "powers": [2, 9], "winner": 1, "summary": "d wins"}
    assert check({"last_duel": duel}, {"last_duel": fought}) == {"last_duel": [0, fought]}
    again = {key: (list(value) if isinstance(value, list) else value) for key, value in duel.items()}
    assert check({"last_duel": duel}, {"last_duel": again}) == {}
    assert check({"last_duel": duel}, {"last_duel": {**again, "winner": True}}) == {"last_duel": [0, {**again, "winner": True}]}


def test_maps_whose_keys_differ_or_come_in_another_order() -> None:
    """Maps of one length are walked side by side while their keys are the very same objects in the same order (two
    views made by the same code); keys in another order, other keys, or equal keys that are other objects (made at run
    time) are looked up one by one, with the same result."""
    old = {"a": 1, "b": [1, 2], "c": {"x": 1, "y": 2, "z": 3}}
    assert check(old, {"a": 1, "b": [1, 2], "c": {"x": 2, "y": 2, "z": 3}}) == {"c": [2, {"x": [0, 2]}]}
    assert check(old, {"c": {"x": 2, "y": 2, "z": 3}, "a": 1, "b": [1, 2]}) == {"c": [2, {"x": [0, 2]}]}
    assert check(old, {"a": 1, "b": [1, 2], "d": 4}) == {"d": [0, 4], "c": [1]}
    # one map holds the other's keys in its order and more after them (a sealed card's, say): the extra keys are set,
    # or removed, and the rest compared as before
    assert check(old, {**old, "b": [1, 3], "d": 4, "e": [5]}) == {"b": [0, [1, 3]], "d": [0, 4], "e": [0, [5]]}
    assert check({**old, "d": 4, "e": 5}, {**old, "a": 2}) == {"a": [0, 2], "d": [1], "e": [1]}
    assert check(old, {"a": 1, "d": 4, "b": [1, 2], "c": old["c"]}) == {"d": [0, 4]}  # a key between: looked up
    made = {"".join(key): value for key, value in old.items()}  # equal keys, other objects
    assert all(key is not twin for key, twin in zip(old, made, strict=True))
    assert check(old, {**made, "a": 2}) == {"a": [0, 2]}
    # a map mostly new is told so whichever way its keys are found
    inner = old["c"]
    assert isinstance(inner, dict)
    for turned in ({"z": 4, "y": 5, "x": 6}, {"".join(key): value + 3 for key, value in inner.items()}):
        assert check(old, {**old, "c": turned}) == {"c": [0, turned]}


def test_the_docs_example() -> None:
    """The example of docs/protocol.md's "View deltas", the letters standing for cards (maps), as the server
    would make it."""
    section = DOC[DOC.index("### View deltas"):DOC.index("## Server messages")]
    blocks = re.findall(r"```\n(.*?)\n```", section, re.S)
    held, result = blocks[0], blocks[1]
    message = re.search(r"the message `(.*?)` gives", section, re.S)
    assert message is not None
    cards = {letter: f'{{"text": "Lvl.{n} Nightmare! Serpent", "kind": "creature", "letter": "{letter}"}}'
             for n, letter in enumerate("ABCQ")}

    def parse(text: str) -> Any:
        for letter, quoted in cards.items():
            text = re.sub(rf"\b{letter}\b", quoted, text)
        return json.loads(text)

    view = parse(held)
    frame = parse(message.group(1).replace("\n", " "))
    assert frame["base"] == view["version"]
    assert apply(view, frame["delta"]) == parse(result)
    assert diff(view, parse(result)) == frame["delta"]


@pytest.mark.parametrize("delta", [
    {"gone": [1]},
    {"gone": [2, {}]},
    {"hp": [3, 3, 0, []]},
    {"hp": [3, [1, 0, [], 0, 1, []]]},
    {"hp": [3, [2, 1, []]]},
    {"hp": [3, [0, 1]]},
    {"hp": [4, [0]]},
    {"hp": [2]},
    {"hp": [4, [5, [0, 1]]]},
    {"deck": [2, {"x": [0, 1]}]},
    {"hp": [9]},
    {"hp": "not an operation"},
])
def test_a_delta_that_does_not_fit_is_refused(delta: dict[str, Any]) -> None:
    with pytest.raises(DeltaError):
        apply({"hp": [25, 30], "deck": 20}, delta)
