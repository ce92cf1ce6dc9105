"""Creature Wars rules: set-up, the sealed duel, fights, rallies, the turn and MAYHEM.

Rules run on a private mutable draft built from the frozen state and frozen again at
the end, so every public function stays pure while the rule code reads plainly.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.creature_wars.cards import WITCH_BASE, Card, PowerType, Tribe, beats
from engine.creature_wars.state import PASS, Duel, Options, Phase, State, parse_card
from engine.creature_wars.witch_catalogue import Rarity, by_rarity
from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.interface import Decision, Event, Outcome, OutcomeReason, Seat
from engine.rng import Rng

__all__ = ["apply", "legal", "setup"]

RALLY_SIZE = 4


def who(seat: Seat) -> str:
    return f"Player {seat + 1}"


class _Draft:
    """A mutable working copy of a :class:`State` for one ``apply``."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.turn = state.turn
        self.first_drawer = state.first_drawer
        self.hp = list(state.hp)
        self.hands = [list(state.hands[0]), list(state.hands[1])]
        self.deck = list(state.deck)
        self.discard = list(state.discard)
        self.sealed: list[int | None] = list(state.sealed)
        self.rng = Rng(state.rng)
        self.next_uid = state.next_uid
        self.last_draw_turn = state.last_draw_turn
        self.witch_rallied = list(state.witch_rallied)
        self.last_duel = state.last_duel
        self.outcome = state.outcome
        self.opened = state.opened
        self.events: list[Event] = []

    def freeze(self, version: int) -> State:
        return replace(
            self.state,
            version=version,
            opened=self.opened,
            phase=Phase.OVER if self.outcome else Phase.DUEL,
            turn=self.turn,
            first_drawer=self.first_drawer,
            hp=(self.hp[0], self.hp[1]),
            hands=(tuple(self.hands[0]), tuple(self.hands[1])),
            deck=tuple(self.deck),
            discard=tuple(self.discard),
            sealed=(self.sealed[0], self.sealed[1]),
            rng=self.rng.state,
            next_uid=self.next_uid,
            last_draw_turn=self.last_draw_turn,
            witch_rallied=(self.witch_rallied[0], self.witch_rallied[1]),
            last_duel=self.last_duel,
            outcome=self.outcome,
        )

    # -- small helpers -------------------------------------------------------

    def emit(self, kind: str, text: str, secret: Mapping[Seat, Mapping[str, Any]] | None = None,
             private: bool = False, **public: Any) -> None:
        self.events.append(Event(kind, {"text": text, **public}, dict(secret or {}), private))

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    def random_witch(self) -> Card:
        """A generated witch: rarity by weights 3:2:1, level uniform in the rarity's range."""
        rarities = list(Rarity)
        rarity, self.rng = self.rng.weighted(rarities, [r.weight for r in rarities])
        spec, self.rng = self.rng.choice(by_rarity(rarity))
        level, self.rng = self.rng.between(*rarity.levels)
        return Card.new_witch(self.uid(), spec.name, level)

    def gain(self, seat: Seat, card: Card, kind: str, public_text: str, own_text: str) -> None:
        """Put a card into a hand; only its holder learns which card it is."""
        self.hands[seat].append(card)
        self.emit(kind, public_text, {seat: {"text": own_text, "card": card.notation(self.turn)}}, seat=seat)
        self.rally(seat)

    def draw(self, seat: Seat, reason: str = "draws a card") -> bool:
        if not self.deck:
            return False
        card = self.deck.pop(0)
        if not self.deck:
            self.last_draw_turn = self.turn
        self.gain(seat, card, "draw", f"{who(seat)} {reason}.", f"You draw {card.notation(self.turn)}.")
        return True

    def damage(self, seat: Seat, amount: int, why: str) -> None:
        if amount <= 0:
            return
        self.hp[seat] -= amount
        self.emit("damage", f"{who(seat)}'s Empire takes {amount} damage ({why}); {self.hp[seat]} HP left.",
                  seat=seat, amount=amount, hp=self.hp[seat])

    # -- rallies -------------------------------------------------------------

    def rally(self, seat: Seat) -> None:
        """Re-check rallies in one hand: +2 levels for a Tribe or Power rally, +6 for both, once per card."""
        hand = self.hands[seat]
        while True:
            tribes: dict[Tribe, int] = {}
            types: dict[PowerType, int] = {}
            witches = 0
            for card in hand:
                if card.banned:
                    continue
                if card.is_witch:
                    witches += 1
                    continue
                if card.tribe is not None:
                    tribes[card.tribe] = tribes.get(card.tribe, 0) + 1
                if card.ptype is not None:
                    types[card.ptype] = types.get(card.ptype, 0) + 1
            upgrades: list[str] = []
            for i, card in enumerate(hand):
                if card.banned:
                    continue
                if card.is_witch:
                    if witches >= RALLY_SIZE and not card.witch_rally:
                        hand[i] = replace(card, witch_rally=True, level=card.level + 2)
                        upgrades.append(f"{card.notation()} → Lvl.{card.level + 2}")
                    continue
                tribe_rally = card.tribe_rally or tribes.get(card.tribe, 0) >= RALLY_SIZE  # type: ignore[arg-type]
                type_rally = card.type_rally or (card.ptype is not None and types.get(card.ptype, 0) >= RALLY_SIZE)
                if (tribe_rally, type_rally) != (card.tribe_rally, card.type_rally):
                    bonus = _rally_bonus(tribe_rally, type_rally) - _rally_bonus(card.tribe_rally, card.type_rally)
                    hand[i] = replace(card, tribe_rally=tribe_rally, type_rally=type_rally, level=card.level + bonus)
                    upgrades.append(f"{card.notation()} → Lvl.{card.level + bonus}")
            if upgrades:
                self.emit("rally", f"{who(seat)} forms a Rally.", {seat: {"text": "Rally! " + "; ".join(upgrades)}},
                          private=True, seat=seat)
            if witches >= RALLY_SIZE and not self.witch_rallied[seat]:
                self.witch_rallied[seat] = True
                spec, self.rng = self.rng.choice(by_rarity(Rarity.SINFUL))
                level, self.rng = self.rng.between(*Rarity.SINFUL.levels)
                card = Card.new_witch(self.uid(), spec.name, level)
                hand.append(card)
                self.emit("gain", f"{who(seat)}'s first Witch Rally grants a Sinful Witch.",
                          {seat: {"text": f"Your first Witch Rally grants {card.notation()}.", "card": card.notation()}},
                          private=True, seat=seat)
                continue
            return

    # -- the turn ------------------------------------------------------------

    def open_duel(self) -> None:
        """Seal a pass for every seat with no playable card; resolve at once if both pass."""
        self.sealed = [None if any(c.playable(self.turn) for c in self.hands[s]) else PASS for s in (0, 1)]
        for seat in (0, 1):
            if self.sealed[seat] == PASS:
                self.emit("pass", f"{who(seat)} has no playable card and passes.", seat=seat)
        if self.sealed[0] is not None and self.sealed[1] is not None:
            self.resolve()

    def start_turn(self) -> None:
        """Next turn: both draw, first drawer alternating; no draw once the deck has run out."""
        self.turn += 1
        self.first_drawer = 1 - self.first_drawer
        self.emit("turn", f"Turn {self.turn}: {who(self.first_drawer)} draws first.", turn=self.turn,
                  first_drawer=self.first_drawer)
        if self.last_draw_turn is None and not self.deck:
            self.last_draw_turn = self.turn - 1
        for seat in (self.first_drawer, 1 - self.first_drawer):
            self.draw(seat)
        if self.final_duel:
            self.emit("final_duel", "The deck is empty: one final duel, then MAYHEM!")
        self.open_duel()

    @property
    def final_duel(self) -> bool:
        """True in the turn after the one in which the last card was drawn."""
        return self.last_draw_turn is not None and self.last_draw_turn < self.turn

    def resolve(self) -> None:
        """Both seats have sealed: reveal together, cast witches, fight, then the next turn."""
        played: list[Card | None] = [None, None]
        for seat in (0, 1):
            slot = self.sealed[seat]
            if slot is not None and slot != PASS:
                played[seat] = self.hands[seat].pop(slot)
        self.sealed = [None, None]
        shown = [c.notation() if c else "pass" for c in played]
        self.emit("reveal", f"Revealed: {shown[0]} vs {shown[1]}.", cards=shown)
        for seat in (self.first_drawer, 1 - self.first_drawer):
            card = played[seat]
            if card is not None and card.is_witch:
                self.emit("witch", f"{who(seat)}'s {card.witch} casts its effect.", seat=seat, witch=card.witch)
        self.fight(played[0], played[1])
        if self.outcome is None:
            self.knockout()
        if self.outcome is None:
            if self.final_duel:
                self.mayhem()
            else:
                self.start_turn()

    def fight(self, a: Card | None, b: Card | None) -> None:
        cards = (a, b)
        if a is None or b is None:
            for seat, card in enumerate(cards):
                if card is not None:
                    self.hands[seat].append(card.fresh())
                    self.emit("return", f"{who(seat)}'s {card.notation()} meets no opponent and returns to hand.",
                              seat=seat)
                    self.rally(seat)
            self.record(cards, (None, None), None, (0, 0), "No duel: a player passed.")
            return
        powers = (a.power_against(b), b.power_against(a))
        winner = None if powers[0] == powers[1] else (0 if powers[0] > powers[1] else 1)
        damage = [0, 0]
        witches = (a.is_witch, b.is_witch)
        if witches == (True, True):
            self.discard.extend([a, b])
            if winner is not None:
                damage[1 - winner] = WITCH_BASE
            summary = "Two witches duel; neither returns."
        elif any(witches):
            ws = witches.index(True)
            witch, enemy = cards[ws], cards[1 - ws]
            assert witch is not None and enemy is not None
            self.discard.append(witch)
            self.hands[1 - ws].append(enemy.fresh())
            if winner == 1 - ws:
                damage[ws] = witch.base
                summary = f"{who(1 - ws)}'s creature kills the witch; it returns to hand."
            else:
                winner = ws
                summary = f"The witch wins its fight and flees; {who(1 - ws)}'s creature returns to hand."
            self.rally(1 - ws)
        elif winner is None:
            for seat, card in enumerate(cards):
                assert card is not None
                self.hands[seat].append(replace(card, ready_turn=self.turn + 2))
                self.rally(seat)
            summary = "Equal power: both creatures return to hand and cannot be played next turn."
        else:
            loser = 1 - winner
            won, lost = cards[winner], cards[loser]
            assert won is not None and lost is not None
            self.discard.extend([a, b])
            damage[loser] = lost.base
            summary = f"{who(winner)} wins the duel; {who(loser)} takes {lost.base} ({lost.notation()}'s base strength)."
        self.record(cards, powers, winner, (damage[0], damage[1]), summary)
        for seat in (0, 1):
            self.damage(seat, damage[seat], "lost the duel")
        if winner is not None and not any(witches):
            won, lost = cards[winner], cards[1 - winner]
            assert won is not None and lost is not None
            if won.tribe is not None and won.tribe is lost.tribe:
                self.emit("tribal_clash", f"Tribal Clash! {who(winner)} draws a card.", seat=winner)
                self.draw(winner, "draws a card for the Tribal Clash")
            if beats(lost.ptype, won.ptype):
                witch = self.random_witch()
                self.gain(winner, witch, "bizarre_victory",
                          f"Bizarre Victory! A strange figure joins {who(winner)}: a random Witch.",
                          f"Bizarre Victory! You get {witch.notation()}.")

    def record(self, cards: tuple[Card | None, Card | None], powers: tuple[int | None, int | None],
               winner: Seat | None, damage: tuple[int, int], summary: str) -> None:
        self.last_duel = Duel(self.turn, cards, powers, winner, damage, summary)
        self.emit("fight", summary, winner=winner, powers=list(powers), damage=list(damage))

    def knockout(self) -> None:
        down = [s for s in (0, 1) if self.hp[s] <= 0]
        if not down:
            return
        if len(down) == 2:
            winner = None if self.hp[0] == self.hp[1] else (0 if self.hp[0] > self.hp[1] else 1)
        else:
            winner = 1 - down[0]
        self.finish(winner, OutcomeReason.KNOCKOUT)

    def mayhem(self) -> None:
        """Witches flee, creatures still in hand hurt their holder, the higher HP wins."""
        self.emit("mayhem", "MAYHEM! Witches flee; creatures in hand turn on their holders.")
        for seat in (0, 1):
            hand, self.hands[seat] = self.hands[seat], []
            self.discard.extend(hand)
            total = sum(c.base for c in hand if not c.is_witch)
            self.damage(seat, total, "MAYHEM")
        winner = None if self.hp[0] == self.hp[1] else (0 if self.hp[0] > self.hp[1] else 1)
        self.finish(winner, OutcomeReason.MAYHEM)

    def finish(self, winner: Seat | None, reason: OutcomeReason) -> None:
        detail = "a draw" if winner is None else f"{who(winner)} wins"
        self.outcome = Outcome(winner, reason, (self.hp[0], self.hp[1]), f"{detail} by {reason.value}")
        self.emit("over", f"The match is over: {detail} ({reason.value}).", winner=winner, reason=reason.value)


