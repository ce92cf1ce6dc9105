"""Sacred witches (levels 4-6), part b of the catalogue's order.

Words used here as the rulings use them: a card's "power" outside a fight is base str +
level (ties broken at random); a "creature" is any non-witch card in a hand (tokens
included); a level never drops below 1.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from engine.creature_wars.cards import Card, PowerType, Tribe, beats, replace
from engine.creature_wars.effects import EFFECTS, Effect, Fight, Hit, Rule, Source, Token, effect, rule, token
from engine.creature_wars.state import Pending
from engine.creature_wars.table import RALLY_SIZE, Table, effect_of, spec_of, who
from engine.creature_wars.witch_catalogue import CATALOGUE, Rarity
from engine.creature_wars.witches.common import fighting

__all__: list[str] = []

_KEY_INDEX = {spec.key: i for i, spec in enumerate(CATALOGUE)}


# == helpers ===============================================================

def power(card: Card) -> int:
    """How powerful a card is outside a fight: base str + level."""
    return card.base + card.level


def ranked(t: Table, cards: list[Card], strongest: bool = True) -> list[Card]:
    """``cards`` by power, strongest (or weakest) first; equal power in a random order."""
    return sorted(t.shuffle(cards), key=power, reverse=strongest)


def leveled(card: Card, by: int) -> Card:
    """The card with its level changed by ``by``, never below 0."""
    return replace(card, level=max(0, card.level + by))


def listed(cards: list[Card]) -> str:
    return ", ".join(c.notation() for c in cards) or "nothing"


def change_hand(t: Table, seat: int, changes: list[tuple[Card, Card]], public: str) -> None:
    """Write changed cards back into ``seat``'s hand: the holder is told which, the others only ``public``."""
    if not changes:
        return
    for _, new in changes:
        t.update(new)
    detail = "; ".join(f"{old.notation()} → {new.notation()}" for old, new in changes)
    t.emit("transform", public, {seat: {"text": f"{public} {detail}.", "cards": [n.notation() for _, n in changes]}},
           seat=seat)
    t.rally(seat)


def slain_in_discard(t: Table) -> list[Card]:
    """Creatures that lost duels and are still in the discard pile (the pile's copy), oldest first, each once."""
    pile = {c.uid: c for c in t.discard}
    out: list[Card] = []
    seen: set[int] = set()
    for dead in reversed(t.slain):
        if dead.uid in seen or dead.uid not in pile:
            continue
        seen.add(dead.uid)
        out.append(pile[dead.uid])
    out.reverse()
    return out


def out_of_discard(t: Table, card: Card) -> Card:
    """Take a card (by uid) out of the discard pile, so it is in one place only."""
    for i, held in enumerate(t.discard):
        if held.uid == card.uid:
            return t.discard.pop(i)
    raise ValueError(f"{card.notation()} is not in the discard pile")


def by_uid(cards: list[Card], uid: int) -> Card | None:
    return next((c for c in cards if c.uid == uid), None)


def note(t: Table, text: str) -> None:
    """A public line about an effect."""
    t.emit("effect", text)


def offer_enemy_creatures(t: Table, src: Source, prompt: str) -> None:
    """Show the caster up to 3 random creatures of the opponent's hand as a question; their uids go in the memo."""
    offered = t.sample(t.creatures(1 - src.owner), 3)
    if not offered:
        note(t, f"{who(1 - src.owner)} holds no creature: nothing happens.")
        return
    t.ask(src.owner, src, prompt, [c.notation(t.turn) for c in offered], [c.uid for c in offered])


def chosen_enemy(t: Table, src: Source, pending: Pending, choice: int) -> Card | None:
    """The offered creature the caster picked, if it is still in the opponent's hand."""
    return by_uid(t.hands[1 - src.owner], pending.memo[choice])


# == Shady Witch ===========================================================

@effect("shady_witch")
class ShadyWitch(Effect[Table]):
    """Swap your most powerful creature for the opponent's least powerful; an unplayed gift becomes level 1."""

    def cast(self, t: Table, src: Source) -> None:
        me, opp = src.owner, 1 - src.owner
        mine, theirs = t.creatures(me), t.creatures(opp)
        if not mine or not theirs:
            note(t, "Shady Witch: no deal; a hand holds no creature.")
            return
        gift = t.take(me, ranked(t, mine)[0])
        taken = t.take(opp, ranked(t, theirs, strongest=False)[0])
        t.tell(me, f"You give {gift.notation()} (Shady Witch).")
        t.tell(opp, f"The Shady Witch takes your {taken.notation()}.")
        given = t.gain(opp, gift, "receives a gift (Shady Witch)")
        t.gain(me, taken, "takes a creature in return (Shady Witch)")
        assert given is not None
        t.add_modifier("shady_gift", me, f"Shady Witch: if {who(opp)} still holds the gift at the end of turn "
                       f"{t.turn + 1}, it becomes level 1.", value=given.uid, until=t.turn + 1)


