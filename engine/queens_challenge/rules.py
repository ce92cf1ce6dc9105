"""Queen's Challenge rules: set-up, the draw step, the four actions, the flip, winning and losing.

Rules run on a private mutable draft built from the frozen state and frozen again at
the end, so every public function stays pure while the rule code reads plainly.
See ``docs/rules/queens-challenge.md`` for every ruling in words.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.interface import Decision, Event, Outcome, OutcomeReason, Seat
from engine.playing_cards import PlayingCard, Suit, full_deck
from engine.queens_challenge.state import (
    ACCEPTS,
    ENEMY,
    HAND_SIZE,
    SUIT_NAME,
    SUITS,
    Challenger,
    Options,
    Phase,
    State,
)
from engine.rng import Rng

__all__ = ["ORDER_LIST_LIMIT", "apply", "blocked", "legal", "setup", "strength"]

ORDER_LIST_LIMIT = 3
"""Up to this many cards left to order, ``legal`` lists every order of them (3! = 6); beyond, one ``place`` per
card (which goes next from the top) and the order as it stands: every order is a few legal picks away."""

_FIELDS: Mapping[str, frozenset[str]] = {
    "gather": frozenset({"card"}),
    "attack": frozenset({"spells", "with_pile"}),
    "gift": frozenset({"suit"}),
    "order": frozenset({"cards"}),
    "place": frozenset({"card"}),
    "summon": frozenset(),
    "decline": frozenset(),
    "end_turn": frozenset(),
}
_EXTRA = frozenset({"kind", "label", "loses"})
"""Keys every decision may carry: ``label`` and ``loses`` come with ``legal``'s decisions and are ignored."""


def faces(cards: Sequence[PlayingCard]) -> str:
    return ", ".join(c.face for c in cards) if cards else "nothing"


def strength(state: State, suit: Suit) -> int:
    """What an attack of ``suit``'s pile brings: its power plus the value of the summoned card of that suit."""
    summoned = state.summon(suit)
    return state.power(suit) + (summoned.rank if summoned is not None else 0)


