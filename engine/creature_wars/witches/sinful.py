"""Sinful witches (levels 7-9): the most perilous effects."""
from __future__ import annotations

from engine.creature_wars.cards import Card, PowerType, Tribe, replace
from engine.creature_wars.effects import Effect, Fight, Hit, Rule, Source, Token, effect, rule, token
from engine.creature_wars.state import Modifier, Pending
from engine.creature_wars.table import Table, who
from engine.creature_wars.witches.common import fighting

__all__: list[str] = []

SKELETOR = "Skeletor"
HORSEMAN = "Horseman"
GRINCH = "Grinch"
HORSEMAN_DAMAGE = 5


def _mod(src: Source) -> Modifier:
    """The modifier a rule hook acts for."""
    assert src.mod is not None
    return src.mod


def _in_play(t: Table, src: Source) -> bool:
    """The rule's modifier is still in play (a one-shot may already have been used in this fight)."""
    return src.mod is not None and src.mod in t.modifiers


def _listed(cards: list[Card]) -> str:
    return ", ".join(c.notation() for c in cards)


@rule("wrath")
class Wrath(Rule[Table]):
    """For the rest of the game, a player who loses a duel takes 3 more damage."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.kind == "duel":
            hit.add += 3


@effect("witch_of_wrath")
class WitchOfWrath(Effect[Table]):
    """Put the Wrath rule in play for the rest of the game."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("wrath", src.owner, "Witch of Wrath: whoever loses a duel takes 3 more damage.")


# == one-off casts =========================================================


