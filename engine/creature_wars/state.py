"""The Creature Wars game state, its options, and their plain-data form for storage."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any, Final, Mapping, Sequence

from engine.creature_wars.cards import Card, CardKind, PowerType, Tribe
from engine.creature_wars.witch_catalogue import by_name
from engine.errors import BadOptions
from engine.interface import Outcome

__all__ = ["PASS", "PUBLIC", "SEALED_FROM", "Duel", "Modifier", "Options", "Pending", "Phase", "State", "dump", "load",
           "parse_card", "sealed_by"]

PASS: Final = -1
"""The sealed choice of a seat with no playable card."""
PUBLIC: Final = "public view"
"""The key of a state's ``memo`` under which the views keep what every view of the state shows alike."""
SEALED_FROM: Final = "public view before the seal"
"""The key of a state's ``memo`` under which a state made by :func:`sealed_by` keeps the :data:`PUBLIC` part of the
state it was sealed from, if that was made: the views make its own from it (only the version and the seals differ)."""


class Phase(enum.StrEnum):
    DUEL = "duel"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Options:
    """Room options. ``deck`` and ``hands`` (cards in notation, top first) make a scenario."""

    hp: int = 30
    hand_size: int = 5
    witches: int = 10
    first_drawer: int | None = None
    deck: tuple[str, ...] | None = None
    hands: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    answer_seconds: int = 30

    @property
    def scenario(self) -> bool:
        return self.deck is not None or self.hands is not None

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Validate room options, naming the first field that is wrong. No options (most rooms) are the defaults, made
        once: a room's options are parsed at its making, its deal and each look at its scenario."""
        if not raw:
            return _DEFAULTS
        unknown = sorted(set(raw) - _KNOWN)
        if unknown:
            raise BadOptions(f"unknown option {unknown[0]!r}; known: {', '.join(sorted(_KNOWN))}")
        first = raw.get("first_drawer")
        if first is not None and (not isinstance(first, int) or isinstance(first, bool) or first not in (0, 1)):
            raise BadOptions("option 'first_drawer' must be 0 or 1")
        deck = raw.get("deck")
        if deck is not None and (not isinstance(deck, (list, tuple)) or not all(isinstance(c, str) for c in deck)):
            raise BadOptions("option 'deck' must be a list of cards in notation, top first")
        hands = raw.get("hands")
        if hands is not None and (
            not isinstance(hands, (list, tuple))
            or len(hands) != 2
            or not all(isinstance(h, (list, tuple)) and all(isinstance(c, str) for c in h) for h in hands)
        ):
            raise BadOptions("option 'hands' must be two lists of cards in notation")
        return cls(
            hp=_number(raw, "hp", 1, 999, 30),
            hand_size=_number(raw, "hand_size", 0, 20, 5),
            witches=_number(raw, "witches", 0, 40, 10),
            first_drawer=first,
            deck=tuple(deck) if deck is not None else None,
            hands=(tuple(hands[0]), tuple(hands[1])) if hands is not None else None,
            answer_seconds=_number(raw, "answer_seconds", 1, 600, 30),
        )

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hp": self.hp, "hand_size": self.hand_size, "witches": self.witches,
                               "answer_seconds": self.answer_seconds}
        if self.first_drawer is not None:
            out["first_drawer"] = self.first_drawer
        if self.deck is not None:
            out["deck"] = list(self.deck)
        if self.hands is not None:
            out["hands"] = [list(h) for h in self.hands]
        return out


_KNOWN: Final = frozenset({"hp", "hand_size", "witches", "first_drawer", "deck", "hands", "answer_seconds"})
_DEFAULTS: Final = Options()
"""The options of a room made with none (a value: shared by every such room)."""