class _Draft:
    """A mutable working copy of a :class:`State` for one ``apply``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.phase = state.phase
        self.turn = state.turn
        self.hand = list(state.hand)
        self.challenge = list(state.challenge)
        self.in_play = list(state.in_play)
        self.challenge_discard = list(state.challenge_discard)
        self.magic = list(state.magic)
        self.magic_discard = list(state.magic_discard)
        self.piles = [list(p) for p in state.piles]
        self.summoned = list(state.summoned)
        self.gift_used = state.gift_used
        self.reveal = state.reveal
        self.known = state.known
        self.placed = state.placed
        self.summoning = state.summoning
        self.outcome = state.outcome
        self.events: list[Event] = []

    def freeze(self, version: int) -> State:
        return replace(
            self.state,
            version=version,
            phase=Phase.OVER if self.outcome is not None else self.phase,
            turn=self.turn,
            hand=tuple(self.hand),
            challenge=tuple(self.challenge),
            in_play=tuple(self.in_play),
            challenge_discard=tuple(self.challenge_discard),
            magic=tuple(self.magic),
            magic_discard=tuple(self.magic_discard),
            piles=tuple(tuple(p) for p in self.piles),
            summoned=tuple(self.summoned),
            gift_used=self.gift_used,
            reveal=self.reveal,
            known=self.known,
            placed=self.placed,
            summoning=self.summoning,
            outcome=self.outcome,
        )

    # -- helpers ---------------------------------------------------------------

    def emit(self, kind: str, text: str, secret: Mapping[str, Any] | None = None, private: bool = False,
             **public: Any) -> None:
        """An event; ``secret`` is told to the player (seat 0) alone."""
        self.events.append(Event(kind, {"text": text, **public}, {0: dict(secret)} if secret else {}, private))

    def power(self, suit: Suit) -> int:
        return len(self.piles[SUITS.index(suit)])

    def score(self) -> int:
        return len(self.challenge_discard)

    def finish(self, won: bool) -> None:
        score = self.score()
        if won:
            detail = f"Won: every challenge card is discarded; score {score}."
        else:
            detail = f"Lost: the flip needed a card from the bottom of the empty magic deck; score {score}."
        self.outcome = Outcome(0 if won else None, OutcomeReason.WON if won else OutcomeReason.LOST, (score,), detail)
        self.emit("over", detail, won=won, score=score)

    def check_won(self) -> None:
        """Won the moment the challenge deck and the in-play stack are both empty."""
        if self.outcome is None and not self.challenge and not self.in_play:
            self.finish(True)

    # -- the automatic steps ---------------------------------------------------

    def draw_step(self) -> None:
        """Draw until the hand holds five cards, or as many as the magic deck has left."""
        want = max(0, HAND_SIZE - len(self.hand))
        if want == 0:
            return
        drawn, self.magic = self.magic[:want], self.magic[want:]
        self.hand.extend(drawn)
        self.known = max(0, self.known - len(drawn))
        if not drawn:
            self.emit("draw", "The magic deck is empty: no card is drawn.", count=0)
            return
        short = "" if len(drawn) == want else " (the magic deck ran out)"
        self.emit("draw", f"Drew {len(drawn)} card(s) from the magic deck{short}; {len(self.magic)} left.",
                  {"text": f"You draw {faces(drawn)}{short}.", "cards": [c.code for c in drawn]},
                  count=len(drawn))

    def flip_card(self) -> None:
        """Flip the top challenge card onto the in-play stack."""
        card = self.challenge.pop(0)
        covered = f", on top of {self.in_play[-1].card.face}" if self.in_play else ""
        self.in_play.append(Challenger(card))
        self.emit("flip", f"Flipped {card.face} from the challenge deck{covered}: now in play (value {card.rank}).",
                  card=card.code)

    def start_turn(self) -> None:
        self.turn += 1
        self.gift_used = None
        self.emit("turn", f"Turn {self.turn}.", turn=self.turn)
        self.draw_step()

    def defeat(self, how: str) -> None:
        """The card in play goes to the challenge discard pile; the one beneath, if any, is in play again."""
        gone = self.in_play.pop()
        self.challenge_discard.append(gone.card)
        beneath = ""
        if self.in_play:
            top = self.in_play[-1]
            beneath = f" {top.card.face} beneath it is in play again (value {top.value})."
        self.emit("defeat", f"{how} defeats {gone.card.face}.{beneath}", card=gone.card.code, score=self.score())
        self.check_won()

    # -- the decisions ---------------------------------------------------------

    def gather(self, decision: Decision) -> None:
        card = _card_field(decision, "card")
        if card not in self.hand:
            raise IllegalDecision(f"{card.code} is not in your hand")
        pile = self.piles[SUITS.index(card.suit)]
        if pile and card.rank <= pile[-1].rank:
            raise IllegalDecision(f"{card.face} cannot be gathered: the {SUIT_NAME[card.suit]} pile's top card is "
                                  f"{pile[-1].face}, and a gathered card must be higher")
        self.hand.remove(card)
        pile.append(card)
        self.emit("gather", f"Gathered {card.face} onto the {SUIT_NAME[card.suit]} pile: power {len(pile)}.",
                  card=card.code, suit=card.suit.value, power=len(pile))

    def attack(self, decision: Decision) -> None:
        if not self.in_play:
            raise IllegalDecision("no challenge card is in play to attack")
        target = self.in_play[-1]
        enemy = ENEMY[target.card.suit]
        raw = decision.get("spells", [])
        if not isinstance(raw, (list, tuple)) or not all(isinstance(c, str) for c in raw):
            raise IllegalDecision(f"'spells' must be a list of card codes from your hand, not {raw!r}")
        spells = [_card(f"spells[{i}]", code) for i, code in enumerate(raw)]
        if len(set(spells)) != len(spells):
            raise IllegalDecision("'spells' names the same card twice")
        for card in spells:
            if card not in self.hand:
                raise IllegalDecision(f"spell {card.code} is not in your hand")
            if card.suit is not enemy:
                raise IllegalDecision(f"{card.face} is a {SUIT_NAME[card.suit]} spell; only {SUIT_NAME[enemy]} may "
                                      f"attack the {SUIT_NAME[target.card.suit]} card in play, {target.card.face}")
        with_pile = decision.get("with_pile", False)
        if not isinstance(with_pile, bool):
            raise IllegalDecision(f"'with_pile' must be true or false, not {with_pile!r}")
        if not spells and not with_pile:
            raise IllegalDecision("an attack needs 'with_pile': true, or at least one spell card")
        pile_strength = 0
        if with_pile:
            pile_strength = strength(self.state, enemy)
            if pile_strength == 0:
                raise IllegalDecision(f"your {SUIT_NAME[enemy]} pile has no power and no summoned card: "
                                      "nothing to attack with")
        total = pile_strength + sum(c.rank for c in spells)
        if total < target.value:
            raise IllegalDecision(f"a total of {total} does not reach the value {target.value} of {target.card.face}")
        parts = []
        if with_pile:
            summoned = self.summoned[SUITS.index(enemy)]
            parts.append(f"{SUIT_NAME[enemy]} power {self.power(enemy)}"
                         + (f" + summoned {summoned.face}" if summoned is not None else ""))
        if spells:
            parts.append("spell " + " + ".join(c.face for c in spells))
            for card in spells:
                self.hand.remove(card)
                self.magic_discard.append(card)
        self.defeat(f"An attack of {total} ({'; '.join(parts)})")

    def gift(self, decision: Decision) -> None:
        raw = decision.get("suit")
        if not isinstance(raw, str) or raw.upper() not in {s.value for s in SUITS}:
            raise IllegalDecision(f"'suit' must be one of S, H, D, C, not {raw!r}")
        suit = Suit(raw.upper())
        name = SUIT_NAME[suit]
        if self.gift_used is not None:
            raise IllegalDecision(f"the gift of {SUIT_NAME[self.gift_used]} was already used this turn; "
                                  "one gift a turn, of any suit")
        power = self.power(suit)
        if power == 0:
            raise IllegalDecision(f"your {name} pile has no power: the gift of {name} would do nothing")
        if suit is Suit.SPADES:
            if not self.in_play:
                raise IllegalDecision("the gift of spades needs a challenge card in play")
            target = self.in_play[-1]
            lowered = replace(target, lowered=target.lowered + power)
            self.in_play[-1] = lowered
            self.gift_used = suit
            self.emit("gift", f"Gift of spades: {target.card.face} loses {power} (spades power); its value is "
                      f"{lowered.value} while it stays in play.", suit=suit.value, value=lowered.value)
        elif suit is Suit.HEARTS:
            if not self.challenge:
                raise IllegalDecision("the gift of hearts needs cards in the challenge deck")
            gone, self.challenge = self.challenge[:power], self.challenge[power:]
            self.challenge_discard.extend(gone)
            self.gift_used = suit
            self.emit("gift", f"Gift of hearts: discarded {faces(gone)} from the top of the challenge deck.",
                      suit=suit.value, cards=[c.code for c in gone], score=self.score())
            self.check_won()
        elif suit is Suit.DIAMONDS:
            if not self.magic:
                raise IllegalDecision("the gift of diamonds needs cards in the magic deck")
            seen = self.magic[:power]
            self.gift_used = suit
            self.known = max(self.known, len(seen))
            waiting = len(seen) > 1
            self.emit("gift", f"Gift of diamonds: the player looks at the top {len(seen)} card(s) of the magic deck"
                      + (" and will put them back in any order." if waiting else "."),
                      {"text": f"Gift of diamonds: the top of the magic deck is {faces(seen)} (top first)"
                       + ("; choose their order." if waiting else "."), "cards": [c.code for c in seen]},
                      suit=suit.value, count=len(seen))
            if waiting:
                self.reveal = len(seen)
                self.phase = Phase.ORDER
        else:
            if not self.magic:
                raise IllegalDecision("the gift of clubs needs cards in the magic deck")
            card = self.magic.pop(0)
            self.known = max(0, self.known - 1)
            self.gift_used = suit
            if card.rank <= power:
                self.summoning = card
                self.phase = Phase.SUMMON
                self.emit("gift", f"Gift of clubs: revealed {card.face} (value {card.rank} <= clubs power {power}): "
                          f"the player may summon it to the {SUIT_NAME[card.suit]} summoning zone.",
                          suit=suit.value, card=card.code, summoned=None)
            else:
                self.magic_discard.append(card)
                self.emit("gift", f"Gift of clubs: revealed {card.face} (value {card.rank} > clubs power {power}): "
                          "discarded.", suit=suit.value, card=card.code, summoned=False)

    def summon(self, decision: Decision) -> None:
        """The clubs gift's card goes to the summoning zone of its suit, replacing any card there."""
        card = self.summoning
        assert card is not None
        slot = SUITS.index(card.suit)
        old = self.summoned[slot]
        self.summoned[slot] = card
        replaced = ""
        if old is not None:
            self.magic_discard.append(old)
            replaced = f", replacing {old.face}, which is discarded"
        self.summoning = None
        self.phase = Phase.ACTIONS
        self.emit("summon", f"{card.face} is summoned to the {SUIT_NAME[card.suit]} summoning zone{replaced}.",
                  card=card.code, suit=card.suit.value, summoned=True)

    def decline(self, decision: Decision) -> None:
        """The player does not summon the clubs gift's card: it is discarded."""
        card = self.summoning
        assert card is not None
        self.magic_discard.append(card)
        self.summoning = None
        self.phase = Phase.ACTIONS
        self.emit("summon", f"{card.face} is not summoned: it is discarded.", card=card.code,
                  suit=card.suit.value, summoned=False)

    def order(self, decision: Decision) -> None:
        """The cards still to order go back in the given order, under those already placed."""
        raw = decision.get("cards")
        rest = self.magic[self.placed:self.reveal]
        if not isinstance(raw, (list, tuple)) or not all(isinstance(c, str) for c in raw):
            raise IllegalDecision(f"'cards' must list the {len(rest)} revealed cards still to order, in their new "
                                  "order, top first")
        cards = [_card(f"cards[{i}]", code) for i, code in enumerate(raw)]
        if sorted(cards) != sorted(rest):
            raise IllegalDecision(f"'cards' must be an order of exactly the revealed cards {faces(rest)}, "
                                  f"not {faces(cards)}")
        self.magic[self.placed:self.reveal] = cards
        self.close_order()

    def place(self, decision: Decision) -> None:
        """One revealed card goes next from the top; the order is done when one card is left to place."""
        card = _card_field(decision, "card")
        rest = self.magic[self.placed:self.reveal]
        if card not in rest:
            raise IllegalDecision(f"{card.code} is not one of the revealed cards still to order: {faces(rest)}")
        self.magic.remove(card)
        self.magic.insert(self.placed, card)
        self.placed += 1
        if self.reveal - self.placed <= 1:
            self.close_order()
            return
        self.emit("place", "The player orders the revealed cards.",
                  {"text": f"{card.face} goes {_ordinal(self.placed)} from the top.", "card": card.code},
                  private=True)

    def close_order(self) -> None:
        cards = self.magic[:self.reveal]
        self.reveal = 0
        self.placed = 0
        self.phase = Phase.ACTIONS
        self.emit("order", "The revealed cards go back on top of the magic deck in the player's chosen order.",
                  {"text": f"You put back {faces(cards)} (top first).", "cards": [c.code for c in cards]},
                  count=len(cards))

    def end_turn(self, decision: Decision) -> None:
        """The flip step, then the next turn's draw step."""
        self.emit("end_turn", f"Turn {self.turn} ends: the flip.")
        if self.in_play:
            if not self.magic:
                self.finish(False)
                return
            bottom = self.magic.pop()
            self.magic_discard.append(bottom)
            self.known = min(self.known, len(self.magic))
            self.emit("burn", f"A challenge card is in play: {bottom.face} is discarded from the bottom of the magic "
                      f"deck; {len(self.magic)} left.", card=bottom.code)
        if self.challenge:
            self.flip_card()
        self.check_won()
        if self.outcome is None:
            self.start_turn()


