"""The witch catalogue: every witch row of the rules that has effect text, as data.

Names are unique; placeholder and duplicated names were given fitting ones (the
source name is kept in ``source_name``). ``ruling`` gives the concrete reading where
the text is a joke, vague or cut short.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["CATALOGUE", "Rarity", "WitchSpec", "by_name", "by_rarity"]


class Rarity(str, enum.Enum):  # noqa: UP042 (kept a str-mixin Enum on purpose)
    """A witch's tier: its weight when a random witch is made and its level range."""

    LESSER = "lesser"
    SACRED = "sacred"
    SINFUL = "sinful"

    @property
    def weight(self) -> int:
        """Relative weight of this tier when a random witch is made (3:2:1)."""
        return _WEIGHTS[self]

    @property
    def levels(self) -> tuple[int, int]:
        """Inclusive (lowest, highest) level of a witch of this tier."""
        return _LEVELS[self]


_WEIGHTS: dict[Rarity, int] = {Rarity.LESSER: 3, Rarity.SACRED: 2, Rarity.SINFUL: 1}
_LEVELS: dict[Rarity, tuple[int, int]] = {Rarity.LESSER: (1, 3), Rarity.SACRED: (4, 6), Rarity.SINFUL: (7, 9)}


@dataclass(frozen=True, slots=True)
class WitchSpec:
    """One witch: unique name, rarity, rules text as the player reads it."""

    key: str  # snake_case unique identifier derived from name, e.g. "blind_witch"
    name: str
    rarity: Rarity
    text: str
    source_name: str  # the name as written in the source row ("S", "W", "Jugband Witch", ...)
    ruling: str = ""


