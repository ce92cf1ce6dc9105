"""What each game's `view` and events hold, field by field: the data docs/protocol.md's tables are made from.

scripts/protocol_docs.py writes these tables into docs/protocol.md; tests/protocol/test_docs.py plays random
matches with the engines and fails on any view field, card field, event kind or event field missing here, or
listed here and never made. Change a game's view or events: change its entry here, then run the script.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["SCHEMAS", "EventKind", "GameSchema", "Shape", "ViewField"]


class Shape(enum.Enum):
    """How a view field's value is documented below it."""

    VALUE = "value"
    """Its nested fields, if any, are listed as paths of their own (``last_duel.turn``)."""
    CARD = "card"
    """A card, a list of cards, or null: the game's card table lists the fields."""
    OPEN = "open"
    """Documented elsewhere (decisions, room options): its contents are not listed here."""
    KEYED = "keyed"
    """A map whose keys are data (a suit): ``piles.*`` stands for each of its values."""


@dataclass(frozen=True, slots=True)
class ViewField:
    """One field of a view, by its path: ``a.b`` a field of map ``a``, ``a[]`` each element of list ``a``."""

    path: str
    meaning: str
    shape: Shape = Shape.VALUE
    own: bool = False
    """Only in the seat's own view: absent, null or empty in a spectator's (and the other seat's)."""


@dataclass(frozen=True, slots=True)
class EventKind:
    """An event kind: its fields as everyone gets them, and what the concerned seat's own copy adds or replaces."""

    kind: str
    meaning: str
    fields: tuple[str, ...] = ()
    secret: tuple[str, ...] = ()
    private: bool = False
    """It may be told to the concerned seat alone (nobody else hears of it at all)."""


@dataclass(frozen=True, slots=True)
class GameSchema:
    """One game's documented view fields, card fields, event kinds and event field meanings."""

    game: str
    view: tuple[ViewField, ...]
    card: tuple[tuple[str, str], ...]
    events: tuple[EventKind, ...]
    event_fields: tuple[tuple[str, str], ...]
    rare: frozenset[str] = frozenset()
    """Documented items random play may not reach (named as in :meth:`items`), each listed with its reason."""

    def items(self) -> frozenset[str]:
        """Every documented item by name: ``view a.b``, ``card f``, ``event k``, ``event k (private)``,
        ``event k.f`` and ``event k.f (seat's copy)``."""
        out = {f"view {f.path}" for f in self.view} | {f"card {name}" for name, _ in self.card}
        for e in self.events:
            out.add(f"event {e.kind}")
            if e.private:
                out.add(f"event {e.kind} (private)")
            out.update(f"event {e.kind}.{name}" for name in e.fields)
            out.update(f"event {e.kind}.{name} (seat's copy)" for name in e.secret)
        return frozenset(out)


def _v(path: str, meaning: str, shape: Shape = Shape.VALUE, own: bool = False) -> ViewField:
    return ViewField(path, meaning, shape, own)


def _e(kind: str, meaning: str, fields: str = "", secret: str = "", private: bool = False) -> EventKind:
    """An event kind; ``fields`` and ``secret`` are space-separated field names (``text`` is implied in fields)."""
    return EventKind(kind, meaning, tuple(fields.split()), tuple(secret.split()), private)


def _common(game: str) -> tuple[ViewField, ...]:
    return (
        _v("game", f'`"{game}"`'),
        _v("version", "increased by one by every accepted decision (see `version` and staleness)"),
        _v("seat", "your seat; null for a spectator"),
    )


def _end(scores: str, reasons: str, winner: str = "the winning seat, or null for a draw") -> tuple[ViewField, ...]:
    return (
        _v("legal", "your legal decisions now (the game's rules document lists their kinds); empty for a spectator "
           "and while nothing is awaited of you", Shape.OPEN, own=True),
        _v("outcome", "null while the match goes on; then the same map as `match_over`'s `outcome`"),
        _v("outcome.winner", winner),
        _v("outcome.reason", reasons),
        _v("outcome.scores", scores),
        _v("outcome.detail", "how it ended, in words"),
        _v("scenario", "true when the room was set up from scenario options (not ranked)"),
    )


# == Creature Wars ===============================================================================