_HANDLERS: Mapping[str, Callable[[_Draft, Decision], None]] = {
    "gather": _Draft.gather,
    "attack": _Draft.attack,
    "gift": _Draft.gift,
    "order": _Draft.order,
    "place": _Draft.place,
    "summon": _Draft.summon,
    "decline": _Draft.decline,
    "end_turn": _Draft.end_turn,
}


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _card(field: str, code: object) -> PlayingCard:
    if not isinstance(code, str):
        raise IllegalDecision(f"{field!r} must be a card code like '7C', '10D' or 'QH', not {code!r}")
    try:
        return PlayingCard.parse(code)
    except BadOptions:
        raise IllegalDecision(f"{field!r}: {code!r} is not a card code like '7C', '10D' or 'QH'") from None


def _card_field(decision: Decision, field: str) -> PlayingCard:
    if field not in decision:
        raise IllegalDecision(f"a {decision.get('kind')!r} decision needs the field {field!r}")
    return _card(field, decision[field])


# -- the public functions ----------------------------------------------------------------


def setup(raw: Mapping[str, Any], seed: int) -> State:
    """Shuffle the challenge deck, then the magic deck; turn 1's draw. No card is in play until turn 1's flip."""
    options = Options.parse(raw)
    rng = Rng.from_seed(seed)

    def cards(codes: Sequence[str] | None) -> tuple[PlayingCard, ...]:
        return tuple(PlayingCard.parse(c) for c in codes or ())

    hand = cards(options.hand)
    piles = tuple(cards(p) for p in options.piles) if options.piles is not None else ((), (), (), ())
    summoned = tuple(None if c is None else PlayingCard.parse(c) for c in options.summoned or (None,) * 4)
    flipped = cards(options.in_play)
    if options.challenge is None:
        challenge, rng = rng.shuffled([c for c in full_deck() if c not in flipped])
    else:
        challenge = cards(options.challenge)
    if options.magic is None:
        taken = {*hand, *(c for p in piles for c in p), *(c for c in summoned if c is not None)}
        magic, rng = rng.shuffled([c for c in full_deck() if c not in taken])
    else:
        magic = cards(options.magic)
    state = State(options, version=0, phase=Phase.ACTIONS, turn=1, rng=rng.state, hand=hand,
                  challenge=challenge, in_play=tuple(Challenger(c) for c in flipped), challenge_discard=(),
                  magic=magic, magic_discard=(), piles=piles, summoned=summoned)
    draft = _Draft(state)
    if options.hand is None:
        draft.draw_step()
    draft.events.clear()
    return draft.freeze(0)


