"""Creature Wars rules: set-up, the legal decisions, and applying them.

The turn itself (draws, the sealed duel, witches, the fight, rallies, MAYHEM) lives on
:class:`engine.creature_wars.table.Table`, where witch effects can reach it.
"""
from __future__ import annotations

from typing import Any, Final, Mapping

from engine.creature_wars import witches as _witches  # noqa: F401  (registers every witch effect)
from engine.creature_wars.cards import POWER_TYPES, TRIBES, Card
from engine.creature_wars.state import PUBLIC, SEALED_FROM, Options, Phase, State, parse_card, sealed_by
from engine.creature_wars.table import COUNTED, SETTLED, Table, playable_reasons, who
from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.interface import Decision, Event, Seat
from engine.rng import Rng

__all__ = ["apply", "blocked", "legal", "setup", "timer"]


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
        for tribe in TRIBES:
            for level in range(1, 7):
                ptype, rng = rng.choice(POWER_TYPES)
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
    table = Table(state)
    table.deck = deck
    if options.deck is None:
        for _ in range(options.witches):
            witch = table.random_witch()
            assert witch is not None
            table.deck.append(witch)
        table.deck = table.shuffle(table.deck)
    if options.hands is None:
        for _ in range(options.hand_size):
            for seat in (0, 1):
                if table.deck:
                    table.hands[seat].append(table.deck.pop(0))
    else:
        table.hands = hands
    for seat in (0, 1):
        table.rally(seat)
    table.events.clear()
    table.start_turn()
    return table.freeze(0)


_LEGAL: Final = ("legal 0", "legal 1")
_BLOCKED: Final = ("blocked 0", "blocked 1")
"""The keys of a state's ``memo`` under which it keeps each seat's ``legal`` and ``blocked`` (as
:func:`engine.memo.per_state` would, read straight from the state's own field)."""


def legal(state: State, seat: Seat) -> list[Decision]:
    """What ``seat`` may decide now: an answer to its pending question, or one play per playable card. Kept with
    the state: callers must not change it."""
    if seat != 0 and seat != 1:
        return _legal(state, seat)
    memo = state.memo
    key = _LEGAL[seat]
    found: list[Decision] | None = memo.get(key)
    if found is None:
        found = memo[key] = _legal(state, seat)
    return found


def _legal(state: State, seat: Seat) -> list[Decision]:
    if state.outcome is not None:
        return []
    if state.pending is not None:
        if state.pending.seat != seat:
            return []
        return [_choice(i) for i in range(len(state.pending.options))]
    if state.sealed[seat] is not None:
        return []
    return [_play(i) for i, why in enumerate(blocked(state, seat)) if why is None]


_PLAYS: Final[tuple[Decision, ...]] = tuple({"kind": "play", "slot": i} for i in range(32))
_CHOICES: Final[tuple[Decision, ...]] = tuple({"kind": "choose", "option": i} for i in range(32))
"""The decisions ``legal`` offers, made once and shared by every state's answer (as the answer itself is shared by
its callers, none may change them): a few maps per state and seat fewer to make."""


def _play(slot: int) -> Decision:
    return _PLAYS[slot] if slot < 32 else {"kind": "play", "slot": slot}


def _choice(option: int) -> Decision:
    return _CHOICES[option] if option < 32 else {"kind": "choose", "option": option}


def blocked(state: State, seat: Seat) -> list[str | None]:
    """While a play is awaited of ``seat``: per card of its own hand, None if it may play it, else why not (the
    words a refused play gives). Empty otherwise. Kept with the state as ``legal`` is, and ``legal``'s plays are
    read from it, so one pass over the hand answers both."""
    if seat != 0 and seat != 1:
        return []
    memo = state.memo
    key = _BLOCKED[seat]
    found: list[str | None] | None = memo.get(key)
    if found is None:
        if state.outcome is not None or state.pending is not None or state.sealed[seat] is not None:
            found = []
        else:
            found = playable_reasons(state, seat)
        memo[key] = found
    return found


