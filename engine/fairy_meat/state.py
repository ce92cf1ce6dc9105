"""The Fairy Meat state, its options, and their plain-data form for storage.

The state is a tree of small mutable dataclasses holding only plain values (ints,
strings, lists, maps): cards are their codes. The rules never change a state they are
given: :func:`engine.fairy_meat.rules.apply` works on a deep copy, so a state handed out
is a value. Storing it is ``dataclasses.asdict``-simple, and ``load(dump(s)) == s``.

The flow of play is an **agenda**: a list of small tasks (plain maps) that the rules
work through front to back. A task either runs by itself (draw the Order cards, resolve
an attack) or waits for a decision (a sealed choice of both seats, or one seat's
answer). A task may put new tasks at the front (an attack expands into its steps, damage
into point-by-point choices), so what happens next is always plain data in the state.
"""
from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping

from engine.errors import BadOptions
from engine.fairy_meat import cards
from engine.interface import Outcome

__all__ = [
    "CONDITIONS", "CURABLE_BY_KISS", "FLAG_CONDITIONS", "WEAPONS", "Combat", "Condition", "DamageScale", "Fairy",
    "FairySetup", "NumberedMix", "Options", "ROUND_LIMIT", "Side", "Spoils", "State", "TrumpMix", "Weapon", "ColourMix", "dump",
    "load",
]


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as data: attacks per combat, extra attack cards, and the change to the defender's cards."""

    name: str
    title: str
    attacks: int
    attack_cards: int
    defence_modifier: int


WEAPONS: dict[str, Weapon] = {
    w.name: w for w in (
        Weapon("claws", "Claws", 1, 0, 0),
        Weapon("moon_dagger", "Moon Dagger", 1, 1, 0),
        Weapon("vibro_master", "Vibro-Master", 2, 1, -1),
    )
}


class Condition(enum.StrEnum):
    """Conditions from the Nasty Hits table. Dazed, Panicked, Confused and Berserk are on or off;
    Clipped Wings, GBH, Bleeder and Gusher stack (one Kiss or cure removes one)."""

    DAZED = "dazed"
    CLIPPED_WINGS = "clipped_wings"
    GBH = "gbh"
    PANICKED = "panicked"
    CONFUSED = "confused"
    BERSERK = "berserk"
    BLEEDER = "bleeder"
    GUSHER = "gusher"

    @property
    def display(self) -> str:
        """The name players read: ``Grievous Bodily Harm``."""
        return _TITLES[self]


_TITLES = {
    Condition.DAZED: "Dazed", Condition.CLIPPED_WINGS: "Clipped Wings", Condition.GBH: "Grievous Bodily Harm",
    Condition.PANICKED: "Panicked", Condition.CONFUSED: "Confused", Condition.BERSERK: "Berserk",
    Condition.BLEEDER: "Bleeder", Condition.GUSHER: "Gusher",
}
CONDITIONS = tuple(c.value for c in Condition)
FLAG_CONDITIONS = frozenset({"dazed", "panicked", "confused", "berserk"})
CURABLE_BY_KISS = ("clipped_wings", "gbh", "bleeder", "gusher")


class TrumpMix(enum.StrEnum):
    NORMAL = "normal"
    MORE = "more"
    FEWER = "fewer"


class NumberedMix(enum.StrEnum):
    NORMAL = "normal"
    EXTREME = "extreme"
    MEDIAN = "median"


class ColourMix(enum.StrEnum):
    BALANCED = "balanced"
    MORE_RED = "more_red"
    MORE_BLACK = "more_black"


class Spoils(enum.StrEnum):
    HEAP = "heap"
    RESHUFFLE = "reshuffle"


class DamageScale(enum.StrEnum):
    HALVED = "halved"
    TIERED = "tiered"


