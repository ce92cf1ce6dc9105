"""The Queen's Challenge game state, its options, and their plain-data form for storage.

Two decks take part and never mix: the *challenge* deck (its cards go only to the
in-play stack and the challenge discard pile) and the *magic* deck (its cards go to
the hand, the power piles, the summoning zone and the magic discard pile).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping

from engine.errors import BadOptions
from engine.interface import Outcome
from engine.playing_cards import PlayingCard, Suit, parse_cards

__all__ = [
    "ACCEPTS", "ENEMY", "HAND_SIZE", "SUITS", "SUIT_NAME", "Challenger", "Options", "Phase", "State", "dump", "load",
]

HAND_SIZE = 5
"""The draw step fills the hand up to this many cards."""

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order of the power piles and the summoning zone in the state and its plain data."""

SUIT_NAME: Mapping[Suit, str] = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
                                 Suit.CLUBS: "clubs"}

ENEMY: Mapping[Suit, Suit] = {Suit.HEARTS: Suit.SPADES, Suit.SPADES: Suit.HEARTS,
                              Suit.DIAMONDS: Suit.CLUBS, Suit.CLUBS: Suit.DIAMONDS}
"""The suit that may attack a challenge card of the key's suit (hearts <-> spades, diamonds <-> clubs)."""


class Phase(enum.StrEnum):
    """Where the turn stands. The draw and flip steps are automatic, so they are no phase of their own."""

    ACTIONS = "actions"
    ORDER = "order"
    SUMMON = "summon"
    OVER = "over"


ACCEPTS: Mapping[Phase, tuple[str, ...]] = {
    Phase.ACTIONS: ("gather", "attack", "gift", "end_turn"),
    Phase.ORDER: ("order", "place"),
    Phase.SUMMON: ("summon", "decline"),
    Phase.OVER: (),
}
"""Which decision kinds each phase takes (the phase table: "not now" errors name the phase)."""


_OPTIONS = ("challenge", "magic", "hand", "piles", "summoned", "in_play")


def _unique(option: str, cards: tuple[PlayingCard, ...]) -> None:
    seen: set[PlayingCard] = set()
    for card in cards:
        if card in seen:
            raise BadOptions(f"option {option!r}: {card.code} appears twice; a deck holds each card once"
                             + (" (the hand, piles and summoning zone come from the magic deck)" if option == "magic"
                                else ""))
        seen.add(card)


def _suit_key(option: str, key: object) -> Suit:
    if not isinstance(key, str) or key.upper() not in {s.value for s in SUITS}:
        raise BadOptions(f"option {option!r}: keys must be suit letters S, H, D or C, not {key!r}")
    return Suit(key.upper())