CREATURE_WARS = GameSchema(
    game="creature_wars",
    view=(
        *_common("creature_wars"),
        _v("phase", "`duel` (plays awaited) or `over`"),
        _v("turn", "turn number, from 1"),
        _v("first_drawer", "the seat that drew first this turn"),
        _v("final_duel", "true when the deck ran out last turn: this duel is the last before MAYHEM"),
        _v("hp", "both empires' HP, per seat (may go below 0)"),
        _v("max_hp", "the starting HP"),
        _v("deck", "cards left in the deck (a count)"),
        _v("hands", "per seat, a map"),
        _v("hands[].count", "cards in that hand"),
        _v("hands[].cards", "the cards, in hand order (slot 0 first): in your own seat's entry only", Shape.CARD,
           own=True),
        _v("locked", "per seat: has it locked in a card this turn"),
        _v("passed", "per seat: it has no playable card and passes this turn"),
        _v("locked_card", "your own locked-in card, until the reveal", Shape.CARD, own=True),
        _v("locked_slot", "its slot in your hand", own=True),
        _v("discard", "the public discard pile, oldest first", Shape.CARD),
        _v("last_duel", "null, or the record of the last duel"),
        _v("last_duel.turn", "its turn"),
        _v("last_duel.cards", "per seat, the card played, or null for a seat that passed", Shape.CARD),
        _v("last_duel.powers", "per seat, the power it fought with"),
        _v("last_duel.winner", "the seat that won, or null for a tie or no duel"),
        _v("last_duel.damage", "per seat, the damage its empire took"),
        _v("last_duel.summary", "the duel in words"),
        _v("modifiers", "effects in play; a hidden one only in its owner's view"),
        _v("modifiers[].text", "the effect in words"),
        _v("modifiers[].owner", "the seat whose witch made it"),
        _v("modifiers[].until", "the last turn it lasts, 0 for the rest of the game"),
        _v("revealed", "while a question interrupts a duel: the two cards revealed (card or null), else null",
           Shape.CARD),
        _v("waiting_for", "the seat a witch's question waits on, or null (one seat, never a list)"),
        _v("question", "only in the view of the seat asked, while its question waits", own=True),
        _v("question.prompt", "the question", own=True),
        _v("question.options", "the answers, as strings; answer with `choose` and an index", own=True),
        _v("question.timeout", "seconds to answer before the server answers `timeout` (the first option)",
           own=True),
        *_end("final HP per seat, `[hp0, hp1]`", "`knockout` or `mayhem`"),
    ),
    card=(
        ("text", "its notation, e.g. `Lvl.4 Holy! Wolf {2}: (1)` (in a hand: with its cooldown)"),
        ("kind", "`creature` or `witch`"),
        ("level", "its level"),
        ("base", "its base strength"),
        ("tribe", "its tribe; null for a witch"),
        ("type", "its power type, or null"),
        ("rally", "what it rallies by: a list of `tribe`, `type`, `witch`"),
        ("name", "a witch's name (witches only)"),
        ("rarity", "a witch's rarity: `lesser`, `sacred`, `sinful` (witches only)"),
        ("rules", "a witch's rules text (witches only)"),
        ("cooldown", "turns before it may be played (your hand and `locked_card` only)"),
        ("banned", "never playable, `(-)` (your hand and `locked_card` only)"),
        ("playable", "it may be played now (your hand and `locked_card` only)"),
    ),
    events=(
        _e("turn", "a turn begins", "turn first_drawer"),
        _e("draw", "a seat draws; only the drawer's copy names the card (none when the deck is empty)", "seat",
           "text card"),
        _e("locked_in", "a seat has locked in its play (not which card)", "seat"),
        _e("pass", "a seat has no playable card and passes this turn", "seat"),
        _e("forced", "a seat must play a card this turn", "seat"),
        _e("reveal", "both plays are revealed", "cards"),
        _e("witch", "a witch casts its effect, or a note on a witch's effect", "seat witch card"),
        _e("question", "a witch puts a question to a seat; its copy has the question (the view has it too)",
           "seat", "text options"),
        _e("answer", "a seat has answered its question; its copy says which answer", "seat", "text"),
        _e("fight", "the duel's result", "winner powers damage"),
        _e("damage", "an empire takes damage (amount 0: the damage was prevented)", "seat amount hp"),
        _e("heal", "an empire gains HP", "seat amount hp"),
        _e("return", "a card meets no opponent (the other seat passed) and returns to hand", "seat"),
        _e("tribal_clash", "a Tribal Clash: the seat draws a card", "seat"),
        _e("bizarre_victory", "a Bizarre Victory: the seat gains a random witch, named in its copy only", "seat",
           "text card"),
        _e("rally", "a seat forms a Rally; only that seat is told, with the upgrades", "seat", "text",
           private=True),
        _e("gain", "a card enters a seat's hand; named to everyone when the effect shows it, else in the seat's "
           "copy only; the Sinful witch of a first Witch Rally is told to its holder alone", "seat card",
           "text card", private=True),
        _e("discard", "a seat's card goes to the discard pile", "seat card"),
        _e("modifier", "an effect comes into play; a hidden one is told in words to its owner only", "owner modifier",
           "text"),
        _e("effect", "a witch's effect, in words", "seat cards joke"),
        _e("fizzle", "a witch's effect has nothing to act on", "seat"),
        _e("spared", "a seat cannot lose yet: the blow that would end the match has no effect", "seat"),
        _e("transform", "cards in a seat's hand change; its copy says which", "seat", "text card cards"),
        _e("upgrade", "a seat's creatures gain levels; its copy lists them", "seat levels", "text"),
        _e("swap", "cards change hands; each seat's copy says what it now holds", "seat", "text"),
        _e("removed", "cards leave the game from a seat's hand; its copy names them", "seat count", "text card"),
        _e("destroyed", "cards in a seat's hand burn away; its copy names them", "seat count", "text cards"),
        _e("deck", "cards are shuffled into the deck", "seat count", "text"),
        _e("shuffle", "cards are shuffled back into the deck", "seat count cards", "text"),
        _e("scatter", "a seat shuffles cards back into the deck; its copy names them", "seat", "text"),
        _e("ring", "the enchanted ring moves (Ring Witch)", "seat", "text"),
        _e("petrify", "a card in hand is petrified: never playable", "seat card"),
        _e("reveal_card", "a card in a seat's hand is revealed to everyone", "seat card"),
        _e("eaten", "a seat eats the other seat's card (Cannibalistic Witch)", "seat card"),
        _e("baden", "Baden's Witch switches in a creature from hand, or has none to switch in", "seat card"),
        _e("sack", "Grinch's sack: a drawn card goes into it (named in the seat's copy), or it empties into the hand",
           "seat count", "text card"),
        _e("wish", "the Wishing Witch grants a creature in place of a draw; only its holder learns the Tribe",
           "seat", "text tribe"),
        _e("ancients_call", "Call of the Ancients: creatures move to the caster's hand; the giver's copy names each",
           "seat moved", "text card"),
        _e("cataclysm", "Cataclysm: cards of the deck are destroyed", "seat destroyed"),
        _e("apocalypse", "the Four Horsemen are shuffled into the deck", "seat"),
        _e("horseman", "a Horseman of the Apocalypse is drawn: its drawer takes damage", "seat"),
        _e("prophecy", "Prophecy of Doom: a hand becomes level 1; its copy lists the changes", "seat", "text"),
        _e("war_on_witches", "War on Witches: witch cards leave a hand or the deck; the seat's copy names them",
           "seat count", "text"),
        _e("conclave", "the Dragon Conclave gathers", "seat"),
        _e("beast", "the Beast awakes: the other seat loses", "seat"),
        _e("illusion", "Skeletor was an illusion: the stand-in is shown and Skeletor returns to hand", "seat card"),
        _e("secret", "something only one seat may know (a look at the other hand, a stolen card); told to it alone",
           "", "text card cards", private=True),
        _e("final_duel", "the deck is empty: one final duel, then MAYHEM"),
        _e("mayhem", "MAYHEM: witches flee, creatures in hand damage their holders"),
        _e("over", "the match is over", "winner reason"),
    ),
    event_fields=(
        ("tribe", "str: a Tribe (`Wolf`, `Pirate`, ...)"),
        ("seat", "int: the seat the event is about"),
        ("owner", "int: the seat whose effect it is"),
        ("card", "str: a card in notation"),
        ("cards", "list of str: cards in notation; in `reveal`, per seat, the card played or `pass`"),
        ("witch", "str: the witch's name"),
        ("turn", "int: the turn number"),
        ("first_drawer", "int: the seat that draws first this turn"),
        ("winner", "int or null: the seat that won (null: a tie, or a draw)"),
        ("powers", "list of int: per seat, the power fought with"),
        ("damage", "list of int: per seat, the damage its empire takes from the duel"),
        ("amount", "int: HP lost or gained"),
        ("hp", "int: the empire's HP after it"),
        ("reason", "str: `knockout` or `mayhem`"),
        ("options", "list of str: the question's answers"),
        ("modifier", "str: the effect's stable key"),
        ("levels", "int: levels gained"),
        ("count", "int: how many cards"),
        ("moved", "int: how many cards move"),
        ("destroyed", "int: how many cards are destroyed"),
        ("joke", "str: the Jesting Witch's joke"),
        ("text", "str: the log line (a seat's copy may carry its own, naming its hidden cards)"),
    ),
    rare=frozenset({
        # Witch effects that need a particular hand or witch: random play with every witch in the deck
        # still misses them in the seeds the test affords.
        "event spared", "event spared.seat", "event conclave", "event conclave.seat", "event beast",
        "event beast.seat", "event illusion", "event illusion.seat", "event illusion.card",
        # A hidden modifier (told in words to its owner).
        "event modifier.text (seat's copy)",
        # The Sun Witch shuffles cards of a hand back into the deck.
        "event deck.seat", "event deck.text (seat's copy)",
    }),
)