def _rally_bonus(tribe_rally: bool, type_rally: bool) -> int:
    return 6 if tribe_rally and type_rally else 2 if tribe_rally or type_rally else 0


def _scenario_card(option: str, text: str, uid: int) -> Card:
    """A scenario card; a bad one names the option it came from."""
    try:
        return parse_card(text, uid)
    except BadOptions as exc:
        raise BadOptions(f"option {option!r}: {exc.message}") from None


def setup(raw: Mapping[str, Any], seed: int) -> State:
    """Deal a match: the 52-card deck (or a scenario's), 5-card hands, 30 HP, then turn 1's draws."""
    options = Options.parse(raw)
    rng = Rng.from_seed(seed)
    uid = 0
    if options.deck is not None:
        deck = [_scenario_card("deck", text, i) for i, text in enumerate(options.deck)]
        uid = len(deck)
    else:
        deck = []
        for tribe in Tribe:
            for level in range(1, 7):
                ptype, rng = rng.choice(list(PowerType))
                deck.append(Card.creature(uid, tribe, level, ptype))
                uid += 1
    hands: list[list[Card]] = [[], []]
    if options.hands is not None:
        for seat in (0, 1):
            hands[seat] = [_scenario_card("hands", text, uid + i) for i, text in enumerate(options.hands[seat])]
            uid += len(hands[seat])
    first = options.first_drawer
    if first is None:
        first, rng = rng.below(2)
    # turn 1 starts by flipping the first drawer, so start from the other seat
    state = State(options, version=0, opened=0, phase=Phase.DUEL, turn=0, first_drawer=1 - first,
                  hp=(options.hp, options.hp), hands=((), ()), deck=(), discard=(), sealed=(None, None),
                  rng=rng.state, next_uid=uid)
    draft = _Draft(state)
    draft.deck = deck
    if options.deck is None:
        for _ in range(options.witches):
            draft.deck.append(draft.random_witch())
        shuffled, draft.rng = draft.rng.shuffled(draft.deck)
        draft.deck = list(shuffled)
    if options.hands is None:
        for _ in range(options.hand_size):
            for seat in (0, 1):
                if draft.deck:
                    draft.hands[seat].append(draft.deck.pop(0))
    else:
        draft.hands = hands
    for seat in (0, 1):
        draft.rally(seat)
    draft.events.clear()
    draft.start_turn()
    return draft.freeze(0)