def _subsets(cards: Sequence[PlayingCard]) -> list[tuple[PlayingCard, ...]]:
    return [combo for size in range(len(cards) + 1) for combo in itertools.combinations(cards, size)]


def _attacks(state: State) -> list[Decision]:
    target = state.target
    if target is None:
        return []
    enemy = ENEMY[target.card.suit]
    pile = strength(state, enemy)
    out: list[Decision] = []
    for spells in _subsets([c for c in state.hand if c.suit is enemy]):
        spell_total = sum(c.rank for c in spells)
        for with_pile in (True, False):
            if (with_pile and pile == 0) or (not with_pile and not spells):
                continue
            total = spell_total + (pile if with_pile else 0)
            if total < target.value:
                continue
            parts = ([f"{SUIT_NAME[enemy]} pile {pile}"] if with_pile else []) + [c.face for c in spells]
            out.append({"kind": "attack", "spells": [c.code for c in spells], "with_pile": with_pile,
                        "label": f"Defeat {target.card.face} ({target.value}) with {' + '.join(parts)} = {total}"})
    return out


def _gifts(state: State) -> list[Decision]:
    if state.gift_used is not None:
        return []
    out: list[Decision] = []
    for suit in SUITS:
        power = state.power(suit)
        if power == 0:
            continue
        if suit is Suit.SPADES and state.target is not None:
            label = f"Gift of spades: {state.target.card.face} value {state.target.value} - {power}"
        elif suit is Suit.HEARTS and state.challenge:
            label = f"Gift of hearts: discard the top {min(power, len(state.challenge))} challenge card(s)"
        elif suit is Suit.DIAMONDS and state.magic:
            label = f"Gift of diamonds: look at and reorder the top {min(power, len(state.magic))} magic card(s)"
        elif suit is Suit.CLUBS and state.magic:
            label = f"Gift of clubs: reveal the top magic card, summon it if its value <= {power}"
        else:
            continue
        out.append({"kind": "gift", "suit": suit.value, "label": label})
    return out


