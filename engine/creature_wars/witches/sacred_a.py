"""Sacred witches (levels 4-6), part a of the catalogue's order."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.creature_wars.cards import WITCH_BASE, Card, PowerType, Tribe, replace
from engine.creature_wars.effects import Effect, Fight, Hit, Rule, Source, Token, effect, rule, token
from engine.creature_wars.state import Modifier, Pending
from engine.creature_wars.table import Table, who
from engine.creature_wars.witches.common import fighting, strength

__all__: list[str] = []

# Card tags (marks left on cards) and modifier keys of this module.
RING = "ring"  # Wicked Witch: how many enchanted rings the card wears
SUN = "sun"  # Sun Witch: the turn at whose end the card explodes
GRIM = "grim"  # Grim Witch: the mark's serial number (the modifier's value)
SHIFT = "shifted"  # Shifting Witch: the witch's own level while it fights as a copy
NO_RALLY = "no_rally"  # Democratic Witch: the card may never join a Rally again (the table honours this tag)

VENOMOUS = "venomous_serpents"
LUCKY = "lucky_witch"
PROUD = "proud_witch"
WISHING = "wishing_witch"
SUN_RULE = "sun_witch"
WICKED = "wicked_ring"
GRIM_RULE = "grim_mark"
SEDUCED = "seductive_witch"
HIGH = "the_high_witch"

PHANTOM = "Phantom"
WEREWOLF = "Werewolf"
BUTTERFLY = "Primordial Butterfly"

JOKES = (
    "Why did the Skeleton stay out of the duel? It had no guts.",
    "What do you call a Dragon with no Power Type? A very large lizard.",
    "Why don't Pirates shuffle the deck? They always get stuck on the C's.",
    "How does a Witch style her hair? With scare spray.",
    "Why did the Vampire lose at cards? He kept going for the stakes.",
)


# == helpers ===================================================================


def _set_value(t: Table, mod: Modifier, value: int) -> Modifier:
    """Change a modifier's value in play (modifiers are frozen values): the new one takes the old one's place."""
    new = replace(mod, value=value)
    for i, held in enumerate(t.modifiers):
        if held is mod or held == mod:
            t.modifiers[i] = new
            break
    return new


def _rewrite(t: Table, uid: int, change: Callable[[Card], Card]) -> None:
    """Change the card with ``uid`` wherever it lies: hands, deck, discard, removed, slain, sacks, in play."""
    zones: list[list[Card]] = [t.hands[0], t.hands[1], t.deck, t.discard, t.removed, t.slain, t.sacks[0], t.sacks[1]]
    for zone in zones:
        for i, card in enumerate(zone):
            if card.uid == uid:
                zone[i] = change(card)
    if t.in_play is not None:
        for i, played in enumerate(t.in_play):
            if played is not None and played.uid == uid:
                t.in_play[i] = change(played)


def _listing(cards: Sequence[Card], turn: int | None = None) -> str:
    return ", ".join(c.notation(turn) for c in cards) if cards else "nothing"


def _weakest_first(t: Table, cards: Sequence[Card]) -> list[Card]:
    """Lowest base str, then lowest level, then at random."""
    return sorted(t.shuffle(cards), key=strength)


def _strongest_first(t: Table, cards: Sequence[Card]) -> list[Card]:
    """Highest base str, then highest level, then at random."""
    return sorted(t.shuffle(cards), key=strength, reverse=True)


def _secret_change(t: Table, seat: int, public: str, private: str, kind: str = "transform") -> None:
    """A change to hidden cards: everyone reads ``public``, the holder reads ``private`` (which cards)."""
    t.emit(kind, public, {seat: {"text": private}}, seat=seat)


def _replace_in_place(t: Table, seat: int, old: Card, new: Card, why: str) -> None:
    """``replace_card`` (holder told which, the others only that one changed), keeping the card's hand position."""
    position = next(i for i, c in enumerate(t.hands[seat]) if c.uid == old.uid)
    t.replace_card(seat, old, new, why)
    hand = t.hands[seat]
    now = next((i for i, c in enumerate(hand) if c.uid == new.uid), None)
    if now is not None and now != position:
        hand.insert(position, hand.pop(now))


