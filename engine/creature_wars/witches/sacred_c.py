"""Sacred witches (levels 4-6), part c of the catalogue's order."""
from __future__ import annotations

from engine.creature_wars.cards import BASE_STRENGTH, Card, PowerType, Tribe, replace
from engine.creature_wars.effects import Effect, Fight, Hit, Rule, Source, Token, effect, rule, token
from engine.creature_wars.state import Modifier, Pending
from engine.creature_wars.table import Table, who
from engine.creature_wars.witches.common import fighting

__all__: list[str] = []

SCARECROW = "Scarecrow"
STAND_IN = "Stand-In"


# == helpers ===============================================================


def _enemy(src: Source) -> int:
    return 1 - src.owner


def _lower(card: Card, by: int) -> Card:
    """``card`` with ``by`` fewer levels; a level never goes below 0."""
    return replace(card, level=max(0, card.level - by))


def _lines(t: Table, changes: list[tuple[Card, Card]]) -> str:
    return "; ".join(f"{old.notation(t.turn)} → {new.notation(t.turn)}" for old, new in changes)


def _change(t: Table, seat: int, changes: list[tuple[Card, Card]], public: str) -> None:
    """Write changed cards back into ``seat``'s hand: its holder is told which, everyone else only ``public``."""
    if not changes:
        return
    for _, new in changes:
        t.update(new)
    t.emit("transform", public, {seat: {"text": f"{public} Yours: {_lines(t, changes)}."}}, seat=seat)
    t.rally(seat)


def _quiet_change(t: Table, seat: int, changes: list[tuple[Card, Card]], what: str) -> None:
    """Change cards in ``seat``'s hand that only its holder knows are affected (an effect of a hidden card)."""
    if not changes:
        return
    for _, new in changes:
        t.update(new)
    t.tell(seat, f"{what}: {_lines(t, changes)}.")
    t.rally(seat)


def _by_kin(cards: list[Card]) -> list[list[Card]]:
    """The creatures grouped by Tribe (a token without a Tribe is its own kin), in order of first appearance."""
    groups: dict[str, list[Card]] = {}
    for card in cards:
        if card.kin is not None:
            groups.setdefault(card.kin, []).append(card)
    return list(groups.values())


def _in_hand(t: Table, seat: int, uid: int) -> Card | None:
    return next((c for c in t.hands[seat] if c.uid == uid), None)


def _from_discard(t: Table, uid: int) -> Card | None:
    """Take the card with this uid out of the discard pile, if it is there."""
    for i, card in enumerate(t.discard):
        if card.uid == uid:
            return t.discard.pop(i)
    return None


def _uids(mod: Modifier) -> list[int]:
    return [int(u) for u in mod.data.split(",") if u]


def _set_uids(t: Table, mod: Modifier, uids: list[int]) -> Modifier:
    """Rewrite a modifier's uid list (modifiers are values: the one in play is replaced)."""
    new = replace(mod, data=",".join(str(u) for u in uids))
    if mod in t.modifiers:
        t.modifiers[t.modifiers.index(mod)] = new
    return new


def _nothing(t: Table, seat: int, text: str) -> None:
    t.emit("witch", text, seat=seat)


def _discard_random(t: Table, seat: int, why: str) -> None:
    if t.hands[seat]:
        t.to_discard(seat, t.pick(t.hands[seat]), why)


# == Skeletal Witch ========================================================


@rule("skellified")
class Skellified(Rule[Table]):
    """A skellified creature deals at most 3 (a Skeleton's base str) when it damages an Empire."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.card is not None and hit.card.has("skellified"):
            hit.amount = min(hit.amount, BASE_STRENGTH[Tribe.SKELETON])


@effect("skeletal_witch")
class SkeletalWitch(Effect[Table]):
    """With an Enhanced (rallied) Skeleton in hand, every other creature in hand becomes a skellified Skeleton."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        creatures = t.creatures(seat)
        if not any(c.tribe is Tribe.SKELETON and (c.tribe_rally or c.type_rally) for c in creatures):
            _nothing(t, seat, f"Skeletal Witch: {who(seat)} controls no Enhanced Skeleton; nothing happens.")
            return
        changes = [(c, replace(c, tribe=Tribe.SKELETON).tagged("skellified"))
                   for c in creatures if c.tribe is not Tribe.SKELETON]
        _change(t, seat, changes, f"Skeletal Witch: the creatures in {who(seat)}'s hand are skellified.")
        if changes and not t.has_modifier("skellified"):
            t.add_modifier("skellified", seat, "Skeletal Witch: skellified creatures deal at most 3 damage to an Empire.")