# == Fairy Meat ==================================================================================

_FM_SIDE = (
    ("seat", "the seat"),
    ("direction", "its declared direction (`add` or `subtract`), or null before the declaration"),
    ("trumps", "its Trumps face up on the table (empty while face down or none played)"),
    ("colour", "the colour its face-up Trumps count as, or null"),
    ("face_down", "how many Trumps it holds face down (the cards are its own seat's alone)"),
    ("card", "its Numbered card played this attack, or null"),
    ("wild", "the Wild Trumps it played"),
    ("wild_points", "the points of the last attack it uses as Wild Trumps, or null"),
    ("points", "points won in the previous attack of this combat, still to be used"),
)

FAIRY_MEAT = GameSchema(
    game="fairy_meat",
    view=(
        *_common("fairy_meat"),
        _v("phase", "what is awaited: `setup` (weapons), `declare`, `trumps`, `numbered`, `action`, `damage`, "
           "`reveal`, `apply_points`, `points`, `cure`; `over` at the end (`idle` between steps)"),
        _v("duel", "the duel number, from 1"),
        _v("best_of", "the match is won by winning most of this many duels"),
        _v("wins", "duels won, per seat"),
        _v("round", "the round number in this duel"),
        _v("band", "fairies a side (1 to 3, the `band` option)"),
        _v("order", "the fairies (indices into `fairies`) in acting order this round"),
        _v("turn", "the seat whose turn it is, or null"),
        _v("turn_fairy", "the fairy (index into `fairies`) whose turn it is, or null"),
        _v("fairies", "every fairy, interleaved by seat: P1 A, P2 A, P1 B, P2 B, P1 C, P2 C"),
        _v("fairies[].index", "its index in `fairies` (its seat is the index mod 2)"),
        _v("fairies[].letter", "its letter in its band (`A`, `B`, `C`)"),
        _v("fairies[].name", "its name for people (`Player 1's fairy B`; `Player 1` in a band of one)"),
        _v("fairies[].bonus_against", "bonus cards it holds against one foe each: list of {`fairy`, `cards`}"),
        _v("fairies[].bonus_against[].fairy", "the foe (index into `fairies`) they count against"),
        _v("fairies[].bonus_against[].cards", "how many bonus cards"),
        _v("fairies[].seat", "the seat"),
        _v("fairies[].live", "Live points"),
        _v("fairies[].kill", "Kill points"),
        _v("fairies[].twinkle", "Twinkle points"),
        _v("fairies[].weapon", "its weapon's key, or null before set-up"),
        _v("fairies[].weapon_title", "its weapon's name, or null"),
        _v("fairies[].conditions", "its conditions' keys (`dazed`, `gbh`, ...; one entry per instance)"),
        _v("fairies[].condition_titles", "the same conditions, in words"),
        _v("fairies[].mushrooms", "mushrooms left (Fungus)"),
        _v("fairies[].bonus", "bonus cards for its next combat hand"),
        _v("fairies[].acted", "it has had its turn this round"),
        _v("fairies[].order_cards", "this round's Order cards", Shape.CARD),
        _v("fairies[].dead", "it is dead"),
        _v("combat", "null, or the combat under way"),
        _v("combat.kind", "`attack` or `wrestle`"),
        _v("combat.attacker", "the attacking seat"),
        _v("combat.defender", "the defending seat"),
        _v("combat.attack", "this attack's number, from 1"),
        _v("combat.attacks", "attacks in this combat"),
        _v("combat.fighters", "the attacking and the defending fairy (indices into `fairies`)"),
        _v("combat.sides", "per seat, its side of the combat"),
        _v("combat.sides[].hand_count", "cards in its combat hand"),
        *(_v(f"combat.sides[].{name}", meaning, Shape.CARD if name in ("trumps", "card", "wild") else Shape.VALUE)
          for name, meaning in _FM_SIDE),
        _v("waiting_for", "the seats a decision is awaited of: a list (empty, one seat, or both for a sealed "
           "choice)"),
        _v("locked", "per seat: it has locked in its sealed choice"),
        _v("timer", "null, or the timed decision: {`seat`, `seconds`}"),
        _v("timer.seat", "the seat whose decision is timed"),
        _v("timer.seconds", "its time limit; when it runs out the server applies `timeout` for that seat"),
        _v("last", "null, or the public record of the last attack"),
        _v("last.duel", "its duel"),
        _v("last.round", "its round"),
        _v("last.kind", "`attack` or `wrestle`"),
        _v("last.attacker", "the attacking seat"),
        _v("last.defender", "the defending seat"),
        _v("last.attack", "its number in its combat"),
        _v("last.attacks", "attacks in that combat"),
        _v("last.fighters", "the attacking and the defending fairy (indices into `fairies`)"),
        _v("last.sides", "per seat, what it played (card codes, not card maps)"),
        *(_v(f"last.sides[].{name}", meaning) for name, meaning in _FM_SIDE if name != "points"),
        _v("last.sides[].points", "the points it used"),
        _v("last.sides[].value", "its total value, or null"),
        _v("last.steps", "every step of the sum, in words"),
        _v("last.winner", "the seat that won the attack, or null"),
        _v("last.diff", "the difference of the totals"),
        _v("last.points", "the points won"),
        _v("last.aces", "Aces of Spades revealed (each doubles the damage)"),
        _v("last.damage", "damage dealt, per seat"),
        _v("spoils", "how many cards lie in the Spoils Heap (face down: nobody may look through it)"),
        _v("spoils_top", "the heap's top card when the rules turned it face up, else null", Shape.CARD),
        _v("deck", "cards left in the Fairy Deck (a count)"),
        _v("hand", "your combat hand, sorted; null outside a combat and for a spectator", Shape.CARD, own=True),
        _v("my_face_down", "your own face-down Trumps", Shape.CARD, own=True),
        _v("my_choice", "your locked-in sealed choice (a decision map), or null", Shape.OPEN, own=True),
        _v("options", "the room's rules (docs/rules/fairy-meat.md), `fixed_deck` in place of a scenario's deck",
           Shape.OPEN),
        *_end("duels won per seat, `[wins0, wins1]` (not HP)", "`knockout`"),
    ),
    card=(
        ("code", "rank then suit letter (`AS`, `10D`), Jokers `JK1`, `JK2`"),
        ("face", "the card for people (`A\u2660`)"),
        ("colour", "`red` or `black`, null for a Joker"),
        ("kind", "`trump`, `numbered` or `joker`"),
        ("value", "its rank's value"),
    ),
    events=(
        _e("duel", "a duel begins (from the second duel on: the first begins at set-up)", "duel deck band"),
        _e("weapons", "both weapons are revealed, with the fairies' points", "weapons live kill"),
        _e("order", "a round begins: the Order cards and the acting order", "round order cards"),
        _e("reshuffle", "the Fairy Deck is made anew (from the Spoils Heap, or reshuffled whole)", "deck"),
        _e("turn", "a fairy's turn", "seat fairy round"),
        _e("bleed", "a Bleeder or Gusher bleeds at the start of its turn", "seat damage"),
        _e("dazed", "a Dazed fairy spends its turn doing nothing", "seat"),
        _e("kiss", "a Twinkle point is spent on a Kiss that cures a condition", "seat condition twinkle"),
        _e("fungus", "a fairy eats a mushroom, or the mushroom's card and effect", "seat fairy mushrooms card"),
        _e("twinkle", "a Twinkle point lost to Brains Rattled comes back", "seat twinkle"),
        _e("cure", "a condition is cured", "seat fairy condition"),
        _e("combat", "a combat begins", "mode attacker defender attacks fighters"),
        _e("combat_hand", "a combat hand is dealt: its count to all, its cards in its seat's copy", "seat count",
           "text cards"),
        _e("attack", "attack n of m in a combat of several attacks", "number attacks"),
        _e("declare", "both declared directions are revealed", "directions"),
        _e("locked_in", "a seat has locked in a sealed choice; its copy says which", "seat", "text choice"),
        _e("trumps", "the Trumps are shown, or stay face down (their seat's copy names them)",
           "trumps colours face_down", "text mine colour"),
        _e("wild_points", "a seat with no card left uses its points as Wild Trumps", "seat colour points"),
        _e("numbered", "both Numbered (and Wild) cards are shown", "cards wild"),
        _e("wild_draw", "the server draws for a seat until a Numbered card", "seat cards"),
        _e("reveal_trumps", "a seat reveals its face-down Trumps", "seat cards colour"),
        _e("keep_trumps", "a seat keeps its face-down Trumps unused; its copy names them", "seat", "cards"),
        _e("apply_points", "a seat applies its points from the last attack as Trumps (or not)", "seat apply"),
        _e("step", "a step of the attack's sum, in words"),
        _e("result", "the attack's result", "winner diff points damage values"),
        _e("ace_of_spades", "an Ace of Spades doubles the damage", "seat fairy aces"),
        _e("wrestle_draw", "a drawn wrestle: both fairies take damage", "damage"),
        _e("points", "what a defender's won points become (Trumps for the next attack, or bonus cards)",
           "seat fairy use points against"),
        _e("hit", "a fairy is hit", "seat fairy damage"),
        _e("nasty_hit", "a Nasty Hit is drawn and applied", "seat fairy cards value result damage"),
        _e("damage", "a fairy loses a point of damage from a pool", "seat fairy pool live kill forced"),
        _e("overkill", "a fairy has no points left to lose", "seat fairy"),
        _e("condition", "a Nasty Hit's effect strikes a fairy", "seat fairy effect conditions"),
        _e("spoils", "cards go to the Spoils Heap (face-up ones named)", "cards face_down"),
        _e("duel_over", "a duel ends", "duel winner limit"),
        _e("timeout", "a seat's time ran out: the server decided for it; its copy says what", "seat", "text"),
        _e("over", "the match is over", "winner wins"),
    ),
    event_fields=(
        ("seat", "int: the seat the event is about"),
        ("fairy", "int: the fairy the event is about (index into the view's `fairies`)"),
        ("fighters", "list of int: the attacking and the defending fairy"),
        ("mode", "str: `attack` or `wrestle`"),
        ("band", "int: fairies a side"),
        ("against", "int or null: the foe (fairy index) bonus cards count against"),
        ("limit", "bool: the round limit ended the duel"),
        ("card", "str: a card code"),
        ("cards", "list of str (card codes); in `order`: per fairy (index into the view's `fairies`), its Order "
         "cards this round; in `numbered`: per seat; in a seat's copy of `combat_hand` and `keep_trumps`: its own "
         "hidden cards"),
        ("mine", "list of str: the seat's own face-down Trumps (its copy only)"),
        ("choice", "map: the decision the seat locked in (its copy only)"),
        ("trumps", "list, per seat, of the Trump codes shown (empty while face down)"),
        ("colours", "list, per seat, of the colour shown Trumps count as, or null"),
        ("colour", "str or null: a colour of Trumps"),
        ("face_down", "in `trumps`: per seat, how many Trumps stay face down; in `spoils`: how many cards go face "
         "down"),
        ("wild", "list, per seat, of Wild Trump codes"),
        ("directions", "list of str: per seat, `add` or `subtract`"),
        ("weapons", "list of str or null: per fairy (index into the view's `fairies`; a seat's in a band of one), "
         "the weapon's key, null for a fairy of a band whose weapon is still to be chosen"),
        ("live", "int, or per fairy in `weapons`: Live points"),
        ("kill", "int, or per fairy in `weapons`: Kill points"),
        ("twinkle", "int: Twinkle points left"),
        ("mushrooms", "int: mushrooms left"),
        ("condition", "str: a condition's key"),
        ("conditions", "list of str: the fairy's conditions now"),
        ("effect", "str: the Nasty Hit's effect that struck (`gbh`, `bleeder`, `berserk`, `head_off`, `dazed`, ...)"),
        ("duel", "int: the duel number"),
        ("deck", "int: cards in the Fairy Deck"),
        ("round", "int: the round number"),
        ("order", "list of int: the living fairies (indices into the view's `fairies`, whose seat is the index mod "
         "2) in acting order this round; in a band of one, fairy 0 and 1 are seat 0 and 1"),
        ("attacker", "int: the attacking seat"),
        ("defender", "int: the defending seat"),
        ("attacks", "int: attacks in the combat"),
        ("number", "int: this attack's number"),
        ("count", "int: cards in the combat hand"),
        ("winner", "int or null: the winning seat (null: a draw)"),
        ("wins", "list of int: duels won, per seat"),
        ("diff", "int: the difference of the totals"),
        ("points", "int: points"),
        ("values", "list, per seat: its final value, or null (no Numbered card)"),
        ("damage", "int, or per seat (`result`, `wrestle_draw`): damage"),
        ("aces", "int: Aces of Spades (each doubles the damage)"),
        ("apply", "bool: the seat applies its points as Trumps"),
        ("use", "str: `trumps` or `bonus`"),
        ("value", "int: the Nasty Hit's value"),
        ("result", "str or null: the Nasty Hit's effect (a condition's key, `head_off`, `joker`), null when none"),
        ("pool", "str: the pool the point is lost from (`live`, `kill`, ...)"),
        ("forced", "int: damage taken from the only pool left"),
        ("text", "str: the log line (a seat's copy may carry its own, naming its hidden cards)"),
    ),
    rare=frozenset({
        # Conditions and Twinkle need particular hits; random play reaches them only in some seeds.
        "event dazed", "event dazed.seat", "event kiss", "event kiss.seat", "event kiss.condition",
        "event kiss.twinkle", "event twinkle", "event twinkle.seat", "event twinkle.twinkle", "event bleed",
        "event bleed.seat", "event bleed.damage",
        # A seat with no card left in a later attack of the combat.
        "event wild_points", "event wild_points.seat", "event wild_points.colour", "event wild_points.points",
    }),
)