@rule("shady_gift")
class ShadyGift(Rule[Table]):
    """At the end of the turn after the deal, a gift still in the receiver's hand becomes level 1."""

    def turn_end(self, t: Table, src: Source) -> None:
        assert src.mod is not None
        if t.turn != src.mod.until:
            return
        holder = 1 - src.owner
        gift = by_uid(t.hands[holder], src.mod.value)
        if gift is None or gift.level == 1:
            return
        change_hand(t, holder, [(gift, replace(gift, level=1))],
                    f"{who(holder)} did not play the Shady Witch's gift: it becomes defective (level 1).")


# == Questing Witch ========================================================

POTIONS = (
    "Potion of Deception: discard your 3 most powerful creatures",
    "Potion of Ferocity: all creatures in your hand gain +3 levels",
    "Potion of Endurance: your Empire gains +15 HP",
)


@effect("questing_witch")
class QuestingWitch(Effect[Table]):
    """If your cards have slain a creature of every Tribe, choose a potion to drink."""

    def cast(self, t: Table, src: Source) -> None:
        missing = [tribe.value for tribe in Tribe if not t.count(f"slew:{src.owner}:{tribe.value}")]
        if missing:
            note(t, f"Questing Witch: the quest is unfinished ({who(src.owner)} has slain no {', '.join(missing)}).")
            return
        t.ask(src.owner, src, "Questing Witch: choose a potion to drink.", POTIONS)

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        me = src.owner
        note(t, f"{who(me)} drinks the {POTIONS[choice].split(':')[0]}.")
        if choice == 0:
            for card in ranked(t, t.creatures(me))[:3]:
                t.to_discard(me, card, "discarded (Potion of Deception)")
        elif choice == 1:
            change_hand(t, me, [(c, leveled(c, 3)) for c in t.creatures(me)],
                        f"Creatures in {who(me)}'s hand gain +3 levels (Potion of Ferocity).")
        else:
            t.heal(me, 15, "Potion of Endurance")


# == Berserker Witch =======================================================

@effect("berserker_witch")
class BerserkerWitch(Effect[Table]):
    """In next turn's duel, the losing Empire also takes the winning card's level as damage."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("berserker", src.owner, f"Berserker Witch: in turn {t.turn + 1}'s duel the loser also takes "
                       "the winning card's level.", value=t.turn + 1, until=t.turn + 1)


@rule("berserker")
class Berserker(Rule[Table]):
    """Adds the winner's level to the duel damage of its turn (dealt on its own if the loser took none)."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        assert src.mod is not None
        if hit.kind == "duel" and t.turn == src.mod.value and hit.winner_card is not None:
            hit.add += hit.winner_card.level
            t.drop_modifier(src.mod)

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        assert src.mod is not None
        if t.turn != src.mod.value or not fight.fought or fight.winner is None:
            return
        t.drop_modifier(src.mod)  # still here: the loser took no duel damage, so the level is all of it
        won, lost = fight.cards[fight.winner], fight.cards[1 - fight.winner]
        t.damage(1 - fight.winner, won.level, "Berserker Witch: the winner's level", kind="duel", card=lost,
                 winner_card=won, fight_cards=fight.cards)


# == Pandora's Witch =======================================================

@contextmanager
def standing_in_play(t: Table, seat: int, card: Card | None, stood: list[Card] | None = None) -> Iterator[None]:
    """While a witch is cast from a hand, it stands in play for ``seat`` (an effect that changes "this card" changes
    it, not the card really in play); the card really in play is put back afterwards. ``stood`` receives the card
    standing there at the end (another one if the witch became it: Which Witch)."""
    if t.in_play is None or card is None:
        yield
        return
    saved = t.in_play[seat]
    t.in_play[seat] = card
    try:
        yield
    finally:
        if t.in_play is not None:
            standing = t.in_play[seat]
            if stood is not None and standing is not None:
                stood.append(standing)
            t.in_play[seat] = saved


