// Fairy Meat, as the terminal's table shows it (client/screens/fairy_meat.py): the duel, round, order, whose turn and
// the phase; every fairy's points, weapon, conditions, mushrooms, bonus cards, Order cards and whether she has acted;
// the combat under way with the sealed state of each side (a declaration, Trumps and a card locked in show only as
// "locked in" to the other seat, face-down Trumps only by their number, your own face-down Trumps and your
// locked-in choice to you);
// the last attack's reveal with each side's cards and final value, every step of the sum and what followed it (the
// Ace of Spades doubling, hits, Nasty Hits, a drawn wrestle: the damage and its reasons); the Spoils Heap and the
// Fairy Deck; and the combat hand. Tap a card to see the decisions that play it (a card no decision plays says why,
// from the server's `blocked`); every decision is a button.

import { h } from "../dom.js";
import { cardReason, facts, handMark, moveButtons, playingCard } from "./common.js";

const LOCKED = "locked in";
const REVEAL_EXTRAS = new Set(["ace_of_spades", "wrestle_draw", "hit", "nasty_hit"]);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PHASE_NAMES = {
  setup: "set-up: weapons", action: "choosing an action", declare: "declaring Add or Subtract", trumps: "choosing Trumps",
  numbered: "playing Numbered cards", reveal: "revealing face-down Trumps or not", apply_points: "applying points as Trumps or not",
  points: "taking points as bonus cards or Trumps", damage: "taking damage", cure: "choosing a cure", over: "over", idle: "—",
};
const PHASE_PROMPTS = {
  setup: "choose your weapon", action: "choose your action", declare: "declare Add or Subtract",
  trumps: "choose your Trumps (or None): tap a Trump to see the selections with it", numbered: "play your card: tap it",
  reveal: "reveal your face-down Trumps, or keep them", apply_points: "apply your points as Trumps, or not",
  points: "take your points as bonus cards or as Trumps", damage: "choose where the damage comes from",
  cure: "choose what the mushroom cures",
};

function concerns(decision, code) {
  return decision.card === code || (Array.isArray(decision.cards) && decision.cards.includes(code));
}

// A card code of the last attack's record (7H, 10D, JK1) as a face.
function face(code) {
  if (!code) return "";
  const text = String(code);
  if (text.toUpperCase().startsWith("JK")) return `Joker ${text.slice(2)}`.trim();
  return `${text.slice(0, -1)}${SUITS[text.slice(-1).toUpperCase()] || text.slice(-1)}`;
}

function faces(cards) {
  return (cards || []).map((c) => (typeof c === "string" ? face(c) : c.face)).join(" ");
}

function banded(v) {
  return Number(v.band || 1) > 1;
}

// A seat as the reader says it: "you", "the opponent", or (watching, or in a replay's full view) the player's name.
function seatName(t, seat) {
  if (seat === null || seat === undefined) return "nobody";
  if (t.seat === null) return t.nameOf(seat);
  return seat === t.seat ? "you" : "the opponent";
}

// "you" and "the opponent" opening a sentence; a player's name stays as typed.
function opening(text) {
  return /^(you|the opponent)\b/.test(text) ? text[0].toUpperCase() + text.slice(1) : text;
}

function fairyName(t, fid) {
  const v = t.view;
  const f = v.fairies[fid] || {};
  const seat = f.seat === undefined ? fid % 2 : f.seat;
  if (!banded(v)) return seatName(t, seat);
  const letter = f.letter || "ABC"[Math.floor(fid / 2)];
  if (t.seat === null) return `${t.nameOf(seat)}'s fairy ${letter}`;
  return `${seat === t.seat ? "your" : "their"} fairy ${letter}`;
}

// The locked-in choice in words: the label it had among the decisions offered this attack, else its fields.
function choiceText(t, choice) {
  if (!choice) return "";
  const same = (entry) => Object.entries(choice).every(([k, val]) => JSON.stringify(entry[k]) === JSON.stringify(val));
  const seen = (t.fmSeen || []).find((entry) => entry.label && same(entry));
  if (seen) return seen.label;
  switch (choice.kind) {
    case "declare": return String(choice.direction || "").toUpperCase();
    case "weapon": return String(choice.weapon || "").replace(/_/g, " ");
    case "trumps": return choice.wild_points ? `points as ${choice.wild_points} Wild Trumps` : faces(choice.cards) || "None";
    case "numbered": return face(choice.card);
    case "wild": return `${face(choice.card)} as a Wild Trump`;
    case "no_card": return "no card";
    default: return String(choice.kind || "");
  }
}