# Rows of creature-wars.md, "Complete List of Witches", in source order.
# Words the rulings use in one sense throughout:
# - a "random creature" is made like a deck card: a random one of the seven Tribes,
#   level 1-6 and a random Power Type; "at random" always uses the match's seeded RNG;
# - "power" / "powerful" is base str + level (type advantage counts only in a fight);
# - "slain", "dies", "died" mean lost a duel; a witch that ties its fight has won it,
#   as the witch rules say ("escapes", "survives", "lives", "flees" mean won or tied);
# - "removed from the game" cards go to no pile and never come back.
CATALOGUE: tuple[WitchSpec, ...] = (
    WitchSpec(
        key="blind_witch",
        name="Blind Witch",
        rarity=Rarity.LESSER,
        text="This witch always loses its fight.",
        source_name="Blind Witch",
    ),
    WitchSpec(
        key="invisible_witch",
        name="Invisible Witch",
        rarity=Rarity.LESSER,
        text="This witch cannot be attacked.",
        source_name="Invisible Witch",
        ruling=(

            "There is no fight: neither Empire takes damage and the enemy card returns to its owner's hand with "
            "no cooldown. The witch counts as having escaped. The enemy card goes back to its owner's hand with "
            "no cooldown even when it is a witch; with no fight neither witch lost, so an enemy witch counts as "
            "escaped, and two Invisible Witches both go back to their owners' hands."

        ),
    ),
    WitchSpec(
        key="angry_witch",
        name="Angry Witch",
        rarity=Rarity.LESSER,
        text="If this witch loses its duel, discard a random card from your opponent's hand.",
        source_name="Angry Witch",
        ruling=(
            "The random card may be the creature that just came back from the fight; the discard is face up."
        ),
    ),
    WitchSpec(
        key="magic_witch",
        name="Magic Witch",
        rarity=Rarity.LESSER,
        text="Transform a card in your opponent's hand into a random Serpent.",
        source_name="Magic Witch",
        ruling=(
            "A random card in the opponent's hand is replaced by a random Serpent (level 1-6, random Power Type)."
            " The old card is removed from the game. Everyone is told a card in that hand turned into a Serpent; "
            "only its holder learns which card, and the Serpent's level and type."
        ),
    ),
    WitchSpec(
        key="voodoo_witch",
        name="Voodoo Witch",
        rarity=Rarity.LESSER,
        text="If this witch is killed, your opponent also takes damage but their's is doubled.",
        source_name="Voodoo Witch",
        ruling=(
            "When it loses its fight you take its 3 damage as usual and your opponent takes double that, 6. The "
            "extra damage is effect damage: effect-damage modifiers apply to it, duel-only ones (Witch of Wrath) "
            "do not."
        ),
    ),
    WitchSpec(
        key="greedy_witch",
        name="Greedy Witch",
        rarity=Rarity.LESSER,
        text="Draw 2 cards.",
        source_name="Greedy Witch",
    ),
    WitchSpec(
        key="which_witch",
        name="Which Witch",
        rarity=Rarity.LESSER,
        text="Become a random Witch and cast its effect at the start of the duel.",
        source_name="Which Witch",
        ruling=(

            "The witch is drawn like any random witch (rarity weights 3:2:1, level in its rarity's range; Which "
            "Witch is drawn again). This card fights as that witch and casts its effect instead. The Which Witch "
            "card is removed from the game and the new witch, shown to both players, fights in its place without "
            "a Witch Rally bonus. While witches are banned it stays itself and casts nothing."

        ),
    ),
    WitchSpec(
        key="witcheroo",
        name="Witcheroo",
        rarity=Rarity.LESSER,
        text="Swap hands with your opponent.",
        source_name="Witcheroo",
        ruling=(
            "The cards enter their new hands one by one (effects on cards entering a hand apply, rallies are "
            "re-checked); cooldowns stay. Each player is told their new hand."
        ),
    ),
    WitchSpec(
        key="kind_witch",
        name="Kind Witch",
        rarity=Rarity.LESSER,
        text="Give creatures in both players' hands +1 levels.",
        source_name="Kind Witch",
        ruling=(
            "Only cards in hand gain the level, not the cards in the duel. Each holder sees their own upgrades; "
            "the others only that the creatures in that hand gained +1."
        ),
    ),
    WitchSpec(
        key="cocksure_witch",
        name="Cocksure Witch",
        rarity=Rarity.LESSER,
        text="If this witch wins its duel, draw a card. Otherwise, your opponent does.",
        source_name="Cocksure Witch",
        ruling=(
            "As in the witch rules, a tie counts as the witch winning. Otherwise means the witch lost its fight."
        ),
    ),
    WitchSpec(
        key="flamboyant_witch",
        name="Flamboyant Witch",
        rarity=Rarity.LESSER,
        text="Representation from the underworld.",
        source_name="Flamboyant Witch",
        ruling=(

            "Add a random creature with the Nightmare Power Type (random Tribe, level 1-3) to your hand: the "
            "underworld's representative. Only its holder sees which creature it is."

        ),
    ),
    WitchSpec(
        key="envious_witch",
        name="Envious Witch",
        rarity=Rarity.LESSER,
        text="Get a copy of the strongest (base str, level) creature in your opponent's hand.",
        source_name="Envious Witch",
        ruling=(

            "Strongest means highest base str, then highest level, then at random. You get a new copy; the "
            "original stays in the opponent's hand. The copy has the same Tribe (or token kind), level with rally"
            " bonuses, base str and Power Type, but no cooldown, marks, rally flags or web; a copied token keeps "
            "its ban. Only the caster and the victim learn which card was copied."

        ),
    ),
    WitchSpec(
        key="cursed_witch",
        name="Cursed Witch",
        rarity=Rarity.LESSER,
        text="Each turn this is in your hand, take 1 damage.",
        source_name="Cursed Witch",
        ruling=(
            "This works while the card is in your hand, not when it is played: at each turn's end you take 1 damage. "
            "Played, it casts nothing."
        ),
    ),
    WitchSpec(
        key="sick_witch",
        name="Sick Witch",
        rarity=Rarity.LESSER,
        text="If this witch survives its duel, turn all witches in your opponent's hand into Sick Witches.",
        source_name="Sick Witch",
        ruling=(
            "The new Sick Witches keep the levels of the witches they replace. Each new Sick Witch keeps the "
            "replaced witch's level, Witch Rally mark, cooldown, ban, marks and place in hand. Others are told "
            "the same whether or not any witch was turned."
        ),
    ),
    WitchSpec(
        key="sacrificial_witch",
        name="Sacrificial Witch",
        rarity=Rarity.LESSER,
        text="If this witch dies, give all creatures in your hand +2 levels.",
        source_name="Sacrificial Witch",
        ruling=(
            "Only creatures gain the +2, not witches."
        ),
    ),
    WitchSpec(
        key="snake_eyed_witch",
        name="Snake-Eyed Witch",
        rarity=Rarity.LESSER,
        text="If you're holding at least 2 Serpents, draw a card.",
        source_name="Snake-Eyed Witch",
        ruling=(
            "The Serpents are counted in your hand when it casts."
        ),
    ),
    WitchSpec(
        key="the_witch_collector",
        name="The Witch Collector",
        rarity=Rarity.LESSER,
        text="Your opponent takes 3 damage, you gain 3 health.",
        source_name="The Witch Collector",
    ),
    WitchSpec(
        key="wet_witch",
        name="Wet Witch",
        rarity=Rarity.LESSER,
        text="Each player doesn't ask…",
        source_name="Wet Witch",
        ruling=(

            "No questions asked: each player gives a random card from their hand to the other, unseen and at the "
            "same time. Both cards are picked before either moves; a player with an empty hand gives nothing. "
            "Each player is told what they gave and got; spectators neither."

        ),
    ),
    WitchSpec(
        key="flying_witch",
        name="Flying Witch",
        rarity=Rarity.LESSER,
        text="If this witch escapes, add 2 random Sacred Witch cards to your hand.",
        source_name="Flying Witch",
    ),
    WitchSpec(
        key="wilbur_witch",
        name="Wilbur Witch",
        rarity=Rarity.LESSER,
        text="If this witch escapes, get Orville Witch. If he already escaped, get a Flying Witch instead.",
        source_name="Wilbur Witch",
        ruling=(

            "\"He already escaped\" means an Orville Witch of yours escaped earlier this game. The witch you get "
            "has a random level in its rarity's range. Whether Orville escaped is counted from your own Orville "
            "Witches that escaped this game."

        ),
    ),
    WitchSpec(
        key="orville_witch",
        name="Orville Witch",
        rarity=Rarity.LESSER,
        text="If this witch escapes, get Wilbur Witch. If he already escaped, get a Flying Witch instead.",
        source_name="Orville Witch",
        ruling=(

            "\"He already escaped\" means a Wilbur Witch of yours escaped earlier this game. The witch you get has "
            "a random level in its rarity's range. Whether Wilbur escaped is counted from your own Wilbur Witches"
            " that escaped this game."

        ),
    ),
    WitchSpec(
        key="the_early_witch",
        name="The Early Witch",
        rarity=Rarity.LESSER,
        text="If you play this card before turn 7, get 3 random Serpents.",
        source_name="The Early Witch",
        ruling=(

            "Turns count from 1, so it works on turns 1-6. The Serpents are random (level 1-6, random Power "
            "Type). On turn 7 or later it announces it is too late and does nothing."

        ),
    ),
    WitchSpec(
        key="pick_a_witch",
        name="Pick a Witch",
        rarity=Rarity.LESSER,
        text="Choose to keep 1 of 3 random Witch cards.\n\"… Any Witch!\"",
        source_name="Pick a Witch",
    ),
    WitchSpec(
        key="witch_in_time",
        name="Witch in Time",
        rarity=Rarity.LESSER,
        text="If this witch survives, the next card you play has +3 power.",
        source_name="Witch in Time",
        ruling=(

            "Survives means won or tied its fight. The +3 is added to that card's power for its duel only, not to"
            " its level. The +3 goes to the next card you actually play, even if the opponent passes; if you pass"
            " it waits, and it is used up at the end of the turn you play. Several add up; the bonus is public."

        ),
    ),
    WitchSpec(
        key="premature_witch",
        name="Premature Witch",
        rarity=Rarity.LESSER,
        text="At the start of each turn, there is a 50% chance Premature Witch will spring into action. ;)",
        source_name="Premature Witch",
        ruling=(

            "While it is in your hand, a seeded 50% roll is made at the start of each turn; on success it springs"
            " into action and is played for you as your card in that turn's duel. It casts nothing. The roll is "
            "made at each turn start while it is held, turn 1 included; it springs only if it could legally be "
            "played then. Only its holder is told it sprang; the others see that a card must be played."

        ),
    ),
    WitchSpec(
        key="slumbering_witch",
        name="Slumbering Witch",
        rarity=Rarity.LESSER,
        text="This witch cannot be played until you have formed a Rally.",
        source_name="Slumbering Witch",
        ruling=(
            "Any Rally counts (Tribe, Power Type or Witch), formed at any earlier point of the game. Any Rally "
            "ever formed counts, one in the starting hand included."
        ),
    ),
    WitchSpec(
        key="mcwitch",
        name="McWitch",
        rarity=Rarity.LESSER,
        text=(
            "Restore 4 HP to your Empire and get a random Lvl.1 creature with a base str of 4 or less.\n"
            "\"I'm loving it!\""
        ),
        source_name="McWitch",
        ruling=(
            "The creature is a random Serpent, Wolf, Skeleton, Pirate or Giant with a random Power Type. Healing "
            "has no maximum."
        ),
    ),
    WitchSpec(
        key="witch_of_despair",
        name="Witch of Despair",
        rarity=Rarity.SACRED,
        text="Both players discard their entire hand.",
        source_name="Witch of Despair",
        ruling=(
            "All discarded cards are shown face up, as any discard is."
        ),
    ),
    WitchSpec(
        key="witch_of_the_hesperus",
        name="Witch of the Hesperus",
        rarity=Rarity.SACRED,
        text=(
            "ALL Pirates are drown and replaced with Phantoms.\n"
            "Phantoms lose 2 base strength but gain +5 levels, and have no Power Type."
        ),
        source_name="Witch of the Hesperus",
        ruling=(

            "ALL means both hands and the deck. A Phantom keeps the Pirate's level +5 and base str -2, has no "
            "Power Type, and is a Tribe of its own. A Phantom takes the Pirate's place in the hand; as a new kind"
            " it can rally again as a Phantom. It keeps the Pirate's cooldown, ban and marks. Nothing is "
            "announced about the deck."

        ),
    ),
    WitchSpec(
        key="vengeful_witch",
        name="Vengeful Witch",
        rarity=Rarity.SACRED,
        text="If this Witch loses its duel, gain a Primordial Butterfly.",
        source_name="Vengeful Witch",
        ruling=(

            "The Primordial Butterfly is a creature of its own Tribe with base str 5, level 6 and the Ancient "
            "Power Type. The Primordial Butterfly is shown to both players."

        ),
    ),
    WitchSpec(
        key="moon_charm_witch",
        name="Moon Charm Witch",
        rarity=Rarity.SACRED,
        text="Transform ALL Wolves into Werewolves. They now have a base strength of 8 and are all Nightmare types.",
        source_name="Moon Charm Witch",
        ruling=(
            "ALL means both hands and the deck. Werewolves keep their level and stay in the Wolf Tribe. A "
            "Werewolf is the same card transformed: it keeps its place and rally marks; Werewolves are left "
            "alone."
        ),
    ),
    WitchSpec(
        key="prophetic_witch",
        name="Prophetic Witch",
        rarity=Rarity.SACRED,
        text="See your opponent's hand.",
        source_name="Prophetic Witch",
        ruling="Only you see the hand, as it is when the effect resolves.",
    ),
    WitchSpec(
        key="shifting_witch",
        name="Shifting Witch",
        rarity=Rarity.SACRED,
        text="Become an exact copy of the opponent's card at the start of the duel.",
        source_name="Shifting Witch",
        ruling=(

            "It fights with the opponent's card's base str, level and Power Type (type advantage applies). If "
            "that card is a witch, it fights with that witch's power and casts nothing more. It stays a witch but"
            " fights as the copy (base str, level, Power Type); a tie goes to the witch, which flees, and the "
            "enemy creature comes back with no cooldown. If it loses, its Empire takes the copied base str. If "
            "the opponent passed, nothing happens."

        ),
    ),
    WitchSpec(
        key="democratic_witch",
        name="Democratic Witch",
        rarity=Rarity.SACRED,
        text="Disband any Rallies in your opponent's hand. Those cards cannot be used in future Rallies.",
        source_name="Democratic Witch",
        ruling=(
            "The cards lose the levels their Rallies gave them and can never join a Rally again. Witch Rallies "
            "are disbanded too. Only the holder learns which cards changed."
        ),
    ),
    WitchSpec(
        key="scary_witch",
        name="Scary Witch",
        rarity=Rarity.SACRED,
        text=(
            "Turn the Power Types of creatures in your opponent's hand into Nightmare. Any Holy creatures are "
            "discarded instead."
        ),
        source_name="Scary Witch",
        ruling=(
            "Creatures with no Power Type are not changed."
        ),
    ),
    WitchSpec(
        key="frost_witch",
        name="Frost Witch",
        rarity=Rarity.SACRED,
        text="Remove all Fire creatures from each player's hand.",
        source_name="Frost Witch",
        ruling=(
            "The other player is told how many cards were removed, not which; the holder is told which."
        ),
    ),
    WitchSpec(
        key="hectic_witch",
        name="Hectic Witch",
        rarity=Rarity.SACRED,
        text="Shuffle 15 more Witch cards into the deck.",
        source_name="Hectic Witch",
        ruling=(
            "The witches are random at the 3:2:1 weights; none are added while witches are banned."
        ),
    ),
    WitchSpec(
        key="wicked_witch",
        name="Wicked Witch",
        rarity=Rarity.SACRED,
        text=(
            "After this Witch dies or flees, give a random card in your hand its enchanted ring: +2 levels. When a "
            "card with the enchanted ring is defeated in duel, give it to a random card in the victor's hand."
        ),
        source_name="Wicked Witch",
        ruling=(

            "The ring carries its +2 levels: the defeated card loses them and a random card in the winner's hand "
            "gains them. Flees means the witch won or tied its fight. The ring rule is put in play once and is "
            "public; who wears a ring is hidden. A card may wear several rings; if the hand that should get a "
            "ring is empty, the ring is lost."

        ),
    ),
    WitchSpec(
        key="venomous_witch",
        name="Venomous Witch",
        rarity=Rarity.SACRED,
        text="Serpents become venomous this game; they will always win their duel.",
        source_name="S",
        ruling=(

            "A Serpent wins every duel against a card that is not a Serpent, witches included; Serpent against "
            "Serpent is fought normally. It already applies to the duel it is cast in. If two effects demand "
            "opposite results (Lucky, Venomous, Grim), the duel is fought normally."

        ),
    ),
    WitchSpec(
        key="feigglehornes_witch",
        name="Feigglehorne's Witch",
        rarity=Rarity.SACRED,
        text="Send your opponent's 2 weakest (base str) creatures to the circus; they won't be back.",
        source_name="Feigglehorne's Witch",
        ruling=(

            "Weakest means lowest base str, then lowest level, then at random. The two creatures are removed from"
            " the game. The other player is told how many cards were removed, not which; the holder is told "
            "which."

        ),
    ),
    WitchSpec(
        key="foreboding_witch",
        name="Foreboding Witch",
        rarity=Rarity.SACRED,
        text="If this Witch dies, add 2 random Wolves to your hand.",
        source_name="Foreboding Witch",
    ),
    WitchSpec(
        key="lusting_witch",
        name="Lusting Witch",
        rarity=Rarity.SACRED,
        text=(
            "Summon the largest (base str) creature from your hand to \"battle\" the smallest creature in your "
            "opponent's hand. You take damage from the small one and your opponent takes damage from the big one, "
            "equal to their base strengths. The Lusting Witch watches…"
        ),
        source_name="Lusting Witch",
        ruling=(

            "Both creatures stay in their hands: you take the small creature's base str in damage, your opponent "
            "the big creature's. Both creatures are shown to both players; ties are broken by level, then at "
            "random. With no creature on either side, nothing happens."

        ),
    ),
    WitchSpec(
        key="sun_witch",
        name="Sun Witch",
        rarity=Rarity.SACRED,
        text=(
            "Shuffle Nightmare and Witch cards in each player's hand back into the deck. Fire creatures in both "
            "hands get +3 levels, but explode in 2 turns if left unplayed, dealing their base str to the holder's "
            "Empire."
        ),
        source_name="Sun Witch",
        ruling=(

            "The boosted Fire creatures explode at the end of the second turn after this one if still in hand: "
            "each is discarded and deals its base str to its holder's Empire. Playing a heated creature defuses "
            "it, even if it comes back to hand. Only the holder learns which creatures were heated."

        ),
    ),
    WitchSpec(
        key="gluttonous_witch",
        name="Gluttonous Witch",
        rarity=Rarity.SACRED,
        text="Both player's increase their Empire's health by 20 HP.",
        source_name="Gluttonous Witch",
    ),
    WitchSpec(
        key="witch_of_slothing",
        name="Witch of Slothing",
        rarity=Rarity.SACRED,
        text="Discourage 2 cards in your opponent's hand. They can no longer be played or used in Rallies.",
        source_name="Witch of Slothing",
        ruling=(
            "The two cards are chosen at random. They stay in hand and can never be played (cooldown (-)). It "
            "picks from cards that may still be played, witches included."
        ),
    ),
    WitchSpec(
        key="proud_witch",
        name="Proud Witch",
        rarity=Rarity.SACRED,
        text="If this Witch escapes, the next time your opponent loses a duel they take double the damage.",
        source_name="Proud Witch",
        ruling=(
            "Escapes means won or tied its fight. Only the next duel your opponent loses is doubled. The next "
            "duel the opponent loses uses it up, even one that deals no damage."
        ),
    ),
    WitchSpec(
        key="lucky_witch",
        name="Lucky Witch",
        rarity=Rarity.SACRED,
        text="The next creature you play will always win its duel.",
        source_name="Lucky Witch",
        ruling=(
            "If both cards in a duel must win, the duel is fought normally. The luck is used up at the end of the"
            " turn the creature is played, even if the opponent passed."
        ),
    ),
    WitchSpec(
        key="wishing_witch",
        name="Wishing Witch",
        rarity=Rarity.SACRED,
        text="The next card you draw is replaced with one that can help you form a Rally.",
        source_name="Wishing Witch",
        ruling=(

            "The card you next draw goes back into the deck at a random place; you get instead a random creature "
            "of the Tribe you hold most of (ties at random). The drawer is not told which card went back. Only "
            "real Tribes count (not banned or no-rally cards); with no creature in hand the Tribe is random. "
            "The opponent and spectators are told that the draw was replaced, never the granted Tribe."

        ),
    ),
    WitchSpec(
        key="shamanic_witch",
        name="Shamanic Witch",
        rarity=Rarity.SACRED,
        text="Randomize the Power Types of creatures in each player's hand.",
        source_name="Shamanic Witch",
        ruling=(
            "Creatures with no Power Type are not changed."
        ),
    ),
    WitchSpec(
        key="vortex_witch",
        name="Vortex Witch",
        rarity=Rarity.SACRED,
        text="Scramble the bounds of physics. Creatures in each player's hand are given a new tribe.",
        source_name="Vortex Witch",
        ruling=(
            "Each creature gets a random Tribe other than its own; base str, level and Power Type stay. A token "
            "keeps its name (Phantom, Werewolf) but takes the new Tribe."
        ),
    ),
    WitchSpec(
        key="grim_witch",
        name="Grim Witch",
        rarity=Rarity.SACRED,
        text=(
            "Mark a random enemy creature for death. When played, it immediately dies. You get to see which creature "
            "was chosen."
        ),
        source_name="Grim Witch",
        ruling=(

            "The mark is hidden from the opponent. When they play the marked creature it loses its duel without a"
            " fight, with damage as for any lost duel. It prefers creatures not yet marked. A marked creature "
            "that dies goes to the discard even against a witch, with no damage then. The mark is used up when "
            "the creature fights."

        ),
    ),
    WitchSpec(
        key="hallucinating_witch",
        name="Hallucinating Witch",
        rarity=Rarity.SACRED,
        text="Replace half of each player's hand with random Witch cards (rounded up).",
        source_name="Hallucinating Witch",
        ruling=(
            "The replaced cards are chosen at random and discarded; each player gets as many random witches. "
            "While witches are banned, nothing happens."
        ),
    ),
    WitchSpec(
        key="the_big_bad_witch",
        name="The Big Bad Witch",
        rarity=Rarity.SACRED,
        text=(
            "\"Then I'll cackle, and I'll curse, and I'll defile your corpse.\" Blow all those little Wolves in; "
            "they are removed from each player's hand and the deck."
        ),
        source_name="The Big Bad Witch",
        ruling=(
            "Werewolves count as Wolves. The other player is told how many cards were removed, not which; the "
            "holder is told which."
        ),
    ),
    WitchSpec(
        key="witch_of_the_emperor",
        name="Witch of the Emperor",
        rarity=Rarity.SACRED,
        text="Reveal a card in your opponent's hand. If it has a base str of 4 or less, steal it.",
        source_name="Witch of the Emperor",
        ruling=(

            "A random card is revealed to both players. A witch counts as base str 3, so a revealed witch is "
            "always stolen. A stolen card keeps its cooldown; the steal is public."

        ),
    ),
    WitchSpec(
        key="witch_of_the_skeleton_legion",
        name="Witch of the Skeleton Legion",
        rarity=Rarity.SACRED,
        text="Shuffle 6 random Skeletons into the deck.",
        source_name="Witch of the Legion",
    ),
    WitchSpec(
        key="witch_of_the_chosen_legion",
        name="Witch of the Chosen Legion",
        rarity=Rarity.SACRED,
        text="Choose a Tribe to get 2 random creatures from: Wolf, Skeleton, or Pirate.",
        source_name="Witch of the Legion",
        ruling=(
            "The chosen Tribe and the creatures are hidden from the opponent and spectators: they are told only "
            "that two creatures were gained."
        ),
    ),
    WitchSpec(
        key="seductive_witch",
        name="Seductive Witch",
        rarity=Rarity.SACRED,
        text="If this witch escapes, the opponent automatically plays the creature returned to their hand next turn.",
        source_name="Seductive Witch",
        ruling=(
            "The forced play applies only if the creature is still in hand and playable next turn."
        ),
    ),
    WitchSpec(
        key="rage_witch",
        name="Rage Witch",
        rarity=Rarity.SACRED,
        text=(
            "Discard a random card from your hand to deal 1 damage to the enemy Empire for every duel you have lost "
            "this game."
        ),
        source_name="Rage Witch",
        ruling=(
            "The discard is the cost: with no other card in your hand, nothing happens. The discard is paid even "
            "with no duel lost (0 damage)."
        ),
    ),
    WitchSpec(
        key="jesting_witch",
        name="Jesting Witch",
        rarity=Rarity.SACRED,
        text="Tell a joke that adds 3 cards to the top of the deck.",
        source_name="Jesting Witch",
        ruling=(

            "Put 3 random creatures (random Tribe, level 1-6, random Power Type) on top of the deck. The joke "
            "itself does nothing. It tells a random joke from a short list; the 3 cards put on top of the deck "
            "are not shown."

        ),
    ),
    WitchSpec(
        key="the_high_witch",
        name="The High Witch",
        rarity=Rarity.SACRED,
        text="The next card played by your opponent has +3 levels, but they take double damage from it if it loses.",
        source_name="The High Witch",
        ruling=(
            "It also applies if the opponent's next card is a witch; the +3 levels stay on the card; the effect "
            "ends at the end of the turn that card is played."
        ),
    ),
    WitchSpec(
        key="shady_witch",
        name="Shady Witch",
        rarity=Rarity.SACRED,
        text=(
            "\"Wanna make a deal…?\"\n"
            "Give your opponent the most powerful creature from your hand. You take their least powerful creature in "
            "return. If they don't play their gift next turn, it becomes defective (level 1)!"
        ),
        source_name="Shady Witch",
        ruling=(

            "Powerful means base str + level (ties at random). If the gift is still in their hand at the end of "
            "next turn, it becomes level 1. Power outside a fight is base str + level, ties at random. The deal "
            "needs a creature in both hands, else nothing happens. A gift still in hand at the end of next turn "
            "becomes level 1, even if it was played and came back."

        ),
    ),
    WitchSpec(
        key="questing_witch",
        name="Questing Witch",
        rarity=Rarity.SACRED,
        text=(
            "If your empire has slain a creature from every Kinship, choose a potion to drink:\n"
            "Potion of Deception \u2013 discard your 3 most powerful creatures\n"
            "Potion of Ferocity \u2013 all creatures in you hand gain +3 levels\n"
            "Potion of Endurance \u2013 your Empire gains +15 HP"
        ),
        source_name="Questing Witch",
        ruling=(

            "Kinship means Tribe: your cards must have won duels against creatures of all seven Tribes this game,"
            " otherwise nothing happens. The potions are offered in text order (a time-out drinks Deception); the"
            " potion drunk is public."

        ),
    ),
    WitchSpec(
        key="berserker_witch",
        name="Berserker Witch",
        rarity=Rarity.SACRED,
        text="On the next duel, the losing Empire also takes damage from the winning card's level.",
        source_name="Berserker Witch",
        ruling=(
            "The next duel is next turn's; the extra damage is the winning card's level at the time of the fight."
            " A loser that takes no duel damage (a Serpent, or a creature beaten by a witch) still takes the "
            "winner's level as duel damage."
        ),
    ),
    WitchSpec(
        key="pandoras_witch",
        name="Pandora's Witch",
        rarity=Rarity.SACRED,
        text="Cast the effects of all Witches in your opponent's hand for them. Those witches flee afterwards.",
        source_name="Pandora's Witch",
        ruling=(

            "The effects resolve in the order the witches sit in their hand, each as if your opponent had cast "
            "it; then those witches are discarded. Each witch leaves the hand just before its cast; one an "
            "earlier cast moved out of that hand is not cast. Their questions go to the opponent one after "
            "another. There are no escape or death triggers; each witch is discarded. A Which Witch cast this "
            "way leaves the game and the witch it becomes flees to the discard pile in its place."

        ),
    ),
    WitchSpec(
        key="odd_witch",
        name="Odd Witch",
        rarity=Rarity.SACRED,
        text="Both players discard all even-leveled cards in hand.",
        source_name="Odd Witch",
        ruling=(
            "Witches count too."
        ),
    ),
    WitchSpec(
        key="witch_of_the_firehawks",
        name="Witch of the Firehawks",
        rarity=Rarity.SACRED,
        text=(
            "Set your hand ablaze. All creatures you hold become Fire Power Types; Nightmare and Witch cards are "
            "destroyed."
        ),
        source_name="Witch of the Firehawks",
        ruling=(
            "Destroyed means removed from the game; only the number burnt is public, the holder is told which. "
            "Typeless creatures and tokens become Fire too."
        ),
    ),
    WitchSpec(
        key="talismanic_witch",
        name="Talismanic Witch",
        rarity=Rarity.SACRED,
        text="Cast a protective ward. The next time your Empire takes damage, only take half (rounded down).",
        source_name="Talismanic Witch",
        ruling=(
            "It halves the next hit that would do more than 0 damage; two wards do not both halve one hit."
        ),
    ),
    WitchSpec(
        key="chthonic_witch",
        name="Chthonic Witch",
        rarity=Rarity.SACRED,
        text="Add the last creature that was slain to your hand, it has -1 level.",
        source_name="Chthonic Witch",
        ruling=(
            "The most recent slain creature still in the discard pile comes back (a card cannot return twice); "
            "the gain is public."
        ),
    ),
    WitchSpec(
        key="necromancing_witch",
        name="Necromancing Witch",
        rarity=Rarity.SACRED,
        text=(
            "Resurrect all Skeleton creatures that have died in battle. Give them +3 levels and add them to your "
            "hand."
        ),
        source_name="Necromancing Witch",
        ruling=(
            "Only slain Skeletons still in the discard pile come back; the gain is public."
        ),
    ),
    WitchSpec(
        key="sepulchrul_witch",
        name="Sepulchrul Witch",
        rarity=Rarity.SACRED,
        text="Resurrect the last creature slain this game into your hand.",
        source_name="Sepulchrul Witch",
        ruling=(

            "The source text is cut off after \"Res\"; it is completed as a resurrection. The last creature to lose"
            " a duel this game, whoever held it, comes to your hand at its level; if none has, nothing happens. "
            "The most recent slain creature still in the discard pile comes back; the gain is public."

        ),
    ),
    WitchSpec(
        key="circes_witch",
        name="Circe's Witch",
        rarity=Rarity.SACRED,
        text="Transform Pirates in each player's hand into Wolves.",
        source_name="Circe's Witch",
        ruling=(
            "Pirates keep level, type, rally marks and any base change (base -1); made creatures (tokens) are not"
            " affected."
        ),
    ),
    WitchSpec(
        key="angitias_witch",
        name="Angitia's Witch",
        rarity=Rarity.SACRED,
        text="Eat all Serpents in your hand. For each discarded, your Empire gains +5 HP.",
        source_name="Angitia's Witch",
    ),
    WitchSpec(
        key="minervas_witch",
        name="Minerva's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Choose to trade your 2 least powerful creatures with the opponent's 2 most powerful creatures. Or, your "
            "2 most powerful creatures for the opponent's 2 least powerful creatures."
        ),
        source_name="Minerva's Witch",
        ruling=(

            "Powerful means base str + level. If a hand has fewer than 2 creatures, as many are traded as both "
            "hands allow. The options name only the asker's own cards; a time-out trades your weakest for their "
            "strongest."

        ),
    ),
    WitchSpec(
        key="succubus_witch",
        name="Succubus' Witch",
        rarity=Rarity.SACRED,
        text=(
            "Discard a random Nightmare in your hand to summon a succubus that desecrates an enemy creature. The "
            "victim loses -3 levels and a Lvl.1 cambion is added to your opponent's hand. The cambion has the same "
            "base str and Power Type as the victim, but deals double damage to their Empire."
        ),
        source_name="Succubus' Witch",
        ruling=(

            "Nothing happens if you hold no Nightmare creature. The victim is a random creature in the opponent's"
            " hand; the cambion deals double damage to the Empire of the player holding it. Nothing happens (no "
            "discard) unless you hold a Nightmare and the opponent a creature. The cambion is a Lvl.1 token; "
            "every hit from a cambion is doubled, MAYHEM included."

        ),
    ),
    WitchSpec(
        key="sin_eater_witch",
        name="Sin-Eater Witch",
        rarity=Rarity.SACRED,
        text=(
            "The next time one of your creatures dies, a random creature in your hand absorbs its transgressions and "
            "you take no damage. That creature becomes an outcast and can no longer be played."
        ),
        source_name="Sin-Eater Witch",
        ruling=(

            "The outcast is a random other creature in your hand and gets cooldown (-); if you hold none, you "
            "still take no damage. It is used up only by the next duel damage from a losing creature of yours; a "
            "loss that deals no damage does not use it."

        ),
    ),
    WitchSpec(
        key="charlottes_witch",
        name="Charlotte's Witch",
        rarity=Rarity.SACRED,
        text="Trap a card in your opponent's hand in a web. It can never be played.",
        source_name="Charlotte's Witch",
        ruling=(
            "The card is chosen at random and gets cooldown (-). Any card that can still be played, witches "
            "included; the caster is not told which."
        ),
    ),
    WitchSpec(
        key="the_sand_witch",
        name="The Sand Witch",
        rarity=Rarity.SACRED,
        text=(
            "Spell the air with sleep sand. For the rest of the game, Nightmare creatures have an additional 2 power "
            "when dueling."
        ),
        source_name="The Sand Witch",
        ruling=(
            "Stacks: +2 per Sand Witch cast."
        ),
    ),
    WitchSpec(
        key="green_witch",
        name="Green Witch",
        rarity=Rarity.SACRED,
        text="The player with less cards draws cards until both players share the same hand size.",
        source_name="Green Witch",
        ruling=(
            "Hand sizes are counted at the cast; the difference is drawn once."
        ),
    ),
    WitchSpec(
        key="wiccan_little",
        name="Wiccan Little",
        rarity=Rarity.SACRED,
        text="!!play on chicken little!! Whenever Wiccan Little panics, the sky might fall.",
        source_name="Wiccan Little",
        ruling=(
            "If this witch loses its fight it panics: a seeded 50% roll, and on success the sky falls and both "
            "Empires take 5 damage."
        ),
    ),
    WitchSpec(
        key="coven_calling_witch",
        name="Coven-Calling Witch",
        rarity=Rarity.SACRED,
        text="Shuffle 13 Sacred Witches into the deck.",
        source_name="Coven-Calling Witch",
        ruling=(
            "Which witches were added stays hidden."
        ),
    ),
    WitchSpec(
        key="wraith_witch",
        name="Wraith Witch",
        rarity=Rarity.SACRED,
        text=(
            "If this witch dies, add a Wraith to your hand; it deals 3 damage to the enemy Empire when played and "
            "immediately disappears. Enemy creatures facing the Wraith are sent back to hand with a 1-turn cooldown."
        ),
        source_name="Wraith Witch",
        ruling=(
            "The Wraith is a Lvl.1 {0} token, removed from the game after it strikes. An enemy witch facing it is"
            " discarded as usual and counts as escaped. If the opponent passes, the Wraith goes back to hand."
        ),
    ),
    WitchSpec(
        key="lenores_witch",
        name="Lenore's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Choose from 3 creatures in your opponent's hand to send to the quiet fields. In its place, a Raven is "
            "fixed. The Raven cannot be played, but pecks your opponent for 2 damage when they are reminded of their "
            "beloved."
        ),
        source_name="Lenore's Witch",
        ruling=(

            "Three random creatures of the opponent's hand are shown to you; the one you pick is removed from the"
            " game and an unplayable Raven takes its place. Whenever your opponent draws a creature of the "
            "removed creature's Tribe (their beloved), they take 2 damage. The Raven is Lvl.1 {0}, can never be "
            "played and takes the removed card's place in hand; it pecks only while it stays in that hand."

        ),
    ),
    WitchSpec(
        key="the_witch_of_the_cumaean_sibyl",
        name="The Witch of the Cumaean Sibyl",
        rarity=Rarity.SACRED,
        text=(
            "The Scattered Prophecies: Your opponent reveals their hand and shuffles 3 cards back into the deck. "
            "They then draw 3 new ones."
        ),
        source_name="The Witch of the Cumaean Sibyl",
        ruling=(
            "The hand is revealed to you only; the 3 cards are chosen at random (all of them if fewer). The "
            "opponent draws as many cards as went back; the caster also sees which went back."
        ),
    ),
    WitchSpec(
        key="medusas_witch",
        name="Medusa's Witch",
        rarity=Rarity.SACRED,
        text="If this witch lives, petrify the enemy card; it cannot be played or participate in Rallies.",
        source_name="Medusa's Witch",
        ruling=(
            "Lives means won or tied its fight. The petrified card returns to hand with cooldown (-). An enemy "
            "witch beaten in a witch-against-witch duel is petrified back into its owner's hand too."
        ),
    ),
    WitchSpec(
        key="chiquita_witch",
        name="Chiquita Witch",
        rarity=Rarity.SACRED,
        text=(
            "While this is in your hand, at the end of every turn, give creatures in your hand +1 levels. Any "
            "creatures level 5 or more turn sour and attack you, then flee."
        ),
        source_name="Chiquita Witch",
        ruling=(

            "This works while the card is in your hand. At each turn's end, after the +1, every creature in your "
            "hand at level 5 or more deals its base str to your Empire and is discarded. Played, it does nothing."
            " Tokens and unplayable creatures ripen too; only the holder is told about the +1; a sour creature "
            "deals its damage and is discarded face up."

        ),
    ),
    WitchSpec(
        key="midas_witch",
        name="Midas Witch",
        rarity=Rarity.SACRED,
        text="For the rest of the game, cards that enter your hand gain +2 base str.",
        source_name="Midas Witch",
        ruling=(
            "Every entry into the hand counts (cards back from a duel too, witches too); it stacks."
        ),
    ),
    WitchSpec(
        key="santa_witch",
        name="Santa Witch",
        rarity=Rarity.SACRED,
        text=(
            "Both player gets 2 wrapped gifts! Inside each present may be a random creature or a lump of coal. You "
            "get to peek at two of them. \"Merry Witchmas!\""
        ),
        source_name="Santa Witch",
        ruling=(

            "Each player adds 2 cards to their hand, each 50/50 a random creature or a lump of coal (unplayable, "
            "no other effect). You are shown your opponent's two gifts. A lump of coal reads Lvl.1 Lump of Coal "
            "{0}: (-)."

        ),
    ),
    WitchSpec(
        key="davids_witch",
        name="David's Witch",
        rarity=Rarity.SACRED,
        text="Less powerful creatures now win against Giants, but higher-powered creatures lose to them.",
        source_name="David's Witch",
        ruling=(

            "For the rest of the game, in a duel between a Giant and a card that is not a Giant, the lower power "
            "wins; equal power is still a tie. A second copy adds nothing; witches count as non-Giants."

        ),
    ),
    WitchSpec(
        key="goliath_witch",
        name="Goliath Witch",
        rarity=Rarity.SACRED,
        text="The weaker creature will win the next duel.",
        source_name="Goliath Witch",
        ruling=(
            "In next turn's duel the card with the lower power wins; equal power is still a tie. It applies to "
            "witch duels too."
        ),
    ),
    WitchSpec(
        key="junos_witch",
        name="Juno's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Sound the horn of Juno: Giants are permanently twice as strong against and susceptible to type "
            "advantages."
        ),
        source_name="S",
        ruling=(

            "For the rest of the game, a type advantage in a duel with a Giant in it is worth +6 instead of +3, "
            "whichever side has it. A second copy adds nothing; witches count as non-Giants."

        ),
    ),
    WitchSpec(
        key="liberating_witch",
        name="Liberating Witch",
        rarity=Rarity.SACRED,
        text="Choose from 3 enemy creatures. Pick one to free from its sinful cage of flesh.",
        source_name="S",
        ruling=(

            "Three random creatures of the opponent's hand are shown to you (all if fewer); the one you pick is "
            "removed from the game. The others see only that a creature was removed."

        ),
    ),
    WitchSpec(
        key="buried_witch",
        name="Buried Witch",
        rarity=Rarity.SACRED,
        text=(
            "If you control a Pirate rally, get 3 Cannonballs. When played, they do 5 damage to the enemy Empire. "
            "You still take damage from creatures they play."
        ),
        source_name="Buried Witch",
        ruling=(

            "A Pirate rally is a Tribe Rally of Pirates in your hand. A Cannonball deals 5 damage to the enemy "
            "Empire when played and is discarded; it has no power, so the card it meets wins and deals its "
            "damage. A Pirate rally means 4 or more playable Pirates in hand. A Cannonball has power 0; its "
            "holder takes the winning creature's base as duel damage (none if a witch wins). If the opponent "
            "passes, the Cannonball goes back to hand."

        ),
    ),
    WitchSpec(
        key="skeletal_witch",
        name="Skeletal Witch",
        rarity=Rarity.SACRED,
        text=(
            "If you control an Enhanced Skeleton, skellify all other creatures in your hand. They now belong to the "
            "Skeleton Tribe and only deal 3 damage to your empire, despite their original base str."
        ),
        source_name="Skeletal Witch",
        ruling=(

            "An Enhanced Skeleton is a Skeleton in your hand with a Rally bonus. Skellified creatures keep their "
            "base str for power, but deal only 3 when they damage your Empire (Mayhem, effects). Enhanced means a"
            " Skeleton with a Tribe or Power Rally bonus. Skellified creatures deal at most 3 damage to an Empire"
            " in duels, MAYHEM and effects, and can form a Skeleton rally."

        ),
    ),
    WitchSpec(
        key="ossuary_witch",
        name="Ossuary Witch",
        rarity=Rarity.SACRED,
        text="Shuffle every Skeleton that has died this game back into the deck with +1 level.",
        source_name="S",
        ruling=(
            "Died means lost a duel. Each Skeleton goes back at the level it died at, plus 1. Only slain "
            "Skeletons still in the discard pile go back, each once; everyone sees which."
        ),
    ),
    WitchSpec(
        key="pilfering_witch",
        name="Pilfering Witch",
        rarity=Rarity.SACRED,
        text="Steal a random Witch card in your opponents hand, if one is present.",
        source_name="S",
        ruling=(
            "The victim is told which witch was stolen; spectators are not."
        ),
    ),
    WitchSpec(
        key="backlash_witch",
        name="Backlash Witch",
        rarity=Rarity.SACRED,
        text=(
            "For the remainder of the game, whenever a creature with level 6+ wins a duel, it also damages the "
            "Empire who sent it."
        ),
        source_name="S",
        ruling=(
            "For both players: the winning creature also deals its base str to its own Empire. Each cast stacks. "
            "A level 6+ creature that beats a witch also counts."
        ),
    ),
    WitchSpec(
        key="benevolent_witch",
        name="Benevolent Witch",
        rarity=Rarity.SACRED,
        text="Give a random creature from each Tribe in your hand +2 levels.",
        source_name="Benevolent Witch",
        ruling=(
            "A token with no Tribe counts as its own Tribe."
        ),
    ),
    WitchSpec(
        key="prehistoric_witch",
        name="Prehistoric Witch",
        rarity=Rarity.SACRED,
        text="Make all creatures in your hand Ancient.",
        source_name="Prehistoric Witch",
        ruling=(
            "Typeless creatures and tokens become Ancient too."
        ),
    ),
    WitchSpec(
        key="draconic_witch",
        name="Draconic Witch",
        rarity=Rarity.SACRED,
        text="Transform Serpents in both player's hand into random Dragons.",
        source_name="S",
        ruling=(
            "Each Serpent is replaced by a random Dragon (level 1-6, random Power Type). The caster's hand is "
            "changed first, then the opponent's."
        ),
    ),
    WitchSpec(
        key="haughty_witch",
        name="Haughty Witch",
        rarity=Rarity.SACRED,
        text="If this witch is a greater level than its challenger, take a random card from the opponent.",
        source_name="Haughty Witch",
        ruling=(
            "The witch's level is compared with the level of the card it fights. The levels are compared when it "
            "casts; if the opponent passed, nothing happens."
        ),
    ),
    WitchSpec(
        key="haggel_witchel",
        name="Haggel & Witchel",
        rarity=Rarity.SACRED,
        text="The next player to draw a Witch card takes 12 damage. Both players draw cards until they're holding 8.",
        source_name="Haggel & Witchel",
        ruling=(
            "The curse starts before the refill, so a witch drawn in the refill triggers it. Players refill in "
            "draw order; the cards in the duel do not count toward the 8. Only draws from the deck count."
        ),
    ),
    WitchSpec(
        key="storytime_witch",
        name="Storytime Witch",
        rarity=Rarity.SACRED,
        text="Read a story to both players that adds a creature to your hand.",
        source_name="Storytime Witch",
        ruling=(
            "Add a random creature (random Tribe, level 1-6, random Power Type) to your hand; it is shown to both "
            "players."
        ),
    ),
    WitchSpec(
        key="ondus_witch",
        name="Ondu's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Reverse the effects of the previous duel. Damage is taken back and the cards are returned to hand with "
            "cooldown 1."
        ),
        source_name="Ondu's Witch",
        ruling=(

            "The previous duel is last turn's: the Empire damage of its fight is healed and both cards played in "
            "it return to their owners' hands with cooldown 1 (cards removed from the game stay removed). Witch "
            "effects are not undone. It heals the damage recorded for that duel before modifiers (Wrath's extra 3"
            " is not healed); only cards still in the discard pile come back. Statistics, Tribal Clash draws and "
            "Bizarre Victory witches stay."

        ),
    ),
    WitchSpec(
        key="the_coven_of_babel",
        name="The Coven of Babel",
        rarity=Rarity.SACRED,
        text="Each player shuffles a random creature from each Tribe in their hand into the deck.",
        source_name="The Coven of Babel",
        ruling=(
            "The caster's hand goes first; the log shows only how many cards each player shuffled in."
        ),
    ),
    WitchSpec(
        key="strawman_witch",
        name="Strawman Witch",
        rarity=Rarity.SACRED,
        text=(
            "Transform a random creature in your opponent's hand into a Scarecrow. The Scarecrow has base str 3, "
            "level 1, no Power Type, and \"doesn't care\": If dueled, it results in a tie and both cards are "
            "discarded. Each turn the Scarecrow is held, Nightmare types lose 1 level."
        ),
        source_name="Scarecrow Witch",
        ruling=(

            "The creature is chosen at random. At each turn's end while the Scarecrow is in a hand, the Nightmare"
            " creatures in that hand lose 1 level. The Scarecrow's tie also applies against a witch: the witch "
            "counts as escaped and is discarded."

        ),
    ),
    WitchSpec(
        key="vegetable_mask_witch",
        name="Vegetable Mask Witch",
        rarity=Rarity.SACRED,
        text=(
            "Lose 1 level each turn. When this reaches level 0, draw 2 cards and discard this Witch. If this witch "
            "wins a duel, discard your entire hand."
        ),
        source_name="Vegetable Mask Witch",
        ruling=(

            "This works while the card is in your hand: it loses 1 level at each turn's end, and at level 0 you "
            "draw 2 cards and discard it. If you play it and it wins or ties its fight, you discard your hand. "
            "Its hand discard also happens when there is no fight at all."

        ),
    ),
    WitchSpec(
        key="sanctifying_witch",
        name="Sanctifying Witch",
        rarity=Rarity.SACRED,
        text=(
            "Transform Nightmare creatures into Holy, for both players. Holy creatures permanently deal double "
            "damage to Empires."
        ),
        source_name="S",
        ruling=(

            "Only the cards in both hands change; Holy creatures deal double damage for the rest of the game, "
            "whoever holds them. Any damage from a Holy creature is doubled (duels, MAYHEM, Backlash); a second "
            "cast does not stack."

        ),
    ),
    WitchSpec(
        key="arnold_laynes_witch",
        name="Arnold Layne's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Steal from the line: Swap a creature from each player's hand. The creature you receive gets +2 levels "
            "and cooldown 1."
        ),
        source_name="Arnold Layne's Witch",
        ruling=(
            "The two creatures are chosen at random; only the one you receive gets +2 levels and cooldown 1. If "
            "either hand has no creature nothing happens; each player learns only the card given and received."
        ),
    ),
    WitchSpec(
        key="emilys_hiding_witch",
        name="Emily's Hiding Witch",
        rarity=Rarity.SACRED,
        text="Choose a creature in your hand. At the start of each turn, it changes level randomly (1-6).",
        source_name="Emily's Hiding Witch",
        ruling=(
            "The creature keeps changing level in whichever hand holds it, and only while in a hand."
        ),
    ),
    WitchSpec(
        key="golden_veil_witch",
        name="Golden Veil Witch",
        rarity=Rarity.SACRED,
        text="Get a random creature from a Tribe you don't currently have.",
        source_name="Golden Veil Witch",
        ruling=(
            "If you already hold every Tribe, nothing happens. Tokens with no Tribe do not count as holding a "
            "Tribe."
        ),
    ),
    WitchSpec(
        key="dark_globe_witch",
        name="Dark Globe Witch",
        rarity=Rarity.SACRED,
        text="Creatures in both hands lose their Power Type for the rest of the game.",
        source_name="Dark Globe Witch",
        ruling=(
            "The Power Type is removed for good, though a later effect may give one back; rally bonuses stay."
        ),
    ),
    WitchSpec(
        key="gnome_witch",
        name="Gnome Witch",
        rarity=Rarity.SACRED,
        text="Scramble the levels and Power Types of all creatures in your hand.\n\"Ooh, my\"",
        source_name="Gnome Witch",
        ruling=(

            "The levels and the Power Types already in your hand are shuffled among your creatures, each "
            "separately. Levels and Power Types (none included) are each shuffled among your creatures."

        ),
    ),
    WitchSpec(
        key="jugband_opener_witch",
        name="Jugband Opener Witch",
        rarity=Rarity.SACRED,
        text="Add 3 random creatures to your hand. They must be played before any other card.",
        source_name="Jugband Witch",
        ruling=(
            "Until all three have been played or have left your hand, you may play only them. The restriction "
            "applies only while one of the three is playable; playing one ends its restriction even if it comes "
            "back. A second cast adds to the same list."
        ),
    ),
    WitchSpec(
        key="jugband_encore_witch",
        name="Jugband Encore Witch",
        rarity=Rarity.SACRED,
        text=(
            "Choose a card in your hand to discard. Draw 3 new cards. If all 3 win their duel, reobtain the "
            "discarded card with +7 levels."
        ),
        source_name="Jugband Witch",
        ruling=(

            "The discarded card comes back when the third of the new cards has won its duel; if one of them "
            "loses, ties or leaves your hand unplayed, it does not. Any card in hand may be discarded. Only cards"
            " actually drawn must win; a pass does not end the deal, a called-off fight counts as not winning; "
            "the card returns only if still in the discard pile."

        ),
    ),
    WitchSpec(
        key="jugband_stand_in_witch",
        name="Jugband Stand-In Witch",
        rarity=Rarity.SACRED,
        text=(
            "Discard a random creature from your hand. Create a Lvl.1 Stand-In copy of it. If it dies, draw 2 cards."
        ),
        source_name="Jugband Witch",
        ruling=(

            "The Stand-In has the discarded creature's Tribe, base str and Power Type at level 1; you draw 2 "
            "cards when it loses a duel. The Stand-In has the discarded creature's Tribe, so it can cause a "
            "Tribal Clash."

        ),
    ),
    WitchSpec(
        key="scientific_witch",
        name="Scientific Witch",
        rarity=Rarity.SACRED,
        text="Choose a creature in your hand and a new Power Type for it to become.",
        source_name="Scientific Witch",
        ruling=(
            "The second question offers the three other Power Types."
        ),
    ),
    WitchSpec(
        key="overdrive_witch",
        name="Overdrive Witch",
        rarity=Rarity.SACRED,
        text="Damage the enemy Empire equal to your most recent number of consecutive duel wins.",
        source_name="Overdrive Witch",
        ruling="The damage is the length of your most recent run of duels won in a row (0 if you have won none).",
    ),
    WitchSpec(
        key="straight_witch",
        name="Straight Witch",
        rarity=Rarity.SACRED,
        text="If you're holding at least 5 cards with consecutive levels, give them +3 levels.",
        source_name="Straight Witch",
        ruling=(

            "The run counts one card per level, so it needs 5 consecutive levels (e.g. 2-6); every card in the "
            "longest such run gets +3 levels. Witches in hand count; one card per level is raised (the first held"
            " at that level); of two equally long runs the higher one is used."

        ),
    ),
    WitchSpec(
        key="the_madcaps_witch",
        name="The Madcap's Witch",
        rarity=Rarity.SACRED,
        text=(
            "Shuffle your hand into the deck. Draw the same number of cards plus one. If this witch dies, discard 3 "
            "cards."
        ),
        source_name="The Madcap's Witch",
        ruling=(
            "The 3 cards are discarded at random. How many cards were shuffled in is public."
        ),
    ),
    WitchSpec(
        key="clockwork_crier_witch",
        name="Clockwork Crier Witch",
        rarity=Rarity.SACRED,
        text=(
            "Set a prophecy: name a number (1-3). After that many turns, draw that many cards and take double the "
            "damage."
        ),
        source_name="Clockwork Crier Witch",
        ruling=(

            "At the start of the Nth turn after this one you draw N extra cards, and damage to your Empire is "
            "doubled during that turn. The number named is public. All damage to that player on that turn is "
            "doubled, effect damage included."

        ),
    ),
    WitchSpec(
        key="crow_laughing_witch",
        name="Crow-Laughing Witch",
        rarity=Rarity.SACRED,
        text="Whenever a witch escapes, give a creature in the opponent's hand -2 levels.",
        source_name="Crow-Laughing Witch",
        ruling=(

            "For the rest of the game, whenever any witch wins or ties its fight, a random creature in your "
            "opponent's hand gets -2 levels. Each cast stacks; its own escape counts, as does any witch winning "
            "or tying, called-off fights included."

        ),
    ),
    WitchSpec(
        key="cracked_ceremony_witch",
        name="Cracked Ceremony Witch",
        rarity=Rarity.SACRED,
        text=(
            "Whenever a Witch card is played, the other player discards a random card from their hand. Starting now."
        ),
        source_name="Cracked Ceremony Witch",
        ruling=(
            "For the rest of the game. This witch's own play counts, so your opponent discards first. Each cast "
            "stacks; only its own play counts as starting now, not an enemy witch revealed in the same duel."
        ),
    ),
    WitchSpec(
        key="no_good_trying_witch",
        name="No Good Trying Witch",
        rarity=Rarity.SACRED,
        text="Skip your next turn. Draw 3 cards at the end of the skipped turn.",
        source_name="No Good Trying Witch",
        ruling=(
            "Next turn you neither draw nor play (you pass the duel); at its end you draw 3 cards. A play forced "
            "by another effect still happens on the skipped turn."
        ),
    ),
    WitchSpec(
        key="cornfield_witch",
        name="Cornfield Witch",
        rarity=Rarity.SACRED,
        text=(
            "As long as this witch is in your hand, you may not play creatures. Creatures in your hand gain +1 level "
            "at the end of each turn."
        ),
        source_name="Scarecrow Witch",
        ruling=(

            "This works while the card is in your hand: you may play only witches, and your creatures gain +1 "
            "level at each turn's end. Playing it ends both. Tokens count as creatures, so they cannot be played "
            "while it is held."

        ),
    ),
    WitchSpec(
        key="cataclysmic_witch",
        name="Cataclysmic Witch",
        rarity=Rarity.SINFUL,
        text="Destroy half of the remaining deck (rounded up)!",
        source_name="Cataclysmic Witch",
        ruling=(
            "The destroyed cards are removed from the game. The top half of the deck is removed unseen. If that "
            "empties the deck, the next turn is the final duel."
        ),
    ),
    WitchSpec(
        key="giantfall_witch",
        name="Giantfall Witch",
        rarity=Rarity.SINFUL,
        text="If you're holding 3 Giants, discard them and deal 10 damage to the enemy Empire.",
        source_name="W",
        ruling=(
            "With 3 or more Giants in your hand, discard them all and deal 10 damage to the enemy Empire. Only "
            "the caster's hand counts, unplayable Giants included; with fewer than 3 nothing happens, and that is"
            " announced."
        ),
    ),
    WitchSpec(
        key="dragon_conclave_witch",
        name="Dragon Conclave Witch",
        rarity=Rarity.SINFUL,
        text="If you're holding a Dragon of each Power Type, destroy the enemy Empire.",
        source_name="W",
        ruling=(
            "One Dragon of each of the four Power Types. Destroy means your opponent loses the match at once. "
            "Only the caster's hand counts; the cards are not revealed, only that the condition was met."
        ),
    ),
    WitchSpec(
        key="witch_of_endor",
        name="Witch of Endor",
        rarity=Rarity.SINFUL,
        text="Prophecy of Doom: After 3 more turns have passed, all cards in your opponent's hand become level 1.",
        source_name="Witch of Endor",
        ruling=(
            "The change happens at the end of the third turn after this one, to the cards then in their hand. "
            "Every card in that hand becomes level 1, witches included; everyone sees that it happened, only the "
            "holder which cards."
        ),
    ),
    WitchSpec(
        key="feral_witch",
        name="Feral Witch",
        rarity=Rarity.SINFUL,
        text=(
            "The Wolves in your opponent's hand become feral.\n"
            "Discard each one, dealing damage equal to their level to the enemy empire."
        ),
        source_name="W",
        ruling=(
            "Each Wolf is discarded face up and deals its level as a separate hit."
        ),
    ),
    WitchSpec(
        key="witch_of_the_ancients_call",
        name="Witch of the Ancients' Call",
        rarity=Rarity.SINFUL,
        text="Call of the Ancients: Any Ancient creatures in your opponent's hand join yours instead.",
        source_name="W",
        ruling=(
            "Only creatures still in the opponent's hand move (not the card in the duel); they keep levels, rally"
            " bonuses and cooldowns."
        ),
    ),
    WitchSpec(
        key="witch_of_wrath",
        name="Witch of Wrath",
        rarity=Rarity.SINFUL,
        text="For the rest of the game, players take an extra 3 damage whenever they lose a duel.",
        source_name="Witch of Wrath",
        ruling="For both players, on top of the normal damage.",
    ),
    WitchSpec(
        key="skeletors_personal_witch",
        name="Skeletor's Personal Witch",
        rarity=Rarity.SINFUL,
        text=(
            "If the deck has no Skeletons left in it, get Skeletor.\n"
            "Skeletor counts as a Lvl.9 Ancient Skeleton with a base strength of 7. After his duel, but before an "
            "Empire takes damage, swap Skeletor with a random Skeleton in hand (if present). It was an illusion!"
        ),
        source_name="Skeletor's Personal Witch",
        ruling=(
            "Skeletor reads Lvl.9 Ancient Skeletor {7} and counts as a Skeleton. The swap happens only when his "
            "duel has a winner (not a tie or a witch fight): a random Skeleton from hand takes his place for the "
            "damage and the slain record, and Skeletor goes back to hand."
        ),
    ),
    WitchSpec(
        key="the_beasts_witch",
        name="The Beast's Witch",
        rarity=Rarity.SINFUL,
        text="If you have 6 level 6 creatures in hand, obliterate the enemy Empire.",
        source_name="The Beast's Witch",
        ruling=(
            "Six creatures of level exactly 6. Obliterate means your opponent loses the match at once. Only the "
            "caster's hand counts (6 creatures of level exactly 6); the cards are not revealed."
        ),
    ),
    WitchSpec(
        key="apocalypse_witch",
        name="Apocalypse Witch",
        rarity=Rarity.SINFUL,
        text="Shuffle the Four Horsemen//!!!!!",
        source_name="W",
        ruling=(

            "Shuffle four Horsemen into the deck. A Horseman cannot be played: the player who draws one takes 5 "
            "damage and the Horseman is removed from the game. A Horseman reads Lvl.9 Horseman {5}. A drawn "
            "Horseman is removed and deals 5 to the drawer (Grinch's sack does not catch it); one that reaches a "
            "hand another way cannot be played and strikes at the end of the turn."

        ),
    ),
    WitchSpec(
        key="liliths_witch",
        name="Lilith's Witch",
        rarity=Rarity.SINFUL,
        text=(
            "For the rest of the game, cards level 6+ refuse to be subservient and cannot be played. Instead, they "
            "lie in hand waiting to destroy your Empire!"
        ),
        source_name="Lilith's Witch",
        ruling=(

            "For both players. Such cards stay in hand until Mayhem, where creatures deal their base str to their"
            " holder as usual. Every card of level 6 or more, witches included, for both players."

        ),
    ),
    WitchSpec(
        key="cannibalistic_witch",
        name="Cannibalistic Witch",
        rarity=Rarity.SINFUL,
        text="For the rest of the game, after you win a duel eat the enemy card and heal for its base str.",
        source_name="Cannibalistic Witch",
        ruling=(
            "The eaten card is removed from the game and you heal by its base str. Your witch winning or tying "
            "counts as winning. The enemy card is eaten wherever it went; casting it twice does not stack."
        ),
    ),
    WitchSpec(
        key="richard_witchson",
        name="Richard Witchson",
        rarity=Rarity.SINFUL,
        text="Start a \"War on Witches.\" All Witch cards are banned from the game!",
        source_name="Richard Witchson",
        ruling=(

            "Every witch in both hands and the deck is removed from the game, and for the rest of the game "
            "effects that would add a witch add nothing. Witches in Grinch's sacks are removed too; a witch "
            "already played this turn still casts and fights. Afterwards witches cannot be played, and any that "
            "turns up is removed at the end of the turn. Holders are told which witches went; others only counts."

        ),
    ),
    WitchSpec(
        key="the_witch_who_stole_grinch",
        name="The Witch Who Stole Grinch",
        rarity=Rarity.SINFUL,
        text=(
            "Choose to give Grinch to you or your opponent. Grinch is a level 6 creature with a base strength of 5, "
            "and no Power Type. While Grinch is in hand, any cards drawn enter his filthy sack."
        ),
        source_name="The Witch Who Stole Grinch",
        ruling=(

            "Grinch has no Tribe. While he is in a player's hand, the cards that player draws go into his sack; "
            "when Grinch leaves the hand, the cards in the sack go to that hand. Grinch reads Lvl.6 Grinch {5}, "
            "no Tribe or Power Type. On time-out the caster keeps him; who gets him is public. The holder is told"
            " each card that goes into the sack, the opponent only that one did. The sack empties into the hand "
            "when Grinch leaves it (checked at each draw, after the fight and at turn end); cards still in a sack"
            " at MAYHEM do no damage."

        ),
    ),
    WitchSpec(
        key="the_witch_of_tantalus",
        name="The Witch of Tantalus",
        rarity=Rarity.SINFUL,
        text="The Eternal Thirst: For the rest of the game, whenever your opponent draws a card, they take 1 damage.",
        source_name="The Witch of Tantalus",
        ruling=(
            "Every card the opponent draws counts, draws into a sack and Horsemen included; two Tantalus witches "
            "deal 1 each."
        ),
    ),
    WitchSpec(
        key="badens_witch",
        name="Baden's Witch",
        rarity=Rarity.SINFUL,
        text=(
            "The next time you are about to lose a duel, switch the card played with the most powerful creature in "
            "hand."
        ),
        source_name="Baden's Witch",
        ruling=(

            "Once: when your card would lose a duel, it goes back to your hand and the most powerful creature in "
            "your hand (base str + level) fights in its place; that result stands. The creature switched in must "
            "be playable now; the enemy keeps its bonuses with its type advantage recomputed, and the tie and "
            "witch-fight rules apply again. It is used up even with no creature to switch in; two can trigger in "
            "the same duel."

        ),
    ),
    WitchSpec(
        key="deathless_witch",
        name="Deathless Witch",
        rarity=Rarity.SINFUL,
        text="No player can lose until Mayhem.",
        source_name="W",
        ruling=(

            "Until Mayhem an Empire at 0 HP or below does not end the match, and effects that would make a player"
            " lose at once do nothing; Mayhem decides by HP as usual. Only one copy is in play at a time; a "
            "win-at-once effect is announced as 'cannot lose yet'."

        ),
    ),
)

_BY_NAME: dict[str, WitchSpec] = {spec.name: spec for spec in CATALOGUE}
_BY_RARITY: dict[Rarity, tuple[WitchSpec, ...]] = {
    rarity: tuple(spec for spec in CATALOGUE if spec.rarity is rarity) for rarity in Rarity
}

if len(_BY_NAME) != len(CATALOGUE) or len({spec.key for spec in CATALOGUE}) != len(CATALOGUE):
    raise RuntimeError("witch catalogue: names and keys must be unique")


def by_name(name: str) -> WitchSpec:
    """The witch with this exact name; ``KeyError`` if there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no witch named {name!r} in the catalogue") from None


def by_rarity(rarity: Rarity) -> tuple[WitchSpec, ...]:
    """Every witch of this rarity, in catalogue order."""
    return _BY_RARITY[rarity]