def _transform_everywhere(t: Table, match: Callable[[Card], bool], make: Callable[[Card], Card], why: str) -> None:
    """Replace every matching card in both hands and the deck (ALL); the replaced cards leave the game."""
    for seat in (0, 1):
        for card in list(t.hands[seat]):
            if match(card):
                _replace_in_place(t, seat, card, make(card), why)
    for i, card in enumerate(t.deck):  # no event: the deck is hidden from both players
        if match(card):
            t.deck[i] = make(card)
            t.removed.append(card)


def _serpent(card: Card) -> bool:
    return card.tribe is Tribe.SERPENT


def _must_win(t: Table, fight: Fight, seat: int) -> bool:
    """Venomous Serpents and Lucky creatures always win their duel."""
    card, other = fight.cards[seat], fight.cards[1 - seat]
    if t.has_modifier(VENOMOUS) and _serpent(card) and not _serpent(other):
        return True
    return any(m.owner == seat and m.value == card.uid + 1 for m in t.modifiers_of(LUCKY))


def _must_lose(t: Table, fight: Fight, seat: int) -> bool:
    """A creature marked by a Grim Witch dies when played."""
    card = fight.cards[seat]
    return card.has(GRIM) and any(m.value == card.tag(GRIM) for m in t.modifiers_of(GRIM_RULE))


def _settle(t: Table, fight: Fight) -> None:
    """Apply the forced results of this module (venom, luck, the grim mark); two that disagree cancel out."""
    if not fight.fought:
        return
    toward = [_must_win(t, fight, s) or _must_lose(t, fight, 1 - s) for s in (0, 1)]
    if toward[0] == toward[1]:
        return  # nothing forced, or both cards must win: fought normally
    winner = 0 if toward[0] else 1
    fight.winner = winner
    a, b = fight.cards
    if not a.is_witch and not b.is_witch and fight.returns == [True, True] and fight.cooldown == [1, 1]:
        fight.returns = [False, False]  # no longer a tie: both creatures go to the discard
        fight.cooldown = [0, 0]


# == tokens ====================================================================


@token(PHANTOM)
class Phantom(Token[Table]):
    """A drowned Pirate (Witch of the Hesperus): no Power Type, a Tribe of its own; no other behaviour."""


@token(WEREWOLF)
class Werewolf(Token[Table]):
    """A moon-charmed Wolf (Moon Charm Witch): base str 8, Nightmare, still of the Wolf Tribe; no other behaviour."""


@token(BUTTERFLY)
class PrimordialButterfly(Token[Table]):
    """The Vengeful Witch's gift: a Lvl.6 Ancient creature of its own Tribe with base str 5; no other behaviour."""


# == witches ===================================================================


@effect("witch_of_despair")
class WitchOfDespair(Effect[Table]):
    """Both players discard their entire hand (face up)."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            for card in list(t.hands[seat]):
                t.to_discard(seat, card, "discarded in despair (Witch of Despair)")


@effect("witch_of_the_hesperus")
class WitchOfTheHesperus(Effect[Table]):
    """Every Pirate in both hands and the deck is drowned and replaced by a Phantom (level +5, base str -2, no type)."""

    def cast(self, t: Table, src: Source) -> None:
        def phantom(pirate: Card) -> Card:
            made = t.new_token(PHANTOM, pirate.level + 5, max(0, pirate.base - 2))
            return replace(made, ready_turn=pirate.ready_turn, banned=pirate.banned, tags=pirate.tags)

        t.emit("effect", "Every Pirate in both hands and the deck is drowned and rises as a Phantom.")
        _transform_everywhere(t, lambda c: not c.is_witch and c.tribe is Tribe.PIRATE, phantom,
                              "is drowned and rises as a Phantom")


@effect("vengeful_witch")
class VengefulWitch(Effect[Table]):
    """If this witch loses its duel, its owner gains a Primordial Butterfly (Lvl.6 Ancient, base str 5)."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        butterfly = t.new_token(BUTTERFLY, 6, 5, PowerType.ANCIENT)
        t.gain(src.owner, butterfly, "gains a Primordial Butterfly (Vengeful Witch)", public=True)


@effect("moon_charm_witch")
class MoonCharmWitch(Effect[Table]):
    """Every Wolf in both hands and the deck becomes a Werewolf: base str 8, Nightmare, same level, still a Wolf."""

    def cast(self, t: Table, src: Source) -> None:
        def werewolf(wolf: Card) -> Card:
            made = t.new_token(WEREWOLF, wolf.level, 8, PowerType.NIGHTMARE, Tribe.WOLF)
            return replace(made, tribe_rally=wolf.tribe_rally, type_rally=wolf.type_rally, ready_turn=wolf.ready_turn,
                           banned=wolf.banned, tags=wolf.tags)

        t.emit("effect", "The moon rises: every Wolf in both hands and the deck becomes a Werewolf.")
        _transform_everywhere(t, lambda c: not c.is_witch and c.tribe is Tribe.WOLF and c.token != WEREWOLF, werewolf,
                              "turns into a Werewolf")


