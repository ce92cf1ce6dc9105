// Creature Wars: both Empires' HP, the last duel (or the cards a witch's question interrupted), the effects
// in play, and the hand: tap a card to see it, then lock it in; a witch's question is answered by a tap.

import { button, h } from "../dom.js";
import { bar, facts, moveButtons } from "./common.js";

const DAMAGE_TEXT = /takes (?:\d+|no) damage \((.*)\)(?:; -?\d+ HP left)?\.?$/;

// What each Empire took in the turn of the last duel in `events`, and why, part by part ("4 from the duel",
// "1 Cursed Witch in hand"), as the terminal's duel panel says it (client/render.py dealt_damage); null when
// the events hold no duel.
export function dealtDamage(events) {
  const fights = events.map((e, i) => (e.kind === "fight" ? i : -1)).filter((i) => i >= 0);
  if (!fights.length) return null;
  const last = fights[fights.length - 1];
  const fight = events[last];
  const called = (fight.damage || [0, 0]).map((d) => Number(d || 0));
  const winner = fight.winner;
  const took = [0, 0];
  const parts = [[], []];
  let duelSeen = false;
  const start = fights.length > 1 ? fights[fights.length - 2] + 1 : 0;
  for (let i = start; i < events.length; i += 1) {
    const event = events[i];
    if (event.kind !== "damage" || (event.seat !== 0 && event.seat !== 1)) continue;
    const seat = event.seat;
    const amount = Number(event.amount || 0);
    const found = DAMAGE_TEXT.exec(String(event.text || ""));
    const why = found ? found[1] : "other damage";
    took[seat] += amount;
    if (why === "lost the duel" && i > last && !duelSeen && winner !== null && winner !== undefined && seat === 1 - winner) {
      duelSeen = true;
      const base = called[seat];
      if (amount === base) parts[seat].push(`${amount} from the duel`);
      else if (amount > base) parts[seat].push(`${base} from the duel`, `${amount - base} from effects in play`);
      else parts[seat].push(`${amount} from the duel (${base} less ${base - amount} by effects in play)`);
    } else if (amount) {
      parts[seat].push(`${amount} ${why}`);
    }
  }
  return { turn: fight.turn, took, parts };
}

function damageLine(who, took, parts) {
  if (!took || !parts.length || (parts.length === 1 && parts[0] === `${took} from the duel`)) return "";
  return `${who} ${who === "You" ? "take" : "takes"} ${took}: ${parts.join(" + ")}`;
}

function slots(t) {
  return new Set(t.legal.filter((d) => d.kind === "play").map((d) => d.slot));
}

function cardText(card) {
  return card ? card.text : "pass";
}

function side(t, seat) {
  const v = t.view;
  const mine = seat === t.seat;
  const badges = [];
  if (v.locked[seat]) badges.push(h("span.badge.locked", {}, "locked in"));
  if (v.passed[seat]) badges.push(h("span.badge", {}, "passes"));
  return h(`div.side-row${mine ? ".mine" : ""}`, { id: `empire-${seat}` },
    h("div.side-name", {}, t.nameOf(seat) + (mine ? " (you)" : ""), badges),
    bar(v.hp[seat], v.max_hp, `hp-${seat}`),
    h("div.side-facts", {}, `hand ${v.hands[seat].count}`));
}

function duel(t) {
  const v = t.view;
  if (v.revealed) {
    return h("div.duel#duel", {}, h("div.duel-title", {}, "Revealed"),
      h("div", {}, `${cardText(v.revealed[0])}  vs  ${cardText(v.revealed[1])}`));
  }
  const last = v.last_duel;
  if (!last) return h("div.duel#duel.quiet", {}, "No duel yet.");
  const lines = [0, 1].map((seat) => h("div.duel-card", {},
    h("span.duel-who", {}, `${t.nameOf(seat)}: `), cardText(last.cards[seat]),
    last.powers && last.powers[seat] !== null && last.powers[seat] !== undefined ? ` (power ${last.powers[seat]})` : "",
    last.damage && last.damage[seat] ? h("span.damage", {}, ` takes ${last.damage[seat]}`) : ""));
  const dealt = t.dealt && t.dealt.turn === last.turn ? t.dealt : null;
  const reasons = dealt ? [0, 1].map((seat) => damageLine(seat === t.seat ? "You" : t.nameOf(seat), dealt.took[seat],
    dealt.parts[seat])).filter(Boolean) : [];
  return h("div.duel#duel", {}, h("div.duel-title", {}, `Turn ${last.turn} duel`), lines,
    last.summary ? h("div.duel-summary", {}, t.named(last.summary)) : null,
    reasons.map((line) => h("div.damage-reason", {}, line)));
}

function modifiers(t) {
  const mods = t.view.modifiers || [];
  if (!mods.length) return null;
  return h("ul.modifiers#modifiers", {}, mods.map((m) => h("li", {},
    t.named(m.text), ` (${t.nameOf(m.owner)}${m.until ? `, until turn ${m.until}` : ""})`)));
}