@effect("pandoras_witch")
class PandorasWitch(Effect[Table]):
    """Cast every witch in the opponent's hand for them, in hand order; each then flees to the discard pile."""

    # A question one of those witches asks is passed on under this effect's key, the memo holding
    # (seat cast for, inner catalogue index, inner memo length, inner memo..., uids of witches still to cast...).

    def cast(self, t: Table, src: Source) -> None:
        opp = 1 - src.owner
        queue = [c.uid for c in t.hands[opp] if c.is_witch]
        if not queue:
            note(t, f"Pandora's Witch: {who(opp)} holds no witch.")
            return
        note(t, f"Pandora's Witch opens {who(opp)}'s witches.")
        self.run(t, opp, queue)

    def run(self, t: Table, seat: int, queue: list[int]) -> None:
        while queue:
            card = by_uid(t.hands[seat], queue.pop(0))
            if card is None:  # an earlier witch's effect moved it out of the hand
                continue
            t.take(seat, card)
            spec = spec_of(card)
            t.emit("witch", f"{who(seat)}'s {card.witch} casts: {spec.text if spec else ''}", seat=seat,
                   witch=card.witch, card=card.notation())
            eff = effect_of(card)
            stood: list[Card] = []
            if eff is not None:
                with standing_in_play(t, seat, card, stood):
                    eff.cast(t, Source(seat, card))
            fleeing = [card] if all(gone.uid != card.uid for gone in t.removed) else []  # a cast may remove its card
            if stood and stood[0].uid != card.uid:
                fleeing.append(stood[0])  # the witch became another (Which Witch): that one flees too
            for gone in fleeing:
                t.discard.append(gone.fresh())
                t.emit("discard", f"{who(seat)}'s {gone.notation()} flees (Pandora's Witch).", seat=seat,
                       card=gone.notation())
            if t.outcome is not None:
                return
            if t.pending is not None:
                self.wrap(t, seat, queue)
                return

    def wrap(self, t: Table, seat: int, queue: list[int]) -> None:
        inner = t.pending
        assert inner is not None
        memo = (seat, _KEY_INDEX.get(inner.key, -1), len(inner.memo), *inner.memo, *queue)
        t.pending = Pending(inner.seat, self.key, inner.prompt, inner.options, memo, inner.timeout, inner.caster)

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        seat, index, size = pending.memo[0], pending.memo[1], pending.memo[2]
        inner_memo = pending.memo[3:3 + size]
        queue = list(pending.memo[3 + size:])
        if index >= 0:
            key = CATALOGUE[index].key
            eff = EFFECTS.get(key)
            inner = Pending(pending.seat, key, pending.prompt, pending.options, tuple(inner_memo), pending.timeout,
                            pending.caster)
            if eff is not None:
                with standing_in_play(t, seat, pending.caster):
                    eff.answer(t, Source(pending.seat, pending.caster), inner, choice)
        if t.outcome is not None:
            return
        if t.pending is not None:
            self.wrap(t, seat, queue)
            return
        self.run(t, seat, queue)


# == Odd Witch =============================================================

@effect("odd_witch")
class OddWitch(Effect[Table]):
    """Both players discard every even-leveled card in hand."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, 1 - src.owner):
            for card in [c for c in t.hands[seat] if c.level % 2 == 0]:
                t.to_discard(seat, card, "discarded (Odd Witch: even level)")


# == Witch of the Firehawks ================================================

@effect("witch_of_the_firehawks")
class WitchOfTheFirehawks(Effect[Table]):
    """Your Nightmare creatures and witches are destroyed; your other creatures become Fire."""

    def cast(self, t: Table, src: Source) -> None:
        me = src.owner
        burnt = [c for c in t.hands[me] if c.is_witch or c.ptype is PowerType.NIGHTMARE]
        for card in burnt:
            t.remove(card)
        if burnt:
            t.emit("destroyed", f"{len(burnt)} card(s) in {who(me)}'s hand burn away (Witch of the Firehawks).",
                   {me: {"text": f"Burnt away (removed from the game): {listed(burnt)}.",
                         "cards": [c.notation() for c in burnt]}}, seat=me, count=len(burnt))
        change_hand(t, me, [(c, replace(c, ptype=PowerType.FIRE)) for c in t.creatures(me)
                            if c.ptype is not PowerType.FIRE],
                    f"Creatures in {who(me)}'s hand become Fire (Witch of the Firehawks).")


# == Talismanic Witch ======================================================

@effect("talismanic_witch")
class TalismanicWitch(Effect[Table]):
    """The next damage to your Empire is halved (rounded down)."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("talisman", src.owner, f"Talismanic Witch: the next damage to {who(src.owner)}'s Empire "
                       "is halved.")