@effect("prophetic_witch")
class PropheticWitch(Effect[Table]):
    """Its owner alone sees the opponent's hand as it is when the effect resolves."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        cards = [c.notation(t.turn) for c in t.hands[other]]
        t.emit("effect", f"{who(src.owner)} sees {who(other)}'s hand.", seat=src.owner)
        t.tell(src.owner, f"{who(other)}'s hand: {', '.join(cards) if cards else 'empty'}.", cards=cards)


@effect("shifting_witch")
class ShiftingWitch(Effect[Table]):
    """The witch fights as an exact copy of the opponent's card: its base str, level and Power Type."""

    def cast(self, t: Table, src: Source) -> None:
        if t.in_play is None:
            return
        mine, theirs = t.in_play[src.owner], t.in_play[1 - src.owner]
        if mine is None or theirs is None or src.card is None or mine.uid != src.card.uid:
            return  # the opponent passed, or the witch is not the card in play (cast from a hand)
        copy = replace(mine, base=theirs.base, level=theirs.level, ptype=theirs.ptype).tagged(SHIFT, mine.level)
        t.in_play[src.owner] = copy
        kind = f" {theirs.ptype.value}" if theirs.ptype else ""
        t.emit("effect", f"{who(src.owner)}'s Shifting Witch becomes a copy of {theirs.notation()}: it fights as a "
                         f"Lvl.{theirs.level}{kind} card with base str {theirs.base}.", seat=src.owner)

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        card = fight.cards[src.owner]
        if fighting(src, fight) and card.has(SHIFT):
            level = card.tag(SHIFT)
            _rewrite(t, card.uid, lambda c: replace(c, base=WITCH_BASE, level=level, ptype=None).untagged(SHIFT))


@effect("democratic_witch")
class DemocraticWitch(Effect[Table]):
    """The opponent's rallied cards lose their Rally levels and may never join a Rally again."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        changes: list[str] = []
        for card in list(t.hands[other]):
            if not (card.tribe_rally or card.type_rally or card.witch_rally):
                continue
            bonus = (6 if card.tribe_rally and card.type_rally else 2 if card.tribe_rally or card.type_rally else 0)
            bonus += 2 if card.witch_rally else 0
            new = replace(card, level=max(0, card.level - bonus), tribe_rally=False, type_rally=False,
                          witch_rally=False).tagged(NO_RALLY)
            t.update(new)
            changes.append(f"{card.notation(t.turn, marks=True)} → Lvl.{new.level}")
        if not changes:
            t.emit("effect", f"There is no Rally in {who(other)}'s hand to disband.", seat=other)
            return
        _secret_change(t, other, f"The Rallies in {who(other)}'s hand are disbanded; those cards can never rally again.",
                       "Your Rallies are disbanded: " + "; ".join(changes) + ". They can never rally again.")


@effect("scary_witch")
class ScaryWitch(Effect[Table]):
    """The opponent's creatures turn Nightmare; Holy creatures are discarded instead."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        changes: list[str] = []
        for card in list(t.hands[other]):
            if card.is_witch or card.ptype is None:
                continue
            if card.ptype is PowerType.HOLY:
                t.to_discard(other, card, "flees in terror (Scary Witch)")
            elif card.ptype is not PowerType.NIGHTMARE:
                t.update(replace(card, ptype=PowerType.NIGHTMARE))
                changes.append(f"{card.notation(t.turn)} → Nightmare")
        if changes:
            _secret_change(t, other, f"Creatures in {who(other)}'s hand turn Nightmare.",
                           "Your creatures turn Nightmare: " + "; ".join(changes) + ".")
        t.rally(other)


