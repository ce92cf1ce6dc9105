"""The strong Fairy Meat bot: determinized search from its own view.

A *world* is a full engine state consistent with what the seat sees: the fairies (Live, Kill, Twinkle,
weapon, conditions, mushrooms, bonus, Order cards), the round and its Order, whose turn, the combat on the
table (directions, Trumps face up, Numbered and Wild cards, points), its own combat hand and face-down
Trumps, its own locked-in choice, the deck's and the Spoils Heap's sizes and the heap's top card, the last
attack's record, are taken from the view. What it cannot see (the other combat hand, the other seat's
face-down Trumps and sealed choice, the deck's order, the heap's face-down cards) is dealt at random from the
cards the view does not show. The agenda (what the engine does next) is rebuilt from the phase, the combat's
attack n of m and the round's Order; a pending damage count, a Nasty Hit's condition still to come and Twinkle
points lost to Brains Rattled are not in the view and are approximated. So a world approximates the seat's
information, never a peek at the real state.

For each legal decision the bot samples worlds (the same worlds for every candidate, so they are compared
fairly), makes the decision with the engine's rules (a ``Table`` on its own copy of the world) and plays on at
random, the better reveal / apply-points choice taken as the server's time-out does, until the turn is over:
the combat on the table, or the one the decision starts, has ended, or the next fairy's turn has come (weapons
are chosen over the whole first round). It scores the Live and Kill points left on each side, less a little for
each condition (a win counts ``WIN``); the decision with the best total is chosen. A world the engine refuses
the decision in (the approximation got it wrong) gives no opinion.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.fairy_meat import cards
from engine.fairy_meat.rules import Table
from engine.fairy_meat.state import Combat, Fairy, Options, Side, State
from engine.rng import Rng

__all__ = ["SAMPLES", "SearchBot", "Weights", "score", "world"]

SAMPLES = 8
"""Worlds sampled per decision."""
PLAYOUTS = 48
"""At most this many playouts per decision: with many legal decisions, fewer worlds each."""
STEPS = 40
"""Decisions played after the candidate, at most, in one playout."""
WIN = 100
"""A match won, in Live and Kill points."""


@dataclass(frozen=True, slots=True)
class Weights:
    """How a position short of the end is scored, per fairy: her Live and Kill points, and a cost per
    condition (each one a lasting handicap)."""

    live: float = 1.0
    kill: float = 1.0
    condition: float = 0.5


WEIGHTS = Weights()


def _codes(shown: Sequence[Mapping[str, Any]] | None) -> list[str]:
    return [str(c["code"]) for c in shown or ()]


def _take(pool: list[str], codes: Sequence[str]) -> None:
    """Take ``codes`` out of ``pool`` (one copy each) where they are there to take."""
    for code in codes:
        if code in pool:
            pool.remove(code)


def _colour(code: str) -> str | None:
    colour = cards.colour(code)
    return None if colour is None else colour.value


def _face_down(unseen: list[str], count: int, rng: random.Random) -> tuple[list[str], str]:
    """``count`` Trumps of one colour (Jokers go with either) for the other seat's face-down Trumps, and their
    colour; taken out of ``unseen``."""
    colours = ["red", "black"]
    rng.shuffle(colours)
    for colour in colours:
        fits = [c for c in unseen if cards.is_trump(c) and _colour(c) in (colour, None)]
        if len(fits) >= count:
            chosen = fits[:count]
            _take(unseen, chosen)
            return chosen, colour
    chosen = unseen[:count]
    del unseen[:count]
    return chosen, colours[0]


_OPTIONS: dict[str, tuple[Options, tuple[str, ...]]] = {}
"""Room options already read, by their text: parsing them and building their deck for every world is slow."""


def _options(shown: Mapping[str, Any]) -> tuple[Options, tuple[str, ...]]:
    """The room's options as the view shows them (a scenario's deck is not shown: the usual deck stands in)
    and the Fairy Deck they build."""
    key = repr(sorted(shown.items()))
    if key not in _OPTIONS:
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        options = Options.parse({k: v for k, v in shown.items() if k != "fixed_deck"})
        _OPTIONS[key] = options, tuple(options.fairy_deck())
    return _OPTIONS[key]


def _fairy(shown: Mapping[str, Any]) -> Fairy:
    return Fairy(
        live=int(shown["live"]), kill=int(shown["kill"]), twinkle=int(shown["twinkle"]), weapon=shown.get("weapon"),
        conditions=[str(c) for c in shown.get("conditions") or ()], mushrooms=int(shown["mushrooms"]), rattled=0,
        acted=bool(shown["acted"]), bonus=int(shown["bonus"]), order_cards=_codes(shown.get("order_cards")),
        bonus_vs={str(b["fairy"]): int(b["cards"]) for b in shown.get("bonus_against") or ()},
        fallen=bool(shown["dead"]),
    )


def _slot(view: Mapping[str, Any], fairies: Sequence[Fairy]) -> int:
    """Which fairy's weapon is being chosen: the labels say (``Fairy B: ...``), else the first without one."""
    for decision in view["legal"]:
        label = str(decision.get("label", ""))
        if label.startswith("Fairy ") and label[7:8] == ":":
            return "ABC".index(label[6])
    return next((fid // 2 for fid, f in enumerate(fairies) if f.weapon is None), 0)


def _agenda(view: Mapping[str, Any], combat: Combat | None, fairies: Sequence[Fairy]) -> list[dict[str, Any]]:
    """The engine's agenda at the view's decision, rebuilt from the phase, the combat and the round's Order."""
    phase = view["phase"]
    order = [int(fid) for fid in view["order"]]
    turn = view.get("turn_fairy")
    if phase == "setup":
        band = int(view["band"])
        return [*({"do": "seal", "ask": "weapon", "slot": slot} for slot in range(_slot(view, fairies), band)),
                {"do": "round"}]
    if turn is None:
        raise ValueError(f"no turn in phase {phase!r}")
    fid = int(turn)
    later = order[order.index(fid) + 1:] if fid in order else []
    rest: list[dict[str, Any]] = [*({"do": "turn", "seat": f % 2, "fairy": f} for f in later), {"do": "round"}]
    awaited = [int(s) for s in view["waiting_for"]]
    if combat is None:
        seat = awaited[0] if awaited else fid % 2
        f = fairies[fid]
        if phase == "action":
            return [{"do": "act", "seat": fid % 2, "fairy": fid}, *rest]
        if phase == "cure":
            options = [str(d["condition"]) for d in view["legal"]]
            return [{"do": "cure", "seat": seat, "fairy": fid, "options": options}, *rest]
        if phase == "damage":
            if f.count("bleeder") or f.count("gusher"):
                trumps = sum(1 for c in f.order_cards if cards.is_trump(c))
                left = max(1, f.count("bleeder") * trumps + f.count("gusher"))
                return [{"do": "damage", "seat": seat, "fairy": fid, "left": left}, {"do": "check"},
                        {"do": "act", "seat": seat, "fairy": fid}, *rest]
            return [{"do": "damage", "seat": seat, "fairy": fid, "left": 1}, {"do": "check"}, *rest]
        raise ValueError(f"phase {phase!r} outside a combat")
    tail: list[dict[str, Any]] = [*({"do": "attack"} for _ in range(combat.attacks - combat.number)),
                                  {"do": "combat_end"}, *rest]
    attack: list[dict[str, Any]] = [{"do": "seal", "ask": "trumps"}, {"do": "seal", "ask": "numbered"},
                                    {"do": "after_numbered"}, {"do": "resolve"}, {"do": "attack_end"}]
    defender = combat.sides[combat.defender]
    if phase == "declare":
        return [{"do": "seal", "ask": "declare"}, *({"do": "attack"} for _ in range(combat.attacks)),
                {"do": "combat_end"}, *rest]
    if phase == "trumps":
        return [*attack, *tail]
    if phase == "numbered":
        return [*attack[1:], *tail]
    if phase in ("reveal", "apply_points"):
        seat = awaited[0]
        asks: list[dict[str, Any]] = [{"do": "reveal" if phase == "reveal" else "apply", "seat": seat}]
        if phase == "reveal" and defender.points and defender.wild_points is None and defender.card is not None:
            asks.append({"do": "apply", "seat": combat.defender})
        return [*asks, *attack[3:], *tail]
    if phase == "points":
        last = view.get("last") or {}
        points = next((int(s) for d in view["legal"] for s in str(d.get("label", "")).split() if s.isdigit()),
                      int(last.get("points") or 1))
        return [{"do": "points", "seat": combat.defender, "fairy": combat.fighters[combat.defender],
                 "against": combat.fighters[combat.attacker], "points": points}, attack[4], *tail]
    if phase == "damage":
        seat = awaited[0]
        last = view.get("last") or {}
        damage = [int(d) for d in last.get("damage") or (1, 1)]
        hits: list[dict[str, Any]] = [{"do": "damage", "seat": seat, "fairy": combat.fighters[seat],
                                       "left": max(1, damage[seat])}]
        if seat == combat.attacker and damage[combat.defender]:
            hits.append({"do": "damage", "seat": combat.defender, "fairy": combat.fighters[combat.defender],
                         "left": damage[combat.defender]})
        return [*hits, {"do": "check"}, attack[4], *tail]
    raise ValueError(f"phase {phase!r} inside a combat")


def world(view: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view`` (the seat's own view), the unseen cards dealt at random."""
    seat = int(view["seat"])
    other = 1 - seat
    options, deck_cards = _options(view["options"])
    pool = list(deck_cards)
    rng.shuffle(pool)
    hand = _codes(view.get("hand"))
    mine_down = _codes(view.get("my_face_down"))
    shown_combat = view.get("combat")
    seen = hand + mine_down
    if shown_combat is not None:
        for side in shown_combat["sides"]:
            seen += _codes(side["trumps"]) + _codes(side["wild"]) + ([side["card"]["code"]] if side["card"] else [])
    heap = int(view["spoils"])
    top = view["spoils_top"]["code"] if view.get("spoils_top") else None
    heap_up = [c for f in view["fairies"] for c in _codes(f.get("order_cards"))]
    if top is not None:
        if top in heap_up:
            heap_up.remove(top)
        heap_up.append(top)
    if len(heap_up) > heap:
        heap_up = [top] if top is not None else []
    _take(pool, seen + heap_up)
    unseen = pool
    fairies = [_fairy(f) for f in view["fairies"]]
    combat: Combat | None = None
    if shown_combat is not None:
        sides: list[Side] = []
        for s, shown in enumerate(shown_combat["sides"]):
            side = Side(s, direction=shown["direction"], card=shown["card"]["code"] if shown["card"] else None,
                        wild=_codes(shown["wild"]), wild_points=shown["wild_points"], points=int(shown["points"]))
            if shown["trumps"]:
                side.trumps, side.colour, side.shown = _codes(shown["trumps"]), shown["colour"], True
            elif s == seat and mine_down:
                named = [_colour(c) for c in mine_down if not cards.is_joker(c)]
                card_colour = None if side.card is None else _colour(side.card)
                side.trumps, side.face_down = mine_down, True
                side.colour = named[0] if named else card_colour or rng.choice(("red", "black"))
            elif s == other and shown["face_down"]:
                side.trumps, side.colour = _face_down(unseen, int(shown["face_down"]), rng)
                side.face_down = True
            sides.append(side)
        sides[seat].hand = hand
        count = int(shown_combat["sides"][other]["hand_count"])
        sides[other].hand = unseen[:count]
        del unseen[:count]
        combat = Combat(kind=shown_combat["kind"], attacker=int(shown_combat["attacker"]),
                        defender=int(shown_combat["defender"]), attacks=int(shown_combat["attacks"]),
                        number=int(shown_combat["attack"]), sides=sides,
                        fighters=[int(f) for f in shown_combat["fighters"]])
    deck_size = int(view["deck"])
    deck = unseen[:deck_size]
    down = unseen[deck_size:deck_size + max(0, heap - len(heap_up))]
    wins = [int(w) for w in view["wins"]]
    version = int(view["version"])
    sealed: list[dict[str, Any] | None] = [None, None]
    if view["locked"][seat] and view.get("my_choice") is not None:
        sealed[seat] = dict(view["my_choice"])
    state = State(
        options=options, version=version, opened=version, rng=Rng.from_seed(rng.randrange(2**62)).state,
        duel=int(view["duel"]), wins=wins, draws=max(0, int(view["duel"]) - 1 - sum(wins)), round=int(view["round"]),
        deck=deck, spoils=heap_up, spoils_down=down, fairies=fairies, order=[int(f) for f in view["order"]],
        turn=view.get("turn_fairy"), combat=combat, agenda=_agenda(view, combat, fairies), sealed=sealed,
        last=view.get("last"), spoils_top=top,
    )
    front = state.agenda[0]
    if view["locked"][other] and front["do"] == "seal":
        choices = Table(state).seal_options(front["ask"], other, int(front.get("slot", 0)))
        if choices:
            state.sealed[other] = {k: v for k, v in rng.choice(choices).items() if k != "label"}
    return state


def score(state: State, seat: int, weights: Weights = WEIGHTS) -> float:
    """How good ``state`` is for ``seat``: ``WIN`` for a match won, else the Live and Kill points (less the
    conditions) of its fairies against the other seat's, duels won counting ``WIN`` each."""
    outcome = state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else WIN if outcome.winner == seat else -WIN
    total = float(WIN * (state.wins[seat] - state.wins[1 - seat]))
    for fid, f in enumerate(state.fairies):
        worth = 0.0 if f.dead else (weights.live * max(0, f.live) + weights.kill * max(0, f.kill)
                                    - weights.condition * len(f.conditions))
        total += worth if fid % 2 == seat else -worth
    return total


def _bare(decision: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in decision.items() if k != "label"}


def _copy(state: State) -> State:
    """A copy of a world the rules may change: what they change is copied, the rest (the options, the last
    attack's record, the outcome: never changed in place) is shared. Much cheaper than ``State.clone``."""
    combat = state.combat
    if combat is not None:
        combat = replace(combat, sides=[replace(side, hand=list(side.hand), trumps=list(side.trumps),
                                                wild=list(side.wild)) for side in combat.sides],
                         fighters=list(combat.fighters))
    return replace(
        state, wins=list(state.wins), deck=list(state.deck), spoils=list(state.spoils),
        spoils_down=list(state.spoils_down), order=list(state.order), combat=combat,
        fairies=[replace(f, conditions=list(f.conditions), order_cards=list(f.order_cards), bonus_vs=dict(f.bonus_vs))
                 for f in state.fairies],
        agenda=[dict(task) for task in state.agenda], sealed=[None if c is None else dict(c) for c in state.sealed],
    )


def _over(before: State, now: State, fought: bool) -> bool:
    """Whether a playout from ``before`` has gone far enough: the match, duel or round is over, the turn has
    passed to another fairy, or a combat was fought (the one on the table, or the one the decision started) and
    has ended. Before the first round (weapons), the first round is played out."""
    if now.outcome is not None or now.duel != before.duel:
        return True
    if before.turn is None:
        return now.round > max(before.round, 1)
    return now.round != before.round or now.turn != before.turn or (fought and now.combat is None)


def _playout(state: State, seat: int, first: Mapping[str, Any], rng: random.Random, weights: Weights) -> float:
    """Play ``first`` for ``seat``, then on at random (the better reveal / apply-points choice taken) until the
    turn is over; the score from ``seat``. Raises ``ValueError`` if the world does not offer ``first``."""
    table = Table(_copy(state))
    chosen = _bare(first)
    if seat not in table.awaited() or chosen not in [_bare(o) for o in table.options(seat)]:
        raise ValueError("the world does not offer this decision")
    table.decide(seat, chosen)
    table.advance()
    fought = state.combat is not None
    for _ in range(STEPS):
        fought = fought or table.s.combat is not None
        awaited = table.awaited()
        if _over(state, table.s, fought) or not awaited:
            break
        mover = rng.choice(awaited)
        task = table.front()
        assert task is not None
        if task["do"] in ("reveal", "apply"):
            decision = table.default(mover)
        else:
            decision = _bare(rng.choice(table.options(mover)))
        table.decide(mover, decision)
        table.advance()
    return score(table.s, seat, weights)


class SearchBot:
    """Determinized search: the legal decision with the best summed score over sampled worlds."""

    level = "strong"

    def __init__(self, seed: int | str | None = None, samples: int = SAMPLES, weights: Weights = WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.weights = weights

    @staticmethod
    def world(view: Mapping[str, Any], rng: random.Random) -> State:
        """A world for ``view``: see :func:`world`."""
        return world(view, rng)

    def decide(self, view: Mapping[str, Any]) -> dict[str, Any]:
        legal: Sequence[Mapping[str, Any]] = view["legal"]
        if len(legal) == 1 or view.get("seat") is None:
            return dict(legal[0])
        seat = int(view["seat"])
        totals = [0.0] * len(legal)
        for _ in range(max(2, min(self.samples, PLAYOUTS // len(legal)))):
            try:
                sample = world(view, self.rng)
                seed = self.rng.randrange(2**62)
                scores = [_playout(sample, seat, d, random.Random(seed), self.weights) for d in legal]
            except Exception:  # a world the approximation got wrong (a play the engine refuses): no opinion
                continue
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        best = max(totals)
        return dict(self.rng.choice([d for d, t in zip(legal, totals, strict=True) if t == best]))