@dataclass(frozen=True, slots=True)
class Options:
    """Room options; every one of them makes a scenario (cards are codes like ``AS``, ``10D``, ``QH``).

    ``challenge`` and ``magic`` are decks, top first, used as given (not shuffled, possibly
    shorter than 52); a deck not given is a shuffled full deck (the magic deck without the
    cards the other options put on the table). ``hand`` is the whole first hand: turn 1
    draws nothing more. ``piles`` (suit letter -> cards, bottom first, each higher than the
    one below) and ``summoned`` (suit letter -> card) start the table with power.
    ``in_play`` (challenge cards, bottom first) starts turn 1 with cards already flipped.
    """

    challenge: tuple[str, ...] | None = None
    magic: tuple[str, ...] | None = None
    hand: tuple[str, ...] | None = None
    piles: tuple[tuple[str, ...], ...] | None = None
    summoned: tuple[str | None, ...] | None = None
    in_play: tuple[str, ...] | None = None

    @property
    def scenario(self) -> bool:
        return any(getattr(self, name) is not None for name in _OPTIONS)

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Validate room options, naming the first field that is wrong; card codes come back canonical."""
        if not isinstance(raw, Mapping):
            raise BadOptions("options must be a map")
        known = set(_OPTIONS)
        unknown = sorted(set(raw) - known)
        if unknown:
            raise BadOptions(f"unknown option {unknown[0]!r}; known: {', '.join(sorted(known))}")
        parsed: dict[str, tuple[PlayingCard, ...] | None] = {}
        for name in ("challenge", "magic", "hand", "in_play"):
            value = raw.get(name)
            parsed[name] = None if value is None else parse_cards(name, value)
        challenge, magic, hand, in_play = parsed["challenge"], parsed["magic"], parsed["hand"], parsed["in_play"]
        if challenge is not None:
            if not challenge and not in_play:
                raise BadOptions("option 'challenge' must hold at least one card (or 'in_play' one)")
        # the cards in play come from the challenge deck
        _unique("challenge", (*(challenge or ()), *(in_play or ())))
        if hand is not None and len(hand) > HAND_SIZE:
            raise BadOptions(f"option 'hand' holds {len(hand)} cards; a hand holds at most {HAND_SIZE}")

        piles: list[tuple[PlayingCard, ...]] | None = None
        if raw.get("piles") is not None:
            if not isinstance(raw["piles"], Mapping):
                raise BadOptions("option 'piles' must map suit letters to lists of cards, bottom first")
            piles = [(), (), (), ()]
            for key, listed in raw["piles"].items():
                suit = _suit_key("piles", key)
                cards = parse_cards(f"piles.{suit.value}", listed)
                for below, card in zip((None, *cards), cards, strict=False):
                    if card.suit is not suit:
                        raise BadOptions(f"option 'piles': {card.code} is not a {SUIT_NAME[suit]} card")
                    if below is not None and card.rank <= below.rank:
                        raise BadOptions(f"option 'piles': {card.code} must be higher than {below.code} below it")
                piles[SUITS.index(suit)] = cards
        summoned: list[PlayingCard | None] | None = None
        if raw.get("summoned") is not None:
            if not isinstance(raw["summoned"], Mapping):
                raise BadOptions("option 'summoned' must map suit letters to one card each")
            summoned = [None, None, None, None]
            for key, code in raw["summoned"].items():
                suit = _suit_key("summoned", key)
                if code is None:
                    continue
                if not isinstance(code, str):
                    raise BadOptions(f"option 'summoned': {suit.value} must name one card like '5S', not {code!r}")
                (card,) = parse_cards("summoned", [code])
                if card.suit is not suit:
                    raise BadOptions(f"option 'summoned': {card.code} cannot sit in the {SUIT_NAME[suit]} zone")
                summoned[SUITS.index(suit)] = card
        # the hand, the piles, the summoning zone and the magic deck all come from the one magic deck
        magic_cards = [*(magic or ()), *(hand or ()), *(c for p in piles or () for c in p),
                       *(c for c in summoned or () if c is not None)]
        _unique("magic", tuple(magic_cards))

        def codes(cards: tuple[PlayingCard, ...] | None) -> tuple[str, ...] | None:
            return None if cards is None else tuple(c.code for c in cards)

        return cls(
            challenge=codes(challenge), magic=codes(magic), hand=codes(hand),
            piles=None if piles is None else tuple(tuple(c.code for c in p) for p in piles),
            summoned=None if summoned is None else tuple(None if c is None else c.code for c in summoned),
            in_play=codes(in_play),
        )

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in ("challenge", "magic", "hand", "in_play"):
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value)
        if self.piles is not None:
            out["piles"] = {s.value: list(p) for s, p in zip(SUITS, self.piles, strict=True)}
        if self.summoned is not None:
            out["summoned"] = {s.value: c for s, c in zip(SUITS, self.summoned, strict=True) if c is not None}
        return out


@dataclass(frozen=True, slots=True)
class Challenger:
    """A challenge card in the in-play stack, with what the gift of spades took off its value."""

    card: PlayingCard
    lowered: int = 0

    @property
    def value(self) -> int:
        """The value to match or beat: its rank (A 1 ... K 13) less any spades gifts, never below 0."""
        return max(0, self.card.rank - self.lowered)


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game, hidden parts included; only ``view`` lets any of it out.

    Deck-like tuples are top first; the in-play stack and the piles are bottom first (the
    last entry is the card on top). ``piles`` and ``summoned`` follow :data:`SUITS`.
    """

    options: Options
    version: int
    phase: Phase
    turn: int
    rng: int
    hand: tuple[PlayingCard, ...]
    challenge: tuple[PlayingCard, ...]
    in_play: tuple[Challenger, ...]
    challenge_discard: tuple[PlayingCard, ...]
    magic: tuple[PlayingCard, ...]
    magic_discard: tuple[PlayingCard, ...]
    piles: tuple[tuple[PlayingCard, ...], ...]
    summoned: tuple[PlayingCard | None, ...]
    gift_used: Suit | None = None
    reveal: int = 0
    """How many top magic cards the diamonds gift has revealed and the player must now put back in order."""
    known: int = 0
    """How many top magic cards the player knows (from the diamonds gift), in their order."""
    placed: int = 0
    """How many of the revealed cards the player has already put in their place, from the top."""
    summoning: PlayingCard | None = None
    """The card the clubs gift revealed, low enough to summon: the player may summon it or decline."""
    outcome: Outcome | None = None

    def pile(self, suit: Suit) -> tuple[PlayingCard, ...]:
        return self.piles[SUITS.index(suit)]

    def power(self, suit: Suit) -> int:
        """A power pile's power: the number of cards in it."""
        return len(self.pile(suit))

    def summon(self, suit: Suit) -> PlayingCard | None:
        return self.summoned[SUITS.index(suit)]

    @property
    def target(self) -> Challenger | None:
        """The card in play: the top of the in-play stack."""
        return self.in_play[-1] if self.in_play else None

    @property
    def score(self) -> int:
        """The source's high score: cards in the challenge deck's discard pile."""
        return len(self.challenge_discard)