@effect("frost_witch")
class FrostWitch(Effect[Table]):
    """Every Fire creature in both hands is removed from the game (the holder is told which)."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            frozen = [c for c in t.hands[seat] if not c.is_witch and c.ptype is PowerType.FIRE]
            for card in frozen:
                t.remove(card, "frozen (Frost Witch)")
            if frozen:
                _secret_change(t, seat, f"{len(frozen)} Fire creature(s) in {who(seat)}'s hand are frozen and removed "
                                        "from the game.", f"Frozen and removed from the game: {_listing(frozen)}.",
                               kind="removed")


@effect("hectic_witch")
class HecticWitch(Effect[Table]):
    """Fifteen random witches are shuffled into the deck."""

    def cast(self, t: Table, src: Source) -> None:
        added = 0
        for _ in range(15):
            witch = t.random_witch()
            if witch is None:
                break
            t.to_deck(witch)
            added += 1
        t.emit("deck", f"{added} Witch cards are shuffled into the deck." if added else
               "Witches are banned: no Witch card is added.", count=added)


@effect("wicked_witch")
class WickedWitch(Effect[Table]):
    """After its fight, win or lose, a random card in its owner's hand gets the enchanted ring (+2 levels)."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        self._ring(t, src)

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        self._ring(t, src)

    @staticmethod
    def _ring(t: Table, src: Source) -> None:
        if not t.has_modifier(WICKED):
            t.add_modifier(WICKED, src.owner, "Wicked Witch: a card defeated in a duel with the enchanted ring "
                                              "(+2 levels) passes it to a random card in the victor's hand.")
        _give_ring(t, src.owner)


def _give_ring(t: Table, seat: int) -> None:
    """A random card in ``seat``'s hand gets an enchanted ring: +2 levels (only the holder learns which)."""
    hand = t.hands[seat]
    if not hand:
        t.emit("ring", f"{who(seat)} has no card to wear the enchanted ring; it is lost.", seat=seat)
        return
    card = t.pick(hand)
    new = replace(card, level=card.level + 2).tagged(RING, card.tag(RING) + 1)
    t.update(new)
    _secret_change(t, seat, f"A card in {who(seat)}'s hand receives the enchanted ring (+2 levels).",
                   f"Your {card.notation(t.turn)} receives the enchanted ring: now Lvl.{new.level}.", kind="ring")


@rule(WICKED)
class WickedRing(Rule[Table]):
    """A card wearing enchanted rings that is defeated in a duel loses them (-2 levels each) to the victor's hand."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if not fight.fought or fight.winner is None:
            return
        winner, loser = fight.winner, 1 - fight.winner
        card = fight.cards[loser]
        rings = card.tag(RING)
        if rings <= 0:
            return
        _rewrite(t, card.uid, lambda c: replace(c, level=max(0, c.level - 2 * rings)).untagged(RING))
        t.emit("ring", f"{who(loser)}'s {card.notation()} is defeated and loses the enchanted ring to "
                       f"{who(winner)}'s hand.", seat=loser)
        for _ in range(rings):
            _give_ring(t, winner)


@rule(VENOMOUS)
class VenomousSerpents(Rule[Table]):
    """For the rest of the game a Serpent wins every duel against a card that is not a Serpent."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        _settle(t, fight)


@effect("venomous_witch")
class VenomousWitch(Effect[Table]):
    """Put the venomous Serpents rule in play for the rest of the game."""

    def cast(self, t: Table, src: Source) -> None:
        if t.has_modifier(VENOMOUS):
            t.emit("effect", "The Serpents are already venomous.")
            return
        t.add_modifier(VENOMOUS, src.owner, "Venomous Witch: Serpents always win their duel against a non-Serpent.")


@effect("feigglehornes_witch")
class FeigglehornesWitch(Effect[Table]):
    """The opponent's 2 weakest creatures (base str, then level, then at random) are removed from the game."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        sent = _weakest_first(t, t.creatures(other))[:2]
        if not sent:
            t.emit("effect", f"{who(other)} has no creature to send to the circus.", seat=other)
            return
        for card in sent:
            t.remove(card, "sent to the circus (Feigglehorne's Witch)")
        _secret_change(t, other, f"{len(sent)} of {who(other)}'s creatures are sent to the circus; they won't be back.",
                       f"Sent to the circus (removed from the game): {_listing(sent)}.", kind="removed")


@effect("foreboding_witch")
class ForebodingWitch(Effect[Table]):
    """If this witch loses its duel, its owner gains 2 random Wolves."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        for _ in range(2):
            t.gain(src.owner, t.new_creature(Tribe.WOLF), "gains a Wolf (Foreboding Witch)")