@rule("talisman")
class Talisman(Rule[Table]):
    """Halves the first hit on its owner's Empire that would deal damage, then is used up."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        assert src.mod is not None
        if hit.seat != src.owner or hit.cancel or hit.halve or hit.amount * hit.mult + hit.add <= 0:
            return
        hit.halve = True
        t.drop_modifier(src.mod)
        note(t, f"The Talismanic ward halves the damage to {who(src.owner)}'s Empire.")


# == Chthonic, Necromancing and Sepulchrul Witches ========================

@effect("chthonic_witch")
class ChthonicWitch(Effect[Table]):
    """The last slain creature (still in the discard pile) comes to your hand with -1 level."""

    def cast(self, t: Table, src: Source) -> None:
        dead = slain_in_discard(t)
        if not dead:
            note(t, "Chthonic Witch: no slain creature lies in the discard pile.")
            return
        card = out_of_discard(t, dead[-1])
        t.gain(src.owner, leveled(card, -1), "raises the last slain creature (Chthonic Witch)", public=True)


@effect("necromancing_witch")
class NecromancingWitch(Effect[Table]):
    """Every Skeleton that died in battle (still in the discard pile) comes to your hand with +3 levels."""

    def cast(self, t: Table, src: Source) -> None:
        skeletons = [c for c in slain_in_discard(t) if c.tribe is Tribe.SKELETON]
        if not skeletons:
            note(t, "Necromancing Witch: no Skeleton has died in battle.")
        for card in skeletons:
            out_of_discard(t, card)
            t.gain(src.owner, leveled(card, 3), "resurrects a Skeleton (Necromancing Witch)", public=True)


@effect("sepulchrul_witch")
class SepulchrulWitch(Effect[Table]):
    """The last slain creature (still in the discard pile) comes to your hand at its level."""

    def cast(self, t: Table, src: Source) -> None:
        dead = slain_in_discard(t)
        if not dead:
            note(t, "Sepulchrul Witch: no slain creature lies in the discard pile.")
            return
        card = out_of_discard(t, dead[-1])
        t.gain(src.owner, card, "resurrects the last slain creature (Sepulchrul Witch)", public=True)


# == Circe's and Angitia's Witches =========================================

@effect("circes_witch")
class CircesWitch(Effect[Table]):
    """Pirates in both hands become Wolves (level, Power Type, rally marks and base str changes kept)."""

    def cast(self, t: Table, src: Source) -> None:
        shift = 2 - 3  # Wolf base minus Pirate base
        for seat in (src.owner, 1 - src.owner):
            changes = [(c, replace(c, tribe=Tribe.WOLF, base=max(0, c.base + shift)))
                       for c in t.hands[seat] if c.tribe is Tribe.PIRATE and c.token is None]
            change_hand(t, seat, changes, f"Any Pirates in {who(seat)}'s hand become Wolves (Circe's Witch).")


@effect("angitias_witch")
class AngitiasWitch(Effect[Table]):
    """Discard every Serpent in your hand; +5 HP for each."""

    def cast(self, t: Table, src: Source) -> None:
        serpents = [c for c in t.hands[src.owner] if c.tribe is Tribe.SERPENT]
        for card in serpents:
            t.to_discard(src.owner, card, "eaten (Angitia's Witch)")
        if serpents:
            t.heal(src.owner, 5 * len(serpents), f"Angitia's Witch ate {len(serpents)} Serpent(s)")
        else:
            note(t, f"Angitia's Witch finds no Serpent in {who(src.owner)}'s hand.")


# == Minerva's Witch =======================================================

def trade(n: int, give: str, mine: list[Card], get: str) -> str:
    """An option's label: it names only the asking player's own cards."""
    count, noun = ("", "creature") if n == 1 else (f"{n} ", "creatures")
    return f"Give your {count}{give} powerful {noun} ({listed(mine)}) for their {count}{get} powerful {noun}."


@effect("minervas_witch")
class MinervasWitch(Effect[Table]):
    """Choose: your 2 weakest creatures for their 2 strongest, or your 2 strongest for their 2 weakest."""

    # The memo holds (n, option 0's yours..., theirs..., option 1's yours..., theirs...), n uids each.

    def cast(self, t: Table, src: Source) -> None:
        me, opp = src.owner, 1 - src.owner
        mine, theirs = t.creatures(me), t.creatures(opp)
        n = min(2, len(mine), len(theirs))
        if n == 0:
            note(t, "Minerva's Witch: no trade; a hand holds no creature.")
            return
        weak_mine, strong_theirs = ranked(t, mine, False)[:n], ranked(t, theirs)[:n]
        strong_mine, weak_theirs = ranked(t, mine)[:n], ranked(t, theirs, False)[:n]
        options = [trade(n, "least", weak_mine, "most"), trade(n, "most", strong_mine, "least")]
        memo = [n] + [c.uid for c in weak_mine + strong_theirs + strong_mine + weak_theirs]
        t.ask(me, src, "Minerva's Witch: choose a trade.", options, memo)

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        me, opp = src.owner, 1 - src.owner
        n = pending.memo[0]
        uids = pending.memo[1 + 2 * n * choice: 1 + 2 * n * (choice + 1)]
        mine = [c for c in (by_uid(t.hands[me], u) for u in uids[:n]) if c is not None]
        theirs = [c for c in (by_uid(t.hands[opp], u) for u in uids[n:]) if c is not None]
        for card in mine:
            t.take(me, card)
        for card in theirs:
            t.take(opp, card)
        note(t, f"{who(me)} trades {len(mine)} creature(s) for {len(theirs)} of {who(opp)}'s (Minerva's Witch).")
        for card in mine:
            t.gain(opp, card, "receives a creature (Minerva's Witch)")
        for card in theirs:
            t.gain(me, card, "receives a creature (Minerva's Witch)")


# == Succubus' Witch =======================================================

@effect("succubus_witch")
class SuccubusWitch(Effect[Table]):
    """Discard a random Nightmare of yours: a random enemy creature loses 3 levels and a Lvl.1 Cambion copies it."""

    def cast(self, t: Table, src: Source) -> None:
        me, opp = src.owner, 1 - src.owner
        nightmares = [c for c in t.creatures(me) if c.ptype is PowerType.NIGHTMARE]
        victims = t.creatures(opp)
        if not nightmares or not victims:
            note(t, "Succubus' Witch: no succubus is summoned (no Nightmare to give, or no enemy creature).")
            return
        t.to_discard(me, t.pick(nightmares), "given up to summon a succubus (Succubus' Witch)")
        victim = t.pick(victims)
        change_hand(t, opp, [(victim, leveled(victim, -3))],
                    f"A succubus desecrates a creature in {who(opp)}'s hand: it loses 3 levels.")
        cambion = t.new_token("Cambion", 1, victim.base, victim.ptype)
        t.gain(opp, cambion, "gets a cambion (Succubus' Witch)")
        if not t.has_modifier("cambion"):
            t.add_modifier("cambion", me, "Succubus' Witch: a Cambion deals double damage to its holder's Empire.")


@token("Cambion")
class Cambion(Token[Table]):
    """A succubus's offspring: the ``cambion`` rule doubles the damage it deals to its holder."""