def _orders(state: State) -> list[Decision]:
    """Every order of the cards left to order when they are few; else one ``place`` per card, and the order as it is."""
    placed = state.magic[:state.placed]
    rest = state.magic[state.placed:state.reveal]
    if len(rest) <= ORDER_LIST_LIMIT:
        return [{"kind": "order", "cards": [c.code for c in order], "label": "Top first: " + faces((*placed, *order))}
                for order in itertools.permutations(rest)]
    where = _ordinal(state.placed + 1)
    out: list[Decision] = [{"kind": "place", "card": c.code, "label": f"Put {c.face} {where} from the top"}
                           for c in rest]
    out.append({"kind": "order", "cards": [c.code for c in rest],
                "label": "Keep this order, top first: " + faces((*placed, *rest))})
    return out


def legal(state: State, seat: Seat) -> list[Decision]:
    """Every decision open to the player now (see ``ORDER_LIST_LIMIT`` for long orders)."""
    if seat != 0 or state.outcome is not None:
        return []
    if state.phase is Phase.ORDER:
        return _orders(state)
    if state.phase is Phase.SUMMON:
        card = state.summoning
        assert card is not None
        zone = f"the {SUIT_NAME[card.suit]} summoning zone"
        old = state.summon(card.suit)
        return [{"kind": "summon", "label": f"Summon {card.face} to {zone}"
                 + (f" (replaces {old.face})" if old is not None else "")},
                {"kind": "decline", "label": f"Do not summon {card.face}: discard it"}]
    out: list[Decision] = []
    for card in state.hand:
        pile = state.pile(card.suit)
        if not pile or card.rank > pile[-1].rank:
            out.append({"kind": "gather", "card": card.code,
                        "label": f"Gather {card.face} onto the {SUIT_NAME[card.suit]} pile (power {len(pile) + 1})"})
    out.extend(_attacks(state))
    out.extend(_gifts(state))
    end: dict[str, Any] = {"kind": "end_turn", "label": "End the turn: flip"}
    if state.in_play and not state.magic:
        end["loses"] = True
        end["label"] = "End the turn: the flip needs a card from the empty magic deck, and you lose"
    out.append(end)
    return out