@effect("lusting_witch")
class LustingWitch(Effect[Table]):
    """Your largest creature "battles" the opponent's smallest: each player takes the other card's base str."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        mine, theirs = t.creatures(src.owner), t.creatures(other)
        if not mine or not theirs:
            t.emit("effect", "There is no pair of creatures to summon: the Lusting Witch watches nothing.")
            return
        big = _strongest_first(t, mine)[0]
        small = _weakest_first(t, theirs)[0]
        t.emit("effect", f"{who(src.owner)}'s {big.notation()} \"battles\" {who(other)}'s {small.notation()}. "
                         "The Lusting Witch watches…", cards=[big.notation(), small.notation()])
        with t.together():  # one "battle": both Empires are hit at once
            t.damage(src.owner, small.base, f"{small.notation()} (Lusting Witch)")
            t.damage(other, big.base, f"{big.notation()} (Lusting Witch)")


@rule(SUN_RULE)
class SunExplosions(Rule[Table]):
    """Fire creatures heated by a Sun Witch explode at the end of their turn if still in hand; playing one defuses it."""

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        if card.has(SUN):
            t.update(card.untagged(SUN))

    def turn_end(self, t: Table, src: Source) -> None:
        with t.together():  # every heated creature explodes at the same moment
            for seat in (0, 1):
                for card in list(t.hands[seat]):
                    if card.has(SUN) and card.tag(SUN) == t.turn:
                        cooled = card.untagged(SUN)
                        t.update(cooled)
                        t.to_discard(seat, cooled, "explodes (Sun Witch)")
                        t.damage(seat, cooled.base, f"{cooled.notation()} explodes", card=cooled)


@effect("sun_witch")
class SunWitch(Effect[Table]):
    """Nightmare and witch cards in both hands go back into the deck; Fire creatures get +3 levels but explode later."""

    def cast(self, t: Table, src: Source) -> None:
        boom = t.turn + 2
        for seat in (src.owner, 1 - src.owner):
            back = [c for c in t.hands[seat] if c.is_witch or c.ptype is PowerType.NIGHTMARE]
            for card in back:
                t.take(seat, card)
            t.shuffle_into_deck(back)
            fire = [c for c in t.hands[seat] if not c.is_witch and c.ptype is PowerType.FIRE]
            for card in fire:
                t.update(replace(card, level=card.level + 3).tagged(SUN, boom))
            if back:
                _secret_change(t, seat, f"{who(seat)} shuffles {len(back)} card(s) back into the deck.",
                               f"Shuffled back into the deck: {_listing(back)}.", kind="deck")
            if fire:
                heated = "; ".join(f"{c.notation(t.turn)} → Lvl.{c.level + 3}" for c in fire)
                _secret_change(t, seat, f"Fire creatures in {who(seat)}'s hand blaze (+3 levels).",
                               f"Your Fire creatures blaze: {heated}. They explode at the end of turn {boom} "
                               "unless played.")
        t.add_modifier(SUN_RULE, src.owner, f"Sun Witch: Fire creatures heated on turn {t.turn} explode at the end of "
                                            f"turn {boom} if still in hand.", until=boom)


@effect("gluttonous_witch")
class GluttonousWitch(Effect[Table]):
    """Both Empires gain 20 HP."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            t.heal(seat, 20, "Gluttonous Witch")


@effect("witch_of_slothing")
class WitchOfSlothing(Effect[Table]):
    """Two random cards in the opponent's hand may never be played nor rally again (only the holder learns which)."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        chosen = t.sample([c for c in t.hands[other] if not c.banned], 2)
        for card in chosen:
            t.update(replace(card, banned=True))
        if chosen:
            _secret_change(t, other, f"{len(chosen)} card(s) in {who(other)}'s hand are discouraged: they can never "
                                     "be played.", f"Discouraged for good: {_listing(chosen)}.")


@rule(PROUD)
class ProudWitchRule(Rule[Table]):
    """The next duel the owner's opponent loses deals them double damage; then the rule ends."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.kind == "duel" and hit.seat == 1 - src.owner:
            hit.mult *= 2

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if fight.fought and fight.winner == src.owner and src.mod is not None:
            t.drop_modifier(src.mod)