# == Ossuary Witch =========================================================


@effect("ossuary_witch")
class OssuaryWitch(Effect[Table]):
    """Every Skeleton that lost a duel and is still in the discard pile goes back into the deck at its level + 1."""

    def cast(self, t: Table, src: Source) -> None:
        dead: dict[int, Card] = {}
        for card in t.slain:
            if card.kin == Tribe.SKELETON.value:
                dead[card.uid] = card  # the level it last died at
        back: list[Card] = []
        for uid, fallen in dead.items():
            found = _from_discard(t, uid)
            if found is not None:
                card = replace(found, level=fallen.level + 1)
                t.to_deck(card)
                back.append(card)
        if not back:
            _nothing(t, src.owner, "Ossuary Witch: no slain Skeleton lies in the discard pile.")
            return
        shown = ", ".join(c.notation() for c in back)
        t.emit("shuffle", f"Ossuary Witch: slain Skeletons are shuffled back into the deck: {shown}.",
               seat=src.owner, cards=[c.notation() for c in back])


# == Pilfering Witch =======================================================


@effect("pilfering_witch")
class PilferingWitch(Effect[Table]):
    """Steal a random witch card from the opponent's hand, if there is one."""

    def cast(self, t: Table, src: Source) -> None:
        seat, enemy = src.owner, _enemy(src)
        witches = [c for c in t.hands[enemy] if c.is_witch]
        if not witches:
            _nothing(t, seat, f"Pilfering Witch: {who(enemy)} holds no Witch card.")
            return
        card = t.take(enemy, t.pick(witches))
        t.tell(enemy, f"{who(seat)}'s Pilfering Witch steals your {card.notation(t.turn)}.")
        t.gain(seat, card, f"steals a Witch card from {who(enemy)} (Pilfering Witch)")


# == Backlash Witch ========================================================


@rule("backlash")
class Backlash(Rule[Table]):
    """For the rest of the game, a creature of level 6+ that wins a duel deals its base str to its own Empire."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if not fight.fought or fight.winner is None:
            return
        won = fight.cards[fight.winner]
        if won.is_witch or won.level < 6:
            return
        t.damage(fight.winner, won.base, f"Backlash: {won.notation()} won at level 6+", card=won)


@effect("backlash_witch")
class BacklashWitch(Effect[Table]):
    """Put the Backlash rule in play for the rest of the game (for both players)."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("backlash", src.owner,
                       "Backlash Witch: a creature of level 6+ that wins a duel also damages its own Empire.")


# == Benevolent Witch ======================================================


@effect("benevolent_witch")
class BenevolentWitch(Effect[Table]):
    """Give one random creature of each Tribe in your hand +2 levels."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        chosen = [t.pick(group) for group in _by_kin(t.creatures(seat))]
        changes = [(c, replace(c, level=c.level + 2)) for c in chosen]
        if not changes:
            _nothing(t, seat, f"Benevolent Witch: {who(seat)} holds no creature.")
        _change(t, seat, changes, f"Benevolent Witch: a creature of each Tribe in {who(seat)}'s hand gains +2 levels.")


# == Prehistoric Witch =====================================================


@effect("prehistoric_witch")
class PrehistoricWitch(Effect[Table]):
    """Make every creature in your hand Ancient."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        changes = [(c, replace(c, ptype=PowerType.ANCIENT)) for c in t.creatures(seat) if c.ptype is not PowerType.ANCIENT]
        _change(t, seat, changes, f"Prehistoric Witch: the creatures in {who(seat)}'s hand become Ancient.")


# == Draconic Witch ========================================================


@effect("draconic_witch")
class DraconicWitch(Effect[Table]):
    """Every Serpent in both hands becomes a random Dragon (level 1-6, random Power Type)."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, _enemy(src)):
            for card in [c for c in t.creatures(seat) if c.tribe is Tribe.SERPENT]:
                t.replace_card(seat, card, t.new_creature(Tribe.DRAGON), "turns into a random Dragon (Draconic Witch)")


# == Haughty Witch =========================================================


@effect("haughty_witch")
class HaughtyWitch(Effect[Table]):
    """If this witch's level is greater than the enemy card's, take a random card from the opponent's hand."""

    def cast(self, t: Table, src: Source) -> None:
        assert t.in_play is not None and src.card is not None
        seat, enemy = src.owner, _enemy(src)
        witch = t.in_play[seat] or src.card
        challenger = t.in_play[enemy]
        if challenger is None or witch.level <= challenger.level:
            _nothing(t, seat, "Haughty Witch: its level is not greater than its challenger's; nothing happens.")
            return
        if not t.hands[enemy]:
            _nothing(t, seat, f"Haughty Witch: {who(enemy)}'s hand is empty.")
            return
        card = t.take(enemy, t.pick(t.hands[enemy]))
        t.tell(enemy, f"{who(seat)}'s Haughty Witch takes your {card.notation(t.turn)}.")
        t.gain(seat, card, f"takes a random card from {who(enemy)} (Haughty Witch)")