def legal(state: State, seat: Seat) -> list[Decision]:
    """The plays open to ``seat``: one per playable card in hand, until it has sealed one."""
    if state.outcome is not None or state.sealed[seat] is not None:
        return []
    return [{"kind": "play", "slot": i} for i, card in enumerate(state.hands[seat]) if card.playable(state.turn)]


def apply(state: State, seat: Seat, decision: Decision) -> tuple[State, list[Event]]:
    """Seal ``seat``'s play; once both seats have sealed, the duel resolves in the same step."""
    if state.outcome is not None:
        raise MatchOver("the match is over")
    if seat not in (0, 1):
        raise NotYourTurn(f"seat {seat} does not exist in Creature Wars (seats 0 and 1)")
    if state.sealed[seat] is not None:
        raise NotYourTurn(f"{who(seat)} has already locked in a card this turn; waiting for the opponent")
    kind = decision.get("kind")
    if kind != "play":
        raise IllegalDecision(f"unknown decision kind {kind!r}; Creature Wars takes 'play'")
    slot = decision.get("slot")
    hand = state.hands[seat]
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(hand):
        raise IllegalDecision(f"'slot' must be a hand position from 0 to {len(hand) - 1}, not {slot!r}")
    card = hand[slot]
    if not card.playable(state.turn):
        why = "may never be played" if card.banned else f"is on cooldown for {card.cooldown(state.turn)} turn(s)"
        raise IllegalDecision(f"{card.notation(state.turn)} in slot {slot} {why}")
    draft = _Draft(state)
    draft.sealed[seat] = slot
    draft.emit("locked_in", f"{who(seat)} has locked in.", seat=seat)
    version = state.version + 1
    if draft.sealed[1 - seat] is not None:
        draft.resolve()
        draft.opened = version
    return draft.freeze(version), draft.events


def playable_slots(hand: Sequence[Card], turn: int) -> list[int]:
    return [i for i, c in enumerate(hand) if c.playable(turn)]