# == Fairy Tableau ===============================================================================

FAIRY_TABLEAU = GameSchema(
    game="fairy_tableau",
    view=(
        *_common("fairy_tableau"),
        _v("tableau", "the 7 slots, each a card (with its `slot`) or null when empty", Shape.CARD),
        _v("mana", "mana in the pool"),
        _v("draw_pile", "cards left in the draw pile (a count)"),
        _v("discard", "the discard pile, face up", Shape.CARD),
        _v("defeated", "enemies defeated"),
        _v("enemies", "enemies to defeat in all"),
        _v("enemies_left", "`enemies` minus `defeated`"),
        _v("score", "the score so far"),
        _v("options", "the room's rules: `fairies`, `fairy_names`, `fizzle`, `ranked_enemies`", Shape.OPEN),
        *_end("`[score]`", "`won` or `lost`", "0 when the player won, else null"),
    ),
    card=(
        ("code", "rank then suit letter (`QH`)"),
        ("face", "the card for people"),
        ("suit", "`spades`, `hearts`, `diamonds`, `clubs`"),
        ("value", "what it counts for in this game"),
        ("role", "`mana`, `spell`, `enemy` or `fairy`"),
        ("slot", "its slot, 0..6 (tableau cards only)"),
    ),
    events=(
        _e("mana", "a Spade is played for mana", "card mana defeated"),
        _e("cast", "a spell is cast at an enemy", "card target mana defeated"),
        _e("fizzle", "a spell fizzles", "card mana defeated"),
        _e("fairy", "a fairy defeats an enemy", "card target mana defeated"),
        _e("combo", "a fairy and a spell defeat an enemy", "card spell target mana defeated"),
        _e("deal", "a card is dealt to an empty slot", "card slot"),
        _e("unpaid", "a spell cannot be paid for: the game is lost", "card cost mana"),
        _e("over", "the game is over", "reason score"),
    ),
    event_fields=(
        ("card", "str: the card played (a code)"),
        ("target", "str: the enemy's code"),
        ("spell", "str: the spell's code (a combo)"),
        ("mana", "int: mana in the pool after it"),
        ("defeated", "int: enemies defeated after it"),
        ("slot", "int: the slot dealt to"),
        ("cost", "int: the mana the spell needed"),
        ("reason", "str: `won` or `lost`"),
        ("score", "int: the final score"),
    ),
    rare=frozenset({
        # A combo needs a fairy and a spell of enough value against one enemy at once.
        "event combo", "event combo.card", "event combo.spell", "event combo.target", "event combo.mana",
        "event combo.defeated",
    }),
)