# == Haggel & Witchel ======================================================


@rule("haggel_witchel")
class HaggelCurse(Rule[Table]):
    """The next player to draw a witch card from the deck takes 12 damage (then the curse is spent)."""

    def drawn(self, t: Table, src: Source, seat: int, card: Card) -> Card | None:
        if card.is_witch and src.mod is not None and src.mod in t.modifiers:
            t.drop_modifier(src.mod)
            t.damage(seat, 12, "drew a Witch card (Haggel & Witchel)")
        return card


@effect("haggel_witchel")
class HaggelWitchel(Effect[Table]):
    """Curse the next witch draw (12 damage), then both players draw up to 8 cards (first drawer first)."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("haggel_witchel", src.owner, "Haggel & Witchel: the next player to draw a Witch card takes 12 damage.")
        for seat in (t.first_drawer, 1 - t.first_drawer):
            while len(t.hands[seat]) < 8 and t.deck:
                if not t.draw(seat, 1, "draws a card (Haggel & Witchel)"):
                    break  # the match ended (the curse's 12 damage)


# == Storytime Witch =======================================================


@effect("storytime_witch")
class StorytimeWitch(Effect[Table]):
    """Add a random creature to your hand, shown to both players."""

    def cast(self, t: Table, src: Source) -> None:
        t.gain(src.owner, t.new_creature(), "is read a story and gains a creature (Storytime Witch)", public=True)


# == Ondu's Witch ==========================================================


@effect("ondus_witch")
class OndusWitch(Effect[Table]):
    """Undo last turn's duel: heal its Empire damage; its cards come back from the discard pile with cooldown 1."""

    def cast(self, t: Table, src: Source) -> None:
        last = t.last_duel
        if last is None or last.turn != t.turn - 1:
            _nothing(t, src.owner, "Ondu's Witch: there is no previous duel to reverse.")
            return
        t.emit("witch", f"Ondu's Witch reverses the duel of turn {last.turn}.", seat=src.owner)
        for seat in (0, 1):
            t.heal(seat, last.damage[seat], "Ondu's Witch takes the damage back")
        for seat, played in enumerate(last.cards):
            if played is None:
                continue
            card = _from_discard(t, played.uid)
            if card is not None:
                t.gain(seat, replace(card, ready_turn=t.turn + 2), "takes back a card from the discard pile (Ondu's Witch)",
                       public=True)


# == The Coven of Babel ====================================================


@effect("the_coven_of_babel")
class TheCovenOfBabel(Effect[Table]):
    """Each player shuffles one random creature of each Tribe in their hand into the deck."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, _enemy(src)):
            chosen = [t.pick(group) for group in _by_kin(t.creatures(seat))]
            for card in chosen:
                t.take(seat, card)
            t.shuffle_into_deck(chosen)
            public = f"The Coven of Babel: {who(seat)} shuffles {len(chosen)} creature(s) into the deck."
            mine = ", ".join(c.notation(t.turn) for c in chosen) or "none"
            t.emit("shuffle", public, {seat: {"text": f"{public} Yours: {mine}."}}, seat=seat, count=len(chosen))


# == Strawman Witch and the Scarecrow ======================================


@token(SCARECROW)
class Scarecrow(Token[Table]):
    """Doesn't care: its fight is a tie and both cards are discarded; held, its hand's Nightmares lose 1 level a turn."""

    def decide(self, t: Table, src: Source, fight: Fight) -> None:
        if fighting(src, fight) and fight.fought:
            fight.winner = None
            fight.returns = [False, False]
            fight.cooldown = [0, 0]
            fight.summary = "The Scarecrow doesn't care: a tie, and both cards are discarded."

    def held_end(self, t: Table, src: Source) -> None:
        seat = src.owner
        changes = [(c, _lower(c, 1)) for c in t.creatures(seat) if c.ptype is PowerType.NIGHTMARE and c.level > 0]
        _quiet_change(t, seat, changes, "The Scarecrow in your hand: your Nightmare creatures lose 1 level")


@effect("strawman_witch")
class StrawmanWitch(Effect[Table]):
    """Turn a random creature in the opponent's hand into a Scarecrow (Lvl.1, base str 3, no Power Type)."""

    def cast(self, t: Table, src: Source) -> None:
        enemy = _enemy(src)
        creatures = t.creatures(enemy)
        if not creatures:
            _nothing(t, src.owner, f"Strawman Witch: {who(enemy)} holds no creature.")
            return
        t.replace_card(enemy, t.pick(creatures), t.new_token(SCARECROW, 1, 3), "turns into a Scarecrow (Strawman Witch)")