function info(t) {
  const v = t.view;
  const parts = [];
  if (v.best_of > 1) parts.push(`duel ${v.duel} of best of ${v.best_of} (won ${(v.wins || [0, 0]).join(" to ")})`);
  parts.push(`round ${v.round}`);
  if ((v.order || []).length) parts.push(`order: ${v.order.map((f) => fairyName(t, f)).join(", then ")}`);
  if (v.turn !== null && v.turn !== undefined) {
    if (banded(v) && v.turn_fairy !== null && v.turn_fairy !== undefined) parts.push(`${fairyName(t, v.turn_fairy)}'s turn`);
    else parts.push(v.turn === t.seat ? "your turn" : `${seatName(t, v.turn)}'s turn`);
  }
  const c = v.combat;
  if (c) {
    const verb = c.kind === "attack" ? "attack" : "wrestle";
    let words;
    if (banded(v) && (c.fighters || []).length === 2) words = `${fairyName(t, c.fighters[0])} ${verb}s ${fairyName(t, c.fighters[1])}`;
    else if (t.seat === null) words = `${t.nameOf(c.attacker)} ${verb}s ${t.nameOf(c.defender)}`;
    else words = c.attacker === t.seat ? `you ${verb} the opponent` : `the opponent ${verb}s you`;
    parts.push(words + (c.attack ? ` (attack ${c.attack} of ${c.attacks})` : ` (${c.attacks} attack${c.attacks > 1 ? "s" : ""})`));
  }
  parts.push(PHASE_NAMES[v.phase] || v.phase);
  if (v.scenario) parts.push("scenario");
  return h("div.fm-info#fm-info", {}, parts.join(" · "));
}

function fairy(t, f) {
  const v = t.view;
  const mine = t.seat !== null && f.seat === t.seat;
  const classes = ["fairy"];
  if (f.dead) classes.push("dead");
  if (v.turn_fairy === f.index) classes.push("acting");
  if (mine) classes.push("mine");
  const fighting = v.combat && (v.combat.fighters || []).includes(f.index);
  const label = banded(v) ? `${t.nameOf(f.seat)}'s fairy ${f.letter}` : t.nameOf(f.seat);
  return h("div", { class: classes.join(" "), id: `fairy-${f.index}` },
    h("div.fairy-name", {}, label, mine ? " (you)" : "", f.dead ? " · DEAD" : "", v.turn_fairy === f.index ? " · to act" : "",
      banded(v) && fighting ? " · fighting" : ""),
    h("div", {}, `Live ${f.live} · Kill ${f.kill} · Twinkle ${f.twinkle}`),
    h("div", {}, f.weapon_title ? `weapon: ${f.weapon_title}` : "weapon: (not chosen yet)"),
    f.condition_titles && f.condition_titles.length ? h("div.conditions", {}, f.condition_titles.join(", ")) : null,
    facts(`${f.mushrooms || 0} mushroom${f.mushrooms === 1 ? "" : "s"}`, f.bonus ? `${f.bonus} bonus card${f.bonus === 1 ? "" : "s"}` : "",
      f.order_cards && f.order_cards.length ? `Order ${faces(f.order_cards)}` : "",
      f.acted ? "has acted this round" : "has not acted yet"));
}