@dataclass(frozen=True, slots=True)
class FairySetup:
    """A scenario's fixed fairy: each field given replaces the default (or the player's set-up choice).

    ``hand_size`` fixes how many cards each of her combat hands holds; ``flutter_penalty`` is that
    many cards less in each (the source's "usual modifiers", set directly for an example)."""

    live: int | None = None
    kill: int | None = None
    twinkle: int | None = None
    weapon: str | None = None
    conditions: tuple[str, ...] = ()
    mushrooms: int | None = None
    hand_size: int | None = None
    flutter_penalty: int | None = None

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: v for k, v in (("live", self.live), ("kill", self.kill), ("twinkle", self.twinkle),
                                                 ("weapon", self.weapon), ("mushrooms", self.mushrooms),
                                                 ("hand_size", self.hand_size),
                                                 ("flutter_penalty", self.flutter_penalty)) if v is not None}
        if self.conditions:
            out["conditions"] = list(self.conditions)
        return out


NO_SETUP = FairySetup()
"""What a fairy no scenario fixes has: nothing (one value, asked for at every decision)."""

_KNOWN = ("answer_seconds", "band", "best_of", "colours", "damage_scale", "deck", "decks", "fairies", "fungus", "jokers",
          "nasty_hits", "numbered", "round_limit", "spoils", "split_points", "trumps")

ROUND_LIMIT = 40
"""Rounds a duel lasts at most (option ``round_limit``); then the side with more Live and Kill points left wins."""


def _int(raw: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = raw.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadOptions(f"option {name!r} must be an integer from {low} to {high}, not {value!r}")
    return value


def _bool(raw: Mapping[str, Any], name: str, default: bool) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):
        raise BadOptions(f"option {name!r} must be true or false, not {value!r}")
    return value


def _enum(raw: Mapping[str, Any], name: str, kind: type[enum.StrEnum], default: enum.StrEnum) -> Any:
    value = raw.get(name, default.value)
    allowed = [e.value for e in kind]
    if value not in allowed:
        raise BadOptions(f"option {name!r} must be one of {', '.join(repr(a) for a in allowed)}, not {value!r}")
    return kind(value)


_FAIRY_KEYS = ("live", "kill", "twinkle", "weapon", "conditions", "mushrooms", "hand_size", "flutter_penalty")
"""What a scenario may fix of a fairy."""


def _fairy(index: int, raw: Any) -> FairySetup:
    where = f"option 'fairies'[{index}]"
    if raw is None:
        return NO_SETUP
    if not isinstance(raw, Mapping):
        raise BadOptions(f"{where} must be a map ({', '.join(_FAIRY_KEYS)})")
    unknown = sorted(set(raw) - set(_FAIRY_KEYS))
    if unknown:
        raise BadOptions(f"{where}: unknown key {unknown[0]!r}; known: {', '.join(_FAIRY_KEYS)}")

    def number(key: str, high: int) -> int | None:
        value = raw.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
            raise BadOptions(f"{where}: {key!r} must be an integer from 0 to {high}, not {value!r}")
        return value

    live, kill = number("live", 20), number("kill", 20)
    if (live is None) != (kill is None):
        raise BadOptions(f"{where}: give both 'live' and 'kill', or neither")
    if live == 0 and kill == 0:
        raise BadOptions(f"{where}: a fairy with no Live and no Kill points is dead")
    weapon = raw.get("weapon")
    if weapon is not None and weapon not in WEAPONS:
        raise BadOptions(f"{where}: 'weapon' must be one of {', '.join(WEAPONS)}, not {weapon!r}")
    conditions = raw.get("conditions", [])
    if not isinstance(conditions, (list, tuple)) or not all(c in CONDITIONS for c in conditions):
        raise BadOptions(f"{where}: 'conditions' must be a list of {', '.join(CONDITIONS)}")
    for flag in FLAG_CONDITIONS:
        if list(conditions).count(flag) > 1:
            raise BadOptions(f"{where}: {flag!r} is on or off; it cannot be listed twice")
    if "panicked" in conditions and "confused" in conditions:
        raise BadOptions(f"{where}: a fairy cannot be both 'panicked' and 'confused' (each cancels the other)")
    return FairySetup(live, kill, number("twinkle", 10), weapon, tuple(conditions), number("mushrooms", 10),
                      number("hand_size", 20), number("flutter_penalty", 10))