# == Vegetable Mask Witch ==================================================


@effect("vegetable_mask_witch")
class VegetableMaskWitch(Effect[Table]):
    """Held: -1 level at each turn's end, at level 0 draw 2 and discard it. Played: if it escapes, discard your hand."""

    def held_end(self, t: Table, src: Source) -> None:
        assert src.card is not None
        seat, card = src.owner, src.card
        new = _lower(card, 1)
        t.update(new)
        if new.level > 0:
            t.tell(seat, f"Your {card.notation(t.turn)} loses 1 level → Lvl.{new.level}.")
            return
        t.to_discard(seat, new, "discarded at level 0 (Vegetable Mask Witch)")
        t.draw(seat, 2, "draws a card (Vegetable Mask Witch)")

    def escaped(self, t: Table, src: Source, fight: Fight) -> None:
        for card in list(t.hands[src.owner]):
            t.to_discard(src.owner, card, "discarded (the Vegetable Mask Witch won its duel)")


# == Sanctifying Witch =====================================================


@rule("sanctified")
class Sanctified(Rule[Table]):
    """For the rest of the game, Holy creatures deal double damage to Empires."""

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        if hit.card is not None and not hit.card.is_witch and hit.card.ptype is PowerType.HOLY:
            hit.mult *= 2


@effect("sanctifying_witch")
class SanctifyingWitch(Effect[Table]):
    """Nightmare creatures in both hands become Holy; Holy creatures deal double damage for the rest of the game."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, _enemy(src)):
            changes = [(c, replace(c, ptype=PowerType.HOLY)) for c in t.creatures(seat) if c.ptype is PowerType.NIGHTMARE]
            _change(t, seat, changes, f"Sanctifying Witch: the Nightmare creatures in {who(seat)}'s hand become Holy.")
        if not t.has_modifier("sanctified"):
            t.add_modifier("sanctified", src.owner, "Sanctifying Witch: Holy creatures deal double damage to Empires.")


# == Arnold Layne's Witch ==================================================


@effect("arnold_laynes_witch")
class ArnoldLaynesWitch(Effect[Table]):
    """Swap a random creature from each hand; the one you receive gets +2 levels and cooldown 1."""

    def cast(self, t: Table, src: Source) -> None:
        seat, enemy = src.owner, _enemy(src)
        mine, theirs = t.creatures(seat), t.creatures(enemy)
        if not mine or not theirs:
            _nothing(t, seat, "Arnold Layne's Witch: a player holds no creature; nothing is swapped.")
            return
        given = t.take(seat, t.pick(mine))
        taken = t.take(enemy, t.pick(theirs))
        t.tell(seat, f"You give your {given.notation(t.turn)} to {who(enemy)}.")
        t.tell(enemy, f"{who(seat)}'s Arnold Layne's Witch takes your {taken.notation(t.turn)}.")
        received = replace(taken, level=taken.level + 2, ready_turn=t.turn + 2)
        t.gain(seat, received, f"steals a creature from {who(enemy)} (Arnold Layne's Witch)")
        t.gain(enemy, given, f"receives a creature from {who(seat)} (Arnold Layne's Witch)")


# == Emily's Hiding Witch ==================================================


@rule("emilys_hiding")
class EmilysHiding(Rule[Table]):
    """At the start of each turn, every hiding creature in a hand takes a random level 1-6 (only its holder sees it)."""

    def turn_start(self, t: Table, src: Source) -> None:
        for seat in (0, 1):
            for card in list(t.hands[seat]):
                if card.has("emily_hiding"):
                    new = replace(card, level=t.randint(1, 6))
                    t.update(new)
                    t.tell(seat, f"Your hiding {card.notation(t.turn)} changes level → Lvl.{new.level}.")


@effect("emilys_hiding_witch")
class EmilysHidingWitch(Effect[Table]):
    """Choose a creature in your hand (a question; memo: the uids offered): it takes a random level each turn."""

    def cast(self, t: Table, src: Source) -> None:
        creatures = t.creatures(src.owner)
        if not creatures:
            _nothing(t, src.owner, f"Emily's Hiding Witch: {who(src.owner)} holds no creature.")
        elif len(creatures) == 1:
            self.hide(t, src.owner, creatures[0])
        else:
            t.ask(src.owner, src, "Emily's Hiding Witch: choose a creature in your hand to hide.",
                  [c.notation(t.turn) for c in creatures], [c.uid for c in creatures])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        card = _in_hand(t, src.owner, pending.memo[choice])
        if card is not None:
            self.hide(t, src.owner, card)

    @staticmethod
    def hide(t: Table, seat: int, card: Card) -> None:
        t.update(card.tagged("emily_hiding"))
        t.tell(seat, f"Your {card.notation(t.turn)} hides: its level changes at random at the start of each turn.")
        if not t.has_modifier("emilys_hiding"):
            t.add_modifier("emilys_hiding", seat,
                           "Emily's Hiding Witch: a hiding creature takes a random level (1-6) at the start of each turn.")


# == Golden Veil Witch =====================================================


@effect("golden_veil_witch")
class GoldenVeilWitch(Effect[Table]):
    """Get a random creature of a Tribe you don't hold (nothing if you hold every Tribe)."""

    def cast(self, t: Table, src: Source) -> None:
        held = {c.tribe for c in t.creatures(src.owner)}
        missing = [tribe for tribe in Tribe if tribe not in held]
        if not missing:
            _nothing(t, src.owner, f"Golden Veil Witch: {who(src.owner)} already holds every Tribe.")
            return
        t.gain(src.owner, t.new_creature(t.pick(missing)), "gains a creature (Golden Veil Witch)")