@effect("proud_witch")
class ProudWitch(Effect[Table]):
    """If this witch escapes, the next duel the opponent loses deals them double damage."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        t.add_modifier(PROUD, src.owner, f"Proud Witch: the next time {who(1 - src.owner)} loses a duel, they take "
                                         "double damage.")


@rule(LUCKY)
class LuckyWitchRule(Rule[Table]):
    """The owner's next creature played always wins its duel (``value``: that creature's uid + 1, once played)."""

    counts_passed_plays = True  # its ruling: the luck is used up even if the opponent passed

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        if seat == src.owner and not card.is_witch and src.mod is not None and not src.mod.value:
            _set_value(t, src.mod, card.uid + 1)

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        _settle(t, fight)

    def turn_end(self, t: Table, src: Source) -> None:
        if src.mod is not None and src.mod.value:
            t.drop_modifier(src.mod)


@effect("lucky_witch")
class LuckyWitch(Effect[Table]):
    """The next creature its owner plays will always win its duel."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier(LUCKY, src.owner, f"Lucky Witch: the next creature {who(src.owner)} plays always wins its duel.")


@rule(WISHING)
class WishingWitchRule(Rule[Table]):
    """The owner's next draw goes back into the deck; a random creature of the Tribe they hold most of comes instead."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        if seat != src.owner or src.mod is None or card.uid == t.count(f"wished:{seat}") - 1:
            return card  # not the owner's draw, or a card another wish just granted: that wish waits
        t.drop_modifier(src.mod)
        t.to_deck(card)  # the deck holds a card again: it is not fully drawn (the table's one rule)
        counts: dict[Tribe, int] = {}
        for held in t.hands[seat]:
            if held.is_witch or held.tribe is None or held.banned or held.has(NO_RALLY):
                continue
            counts[held.tribe] = counts.get(held.tribe, 0) + 1
        if counts:
            most = max(counts.values())
            tribe = t.pick([tr for tr in Tribe if counts.get(tr) == most])
        else:
            tribe = t.pick(list(Tribe))
        text = f"{who(seat)}'s draw goes back into the deck; the Wishing Witch grants a creature instead"
        # the Tribe would tell the others what the holder holds most of: only the holder learns it
        t.emit("wish", f"{text}.", {seat: {"text": f"{text}: a {tribe.value}.", "tribe": tribe.value}}, seat=seat)
        granted = t.new_creature(tribe)
        t.set_count(f"wished:{seat}", granted.uid + 1)
        return granted


@effect("wishing_witch")
class WishingWitch(Effect[Table]):
    """The owner's next draw is replaced by a creature that helps form a Rally."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier(WISHING, src.owner, f"Wishing Witch: {who(src.owner)}'s next draw is replaced by a creature "
                                           "of the Tribe they hold most of.")


@effect("shamanic_witch")
class ShamanicWitch(Effect[Table]):
    """Every creature with a Power Type in both hands gets a random Power Type."""

    def cast(self, t: Table, src: Source) -> None:
        types = list(PowerType)
        for seat in (src.owner, 1 - src.owner):
            changes: list[str] = []
            for card in list(t.hands[seat]):
                if card.is_witch or card.ptype is None:
                    continue
                new = replace(card, ptype=t.pick(types))
                t.update(new)
                assert new.ptype is not None
                changes.append(f"{card.notation(t.turn)} → {new.ptype.value}")
            if changes:
                _secret_change(t, seat, f"The Power Types in {who(seat)}'s hand are randomized.",
                               "Your Power Types are randomized: " + "; ".join(changes) + ".")
            t.rally(seat)


@effect("vortex_witch")
class VortexWitch(Effect[Table]):
    """Every creature in both hands gets a random Tribe other than its own; base str, level and Power Type stay."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            changes: list[str] = []
            for card in list(t.hands[seat]):
                if card.is_witch:
                    continue
                tribe = t.pick([tr for tr in Tribe if tr is not card.tribe])
                new = replace(card, tribe=tribe)
                t.update(new)
                changes.append(f"{card.notation(t.turn)} → {tribe.value}")
            if changes:
                _secret_change(t, seat, f"The creatures in {who(seat)}'s hand are given new Tribes.",
                               "Your creatures change Tribe: " + "; ".join(changes) + ".")
            t.rally(seat)


@rule(GRIM_RULE)
class GrimMark(Rule[Table]):
    """The creature carrying this mark (tag ``grim`` = ``value``) loses its duel at once when played, and is discarded."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        _settle(t, fight)
        if src.mod is None:
            return
        for seat in (0, 1):
            card = fight.cards[seat]
            if card.has(GRIM) and card.tag(GRIM) == src.mod.value and fight.winner == 1 - seat:
                fight.returns[seat] = False
                fight.cooldown[seat] = 0
                fight.summary = f"{who(seat)}'s {card.notation()} was marked for death by the Grim Witch and dies at once."

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if src.mod is None or not fight.fought:
            return
        for card in fight.cards:
            if card.has(GRIM) and card.tag(GRIM) == src.mod.value:
                _rewrite(t, card.uid, lambda c: c.untagged(GRIM))
                t.drop_modifier(src.mod)

    def turn_end(self, t: Table, src: Source) -> None:
        if src.mod is None:
            return
        mark = src.mod.value
        zones = [*t.hands, t.deck, *t.sacks]
        if not any(c.has(GRIM) and c.tag(GRIM) == mark for zone in zones for c in zone):
            t.drop_modifier(src.mod)  # the marked creature left the game some other way