// One side of the combat: its declaration, its Trumps and its card, each as far as the reader may see it.
function combatSide(t, s) {
  const v = t.view;
  const own = s.seat === t.seat;
  const locked = (v.locked || [])[s.seat];
  const choice = own ? v.my_choice : null;
  const waiting = (v.waiting_for || []).includes(s.seat);
  let direction = s.direction ? String(s.direction).toUpperCase() : "—";
  if (!s.direction && choice && choice.kind === "declare") direction = `${LOCKED}: ${String(choice.direction).toUpperCase()} (sealed)`;
  else if (!s.direction && locked && v.phase === "declare") direction = LOCKED;
  let trumps = "";
  if (s.trumps && s.trumps.length) trumps = `${faces(s.trumps)}${s.colour ? ` (${s.colour})` : ""}`;
  else if (own && (v.my_face_down || []).length) trumps = `${faces(v.my_face_down)} face down (only you see them)`;
  else if (s.face_down) trumps = `${s.face_down} face down`;
  if (s.wild_points) trumps += ` ${s.points || 0} point(s) as ${s.wild_points} Wild Trumps`;
  else if (s.points) trumps += ` ${s.points} point(s) kept as Trumps`;
  if (!trumps) {
    if (choice && choice.kind === "trumps") trumps = `${LOCKED}: ${choiceText(t, choice)}`;
    else if (locked && v.phase === "trumps") trumps = LOCKED;
    else if (v.phase === "trumps" && waiting) trumps = "choosing…";
    else trumps = "none";
  }
  let card = s.card ? s.card.face : "";
  if (s.wild && s.wild.length) card += `${card ? " " : ""}wild ${faces(s.wild)}`;
  if (!card) {
    if (choice && ["numbered", "wild", "no_card"].includes(choice.kind)) card = `${LOCKED}: ${choiceText(t, choice)}`;
    else if (locked && v.phase === "numbered") card = LOCKED;
    else if (v.phase === "numbered" && waiting) card = "choosing…";
    else card = "—";
  }
  const who = t.seat === null ? t.nameOf(s.seat) : own ? "You" : "Opponent";
  const sealed = locked && ![direction, trumps, card].some((cell) => cell.includes(LOCKED)); // a choice of another step
  return h("div.combat-side", { id: `combat-${s.seat}` },
    h("strong", {}, `${who}: `), `${s.hand_count} card${s.hand_count === 1 ? "" : "s"} in hand`,
    sealed ? ` · ${LOCKED}${own && choice ? `: ${choiceText(t, choice)}` : ""}` : "",
    h("div", {}, `direction ${direction} · Trumps ${trumps} · card ${card}`));
}

function combat(t) {
  const c = t.view.combat;
  if (!c) return h("div.duel.quiet#combat", {}, "No combat on the table.");
  const order = t.seat === null ? [0, 1] : [1 - t.seat, t.seat];
  const sides = order.map((seat) => c.sides.find((s) => s.seat === seat)).filter(Boolean);
  return h("div.duel#combat", {}, h("div.duel-title", {}, c.kind === "attack" ? "Attack" : "Wrestle"),
    sides.map((s) => combatSide(t, s)));
}

// The texts that followed the last attack's result (doubling, hits, Nasty Hits), kept for its reveal.
function recordKey(last) {
  return JSON.stringify([last.duel, last.round, last.attacker, last.attack, last.steps || []]);
}

function reveal(t) {
  const l = t.view.last;
  if (!l) return h("div.duel.quiet#last", {}, "No attack revealed yet.");
  const verb = l.kind === "attack" ? "attack" : "wrestle";
  const fighters = l.fighters || [];
  const who = (seat) => (banded(t.view) && fighters.length === 2 ? fairyName(t, fighters[seat]) : seatName(t, seat));
  const first = who(l.attacker);
  const heading = `Round ${l.round}: ${opening(first)} ${first === "you" ? verb : `${verb}s`} ${who(l.defender)}`
    + (l.attacks > 1 ? ` (attack ${l.attack} of ${l.attacks})` : "");
  const sides = [...(l.sides || [])].sort((a, b) => (a.seat === l.attacker ? 0 : 1) - (b.seat === l.attacker ? 0 : 1));
  const lines = sides.map((s) => {
    const parts = [s.card ? face(s.card) : "no card"];
    if ((s.wild || []).length) parts.push(`wild ${faces(s.wild)}`);
    if ((s.trumps || []).length) parts.push(`Trumps ${faces(s.trumps)}${s.colour ? ` (${s.colour})` : ""}`);
    if (s.face_down) parts.push(`${s.face_down} kept face down, not used`);
    if (s.points) parts.push(`${s.points} point(s) as Trumps`);
    if (s.direction) parts.push(String(s.direction).toUpperCase());
    const name = seatName(t, s.seat);
    return h("div.reveal-side", {}, h("strong", {}, `${opening(name)}: `), parts.join(" · "),
      h("strong", {}, ` · final value ${s.value === null || s.value === undefined ? "none" : s.value}`));
  });
  const steps = (l.steps || []).map((s) => t.named(String(s)));
  const extra = t.fmExtra && t.fmExtra.key === recordKey(l) ? t.fmExtra.texts : [];
  const damage = (l.damage || []).map((d, seat) => (d ? `${t.nameOf(seat)} takes ${d}` : "")).filter(Boolean);
  const result = l.winner === null || l.winner === undefined ? "no winner" : `${t.nameOf(l.winner)} won`;
  return h("div.duel#last", {},
    h("div.duel-title", {}, `Last ${l.kind}: ${heading}`), lines,
    h("div.reveal-result", {}, `${result}${l.diff ? ` by ${l.diff}` : ""}${l.aces ? ` · ${l.aces} Ace(s) of Spades double the damage` : ""}`
      + (damage.length ? ` · ${damage.join(", ")}` : "")),
    extra.map((text) => h("div.damage-reason", {}, t.named(text))),
    steps.length ? h("details#last-steps", {}, h("summary", {}, steps[steps.length - 1]),
      h("ol", {}, steps.map((s) => h("li", {}, s)))) : null);
}