# == Dark Globe Witch ======================================================


@effect("dark_globe_witch")
class DarkGlobeWitch(Effect[Table]):
    """Creatures in both hands lose their Power Type for good."""

    def cast(self, t: Table, src: Source) -> None:
        for seat in (src.owner, _enemy(src)):
            changes = [(c, replace(c, ptype=None)) for c in t.creatures(seat) if c.ptype is not None]
            _change(t, seat, changes, f"Dark Globe Witch: the creatures in {who(seat)}'s hand lose their Power Type.")


# == Gnome Witch ===========================================================


@effect("gnome_witch")
class GnomeWitch(Effect[Table]):
    """Shuffle the levels, and separately the Power Types, among the creatures in your hand."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        creatures = t.creatures(seat)
        levels = t.shuffle([c.level for c in creatures])
        types = t.shuffle([c.ptype for c in creatures])
        changes = [(c, replace(c, level=level, ptype=ptype)) for c, level, ptype in zip(creatures, levels, types, strict=True)
                   if (level, ptype) != (c.level, c.ptype)]
        _change(t, seat, changes, f"Gnome Witch: the levels and Power Types in {who(seat)}'s hand are scrambled. \"Ooh, my\"")


# == Jugband Opener Witch ==================================================


@rule("jugband_opener")
class JugbandOpener(Rule[Table]):
    """Its owner may play only the listed creatures (data: uids) while one of them in hand is playable."""

    def can_play(self, t: Table, src: Source, seat: int, card: Card) -> str | None:
        assert src.mod is not None
        if seat != src.mod.owner:
            return None
        uids = _uids(src.mod)
        if card.uid in uids:
            return None
        first = [c for c in t.hands[seat] if c.uid in uids]
        if any(t.playable_reason(seat, c) is None for c in first):
            return "must wait: the Jugband Opener's creatures are played first"
        return None

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        assert src.mod is not None
        uids = _uids(src.mod)
        if seat == src.mod.owner and card.uid in uids:
            _set_uids(t, src.mod, [u for u in uids if u != card.uid])

    def turn_end(self, t: Table, src: Source) -> None:
        assert src.mod is not None
        mod = next((m for m in t.modifiers if m.key == self.key and m.owner == src.mod.owner), None)
        if mod is None:
            return
        held = [u for u in _uids(mod) if _in_hand(t, mod.owner, u) is not None]
        if held:
            _set_uids(t, mod, held)
        else:
            t.drop_modifier(mod)


@effect("jugband_opener_witch")
class JugbandOpenerWitch(Effect[Table]):
    """Add 3 random creatures to your hand; until they are played (or leave your hand) you may play only them."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        made = [t.gain(seat, t.new_creature(), "gains a Jugband creature (Jugband Opener Witch)") for _ in range(3)]
        uids = [c.uid for c in made if c is not None]
        mod = next((m for m in t.modifiers if m.key == "jugband_opener" and m.owner == seat), None)
        if mod is not None:
            _set_uids(t, mod, [*_uids(mod), *uids])
        else:
            t.add_modifier("jugband_opener", seat,
                           f"Jugband Opener Witch: {who(seat)} must play the Jugband creatures before any other card.",
                           data=",".join(str(u) for u in uids))


