"""The table: a mutable working copy of a :class:`State` for one ``apply``, the turn flow, and
the API witch effects use (draw, gain, damage, ask, modify ...).

Hooks (see :mod:`engine.creature_wars.effects`) are called at fixed points:
turn start (modifiers, then held witches and tokens), draws, the duel's seal (forced
plays, what may be played), the reveal (``played``), witch casts (first drawer first; a
cast may stop to ask its player a question, and the turn resumes after the answer), the
fight (``power``, ``decide``, ``damage``, ``after_fight``, then the witch's own
``escaped``/``died``), turn end, and the knockout (``can_lose``).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Final, Iterator, Mapping, Sequence, TypeVar

from engine.creature_wars.cards import POWER_TYPES, TRIBES, Card, CardKind, PowerType, Tribe, beats
from engine.creature_wars.effects import EFFECTS, RULES, TOKENS, Effect, Hooks, Token
from engine.creature_wars.resolution import Fight, Hit, Source
from engine.creature_wars.state import PASS, Duel, Modifier, Pending, Phase, State
from engine.creature_wars.witch_catalogue import CATALOGUE, Rarity, WitchSpec, by_name, by_rarity
from engine.interface import Event, Outcome, OutcomeReason, Seat
from engine.rng import Rng

__all__ = ["RALLY_SIZE", "Table", "held_back", "playable_reasons", "who"]

RALLY_SIZE: Final = 4
T = TypeVar("T")
CREATURE_TRIBES: Final = TRIBES
# The registries under names of this module's own, marked final: compiled, a final name is read from a C static,
# any other module-level name from the module's dict on every use.
_EFFECTS: Final = EFFECTS
_RULES: Final = RULES
_TOKENS: Final = TOKENS


_PLAYERS: Final = ("Player 1", "Player 2")


def who(seat: Seat) -> str:
    return _PLAYERS[seat] if 0 <= seat < 2 else f"Player {seat + 1}"


def spec_of(card: Card) -> WitchSpec | None:
    return by_name(card.witch) if card.is_witch and card.witch else None


_EFFECT_NAMED: Final[dict[str, Effect[Table] | None]] = {}
"""The effects by witch name, as they are looked up."""


def effect_of(card: Card) -> Effect[Table] | None:
    """The witch's effect (looked up once per name: it is on the per-decision path). Only witches are named."""
    name = card.witch
    if not name:
        return None
    try:
        return _EFFECT_NAMED[name]
    except KeyError:
        found = _EFFECT_NAMED[name] = _EFFECTS.get(by_name(name).key)
        return found


def token_of(card: Card) -> Token[Table] | None:
    return _TOKENS.get(card.token) if card.token else None


_NO_HOOKS: Final[frozenset[str]] = frozenset()
_UNSEEN: Final[frozenset[str]] = frozenset({"(not looked up yet)"})
_WITCH_HOOKS: Final[dict[str, frozenset[str] | None]] = {}
"""Per witch name, the hooks its effect overrides (None: no effect), as they are looked up."""
_TOKEN_HOOKS: Final[dict[str, frozenset[str]]] = {}
"""Per token name, the hooks its token overrides, as they are looked up."""
_RULE_HOOKS: Final[dict[str, frozenset[str]]] = {}
"""Per modifier key, the hooks its rule overrides, as they are looked up."""


def own_hooks(card: Card) -> frozenset[str]:
    """The hooks a card's own behaviour (``effect_of(card) or token_of(card)``) overrides; none for a plain creature.
    Read from a dict of this module's, not from the (interpreted) effect's attribute: asked at every hook point."""
    witch = card.witch
    if witch:
        hooks = _WITCH_HOOKS.get(witch, _UNSEEN)
        if hooks is _UNSEEN:
            effect = effect_of(card)
            hooks = _WITCH_HOOKS[witch] = None if effect is None else effect.overrides
        if hooks is not None:
            return hooks
    name = card.token
    if not name:
        return _NO_HOOKS
    found = _TOKEN_HOOKS.get(name)
    if found is None:
        token = _TOKENS.get(name)
        found = _TOKEN_HOOKS[name] = _NO_HOOKS if token is None else token.overrides
    return found


_RESTRICTING: Final = frozenset({"playable", "blocks"})


def _restricted(modifiers: Sequence[Modifier], hand: Sequence[Card]) -> bool:
    """Whether anything but cooldowns and bans may keep a card of ``hand`` from being played: a rule in play
    that overrides ``can_play``, or a witch or token in the hand that restricts what may be played."""
    for mod in modifiers:
        if "can_play" in _rule_hooks(mod):
            return True
    for card in hand:
        if (card.witch is not None or card.token is not None) and not _RESTRICTING.isdisjoint(own_hooks(card)):
            return True
    return False


def held_back(card: Card, turn: int) -> str | None:
    """Why a card may not be played on ``turn`` whatever else is in play: a ban or a cooldown (None: neither)."""
    if card.banned:
        return "may never be played"
    if card.ready_turn > turn:
        return f"is on cooldown for {card.cooldown(turn)} turn(s)"
    return None


def playable_reasons(state: State, seat: Seat) -> list[str | None]:
    """Per card of ``seat``'s hand, why it may not be played now (None: it may), as :meth:`Table.reasons`; without
    a table when nothing but cooldowns and bans can restrict the hand (the common case)."""
    hand = state.hands[seat]
    if _restricted(state.modifiers, hand):
        return Table(state).reasons(seat)
    turn = state.turn
    return [None if not card.banned and card.ready_turn <= turn else held_back(card, turn) for card in hand]


def _rule_hooks(mod: Modifier) -> frozenset[str]:
    """The hooks the rule behind a modifier overrides."""
    key = mod.key
    found = _RULE_HOOKS.get(key)
    if found is None:
        found = _RULE_HOOKS[key] = _RULES[key].overrides
    return found


_RARITIES: Final = tuple(Rarity)
_RARITY_WEIGHTS: Final = tuple(r.weight for r in _RARITIES)
assert all(spec.key for spec in CATALOGUE)  # (so excluding no key excludes nobody)