@rule("cambion")
class CambionRule(Rule[Table]):
    """Any damage that comes from a Cambion (lost duel, MAYHEM, ...) is doubled."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.card is not None and hit.card.token == "Cambion":
            hit.mult *= 2


# == Sin-Eater Witch =======================================================

@effect("sin_eater_witch")
class SinEaterWitch(Effect[Table]):
    """The next time one of your creatures loses a duel, you take no damage and a random creature of yours is banned."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("sin_eater", src.owner, f"Sin-Eater Witch: the next time a creature of {who(src.owner)} "
                       "dies, a creature in hand takes its sins instead of the Empire.")


@rule("sin_eater")
class SinEater(Rule[Table]):
    """Cancels the owner's next duel damage from a losing creature; a random other creature becomes an outcast."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        assert src.mod is not None
        if hit.seat != src.owner or hit.kind != "duel" or hit.card is None or hit.card.is_witch:
            return
        hit.cancel = True
        t.drop_modifier(src.mod)
        outcasts = [c for c in t.creatures(src.owner) if not c.banned and c.uid != hit.card.uid]
        if not outcasts:
            note(t, f"The Sin-Eater spares {who(src.owner)}'s Empire; no creature is left to bear the sins.")
            return
        outcast = t.pick(outcasts)
        change_hand(t, src.owner, [(outcast, replace(outcast, banned=True).tagged("outcast"))],
                    f"A creature in {who(src.owner)}'s hand absorbs the transgressions and becomes an outcast "
                    "(Sin-Eater Witch); the Empire takes no damage.")


# == Charlotte's Witch =====================================================

@effect("charlottes_witch")
class CharlottesWitch(Effect[Table]):
    """A random card in the opponent's hand is webbed: it may never be played."""

    def cast(self, t: Table, src: Source) -> None:
        opp = 1 - src.owner
        free = [c for c in t.hands[opp] if not c.banned]
        if not free:
            note(t, f"Charlotte's Witch finds nothing to web in {who(opp)}'s hand.")
            return
        card = t.pick(free)
        change_hand(t, opp, [(card, replace(card, banned=True).tagged("web"))],
                    f"A card in {who(opp)}'s hand is trapped in a web (Charlotte's Witch).")


# == The Sand Witch ========================================================