@effect("grim_witch")
class GrimWitch(Effect[Table]):
    """A random enemy creature is marked for death; only the caster is told which."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        creatures = t.creatures(other)
        unmarked = [c for c in creatures if not c.has(GRIM)] or creatures
        if not unmarked:
            t.emit("effect", f"{who(other)} holds no creature to mark for death.", seat=other)
            return
        card = t.pick(unmarked)
        mark = t.bump("grim_marks")
        t.update(card.tagged(GRIM, mark))
        t.add_modifier(GRIM_RULE, src.owner, f"Grim Witch: a creature in {who(other)}'s hand is marked for death.",
                       value=mark)
        t.tell(src.owner, f"The Grim Witch marks {who(other)}'s {card.notation(t.turn)} for death.",
               card=card.notation(t.turn))


@effect("hallucinating_witch")
class HallucinatingWitch(Effect[Table]):
    """Half of each hand (rounded up, chosen at random) is discarded and replaced by as many random witches."""

    def cast(self, t: Table, src: Source) -> None:
        if t.count("witches_banned"):
            t.emit("effect", "Witches are banned: the hallucinations fade and nothing happens.")
            return
        for seat in (src.owner, 1 - src.owner):
            hand = t.hands[seat]
            chosen = t.sample(hand, (len(hand) + 1) // 2)
            for card in chosen:
                t.to_discard(seat, card, "fades into a hallucination (Hallucinating Witch)")
            for _ in chosen:
                t.gain(seat, t.random_witch(), "gains a random Witch (Hallucinating Witch)")


@effect("the_big_bad_witch")
class TheBigBadWitch(Effect[Table]):
    """Every Wolf (Werewolves too) in both hands and the deck is removed from the game."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            wolves = [c for c in t.hands[seat] if not c.is_witch and c.tribe is Tribe.WOLF]
            for card in wolves:
                t.remove(card, "blown in (The Big Bad Witch)")
            if wolves:
                _secret_change(t, seat, f"{len(wolves)} Wolf card(s) are blown out of {who(seat)}'s hand.",
                               f"Blown in (removed from the game): {_listing(wolves)}.", kind="removed")
        in_deck = [c for c in t.deck if not c.is_witch and c.tribe is Tribe.WOLF]
        for card in in_deck:
            t.remove(card, "blown in (The Big Bad Witch)")
        if in_deck:
            t.emit("removed", f"{len(in_deck)} Wolf card(s) are blown out of the deck.", count=len(in_deck))


@effect("witch_of_the_emperor")
class WitchOfTheEmperor(Effect[Table]):
    """A random card of the opponent's hand is shown to both players and stolen if its base str is 4 or less."""

    def cast(self, t: Table, src: Source) -> None:
        other = 1 - src.owner
        if not t.hands[other]:
            t.emit("effect", f"{who(other)}'s hand is empty: nothing to reveal.", seat=other)
            return
        card = t.pick(t.hands[other])
        shown = card.notation(t.turn)
        base = WITCH_BASE if card.is_witch else card.base
        t.emit("reveal_card", f"The Witch of the Emperor reveals {who(other)}'s {shown}.", seat=other, card=shown)
        if base <= 4:
            t.take(other, card)
            t.gain(src.owner, card, f"steals {who(other)}'s card (Witch of the Emperor)", public=True)


@effect("witch_of_the_skeleton_legion")
class WitchOfTheSkeletonLegion(Effect[Table]):
    """Six random Skeletons are shuffled into the deck."""

    def cast(self, t: Table, src: Source) -> None:
        for _ in range(6):
            t.to_deck(t.new_creature(Tribe.SKELETON))
        t.emit("deck", "6 Skeletons are shuffled into the deck.", count=6)