_POWER_DECIDE: Final = ("power", "decide")
_DAMAGE: Final = ("damage",)
_AFTER_FIGHT: Final = ("after_fight",)


def _any_in(hooks: Sequence[str], overridden: frozenset[str]) -> bool:
    """Whether any of a few ``hooks`` is ``overridden`` (a loop: a set's methods are generic calls when compiled)."""
    for hook in hooks:
        if hook in overridden:
            return True
    return False


Settled = tuple[list[Card], dict[str, int], dict[PowerType, int], int]
"""A hand as a rally check left it (nothing in it can rally), with its cards counted by kin, by power type, and
its witches."""
SETTLED: Final = "settled hands"
"""The key under which a state's ``memo`` keeps its :data:`Settled` hands."""
COUNTED: Final = "counters"
"""The key under which a state's ``memo`` keeps its counters as the table it was frozen from held them: the dict and
its keys in order. A table copies the dict faster than it makes one from the pairs, and while no counter is new the
order is known without sorting."""


def rally_bonus(tribe_rally: bool, type_rally: bool) -> int:
    return 6 if tribe_rally and type_rally else 2 if tribe_rally or type_rally else 0


class Table:
    """The match being changed. Effects read and change it only through these attributes and methods."""

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
        self.modifiers = list(state.modifiers)
        counted: tuple[dict[str, int], list[str]] | None = state.memo.get(COUNTED)
        self.counters = dict(state.counters) if counted is None else counted[0].copy()
        """Changed only through :meth:`bump` and :meth:`set_count`: a counter, once there, stays (``freeze`` relies
        on it: while there are as many counters as sorted keys, the keys are the same)."""
        self.counter_keys: list[str] | None = None if counted is None else counted[1]
        self.slain = list(state.slain)
        self.removed = list(state.removed)
        self.pending = state.pending
        self.in_play: list[Card | None] | None = list(state.in_play) if state.in_play is not None else None
        self.cast = list(state.cast)
        self.sacks = [list(state.sacks[0]), list(state.sacks[1])]
        self.events: list[Event] = []
        self.at_once = 0  # > 0 inside :meth:`together`: HP changes there count as one moment
        self.settled: list[Settled | None] = list(state.memo.get(SETTLED, (None, None)))
        """Per seat, the hand as the last rally check left it, and its group sizes (see :meth:`rally`)."""

    def freeze(self, version: int) -> State:
        frozen = State(
            options=self.state.options,
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
            last_draw_turn=None if self.deck else self.last_draw_turn,  # a deck holding cards is not drawn out
            witch_rallied=(self.witch_rallied[0], self.witch_rallied[1]),
            last_duel=self.last_duel,
            outcome=self.outcome,
            modifiers=tuple(self.modifiers),
            counters=self._counted(),
            slain=tuple(self.slain),
            removed=tuple(self.removed),
            pending=self.pending,
            in_play=None if self.in_play is None else (self.in_play[0], self.in_play[1]),
            cast=(self.cast[0], self.cast[1]),
            sacks=(tuple(self.sacks[0]), tuple(self.sacks[1])),
        )
        frozen.memo[SETTLED] = (self.settled[0], self.settled[1])
        keys = self.counter_keys
        assert keys is not None  # (set by _counted)
        frozen.memo[COUNTED] = (self.counters, keys)  # (a table is not changed once frozen)
        return frozen

    def _counted(self) -> tuple[tuple[str, int], ...]:
        """The counters as the state keeps them: pairs in the order of their names."""
        counters = self.counters
        keys = self.counter_keys
        if keys is None or len(keys) != len(counters):
            keys = self.counter_keys = sorted(counters)
        return tuple([(key, counters[key]) for key in keys])

    # == randomness =========================================================

    def randint(self, low: int, high: int) -> int:
        value, self.rng = self.rng.between(low, high)
        return value

    def pick(self, items: Sequence[T]) -> T:
        value, self.rng = self.rng.choice(items)
        return value

    def sample(self, items: Sequence[T], n: int) -> list[T]:
        """Up to ``n`` distinct items at random, in random order."""
        shuffled, self.rng = self.rng.shuffled(items)
        return list(shuffled[:n])

    def shuffle(self, items: Sequence[T]) -> list[T]:
        shuffled, self.rng = self.rng.shuffled(items)
        return list(shuffled)

    def chance(self, percent: int) -> bool:
        return self.randint(1, 100) <= percent

    # == counters and modifiers =============================================

    def count(self, name: str) -> int:
        return self.counters.get(name, 0)

    def bump(self, name: str, by: int = 1) -> int:
        self.counters[name] = self.counters.get(name, 0) + by
        return self.counters[name]

    def set_count(self, name: str, value: int) -> None:
        self.counters[name] = value

    def add_modifier(self, key: str, owner: Seat, text: str, *, value: int = 0, until: int = 0, data: str = "",
                     hidden: bool = False) -> Modifier:
        """Put a lasting rule in play (``until``: its last turn; 0 for the rest of the game)."""
        if key not in RULES:
            raise KeyError(f"no rule registered for modifier {key!r}")
        mod = Modifier(key, owner, value, until, data, text, hidden)
        self.modifiers.append(mod)
        if not hidden:
            self.emit("modifier", text, owner=owner, modifier=key)
        else:
            self.emit("modifier", "A hidden effect is in play.", {owner: {"text": text}}, owner=owner)
        return mod

    def drop_modifier(self, mod: Modifier) -> None:
        if mod in self.modifiers:
            self.modifiers.remove(mod)

    def has_modifier(self, key: str, owner: Seat | None = None) -> bool:
        return any(m.key == key and (owner is None or m.owner == owner) for m in self.modifiers)

    def modifiers_of(self, key: str) -> list[Modifier]:
        return [m for m in self.modifiers if m.key == key]

    # == hook sources ======================================================

    def rule_sources(self, hook: str) -> Iterator[tuple[Hooks[Table], Source]]:
        """The modifiers in play whose rule overrides ``hook``, each as it comes (one removed meanwhile is
        skipped); most turns have none, and most rules override one or two hooks."""
        for mod in self.modifiers:
            if hook in _rule_hooks(mod):
                return self._rule_sources((hook,))
        return iter(())

    def _rule_sources(self, hooks: Sequence[str]) -> Iterator[tuple[Hooks[Table], Source]]:
        for mod in list(self.modifiers):
            if _any_in(hooks, _rule_hooks(mod)) and self._in_play(mod):
                yield _RULES[mod.key], Source(mod.owner, None, mod)

    def _in_play(self, mod: Modifier) -> bool:
        """``mod in self.modifiers``, looking for the modifier itself first (an equal one is looked for only when it
        has gone: the equality of modifiers is interpreted code)."""
        modifiers = self.modifiers
        for held in modifiers:
            if held is mod:
                return True
        return mod in modifiers

    def fight_sources(self, cards: Sequence[Card | None], hooks: Sequence[str]) -> Iterator[tuple[Hooks[Table], Source]]:
        """The modifiers in play, then the fighting cards' own effects and tokens: those overriding any of ``hooks``."""
        if self.modifiers:
            yield from self._rule_sources(hooks)
        for seat, card in enumerate(cards):
            if card is None or (card.witch is None and card.token is None) or not _any_in(hooks, own_hooks(card)):
                continue
            found: Hooks[Table] | None = effect_of(card) or token_of(card)
            if found is not None:
                yield found, Source(seat, card)

    def held_sources(self, hook: str) -> Iterator[tuple[Effect[Table] | Token[Table], Source]]:
        """Witches and tokens in hands that override ``hook`` (a snapshot: they may leave while iterating)."""
        for hand in self.hands:
            for card in hand:
                if (card.witch is not None or card.token is not None) and hook in own_hooks(card):
                    return self._held_sources(hook)
        return iter(())  # none in either hand: no hook can run, so no hand can change meanwhile

    def _held_sources(self, hook: str) -> Iterator[tuple[Effect[Table] | Token[Table], Source]]:
        for seat in (0, 1):
            for card in list(self.hands[seat]):
                if (card.witch is None and card.token is None) or hook not in own_hooks(card):
                    continue
                found: Effect[Table] | Token[Table] | None = effect_of(card) or token_of(card)
                if found is not None:
                    yield found, Source(seat, card)

    # == events =============================================================

    def emit(self, kind: str, text: str, secret: Mapping[Seat, Mapping[str, Any]] | None = None,
             private: bool = False, **public: Any) -> None:
        self.events.append(Event(kind, {"text": text, **public}, {} if secret is None else dict(secret), private))

    def event(self, kind: str, public: dict[str, Any], secret: dict[Seat, Mapping[str, Any]] | None = None) -> None:
        """As :meth:`emit`, the public part (``text`` first) and the secret one made by the caller: the per-turn events
        are made this way, without a dict of keyword arguments to merge and a copy of the secret part."""
        self.events.append(Event(kind, public, {} if secret is None else secret, False))

    def tell(self, seat: Seat, text: str, **fields: Any) -> None:
        """An event for one seat alone (what an effect lets only that player see); its public part holds nothing."""
        self.events.append(Event("secret", {"text": ""}, {seat: {"text": text, **fields}}, private=True))

    # == cards ==============================================================

    def uid(self) -> int:
        self.next_uid += 1
        return self.next_uid - 1

    def new_creature(self, tribe: Tribe | None = None, level: int | None = None,
                     ptype: PowerType | None = None, *, random_type: bool = True) -> Card:
        """A made creature: random Tribe, level 1-6 and Power Type unless given."""
        tribe = tribe if tribe is not None else self.pick(CREATURE_TRIBES)
        level = level if level is not None else self.randint(1, 6)
        if ptype is None and random_type:
            ptype = self.pick(POWER_TYPES)
        return Card.creature(self.uid(), tribe, level, ptype)

    def new_token(self, name: str, level: int, base: int, ptype: PowerType | None = None,
                  tribe: Tribe | None = None) -> Card:
        """A made-up card (Wraith, Scarecrow, Raven ...) whose behaviour is the token registered by ``name``."""
        return Card(self.uid(), CardKind.CREATURE, level, base, tribe=tribe, ptype=ptype, token=name)

    def new_witch(self, spec: WitchSpec, level: int | None = None) -> Card | None:
        """A witch by catalogue entry; None while witches are banned from the game."""
        if self.count("witches_banned"):
            return None
        if level is None:
            level = self.randint(*spec.rarity.levels)
        return Card.new_witch(self.uid(), spec.name, level)

    def random_witch(self, rarity: Rarity | None = None, exclude: str = "") -> Card | None:
        """A random witch: rarity by weights 3:2:1 unless given; None while witches are banned."""
        if self.count("witches_banned"):
            return None
        if rarity is None:
            chosen, self.rng = self.rng.weighted(_RARITIES, _RARITY_WEIGHTS)
        else:
            chosen = rarity
        everyone = by_rarity(chosen)
        choices = [s for s in everyone if s.key != exclude] or everyone if exclude else everyone
        return self.new_witch(self.pick(choices))

    @staticmethod
    def catalogue() -> tuple[WitchSpec, ...]:
        return CATALOGUE

    def find(self, card: Card) -> tuple[Seat, int] | None:
        """Where a card (by uid) sits in the hands."""
        for seat in (0, 1):
            for i, held in enumerate(self.hands[seat]):
                if held.uid == card.uid:
                    return seat, i
        return None

    def update(self, card: Card) -> None:
        """Put a changed card back where the card with its uid is (hand, deck, in play)."""
        for zone in (self.hands[0], self.hands[1], self.deck):
            for i, held in enumerate(zone):
                if held.uid == card.uid:
                    zone[i] = card
                    return
        if self.in_play is not None:
            for i, fighting in enumerate(self.in_play):
                if fighting is not None and fighting.uid == card.uid:
                    self.in_play[i] = card

    def creatures(self, seat: Seat) -> list[Card]:
        return [c for c in self.hands[seat] if not c.is_witch]

    def take(self, seat: Seat, card: Card) -> Card:
        """Take a card (by uid) out of ``seat``'s hand; the caller puts it somewhere."""
        for i, held in enumerate(self.hands[seat]):
            if held.uid == card.uid:
                return self.hands[seat].pop(i)
        raise ValueError(f"card {card.notation()} is not in {who(seat)}'s hand")

    def to_discard(self, seat: Seat, card: Card, why: str = "discarded") -> None:
        """Discard a card from a hand, face up (everyone sees it)."""
        taken = self.take(seat, card)
        self.discard.append(taken.fresh())
        shown = taken.notation()
        self.emit("discard", f"{who(seat)}'s {shown} is {why}.", seat=seat, card=shown)

    def remove(self, card: Card, why: str = "removed from the game") -> None:
        """Remove a card from the game wherever it is (hand, deck, discard)."""
        for zone in (self.hands[0], self.hands[1], self.deck, self.discard):
            for i, held in enumerate(zone):
                if held.uid == card.uid:
                    zone.pop(i)
                    self.removed.append(held)
                    return
        self.removed.append(card)

    def to_deck(self, card: Card, where: str = "random") -> None:
        """Put a card into the deck: ``top``, ``bottom`` or a random place."""
        if where == "top":
            self.deck.insert(0, card)
        elif where == "bottom":
            self.deck.append(card)
        else:
            self.deck.insert(self.randint(0, len(self.deck)), card)

    def shuffle_into_deck(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.to_deck(card.fresh())

    def enter(self, seat: Seat, card: Card) -> Card:
        """A card enters a hand (after the ``gained`` hooks); rallies are re-checked. No event."""
        for hooks, src in self.rule_sources("gained"):
            card = hooks.gained(self, src, seat, card)
        self.hands[seat].append(card)
        self.rally(seat)
        return card

    def gain(self, seat: Seat, card: Card | None, why: str = "gains a card", *, public: bool = False,
             kind: str = "gain") -> Card | None:
        """Put a card into a hand; only its holder learns which (unless ``public``)."""
        if card is None:
            return None
        card = self.enter(seat, card)
        shown = card.notation(self.turn, marks=not public)
        if public:
            self.emit(kind, f"{who(seat)} {why}: {shown}.", seat=seat, card=shown)
        else:
            self.emit(kind, f"{who(seat)} {why}.", {seat: {"text": f"You {_you(why)}: {shown}.", "card": shown}},
                      seat=seat)
        return card

    def draw(self, seat: Seat, n: int = 1, reason: str = "draws a card") -> int:
        """Draw ``n`` cards from the top of the deck; only the drawer learns which. Returns how many were drawn."""
        drawn = 0
        for _ in range(n):
            if not self.deck or self.outcome is not None:
                break
            card: Card | None = self.deck.pop(0)
            if not self.deck:
                self.last_draw_turn = self.turn
            drawn += 1
            for hooks, src in self.rule_sources("drawn"):
                if card is None:
                    break
                card = hooks.drawn(self, src, seat, card)
            if card is None:
                self.event("draw", {"text": f"{who(seat)} {reason}.", "seat": seat})
                continue
            card = self.enter(seat, card)
            shown = card.notation(self.turn, marks=True)
            self.event("draw", {"text": f"{who(seat)} {reason}.", "seat": seat},
                       {seat: {"text": f"You draw {shown}.", "card": shown}})
        return drawn

    def replace_card(self, seat: Seat, old: Card, new: Card, why: str) -> None:
        """Swap a card in a hand for another; only the holder learns which (the other seat is told that one changed)."""
        self.take(seat, old)
        self.removed.append(old)
        self.hands[seat].append(new)
        self.emit("transform", f"A card in {who(seat)}'s hand {why}.",
                  {seat: {"text": f"Your {old.notation(marks=True)} {why}: now {new.notation(marks=True)}.",
                          "card": new.notation(marks=True)}},
                  seat=seat)
        self.rally(seat)

    # == HP =================================================================

    def damage(self, seat: Seat, amount: int, why: str, *, kind: str = "effect", card: Card | None = None,
               winner_card: Card | None = None, fight_cards: Sequence[Card | None] = ()) -> int:
        """Damage an Empire after every modifier has had its say (base, times, plus, halving); returns what was dealt.

        An Empire that falls to 0 HP or less loses there and then (see :meth:`knockout`); once the match is over
        nothing deals damage any more."""
        if self.outcome is not None:
            return 0
        hit = Hit(seat, amount, kind, card, winner_card)
        for hooks, src in self.fight_sources(fight_cards, _DAMAGE) if fight_cards else self.rule_sources("damage"):
            hooks.damage(self, src, hit)
        total = max(0, hit.total)
        if total <= 0:
            if amount > 0:
                self.event("damage", {"text": f"{who(seat)}'s Empire takes no damage ({why}).", "seat": seat,
                                      "amount": 0, "hp": self.hp[seat]})
            return 0
        before = self.hp[seat]
        self.hp[seat] -= total
        self.event("damage", {"text": f"{who(seat)}'s Empire takes {total} damage ({why}); {self.hp[seat]} HP left.",
                              "seat": seat, "amount": total, "hp": self.hp[seat]})
        if before > 0 >= self.hp[seat]:
            # the moment it fell: falls inside one ``together`` block share theirs
            self.set_count(f"fell:{seat}", self.count("falls") + 1 if self.at_once else self.bump("falls"))
        if not self.at_once and not self.count("mayhem"):
            self.knockout()
        return total

    @contextmanager
    def together(self) -> Iterator[None]:
        """HP changes that happen at one moment (an effect hitting both Empires at once): a knockout is checked
        after all of them, and two Empires falling in them fall together."""
        self.at_once += 1
        try:
            yield
        finally:
            self.at_once -= 1
            if not self.at_once:
                self.bump("falls")
                if not self.count("mayhem"):
                    self.knockout()

    def heal(self, seat: Seat, amount: int, why: str) -> None:
        if amount <= 0 or self.outcome is not None:
            return
        self.hp[seat] += amount
        if self.hp[seat] > 0:
            self.set_count(f"fell:{seat}", 0)
        self.emit("heal", f"{who(seat)}'s Empire gains {amount} HP ({why}); {self.hp[seat]} HP.",
                  seat=seat, amount=amount, hp=self.hp[seat])

    def can_lose(self, seat: Seat) -> bool:
        return all(hooks.can_lose(self, src, seat) for hooks, src in self.rule_sources("can_lose"))

    def defeat(self, seat: Seat, why: str) -> None:
        """``seat`` loses at once (an Empire destroyed), unless something says it cannot lose now."""
        if self.outcome is not None:
            return
        if not self.can_lose(seat):
            self.emit("spared", f"{who(seat)} cannot lose yet: {why} has no effect.", seat=seat)
            return
        self.finish(1 - seat, OutcomeReason.KNOCKOUT, why)

    # == questions ==========================================================

    def ask(self, seat: Seat, src: Source, prompt: str, options: Sequence[str], memo: Sequence[int] = (),
            timeout: int | None = None) -> None:
        """Put a question to ``seat``; the turn waits for the answer (first option on time-out).

        The asking effect's ``answer`` hook receives the chosen index. Only ``seat`` sees the options.
        """
        if self.outcome is not None:
            return  # the match ended during the asking effect: nothing is left to choose
        spec = spec_of(src.card) if src.card else None
        key = spec.key if spec else ""
        limit = self.state.options.answer_seconds if timeout is None else timeout
        self.pending = Pending(seat, key, prompt, tuple(options), tuple(memo), limit, src.card)
        self.emit("question", f"{who(seat)} must choose.", {seat: {"text": prompt, "options": list(options)}},
                  seat=seat)

    # == playability ========================================================

    def playable_reason(self, seat: Seat, card: Card,
                        blockers: Sequence[tuple[Effect[Table], Card]] | None = None) -> str | None:
        """Why ``seat`` may not play ``card`` now (None: it may). ``blockers``: the hand's held witches that
        restrict it, when the caller has already collected them."""
        reason = held_back(card, self.turn)
        if reason:
            return reason
        if card.witch is not None or card.token is not None:
            own: Effect[Table] | Token[Table] | None = effect_of(card) or token_of(card)
            if own is not None and "playable" in own_hooks(card):
                reason = own.playable(self, Source(seat, card))
                if reason:
                    return reason
        for hooks, src in self.rule_sources("can_play"):
            reason = hooks.can_play(self, src, seat, card)
            if reason:
                return reason
        for eff, held in self.blockers(seat) if blockers is None else blockers:
            if held.uid != card.uid:
                reason = eff.blocks(self, Source(seat, held), card)
                if reason:
                    return reason
        return None

    def blockers(self, seat: Seat) -> list[tuple[Effect[Table], Card]]:
        """The witches in ``seat``'s hand that restrict what else it may play."""
        return [(eff, held) for held in self.hands[seat] if (eff := effect_of(held)) is not None and "blocks" in own_hooks(held)]

    def reasons(self, seat: Seat) -> list[str | None]:
        """Per card of ``seat``'s hand, why it may not be played now (None: it may)."""
        blockers = self.blockers(seat)
        return [self.playable_reason(seat, c, blockers) for c in self.hands[seat]]

    def can_play_any(self, seat: Seat) -> bool:
        """Whether ``seat`` may play any card of its hand now (as ``None in self.reasons(seat)``)."""
        hand = self.hands[seat]
        if not _restricted(self.modifiers, hand):
            turn = self.turn
            return any(not card.banned and card.ready_turn <= turn for card in hand)
        blockers = self.blockers(seat)
        return any(self.playable_reason(seat, c, blockers) is None for c in hand)

    # == rallies ============================================================

    def rally(self, seat: Seat) -> None:
        """Re-check rallies in one hand: +2 levels for a Tribe or Power rally, +6 for both, once per card.

        A check leaves the hand settled: nothing in it can rally until a group grows. So when the hand is the one
        the last check left (compared by value) plus one card that makes no group big enough, nothing is
        counted again (most cards entering a hand)."""
        hand = self.hands[seat]
        if self._still_settled(seat, hand):
            return
        witch_kind = CardKind.WITCH
        while True:
            kins: dict[str, int] = {}  # by kin: a Tribe (a str enum, equal to its value) or a token's name
            types: dict[PowerType, int] = {}
            witches = 0
            big = False  # whether any group (a kin, a type, the witches) is big enough to rally
            for card in hand:  # (the per-turn path: attributes read directly, not through properties)
                if card.banned or (card.tags and card.has("no_rally")):
                    continue
                if card.kind is witch_kind:
                    witches += 1
                    continue
                kin = card.tribe if card.tribe is not None else card.token
                if kin is not None:
                    n = kins[kin] = kins.get(kin, 0) + 1
                    big = big or n >= RALLY_SIZE
                ptype = card.ptype
                if ptype is not None:
                    n = types[ptype] = types.get(ptype, 0) + 1
                    big = big or n >= RALLY_SIZE
            if not big and witches < RALLY_SIZE:
                self.settled[seat] = (hand[:], kins, types, witches)
                return  # nothing can rally
            upgrades: list[str] = []
            for i, card in enumerate(hand):
                if card.banned or (card.tags and card.has("no_rally")):
                    continue
                if card.kind is CardKind.WITCH:
                    if witches >= RALLY_SIZE and not card.witch_rally:
                        hand[i] = card.rallied(card.level + 2, card.tribe_rally, card.type_rally, True)
                        upgrades.append(f"{card.notation(marks=True)} → Lvl.{card.level + 2}")
                    continue
                if card.tribe_rally and card.type_rally:
                    continue  # rallied both ways: nothing more to gain
                kin = card.tribe if card.tribe is not None else card.token
                tribe_rally = card.tribe_rally or (kin is not None and kins.get(kin, 0) >= RALLY_SIZE)
                type_rally = card.type_rally or (card.ptype is not None and types.get(card.ptype, 0) >= RALLY_SIZE)
                if tribe_rally != card.tribe_rally or type_rally != card.type_rally:
                    bonus = rally_bonus(tribe_rally, type_rally) - rally_bonus(card.tribe_rally, card.type_rally)
                    hand[i] = card.rallied(card.level + bonus, tribe_rally, type_rally, card.witch_rally)
                    upgrades.append(f"{card.notation(marks=True)} → Lvl.{card.level + bonus}")
            if upgrades:
                self.set_count(f"rallied:{seat}", 1)
                self.emit("rally", f"{who(seat)} forms a Rally.", {seat: {"text": "Rally! " + "; ".join(upgrades)}},
                          private=True, seat=seat)
            if witches >= RALLY_SIZE and not self.witch_rallied[seat]:
                self.witch_rallied[seat] = True
                bonus_witch = self.random_witch(Rarity.SINFUL)
                if bonus_witch is not None:
                    hand.append(bonus_witch)
                    self.emit("gain", f"{who(seat)}'s first Witch Rally grants a Sinful Witch.",
                              {seat: {"text": f"Your first Witch Rally grants {bonus_witch.notation()}.",
                                      "card": bonus_witch.notation()}}, private=True, seat=seat)
                    continue
            self.settled[seat] = (hand[:], kins, types, witches)
            return

    def _leaves_settled(self, seat: Seat, index: int) -> None:
        """The card at ``index`` is about to leave ``seat``'s hand: if the hand is the one the last rally check
        left, the record follows (a settled hand stays settled when a card leaves: groups only shrink)."""
        settled = self.settled[seat]
        hand = self.hands[seat]
        if settled is None or settled[0] != hand:
            return
        cards, kins, types, witches = settled
        card = hand[index]
        if card.banned or (card.tags and card.has("no_rally")):
            pass  # counted in no group
        elif card.kind is CardKind.WITCH:
            witches -= 1
        else:
            kin = card.tribe if card.tribe is not None else card.token
            if kin is not None:
                kins = {**kins, kin: kins[kin] - 1}
            if card.ptype is not None:
                types = {**types, card.ptype: types[card.ptype] - 1}
        self.settled[seat] = (cards[:index] + cards[index + 1:], kins, types, witches)

    def _still_settled(self, seat: Seat, hand: list[Card]) -> bool:
        """Whether ``hand`` is the hand the last rally check left plus one card that makes no group big enough to
        rally (then the record is brought up to date)."""
        settled = self.settled[seat]
        if settled is None:
            return False
        cards, kins, types, witches = settled
        n = len(cards)
        if len(hand) != n + 1 or hand[:n] != cards:
            return False
        card = hand[n]
        if card.banned or (card.tags and card.has("no_rally")):
            pass  # counts in no group
        elif card.kind is CardKind.WITCH:
            witches += 1
            if witches >= RALLY_SIZE:
                return False
        else:
            kin = card.tribe if card.tribe is not None else card.token
            if kin is not None:
                size = kins.get(kin, 0) + 1
                if size >= RALLY_SIZE:
                    return False
                kins = {**kins, kin: size}
            ptype = card.ptype
            if ptype is not None:
                size = types.get(ptype, 0) + 1
                if size >= RALLY_SIZE:
                    return False
                types = {**types, ptype: size}
        self.settled[seat] = (hand[:], kins, types, witches)
        return True

    # == the turn ===========================================================

    @property
    def over(self) -> bool:
        """Whether the match has ended (a knockout may come from any step that changes HP)."""
        return self.outcome is not None

    @property
    def final_duel(self) -> bool:
        """True in the turn after the one in which the deck ran out, while it is still empty.

        One rule for every effect that puts cards into the deck: a deck that holds cards again is not fully
        drawn, whenever they came (even during the final duel); the final duel and MAYHEM wait until it is
        empty again."""
        return self.last_draw_turn is not None and self.last_draw_turn < self.turn and not self.deck

    def start_turn(self) -> None:
        """Next turn: start-of-turn effects, both draw (first drawer alternating), then the sealed duel opens."""
        self.turn += 1
        self.first_drawer = 1 - self.first_drawer
        self.event("turn", {"text": f"Turn {self.turn}: {who(self.first_drawer)} draws first.", "turn": self.turn,
                            "first_drawer": self.first_drawer})
        for hooks, src in self.rule_sources("turn_start"):
            hooks.turn_start(self, src)
        for held, src in self.held_sources("held_start"):
            if src.card is not None and self.find(src.card) is not None:
                held.held_start(self, Source(src.owner, self._current(src.card)))
        if self.outcome is not None:
            return
        if self.deck:
            self.last_draw_turn = None  # refilled: drawing goes on
        elif self.last_draw_turn is None:
            self.last_draw_turn = self.turn - 1  # emptied last turn without a draw (destroyed, shuffled away ...)
        if not self.final_duel:
            for seat in (self.first_drawer, 1 - self.first_drawer):
                if all(h.draws(self, s, seat) for h, s in self.rule_sources("draws")):
                    self.draw(seat)
            if self.over:
                return  # a draw knocked an Empire out (The Witch of Tantalus' thirst)
        if self.final_duel:
            self.emit("final_duel", "The deck is empty: one final duel, then MAYHEM!")
        self.open_duel()

    def _current(self, card: Card) -> Card:
        found = self.find(card)
        return self.hands[found[0]][found[1]] if found else card

    def open_duel(self) -> None:
        """Seal forced plays and passes; resolve at once if nothing is left to choose."""
        self.sealed = [None, None]
        for seat in (0, 1):
            for hooks, src in list(self.rule_sources("forced")) + list(self.held_sources("forced")):
                forced = hooks.forced(self, src, seat)
                if forced is not None and 0 <= forced < len(self.hands[seat]):
                    self.sealed[seat] = forced
                    self.emit("forced", f"{who(seat)} must play a card this turn.", seat=seat)
                    break
            if self.sealed[seat] is None and not self.can_play_any(seat):
                self.sealed[seat] = PASS
                self.emit("pass", f"{who(seat)} has no playable card and passes.", seat=seat)
        if self.sealed[0] is not None and self.sealed[1] is not None:
            self.reveal()
            self.resolve()

    def reveal(self) -> None:
        """Both seats have sealed: take the cards out of the hands and show them together."""
        played: list[Card | None] = [None, None]
        for seat in (0, 1):
            slot = self.sealed[seat]
            if slot is not None and slot != PASS:
                self._leaves_settled(seat, slot)
                played[seat] = self.hands[seat].pop(slot)
        self.sealed = [None, None]
        self.in_play = played
        self.cast = [not (c is not None and c.is_witch) for c in played]
        shown = [c.notation() if c else "pass" for c in played]
        self.event("reveal", {"text": f"Revealed: {shown[0]} vs {shown[1]}.", "cards": shown})
        passed = played[0] is None or played[1] is None  # (not ``None in``: that asks each card's __eq__)
        for seat, card in enumerate(played):
            if card is not None:
                for hooks, src in self.rule_sources("played"):
                    if hooks.counts_passed_plays or not passed:
                        hooks.played(self, src, seat, card)

    def resolve(self) -> None:
        """Cast the witches (first drawer first), fight, end the turn; stop wherever a question is asked."""
        assert self.in_play is not None
        passed = self.in_play[0] is None or self.in_play[1] is None  # a pass cancels everything: the other card casts nothing
        for seat in (self.first_drawer, 1 - self.first_drawer):
            card = self.in_play[seat]
            if self.cast[seat] or card is None or passed:
                self.cast[seat] = True
                continue
            self.cast[seat] = True
            eff = effect_of(card)
            self.emit("witch", f"{who(seat)}'s {card.witch} casts: {spec_text(card)}", seat=seat, witch=card.witch)
            if eff is not None:
                eff.cast(self, Source(seat, card))
            if self.pending is not None or self.outcome is not None:
                return
        played = self.in_play
        self.in_play = None
        self.cast = [False, False]
        if self.outcome is None:
            self.fight(played[0], played[1])
        self.after_duel()

    def answer(self, choice: int) -> None:
        """The pending question is answered: the asking effect goes on, then the turn does."""
        pending = self.pending
        assert pending is not None
        self.pending = None
        self.emit("answer", f"{who(pending.seat)} has chosen.",
                  {pending.seat: {"text": f"You chose: {pending.options[choice]}."}}, seat=pending.seat)
        eff = _EFFECTS.get(pending.key)
        if eff is not None:
            eff.answer(self, Source(pending.seat, pending.caster), pending, choice)
        if self.waiting():  # (a method: the hook may have asked again, which a type checker cannot see)
            return
        if self.in_play is not None:
            self.resolve()

    def waiting(self) -> bool:
        """Whether the turn cannot go on now: a question is pending, or the match is over."""
        return self.pending is not None or self.outcome is not None

    def after_duel(self) -> None:
        if self.outcome is None:
            self.knockout()
        if self.outcome is None:
            self.end_turn()
        if self.outcome is None:
            self.knockout()
        if self.outcome is None:
            if self.final_duel:
                self.mayhem()
            else:
                self.start_turn()

    def end_turn(self) -> None:
        for held, src in self.held_sources("held_end"):
            if src.card is not None and self.find(src.card) is not None:
                held.held_end(self, Source(src.owner, self._current(src.card)))
        for hooks, src in self.rule_sources("turn_end"):
            hooks.turn_end(self, src)
        self.modifiers = [m for m in self.modifiers if not m.until or m.until > self.turn]

    # == the fight ==========================================================

    def fight(self, a: Card | None, b: Card | None) -> None:
        cards = (a, b)
        if a is None or b is None:
            for seat, card in enumerate(cards):
                if card is not None:
                    self.back_to_hand(seat, card.fresh())
                    self.emit("return", f"{who(seat)}'s {card.notation()} meets no opponent and returns to hand.",
                              seat=seat)
            self.record(cards, (None, None), None, (0, 0), "No duel: a player passed.")
            return
        fight = Fight([a, b], [a.power_against(b), b.power_against(a)])
        sources = list(self.fight_sources(cards, _POWER_DECIDE))
        for seat in (0, 1):
            for hooks, src in sources:
                fight.powers[seat] = hooks.power(self, src, fight, seat, fight.powers[seat])
        p0, p1 = fight.powers
        fight.winner = None if p0 == p1 else (0 if p0 > p1 else 1)
        witches = (a.is_witch, b.is_witch)
        if witches.count(True) == 1:
            ws = witches.index(True)
            if fight.winner is None:
                fight.winner = ws  # a tie is the witch's: it flees
            fight.returns[1 - ws] = True  # the creature that fought a witch goes back, no cooldown
        elif fight.winner is None and not any(witches):
            fight.returns = [True, True]
            fight.cooldown = [1, 1]
        for hooks, src in sources:
            hooks.decide(self, src, fight)
        self.apply_fight(fight)

    def apply_fight(self, fight: Fight) -> None:
        """Damage, statistics, where each card goes, Tribal Clash and Bizarre Victory, then the witches' triggers."""
        a, b = fight.cards
        cards = (a, b)
        witches = (a.is_witch, b.is_witch)
        winner = fight.winner if fight.fought else None
        if winner is not None:
            loser = 1 - winner
            lost, won = cards[loser], cards[winner]
            if not (won.is_witch and not lost.is_witch):
                fight.damage[loser] = lost.base
        for seat, card in enumerate(cards):
            if fight.removed[seat]:
                self.removed.append(card)
            elif fight.returns[seat]:
                ready = self.turn + 1 + fight.cooldown[seat] if fight.cooldown[seat] else 0
                self.back_to_hand(seat, card.ready_at(ready))
            else:
                self.discard.append(card.fresh())
        self.record(cards, (fight.powers[0], fight.powers[1]), winner, (fight.damage[0], fight.damage[1]),
                    fight.summary or _summary(fight))
        if winner is not None:
            loser = 1 - winner
            if fight.damage[loser]:
                self.damage(loser, fight.damage[loser], "lost the duel", kind="duel", card=cards[loser],
                            winner_card=cards[winner], fight_cards=cards)
            self.tally(fight)
            if self.outcome is not None:
                return  # knocked out: the match ends there
        for hooks, src in self.fight_sources(cards, _AFTER_FIGHT):
            hooks.after_fight(self, src, fight)
        if winner is not None and not any(witches):
            won, lost = cards[winner], cards[1 - winner]
            if won.kin is not None and won.kin == lost.kin:
                self.emit("tribal_clash", f"Tribal Clash! {who(winner)} draws a card.", seat=winner)
                self.draw(winner, reason="draws a card for the Tribal Clash")
            if beats(lost.ptype, won.ptype):
                self.gain(winner, self.random_witch(), "gains a random Witch (Bizarre Victory!)",
                          kind="bizarre_victory")
        self.witch_results(fight)

    def witch_results(self, fight: Fight) -> None:
        """Each fighting witch's own ``escaped``/``died`` trigger."""
        for seat, card in enumerate(fight.cards):
            eff = effect_of(card)
            if eff is None or not card.is_witch:
                continue
            if fight.winner == 1 - seat:
                eff.died(self, Source(seat, card), fight)
            else:
                self.bump(f"escaped:{seat}:{card.witch}")
                eff.escaped(self, Source(seat, card), fight)
            if self.outcome is not None:
                return

    def tally(self, fight: Fight) -> None:
        """Match statistics effects read: duels lost, win streaks, creatures slain."""
        assert fight.winner is not None
        winner, loser = fight.winner, 1 - fight.winner
        self.bump(f"lost:{loser}")
        streak = self.bump(f"streak:{winner}")
        self.set_count(f"last_streak:{winner}", streak)
        self.set_count(f"streak:{loser}", 0)
        lost = fight.cards[loser]
        if not lost.is_witch:
            self.slain.append(lost)
            if lost.kin is not None:
                self.set_count(f"slew:{winner}:{lost.kin}", 1)

    def back_to_hand(self, seat: Seat, card: Card) -> None:
        self.enter(seat, card)

    def record(self, cards: tuple[Card | None, Card | None], powers: tuple[int | None, int | None],
               winner: Seat | None, damage: tuple[int, int], summary: str) -> None:
        self.last_duel = Duel(self.turn, cards, powers, winner, damage, summary)
        self.event("fight", {"text": summary, "winner": winner, "powers": list(powers), "damage": list(damage)})

    # == the end ============================================================

    def knockout(self) -> None:
        """The first Empire to fall to 0 HP or less loses. Both down (kept alive a while by an effect): the one
        that fell first loses; fallen together, the higher HP wins and equal HP is a draw."""
        if self.outcome is not None:
            return
        down = [s for s in (0, 1) if self.hp[s] <= 0 and self.can_lose(s)]
        if not down:
            return
        if len(down) == 2:
            fell = [self.count(f"fell:{s}") for s in (0, 1)]
            if fell[0] != fell[1] and all(fell):
                winner: Seat | None = 0 if fell[0] > fell[1] else 1
            else:
                winner = None if self.hp[0] == self.hp[1] else (0 if self.hp[0] > self.hp[1] else 1)
        else:
            winner = 1 - down[0]
        self.finish(winner, OutcomeReason.KNOCKOUT)

    def mayhem(self) -> None:
        """Witches flee, creatures still in hand hurt their holder, the higher HP wins."""
        self.emit("mayhem", "MAYHEM! Witches flee; creatures in hand turn on their holders.")
        self.set_count("mayhem", 1)
        for seat in (0, 1):
            hand, self.hands[seat] = self.hands[seat], []
            self.discard.extend(c.fresh() for c in hand)
            for card in hand:
                if not card.is_witch and card.base > 0:
                    self.damage(seat, card.base, f"MAYHEM: {card.notation()}", kind="mayhem", card=card)
        winner = None if self.hp[0] == self.hp[1] else (0 if self.hp[0] > self.hp[1] else 1)
        self.finish(winner, OutcomeReason.MAYHEM)

    def finish(self, winner: Seat | None, reason: OutcomeReason, why: str = "") -> None:
        detail = "a draw" if winner is None else f"{who(winner)} wins"
        detail = f"{detail} by {reason.value}" + (f" ({why})" if why else "")
        self.outcome = Outcome(winner, reason, (self.hp[0], self.hp[1]), detail)
        self.pending = None
        self.emit("over", f"The match is over: {detail}.", winner=winner, reason=reason.value)


def _summary(fight: Fight) -> str:
    """The fight's one-line result, when no effect wrote its own."""
    a, b = fight.cards
    if not fight.fought:
        return "There is no fight."
    if fight.winner is None:
        if fight.returns == [True, True]:
            return "Equal power: both creatures return to hand and cannot be played next turn."
        return "Equal power: neither wins."
    winner, loser = fight.winner, 1 - fight.winner
    won, lost = fight.cards[winner], fight.cards[loser]
    if a.is_witch and b.is_witch:
        return f"Two witches duel; {who(winner)}'s wins and neither returns."
    if won.is_witch:
        return f"The witch wins its fight and flees; {who(loser)}'s creature returns to hand."
    if lost.is_witch:
        return f"{who(winner)}'s creature kills the witch and returns to hand."
    return f"{who(winner)} wins the duel; {who(loser)} takes {lost.base} ({lost.notation()}'s base strength)."


def spec_text(card: Card) -> str:
    spec = spec_of(card)
    return spec.text if spec else ""


def _you(why: str) -> str:
    """``gains a card`` -> ``gain a card`` for the holder's own log line."""
    first, _, rest = why.partition(" ")
    if first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return f"{first} {rest}".strip()