@effect("the_sand_witch")
class TheSandWitch(Effect[Table]):
    """For the rest of the game, Nightmare creatures have +2 power in duels."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("sleep_sand", src.owner, "The Sand Witch: Nightmare creatures have +2 power in duels.")


@rule("sleep_sand")
class SleepSand(Rule[Table]):
    """+2 power to a fighting Nightmare creature."""

    def power(self, t: Table, src: Source, fight: Fight, seat: int, power: int) -> int:
        card = fight.cards[seat]
        return power + 2 if not card.is_witch and card.ptype is PowerType.NIGHTMARE else power


# == Green Witch ===========================================================

@effect("green_witch")
class GreenWitch(Effect[Table]):
    """The player with fewer cards draws until the hand sizes match (as far as the deck allows)."""

    def cast(self, t: Table, src: Source) -> None:
        sizes = [len(t.hands[0]), len(t.hands[1])]
        if sizes[0] == sizes[1]:
            note(t, "Green Witch: both hands are the same size already.")
            return
        short = 0 if sizes[0] < sizes[1] else 1
        t.draw(short, abs(sizes[0] - sizes[1]), "draws a card (Green Witch)")


# == Wiccan Little =========================================================

@effect("wiccan_little")
class WiccanLittle(Effect[Table]):
    """If this witch loses its fight it panics: 50%, the sky falls and both Empires take 5 damage."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        if t.chance(50):
            note(t, "Wiccan Little panics: THE SKY IS FALLING! And it does.")
            with t.together():  # the sky falls on both Empires at once
                for seat in (src.owner, 1 - src.owner):
                    t.damage(seat, 5, "the sky fell (Wiccan Little)")
        else:
            note(t, "Wiccan Little panics: THE SKY IS FALLING! ...but it holds.")


# == Coven-Calling Witch ===================================================

@effect("coven_calling_witch")
class CovenCallingWitch(Effect[Table]):
    """Shuffle 13 random Sacred witches into the deck."""

    def cast(self, t: Table, src: Source) -> None:
        called = [w for w in (t.random_witch(Rarity.SACRED) for _ in range(13)) if w is not None]
        t.shuffle_into_deck(called)
        note(t, f"The Coven-Calling Witch shuffles {len(called)} Sacred Witches into the deck.")


# == Wraith Witch ==========================================================

@effect("wraith_witch")
class WraithWitch(Effect[Table]):
    """If this witch dies, add a Wraith to your hand."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        t.gain(src.owner, t.new_token("Wraith", 1, 0), "gets a Wraith (Wraith Witch)", public=True)


@token("Wraith")
class Wraith(Token[Table]):
    """Played: no fight; 3 damage to the enemy Empire, the Wraith vanishes, an enemy creature returns with cooldown 1."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if not fighting(src, fight):
            return
        own, enemy = src.owner, 1 - src.owner
        fight.no_fight(f"{who(own)}'s Wraith deals 3 damage to {who(enemy)}'s Empire and vanishes.")
        fight.removed[own] = True
        fight.returns[own] = False
        if not fight.cards[enemy].is_witch:
            fight.returns[enemy] = True
            fight.cooldown[enemy] = 1

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if fighting(src, fight):
            t.damage(1 - src.owner, 3, "a Wraith")


# == Lenore's Witch ========================================================

@effect("lenores_witch")
class LenoresWitch(Effect[Table]):
    """Pick 1 of 3 random enemy creatures to remove; an unplayable Raven takes its place and pecks on its Tribe."""

    def cast(self, t: Table, src: Source) -> None:
        offer_enemy_creatures(t, src, "Lenore's Witch: choose a creature to send to the quiet fields.")

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        opp = 1 - src.owner
        card = chosen_enemy(t, src, pending, choice)
        if card is None:
            return
        place = t.hands[opp].index(card)
        t.remove(card)
        t.tell(opp, f"Your {card.notation()} is sent to the quiet fields (removed from the game).")
        raven = t.gain(opp, replace(t.new_token("Raven", 1, 0), banned=True),
                       "gets a Raven in place of a creature sent to the quiet fields (Lenore's Witch)", public=True)
        assert raven is not None
        t.hands[opp].remove(raven)
        t.hands[opp].insert(place, raven)
        t.add_modifier("raven", src.owner, f"Lenore's Witch: a Raven pecks {who(opp)} for 2 whenever they draw a "
                       "creature of their lost beloved's Tribe.", value=raven.uid, data=card.kin or "")


@token("Raven")
class Raven(Token[Table]):
    """Fixed in its holder's hand: it may never be played."""

    def playable(self, t: Table, src: Source) -> str | None:
        return "is a Raven: it cannot be played"