// The seat's hand: each card's text, what stops it being played now (the server's reason, per card), and the
// picked card's rules. In a replay nothing is picked or played: the cards are shown, not marked.
function hand(t) {
  const v = t.view;
  const cards = (v.hands[t.seat] || {}).cards || [];
  const playable = slots(t);
  const blocked = t.blocked || [];
  if (!cards.length) return h("p.quiet#hand", {}, "No cards in hand.");
  return h("div.hand#hand", {}, cards.map((card, i) => {
    const classes = ["card", card.kind === "witch" ? "witch" : `type-${String(card.type || "none").toLowerCase()}`];
    let note = "";
    if (v.locked_slot === i) {
      classes.push("locked");
      note = "locked in";
    } else if (t.replaying) note = "";
    else if (blocked[i]) note = `not playable now: ${blocked[i]}`;
    else if (card.cooldown) note = `cooldown ${card.cooldown}`;
    else if (card.banned) note = "may never be played";
    else if (playable.size && !playable.has(i)) note = "not playable now (tap: why)";
    else if (!playable.has(i) && !card.playable) note = "not playable now";
    if (t.replaying) classes.push("shown");
    else if (playable.has(i)) classes.push("playable");
    else classes.push("unplayable");
    if (t.selected === i) classes.push("selected");
    const details = [];
    if (card.kind === "witch") details.push(h("span.card-note", {}, `witch · ${card.rarity || ""}`));
    if (note) details.push(h(`span.card-note${blocked[i] && !t.replaying ? ".reason" : ""}`, {}, note));
    if (t.selected === i && card.rules) details.push(h("span.card-rules", {}, card.rules));
    if (t.selected === i && card.rally && card.rally.length) details.push(h("span.card-note", {}, `rallies by ${card.rally.join(", ")}`));
    return button([h("span.card-text", {}, card.text), details], () => t.select(i),
      { id: `card-${i}`, class: classes.join(" "), "aria-pressed": String(t.selected === i) });
  }));
}

export default {
  // The events of each view: what the last duel's turn dealt, and why, for the duel box.
  events(t, events) {
    const dealt = dealtDamage(events);
    if (dealt) t.dealt = { ...dealt, turn: (t.view && t.view.last_duel && t.view.last_duel.turn) || dealt.turn };
  },

  // 1-9 pick a card (or answer a witch's question), Enter locks the picked card in.
  key(t, key, n) {
    const v = t.view;
    if (v.question && t.seat === v.waiting_for) {
      if (n === null || n >= v.question.options.length) return false;
      t.decide({ kind: "choose", option: n });
      return true;
    }
    const cards = (v.hands[t.seat] || {}).cards || [];
    if (n !== null && n < cards.length) {
      t.refusal = "";
      t.selectedTurn = v.turn;
      t.selected = n;
      t.render();
      return true;
    }
    if (key === "Enter" && t.selected !== null && slots(t).size) {
      t.decide({ kind: "play", slot: t.selected });
      return true;
    }
    return false;
  },

  keep(t) {
    const cards = (t.view.hands[t.seat] || {}).cards || [];
    return t.selected !== null && t.selected < cards.length && slots(t).size > 0 && t.selectedTurn === t.view.turn;
  },

  status(t) {
    const v = t.view;
    const seat = t.seat;
    if (v.waiting_for !== null && v.waiting_for !== undefined) {
      if (seat === v.waiting_for && v.question) return `your choice: ${v.question.prompt}`;
      return `waiting for ${t.nameOf(v.waiting_for)}'s answer`;
    }
    const turn = `turn ${v.turn}${v.final_duel ? " · final duel" : ""}`;
    if (seat === null) return turn;
    if (v.locked[seat] && v.locked_card) return `${turn} · you locked in ${v.locked_card.text}; waiting for the opponent`;
    if (slots(t).size) return `${turn} · your move: tap a card, then lock it in`;
    if (v.passed[seat]) return `${turn} · you have no playable card: you pass`;
    return `${turn} · waiting for the opponent`;
  },

  hand,

  board(t) {
    const v = t.view;
    const top = t.seat === null ? 1 : 1 - t.seat;
    const bottom = 1 - top;
    return h("div.cw", {},
      side(t, top),
      duel(t),
      modifiers(t),
      facts(`turn ${v.turn}`, `deck ${v.deck}`, `${t.nameOf(v.first_drawer)} draws first`,
        v.final_duel ? "final duel: then MAYHEM" : "", v.discard && v.discard.length ? `discard ${v.discard.length}` : ""),
      side(t, bottom),
      t.seat !== null ? hand(t) : null);
  },

  moves(t) {
    const v = t.view;
    if (v.question && t.seat === v.waiting_for) {
      return [h("div.question#question", {}, v.question.prompt),
        ...v.question.options.map((option, i) => button(option, () => t.decide({ kind: "choose", option: i }),
          { id: `answer-${i}`, class: "move" }))];
    }
    const playable = slots(t);
    const out = [];
    if (playable.size) {
      const card = t.selected !== null ? v.hands[t.seat].cards[t.selected] : null;
      if (card && !playable.has(t.selected)) { // the card says why (the server's reason); the tap asks the engine too
        out.push(button(`Why can't ${card.text} be played?`, () => t.decide({ kind: "play", slot: t.selected }),
          { id: "why", class: "move" }));
      } else {
        out.push(button(card ? `Lock in ${card.text}` : "Lock in (tap a card first)",
          () => t.decide({ kind: "play", slot: t.selected }), { id: "lock-in", class: "primary move", disabled: !card }));
      }
    }
    out.push(...moveButtons(t, (d) => d.kind !== "play" && d.kind !== "choose"));
    return out;
  },
};
