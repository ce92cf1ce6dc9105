// Queen's Challenge: the challenger to beat, the four power piles, the summoned cards, the hand (tap a
// card to see what it can do) and, after the diamonds gift, the revealed cards to put back in order.

import { h } from "../dom.js";
import { facts, moveButtons, playingCard } from "./common.js";

const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];

function concerns(decision, code) {
  const listed = (field) => Array.isArray(decision[field]) && decision[field].includes(code);
  return decision.card === code || listed("cards") || listed("spells"); // an attack names its spells
}

export default {
  keep(t) {
    return t.selected !== null && t.legal.some((d) => concerns(d, t.selected));
  },

  status(t) {
    const v = t.view;
    const where = `turn ${v.turn} · score ${v.score}`;
    if (v.phase === "order") return `${where} · put the revealed cards back in order`;
    return t.legal.length ? `${where} · your move` : where;
  },

  board(t) {
    const v = t.view;
    const challenger = v.in_play
      ? playingCard(v.in_play, { id: "challenger", extra: `value ${v.in_play.value}${v.in_play.lowered ? ` (printed ${v.in_play.printed})` : ""}` })
      : h("div.pcard.empty#challenger", {}, "none");
    const piles = SUITS.map(([suit, symbol]) => {
      const pile = v.piles[suit];
      const summoned = v.summoned[suit];
      return h(`div.pile${v.enemy === suit ? ".enemy" : ""}`, { id: `pile-${suit}` },
        h("div.pile-name", {}, `${symbol} ${pile.name}`), h("div", {}, `power ${pile.power} · strength ${pile.strength}`),
        pile.top ? h("div", {}, `top ${pile.top.face}`) : null,
        summoned ? h("div", {}, `summoned ${summoned.face}`) : null,
        v.enemy === suit ? h("div.badge", {}, "enemy") : null);
    });
    const hand = (v.hand && v.hand.cards) || [];
    const pick = (card, i, prefix) => playingCard(card, {
      id: `${prefix}-${i}`, selected: t.selected === card.code, usable: t.legal.some((d) => concerns(d, card.code)),
      onclick: () => t.select(card.code),
    });
    return h("div.qc", {},
      h("div.challenge", {}, h("span.label", {}, "Challenger"), challenger,
        facts(`challenge deck ${v.challenge_deck}`, `beaten ${v.challenge_discard}`, `magic deck ${v.magic_deck}`,
          v.gift_used ? `gift used: ${v.gift_used}` : "")),
      h("div.piles", {}, piles),
      v.summoning ? h("div", {}, h("span.label", {}, "To summon "), playingCard(v.summoning, { id: "summoning" })) : null,
      (v.reveal || []).length ? h("div", {}, h("span.label", {}, "Revealed"), h("div.hand#reveal", {}, v.reveal.map((c, i) => pick(c, i, "reveal")))) : null,
      (v.known_top || []).length ? h("div.quiet", {}, `Known on top: ${v.known_top.map((c) => c.face).join(" ")}`) : null,
      t.seat !== null ? h("div", {}, h("span.label", {}, `Hand (${v.hand.count} of ${v.hand_size})`),
        h("div.hand#hand", {}, hand.map((c, i) => pick(c, i, "card")))) : null);
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