@rule("raven")
class RavenPecks(Rule[Table]):
    """While the Raven is in the victim's hand, drawing a creature of the beloved's Tribe costs them 2 HP."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        assert src.mod is not None
        victim = 1 - src.owner
        if seat == victim and src.mod.data and card.kin == src.mod.data and by_uid(t.hands[victim], src.mod.value):
            t.damage(victim, 2, "the Raven pecks: a reminder of their beloved")
        return card


# == The Witch of the Cumaean Sibyl ========================================

@effect("the_witch_of_the_cumaean_sibyl")
class TheWitchOfTheCumaeanSibyl(Effect[Table]):
    """See the opponent's hand; 3 random cards of it go back into the deck and they draw as many."""

    def cast(self, t: Table, src: Source) -> None:
        me, opp = src.owner, 1 - src.owner
        t.tell(me, f"{who(opp)}'s hand: {listed(t.hands[opp])}.", cards=[c.notation() for c in t.hands[opp]])
        scattered = t.sample(t.hands[opp], 3)
        for card in scattered:
            t.take(opp, card)
        t.shuffle_into_deck(scattered)
        t.tell(me, f"Shuffled back into the deck: {listed(scattered)}.")
        t.emit("scatter", f"{who(opp)} shuffles {len(scattered)} card(s) back into the deck (The Witch of the "
               f"Cumaean Sibyl).", {opp: {"text": f"Shuffled back into the deck: {listed(scattered)}."}}, seat=opp)
        t.draw(opp, len(scattered), "draws a card (The Witch of the Cumaean Sibyl)")


# == Medusa's Witch ========================================================

@effect("medusas_witch")
class MedusasWitch(Effect[Table]):
    """If this witch lives, the enemy card is petrified: back to its owner's hand, never playable, out of Rallies."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        enemy = 1 - src.owner
        target = fight.cards[enemy]
        found = t.find(target)
        if found is not None and found[0] == enemy:
            card = t.hands[enemy][found[1]]
            t.update(replace(card, banned=True).tagged("petrified").tagged("no_rally"))
        elif by_uid(t.discard, target.uid) is not None:
            card = out_of_discard(t, target)
            t.enter(enemy, replace(card, banned=True).tagged("petrified").tagged("no_rally"))
        else:
            return
        t.emit("petrify", f"Medusa's Witch petrifies {who(enemy)}'s {card.notation()}: it lies in hand and may "
               "never be played.", seat=enemy, card=card.notation())


# == Chiquita Witch ========================================================

@effect("chiquita_witch")
class ChiquitaWitch(Effect[Table]):
    """While held, at each turn's end: +1 level to your creatures; those at level 5+ hit your Empire and are discarded."""

    def cast(self, t: Table, src: Source) -> None:
        note(t, "Chiquita Witch only works from the hand.")

    def held_end(self, t: Table, src: Source) -> None:
        me = src.owner
        creatures = t.creatures(me)
        if not creatures:
            return
        changes = [(c, leveled(c, 1)) for c in creatures]
        for _, new in changes:
            t.update(new)
        t.tell(me, "Chiquita Witch ripens your creatures: " + "; ".join(
            f"{old.notation()} → Lvl.{new.level}" for old, new in changes) + ".")
        t.rally(me)
        for card in [c for c in t.creatures(me) if c.level >= 5]:
            t.damage(me, card.base, f"{card.notation()} turned sour", card=card)
            t.to_discard(me, card, "sour: it attacked its own Empire and fled")


# == Midas Witch ===========================================================

@effect("midas_witch")
class MidasWitch(Effect[Table]):
    """For the rest of the game, every card entering your hand gains +2 base str."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("midas", src.owner, f"Midas Witch: cards entering {who(src.owner)}'s hand gain +2 base str.")


@rule("midas")
class Midas(Rule[Table]):
    """+2 base str to each card entering its owner's hand (drawn, gained or returned)."""

    def gained(self, t: Table, src: Source, seat: int, card: Card) -> Card:
        return replace(card, base=card.base + 2) if seat == src.owner else card


# == Santa Witch ===========================================================

@effect("santa_witch")
class SantaWitch(Effect[Table]):
    """Each player gets 2 gifts (50/50 a random creature or a Lump of Coal); you see the opponent's."""

    def cast(self, t: Table, src: Source) -> None:
        me, opp = src.owner, 1 - src.owner
        for seat in (me, opp):
            gifts: list[Card] = []
            for _ in range(2):
                gift = t.new_creature() if t.chance(50) else replace(t.new_token("Lump of Coal", 1, 0), banned=True)
                held = t.gain(seat, gift, "unwraps a gift (Santa Witch)")
                assert held is not None
                gifts.append(held)
            if seat == opp:
                t.tell(me, f"You peek at {who(opp)}'s gifts: {listed(gifts)}.", cards=[g.notation() for g in gifts])


@token("Lump of Coal")
class LumpOfCoal(Token[Table]):
    """A naughty gift: it may never be played and does nothing."""

    def playable(self, t: Table, src: Source) -> str | None:
        return "is a lump of coal: it cannot be played"


# == David's, Goliath and Juno's Witches ===================================

def lower_power_wins(fight: Fight) -> None:
    """Give the fight to the lower power (equal power stays as decided)."""
    p0, p1 = fight.powers
    if fight.fought and p0 != p1:
        fight.winner = 0 if p0 < p1 else 1