@effect("cataclysmic_witch")
class CataclysmicWitch(Effect[Table]):
    """Remove the top half of the deck (rounded up) from the game, unseen."""

    def cast(self, t: Table, src: Source) -> None:
        doomed = t.deck[: (len(t.deck) + 1) // 2]
        if not doomed:
            t.emit("cataclysm", "The deck is empty: there is nothing to destroy.", seat=src.owner)
            return
        del t.deck[: len(doomed)]
        t.removed.extend(doomed)
        t.emit("cataclysm", f"Cataclysm! {len(doomed)} cards of the deck are destroyed; {len(t.deck)} remain.",
               seat=src.owner, destroyed=len(doomed))


@effect("giantfall_witch")
class GiantfallWitch(Effect[Table]):
    """With 3 or more Giants in hand, discard them all and deal 10 damage to the enemy Empire."""

    def cast(self, t: Table, src: Source) -> None:
        giants = [c for c in t.hands[src.owner] if c.tribe is Tribe.GIANT]
        if len(giants) < 3:
            t.emit("fizzle", f"{who(src.owner)} does not hold 3 Giants: nothing happens.", seat=src.owner)
            return
        for giant in giants:
            t.to_discard(src.owner, giant, "thrown down (Giantfall Witch)")
        t.damage(1 - src.owner, 10, "Giantfall Witch")


@effect("dragon_conclave_witch")
class DragonConclaveWitch(Effect[Table]):
    """Holding a Dragon of each of the four Power Types destroys the enemy Empire."""

    def cast(self, t: Table, src: Source) -> None:
        types = {c.ptype for c in t.hands[src.owner] if c.tribe is Tribe.DRAGON}
        if not set(PowerType) <= types:
            t.emit("fizzle", f"{who(src.owner)} does not hold a Dragon of each Power Type: nothing happens.",
                   seat=src.owner)
            return
        t.emit("conclave", f"{who(src.owner)} holds a Dragon of each Power Type: the Dragon Conclave gathers!",
               seat=src.owner)
        t.defeat(1 - src.owner, "the Dragon Conclave Witch")


@effect("the_beasts_witch")
class TheBeastsWitch(Effect[Table]):
    """Holding 6 or more creatures of level exactly 6 obliterates the enemy Empire."""

    def cast(self, t: Table, src: Source) -> None:
        beasts = [c for c in t.creatures(src.owner) if c.level == 6]
        if len(beasts) < 6:
            t.emit("fizzle", f"{who(src.owner)} does not hold 6 level 6 creatures: nothing happens.", seat=src.owner)
            return
        t.emit("beast", f"{who(src.owner)} holds 6 level 6 creatures: the Beast awakes!", seat=src.owner)
        t.defeat(1 - src.owner, "The Beast's Witch")


@effect("feral_witch")
class FeralWitch(Effect[Table]):
    """Discard every Wolf in the opponent's hand; each deals its level in damage to the opponent's Empire."""

    def cast(self, t: Table, src: Source) -> None:
        enemy = 1 - src.owner
        wolves = [c for c in t.hands[enemy] if c.tribe is Tribe.WOLF]
        if not wolves:
            t.emit("fizzle", f"{who(enemy)} holds no Wolves: nothing happens.", seat=src.owner)
            return
        for wolf in wolves:
            t.to_discard(enemy, wolf, "turns feral (Feral Witch)")
            t.damage(enemy, wolf.level, f"feral {wolf.notation()}")


@effect("witch_of_the_ancients_call")
class WitchOfTheAncientsCall(Effect[Table]):
    """Every Ancient creature in the opponent's hand moves to the caster's hand."""

    def cast(self, t: Table, src: Source) -> None:
        me, enemy = src.owner, 1 - src.owner
        called = [c for c in t.creatures(enemy) if c.ptype is PowerType.ANCIENT]
        t.emit("ancients_call", f"Call of the Ancients: {len(called)} Ancient creature(s) leave {who(enemy)}'s hand "
               f"for {who(me)}'s.", seat=me, moved=len(called))
        for card in called:
            t.take(enemy, card)
            shown = card.notation()
            t.emit("ancients_call", f"A card in {who(enemy)}'s hand answers the Call of the Ancients.",
                   {enemy: {"text": f"Your {shown} answers the Call of the Ancients and joins {who(me)}'s hand.",
                            "card": shown}}, seat=enemy)
            t.gain(me, card, "gains an Ancient creature (Call of the Ancients)")


@effect("skeletors_personal_witch")
class SkeletorsPersonalWitch(Effect[Table]):
    """If no Skeleton is left in the deck, get Skeletor (a Lvl.9 Ancient Skeleton {7})."""

    def cast(self, t: Table, src: Source) -> None:
        if any(c.tribe is Tribe.SKELETON for c in t.deck):
            t.emit("fizzle", "Skeletons are still left in the deck: Skeletor does not come.", seat=src.owner)
            return
        skeletor = t.new_token(SKELETOR, 9, 7, PowerType.ANCIENT, Tribe.SKELETON)
        t.gain(src.owner, skeletor, "gets Skeletor", public=True)


@token(SKELETOR)
class Skeletor(Token[Table]):
    """After a duel with a winner that he would leave, a random Skeleton from hand takes his place before damage."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        seat = src.owner
        if not fighting(src, fight) or not fight.fought or fight.winner is None or fight.returns[seat]:
            return
        skeletons = [c for c in t.hands[seat] if c.tribe is Tribe.SKELETON and c.token != SKELETOR]
        if not skeletons:
            return
        skeletor = fight.cards[seat]
        stand_in = t.take(seat, t.pick(skeletons))
        fight.cards[seat] = stand_in
        t.enter(seat, skeletor.fresh())
        t.emit("illusion", f"It was an illusion! {who(seat)}'s Skeletor was {stand_in.notation()} all along; "
               "Skeletor returns to hand.", seat=seat, card=stand_in.notation())


@effect("apocalypse_witch")
class ApocalypseWitch(Effect[Table]):
    """Shuffle four Horsemen into the deck: drawing one costs 5 HP and removes it from the game."""

    def cast(self, t: Table, src: Source) -> None:
        t.shuffle_into_deck([t.new_token(HORSEMAN, 9, HORSEMAN_DAMAGE) for _ in range(4)])
        t.emit("apocalypse", "The Four Horsemen are shuffled into the deck!", seat=src.owner)
        if not t.has_modifier("apocalypse"):
            t.add_modifier("apocalypse", src.owner, "Apocalypse Witch: whoever draws a Horseman takes 5 damage.")


def _horseman_strikes(t: Table, seat: int, card: Card) -> None:
    """A Horseman reached ``seat``: it is removed from the game and its holder's Empire takes 5 damage."""
    t.removed.append(card)
    t.emit("horseman", f"A Horseman of the Apocalypse rides into {who(seat)}'s Empire and is gone.", seat=seat)
    t.damage(seat, HORSEMAN_DAMAGE, "a Horseman of the Apocalypse")


@rule("apocalypse")
class Apocalypse(Rule[Table]):
    """A drawn Horseman never reaches the hand: it strikes the drawer; the rule ends when no Horseman is left."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        if card.token != HORSEMAN:
            return card
        _horseman_strikes(t, seat, card)
        if not any(c.token == HORSEMAN for c in t.deck):
            t.drop_modifier(_mod(src))
        return None


@token(HORSEMAN)
class Horseman(Token[Table]):
    """A Horseman cannot be played; one that reaches a hand other than by a draw strikes at the turn's end."""

    def playable(self, t: Table, src: Source) -> str | None:
        return "is a Horseman of the Apocalypse and cannot be played"

    def held_end(self, t: Table, src: Source) -> None:
        assert src.card is not None
        _horseman_strikes(t, src.owner, t.take(src.owner, src.card))


# == lasting rules =========================================================


@effect("witch_of_endor")
class WitchOfEndor(Effect[Table]):
    """Prophecy of Doom: at the end of the third turn after this one, the opponent's cards become level 1."""

    def cast(self, t: Table, src: Source) -> None:
        when = t.turn + 3
        t.add_modifier("endor", src.owner, f"Witch of Endor: at the end of turn {when}, every card in "
                       f"{who(1 - src.owner)}'s hand becomes level 1.", value=when, until=when)


@rule("endor")
class ProphecyOfDoom(Rule[Table]):
    """At the end of turn ``value``, every card in the enemy's hand becomes level 1."""

    def turn_end(self, t: Table, src: Source) -> None:
        mod = _mod(src)
        if t.turn < mod.value:
            return
        t.drop_modifier(mod)
        target = 1 - mod.owner
        changed = [c for c in t.hands[target] if c.level != 1]
        for card in changed:
            t.update(replace(card, level=1))
        mine = f"Prophecy of Doom: your cards become level 1 ({_listed(changed)})." if changed else \
            "Prophecy of Doom: your cards were all level 1 already."
        t.emit("prophecy", f"Prophecy of Doom: every card in {who(target)}'s hand becomes level 1.",
               {target: {"text": mine}}, seat=target)


@effect("liliths_witch")
class LilithsWitch(Effect[Table]):
    """For the rest of the game, no card of level 6 or more may be played, by either player."""

    def cast(self, t: Table, src: Source) -> None:
        if not t.has_modifier("lilith"):
            t.add_modifier("lilith", src.owner, "Lilith's Witch: cards of level 6 or more cannot be played.")


@rule("lilith")
class Lilith(Rule[Table]):
    """Cards of level 6+ (creatures and witches) refuse to be played."""

    def can_play(self, t: Table, src: Source, seat: int, card: Card) -> str | None:
        return "is level 6 or more and refuses to serve (Lilith's Witch)" if card.level >= 6 else None


@effect("cannibalistic_witch")
class CannibalisticWitch(Effect[Table]):
    """For the rest of the game, when the caster wins a duel the enemy card is eaten and the caster heals its base str."""

    def cast(self, t: Table, src: Source) -> None:
        if not t.has_modifier("cannibal", src.owner):
            t.add_modifier("cannibal", src.owner, f"Cannibalistic Witch: when {who(src.owner)} wins a duel, the "
                           "enemy card is eaten and they heal its base str.")


@rule("cannibal")
class Cannibal(Rule[Table]):
    """After its owner wins a duel, the enemy card (wherever it went) is removed from the game; heal its base str."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        me = src.owner
        if not fight.fought or fight.winner != me or fight.removed[1 - me]:
            return
        meal = fight.cards[1 - me]
        zones = [t.discard, t.hands[0], t.hands[1]]
        if not any(c.uid == meal.uid for zone in zones for c in zone):
            return
        t.remove(meal, "eaten")
        t.emit("eaten", f"{who(me)} eats {who(1 - me)}'s {meal.notation()}.", seat=me, card=meal.notation())
        t.heal(me, meal.base, "Cannibalistic Witch")


@effect("richard_witchson")
class RichardWitchson(Effect[Table]):
    """War on Witches: every witch in both hands, the sacks and the deck is removed; no witch is made again."""

    def cast(self, t: Table, src: Source) -> None:
        t.set_count("witches_banned", 1)
        if not t.has_modifier("war_on_witches"):
            t.add_modifier("war_on_witches", src.owner, "Richard Witchson: witches are banned from the game.")
        _purge_witches(t)


def _purge_witches(t: Table) -> None:
    """Remove every witch from both hands, both sacks and the deck; holders learn which of theirs went."""
    for seat in (0, 1):
        gone = [c for c in t.hands[seat] if c.is_witch]
        for card in gone:
            t.remove(card, "banned")
        bagged = [c for c in t.sacks[seat] if c.is_witch]
        if bagged:
            t.sacks[seat] = [c for c in t.sacks[seat] if not c.is_witch]
            t.removed.extend(bagged)
        if gone or bagged:
            t.emit("war_on_witches", f"War on Witches: {len(gone)} witch card(s) leave {who(seat)}'s hand.",
                   {seat: {"text": f"War on Witches: your witches are banned ({_listed(gone + bagged)})."}},
                   seat=seat, count=len(gone))
    in_deck = [c for c in t.deck if c.is_witch]
    for card in in_deck:
        t.remove(card, "banned")
    if in_deck:
        t.emit("war_on_witches", f"War on Witches: {len(in_deck)} witch card(s) are removed from the deck.",
               count=len(in_deck))


@rule("war_on_witches")
class WarOnWitches(Rule[Table]):
    """Witches are banned: none may be played, and any that turns up in a hand or the deck is removed at turn end."""

    def can_play(self, t: Table, src: Source, seat: int, card: Card) -> str | None:
        return "is a witch, and witches are banned (Richard Witchson)" if card.is_witch else None

    def turn_end(self, t: Table, src: Source) -> None:
        _purge_witches(t)


@effect("the_witch_of_tantalus")
class TheWitchOfTantalus(Effect[Table]):
    """The Eternal Thirst: for the rest of the game, each card the opponent draws costs them 1 HP."""

    def cast(self, t: Table, src: Source) -> None:
        mod = t.add_modifier("tantalus", src.owner, f"The Witch of Tantalus: {who(1 - src.owner)} takes 1 damage "
                             "for each card drawn.")
        t.modifiers.remove(mod)
        t.modifiers.insert(0, mod)  # first in line: it sees every draw, even one a sack or a Horseman takes


@rule("tantalus")
class EternalThirst(Rule[Table]):
    """Each card the owner's opponent draws deals them 1 damage."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        if seat != src.owner:
            t.damage(seat, 1, "The Eternal Thirst")
        return card


@effect("deathless_witch")
class DeathlessWitch(Effect[Table]):
    """No player can lose until MAYHEM."""

    def cast(self, t: Table, src: Source) -> None:
        if not t.has_modifier("deathless"):
            t.add_modifier("deathless", src.owner, "Deathless Witch: no player can lose until MAYHEM.")


@rule("deathless")
class Deathless(Rule[Table]):
    """Nobody can lose (by HP or by an effect) until MAYHEM."""

    def can_lose(self, t: Table, src: Source, seat: int) -> bool:
        return bool(t.count("mayhem"))


# == Baden's Witch =========================================================


@effect("badens_witch")
class BadensWitch(Effect[Table]):
    """The next time the caster is about to lose a duel, the most powerful creature in hand fights instead."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("baden", src.owner, f"Baden's Witch: the next time {who(src.owner)} is about to lose a duel, "
                       "the most powerful creature in their hand fights instead.")


@rule("baden")
class BadensSwitch(Rule[Table]):
    """One-shot: the owner's losing card goes back to hand and the most powerful playable creature there fights."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        me, enemy = src.owner, 1 - src.owner
        if not fight.fought or fight.winner != enemy or not _in_play(t, src):
            return
        t.drop_modifier(_mod(src))
        choices = [c for c in t.creatures(me) if t.playable_reason(me, c) is None]
        if not choices:
            t.emit("baden", f"Baden's Witch: {who(me)} has no creature to switch in.", seat=me)
            return
        new = max(choices, key=lambda c: (c.base + c.level, c.base, c.level))
        old, foe = fight.cards[me], fight.cards[enemy]
        t.take(me, new)
        t.enter(me, old.fresh())
        fight.cards[me] = new
        fight.powers[me] = new.power_against(foe)
        fight.powers[enemy] += foe.power_against(new) - foe.power_against(old)
        mine, theirs = fight.powers[me], fight.powers[enemy]
        winner = None if mine == theirs else (me if mine > theirs else enemy)
        fight.returns = [False, False]
        fight.cooldown = [0, 0]
        fight.removed[me] = False
        if foe.is_witch:
            winner = enemy if winner is None else winner  # a tie is the witch's
            fight.returns[me] = True  # a creature that fought a witch goes back to hand
        elif winner is None:
            fight.returns = [True, True]
            fight.cooldown = [1, 1]
        fight.winner = winner
        fight.summary = ""
        t.emit("baden", f"Baden's Witch: {who(me)}'s {old.notation()} returns to hand and {new.notation()} fights "
               "in its place.", seat=me, card=new.notation())


# == Grinch ================================================================


@effect("the_witch_who_stole_grinch")
class TheWitchWhoStoleGrinch(Effect[Table]):
    """Choose who gets Grinch (a Lvl.6 {5} creature, no Tribe or Power Type); his holder's draws go into his sack."""

    def cast(self, t: Table, src: Source) -> None:
        t.ask(src.owner, src, "The Witch Who Stole Grinch: who gets Grinch?",
              ["Keep Grinch yourself", f"Give Grinch to {who(1 - src.owner)}"])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        seat = src.owner if choice == 0 else 1 - src.owner
        if not t.has_modifier("grinch_sack"):
            t.add_modifier("grinch_sack", src.owner, "Grinch: while he is in a player's hand, the cards that "
                           "player draws go into his sack, until he leaves the hand.")
        t.gain(seat, t.new_token(GRINCH, 6, 5), "gets Grinch", public=True)


@token(GRINCH)
class Grinch(Token[Table]):
    """Grinch fights as a plain Lvl.6 {5} creature; his sack is the ``grinch_sack`` rule."""


def _holds_grinch(t: Table, seat: int) -> bool:
    return any(c.token == GRINCH for c in t.hands[seat])


def _empty_sacks(t: Table) -> None:
    """A seat whose hand holds no Grinch gets the cards in its sack."""
    for seat in (0, 1):
        if not t.sacks[seat] or _holds_grinch(t, seat):
            continue
        loot, t.sacks[seat] = t.sacks[seat], []
        t.emit("sack", f"Grinch has left {who(seat)}'s hand: his sack ({len(loot)} card(s)) empties into it.",
               seat=seat, count=len(loot))
        for card in loot:
            t.gain(seat, card, "takes a card from Grinch's sack")


@rule("grinch_sack")
class GrinchsSack(Rule[Table]):
    """Draws of a player holding Grinch go into that player's sack; the sack empties into the hand once he leaves it."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        _empty_sacks(t)
        if card.token == HORSEMAN or not _holds_grinch(t, seat):
            return card
        t.sacks[seat].append(card)
        shown = card.notation()
        t.emit("sack", f"{who(seat)}'s drawn card goes into Grinch's sack.",
               {seat: {"text": f"Grinch stuffs {shown} into his sack.", "card": shown}}, seat=seat)
        return None

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        _empty_sacks(t)

    def turn_end(self, t: Table, src: Source) -> None:
        _empty_sacks(t)