def _codes(cards: tuple[PlayingCard, ...]) -> list[str]:
    return [c.code for c in cards]


def _cards(codes: list[str]) -> tuple[PlayingCard, ...]:
    return tuple(PlayingCard.parse(c) for c in codes)


def dump(state: State) -> dict[str, Any]:
    """The state as plain data (for msgpack); :func:`load` is its inverse."""
    outcome = state.outcome
    return {
        "options": state.options.data(),
        "version": state.version,
        "phase": state.phase.value,
        "turn": state.turn,
        "rng": state.rng,
        "hand": _codes(state.hand),
        "challenge": _codes(state.challenge),
        "in_play": [[c.card.code, c.lowered] for c in state.in_play],
        "challenge_discard": _codes(state.challenge_discard),
        "magic": _codes(state.magic),
        "magic_discard": _codes(state.magic_discard),
        "piles": [_codes(p) for p in state.piles],
        "summoned": [None if c is None else c.code for c in state.summoned],
        "gift_used": None if state.gift_used is None else state.gift_used.value,
        "reveal": state.reveal,
        "known": state.known,
        "placed": state.placed,
        "summoning": None if state.summoning is None else state.summoning.code,
        "outcome": None if outcome is None else outcome.data(),
    }


def load(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump`'s plain data."""
    outcome = data["outcome"]
    gift = data["gift_used"]
    return State(
        options=Options.parse(data["options"]),
        version=data["version"],
        phase=Phase(data["phase"]),
        turn=data["turn"],
        rng=data["rng"],
        hand=_cards(data["hand"]),
        challenge=_cards(data["challenge"]),
        in_play=tuple(Challenger(PlayingCard.parse(code), lowered) for code, lowered in data["in_play"]),
        challenge_discard=_cards(data["challenge_discard"]),
        magic=_cards(data["magic"]),
        magic_discard=_cards(data["magic_discard"]),
        piles=tuple(_cards(p) for p in data["piles"]),
        summoned=tuple(None if c is None else PlayingCard.parse(c) for c in data["summoned"]),
        gift_used=None if gift is None else Suit(gift),
        reveal=data["reveal"],
        known=data["known"],
        placed=data.get("placed", 0),
        summoning=None if data.get("summoning") is None else PlayingCard.parse(data["summoning"]),
        outcome=None if outcome is None else Outcome.from_data(outcome),
    )