LEGIONS = (Tribe.WOLF, Tribe.SKELETON, Tribe.PIRATE)


@effect("witch_of_the_chosen_legion")
class WitchOfTheChosenLegion(Effect[Table]):
    """Its owner chooses Wolf, Skeleton or Pirate and gains 2 random creatures of that Tribe."""

    def cast(self, t: Table, src: Source) -> None:
        t.ask(src.owner, src, "Witch of the Chosen Legion: choose a Tribe to get 2 random creatures from.",
              [tr.value for tr in LEGIONS])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        tribe = LEGIONS[choice]
        for _ in range(2):
            # the chosen Tribe is hidden: the others learn only that a creature was gained
            t.gain(src.owner, t.new_creature(tribe), "gains a creature (Witch of the Chosen Legion)")


@rule(SEDUCED)
class Seduced(Rule[Table]):
    """The owner's opponent must play the creature with uid ``value - 1`` next turn (if it is in hand and playable)."""

    def forced(self, t: Table, src: Source, seat: int) -> int | None:
        if src.mod is None or seat != 1 - src.owner or src.mod.until != t.turn:
            return None
        for i, card in enumerate(t.hands[seat]):
            if card.uid == src.mod.value - 1 and t.playable_reason(seat, card) is None:
                return i
        return None


@effect("seductive_witch")
class SeductiveWitch(Effect[Table]):
    """If this witch escapes, the creature it sent back must be played by the opponent next turn."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        other = 1 - src.owner
        card = fight.cards[other]
        if card.is_witch or not fight.returns[other] or t.find(card) is None:
            return
        t.add_modifier(SEDUCED, src.owner, f"Seductive Witch: {who(other)} must play {card.notation()} next turn.",
                       value=card.uid + 1, until=t.turn + 1)


@effect("rage_witch")
class RageWitch(Effect[Table]):
    """Discard a random card from your hand to deal 1 damage to the enemy per duel you have lost."""

    def cast(self, t: Table, src: Source) -> None:
        hand = t.hands[src.owner]
        if not hand:
            t.emit("effect", f"{who(src.owner)} has no card to discard: the Rage Witch does nothing.", seat=src.owner)
            return
        t.to_discard(src.owner, t.pick(hand), "discarded in rage (Rage Witch)")
        lost = t.count(f"lost:{src.owner}")
        if lost:
            t.damage(1 - src.owner, lost, f"Rage Witch: {lost} duel(s) lost")
        else:
            t.emit("effect", f"{who(src.owner)} has lost no duel yet: the rage deals no damage.", seat=src.owner)


@effect("jesting_witch")
class JestingWitch(Effect[Table]):
    """Tell a joke; three random creatures are put on top of the deck."""

    def cast(self, t: Table, src: Source) -> None:
        joke = t.pick(JOKES)
        for _ in range(3):
            t.to_deck(t.new_creature(), "top")
        t.emit("effect", f"The Jesting Witch tells a joke: \"{joke}\" 3 cards are added to the top of the deck.",
               joke=joke)


@rule(HIGH)
class HighWitchRule(Rule[Table]):
    """The opponent's next card played gets +3 levels, and double damage if it loses (``value``: its uid + 1)."""

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        if seat != 1 - src.owner or src.mod is None or src.mod.value:
            return
        high = replace(card, level=card.level + 3)
        t.update(high)
        _set_value(t, src.mod, card.uid + 1)
        t.emit("effect", f"The High Witch lifts {who(seat)}'s {card.notation()} to Lvl.{high.level}.", seat=seat)

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if (src.mod is not None and src.mod.value and hit.kind == "duel" and hit.seat == 1 - src.owner
                and hit.card is not None and hit.card.uid == src.mod.value - 1):
            hit.mult *= 2

    def turn_end(self, t: Table, src: Source) -> None:
        if src.mod is not None and src.mod.value:
            t.drop_modifier(src.mod)


@effect("the_high_witch")
class TheHighWitch(Effect[Table]):
    """The opponent's next card played has +3 levels but deals them double damage if it loses."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier(HIGH, src.owner, f"The High Witch: {who(1 - src.owner)}'s next card has +3 levels, and they "
                                        "take double damage from it if it loses.")
