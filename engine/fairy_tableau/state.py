"""The Fairy Tableau game state, its options, and their plain-data form for storage."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping

from engine.errors import BadOptions
from engine.fairy_tableau.cards import FAIRY_ORDER
from engine.interface import Outcome
from engine.playing_cards import PlayingCard, Suit, parse_cards

__all__ = ["START_MANA", "TABLEAU_SIZE", "Fizzle", "Options", "State", "dump", "load", "score"]

TABLEAU_SIZE = 7
START_MANA = 7
_KNOWN = ("deck", "fairies", "fairy_cards", "fizzle", "ranked_enemies")


class Fizzle(enum.StrEnum):
    """What a fizzled spell costs: its value (the source's turn rules, the default) or nothing."""

    PAY = "pay"
    FREE = "free"


def _fairy_key(code: str) -> int:
    return FAIRY_ORDER.index(code)


@dataclass(frozen=True, slots=True)
class Options:
    """Room options; ``deck`` (card codes, top first) makes a scenario and fixes the fairies to its Hearts."""

    fairy_cards: tuple[str, ...] = ("KH",)
    fizzle: Fizzle = Fizzle.PAY
    ranked_enemies: bool = False
    deck: tuple[str, ...] | None = None

    @property
    def scenario(self) -> bool:
        return self.deck is not None

    @property
    def fairies(self) -> int:
        return len(self.fairy_cards)

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Options:
        """Validate room options, naming the first one that is wrong."""
        if not isinstance(raw, Mapping):
            raise BadOptions("options must be a map")
        unknown = sorted(set(raw) - set(_KNOWN))
        if unknown:
            raise BadOptions(f"unknown option {unknown[0]!r}; known: {', '.join(_KNOWN)}")
        fizzle = raw.get("fizzle", Fizzle.PAY.value)
        if fizzle not in (Fizzle.PAY.value, Fizzle.FREE.value):
            raise BadOptions(f"option 'fizzle' must be 'pay' or 'free', not {fizzle!r}")
        ranked = raw.get("ranked_enemies", False)
        if not isinstance(ranked, bool):
            raise BadOptions(f"option 'ranked_enemies' must be true or false, not {ranked!r}")
        count = raw.get("fairies")
        if count is not None and (not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 3):
            raise BadOptions(f"option 'fairies' must be an integer from 0 to 3, not {count!r}")
        chosen: tuple[str, ...] | None = None
        if "fairy_cards" in raw:
            cards = parse_cards("fairy_cards", raw["fairy_cards"])
            codes = [c.code for c in cards]
            if any(code not in FAIRY_ORDER for code in codes):
                bad = next(code for code in codes if code not in FAIRY_ORDER)
                raise BadOptions(f"option 'fairy_cards': {bad} is not a fairy; the fairies are KH, QH and JH")
            if len(set(codes)) != len(codes):
                raise BadOptions("option 'fairy_cards' names a fairy twice")
            chosen = tuple(sorted(codes, key=_fairy_key))
            if count is not None and count != len(chosen):
                raise BadOptions(f"option 'fairies' is {count} but 'fairy_cards' names {len(chosen)}")
        deck: tuple[str, ...] | None = None
        if "deck" in raw:
            cards = parse_cards("deck", raw["deck"])
            deck = tuple(c.code for c in cards)
            _check_deck(cards)
            hearts = tuple(sorted((c.code for c in cards if c.suit is Suit.HEARTS), key=_fairy_key))
            if chosen is not None and chosen != hearts:
                raise BadOptions(f"option 'fairy_cards' {list(chosen)} does not match the Hearts in 'deck' {list(hearts)}")
            if count is not None and count != len(hearts):
                raise BadOptions(f"option 'fairies' is {count} but 'deck' holds {len(hearts)} fairy Hearts")
            chosen = hearts
        if chosen is None:
            chosen = FAIRY_ORDER[: 1 if count is None else count]
        return cls(fairy_cards=chosen, fizzle=Fizzle(fizzle), ranked_enemies=ranked, deck=deck)

    def data(self) -> dict[str, Any]:
        """The options as plain data; ``parse(data())`` gives them back."""
        out: dict[str, Any] = {
            "fairy_cards": list(self.fairy_cards),
            "fizzle": self.fizzle.value,
            "ranked_enemies": self.ranked_enemies,
        }
        if self.deck is not None:
            out["deck"] = list(self.deck)
        return out


def _check_deck(cards: tuple[PlayingCard, ...]) -> None:
    """A scenario deck: distinct Spades, Diamonds, Clubs and fairy Hearts, at least one Club."""
    seen: set[PlayingCard] = set()
    for card in cards:
        if card in seen:
            raise BadOptions(f"option 'deck' holds {card.code} twice")
        seen.add(card)
        if card.suit is Suit.HEARTS and card.code not in FAIRY_ORDER:
            raise BadOptions(f"option 'deck': {card.code} is not in Fairy Tableau; the only Hearts are KH, QH and JH")
    if not any(card.suit is Suit.CLUBS for card in cards):
        raise BadOptions("option 'deck' must hold at least one Club (an enemy to defeat)")


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game, the draw pile's order included; only ``view`` lets any of it out.

    ``tableau`` has seven slots (``None``: empty once the draw pile has run out); ``draw`` is
    top first; ``discard`` oldest first; ``enemies`` is the number of Clubs in the deck.
    """

    options: Options
    version: int
    tableau: tuple[PlayingCard | None, ...]
    draw: tuple[PlayingCard, ...]
    discard: tuple[PlayingCard, ...]
    mana: int
    defeated: int
    enemies: int
    rng: int
    outcome: Outcome | None = None

    @property
    def score(self) -> int:
        """Enemies defeated, then mana left, as one number: ``defeated * 1000 + mana``."""
        return score(self.defeated, self.mana)


def score(defeated: int, mana: int) -> int:
    """Mana never reaches 1000 (7 + every Spade = 92), so this orders by defeated, then mana."""
    return defeated * 1000 + mana


def _card(code: str) -> PlayingCard:
    return PlayingCard.parse(code)


def dump(state: State) -> dict[str, Any]:
    """The state as plain data (for msgpack); :func:`load` is its inverse."""
    outcome = state.outcome
    return {
        "options": state.options.data(),
        "version": state.version,
        "tableau": [None if c is None else c.code for c in state.tableau],
        "draw": [c.code for c in state.draw],
        "discard": [c.code for c in state.discard],
        "mana": state.mana,
        "defeated": state.defeated,
        "enemies": state.enemies,
        "rng": state.rng,
        "outcome": None if outcome is None else outcome.data(),
    }


def load(data: Mapping[str, Any]) -> State:
    """Rebuild a state from :func:`dump`'s plain data."""
    outcome = data["outcome"]
    return State(
        options=Options.parse(data["options"]),
        version=data["version"],
        tableau=tuple(None if c is None else _card(c) for c in data["tableau"]),
        draw=tuple(_card(c) for c in data["draw"]),
        discard=tuple(_card(c) for c in data["discard"]),
        mana=data["mana"],
        defeated=data["defeated"],
        enemies=data["enemies"],
        rng=data["rng"],
        outcome=None if outcome is None else Outcome.from_data(outcome),
    )