function heap(t) {
  const v = t.view;
  const top = v.spoils ? `, top ${v.spoils_top ? v.spoils_top.face : "face down"}` : "";
  return facts(`Spoils Heap: ${v.spoils} card${v.spoils === 1 ? "" : "s"}${top}`, `Fairy Deck: ${v.deck} cards`,
    v.timer ? `timed: ${v.timer.seconds} s for ${seatName(t, v.timer.seat)}` : "");
}

// The seat's combat hand: the cards (tap one: the decisions that play it), its face-down Trumps, what it locked in.
function hand(t) {
  const v = t.view;
  const cards = v.hand || [];
  const down = v.my_face_down || [];
  if (!v.combat) return h("p.quiet#hand", {}, "No combat hand (no combat).");
  const whose = t.replaying ? `${t.nameOf(t.seat)} locked in` : "you locked in";
  const lock = v.my_choice ? h("div.lock#my-choice", {}, `${whose}: ${choiceText(t, v.my_choice)}`) : null;
  return h("div", {},
    h("div.hand#hand", {}, cards.map((card, i) => {
      const mark = handMark(t, i, t.legal.some((d) => concerns(d, card.code)));
      return playingCard(card, {
        id: `card-${i}`, selected: t.selected === card.code, usable: mark.usable, unplayable: mark.unplayable,
        extra: mark.unplayable ? "no move now" : card.kind, onclick: t.replaying ? null : () => t.select(card.code),
      });
    }),
    down.map((card, i) => playingCard(card, { id: `face-down-${i}`, extra: "your face-down Trump" }))),
    cards.length || down.length ? null : h("p.quiet", {}, "Empty."),
    cardReason(t, cards.findIndex((c) => c.code === t.selected)),
    lock);
}

export default {
  // The decisions offered (a locked-in choice is told by its label) and what followed each attack's result.
  events(t, events) {
    if (t.view && (t.view.legal || []).length) t.fmSeen = [...t.view.legal, ...(t.fmSeen || [])].slice(0, 200);
    let after = null;
    for (const event of events) {
      if (event.kind === "result") after = [];
      else if (after && REVEAL_EXTRAS.has(event.kind) && event.text) after.push(String(event.text));
    }
    if (after && t.view && t.view.last) t.fmExtra = { key: recordKey(t.view.last), texts: after };
  },

  keep(t) {
    return t.selected !== null && (t.view.hand || []).some((c) => c.code === t.selected);
  },

  status(t) {
    const v = t.view;
    const locked = v.locked || [false, false];
    const timed = v.timer ? ` · ${v.timer.seat === t.seat ? "your" : `${seatName(t, v.timer.seat)}'s`} decision is timed (${v.timer.seconds} s)` : "";
    if (t.seat === null) {
      const waiting = (v.waiting_for || []).map((s) => t.nameOf(s)).join(", ");
      const shown = [0, 1].filter((s) => locked[s]).map((s) => ` · ${t.nameOf(s)} ${LOCKED}`).join("");
      return `${PHASE_NAMES[v.phase] || v.phase}${waiting ? ` · waiting for ${waiting}` : ""}${shown}${timed}`;
    }
    if (t.legal.length) {
      return `your move: ${PHASE_PROMPTS[v.phase] || v.phase}${locked[1 - t.seat] ? ` · opponent ${LOCKED}` : ""}${timed}`;
    }
    if (v.my_choice) return `you locked in ${choiceText(t, v.my_choice)}: waiting for the opponent${timed}`;
    return `waiting for the opponent${timed}`;
  },

  hand,

  board(t) {
    const v = t.view;
    const top = t.seat === null ? 0 : 1 - t.seat;
    const bottom = 1 - top;
    const band = (seat) => h("div.fairies", {}, v.fairies.filter((f) => f.seat === seat).map((f) => fairy(t, f)));
    return h("div.fm", {},
      info(t),
      band(top),
      combat(t),
      reveal(t),
      band(bottom),
      heap(t),
      t.seat !== null ? hand(t) : null);
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