def timer(state: State) -> tuple[Seat, int] | None:
    """The seat a timed question waits on and its time limit in seconds; None if nothing is timed."""
    if state.outcome is None and state.pending is not None:
        return state.pending.seat, state.pending.timeout
    return None


def apply(state: State, seat: Seat, decision: Decision) -> tuple[State, list[Event]]:
    """Seal a play (both sealed: the duel resolves in the same step), or answer a pending question."""
    if state.outcome is not None:
        raise MatchOver("the match is over")
    if seat not in (0, 1):
        raise NotYourTurn(f"seat {seat} does not exist in Creature Wars (seats 0 and 1)")
    kind = decision.get("kind")
    version = state.version + 1
    pending = state.pending
    if pending is not None:
        if seat != pending.seat:
            raise NotYourTurn(f"waiting for {who(pending.seat)} to answer: {pending.prompt}")
        if kind == "timeout":
            choice = 0
        elif kind == "choose":
            choice = decision.get("option")  # type: ignore[assignment]
            if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < len(pending.options):
                raise IllegalDecision(f"'option' must be from 0 to {len(pending.options) - 1}, not {choice!r}")
        else:
            raise IllegalDecision(f"a question is waiting: answer it with 'choose' (got {kind!r})")
        table = Table(state)
        table.answer(choice)
        if table.pending is None and table.sealed == [None, None]:
            table.opened = version
        return table.freeze(version), table.events
    if state.sealed[seat] is not None:
        raise NotYourTurn(f"{who(seat)} has already locked in a card this turn; waiting for the opponent")
    timed_out = kind == "timeout"
    if timed_out:  # the clock ran out on a sealed play: the playable card in the lowest slot
        plays = legal(state, seat)
        if not plays:
            raise NotYourTurn(f"nothing is awaited of {who(seat)} now")
        decision, kind = {"kind": "play", "slot": min(p["slot"] for p in plays)}, "play"
    if kind != "play":
        raise IllegalDecision(f"unknown decision kind {kind!r}; Creature Wars takes 'play' (and 'choose' when asked)")
    slot = decision.get("slot")
    hand = state.hands[seat]
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(hand):
        raise IllegalDecision(f"'slot' must be a hand position from 0 to {len(hand) - 1}, not {slot!r}")
    reason = blocked(state, seat)[slot]
    if reason is not None:
        raise IllegalDecision(f"{hand[slot].notation(state.turn)} in slot {slot} {reason}")
    if state.sealed[1 - seat] is None:
        # the first seal of the duel: nothing but the seal changes, so no table is built
        events: list[Event] = []
        if timed_out:
            events.append(Event("timeout", {
                "text": f"{who(seat)}'s time is up: the server locks in the card in slot {slot}.", "seat": seat}))
        events.append(Event("locked_in", {"text": f"{who(seat)} has locked in.", "seat": seat}))
        sealed = (slot, state.sealed[1]) if seat == 0 else (state.sealed[0], slot)
        after = sealed_by(state, version, sealed)
        # the other seat's hand, the rules in play and the turn are unchanged: its answers carry over
        memo, kept = state.memo, after.memo
        for key in (_LEGAL[1 - seat], _BLOCKED[1 - seat], SETTLED, COUNTED):
            if key in memo:
                kept[key] = memo[key]
        public = memo.get(PUBLIC)
        if public is not None:  # what every view shows: the same but for the version and the seals
            kept[SEALED_FROM] = public
        return after, events
    table = Table(state)
    table.sealed[seat] = slot
    if timed_out:
        table.emit("timeout", f"{who(seat)}'s time is up: the server locks in the card in slot {slot}.", seat=seat)
    table.event("locked_in", {"text": f"{who(seat)} has locked in.", "seat": seat})
    if table.sealed[1 - seat] is not None:
        table.reveal()
        table.resolve()
        table.opened = version
    return table.freeze(version), table.events
