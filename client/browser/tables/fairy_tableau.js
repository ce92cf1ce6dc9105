// Fairy Tableau: the seven slots (tap one to see what it can do), the mana, the piles and the score.

import { h } from "../dom.js";
import { facts, moveButtons, playingCard } from "./common.js";

function concerns(decision, slot) {
  return decision.slot === slot || decision.target === slot || decision.spell === slot || decision.fairy === slot;
}

export default {
  keep(t) {
    return t.selected !== null && t.legal.some((d) => concerns(d, t.selected));
  },

  status(t) {
    const v = t.view;
    const where = `mana ${v.mana} · ${v.enemies_left} enemies left · score ${v.score}`;
    return t.legal.length ? `${where} · your move: tap a card` : where;
  },

  board(t) {
    const v = t.view;
    return h("div.ft", {},
      h("div.tableau#tableau", {}, v.tableau.map((card, slot) => (card
        ? playingCard(card, {
          id: `slot-${slot}`, selected: t.selected === slot, usable: t.legal.some((d) => concerns(d, slot)),
          extra: `${card.role} ${card.value}`, onclick: () => t.select(slot),
        })
        : h("div.pcard.empty", { id: `slot-${slot}` }, "empty")))),
      facts(`mana ${v.mana}`, `draw pile ${v.draw_pile}`, `defeated ${v.defeated}/${v.enemies}`, `score ${v.score}`,
        v.discard.length ? `discard ${v.discard.length} (top ${v.discard[v.discard.length - 1].face})` : "discard 0",
        v.options && v.options.fairy_names && v.options.fairy_names.length ? `fairies: ${v.options.fairy_names.join(", ")}` : ""));
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
