"""A state's counters: pairs in the order of their names, whether a table copies them from the dict the last
table kept with the state or makes them anew from a stored state."""
from __future__ import annotations

import random

from engine.creature_wars import GAME
from engine.creature_wars.table import COUNTED, Table


def test_counters_stay_sorted_as_new_ones_come_and_a_kept_dict_matches_the_pairs() -> None:
    rng = random.Random(5)
    new_names = 0
    for seed in range(12):
        state = GAME.setup({"witches": 30}, seed)
        while GAME.outcome(state) is None:
            seat, decision = rng.choice([(s, d) for s in (0, 1) for d in GAME.legal(state, s)])
            before = {name for name, _ in state.counters}
            state, _ = GAME.apply(state, seat, decision)
            names = [name for name, _ in state.counters]
            assert names == sorted(names) and len(set(names)) == len(names)
            new_names += bool(set(names) - before)
            kept = state.memo.get(COUNTED)
            if kept is not None:
                assert sorted(kept[0].items()) == list(state.counters) and kept[1] == names
            stored = GAME.load(GAME.dump(state))  # no dict kept: made from the pairs
            table, again = Table(state), Table(stored)
            for t in (table, again):
                t.bump("a new counter")
                t.set_count("zz last", 3)
            assert table.freeze(1).counters == again.freeze(1).counters
    assert new_names > 20, "new counters came among old ones"