def blocked(state: State, seat: Seat) -> list[str | None]:
    """While the player's actions are awaited: per card of the hand, None if a legal decision uses it (a gather, or a
    spell of an attack), else why not (the words a refused gather gives, and the attack it cannot join). Empty in
    the other phases and for any other seat."""
    if seat != 0 or state.outcome is not None or state.phase is not Phase.ACTIONS:
        return []
    used: set[str] = set()
    for decision in legal(state, seat):
        used.update([decision["card"]] if decision.get("kind") == "gather" else decision.get("spells") or ())
    out: list[str | None] = []
    target = state.target
    for card in state.hand:
        if card.code in used:
            out.append(None)
            continue
        pile = state.pile(card.suit)
        why = (f"{card.face} cannot be gathered: the {SUIT_NAME[card.suit]} pile's top card is {pile[-1].face}, "
               "and a gathered card must be higher")
        if target is not None and card.suit is ENEMY[target.card.suit]:
            why += f"; no attack with it reaches the value {target.value} of {target.card.face}"
        elif target is not None:
            why += f"; only {SUIT_NAME[ENEMY[target.card.suit]]} spells attack {target.card.face}"
        out.append(why)
    return out


def apply(state: State, seat: Seat, decision: Decision) -> tuple[State, list[Event]]:
    """Apply one decision of the player; raises an :class:`engine.errors.EngineError` naming what is wrong."""
    if state.outcome is not None:
        raise MatchOver("the game is over")
    if seat != 0:
        raise NotYourTurn(f"seat {seat} does not exist in Queen's Challenge: it is one player's game, seat 0")
    if not isinstance(decision, Mapping):
        raise IllegalDecision("a decision must be a map with a 'kind'")
    kind = decision.get("kind")
    if not isinstance(kind, str) or kind not in _HANDLERS:
        raise IllegalDecision(f"unknown decision kind {kind!r}; Queen's Challenge takes {', '.join(_HANDLERS)}")
    accepted = ACCEPTS[state.phase]
    if kind not in accepted:
        raise IllegalDecision(f"{kind!r} is not accepted in phase {state.phase.value!r}, which takes "
                              f"{', '.join(accepted)}")
    extra = sorted(set(decision) - _FIELDS[kind] - _EXTRA)
    if extra:
        fields = ", ".join(sorted(_FIELDS[kind])) or "no fields"
        raise IllegalDecision(f"a {kind!r} decision has no field {extra[0]!r}; it takes {fields}")
    draft = _Draft(state)
    _HANDLERS[kind](draft, decision)
    return draft.freeze(state.version + 1), draft.events
