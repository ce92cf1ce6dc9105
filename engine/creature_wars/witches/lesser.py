"""Lesser witches (levels 1-3): students of the art."""
from __future__ import annotations

from engine.creature_wars.cards import BASE_STRENGTH, Card, PowerType, Tribe, replace
from engine.creature_wars.effects import Effect, Fight, Rule, Source, effect, rule
from engine.creature_wars.state import Pending
from engine.creature_wars.table import Table, effect_of, spec_text, who
from engine.creature_wars.witch_catalogue import CATALOGUE, Rarity, by_name
from engine.creature_wars.witches.common import fighting, strength

__all__: list[str] = []


@effect("blind_witch")
class BlindWitch(Effect[Table]):
    """This witch always loses its fight."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if fighting(src, fight) and fight.fought:
            fight.winner = 1 - src.owner


@effect("greedy_witch")
class GreedyWitch(Effect[Table]):
    """Draw 2 cards."""

    def cast(self, t: Table, src: Source) -> None:
        t.draw(src.owner, 2, "draws a card (Greedy Witch)")


@effect("cursed_witch")
class CursedWitch(Effect[Table]):
    """Each turn this is in your hand, take 1 damage (at the turn's end)."""

    def held_end(self, t: Table, src: Source) -> None:
        t.damage(src.owner, 1, "Cursed Witch in hand")


@effect("pick_a_witch")
class PickAWitch(Effect[Table]):
    """Choose to keep 1 of 3 random witch cards: the offer is a question; the memo holds (catalogue index, level) pairs."""

    def cast(self, t: Table, src: Source) -> None:
        offers: list[int] = []
        labels: list[str] = []
        for _ in range(3):
            witch = t.random_witch()
            if witch is None:
                break
            index = next(i for i, s in enumerate(CATALOGUE) if s.name == witch.witch)
            offers += [index, witch.level]
            labels.append(witch.notation())
            t.next_uid -= 1  # only an offer: the card is made when chosen
        if labels:
            t.ask(src.owner, src, "Pick a Witch: keep one of these.", labels, offers)

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        index, level = pending.memo[2 * choice], pending.memo[2 * choice + 1]
        t.gain(src.owner, t.new_witch(CATALOGUE[index], level), "keeps a witch (Pick a Witch)")


# == helpers ===============================================================


def _opponent(src: Source) -> int:
    return 1 - src.owner


def _level_up(t: Table, seats: tuple[int, ...], by: int, source: str) -> None:
    """Give every creature in the hands of ``seats`` ``+by`` levels; each holder is told which, the rest only that."""
    for seat in seats:
        ups: list[str] = []
        for card in t.creatures(seat):
            t.update(replace(card, level=card.level + by))
            ups.append(f"{card.notation(t.turn)} → Lvl.{card.level + by}")
        text = f"Creatures in {who(seat)}'s hand gain +{by} level{'s' if by > 1 else ''} ({source})."
        detail = "; ".join(ups) if ups else "You hold no creature."
        t.emit("upgrade", text, {seat: {"text": f"{text} {detail}"}}, seat=seat, levels=by)


def _copy_of(t: Table, card: Card) -> Card:
    """A new card with ``card``'s stats (Tribe or token, level, base str, Power Type); no marks, cooldown or rally.

    A token keeps its ban (a Raven or a Lump of Coal is never playable); a creature's ban (a web) is not copied.
    """
    if card.token is not None:
        made = t.new_token(card.token, card.level, card.base, card.ptype, card.tribe)
        made = replace(made, banned=card.banned)
    else:
        assert card.tribe is not None
        made = t.new_creature(card.tribe, card.level, card.ptype, random_type=False)
    return replace(made, base=card.base)


# == the Lesser witches ======================================================


@effect("invisible_witch")
class InvisibleWitch(Effect[Table]):
    """This witch cannot be attacked: no fight, the enemy card goes back to hand with no cooldown; it escapes."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if not fighting(src, fight):
            return
        enemy = _opponent(src)
        fight.no_fight(f"The Invisible Witch cannot be attacked: no fight; {who(enemy)}'s card returns to hand.")
        fight.returns[enemy] = True
        fight.cooldown[enemy] = 0
        fight.removed[enemy] = False


@effect("angry_witch")
class AngryWitch(Effect[Table]):
    """If this witch loses its duel, discard a random card from the opponent's hand."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        enemy = _opponent(src)
        if t.hands[enemy]:
            t.to_discard(enemy, t.pick(t.hands[enemy]), "discarded at random (Angry Witch)")


@effect("magic_witch")
class MagicWitch(Effect[Table]):
    """Transform a random card in the opponent's hand into a random Serpent."""

    def cast(self, t: Table, src: Source) -> None:
        enemy = _opponent(src)
        if t.hands[enemy]:
            old = t.pick(t.hands[enemy])
            t.replace_card(enemy, old, t.new_creature(Tribe.SERPENT), "turns into a random Serpent (Magic Witch)")


@effect("voodoo_witch")
class VoodooWitch(Effect[Table]):
    """If this witch is killed, the opponent takes double its damage (6)."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        assert src.card is not None
        t.damage(_opponent(src), 2 * src.card.base, "Voodoo Witch")


@effect("which_witch")
class WhichWitch(Effect[Table]):
    """Become a random witch (Which Witch drawn again) that fights in its place and casts its effect."""

    def cast(self, t: Table, src: Source) -> None:
        assert src.card is not None and t.in_play is not None
        new = t.random_witch(exclude=self.key)
        if new is None:
            t.emit("witch", "Witches are banned: the Which Witch stays itself.", seat=src.owner)
            return
        t.in_play[src.owner] = new
        t.removed.append(src.card)
        t.emit("witch", f"{who(src.owner)}'s Which Witch becomes {new.notation()}, which casts: {spec_text(new)}",
               seat=src.owner, witch=new.witch, card=new.notation())
        eff = effect_of(new)
        if eff is not None:
            eff.cast(t, Source(src.owner, new))


@effect("witcheroo")
class Witcheroo(Effect[Table]):
    """Swap hands with the opponent."""

    def cast(self, t: Table, src: Source) -> None:
        hands = [list(t.hands[0]), list(t.hands[1])]
        t.hands[0], t.hands[1] = [], []
        for seat in (0, 1):
            for card in hands[1 - seat]:
                t.enter(seat, card)
        for seat in (0, 1):
            text = f"{who(seat)} takes {who(1 - seat)}'s hand (Witcheroo)."
            held = ", ".join(c.notation(t.turn) for c in t.hands[seat]) or "nothing"
            t.emit("swap", text, {seat: {"text": f"{text} You now hold: {held}."}}, seat=seat)


@effect("kind_witch")
class KindWitch(Effect[Table]):
    """Give creatures in both players' hands +1 level."""

    def cast(self, t: Table, src: Source) -> None:
        _level_up(t, (0, 1), 1, "Kind Witch")


@effect("cocksure_witch")
class CocksureWitch(Effect[Table]):
    """If this witch wins (or ties) its duel, draw a card; otherwise the opponent does."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        t.draw(src.owner, 1, "draws a card (Cocksure Witch)")

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        t.draw(_opponent(src), 1, "draws a card (Cocksure Witch)")


@effect("flamboyant_witch")
class FlamboyantWitch(Effect[Table]):
    """Add a random Lvl.1-3 Nightmare creature (random Tribe) to your hand."""

    def cast(self, t: Table, src: Source) -> None:
        level = t.randint(1, 3)
        t.gain(src.owner, t.new_creature(level=level, ptype=PowerType.NIGHTMARE),
               "gains a representative from the underworld (Flamboyant Witch)")


@effect("envious_witch")
class EnviousWitch(Effect[Table]):
    """Get a copy of the strongest creature (base str, then level, then at random) in the opponent's hand."""

    def cast(self, t: Table, src: Source) -> None:
        enemy = _opponent(src)
        creatures = t.creatures(enemy)
        if not creatures:
            t.tell(src.owner, "Envious Witch: your opponent holds no creature to copy.")
            return
        best = max(strength(c) for c in creatures)
        original = t.pick([c for c in creatures if strength(c) == best])
        copy = t.gain(src.owner, _copy_of(t, original), "gains a copy of an enemy creature (Envious Witch)")
        if copy is not None:
            t.tell(enemy, f"{who(src.owner)}'s Envious Witch copies your {original.notation(t.turn)}.")


@effect("sick_witch")
class SickWitch(Effect[Table]):
    """If this witch survives, every witch in the opponent's hand becomes a Sick Witch of the same level."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        enemy = _opponent(src)
        spec = by_name("Sick Witch")
        changed: list[str] = []
        for i, old in enumerate(list(t.hands[enemy])):
            if not old.is_witch or old.witch == spec.name:
                continue
            made = t.new_witch(spec, old.level)
            if made is None:
                break
            new = replace(made, witch_rally=old.witch_rally, ready_turn=old.ready_turn, banned=old.banned,
                          tags=old.tags)
            t.hands[enemy][i] = new
            t.removed.append(old)
            changed.append(f"{old.notation(t.turn)} → Sick Witch")
        text = f"Sick Witch: the witches in {who(enemy)}'s hand turn into Sick Witches."
        told = "; ".join(changed) if changed else "You hold no other witch."
        t.emit("transform", text, {enemy: {"text": f"{text} {told}"}}, seat=enemy)
        t.rally(enemy)


@effect("sacrificial_witch")
class SacrificialWitch(Effect[Table]):
    """If this witch dies, creatures in your hand gain +2 levels."""

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        _level_up(t, (src.owner,), 2, "Sacrificial Witch")


@effect("snake_eyed_witch")
class SnakeEyedWitch(Effect[Table]):
    """If you hold at least 2 Serpents, draw a card."""

    def cast(self, t: Table, src: Source) -> None:
        serpents = sum(1 for c in t.hands[src.owner] if c.tribe is Tribe.SERPENT and not c.is_witch)
        if serpents >= 2:
            t.draw(src.owner, 1, "draws a card (Snake-Eyed Witch)")
        else:
            t.tell(src.owner, "Snake-Eyed Witch: you hold fewer than 2 Serpents; no card.")


@effect("the_witch_collector")
class TheWitchCollector(Effect[Table]):
    """The opponent takes 3 damage; you gain 3 HP."""

    def cast(self, t: Table, src: Source) -> None:
        t.damage(_opponent(src), 3, "The Witch Collector")
        t.heal(src.owner, 3, "The Witch Collector")


@effect("wet_witch")
class WetWitch(Effect[Table]):
    """No questions asked: each player gives a random card from their hand to the other, at the same time."""

    def cast(self, t: Table, src: Source) -> None:
        given = [t.pick(t.hands[s]) if t.hands[s] else None for s in (0, 1)]
        for seat in (0, 1):
            card = given[seat]
            if card is not None:
                t.take(seat, card)
        for seat in (0, 1):
            card = given[seat]
            if card is not None:
                given[seat] = t.enter(1 - seat, card)
        for seat in (0, 1):
            out, got = given[seat], given[1 - seat]
            text = f"{who(seat)} gives a random card to {who(1 - seat)} (Wet Witch)."
            detail = (f"You give {out.notation(t.turn) if out else 'nothing'} and receive "
                      f"{got.notation(t.turn) if got else 'nothing'}.")
            t.emit("swap", text, {seat: {"text": f"{text} {detail}"}}, seat=seat)


@effect("flying_witch")
class FlyingWitch(Effect[Table]):
    """If this witch escapes, add 2 random Sacred witches to your hand."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        for _ in range(2):
            t.gain(src.owner, t.random_witch(Rarity.SACRED), "gains a random Sacred Witch (Flying Witch)")


class _Brother(Effect[Table]):
    """If this witch escapes, get its brother; if the brother escaped earlier, a Flying Witch instead."""

    brother = ""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        assert src.card is not None
        if t.count(f"escaped:{src.owner}:{self.brother}"):
            spec = by_name("Flying Witch")
        else:
            spec = by_name(self.brother)
        t.gain(src.owner, t.new_witch(spec), f"gains a witch ({src.card.witch})")


@effect("wilbur_witch")
class WilburWitch(_Brother):
    """If this witch escapes, get Orville Witch; if he already escaped, a Flying Witch instead."""

    brother = "Orville Witch"


@effect("orville_witch")
class OrvilleWitch(_Brother):
    """If this witch escapes, get Wilbur Witch; if he already escaped, a Flying Witch instead."""

    brother = "Wilbur Witch"


@effect("the_early_witch")
class TheEarlyWitch(Effect[Table]):
    """Played on turns 1-6: get 3 random Serpents."""

    def cast(self, t: Table, src: Source) -> None:
        if t.turn >= 7:
            t.emit("witch", "The Early Witch is too late (turn 7 or later): nothing happens.", seat=src.owner)
            return
        for _ in range(3):
            t.gain(src.owner, t.new_creature(Tribe.SERPENT), "gains a random Serpent (The Early Witch)")


@rule("witch_in_time")
class WitchInTimeRule(Rule[Table]):
    """The owner's next played card has +3 power in its duel (``data``: the turn it was played)."""

    counts_passed_plays = True  # its ruling: the +3 goes to the next card played, even against a pass

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        mod = src.mod
        if mod is None or seat != mod.owner or mod.data or mod not in t.modifiers:
            return
        t.modifiers[t.modifiers.index(mod)] = replace(mod, data=str(t.turn))

    def power(self, t: Table, src: Source, fight: Fight, seat: int, power: int) -> int:
        mod = src.mod
        if mod is not None and seat == mod.owner and mod.data == str(t.turn):
            return power + 3
        return power

    def turn_end(self, t: Table, src: Source) -> None:
        if src.mod is not None and src.mod.data:
            t.drop_modifier(src.mod)


@effect("witch_in_time")
class WitchInTime(Effect[Table]):
    """If this witch survives, the next card you play has +3 power in its duel."""

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        t.add_modifier("witch_in_time", src.owner,
                       f"Witch in Time: {who(src.owner)}'s next card played has +3 power.")


@effect("premature_witch")
class PrematureWitch(Effect[Table]):
    """Held: a seeded 50% roll each turn's start; on success it is played for you this turn (it casts nothing)."""

    def held_start(self, t: Table, src: Source) -> None:
        card = src.card
        if card is None or not t.chance(50) or t.playable_reason(src.owner, card) is not None:
            return
        t.update(card.tagged("spring", t.turn))
        t.tell(src.owner, f"Your {card.notation()} springs into action: it is played for you this turn.")

    def forced(self, t: Table, src: Source, seat: int) -> int | None:
        card = src.card
        if card is None or seat != src.owner or card.tag("spring") != t.turn:
            return None
        found = t.find(card)
        if found is None or t.playable_reason(seat, t.hands[seat][found[1]]) is not None:
            return None
        return found[1]


@effect("slumbering_witch")
class SlumberingWitch(Effect[Table]):
    """This witch cannot be played until you have formed a Rally (any kind, at any earlier point)."""

    def playable(self, t: Table, src: Source) -> str | None:
        if not t.count(f"rallied:{src.owner}"):
            return "cannot be played until you have formed a Rally"
        return None


@effect("mcwitch")
class McWitch(Effect[Table]):
    """Restore 4 HP and get a random Lvl.1 creature with a base str of 4 or less."""

    def cast(self, t: Table, src: Source) -> None:
        t.heal(src.owner, 4, "McWitch")
        tribe = t.pick([tr for tr in Tribe if BASE_STRENGTH[tr] <= 4])
        t.gain(src.owner, t.new_creature(tribe, 1), "gains a Lvl.1 creature (McWitch)")