# == Jugband Encore Witch ==================================================


@rule("jugband_encore")
class JugbandEncore(Rule[Table]):
    """The encore (value: the discarded card's uid; data: the new cards' uids) pays out when all of them have won."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        mod = src.mod
        assert mod is not None
        card = fight.cards[mod.owner]
        uids = _uids(mod)
        if card.uid not in uids:
            return
        if not (fight.fought and fight.winner == mod.owner):
            t.drop_modifier(mod)
            t.emit("witch", f"Jugband Encore: {card.notation()} did not win its duel; no encore.", seat=mod.owner)
            return
        left = [u for u in uids if u != card.uid]
        if left:
            _set_uids(t, mod, left)
            return
        t.drop_modifier(mod)
        back = _from_discard(t, mod.value)
        if back is None:
            t.emit("witch", "Jugband Encore: the discarded card is no longer in the discard pile.", seat=mod.owner)
            return
        t.gain(mod.owner, replace(back, level=back.level + 7), "reobtains the discarded card with +7 levels (Jugband Encore)",
               public=True)

    def turn_end(self, t: Table, src: Source) -> None:
        mod = src.mod
        assert mod is not None
        if mod in t.modifiers and any(_in_hand(t, mod.owner, u) is None for u in _uids(mod)):
            t.drop_modifier(mod)
            t.emit("witch", "Jugband Encore: a new card left the hand unplayed; no encore.", seat=mod.owner)


@effect("jugband_encore_witch")
class JugbandEncoreWitch(Effect[Table]):
    """Choose a card to discard (a question; memo: uids), draw 3; if all 3 win their duels, the card returns +7 levels."""

    def cast(self, t: Table, src: Source) -> None:
        hand = t.hands[src.owner]
        if len(hand) <= 1:
            self.encore(t, src.owner, hand[0] if hand else None)
        else:
            t.ask(src.owner, src, "Jugband Encore Witch: choose a card in your hand to discard.",
                  [c.notation(t.turn) for c in hand], [c.uid for c in hand])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        self.encore(t, src.owner, _in_hand(t, src.owner, pending.memo[choice]))

    @staticmethod
    def encore(t: Table, seat: int, card: Card | None) -> None:
        if card is not None:
            t.to_discard(seat, card, "discarded (Jugband Encore Witch)")
        before = {c.uid for c in t.hands[seat]}
        t.draw(seat, 3, "draws a card (Jugband Encore Witch)")
        new = [c.uid for c in t.hands[seat] if c.uid not in before][:3]
        if card is None or not new:
            return
        t.add_modifier("jugband_encore", seat,
                       f"Jugband Encore Witch: if {who(seat)}'s {len(new)} new card(s) all win their duels, "
                       "the discarded card returns with +7 levels.",
                       value=card.uid, data=",".join(str(u) for u in new))


# == Jugband Stand-In Witch ================================================


@token(STAND_IN)
class StandIn(Token[Table]):
    """A Lvl.1 copy of a discarded creature: when it loses a duel, its holder draws 2 cards."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        if fighting(src, fight) and fight.fought and fight.winner == 1 - src.owner:
            t.draw(src.owner, 2, "draws a card (the Stand-In died)")