@dataclass(frozen=True, slots=True)
class Options:
    """Room options. ``deck`` (card codes, top first) and ``fairies`` (fixed stats) make a scenario."""

    decks: int = 1
    jokers: int = 2
    trumps: TrumpMix = TrumpMix.NORMAL
    numbered: NumberedMix = NumberedMix.NORMAL
    colours: ColourMix = ColourMix.BALANCED
    spoils: Spoils = Spoils.HEAP
    damage_scale: DamageScale = DamageScale.HALVED
    split_points: bool = False
    nasty_hits: bool = True
    fungus: bool = True
    best_of: int = 1
    answer_seconds: int = 30
    round_limit: int = ROUND_LIMIT
    band: int = 1
    deck: tuple[str, ...] | None = None
    fairies: tuple[FairySetup, ...] | None = None

    @property
    def scenario(self) -> bool:
        return self.deck is not None or self.fairies is not None

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Validate room options, naming the first one that is wrong."""
        if not isinstance(raw, Mapping):
            raise BadOptions("options must be a map")
        unknown = sorted(set(raw) - set(_KNOWN))
        if unknown:
            raise BadOptions(f"unknown option {unknown[0]!r}; known: {', '.join(_KNOWN)}")
        jokers_raw = raw.get("jokers", 2)
        if isinstance(jokers_raw, bool):
            jokers = 2 if jokers_raw else 0
        else:
            jokers = _int(raw, "jokers", 0, 8, 2)
        nasty = _bool(raw, "nasty_hits", True)
        fungus = _bool(raw, "fungus", nasty)
        if fungus and not nasty:
            raise BadOptions("option 'fungus' needs 'nasty_hits' (the source uses them together)")
        best_of = _int(raw, "best_of", 1, 9, 1)
        if best_of % 2 == 0:
            raise BadOptions(f"option 'best_of' must be odd (1, 3, 5, 7 or 9), not {best_of}")
        deck: tuple[str, ...] | None = None
        if "deck" in raw:
            codes = raw["deck"]
            if not isinstance(codes, (list, tuple)):
                raise BadOptions("option 'deck' must be a list of card codes, top first")
            try:
                deck = tuple(cards.validate(c) for c in codes)
            except BadOptions as exc:
                raise BadOptions(f"option 'deck': {exc.message}") from None
            if len(deck) < 2:
                raise BadOptions("option 'deck' must hold at least 2 cards (one Order card each)")
        band = _int(raw, "band", 1, 3, 1)
        fairies: tuple[FairySetup, ...] | None = None
        if "fairies" in raw:
            given = raw["fairies"]
            if not isinstance(given, (list, tuple)) or len(given) not in (2, 2 * band):
                raise BadOptions("option 'fairies' must be a list of two maps, seat 0's then seat 1's"
                                 + (f" (each for every fairy of that band), or of {2 * band} maps, one a fairy: "
                                    "seat 0's fairy A, seat 1's fairy A, seat 0's fairy B, ..." if band > 1 else ""))
            fairies = tuple(_fairy(i, g) for i, g in enumerate(given))
        return cls(
            decks=_int(raw, "decks", 1, 4, 1),
            jokers=jokers,
            trumps=_enum(raw, "trumps", TrumpMix, TrumpMix.NORMAL),
            numbered=_enum(raw, "numbered", NumberedMix, NumberedMix.NORMAL),
            colours=_enum(raw, "colours", ColourMix, ColourMix.BALANCED),
            spoils=_enum(raw, "spoils", Spoils, Spoils.HEAP),
            damage_scale=_enum(raw, "damage_scale", DamageScale, DamageScale.HALVED),
            split_points=_bool(raw, "split_points", False),
            nasty_hits=nasty,
            fungus=fungus,
            best_of=best_of,
            answer_seconds=_int(raw, "answer_seconds", 1, 600, 30),
            round_limit=_int(raw, "round_limit", 1, 500, ROUND_LIMIT),
            band=band,
            deck=deck,
            fairies=fairies,
        )

    def data(self) -> dict[str, Any]:
        """The options as plain data; ``parse(data())`` gives them back."""
        out: dict[str, Any] = {
            "decks": self.decks, "jokers": self.jokers, "trumps": self.trumps.value, "numbered": self.numbered.value,
            "colours": self.colours.value, "spoils": self.spoils.value, "damage_scale": self.damage_scale.value,
            "split_points": self.split_points, "nasty_hits": self.nasty_hits, "fungus": self.fungus,
            "best_of": self.best_of, "answer_seconds": self.answer_seconds, "round_limit": self.round_limit,
            "band": self.band,
        }
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.fairies is not None:
            out["fairies"] = [f.data() for f in self.fairies]
        return out

    def fairy_setup(self, fid: int) -> FairySetup:
        """What a scenario fixes of fairy ``fid`` (seat ``fid % 2``'s fairy ``fid // 2``)."""
        if self.fairies is None:
            return NO_SETUP
        return self.fairies[fid % 2] if len(self.fairies) == 2 else self.fairies[fid]

    def fairy_deck(self) -> list[str]:
        """The whole Fairy Deck these options build, unshuffled (a scenario's deck as given)."""
        if self.deck is not None:
            return list(self.deck)
        out: list[str] = []
        for _ in range(self.decks):
            pack = cards.full_pack()
            if self.trumps is TrumpMix.MORE:
                pack += [c for c in cards.full_pack() if cards.is_trump(c)]
            elif self.trumps is TrumpMix.FEWER:
                pack = [c for c in pack if c[:-1] not in ("J", "Q")]
            if self.numbered is NumberedMix.EXTREME:
                pack = [c for c in pack if cards.rank(c) not in (4, 5, 6)]
                pack += [c for c in cards.full_pack() if cards.rank(c) in (2, 3, 9, 10)]
            elif self.numbered is NumberedMix.MEDIAN:
                pack = [c for c in pack if cards.rank(c) not in (2, 3, 9, 10)]
                pack += [c for c in cards.full_pack() if cards.rank(c) in (4, 5, 6)]
            if self.colours is not ColourMix.BALANCED:
                gone = "C" if self.colours is ColourMix.MORE_RED else "D"
                pack = [c for c in pack if not (cards.is_numbered(c) and c.endswith(gone))]
            out += pack
        out += [f"JK{1 + i % 2}" for i in range(self.jokers)]
        return out


@dataclass(slots=True, init=False)
class Fairy:
    """One fairy. ``rattled`` counts Twinkle points lost to Brains Rattled (an Ace of Diamonds gives one back);
    ``acted`` is true once her turn has begun this round; ``bonus`` is the extra cards won by defending,
    for her own attack this round, and ``bonus_vs`` how many of them count against each foe (by fairy
    index, as a string: the source's bonus "cannot be applied to attacks against any other foes");
    ``order_cards`` the Order cards she drew this round; ``fallen`` is set once her death was told."""

    live: int = 3
    kill: int = 3
    twinkle: int = 1
    weapon: str | None = None
    conditions: list[str] = field(default_factory=list)
    mushrooms: int = 0
    rattled: int = 0
    acted: bool = False
    bonus: int = 0
    order_cards: list[str] = field(default_factory=list)
    bonus_vs: dict[str, int] = field(default_factory=dict)
    fallen: bool = False

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the
    # compiled build (engine/creature_wars/state.py's ``State`` says more).
    def __init__(self, live: int = 3, kill: int = 3, twinkle: int = 1, weapon: str | None = None,
                 conditions: list[str] | None = None, mushrooms: int = 0, rattled: int = 0, acted: bool = False,
                 bonus: int = 0, order_cards: list[str] | None = None, bonus_vs: dict[str, int] | None = None,
                 fallen: bool = False) -> None:
        self.live = live
        self.kill = kill
        self.twinkle = twinkle
        self.weapon = weapon
        self.conditions = [] if conditions is None else conditions
        self.mushrooms = mushrooms
        self.rattled = rattled
        self.acted = acted
        self.bonus = bonus
        self.order_cards = [] if order_cards is None else order_cards
        self.bonus_vs = {} if bonus_vs is None else bonus_vs
        self.fallen = fallen

    @property
    def dead(self) -> bool:
        return self.live <= 0 and self.kill <= 0

    def clone(self) -> Fairy:
        """A copy sharing nothing mutable with this fairy."""
        return Fairy(self.live, self.kill, self.twinkle, self.weapon, list(self.conditions), self.mushrooms, self.rattled,
                     self.acted, self.bonus, list(self.order_cards), dict(self.bonus_vs), self.fallen)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def count(self, condition: str) -> int:
        return self.conditions.count(condition)


@dataclass(slots=True, init=False)
class Side:
    """One fairy's part in a combat: her combat hand and what she has put into the current attack.

    ``trumps`` are the Trumps she selected for this attack (``colour`` their colour, named for
    Jokers); ``face_down`` while they lie unrevealed because the other side said None;
    ``shown`` once they are face up. ``card`` is her Numbered card (``None``: none); ``wild``
    the Wild Trumps played or pulled; ``wild_points`` the colour of points used as Wild
    Trumps; ``points`` the points she may add as Trumps to this attack, ``apply_points``
    whether she does; ``aces`` how many Aces of Spades she has revealed in this attack.
    """

    seat: int
    hand: list[str] = field(default_factory=list)
    direction: str | None = None
    trumps: list[str] = field(default_factory=list)
    colour: str | None = None
    face_down: bool = False
    shown: bool = False
    card: str | None = None
    wild: list[str] = field(default_factory=list)
    wild_points: str | None = None
    points: int = 0
    apply_points: bool = False

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the
    # compiled build (engine/creature_wars/state.py's ``State`` says more).
    def __init__(self, seat: int, hand: list[str] | None = None, direction: str | None = None,
                 trumps: list[str] | None = None, colour: str | None = None, face_down: bool = False,
                 shown: bool = False, card: str | None = None, wild: list[str] | None = None,
                 wild_points: str | None = None, points: int = 0, apply_points: bool = False) -> None:
        self.seat = seat
        self.hand = [] if hand is None else hand
        self.direction = direction
        self.trumps = [] if trumps is None else trumps
        self.colour = colour
        self.face_down = face_down
        self.shown = shown
        self.card = card
        self.wild = [] if wild is None else wild
        self.wild_points = wild_points
        self.points = points
        self.apply_points = apply_points

    def clone(self) -> Side:
        """A copy sharing nothing mutable with this side."""
        return Side(self.seat, list(self.hand), self.direction, list(self.trumps), self.colour, self.face_down, self.shown,
                    self.card, list(self.wild), self.wild_points, self.points, self.apply_points)


@dataclass(slots=True, init=False)
class Combat:
    """A combat in progress: an attack (``attacks`` of them from one hand) or a wrestle.

    ``attacker`` and ``defender`` are seats, ``sides`` is by seat, and ``fighters`` names the fairy
    of each seat in the fight (seat 0's first): in bands one fairy of each band fights."""

    kind: str
    attacker: int
    defender: int
    attacks: int
    number: int = 0
    sides: list[Side] = field(default_factory=list)
    fighters: list[int] = field(default_factory=lambda: [0, 1])

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the
    # compiled build (engine/creature_wars/state.py's ``State`` says more).
    def __init__(self, kind: str, attacker: int, defender: int, attacks: int, number: int = 0,
                 sides: list[Side] | None = None, fighters: list[int] | None = None) -> None:
        self.kind = kind
        self.attacker = attacker
        self.defender = defender
        self.attacks = attacks
        self.number = number
        self.sides = [] if sides is None else sides
        self.fighters = [0, 1] if fighters is None else fighters

    def clone(self) -> Combat:
        """A copy sharing nothing mutable with this combat."""
        return Combat(self.kind, self.attacker, self.defender, self.attacks, self.number,
                      [side.clone() for side in self.sides], list(self.fighters))


@dataclass(slots=True, init=False)
class State:
    """Everything about a match, the deck's order and both hands included; only ``view`` lets any of it out.

    ``deck`` is top first. The Spoils Heap is ``spoils`` (cards that went there face up, oldest
    first) plus ``spoils_down`` (cards that went there face down: unrevealed Trumps and the rest
    of a combat hand); nobody may look through it, so a view shows only its size and
    ``spoils_top``, the top card when it went there face up. ``sealed`` holds each seat's
    locked-in choice in a sealed step; ``last`` is the public record of the last attack; ``wins`` counts duels won.
    """

    options: Options
    version: int
    opened: int
    rng: int
    duel: int
    wins: list[int]
    draws: int
    round: int
    deck: list[str]
    spoils: list[str]
    spoils_down: list[str]
    fairies: list[Fairy]
    order: list[int]
    turn: int | None
    combat: Combat | None
    agenda: list[dict[str, Any]]
    sealed: list[dict[str, Any] | None]
    last: dict[str, Any] | None
    outcome: Outcome | None = None
    spoils_top: str | None = None
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Answers computed from this state (``legal`` for each seat): not part of its value, never stored or copied.
    A state handed out is never changed, so they stay true."""

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the
    # compiled build (engine/creature_wars/state.py's ``State`` says more).
    def __init__(self, options: Options, version: int, opened: int, rng: int, duel: int, wins: list[int], draws: int,
                 round: int, deck: list[str], spoils: list[str], spoils_down: list[str], fairies: list[Fairy],
                 order: list[int], turn: int | None, combat: Combat | None, agenda: list[dict[str, Any]],
                 sealed: list[dict[str, Any] | None], last: dict[str, Any] | None, outcome: Outcome | None = None,
                 spoils_top: str | None = None) -> None:
        self.options = options
        self.version = version
        self.opened = opened
        self.rng = rng
        self.duel = duel
        self.wins = wins
        self.draws = draws
        self.round = round
        self.deck = deck
        self.spoils = spoils
        self.spoils_down = spoils_down
        self.fairies = fairies
        self.order = order
        self.turn = turn
        self.combat = combat
        self.agenda = agenda
        self.sealed = sealed
        self.last = last
        self.outcome = outcome
        self.spoils_top = spoils_top
        self.memo = {}

    def clone(self) -> State:
        """A copy sharing nothing mutable with this state (as ``copy.deepcopy``, field by field: a state holds no
        object twice, and its immutable parts, the options and the outcome, are shared)."""
        return State(
            self.options, self.version, self.opened, self.rng, self.duel, list(self.wins), self.draws, self.round,
            list(self.deck), list(self.spoils), list(self.spoils_down), [f.clone() for f in self.fairies],
            list(self.order), self.turn, None if self.combat is None else self.combat.clone(), _plain(self.agenda),
            _plain(self.sealed), _plain(self.last), self.outcome, self.spoils_top,
        )


_ATOMS = frozenset({str, int, bool, float, type(None)})
"""The types of plain data that are values already: copied by reference."""


def _plain(value: Any) -> Any:
    """A deep copy of plain data (maps, lists and tuples of strings, numbers, booleans and None)."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _plain(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _plain(v) for v in value]
    if kind is tuple:
        return tuple(v if type(v) in _ATOMS else _plain(v) for v in value)
    return value


_FIELDS = tuple(f.name for f in fields(State))
"""The state's fields in order (as its ``__slots__``, which a compiled class does not have)."""


def dump(state: State) -> dict[str, Any]:
    """The state as plain data (for msgpack); :func:`load` is its inverse."""
    out = {name: _plain(getattr(state, name)) for name in _FIELDS if name not in ("options", "outcome", "memo")}
    out["fairies"] = [asdict(f) for f in state.fairies]
    out["combat"] = None if state.combat is None else asdict(state.combat)
    out["options"] = state.options.data()
    out["outcome"] = None if state.outcome is None else state.outcome.data()
    return out


def load(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump`'s plain data."""
    raw = {k: _plain(v) for k, v in data.items()}
    combat = raw["combat"]
    if combat is not None:
        sides = [Side(**s) for s in combat.pop("sides")]
        combat = Combat(**combat, sides=sides)
    o = raw["outcome"]
    return State(
        options=Options.parse(raw["options"]),
        version=raw["version"], opened=raw["opened"], rng=raw["rng"], duel=raw["duel"], wins=list(raw["wins"]),
        draws=raw["draws"], round=raw["round"], deck=list(raw["deck"]), spoils=list(raw["spoils"]),
        spoils_down=list(raw["spoils_down"]), fairies=[Fairy(**f) for f in raw["fairies"]], order=list(raw["order"]),
        turn=raw["turn"], combat=combat, agenda=[dict(t) for t in raw["agenda"]],
        sealed=[None if s is None else dict(s) for s in raw["sealed"]], last=raw["last"],
        outcome=None if o is None else Outcome.from_data(o), spoils_top=raw.get("spoils_top"),
    )
