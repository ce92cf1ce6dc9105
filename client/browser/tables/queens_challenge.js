// Queen's Challenge, as the terminal's table shows it (client/screens/queens.py): the card in play (its value, how
// far it was lowered, the pile that may attack it, what lies beneath), the score, turn and phase, the gift used and
// the decks; the four power piles (top card, power, attack strength, the summoned card); the hand (tap a card: the
// moves that use it, a gather or an attack it joins as a spell; a card no move uses says why, from the server's
// `blocked`); the card the gift of clubs revealed, the cards the gift of diamonds revealed to put back in order,
// and the top of the magic deck as far as the player knows it.

import { h } from "../dom.js";
import { cardReason, facts, handMark, moveButtons, playingCard } from "./common.js";

const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
const SYMBOL = Object.fromEntries(SUITS);

function concerns(decision, code) {
  const listed = (field) => Array.isArray(decision[field]) && decision[field].includes(code);
  return decision.card === code || listed("cards") || listed("spells"); // an attack names its spells
}

function pileName(v, suit) {
  return `${SYMBOL[suit] || suit} ${((v.piles || {})[suit] || {}).name || suit}`;
}

function challenger(v) {
  const card = v.in_play;
  if (!card) return h("div.challenge#challenge", {}, h("span.label", {}, "In play"), h("div.pcard.empty#challenger", {}, "—"),
    h("span.quiet", {}, "nothing in play until the next flip"));
  const beneath = (v.in_play_stack || []).slice(0, -1).reverse();
  return h("div.challenge#challenge", {}, h("span.label", {}, "In play"),
    playingCard(card, { id: "challenger", extra: `value ${card.value}` }),
    h("div.challenge-facts", {},
      card.lowered ? h("div", {}, h("strong", {}, `lowered by ${card.lowered}`), ` (printed ${card.printed})`) : null,
      v.enemy ? h("div#attack-with", {}, `attack with ${pileName(v, v.enemy)}`) : null,
      beneath.length ? h("div", {}, `beneath (${beneath.length}): ${beneath.map((c) => c.face).join(" ")}`) : null));
}

function infoLine(v) {
  const discard = v.magic_discard || [];
  return facts(`score ${v.score}`, `turn ${v.turn}`, v.phase && v.phase !== "actions" ? `phase: ${v.phase}` : "",
    `gift used: ${v.gift_used ? pileName(v, v.gift_used) : "none yet"}`, `challenge deck ${v.challenge_deck}`,
    `defeated ${v.challenge_discard}`, `magic deck ${v.magic_deck}`,
    `magic discard ${discard.length}${discard.length ? ` (top ${discard[discard.length - 1].face})` : ""}`,
    v.scenario ? "scenario" : "");
}

export default {
  keep(t) {
    return t.selected !== null && t.legal.some((d) => concerns(d, t.selected));
  },

  status(t) {
    const v = t.view;
    const where = `turn ${v.turn} · score ${v.score}`;
    if (v.phase === "order") return `${where} · put the revealed cards back in order, card by card`;
    if (v.phase === "summon") return `${where} · summon the revealed card, or not`;
    return t.legal.length ? `${where} · your move: tap a card for the moves that use it` : where;
  },

  board(t) {
    const v = t.view;
    const piles = SUITS.map(([suit, symbol]) => {
      const pile = v.piles[suit];
      const summoned = v.summoned[suit];
      return h(`div.pile${v.enemy === suit ? ".enemy" : ""}`, { id: `pile-${suit}` },
        h("div.pile-name", {}, `${symbol} ${pile.name}`), h("div", {}, `power ${pile.power} · attack ${pile.strength}`),
        h("div", {}, `top ${pile.top ? pile.top.face : "—"}`),
        h("div", {}, `summoned ${summoned ? summoned.face : "—"}`),
        v.enemy === suit ? h("div.badge", {}, "attacks the card in play") : null);
    });
    const cards = (v.hand && v.hand.cards) || [];
    const pick = (card, i, prefix, index) => {
      const mark = index === null ? { usable: t.legal.some((d) => concerns(d, card.code)), unplayable: false }
        : handMark(t, index, t.legal.some((d) => concerns(d, card.code)));
      return playingCard(card, {
        id: `${prefix}-${i}`, selected: t.selected === card.code, usable: mark.usable, unplayable: mark.unplayable,
        extra: mark.unplayable ? "no move" : null, onclick: t.replaying ? null : () => t.select(card.code),
      });
    };
    const reveal = v.reveal || [];
    const known = v.known_top || [];
    const hand = t.seat === null || !v.hand.cards
      ? h("div#hand-count", {}, h("span.label", {}, "Hand"), ` ${v.hand.count} card(s), hidden`)
      : h("div", {}, h("span.label", {}, `Hand (${v.hand.count} of ${v.hand_size})`),
        h("div.hand#hand", {}, cards.map((c, i) => pick(c, i, "card", i))),
        cardReason(t, cards.findIndex((c) => c.code === t.selected)));
    return h("div.qc", {},
      challenger(v),
      infoLine(v),
      h("div.piles", {}, piles),
      hand,
      v.summoning ? h("div#summoning-line", {}, h("span.label", {}, "Revealed by the gift of clubs "),
        playingCard(v.summoning, { id: "summoning" }), t.seat !== null ? h("span.quiet", {}, " summon it or not below") : null) : null,
      reveal.length ? h("div", {}, h("span.label", {}, "Revealed by the gift of diamonds (top first)"),
        h("div.hand#reveal", {}, reveal.map((c, i) => pick(c, i, "reveal", null))),
        h("p.quiet", {}, `${v.placed ? `the top ${v.placed} placed · ` : ""}pick their order below, card by card`)) : null,
      !reveal.length && known.length ? h("div.quiet#known-top", {}, `Top of the magic deck (only you know): ${known.map((c) => c.face).join(" ")}`) : null);
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