def _number(raw: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    """Option ``name``, an integer from ``low`` to ``high`` (``default`` when not given)."""
    value = raw.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadOptions(f"option {name!r} must be an integer from {low} to {high}")
    return value


_CARD = re.compile(r"^Lvl\.(\d+) (.+?)(?: \{(\d+)\})?$")


def parse_card(text: str, uid: int) -> Card:
    """A card from its notation (``Lvl.3 Fire Giant``, ``Lvl.2 Blind Witch``); for scenarios."""
    match = _CARD.match(text.strip())
    if not match:
        raise BadOptions(f"card {text!r} is not in the notation 'Lvl.X <Type> <Tribe>' or 'Lvl.X <Witch>'")
    level, middle, base = int(match.group(1)), match.group(2).replace("!", ""), match.group(3)
    words = middle.split(" ")
    tribe = next((t for t in Tribe if t.value == words[-1]), None)
    if tribe is not None and len(words) <= 2:
        ptype = None
        if len(words) == 2:
            ptype = next((p for p in PowerType if p.value == words[0]), None)
            if ptype is None:
                raise BadOptions(f"card {text!r}: unknown power type {words[0]!r}")
        card = Card.creature(uid, tribe, level, ptype)
        return card if base is None else Card(uid, CardKind.CREATURE, level, int(base), tribe=tribe, ptype=ptype)
    try:
        spec = by_name(middle)
    except KeyError:
        raise BadOptions(f"card {text!r}: no tribe or witch named {middle!r}") from None
    return Card.new_witch(uid, spec.name, level)


@dataclass(init=False, unsafe_hash=True, slots=True)
class Duel:
    """The public record of the last duel: what each seat played (``None``: passed) and the result. A value: never
    changed once made (not frozen, for speed: see ``State.__init__``)."""

    turn: int
    cards: tuple[Card | None, Card | None]
    powers: tuple[int | None, int | None]
    winner: int | None
    damage: tuple[int, int]
    summary: str

    def __init__(self, turn: int, cards: tuple[Card | None, Card | None], powers: tuple[int | None, int | None],
                 winner: int | None, damage: tuple[int, int], summary: str) -> None:
        self.turn = turn
        self.cards = cards
        self.powers = powers
        self.winner = winner
        self.damage = damage
        self.summary = summary


@dataclass(frozen=True, slots=True)
class Modifier:
    """A lasting or one-shot effect in play: handled by the rule registered under ``key``.

    ``until`` is the last turn it lasts (0: the rest of the game); ``text`` is what the
    client shows; a ``hidden`` modifier is shown to its owner only.
    """

    key: str
    owner: int
    value: int = 0
    until: int = 0
    data: str = ""
    text: str = ""
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class Pending:
    """A question an effect put to a player: pick one of ``options`` (by index) within ``timeout`` seconds.

    On time-out the first option is taken. ``memo`` is the asking effect's own note
    (e.g. the uids it offered), never shown to anyone.
    """

    seat: int
    key: str
    prompt: str
    options: tuple[str, ...]
    memo: tuple[int, ...] = ()
    timeout: int = 30
    caster: Card | None = None


@dataclass(init=False, unsafe_hash=True, slots=True)
class State:
    """Everything about a match, hidden parts included; only ``view`` lets any of it out. A value: never changed
    once made (not frozen, for speed: see ``__init__``)."""

    options: Options
    version: int
    opened: int
    phase: Phase
    turn: int
    first_drawer: int
    hp: tuple[int, int]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deck: tuple[Card, ...]
    discard: tuple[Card, ...]
    sealed: tuple[int | None, int | None]
    rng: int
    next_uid: int
    last_draw_turn: int | None = None
    witch_rallied: tuple[bool, bool] = (False, False)
    last_duel: Duel | None = None
    outcome: Outcome | None = field(default=None)
    modifiers: tuple[Modifier, ...] = ()
    counters: tuple[tuple[str, int], ...] = ()
    slain: tuple[Card, ...] = ()
    removed: tuple[Card, ...] = ()
    pending: Pending | None = None
    in_play: tuple[Card | None, Card | None] | None = None
    cast: tuple[bool, bool] = (False, False)
    sacks: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Answers computed from this state (``legal`` for each seat): not part of its value, never stored."""

    # A written ``__init__`` (the dataclass makes the rest): dataclasses' own is interpreted code even in the compiled
    # build, and a frozen one sets each field through ``object.__setattr__``: a fifth of a decision's engine time.
    # Nothing changes a value after it is made.
    def __init__(self, options: Options, version: int, opened: int, phase: Phase, turn: int, first_drawer: int,
                 hp: tuple[int, int], hands: tuple[tuple[Card, ...], tuple[Card, ...]], deck: tuple[Card, ...],
                 discard: tuple[Card, ...], sealed: tuple[int | None, int | None], rng: int, next_uid: int,
                 last_draw_turn: int | None = None, witch_rallied: tuple[bool, bool] = (False, False),
                 last_duel: Duel | None = None, outcome: Outcome | None = None, modifiers: tuple[Modifier, ...] = (),
                 counters: tuple[tuple[str, int], ...] = (), slain: tuple[Card, ...] = (),
                 removed: tuple[Card, ...] = (), pending: Pending | None = None,
                 in_play: tuple[Card | None, Card | None] | None = None, cast: tuple[bool, bool] = (False, False),
                 sacks: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())) -> None:
        self.options = options
        self.version = version
        self.opened = opened
        self.phase = phase
        self.turn = turn
        self.first_drawer = first_drawer
        self.hp = hp
        self.hands = hands
        self.deck = deck
        self.discard = discard
        self.sealed = sealed
        self.rng = rng
        self.next_uid = next_uid
        self.last_draw_turn = last_draw_turn
        self.witch_rallied = witch_rallied
        self.last_duel = last_duel
        self.outcome = outcome
        self.modifiers = modifiers
        self.counters = counters
        self.slain = slain
        self.removed = removed
        self.pending = pending
        self.in_play = in_play
        self.cast = cast
        self.sacks = sacks
        self.memo = {}


def sealed_by(state: State, version: int, sealed: tuple[int | None, int | None]) -> State:
    """``state`` with one more seal (the first of a duel) and its new version; nothing else changes."""
    return State(
        state.options, version, state.opened, state.phase, state.turn, state.first_drawer, state.hp, state.hands,
        state.deck, state.discard, sealed, state.rng, state.next_uid, state.last_draw_turn, state.witch_rallied,
        state.last_duel, state.outcome, state.modifiers, state.counters, state.slain, state.removed, state.pending,
        state.in_play, state.cast, state.sacks,
    )


def _card_data(card: Card) -> list[Any]:
    """The card as a dump writes it, made once a card (cards are values: the list is shared by every dump that
    writes the card, and packed, never changed)."""
    found = card.stored
    if found is not None:
        return found
    # ``_value_``: the enums' values read as attributes (``.value`` is a property, a tenth of a dump's time)
    tribe, ptype = card.tribe, card.ptype
    found = card.stored = [
        card.uid, card.kind._value_, card.level, card.base,
        tribe._value_ if tribe else None, ptype._value_ if ptype else None, card.witch,
        card.tribe_rally, card.type_rally, card.witch_rally, card.ready_turn, card.banned,
        card.token, [list(t) for t in card.tags],
    ]
    return found


def _card(data: Sequence[Any]) -> Card:
    uid, kind, level, base, tribe, ptype, witch, tr, ty, wr, ready, banned, token, tags = data
    return Card(
        uid, CardKind(kind), level, base, Tribe(tribe) if tribe else None, PowerType(ptype) if ptype else None,
        witch, tr, ty, wr, ready, banned, token, tuple((k, v) for k, v in tags),
    )


def _cards(data: Sequence[Any]) -> tuple[Card, ...]:
    return tuple(_card(c) for c in data)


def _maybe_card(data: Sequence[Any] | None) -> Card | None:
    return None if data is None else _card(data)


def dump(state: State) -> dict[str, Any]:
    """The state as plain data (for msgpack); :func:`load` is its inverse."""
    duel = state.last_duel
    outcome = state.outcome
    return {
        "options": state.options.data(),
        "version": state.version,
        "opened": state.opened,
        "phase": state.phase.value,
        "turn": state.turn,
        "first_drawer": state.first_drawer,
        "hp": list(state.hp),
        "hands": [[_card_data(c) for c in hand] for hand in state.hands],
        "deck": [_card_data(c) for c in state.deck],
        "discard": [_card_data(c) for c in state.discard],
        "sealed": list(state.sealed),
        "rng": state.rng,
        "next_uid": state.next_uid,
        "last_draw_turn": state.last_draw_turn,
        "witch_rallied": list(state.witch_rallied),
        "last_duel": None if duel is None else {
            "turn": duel.turn,
            "cards": [None if c is None else _card_data(c) for c in duel.cards],
            "powers": list(duel.powers),
            "winner": duel.winner,
            "damage": list(duel.damage),
            "summary": duel.summary,
        },
        "outcome": None if outcome is None else outcome.data(),
        "modifiers": [[m.key, m.owner, m.value, m.until, m.data, m.text, m.hidden] for m in state.modifiers],
        "counters": [list(c) for c in state.counters],
        "slain": [_card_data(c) for c in state.slain],
        "removed": [_card_data(c) for c in state.removed],
        "pending": None if state.pending is None else [
            state.pending.seat, state.pending.key, state.pending.prompt, list(state.pending.options),
            list(state.pending.memo), state.pending.timeout,
            None if state.pending.caster is None else _card_data(state.pending.caster),
        ],
        "in_play": None if state.in_play is None else [None if c is None else _card_data(c) for c in state.in_play],
        "cast": list(state.cast),
        "sacks": [[_card_data(c) for c in sack] for sack in state.sacks],
    }


def load(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump`'s plain data."""
    duel = data["last_duel"]
    outcome = data["outcome"]
    hands = data["hands"]
    sealed = data["sealed"]
    return State(
        options=Options.parse(data["options"]),
        version=data["version"],
        opened=data["opened"],
        phase=Phase(data["phase"]),
        turn=data["turn"],
        first_drawer=data["first_drawer"],
        hp=(data["hp"][0], data["hp"][1]),
        hands=(tuple(_card(c) for c in hands[0]), tuple(_card(c) for c in hands[1])),
        deck=tuple(_card(c) for c in data["deck"]),
        discard=tuple(_card(c) for c in data["discard"]),
        sealed=(sealed[0], sealed[1]),
        rng=data["rng"],
        next_uid=data["next_uid"],
        last_draw_turn=data["last_draw_turn"],
        witch_rallied=(bool(data["witch_rallied"][0]), bool(data["witch_rallied"][1])),
        last_duel=None if duel is None else Duel(
            turn=duel["turn"],
            cards=(_maybe_card(duel["cards"][0]), _maybe_card(duel["cards"][1])),
            powers=(duel["powers"][0], duel["powers"][1]),
            winner=duel["winner"],
            damage=(duel["damage"][0], duel["damage"][1]),
            summary=duel["summary"],
        ),
        outcome=None if outcome is None else Outcome.from_data(outcome),
        modifiers=tuple(Modifier(k, o, v, u, d, t, bool(h)) for k, o, v, u, d, t, h in data["modifiers"]),
        counters=tuple((k, v) for k, v in data["counters"]),
        slain=_cards(data["slain"]),
        removed=_cards(data["removed"]),
        pending=None if data["pending"] is None else Pending(
            data["pending"][0], data["pending"][1], data["pending"][2], tuple(data["pending"][3]),
            tuple(data["pending"][4]), data["pending"][5], _maybe_card(data["pending"][6]),
        ),
        in_play=None if data["in_play"] is None else (_maybe_card(data["in_play"][0]), _maybe_card(data["in_play"][1])),
        cast=(bool(data["cast"][0]), bool(data["cast"][1])),
        sacks=(_cards(data["sacks"][0]), _cards(data["sacks"][1])),
    )
