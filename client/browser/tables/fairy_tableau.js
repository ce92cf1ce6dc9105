// Fairy Tableau, as the terminal's table shows it (client/screens/tableau.py): mana, score, enemies defeated and
// left, the draw pile; the seven slots, each card with its role and value (tap one: the moves that use it, as
// the spell, the fairy or the enemy; a card no move uses says why, from the server's `blocked`); the discard pile
// with its latest cards; the room's rules (the fairies, whether failed spells cost mana, ranked enemies).

import { h } from "../dom.js";
import { cardReason, facts, handMark, moveButtons, playingCard } from "./common.js";

const DISCARD_SHOWN = 16;

function concerns(decision, slot) {
  return decision.slot === slot || decision.target === slot || decision.spell === slot || decision.fairy === slot;
}

function rules(v) {
  const options = v.options || {};
  const names = options.fairy_names || [];
  return facts(`fairies: ${names.length ? names.join(", ") : "none"}`,
    `failed spells ${(options.fizzle || "pay") === "pay" ? "cost mana" : "are free"}`,
    options.ranked_enemies ? "ranked enemies (J♣ 11, Q♣ 12, K♣ 13)" : "", v.scenario ? "scenario" : "");
}

function discard(v) {
  const pile = v.discard || [];
  const shown = pile.slice(-DISCARD_SHOWN);
  return h("div.pile-line#discard", {}, h("strong", {}, `Discard (${pile.length}): `),
    pile.length > shown.length ? "… " : "", shown.length ? shown.map((c) => c.face).join(" ") : "empty");
}

export default {
  keep(t) {
    return t.selected !== null && Boolean(t.view.tableau[t.selected]);
  },

  status(t) {
    const v = t.view;
    const where = `mana ${v.mana} · score ${v.score} · enemies defeated ${v.defeated} of ${v.enemies} (${v.enemies_left} left)`;
    return t.legal.length ? `${where} · your move: tap a card for the moves that use it` : where;
  },

  board(t) {
    const v = t.view;
    return h("div.ft", {},
      h("div.tableau#tableau", {}, v.tableau.map((card, slot) => {
        if (!card) return h("div.pcard.empty", { id: `slot-${slot}` }, "empty");
        const mark = handMark(t, slot, t.legal.some((d) => concerns(d, slot)));
        return playingCard(card, {
          id: `slot-${slot}`, selected: t.selected === slot, usable: mark.usable, unplayable: mark.unplayable,
          extra: `${card.role} ${card.value}${mark.unplayable ? " · no move" : ""}`,
          onclick: t.replaying ? null : () => t.select(slot),
        });
      })),
      cardReason(t, t.selected === null ? -1 : t.selected),
      facts(`mana ${v.mana}`, `draw pile ${v.draw_pile}`, `defeated ${v.defeated}/${v.enemies}`, `score ${v.score}`),
      discard(v),
      rules(v),
      t.legal.length ? h("p.quiet.hint", {}, "Tap a card: the moves that use it are listed below. Spades give mana; a "
        + "Diamond is cast at a Club worth no more than it; a fairy (♥) defeats a Club. A move that loses the game "
        + "takes a second tap.") : null);
  },

  moves(t) {
    const only = t.selected !== null ? (d) => concerns(d, t.selected) : null;
    const out = moveButtons(t, only);
    return out.length ? out : moveButtons(t);
  },
};