def is_giant(card: Card) -> bool:
    return not card.is_witch and card.kin == Tribe.GIANT.value


@effect("davids_witch")
class DavidsWitch(Effect[Table]):
    """For the rest of the game, in a Giant against a non-Giant duel the lower power wins."""

    def cast(self, t: Table, src: Source) -> None:
        if t.has_modifier("david"):
            note(t, "David's Witch: Giants are already humbled.")
            return
        t.add_modifier("david", src.owner, "David's Witch: when a Giant meets a non-Giant, the lower power wins.")


@rule("david")
class David(Rule[Table]):
    """Lower power wins a duel between a Giant and a card that is not a Giant."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if is_giant(fight.cards[0]) != is_giant(fight.cards[1]):
            lower_power_wins(fight)


@effect("goliath_witch")
class GoliathWitch(Effect[Table]):
    """In next turn's duel, the lower power wins."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("goliath", src.owner, f"Goliath Witch: in turn {t.turn + 1}'s duel the lower power wins.",
                       value=t.turn + 1, until=t.turn + 1)


@rule("goliath")
class Goliath(Rule[Table]):
    """Lower power wins the duel of its turn."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        assert src.mod is not None
        if t.turn == src.mod.value:
            lower_power_wins(fight)


@effect("junos_witch")
class JunosWitch(Effect[Table]):
    """For the rest of the game, a type advantage in a duel with a Giant is worth +6 instead of +3."""

    def cast(self, t: Table, src: Source) -> None:
        if t.has_modifier("juno"):
            note(t, "Juno's horn has already sounded.")
            return
        t.add_modifier("juno", src.owner, "Juno's Witch: in a duel with a Giant, a type advantage is worth +6.")


@rule("juno")
class Juno(Rule[Table]):
    """+3 more power for a type advantage when a Giant is in the duel."""

    def power(self, t: Table, src: Source, fight: Fight, seat: int, power: int) -> int:
        card, other = fight.cards[seat], fight.cards[1 - seat]
        if (is_giant(card) or is_giant(other)) and beats(card.ptype, other.ptype):
            return power + 3
        return power


# == Liberating Witch ======================================================

@effect("liberating_witch")
class LiberatingWitch(Effect[Table]):
    """Pick 1 of 3 random enemy creatures: it is removed from the game."""

    def cast(self, t: Table, src: Source) -> None:
        offer_enemy_creatures(t, src, "Liberating Witch: choose a creature to free from its cage of flesh.")

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        opp = 1 - src.owner
        card = chosen_enemy(t, src, pending, choice)
        if card is None:
            return
        t.remove(card)
        t.emit("removed", f"A creature in {who(opp)}'s hand is freed from its cage of flesh (removed from the game).",
               {opp: {"text": f"Your {card.notation()} is freed from its cage of flesh (removed from the game).",
                      "card": card.notation()}}, seat=opp)


# == Buried Witch ==========================================================

@effect("buried_witch")
class BuriedWitch(Effect[Table]):
    """With a Pirate Tribe Rally in hand (4+ Pirates), get 3 Cannonballs."""

    def cast(self, t: Table, src: Source) -> None:
        pirates = [c for c in t.hands[src.owner]
                   if c.kin == Tribe.PIRATE.value and not c.banned and not c.has("no_rally")]
        if len(pirates) < RALLY_SIZE:
            note(t, f"Buried Witch: {who(src.owner)} controls no Pirate rally; nothing is dug up.")
            return
        for _ in range(3):
            t.gain(src.owner, t.new_token("Cannonball", 1, 0), "digs up a Cannonball (Buried Witch)", public=True)


@token("Cannonball")
class Cannonball(Token[Table]):
    """Played: 5 damage to the enemy Empire; it has no power, loses to the card it meets and is discarded."""

    def power(self, t: Table, src: Source, fight: Fight, seat: int, power: int) -> int:
        return 0 if fighting(src, fight) and seat == src.owner else power

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if not fighting(src, fight) or not fight.fought:
            return
        fight.winner = 1 - src.owner
        fight.returns[src.owner] = False
        fight.summary = f"{who(src.owner)}'s Cannonball fires and falls; {who(1 - src.owner)}'s card wins the duel."

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if not fighting(src, fight):
            return
        own, enemy = src.owner, 1 - src.owner
        t.damage(enemy, 5, "a Cannonball")
        met = fight.cards[enemy]
        if fight.fought and fight.winner == enemy and not met.is_witch and met.base > 0:
            t.damage(own, met.base, f"lost the duel to {met.notation()}", kind="duel", card=fight.cards[own],
                     winner_card=met, fight_cards=fight.cards)