# == Queen's Challenge ===========================================================================

QUEENS_CHALLENGE = GameSchema(
    game="queens_challenge",
    view=(
        *_common("queens_challenge"),
        _v("phase", "`actions`, `order` (put the revealed cards back in order) or `over`"),
        _v("turn", "turn number, from 1"),
        _v("hand", "the hand: {`count`, `cards`}"),
        _v("hand.count", "cards in the hand"),
        _v("hand.cards", "the cards: the player's view only", Shape.CARD, own=True),
        _v("hand_size", "the hand's size"),
        _v("piles", "the four power piles, by suit letter", Shape.KEYED),
        _v("piles.*", "one pile"),
        _v("piles.*.name", "the suit's name"),
        _v("piles.*.power", "cards in the pile"),
        _v("piles.*.top", "its top card, or null", Shape.CARD),
        _v("piles.*.strength", "what an attack of this suit brings: power plus the summoned card's value"),
        _v("summoned", "the summoning zone, by suit letter", Shape.KEYED),
        _v("summoned.*", "the summoned card of that suit, or null", Shape.CARD),
        _v("in_play", "the challenger to beat, or null", Shape.CARD),
        _v("enemy", "the suit letter of the pile that is its enemy, or null"),
        _v("in_play_stack", "every challenger in play", Shape.CARD),
        _v("challenge_deck", "cards left in the challenge deck (a count)"),
        _v("challenge_discard", "challengers beaten (a count)"),
        _v("score", "the score so far"),
        _v("magic_deck", "cards left in the magic deck (a count)"),
        _v("magic_discard", "the magic discard pile, face up", Shape.CARD),
        _v("gift_used", "the suit letter of the gift used this turn, or null"),
        _v("reveal", "the top magic cards the diamonds gift revealed, to put back in order", Shape.CARD, own=True),
        _v("known_top", "the top magic cards the player knows, in order", Shape.CARD, own=True),
        _v("placed", "while ordering: how many revealed cards are already put back on top", own=True),
        _v("summoning", "the card the clubs gift revealed, awaiting `summon` or `decline`; else null", Shape.CARD),
        *_end("`[score]`", "`won` or `lost`", "0 when the player won, else null"),
    ),
    card=(
        ("code", "rank then suit letter (`QH`)"),
        ("face", "the card for people"),
        ("suit", "its suit letter"),
        ("value", "its value, A 1 ... K 13 (a challenger's: after lowering)"),
        ("printed", "a challenger's printed value (`in_play`, `in_play_stack` only)"),
        ("lowered", "how much a challenger has been lowered (`in_play`, `in_play_stack` only)"),
    ),
    events=(
        _e("turn", "a turn begins", "turn"),
        _e("draw", "the draw step: how many cards; the player's copy names them", "count", "text cards"),
        _e("flip", "a challenge card is flipped into play", "card"),
        _e("gather", "a card is gathered onto its power pile", "card suit power"),
        _e("defeat", "the challenger in play is defeated", "card score"),
        _e("gift", "a suit's gift is used (spades lower, hearts discard, diamonds look: the cards in the player's "
           "copy, clubs summon)", "suit value cards score count card summoned", "text cards"),
        _e("order", "the revealed cards go back in the player's order; its copy names them", "count",
           "text cards"),
        _e("summon", "the card the clubs gift revealed is summoned (`summoned` true) or declined and discarded",
           "card suit summoned"),
        _e("place", "a revealed card is put next from the top; only the player hears which", "", "card text",
           private=True),
        _e("end_turn", "the turn ends: the flip"),
        _e("burn", "a card is discarded from the bottom of the magic deck", "card"),
        _e("over", "the game is over", "won score"),
    ),
    event_fields=(
        ("card", "str: a card code"),
        ("cards", "list of str: card codes"),
        ("count", "int: how many cards"),
        ("suit", "str: a suit letter"),
        ("power", "int: the pile's power after it"),
        ("score", "int: the score after it"),
        ("value", "int: the challenger's value after the spades gift"),
        ("summoned", "bool: the clubs gift's card was summoned"),
        ("turn", "int: the turn number"),
        ("won", "bool: the player won"),
        ("text", "str: the log line (the player's copy may carry its own, naming hidden cards)"),
    ),
)

SCHEMAS: dict[str, GameSchema] = {s.game: s for s in (CREATURE_WARS, FAIRY_MEAT, FAIRY_TABLEAU, QUEENS_CHALLENGE)}
