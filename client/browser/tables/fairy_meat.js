// Fairy Meat: every fairy's points, weapon and conditions, the combat under way, the last attack step by
// step, and the combat hand: tap a card to see the decisions that play it; every decision is a button.

import { h } from "../dom.js";
import { facts, moveButtons, playingCard } from "./common.js";

const DIRECTION = { add: "adds", subtract: "subtracts" };

function concerns(decision, code) {
  return decision.card === code || (Array.isArray(decision.cards) && decision.cards.includes(code));
}

function fairy(t, f) {
  const v = t.view;
  const owner = f.seat === t.seat ? " (you)" : "";
  const label = v.band > 1 ? `${t.nameOf(f.seat)}'s fairy ${f.letter}` : t.nameOf(f.seat);
  const classes = ["fairy"];
  if (f.dead) classes.push("dead");
  if (v.turn_fairy === f.index) classes.push("acting");
  if (f.seat === t.seat) classes.push("mine");
  return h("div", { class: classes.join(" "), id: `fairy-${f.index}` },
    h("div.fairy-name", {}, label + owner, f.dead ? " · dead" : "", v.turn_fairy === f.index ? " · to act" : ""),
    h("div", {}, `Live ${f.live} · Kill ${f.kill} · Twinkle ${f.twinkle}`),
    h("div", {}, f.weapon_title ? `weapon: ${f.weapon_title}` : "weapon: (not chosen)"),
    f.condition_titles && f.condition_titles.length ? h("div.conditions", {}, f.condition_titles.join(", ")) : null,
    facts(f.mushrooms ? `${f.mushrooms} mushrooms` : "", f.bonus ? `${f.bonus} bonus cards` : "",
      f.order_cards && f.order_cards.length ? `order ${f.order_cards.map((c) => c.face).join(" ")}` : ""));
}

function combat(t) {
  const c = t.view.combat;
  if (!c) return null;
  const sides = c.sides.map((s) => h("div.combat-side", {},
    h("strong", {}, `${t.nameOf(s.seat)}: `),
    `${s.hand_count} cards`,
    s.direction ? ` · ${DIRECTION[s.direction] || s.direction}` : "",
    s.trumps && s.trumps.length ? ` · Trumps ${s.trumps.map((x) => x.face).join(" ")}${s.colour ? ` (${s.colour})` : ""}` : "",
    s.face_down ? ` · ${s.face_down} Trumps face down` : "",
    s.card ? ` · plays ${s.card.face}` : "",
    s.wild && s.wild.length ? ` · Wild ${s.wild.map((x) => x.face).join(" ")}` : "",
    s.points ? ` · ${s.points} points` : ""));
  return h("div.duel#combat", {},
    h("div.duel-title", {}, `${c.kind === "attack" ? "Attack" : "Wrestle"}: ${t.nameOf(c.attacker)} on ${t.nameOf(c.defender)}`
      + (c.attacks > 1 ? ` (attack ${c.attack} of ${c.attacks})` : "")), sides);
}

function last(t) {
  const l = t.view.last;
  if (!l) return null;
  return h("details.duel#last", {}, h("summary", {},
    `Last ${l.kind}: ${l.winner === null || l.winner === undefined ? "no winner" : `${t.nameOf(l.winner)} won`}`
    + (l.damage ? ` · damage ${l.damage.join("/")}` : "")),
  h("ol", {}, (l.steps || []).map((s) => h("li", {}, t.named(s)))));
}

export default {
  keep(t) {
    return t.selected !== null && t.legal.some((d) => concerns(d, t.selected));
  },

  status(t) {
    const v = t.view;
    const where = `duel ${v.duel}${v.best_of > 1 ? ` of ${v.best_of} (${v.wins.join("-")})` : ""} · round ${v.round}`;
    if (t.seat === null) return `${where} · ${v.phase}`;
    if (t.legal.length) return `${where} · your move (${v.phase})`;
    if (v.my_choice) return `${where} · you locked in; waiting for the opponent`;
    return `${where} · waiting for the opponent`;
  },

  board(t) {
    const v = t.view;
    const order = [...v.fairies].sort((a, b) => (a.seat === t.seat) - (b.seat === t.seat) || a.index - b.index);
    const hand = v.hand || [];
    return h("div.fm", {},
      h("div.fairies", {}, order.map((f) => fairy(t, f))),
      facts(`deck ${v.deck}`, `spoils ${v.spoils}${v.spoils_top ? ` (top ${v.spoils_top.face})` : ""}`,
        v.timer ? `timed: ${v.timer.seconds} s for ${t.nameOf(v.timer.seat)}` : ""),
      combat(t),
      last(t),
      t.seat !== null && (hand.length || (v.my_face_down || []).length) ? h("div.hand#hand", {},
        hand.map((card, i) => playingCard(card, {
          id: `card-${i}`, selected: t.selected === card.code, usable: t.legal.some((d) => concerns(d, card.code)),
          extra: card.kind, onclick: () => t.select(card.code),
        })),
        (v.my_face_down || []).map((card, i) => playingCard(card, { id: `face-down-${i}`, extra: "your face-down Trump" })))
        : null);
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