@effect("jugband_stand_in_witch")
class JugbandStandInWitch(Effect[Table]):
    """Discard a random creature from your hand and get a Lvl.1 Stand-In with its Tribe, base str and Power Type."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        creatures = t.creatures(seat)
        if not creatures:
            _nothing(t, seat, f"Jugband Stand-In Witch: {who(seat)} holds no creature.")
            return
        old = t.pick(creatures)
        t.to_discard(seat, old, "discarded (Jugband Stand-In Witch)")
        stand_in = t.new_token(STAND_IN, 1, old.base, old.ptype, old.tribe)
        t.gain(seat, stand_in, "gains a Stand-In (Jugband Stand-In Witch)", public=True)


# == Scientific Witch ======================================================


@effect("scientific_witch")
class ScientificWitch(Effect[Table]):
    """Two questions: a creature in your hand (memo 0, uids...), then its new Power Type (memo 1, uid)."""

    def cast(self, t: Table, src: Source) -> None:
        creatures = t.creatures(src.owner)
        if not creatures:
            _nothing(t, src.owner, f"Scientific Witch: {who(src.owner)} holds no creature.")
        elif len(creatures) == 1:
            self.ask_type(t, src, creatures[0])
        else:
            t.ask(src.owner, src, "Scientific Witch: choose a creature in your hand.",
                  [c.notation(t.turn) for c in creatures], [0, *(c.uid for c in creatures)])

    @staticmethod
    def ask_type(t: Table, src: Source, card: Card) -> None:
        types = [p.value for p in PowerType if p is not card.ptype]
        t.ask(src.owner, src, f"Scientific Witch: choose a new Power Type for {card.notation(t.turn)}.", types, [1, card.uid])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        if pending.memo[0] == 0:
            card = _in_hand(t, src.owner, pending.memo[1 + choice])
            if card is not None:
                self.ask_type(t, src, card)
            return
        card = _in_hand(t, src.owner, pending.memo[1])
        if card is not None:
            new = replace(card, ptype=PowerType(pending.options[choice]))
            _change(t, src.owner, [(card, new)], f"Scientific Witch: a creature in {who(src.owner)}'s hand changes Power Type.")


# == Overdrive Witch =======================================================


@effect("overdrive_witch")
class OverdriveWitch(Effect[Table]):
    """Damage the enemy Empire by the length of your most recent run of duels won in a row."""

    def cast(self, t: Table, src: Source) -> None:
        streak = t.count(f"last_streak:{src.owner}")
        if streak <= 0:
            _nothing(t, src.owner, f"Overdrive Witch: {who(src.owner)} has won no duel yet.")
            return
        t.damage(_enemy(src), streak, f"Overdrive Witch: {streak} duel(s) won in a row")


# == Straight Witch ========================================================


def _longest_run(levels: set[int]) -> list[int]:
    """The longest run of consecutive levels (the highest one on a tie)."""
    best: list[int] = []
    run: list[int] = []
    for level in sorted(levels):
        run = [*run, level] if run and level == run[-1] + 1 else [level]
        if len(run) >= len(best):
            best = run
    return best


@effect("straight_witch")
class StraightWitch(Effect[Table]):
    """With a straight of 5+ consecutive levels in hand (one card per level), those cards get +3 levels."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        hand = t.hands[seat]
        run = _longest_run({c.level for c in hand})
        if len(run) < 5:
            _nothing(t, seat, f"Straight Witch: {who(seat)} holds no 5 consecutive levels.")
            return
        cards = [next(c for c in hand if c.level == level) for level in run]
        _change(t, seat, [(c, replace(c, level=c.level + 3)) for c in cards],
                f"Straight Witch: a straight of {len(cards)} cards in {who(seat)}'s hand gains +3 levels.")


# == The Madcap's Witch ====================================================


@effect("the_madcaps_witch")
class TheMadcapsWitch(Effect[Table]):
    """Shuffle your hand into the deck and draw one more card than it held; if this witch dies, discard 3 at random."""

    def cast(self, t: Table, src: Source) -> None:
        seat = src.owner
        cards = [t.take(seat, c) for c in list(t.hands[seat])]
        t.shuffle_into_deck(cards)
        t.emit("shuffle", f"The Madcap's Witch: {who(seat)} shuffles {len(cards)} card(s) into the deck.",
               seat=seat, count=len(cards))
        t.draw(seat, len(cards) + 1, "draws a card (The Madcap's Witch)")

    def died(self, t: Table, src: Source, fight: Fight) -> None:
        for card in t.sample(t.hands[src.owner], 3):
            t.to_discard(src.owner, card, "discarded at random (The Madcap's Witch died)")


# == Clockwork Crier Witch =================================================


@rule("clockwork_crier")
class ClockworkCrier(Rule[Table]):
    """On the prophesied turn (``until``) its owner draws ``value`` more cards at the start and takes double damage."""

    def turn_start(self, t: Table, src: Source) -> None:
        mod = src.mod
        assert mod is not None
        if t.turn == mod.until:
            t.draw(mod.owner, mod.value, "draws a card (the Clockwork Crier's prophecy)")

    def damage(self, t: Table, src: Source, hit: Hit) -> None:
        mod = src.mod
        assert mod is not None
        if t.turn == mod.until and hit.seat == mod.owner:
            hit.mult *= 2


@effect("clockwork_crier_witch")
class ClockworkCrierWitch(Effect[Table]):
    """Name a number N (1-3; a question): at the start of the Nth turn from now, draw N cards; damage is doubled then."""

    def cast(self, t: Table, src: Source) -> None:
        t.ask(src.owner, src, "Clockwork Crier Witch: name a number of turns for the prophecy.", ["1", "2", "3"])

    def answer(self, t: Table, src: Source, pending: Pending, choice: int) -> None:
        n = choice + 1
        target = t.turn + n
        t.add_modifier("clockwork_crier", src.owner,
                       f"Clockwork Crier Witch: at the start of turn {target}, {who(src.owner)} draws {n} card(s) "
                       "and takes double damage that turn.", value=n, until=target)


