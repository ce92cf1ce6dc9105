"""Fairy Meat rules: set-up, rounds and Order cards, turns, combat, damage, Nasty Hits, Fungus.

The match is driven by the state's agenda (see :mod:`engine.fairy_meat.state`): a
:class:`Table` works on a copy of the state, runs tasks until one waits for a decision,
and collects the events. A decision is checked against :meth:`Table.options` (the same
list ``legal`` returns), so what is listed and what is accepted never disagree.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Mapping

from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.fairy_meat import cards
from engine.fairy_meat.cards import Colour
from engine.fairy_meat.combat import BAND_LETTERS, Result, card_key, evaluate, fairy_name, who
from engine.fairy_meat.state import (
    CURABLE_BY_KISS,
    WEAPONS,
    Combat,
    Condition,
    Fairy,
    FairySetup,
    Options,
    Side,
    Spoils,
    State,
)
from engine.interface import Decision, Event, Outcome, OutcomeReason, Seat
from engine.memo import per_state
from engine.rng import Rng

__all__ = ["EXTRA_KEYS", "NASTY_TABLE", "SPLITS", "Table", "apply", "legal", "phase", "refusal", "setup", "timer"]

EXTRA_KEYS = frozenset({"label"})
"""Keys a legal decision carries for the client; ``apply`` ignores them."""

SPLITS = ((3, 3), (2, 4), (4, 2), (1, 5), (5, 1))
"""The ways to split 6 points into (Live, Kill), at least 1 each; the default first."""

ORDER_TIES = 10
"""After this many tied Order draws in a row (only possible with a small scenario deck), chance decides."""

NASTY_TABLE: tuple[tuple[str, str], ...] = (
    ("spawny_get", "Spawny Get: she avoids the blow completely and takes no damage from this attack"),
    ("narrow_escape", "Narrow Escape: the damage is halved (rounded up)"),
    ("dazed", "Dazed: she does nothing on her next turn, and defends with 1 card less and never as Posed"),
    ("clipped_wings", "Clipped Wings (no effect in a duel; a Kiss or Fungus removes it)"),
    ("gbh", "Grievous Bodily Harm: 1 card less in every combat"),
    ("brains_rattled", "Brains Rattled: she loses a Twinkle point for good (none left: 1 more damage)"),
    ("panicked", "Panicked: she acts first every round"),
    ("confused", "Confused: she acts last every round"),
    ("berserk", "Berserk: all her Live points become Kill points; she may only attack or wrestle"),
    ("bleeder", "Bleeder: 1 damage at the start of her turn for every Trump she draws as an Order card"),
    ("gusher", "Gusher: 1 damage at the start of every turn"),
    ("head_off", "'Er 'ed's come clean orf! She is dead"),
)
"""Nasty Hits results by final value: 0 or less, 1, 2, ... 10, and 11 or more."""

_ASKS = frozenset({"act", "damage", "reveal", "apply", "points", "cure"})
_PHASES = {"weapon": "setup", "declare": "declare", "trumps": "trumps", "numbered": "numbered", "act": "action",
           "damage": "damage", "reveal": "reveal", "apply": "apply_points", "points": "points", "cure": "cure"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _faces(codes: list[str]) -> str:
    return " ".join(cards.face(c) for c in codes) if codes else "nothing"


def _remove(hand: list[str], codes: list[str]) -> None:
    for code in codes:
        hand.remove(code)


def nasty_result(value: int) -> tuple[str, str]:
    """The Nasty Hits table: 0 or less Spawny Get ... 10 Gusher, 11 or more the head comes off."""
    return NASTY_TABLE[max(0, min(value, 11))]


class Table:
    """A mutable working copy of the state while one decision is applied."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events: list[Event] = []

    # -- basics ------------------------------------------------------------------------------

    @property
    def o(self) -> Options:
        return self.s.options

    def emit(self, event: str, text: str, secret: Mapping[int, Mapping[str, Any]] | None = None, **public: Any) -> None:
        self.events.append(Event(event, {"text": text, **public}, dict(secret or {})))

    def shuffle(self, items: list[str]) -> list[str]:
        out, rng = Rng(self.s.rng).shuffled(items)
        self.s.rng = rng.state
        return list(out)

    def chance(self, n: int) -> int:
        value, rng = Rng(self.s.rng).below(n)
        self.s.rng = rng.state
        return value

    def draw(self) -> str | None:
        """The top card of the Fairy Deck; an empty deck is first refilled from the Spoils Heap, shuffled."""
        s = self.s
        if not s.deck:
            pool = s.spoils + s.spoils_down
            if not pool:
                return None
            s.deck = self.shuffle(pool)
            s.spoils, s.spoils_down, s.spoils_top = [], [], None
            self.emit("reshuffle", f"The Fairy Deck is empty: the Spoils Heap ({_plural(len(pool), 'card')}) is "
                      "shuffled into a new Fairy Deck.", deck=len(s.deck))
        return s.deck.pop(0)

    def discard(self, up: Sequence[str], down: Sequence[str] = ()) -> None:
        """Cards to the Spoils Heap: ``up`` face up, then ``down`` face down on top of them; the heap shows only
        its top card, and only when that card went there face up."""
        s = self.s
        s.spoils += list(up)
        s.spoils_down += list(down)
        if down:
            s.spoils_top = None
        elif up:
            s.spoils_top = up[-1]

    def fairy(self, seat: int) -> Fairy:
        return self.s.fairies[seat]

    def side(self, seat: int) -> Side:
        assert self.s.combat is not None
        return self.s.combat.sides[seat]

    def push(self, *tasks: dict[str, Any]) -> None:
        """Put tasks at the front of the agenda, in the order given."""
        self.s.agenda[0:0] = list(tasks)

    def stats(self, fid: int) -> str:
        f = self.fairy(fid)
        return f"Live {f.live}, Kill {f.kill}"

    # -- bands: fairy ``fid`` belongs to seat ``fid % 2`` and is its fairy ``fid // 2`` (A, B, C) ---------

    @property
    def band(self) -> int:
        return self.o.band

    def name(self, fid: int) -> str:
        """``Player 1`` in a duel of one fairy a side; ``Player 1's fairy B`` in bands."""
        return fairy_name(fid, self.band)

    def band_of(self, seat: int) -> list[int]:
        """The fairies of ``seat``'s band, A first."""
        return [fid for fid in range(len(self.s.fairies)) if fid % 2 == seat]

    def living(self, seat: int) -> list[int]:
        return [fid for fid in self.band_of(seat) if not self.fairy(fid).dead]

    def fighter(self, seat: int) -> int:
        """The fairy of ``seat`` in the combat on the table."""
        assert self.s.combat is not None
        return self.s.combat.fighters[seat]

    @staticmethod
    def fid(task: Mapping[str, Any]) -> int:
        """The fairy a task is about (a task without one is about the seat's only fairy)."""
        return int(task.get("fairy", task["seat"]))

    # -- the agenda --------------------------------------------------------------------------

    def advance(self) -> None:
        """Run tasks until one waits for a decision or the match is over."""
        while self.s.outcome is None and self.s.agenda:
            task = self.s.agenda.pop(0)
            if not _HANDLERS[task["do"]](self, task):
                self.s.agenda.insert(0, task)
                return

    def front(self) -> dict[str, Any] | None:
        return self.s.agenda[0] if self.s.outcome is None and self.s.agenda else None

    def awaited(self) -> list[int]:
        """The seats whose decision the match waits on."""
        task = self.front()
        if task is None:
            return []
        if task["do"] == "seal":
            return [seat for seat in (0, 1) if self.s.sealed[seat] is None]
        if task["do"] in _ASKS:
            return [task["seat"]]
        return []

    def phase(self) -> str:
        task = self.front()
        if task is None:
            return "over" if self.s.outcome is not None else "idle"
        key = str(task.get("ask", task["do"]))
        return _PHASES.get(key, key)

    def timer(self) -> tuple[Seat, int] | None:
        """A decision one seat must take alone is timed; so is a sealed choice once only one seat is left to make it."""
        seats = self.awaited()
        if len(seats) == 1:
            return seats[0], self.o.answer_seconds
        return None

    # -- the decisions open to a seat ----------------------------------------------------------

    def options(self, seat: int) -> list[dict[str, Any]]:
        """The legal decisions of ``seat`` now, each with a ``label``; the first is the time-out default
        (except where :meth:`default` says otherwise)."""
        if seat not in self.awaited():
            return []
        task = self.front()
        assert task is not None
        do = task["do"]
        if do == "seal":
            return self.seal_options(task["ask"], seat, task.get("slot", 0))
        if do == "act":
            return self.act_options(self.fid(task))
        if do == "damage":
            f = self.fairy(self.fid(task))
            return [{"kind": "damage", "from": "live", "label": f"Take 1 from Live ({f.live} → {f.live - 1})"},
                    {"kind": "damage", "from": "kill", "label": f"Take 1 from Kill ({f.kill} → {f.kill - 1})"}]
        if do == "reveal":
            return [{"kind": "reveal_trumps", "reveal": flag, "label": self.preview(seat, reveal=flag)}
                    for flag in (True, False)]
        if do == "apply":
            return [{"kind": "apply_points", "apply": flag, "label": self.preview(seat, apply_points=flag)}
                    for flag in (True, False)]
        if do == "points":
            n = task["points"]
            acted = self.fairy(self.fid(task)).acted
            return [
                {"kind": "points", "use": "bonus",
                 "label": (f"Bonus: {_plural(n, 'extra card')} for your attack this round" if not acted
                           else "Bonus cards (no effect: you have had your turn this round)")},
                {"kind": "points", "use": "trumps", "label": f"Use the {_plural(n, 'point')} as Trumps on the next attack"},
            ]
        if do == "cure":
            return [{"kind": "cure", "condition": c, "label": f"Cure {Condition(c).display}"} for c in task["options"]]
        raise AssertionError(f"no options for task {do}")

    def setup_of(self, fid: int) -> FairySetup:
        return self.o.fairy_setup(fid)

    def seal_options(self, ask: str, seat: int, slot: int = 0) -> list[dict[str, Any]]:
        if self.s.sealed[seat] is not None:
            return []
        if ask == "weapon":
            fixed = self.setup_of(2 * slot + seat)
            head = f"Fairy {BAND_LETTERS[slot]}: " if self.band > 1 else ""
            weapons = [fixed.weapon] if fixed.weapon is not None else list(WEAPONS)
            splits: list[tuple[int, int] | None] = (
                list(SPLITS) if self.o.split_points and fixed.live is None else [None])
            out: list[dict[str, Any]] = []
            for name in weapons:
                for split in splits:
                    decision: dict[str, Any] = {"kind": "weapon", "weapon": name}
                    label = head + WEAPONS[name].title
                    if split is not None:
                        decision["live"], decision["kill"] = split
                        label += f", Live {split[0]} / Kill {split[1]}"
                    decision["label"] = label
                    out.append(decision)
            return out
        if ask == "declare":
            return [{"kind": "declare", "direction": "add", "label": "Add: each of your Trumps raises your card by 1"},
                    {"kind": "declare", "direction": "subtract",
                     "label": "Subtract: each of your Trumps lowers your card by 1"}]
        side = self.side(seat)
        if ask == "trumps":
            out = [{"kind": "trumps", "cards": [], "label": "None"}]
            if not side.hand and side.points:
                out += [{"kind": "trumps", "cards": [], "wild_points": c.value,
                         "label": f"Use your {_plural(side.points, 'point')} as {c.value} Wild Trumps"}
                        for c in Colour]
            trumps = [c for c in side.hand if cards.is_trump(c)]
            jokers = sorted((c for c in trumps if cards.is_joker(c)), key=card_key)
            seen: set[tuple[str, tuple[str, ...]]] = set()
            for colour in Colour:
                pool = sorted((c for c in trumps if cards.colour(c) is colour), key=card_key) + jokers
                for n in range(1, len(pool) + 1):
                    for combo in itertools.combinations(pool, n):
                        if (colour.value, combo) in seen:
                            continue
                        seen.add((colour.value, combo))
                        named = "; Jokers named " + colour.value if any(cards.is_joker(c) for c in combo) else ""
                        out.append({"kind": "trumps", "cards": list(combo), "colour": colour.value,
                                    "label": f"{_faces(list(combo))} ({colour.value}{named})"})
            return out
        if ask == "numbered":
            numbered = sorted(set(c for c in side.hand if cards.is_numbered(c)), key=card_key)
            if numbered:
                return [{"kind": "numbered", "card": c, "label": f"Play {cards.face(c)}"} for c in numbered]
            trumps = sorted(set(c for c in side.hand if cards.is_trump(c)), key=card_key)
            none_label = ("Draw for a Numbered card with your Wild Trump points" if side.wild_points
                          else "Play no card")
            return ([{"kind": "wild", "card": c, "label": f"Play {cards.face(c)} as a Wild Trump (draw for a Numbered card)"}
                     for c in trumps] + [{"kind": "no_card", "label": none_label}])
        raise AssertionError(f"unknown sealed step {ask}")

    def auto_seal(self, ask: str, seat: int, slot: int = 0) -> dict[str, Any] | None:
        """The choice of a seat that has nothing to choose (its hand count, public, already tells)."""
        if ask == "weapon":
            options = self.seal_options(ask, seat, slot)
            return _bare(options[0]) if len(options) == 1 else None
        if ask in ("trumps", "numbered"):
            side = self.side(seat)
            if side.hand:
                return None
            if ask == "trumps":
                return None if side.points else {"kind": "trumps", "cards": []}
            return {"kind": "no_card"}
        return None

    def act_options(self, fid: int) -> list[dict[str, Any]]:
        f = self.fairy(fid)
        weapon = WEAPONS[f.weapon or "claws"]
        out: list[dict[str, Any]] = []
        if self.band == 1:
            out += [{"kind": "action", "action": "attack", "label": f"Attack with {weapon.title}"},
                    {"kind": "action", "action": "wrestle", "label": "Wrestle (Kill points for both)"}]
        else:
            foes = self.living(1 - fid % 2)
            for action in ("attack", "wrestle"):
                for foe in foes:
                    g = self.fairy(foe)
                    out.append({"kind": "action", "action": action, "target": foe,
                                "label": f"{action.capitalize()} {self.name(foe)} (Live {g.live}, Kill {g.kill})"})
        if f.has("berserk"):
            return out
        if self.o.fungus and f.mushrooms > 0:
            out.append({"kind": "action", "action": "fungus", "label": f"Eat a mushroom ({f.mushrooms} left)"})
        if f.twinkle > 0:
            for c in CURABLE_BY_KISS:
                if f.has(c):
                    out.append({"kind": "action", "action": "kiss", "condition": c,
                                "label": f"Kiss: spend a Twinkle point to remove {Condition(c).display}"})
        return out

    def preview(self, seat: int, reveal: bool | None = None, apply_points: bool | None = None) -> str:
        """A reveal / apply-points choice with the result it gives (everything else is face up by then)."""
        assert self.s.combat is not None
        r = evaluate(self.s.combat, self.o.damage_scale,
                     reveal={} if reveal is None else {seat: reveal},
                     apply_points={} if apply_points is None else {seat: apply_points})
        if reveal is not None:
            head = "Reveal and apply your Trumps" if reveal else "Keep your Trumps face down"
        else:
            head = "Apply the points" if apply_points else "Do not apply the points"
        mine, theirs = r.values[seat], r.values[1 - seat]
        if r.winner is None:
            tail = "a draw"
        else:
            tail = f"{'you win' if r.winner == seat else 'you lose'} by {r.diff} ({_plural(r.points, 'point')})"
        return f"{head}: {mine if mine is not None else '-'} against {theirs if theirs is not None else '-'}, {tail}"

    def default(self, seat: int) -> dict[str, Any]:
        """What the server decides for ``seat`` when its time runs out."""
        task = self.front()
        assert task is not None
        options = self.options(seat)
        if task["do"] == "damage":
            f = self.fairy(self.fid(task))
            return {"kind": "damage", "from": "live" if f.live >= f.kill else "kill"}
        if task["do"] in ("reveal", "apply"):
            assert self.s.combat is not None
            scale = self.o.damage_scale
            if task["do"] == "reveal":
                yes = evaluate(self.s.combat, scale, reveal={seat: True})
                no = evaluate(self.s.combat, scale, reveal={seat: False})
            else:
                yes = evaluate(self.s.combat, scale, apply_points={seat: True})
                no = evaluate(self.s.combat, scale, apply_points={seat: False})
            better = _score(self.s.combat, yes, seat) > _score(self.s.combat, no, seat)
            return _bare(options[0] if better else options[1])
        if task["do"] == "points":
            return {"kind": "points", "use": "trumps" if self.fairy(self.fid(task)).acted else "bonus"}
        return _bare(options[0])

    # -- applying a decision ------------------------------------------------------------------

    def decide(self, seat: int, d: dict[str, Any]) -> None:
        task = self.front()
        assert task is not None
        do = task["do"]
        if do == "seal":
            self.s.sealed[seat] = d
            self.emit("locked_in", f"{who(seat)} has locked in.", {seat: {"text": f"You lock in: {_describe(d)}.",
                                                                         "choice": d}}, seat=seat)
            return
        self.s.agenda.pop(0)
        if do == "act":
            self.action(self.fid(task), d)
        elif do == "damage":
            fid = self.fid(task)
            f = self.fairy(fid)
            if d["from"] == "live":
                f.live -= 1
            else:
                f.kill -= 1
            task["left"] -= 1
            more = f" ({task['left']} more to take)" if task["left"] else ""
            self.emit("damage", f"{self.name(fid)} takes 1 damage from {d['from'].capitalize()}: {self.stats(fid)}{more}.",
                      seat=seat, fairy=fid, pool=d["from"], live=f.live, kill=f.kill)
            if task["left"] > 0:
                self.push(task)
        elif do == "reveal":
            side = self.side(seat)
            if d["reveal"]:
                side.shown, side.face_down = True, False
                self.emit("reveal_trumps", f"{who(seat)} reveals her face-down Trumps: {_faces(side.trumps)} "
                          f"({side.colour}).", seat=seat, cards=list(side.trumps), colour=side.colour)
            else:
                self.emit("keep_trumps", f"{who(seat)} keeps her {_plural(len(side.trumps), 'Trump')} face down: "
                          "they are not used.", {seat: {"cards": list(side.trumps)}}, seat=seat)
        elif do == "apply":
            side = self.side(seat)
            side.apply_points = bool(d["apply"])
            word = "applies" if side.apply_points else "does not apply"
            self.emit("apply_points", f"{who(seat)} {word} her {_plural(side.points, 'point')} from the last attack "
                      "as Trumps.", seat=seat, apply=side.apply_points)
        elif do == "points":
            if d["use"] == "bonus":
                self.bonus(self.fid(task), task["points"], task.get("against", 1 - seat))
            else:
                self.side(seat).points = task["points"]
                self.emit("points", f"{who(seat)} keeps her {_plural(task['points'], 'point')} as Trumps for the next "
                          "attack.", seat=seat, use="trumps", points=task["points"])
        elif do == "cure":
            self.cure(self.fid(task), d["condition"], "the mushroom")
        else:
            raise AssertionError(f"no decision for task {do}")

    def action(self, fid: int, d: dict[str, Any]) -> None:
        f = self.fairy(fid)
        seat = fid % 2
        what = d["action"]
        if what in ("attack", "wrestle"):
            target = int(d.get("target", 1 - seat))
            self.push({"do": "combat", "kind": what, "attacker": seat, "fairy": fid, "target": target})
        elif what == "fungus":
            f.mushrooms -= 1
            self.emit("fungus", f"{self.name(fid)} eats a mushroom ({f.mushrooms} left).", seat=seat, fairy=fid,
                      mushrooms=f.mushrooms)
            self.push({"do": "fungus", "seat": seat, "fairy": fid})
        else:
            f.twinkle -= 1
            f.conditions.remove(d["condition"])
            self.emit("kiss", f"{self.name(fid)} spends a Twinkle point on a Kiss: {Condition(d['condition']).display} "
                      f"is gone ({f.twinkle} Twinkle left).", seat=seat, fairy=fid, condition=d["condition"],
                      twinkle=f.twinkle)

    def bonus(self, fid: int, points: int, against: int) -> None:
        """Bonus cards won by defending, for her attack back on ``against`` this round (on no other foe)."""
        f = self.fairy(fid)
        foe = f" on {self.name(against)}" if self.band > 1 else " back"
        if f.acted:
            self.emit("points", f"{self.name(fid)} has had her turn this round: her {_plural(points, 'point')} bring "
                      "no bonus cards.", seat=fid % 2, fairy=fid, use="bonus", points=0)
        else:
            f.bonus += points
            f.bonus_vs[str(against)] = f.bonus_vs.get(str(against), 0) + points
            self.emit("points", f"{self.name(fid)} gains {_plural(points, 'bonus card')} for her attack{foe} this "
                      f"round ({f.bonus} in all).", seat=fid % 2, fairy=fid, use="bonus", points=points,
                      against=against)

    def cure(self, fid: int, condition: str, by: str) -> None:
        self.fairy(fid).conditions.remove(condition)
        self.emit("cure", f"{by.capitalize()} cures {self.name(fid)}'s {Condition(condition).display}.", seat=fid % 2,
                  fairy=fid, condition=condition)

    # -- tasks ----------------------------------------------------------------------------------

    def t_duel_start(self, task: dict[str, Any]) -> bool:
        s = self.s
        s.duel += 1
        s.round, s.turn, s.combat, s.order, s.last = 0, None, None, [], None
        s.sealed = [None, None]
        if s.duel == 1 and self.o.deck is not None:
            s.deck = list(self.o.deck)
        else:
            s.deck = self.shuffle(self.o.fairy_deck())
        s.spoils, s.spoils_down, s.spoils_top = [], [], None
        s.fairies = [self.new_fairy(fid) for fid in range(2 * self.band)]
        best = f" (best of {self.o.best_of}; {s.wins[0]}-{s.wins[1]})" if self.o.best_of > 1 else ""
        bands = f" Bands of {self.band} fairies a side." if self.band > 1 else ""
        self.emit("duel", f"Duel {s.duel}{best}: the Fairy Deck holds {_plural(len(s.deck), 'card')}.{bands}",
                  duel=s.duel, deck=len(s.deck), band=self.band)
        self.push(*({"do": "seal", "ask": "weapon", "slot": slot} for slot in range(self.band)), {"do": "round"})
        return True

    def new_fairy(self, fid: int) -> Fairy:
        fixed = self.setup_of(fid)
        f = Fairy(mushrooms=2 if self.o.fungus else 0)
        if fixed.live is not None and fixed.kill is not None:
            f.live, f.kill = fixed.live, fixed.kill
        if fixed.twinkle is not None:
            f.twinkle = fixed.twinkle
        if fixed.mushrooms is not None:
            f.mushrooms = fixed.mushrooms
        f.weapon = fixed.weapon
        f.conditions = list(fixed.conditions)
        return f

    def t_seal(self, task: dict[str, Any]) -> bool:
        ask = task["ask"]
        slot = task.get("slot", 0)
        for seat in (0, 1):
            if self.s.sealed[seat] is None:
                self.s.sealed[seat] = self.auto_seal(ask, seat, slot)
        if any(choice is None for choice in self.s.sealed):
            return False
        choices: list[dict[str, Any]] = [c for c in self.s.sealed if c is not None]
        self.s.sealed = [None, None]
        if ask == "weapon":
            self.r_weapon(choices, slot)
        else:
            _REVEALS[ask](self, choices)
        return True

    def r_weapon(self, choices: list[dict[str, Any]], slot: int = 0) -> None:
        parts = []
        for seat, d in enumerate(choices):
            fid = 2 * slot + seat
            f = self.fairy(fid)
            f.weapon = d["weapon"]
            if "live" in d:
                f.live, f.kill = d["live"], d["kill"]
            parts.append(f"{self.name(fid)} takes {WEAPONS[d['weapon']].title} ({self.stats(fid)}, "
                         f"Twinkle {f.twinkle})")
        self.emit("weapons", "; ".join(parts) + ".", weapons=[f.weapon for f in self.s.fairies],
                  live=[f.live for f in self.s.fairies], kill=[f.kill for f in self.s.fairies])

    def r_declare(self, choices: list[dict[str, Any]]) -> None:
        for seat, d in enumerate(choices):
            self.side(seat).direction = d["direction"]
        self.emit("declare", "; ".join(f"{who(seat)} will {d['direction']} her Trumps" for seat, d in enumerate(choices))
                  + ".", directions=[d["direction"] for d in choices])

    def r_trumps(self, choices: list[dict[str, Any]]) -> None:
        for seat, d in enumerate(choices):
            side = self.side(seat)
            side.trumps = list(d["cards"])
            _remove(side.hand, side.trumps)
            side.colour = d.get("colour")
            side.wild_points = d.get("wild_points")
        played = [bool(self.side(seat).trumps) for seat in (0, 1)]
        secret: dict[int, dict[str, Any]] = {}
        if all(played):
            for seat in (0, 1):
                self.side(seat).shown = True
            text = "; ".join(f"{who(seat)} reveals {_faces(self.side(seat).trumps)} ({self.side(seat).colour})"
                             for seat in (0, 1)) + "."
            public: dict[str, Any] = {"trumps": [list(self.side(seat).trumps) for seat in (0, 1)],
                                      "colours": [self.side(seat).colour for seat in (0, 1)], "face_down": [0, 0]}
        elif any(played):
            x = played.index(True)
            side = self.side(x)
            side.face_down = True
            n = len(side.trumps)
            text = (f"{who(1 - x)} says None, so {who(x)}'s {_plural(n, 'Trump')} {'stays' if n == 1 else 'stay'} face "
                    "down (she may reveal and use them once the Numbered cards are shown).")
            public = {"trumps": [[], []], "colours": [None, None],
                      "face_down": [len(side.trumps) if s == x else 0 for s in (0, 1)]}
            secret[x] = {"text": text + f" Yours: {_faces(side.trumps)} ({side.colour}).", "mine": list(side.trumps),
                         "colour": side.colour}
        else:
            text = "Both fairies say None."
            public = {"trumps": [[], []], "colours": [None, None], "face_down": [0, 0]}
        self.emit("trumps", text, secret, **public)
        for seat in (0, 1):
            side = self.side(seat)
            if side.wild_points:
                self.emit("wild_points", f"{who(seat)} has no card left: her {_plural(side.points, 'point')} from the "
                          f"last attack count as {side.wild_points} Wild Trumps.", seat=seat, colour=side.wild_points,
                          points=side.points)

    def r_numbered(self, choices: list[dict[str, Any]]) -> None:
        c = self.s.combat
        assert c is not None
        parts = []
        for seat in (c.attacker, c.defender):
            d, side = choices[seat], self.side(seat)
            if d["kind"] == "numbered":
                side.hand.remove(d["card"])
                side.card = d["card"]
                parts.append(f"{who(seat)} plays {cards.face(d['card'])}")
            elif d["kind"] == "wild":
                side.hand.remove(d["card"])
                side.wild = [d["card"]]
                parts.append(f"{who(seat)} has no Numbered card and plays {cards.face(d['card'])} as a Wild Trump")
            elif side.wild_points:
                parts.append(f"{who(seat)} has no card and draws with her Wild Trump points")
            else:
                parts.append(f"{who(seat)} has no card to play")
        self.emit("numbered", "; ".join(parts) + ".", cards=[self.side(s).card for s in (0, 1)],
                  wild=[list(self.side(s).wild) for s in (0, 1)])
        for seat in (c.attacker, c.defender):
            side = self.side(seat)
            if side.wild:
                self.wild_draw(seat, f"{cards.face(side.wild[0])} played as a Wild Trump")
            elif side.wild_points:
                self.wild_draw(seat, "her Wild Trump points")

    def wild_draw(self, seat: int, why: str) -> None:
        """Draw from the Fairy Deck until a Numbered card: the Trumps pulled are Wild Trumps too."""
        side = self.side(seat)
        pulled: list[str] = []
        while True:
            card = self.draw()
            if card is None:
                break
            pulled.append(card)
            if cards.is_numbered(card):
                side.card = card
                break
            side.wild.append(card)
        steps = ", ".join(f"{cards.face(p)} ({'her Numbered card' if cards.is_numbered(p) else 'a Trump: a Wild Trump too'})"
                          for p in pulled)
        if side.card is None:
            text = (f"For {why}, the server draws for {who(seat)} until a Numbered card: {steps or 'nothing'}; the "
                    "Fairy Deck and the Spoils Heap are empty, so she has no Numbered card.")
        else:
            text = f"For {why}, the server draws for {who(seat)} from the Fairy Deck until a Numbered card: {steps}."
        self.emit("wild_draw", text, seat=seat, cards=pulled)

    def t_combat(self, task: dict[str, Any]) -> bool:
        kind, a = task["kind"], task["attacker"]
        d = 1 - a
        fa_id = int(task.get("fairy", a))
        fd_id = int(task.get("target", d))
        fa = self.fairy(fa_id)
        weapon = WEAPONS[fa.weapon or "claws"]
        attacks = weapon.attacks if kind == "attack" else 1
        fighters = [fa_id, fd_id] if a == 0 else [fd_id, fa_id]
        self.s.combat = Combat(kind=kind, attacker=a, defender=d, attacks=attacks, sides=[Side(0), Side(1)],
                               fighters=fighters)
        how = (f"attacks {self.name(fd_id)} with {weapon.title}" if kind == "attack"
               else f"wrestles {self.name(fd_id)}")
        self.emit("combat", f"{self.name(fa_id)} {how}"
                  + (f" ({attacks} attacks from one combat hand)" if attacks > 1 else "") + ".",
                  mode=kind, attacker=a, defender=d, attacks=attacks, fighters=list(fighters))
        for seat, parts in ((a, self.attack_cards(fa_id, kind, weapon.attack_cards, fd_id)),
                            (d, self.defence_cards(fd_id, kind, weapon.defence_modifier))):
            count = max(0, sum(n for _, n in parts))
            side = self.side(seat)
            while len(side.hand) < count:
                card = self.draw()
                if card is None:
                    break
                side.hand.append(card)
            sums = _sum(parts)
            short = "" if len(side.hand) == count else f" (the Fairy Deck and the Spoils Heap ran out: {len(side.hand)})"
            text = f"{self.name(fighters[seat])} draws a combat hand of {_plural(count, 'card')} ({sums}){short}."
            self.emit("combat_hand", text, {seat: {"text": text + f" Yours: {_faces(side.hand)}.",
                                                   "cards": list(side.hand)}}, seat=seat, count=len(side.hand))
        fa.bonus, fa.bonus_vs = 0, {}
        self.push({"do": "seal", "ask": "declare"}, *({"do": "attack"} for _ in range(attacks)), {"do": "combat_end"})
        return True

    def attack_cards(self, fid: int, kind: str, weapon_cards: int, target: int) -> list[tuple[str, int]]:
        f = self.fairy(fid)
        parts = [("Kill", f.kill)]
        if kind == "attack" and weapon_cards:
            parts.append((WEAPONS[f.weapon or "claws"].title, weapon_cards))
        parts.append(("for attacking", 1))
        bonus = f.bonus_vs.get(str(target), 0)
        if bonus:
            parts.append(("bonus", bonus))
        if f.count("gbh"):
            parts.append(("GBH", -f.count("gbh")))
        return self.scenario_cards(fid, parts)

    def scenario_cards(self, fid: int, parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """A scenario's fixed hand size replaces the sum; its Flutter penalty takes cards off."""
        fixed = self.setup_of(fid)
        if fixed.hand_size is not None:
            parts = [("scenario hand size", fixed.hand_size)]
        if fixed.flutter_penalty:
            parts = [*parts, ("Flutter penalty", -fixed.flutter_penalty)]
        return parts

    def defence_cards(self, fid: int, kind: str, modifier: int) -> list[tuple[str, int]]:
        f = self.fairy(fid)
        parts = [("Live", f.live)] if kind == "attack" else [("Kill", f.kill)]
        if kind == "attack" and modifier:
            parts.append(("Vibro-Master", modifier))
        if f.has("dazed"):
            parts.append(("Dazed", -1))
        elif not f.acted:
            parts.append(("Posed: not yet acted", 1))
        if f.count("gbh"):
            parts.append(("GBH", -f.count("gbh")))
        return self.scenario_cards(fid, parts)

    def t_attack(self, task: dict[str, Any]) -> bool:
        c = self.s.combat
        assert c is not None
        c.number += 1
        if c.attacks > 1:
            self.emit("attack", f"Attack {c.number} of {c.attacks}.", number=c.number, attacks=c.attacks)
        self.push({"do": "seal", "ask": "trumps"}, {"do": "seal", "ask": "numbered"}, {"do": "after_numbered"},
                  {"do": "resolve"}, {"do": "attack_end"})
        return True

    def t_after_numbered(self, task: dict[str, Any]) -> bool:
        c = self.s.combat
        assert c is not None
        asks = []
        for seat in (c.attacker, c.defender):
            side = self.side(seat)
            if side.face_down and not side.shown:
                asks.append({"do": "reveal", "seat": seat})
        for seat in (c.attacker, c.defender):
            side = self.side(seat)
            if side.points and side.wild_points is None and side.card is not None:
                asks.append({"do": "apply", "seat": seat})
        self.push(*asks)
        return True

    def t_resolve(self, task: dict[str, Any]) -> bool:
        c = self.s.combat
        assert c is not None
        r = evaluate(c, self.o.damage_scale)
        for step in r.steps[:-1]:
            self.emit("step", step)
        multiplier = 2 ** r.aces
        a, d = c.attacker, c.defender
        tasks: list[dict[str, Any]] = []
        damage: list[int] = [0, 0]
        if c.kind == "wrestle" and r.winner is None:
            damage = [multiplier, multiplier]
        elif r.winner is not None and (c.kind == "wrestle" or r.winner == a):
            damage[1 - r.winner] = r.points * multiplier
        self.emit("result", r.steps[-1], winner=r.winner, diff=r.diff, points=r.points, damage=damage,
                  values=list(r.values))
        if r.aces and any(damage):
            base = max(damage) // multiplier
            self.emit("ace_of_spades", f"The Ace of Spades was revealed in this attack: the damage doubles"
                      f"{' twice' * (r.aces == 2)}{'' if r.aces < 3 else f' {r.aces} times'}: {base} → {max(damage)}.",
                      aces=r.aces)
        if c.kind == "wrestle" and r.winner is None:
            self.emit("wrestle_draw", f"A draw in a wrestle: both fairies take {damage[0]} damage.", damage=damage)
        self.s.last = self.record(c, r, damage)
        for seat in (a, d):
            if damage[seat]:
                tasks += self.hit(c.fighters[seat], damage[seat],
                                  f"{'the wrestle' if c.kind == 'wrestle' else 'the attack'}")
        if tasks:
            tasks.append({"do": "check"})
        for seat in (0, 1):
            self.side(seat).points = 0
        if c.kind == "attack" and r.winner == d:
            if c.number < c.attacks:
                tasks.append({"do": "points", "seat": d, "fairy": c.fighters[d], "against": c.fighters[a],
                              "points": r.points})
            else:
                self.bonus(c.fighters[d], r.points, c.fighters[a])
        self.push(*tasks)
        return True

    def record(self, c: Combat, r: Result, damage: list[int]) -> dict[str, Any]:
        """The public record of an attack, for the view (no face-down card in it)."""
        sides = []
        for seat in (0, 1):
            side = self.side(seat)
            sides.append({
                "seat": seat, "direction": side.direction,
                "trumps": list(side.trumps) if side.shown else [],
                "colour": side.colour if side.shown else None,
                "face_down": 0 if side.shown else len(side.trumps),
                "card": side.card, "wild": list(side.wild), "wild_points": side.wild_points,
                "points": side.points if (side.apply_points or side.wild_points) else 0,
                "value": r.values[seat],
            })
        return {"duel": self.s.duel, "round": self.s.round, "kind": c.kind, "attacker": c.attacker,
                "defender": c.defender, "attack": c.number, "attacks": c.attacks, "sides": sides,
                "steps": list(r.steps), "winner": r.winner, "diff": r.diff, "points": r.points, "aces": r.aces,
                "damage": damage, "fighters": list(c.fighters)}

    def hit(self, fid: int, damage: int, what: str) -> list[dict[str, Any]]:
        """Damage from one attack: a Nasty Hit first when it is 3 or more."""
        seat = fid % 2
        self.emit("hit", f"{self.name(fid)} is hit by {what} for {damage} damage.", seat=seat, fairy=fid, damage=damage)
        if self.o.nasty_hits and damage >= 3:
            return [{"do": "nasty", "seat": seat, "fairy": fid, "damage": damage}]
        return [{"do": "damage", "seat": seat, "fairy": fid, "left": damage}]

    def t_nasty(self, task: dict[str, Any]) -> bool:
        """The Nasty Hits draw: until a Numbered card (Trumps kept: black +1, red -1), a Joker lucks out."""
        seat, damage = task["seat"], task["damage"]
        fid = self.fid(task)
        poison = task.get("poison", False)
        f = self.fairy(fid)
        why = "the poisonous mushroom" if poison else f"{damage} damage in one blow"
        drawn: list[str] = []
        black = red = aces = 0
        numbered: str | None = None
        joker = False
        while True:
            card = self.draw()
            if card is None:
                break
            drawn.append(card)
            if cards.is_joker(card):
                joker = True
                break
            if cards.is_numbered(card):
                numbered = card
                break
            if cards.colour(card) is Colour.BLACK:
                black += 1
            else:
                red += 1
            aces += card == cards.ACE_OF_SPADES
        self.discard(drawn)
        head = f"Nasty Hit on {self.name(fid)} ({why}): the server draws {_faces(drawn)}"
        if joker:
            final = (damage + 1) // 2
            self.emit("nasty_hit", f"{head}. A Joker: she lucks out big time, takes only half the damage ({damage} → "
                      f"{final}, rounded up) and no Nasty Hit.", seat=seat, fairy=fid, cards=drawn, result="joker", damage=final)
            self.push({"do": "damage", "seat": seat, "fairy": fid, "left": final})
            return True
        if numbered is None:
            self.emit("nasty_hit", f"{head}; the Fairy Deck and the Spoils Heap are empty, so there is no Nasty Hit.",
                      seat=seat, fairy=fid, cards=drawn, result=None, damage=damage)
            self.push({"do": "damage", "seat": seat, "fairy": fid, "left": damage})
            return True
        if aces:
            doubled = damage * 2 ** aces
            self.emit("ace_of_spades", f"The Ace of Spades is drawn for the Nasty Hit: the damage doubles: {damage} → "
                      f"{doubled}.", seat=seat, fairy=fid, aces=aces)
            damage = doubled
        over = max(0, damage - 3)
        value = cards.rank(numbered) + over + black - red
        sums = f"{cards.face(numbered)} {cards.rank(numbered)}"
        if over:
            sums += f" + {over} (damage over 3)"
        if black:
            sums += f" + {black} (black Trump{'s' * (black > 1)})"
        if red:
            sums += f" - {red} (red Trump{'s' * (red > 1)})"
        result, meaning = nasty_result(value)
        final = damage
        if result == "spawny_get":
            final = 0
        elif result == "narrow_escape":
            final = (damage + 1) // 2
        elif result == "brains_rattled" and f.twinkle == 0:
            final = damage + 1
        change = f" Damage {damage} → {final}." if final != damage else ""
        self.emit("nasty_hit", f"{head}: {sums} = {value}: {meaning}.{change}", seat=seat, fairy=fid, cards=drawn, value=value,
                  result=result, damage=final)
        tasks: list[dict[str, Any]] = []
        if final:
            tasks.append({"do": "damage", "seat": seat, "fairy": fid, "left": final})
        if result not in ("spawny_get", "narrow_escape"):
            tasks.append({"do": "condition", "seat": seat, "fairy": fid, "effect": result})
        self.push(*tasks)
        return True

    def t_damage(self, task: dict[str, Any]) -> bool:
        """Damage point by point: the owner chooses Live or Kill while she has both; otherwise it is forced."""
        seat = task["seat"]
        fid = self.fid(task)
        f = self.fairy(fid)
        forced: list[str] = []
        while task["left"] > 0 and not f.dead:
            if f.live > 0 and f.kill > 0:
                break
            pool = "live" if f.live > 0 else "kill"
            if pool == "live":
                f.live -= 1
            else:
                f.kill -= 1
            forced.append(pool)
            task["left"] -= 1
        if forced:
            where = forced[0].capitalize()
            self.emit("damage", f"{self.name(fid)} takes {forced.count(forced[0])} damage from {where}, the only points she "
                      f"has left: {self.stats(fid)}.", seat=seat, fairy=fid, pool=forced[0], forced=len(forced), live=f.live,
                      kill=f.kill)
        if task["left"] > 0 and f.dead:
            self.emit("overkill", f"{self.name(fid)} has no points left to lose ({task['left']} damage more).",
                      seat=seat, fairy=fid)
            return True
        return bool(task["left"] <= 0)

    def t_condition(self, task: dict[str, Any]) -> bool:
        seat, effect = task["seat"], task["effect"]
        fid = self.fid(task)
        f = self.fairy(fid)
        if f.dead and effect != "head_off":
            return True
        text = ""
        if effect == "head_off":
            f.live = f.kill = 0
            text = f"{self.name(fid)}'s head comes clean off: she is dead."
        elif effect == "brains_rattled":
            if f.twinkle > 0:
                f.twinkle -= 1
                f.rattled += 1
                text = f"{self.name(fid)} loses a Twinkle point for good ({f.twinkle} left)."
            else:
                text = f"{self.name(fid)} had no Twinkle point to lose: she took 1 damage more instead."
        elif effect in ("panicked", "confused"):
            other = "confused" if effect == "panicked" else "panicked"
            if f.has(other):
                f.conditions.remove(other)
                text = f"{self.name(fid)} was {other.capitalize()}: the two cancel out and both are gone."
            elif f.has(effect):
                text = f"{self.name(fid)} is already {effect.capitalize()}."
            else:
                f.conditions.append(effect)
                text = f"{self.name(fid)} is {effect.capitalize()}."
        elif effect == "berserk":
            moved = f.live
            f.kill += f.live
            f.live = 0
            for gone in ("panicked", "confused"):
                if f.has(gone):
                    f.conditions.remove(gone)
            if not f.has("berserk"):
                f.conditions.append("berserk")
            text = (f"{self.name(fid)} goes Berserk: her {moved} Live points become Kill points ({self.stats(fid)}); "
                    "she may only attack or wrestle from now on.")
        elif effect == "dazed":
            if not f.has("dazed"):
                f.conditions.append("dazed")
            text = f"{self.name(fid)} is Dazed."
        else:
            f.conditions.append(effect)
            text = f"{self.name(fid)} suffers {Condition(effect).display} ({f.count(effect)} in all)."
        self.emit("condition", text, seat=seat, fairy=fid, effect=effect, conditions=list(f.conditions))
        return True

    def t_check(self, task: dict[str, Any]) -> bool:
        """A dead fairy ends the duel (both dead: a drawn duel); the match ends, or the next duel begins."""
        s = self.s
        for fid, f in enumerate(s.fairies):
            if f.dead and not f.fallen:
                f.fallen = True
                if self.band > 1:
                    self.emit("fallen", f"{self.name(fid)} is dead: she takes no more turns and cannot be attacked.",
                              seat=fid % 2, fairy=fid)
        dead = [seat for seat in (0, 1) if not self.living(seat)]
        if not dead:
            c = s.combat
            if c is not None and any(self.fairy(fid).dead for fid in c.fighters):
                self.end_combat()
            return True
        winner = None if len(dead) == 2 else 1 - dead[0]
        if self.band == 1:
            both, one = "Both fairies are dead", f"{who(dead[0])}'s fairy is dead"
        else:
            both, one = "Both bands are dead", f"Every fairy of {who(dead[0])}'s band is dead"
        if winner is None:
            self.end_duel(None, f"{both}: the duel is drawn.")
        else:
            self.end_duel(winner, f"{one}: {who(winner)} wins duel {s.duel}.")
        return True

    def end_combat(self) -> None:
        """A fighter is dead but her band fights on: the combat ends at once (no further attack); the cards on
        the table and in both combat hands go to the Spoils Heap as at any combat's end."""
        s = self.s
        c = s.combat
        assert c is not None
        dead = [fid for fid in c.fighters if self.fairy(fid).dead]
        self.emit("combat_over", f"{' and '.join(self.name(fid) for fid in dead)} "
                  f"{'is' if len(dead) == 1 else 'are'} dead: the combat ends.", fairies=dead)
        cut = next((i for i, t in enumerate(s.agenda) if t["do"] == "combat_end"), None)
        if cut is not None:
            s.agenda = [t for t in s.agenda[cut + 1:]]
        self.t_attack_end({})
        self.t_combat_end({})

    def end_duel(self, winner: int | None, text: str, limit: bool = False) -> None:
        """The duel is over (a death, or the round limit): the match ends, or the next duel begins."""
        s = self.s
        if s.combat is not None:
            self.t_attack_end({})
            self.t_combat_end({})
        if winner is None:
            s.draws += 1
        else:
            s.wins[winner] += 1
        self.emit("duel_over", text, duel=s.duel, winner=winner, limit=limit)
        s.agenda = []
        s.turn = None
        need = self.o.best_of // 2 + 1
        played = s.wins[0] + s.wins[1] + s.draws
        if max(s.wins) >= need or played >= self.o.best_of:
            if s.wins[0] == s.wins[1]:
                champion = None
                detail = f"a draw, {s.wins[0]}-{s.wins[1]}"
            else:
                champion = 0 if s.wins[0] > s.wins[1] else 1
                detail = (f"{who(champion)}'s fairy wins" + (f", {max(s.wins)}-{min(s.wins)} in duels"
                                                              if self.o.best_of > 1 else ""))
            if limit:
                detail += " (the last duel reached the round limit)"
            s.outcome = Outcome(champion, OutcomeReason.KNOCKOUT, (s.wins[0], s.wins[1]), detail)
            self.emit("over", f"The match is over: {detail}.", winner=champion, wins=list(s.wins))
        else:
            s.agenda = [{"do": "duel_start"}]

    def left(self, seat: int) -> int:
        """The Live and Kill points a side has left, over its living fairies (the round limit's tiebreak)."""
        return sum(max(0, self.fairy(fid).live) + max(0, self.fairy(fid).kill) for fid in self.living(seat))

    def t_round(self, task: dict[str, Any]) -> bool:
        s = self.s
        if s.round >= self.o.round_limit:
            left = [self.left(seat) for seat in (0, 1)]
            head = (f"The round limit: {_plural(s.round, 'round')} played and no fairy is dead. Live and Kill points "
                    f"left: Player 1 {left[0]}, Player 2 {left[1]}")
            if left[0] == left[1]:
                self.end_duel(None, f"{head}: equal, so duel {s.duel} is drawn.", limit=True)
            else:
                winner = 0 if left[0] > left[1] else 1
                self.end_duel(winner, f"{head}: {who(winner)} wins duel {s.duel}.", limit=True)
            return True
        s.round += 1
        s.turn = None
        for f in s.fairies:
            f.acted, f.bonus, f.bonus_vs, f.order_cards = False, 0, {}, []
        if self.o.spoils is Spoils.RESHUFFLE and s.round > 1:
            s.deck = self.shuffle(s.deck + s.spoils + s.spoils_down)
            s.spoils, s.spoils_down, s.spoils_top = [], [], None
            self.emit("reshuffle", f"Round {s.round}: the whole Fairy Deck is reshuffled.", deck=len(s.deck))
        if self.band > 1:
            self.band_order()
            return True
        place = [0 if f.has("panicked") else 2 if f.has("confused") else 1 for f in s.fairies]
        draws: list[str] = []
        first: int | None = None
        for _ in range(ORDER_TIES):
            pair = [self.draw(), self.draw()]
            if pair[0] is None or pair[1] is None:
                s.deck = [c for c in pair if c is not None] + s.deck
                break
            drawn: list[str] = [c for c in pair if c is not None]
            for seat in (0, 1):
                self.fairy(seat).order_cards.append(drawn[seat])
            self.discard(drawn)
            values = [cards.order_value(c) for c in drawn]
            draws.append(f"{cards.face(drawn[0])} ({values[0]}) against {cards.face(drawn[1])} ({values[1]})")
            if place[0] != place[1]:
                first = 0 if place[0] < place[1] else 1
                break
            if values[0] != values[1]:
                first = 0 if values[0] > values[1] else 1
                break
        fixed = ""
        if place[0] != place[1]:
            fixed = "".join(f" {who(seat)} is {'Panicked' if place[seat] == 0 else 'Confused'}, which fixes her place."
                            for seat in (0, 1) if place[seat] != 1)
        if first is None:
            first = self.chance(2)
            fixed += " The Order cards keep tying (or ran out): chance decides."
        s.order = [first, 1 - first]
        ties = "; a tie, so both draw again: ".join(draws)
        self.emit("order", f"Round {s.round}. Order cards (Player 1 against Player 2): {ties or 'none'}.{fixed} "
                  f"{who(first)} acts first.", round=s.round, order=list(s.order),
                  cards=[list(f.order_cards) for f in s.fairies])
        self.push({"do": "turn", "seat": first}, {"do": "turn", "seat": 1 - first}, {"do": "round"})
        return True

    def band_order(self) -> None:
        """Bands: every living fairy draws an Order card; the highest acts first (Panicked first, Confused last);
        fairies that tie draw again (only they), and chance decides after too many ties."""
        s = self.s
        living = [fid for fid in range(len(s.fairies)) if not self.fairy(fid).dead]
        place = {fid: 0 if self.fairy(fid).has("panicked") else 2 if self.fairy(fid).has("confused") else 1
                 for fid in living}
        values: dict[int, list[int]] = {fid: [] for fid in living}
        lines: list[str] = []
        pending = list(living)
        for _ in range(ORDER_TIES):
            drawn: dict[int, str] = {}
            for fid in pending:
                card = self.draw()
                if card is None:
                    break
                drawn[fid] = card
            if len(drawn) < len(pending):
                s.deck = list(drawn.values()) + s.deck
                break
            for fid, card in drawn.items():
                self.fairy(fid).order_cards.append(card)
                values[fid].append(cards.order_value(card))
            self.discard(list(drawn.values()))
            lines.append(", ".join(f"{self.name(fid)} {cards.face(card)} ({cards.order_value(card)})"
                                   for fid, card in drawn.items()))
            keys = [(place[fid], values[fid]) for fid in living]
            pending = [fid for fid in living if keys.count((place[fid], values[fid])) > 1]
            if not pending:
                break
        tiebreak: dict[int, int] = {}
        chance = ""
        if pending:
            mixed = [int(x) for x in self.shuffle([str(fid) for fid in pending])]
            tiebreak = {fid: mixed.index(fid) for fid in pending}
            chance = " Some Order cards keep tying (or ran out): chance decides between them."
        s.order = sorted(living, key=lambda fid: (place[fid], [-v for v in values[fid]], tiebreak.get(fid, 0)))
        fixed = "".join(f" {self.name(fid)} is {'Panicked' if place[fid] == 0 else 'Confused'}, which fixes her "
                        "place." for fid in living if place[fid] != 1)
        self.emit("order", f"Round {s.round}. Order cards: {'; the tied draw again: '.join(lines) or 'none'}."
                  f"{fixed}{chance} Order: {', '.join(self.name(fid) for fid in s.order)}.", round=s.round,
                  order=list(s.order), cards=[list(f.order_cards) for f in s.fairies])
        self.push(*({"do": "turn", "seat": fid % 2, "fairy": fid} for fid in s.order), {"do": "round"})

    def t_turn(self, task: dict[str, Any]) -> bool:
        seat = task["seat"]
        fid = self.fid(task)
        f = self.fairy(fid)
        if f.dead:
            return True
        self.s.turn = fid
        f.acted = True
        self.emit("turn", f"{self.name(fid)}'s turn (round {self.s.round}).", seat=seat, fairy=fid, round=self.s.round)
        tasks: list[dict[str, Any]] = []
        trumps = sum(1 for c in f.order_cards if cards.is_trump(c))
        bleed = f.count("bleeder") * trumps
        gush = f.count("gusher")
        if bleed or gush:
            parts = []
            if bleed:
                parts.append(f"Bleeder: {f.count('bleeder')} x {_plural(trumps, 'Trump')} among her Order cards = {bleed}")
            if gush:
                parts.append(f"Gusher: {gush}")
            self.emit("bleed", f"{self.name(fid)} bleeds at the start of her turn: {'; '.join(parts)}.", seat=seat, fairy=fid,
                      damage=bleed + gush)
            tasks += [{"do": "damage", "seat": seat, "fairy": fid, "left": bleed + gush}, {"do": "check"}]
        self.push(*tasks, {"do": "act", "seat": seat, "fairy": fid})
        return True

    def t_act(self, task: dict[str, Any]) -> bool:
        seat = task["seat"]
        fid = self.fid(task)
        f = self.fairy(fid)
        if f.dead:
            return True
        if f.has("dazed"):
            f.conditions.remove("dazed")
            self.emit("dazed", f"{self.name(fid)} is Dazed: she spends this turn doing nothing (and is Dazed no more).",
                      seat=seat, fairy=fid)
            return True
        return False

    def t_attack_end(self, task: dict[str, Any]) -> bool:
        up: list[str] = []
        down: list[str] = []
        for seat in (0, 1):
            side = self.side(seat)
            (up if side.shown else down).extend(side.trumps)
            up.extend(side.wild)
            if side.card is not None:
                up.append(side.card)
            side.trumps, side.colour, side.face_down, side.shown = [], None, False, False
            side.card, side.wild, side.wild_points, side.apply_points = None, [], None, False
        self.discard(up, down)
        hidden = f"; {_plural(len(down), 'card')} face down" if down else ""
        self.emit("spoils", f"To the Spoils Heap: {_faces(up)}{hidden}.", cards=up, face_down=len(down))
        return True

    def t_combat_end(self, task: dict[str, Any]) -> bool:
        s = self.s
        c = s.combat
        assert c is not None
        left = [len(side.hand) for side in c.sides]
        for side in c.sides:
            self.discard([], side.hand)
            side.hand = []
        if any(left):
            self.emit("spoils", f"The combat is over: the cards left in the combat hands ({left[0]} and {left[1]}) go "
                      "to the Spoils Heap face down.", face_down=sum(left), cards=[])
        s.combat = None
        return True

    def t_fungus(self, task: dict[str, Any]) -> bool:
        seat = task["seat"]
        fid = self.fid(task)
        f = self.fairy(fid)
        card = self.draw()
        if card is None:
            self.emit("fungus", "The Fairy Deck and the Spoils Heap are empty: the mushroom does nothing.", seat=seat, fairy=fid)
            return True
        self.discard([card])
        head = f"The mushroom's card is {cards.face(card)}"
        if cards.is_joker(card):
            self.emit("fungus", f"{head}: poisoned! She draws for a Nasty Hit.", seat=seat, fairy=fid, card=card)
            self.push({"do": "nasty", "seat": seat, "fairy": fid, "damage": 0, "poison": True}, {"do": "check"})
            return True
        suit = cards.suit(card)
        if not cards.is_trump(card) or suit is None or suit.value == "S":
            self.emit("fungus", f"{head}: nothing happens.", seat=seat, fairy=fid, card=card)
            return True
        ace = card[0] == "A"
        if suit.value == "D":
            cured = [c for c in ("panicked", "confused") if f.has(c)]
            self.emit("fungus", f"{head}: a Diamond Trump cures Panicked or Confused"
                      + (" and an Ace of Diamonds restores a Twinkle point lost to Brains Rattled" if ace else "")
                      + ("" if cured or (ace and f.rattled) else " (she has nothing to cure)") + ".", seat=seat, fairy=fid,
                      card=card)
            for c in cured[:1]:
                self.cure(fid, c, "the mushroom")
            if ace and f.rattled:
                f.rattled -= 1
                f.twinkle += 1
                self.emit("twinkle", f"{self.name(fid)} gets back a Twinkle point ({f.twinkle}).", seat=seat, fairy=fid,
                          twinkle=f.twinkle)
            return True
        pair = ("clipped_wings", "gbh") if suit.value == "C" else ("bleeder", "gusher")
        names = " or ".join(Condition(c).display for c in pair)
        if ace:
            gone = any(f.has(c) for c in pair)
            every = " and ".join(Condition(c).display for c in pair)
            self.emit("fungus", f"{head}: an Ace cures every {every}{'' if gone else ' (she has none)'}.", seat=seat, fairy=fid,
                      card=card)
            for c in pair:
                while f.has(c):
                    self.cure(fid, c, "the mushroom")
            return True
        present = [c for c in pair if f.has(c)]
        self.emit("fungus", f"{head}: cures one {names}{'' if present else ' (she has none)'}.", seat=seat, fairy=fid, card=card)
        if len(present) == 1:
            self.cure(fid, present[0], "the mushroom")
        elif len(present) == 2:
            self.push({"do": "cure", "seat": seat, "fairy": fid, "options": present})
        return True

    def t_ask(self, task: dict[str, Any]) -> bool:
        return False


def _sum(parts: list[tuple[str, int]]) -> str:
    """``Kill 3 + Moon Dagger 1 + for attacking 1 - GBH 1``."""
    out = ""
    for i, (what, n) in enumerate(parts):
        if i == 0:
            out = f"{what} {n}"
        else:
            out += f" {'-' if n < 0 else '+'} {what} {abs(n)}"
    return out


def _bare(decision: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in decision.items() if k not in EXTRA_KEYS}


def _describe(d: Mapping[str, Any]) -> str:
    kind = d["kind"]
    if kind == "weapon":
        return WEAPONS[d["weapon"]].title + (f", Live {d['live']} / Kill {d['kill']}" if "live" in d else "")
    if kind == "declare":
        return str(d["direction"])
    if kind == "trumps":
        if d.get("wild_points"):
            return f"points as {d['wild_points']} Wild Trumps"
        return f"Trumps {_faces(d['cards'])} ({d['colour']})" if d["cards"] else "None"
    if kind in ("numbered", "wild"):
        return cards.face(d["card"]) + (" as a Wild Trump" if kind == "wild" else "")
    return "no card"


def _score(c: Combat, r: Result, seat: int) -> int:
    """How good an attack's result is for ``seat``: the damage she deals or the points she wins, less what she
    suffers (an Ace of Spades doubles damage, not a defender's points)."""
    double = 2 ** r.aces
    if r.winner is None:
        return -double if c.kind == "wrestle" else 0
    hurts = c.kind == "wrestle" or r.winner == c.attacker
    amount = r.points * (double if hurts else 1)
    return amount if r.winner == seat else -amount


_HANDLERS: dict[str, Callable[[Table, dict[str, Any]], bool]] = {
    "duel_start": Table.t_duel_start, "seal": Table.t_seal, "round": Table.t_round, "turn": Table.t_turn,
    "act": Table.t_act, "combat": Table.t_combat, "attack": Table.t_attack, "after_numbered": Table.t_after_numbered,
    "resolve": Table.t_resolve, "nasty": Table.t_nasty, "damage": Table.t_damage, "condition": Table.t_condition,
    "check": Table.t_check, "attack_end": Table.t_attack_end, "combat_end": Table.t_combat_end,
    "fungus": Table.t_fungus, "reveal": Table.t_ask, "apply": Table.t_ask, "points": Table.t_ask, "cure": Table.t_ask,
}
_REVEALS: dict[str, Callable[[Table, list[dict[str, Any]]], None]] = {
    "declare": Table.r_declare, "trumps": Table.r_trumps, "numbered": Table.r_numbered,
}


# -- the interface -------------------------------------------------------------------------------


def setup(raw: Mapping[str, Any], seed: int) -> State:
    """The match begins: duel 1's deck (shuffled by the seed, or the scenario's) and its set-up choices."""
    options = Options.parse(raw)
    state = State(options=options, version=0, opened=0, rng=Rng.from_seed(seed).state, duel=0, wins=[0, 0], draws=0,
                  round=0, deck=[], spoils=[], spoils_down=[], fairies=[Fairy(), Fairy()], order=[], turn=None,
                  combat=None, agenda=[{"do": "duel_start"}], sealed=[None, None], last=None)
    table = Table(state)
    table.advance()
    return table.s


@per_state
def legal(state: State, seat: Seat) -> list[Decision]:
    """The decisions ``seat`` may take now, each with a ``label`` (empty: nothing is awaited of it)."""
    if state.outcome is not None or seat not in (0, 1):
        return []
    return list(Table(state).options(seat))


def timer(state: State) -> tuple[Seat, int] | None:
    return Table(state).timer()


def phase(state: State) -> str:
    return Table(state).phase()


def _canonical(decision: Mapping[str, Any]) -> dict[str, Any]:
    out = _bare(decision)
    for key in ("card",):
        if isinstance(out.get(key), str):
            try:
                out[key] = cards.validate(out[key])
            except BadOptions:
                pass
    if out.get("kind") == "trumps" and isinstance(out.get("cards"), (list, tuple)):
        codes = list(out["cards"])
        try:
            codes = sorted((cards.validate(c) for c in codes), key=card_key)
        except BadOptions:
            return out
        out["cards"] = codes
        plain = [c for c in codes if not cards.is_joker(c)]
        if plain and "colour" not in out:
            colour = cards.colour(plain[0])
            out["colour"] = colour.value if colour else None
        if not codes:
            out.pop("colour", None)
    return out


def _why(table: Table, seat: int, d: dict[str, Any], options: list[dict[str, Any]]) -> str:
    """Why a decision is refused, as plainly as can be told."""
    kinds = sorted({o["kind"] for o in options})
    kind = d.get("kind")
    where = f"now is the {table.phase()} step"
    combat_kinds = ("numbered", "wild", "no_card") if table.phase() == "numbered" else ("trumps",)
    if kind not in kinds and not (table.s.combat is not None and kind in combat_kinds):
        return f"{where}: {who(seat)} may decide {', '.join(repr(k) for k in kinds)}, not {kind!r}"
    if kind == "no_card":
        return "you must play a Numbered card while you have one"
    if table.s.combat is not None and kind in ("trumps", "numbered", "wild"):
        hand = table.side(seat).hand
        chosen = d.get("cards", []) if kind == "trumps" else [d.get("card")]
        if not isinstance(chosen, list):
            return "'cards' must be a list of card codes"
        for code in chosen:
            if not isinstance(code, str) or code not in hand or chosen.count(code) > hand.count(code):
                return f"{code!r} is not in your combat hand ({_faces(hand)})"
        if kind == "trumps":
            if any(not cards.is_trump(c) for c in chosen):
                return "only Trumps (J, Q, K, A, Jokers) may be selected as Trumps"
            colours = {cards.colour(c) for c in chosen if not cards.is_joker(c)}
            if len(colours) > 1:
                return "the Trumps you select must all be one colour (a Joker takes the colour you name)"
            if chosen and "colour" not in d:
                return "name the colour of your Jokers: add 'colour': 'red' or 'black'"
        if kind == "numbered" and any(not cards.is_numbered(c) for c in chosen if isinstance(c, str)):
            return "a Trump is played in place of a Numbered card as 'wild', and only when you have no Numbered card"
        if kind == "wild" and any(cards.is_numbered(c) for c in hand):
            return "you must play a Numbered card while you have one"
        if kind == "wild" and not cards.is_trump(str(d.get("card"))):
            return "only a Trump may be played as a Wild Trump"
        if kind == "numbered" and not any(cards.is_numbered(c) for c in hand):
            return "you have no Numbered card: play a Trump as a Wild Trump ('wild'), or no card ('no_card')"
    labels = "; ".join(str(o.get("label", o)) for o in options[:12])
    return f"not a legal decision now; legal: {labels}{' ...' if len(options) > 12 else ''}"


def refusal(state: State, seat: Seat, decision: Decision) -> str:
    """Why the rules would refuse ``decision`` of ``seat`` (awaited of it) now, in the words ``apply`` gives; the state
    is only read (no copy is made)."""
    table = Table(state)
    return _why(table, seat, _canonical(decision), table.options(seat))


def apply(state: State, seat: Seat, decision: Decision) -> tuple[State, list[Event]]:
    """Apply one decision (a sealed choice waits for the other seat's), then run on to the next decision."""
    if state.outcome is not None:
        raise MatchOver("the match is over")
    if seat not in (0, 1):
        raise NotYourTurn(f"seat {seat} does not exist in Fairy Meat (seats 0 and 1)")
    if not isinstance(decision, Mapping):
        raise IllegalDecision(f"a decision must be a map with a 'kind', not {type(decision).__name__}")
    table = Table(state.clone())
    awaited = table.awaited()
    if seat not in awaited:
        task = table.front()
        if task is not None and task["do"] == "seal" and table.s.sealed[seat] is not None:
            raise NotYourTurn(f"{who(seat)} has already locked in; waiting for {who(1 - seat)}")
        names = " and ".join(who(s) for s in awaited) or "nobody"
        raise NotYourTurn(f"waiting for {names} (the {table.phase()} step), not {who(seat)}")
    task = table.front()
    assert task is not None
    options = table.options(seat)
    if decision.get("kind") == "timeout":  # any awaited decision: the server's clock ran out on it
        chosen = table.default(seat)
        label = next((str(o.get("label", "")) for o in options if _bare(o) == chosen), str(chosen))
        table.emit("timeout", f"{who(seat)}'s time is up: the server decides for her.",
                   {seat: {"text": f"Your time is up: the server decides for you: {label}."}}, seat=seat)
    else:
        wanted = _canonical(decision)
        matches = [_bare(o) for o in options if _canonical(o) == wanted]
        if not matches:
            raise IllegalDecision(_why(table, seat, wanted, options))
        chosen = matches[0]
    table.s.version += 1
    table.decide(seat, chosen)
    table.advance()
    if not (task["do"] == "seal" and table.front() is task):
        table.s.opened = table.s.version
    return table.s, table.events