# == Crow-Laughing Witch ===================================================


@rule("crow_laughing")
class CrowLaughing(Rule[Table]):
    """For the rest of the game, whenever any witch wins or ties its fight, a random enemy creature in hand gets -2 levels."""

    def after_fight(self, t: Table, src: Source, fight: Fight) -> None:
        mod = src.mod
        assert mod is not None
        enemy = 1 - mod.owner
        for seat, card in enumerate(fight.cards):
            if not card.is_witch or fight.winner == 1 - seat:
                continue
            creatures = t.creatures(enemy)
            if not creatures:
                continue
            old = t.pick(creatures)
            new = _lower(old, 2)
            t.update(new)
            public = f"Crow-Laughing Witch: a witch escapes; a creature in {who(enemy)}'s hand loses 2 levels."
            t.emit("transform", public, {enemy: {"text": f"{public} Yours: {_lines(t, [(old, new)])}."}}, seat=enemy)


@effect("crow_laughing_witch")
class CrowLaughingWitch(Effect[Table]):
    """Put the Crow-Laughing rule in play for the rest of the game (this witch's own escape counts)."""

    def cast(self, t: Table, src: Source) -> None:
        t.add_modifier("crow_laughing", src.owner,
                       f"Crow-Laughing Witch: whenever a witch escapes, a creature in {who(_enemy(src))}'s hand "
                       "gets -2 levels.")


# == Cracked Ceremony Witch ================================================


@rule("cracked_ceremony")
class CrackedCeremony(Rule[Table]):
    """For the rest of the game, whenever a witch card is played, the other player discards a random card."""

    def played(self, t: Table, src: Source, seat: int, card: Card) -> None:
        if card.is_witch:
            _discard_random(t, 1 - seat, f"discarded at random ({who(seat)} played a witch; Cracked Ceremony)")


@effect("cracked_ceremony_witch")
class CrackedCeremonyWitch(Effect[Table]):
    """The opponent discards a random card now; from now on every witch played makes the other player discard one."""

    def cast(self, t: Table, src: Source) -> None:
        _discard_random(t, _enemy(src), "discarded at random (Cracked Ceremony Witch)")
        t.add_modifier("cracked_ceremony", src.owner,
                       "Cracked Ceremony Witch: whenever a Witch card is played, the other player discards a random card.")


# == No Good Trying Witch ==================================================


@rule("no_good_trying")
class NoGoodTrying(Rule[Table]):
    """On the skipped turn (``value``) its owner neither draws nor plays, and draws 3 cards at its end."""

    def draws(self, t: Table, src: Source, seat: int) -> bool:
        assert src.mod is not None
        return not (seat == src.mod.owner and t.turn == src.mod.value)

    def can_play(self, t: Table, src: Source, seat: int, card: Card) -> str | None:
        assert src.mod is not None
        if seat == src.mod.owner and t.turn == src.mod.value:
            return "skips this turn (No Good Trying Witch)"
        return None

    def turn_end(self, t: Table, src: Source) -> None:
        assert src.mod is not None
        if t.turn == src.mod.value:
            t.draw(src.mod.owner, 3, "draws a card at the end of the skipped turn (No Good Trying Witch)")


@effect("no_good_trying_witch")
class NoGoodTryingWitch(Effect[Table]):
    """Skip your next turn (no draw, no play); draw 3 cards at its end."""

    def cast(self, t: Table, src: Source) -> None:
        skipped = t.turn + 1
        t.add_modifier("no_good_trying", src.owner,
                       f"No Good Trying Witch: {who(src.owner)} skips turn {skipped} and draws 3 cards at its end.",
                       value=skipped, until=skipped)


# == Cornfield Witch =======================================================


@effect("cornfield_witch")
class CornfieldWitch(Effect[Table]):
    """While held: its holder may play only witches, and their creatures gain +1 level at each turn's end."""

    def blocks(self, t: Table, src: Source, card: Card) -> str | None:
        return None if card.is_witch else "may not be played while the Cornfield Witch is in your hand"

    def held_end(self, t: Table, src: Source) -> None:
        changes = [(c, replace(c, level=c.level + 1)) for c in t.creatures(src.owner)]
        _quiet_change(t, src.owner, changes, "The Cornfield Witch in your hand: your creatures gain +1 level")
