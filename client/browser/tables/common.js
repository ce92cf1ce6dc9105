// What the game modules share: a bar of points, the legal decisions as buttons, a card one may tap.

import { button, h } from "../dom.js";

export function bar(value, most, id) {
  const share = Math.max(0, Math.min(1, value / Math.max(1, most)));
  const level = share > 0.5 ? "high" : share > 0.25 ? "mid" : "low";
  const fill = h(`div.bar-fill.${level}`);
  fill.style.width = `${Math.round(share * 100)}%`; // through the CSSOM: the page's policy allows no inline style
  return h("div.bar", { id, role: "meter", "aria-valuenow": value, "aria-valuemax": most }, fill,
    h("span.bar-text", {}, `${value}/${most}`));
}

// What is sent back: the decision without the display hints (the server accepts them, but need not see them).
export function bare(decision) {
  const { label, loses, ...rest } = decision;
  return rest;
}

function describe(decision) {
  if (decision.label) return decision.label;
  return Object.entries(bare(decision)).map(([k, v]) => (k === "kind" ? v : `${k} ${JSON.stringify(v)}`)).join(" ");
}

// Every legal decision as a button; `only` keeps those that concern the tapped card. A decision that loses
// the game at once takes a second tap, so that no single tap throws a game away.
export function moveButtons(t, only = null) {
  const out = [];
  t.legal.forEach((decision, i) => {
    if (only && !only(decision)) return;
    const key = JSON.stringify(bare(decision));
    if (!decision.loses) {
      out.push(button(describe(decision), () => t.decide(bare(decision)), { id: `move-${i}`, class: "move" }));
    } else if (t.armed === key) {
      out.push(button(`Tap again to lose the game: ${describe(decision)}`, () => t.decide(bare(decision)),
        { id: `move-${i}`, class: "move danger armed" }));
    } else {
      out.push(button(`${describe(decision)} (loses the game)`, () => { t.armed = key; t.render(); },
        { id: `move-${i}`, class: "move danger" }));
    }
  });
  return out;
}

// How a card of the seat's hand (or a solitaire's table) is marked while a decision is awaited of the seat: usable
// (a decision plays it), or unplayable (none does: the server's `blocked` says why, shown once the card is tapped).
// Nothing is marked while nothing is awaited, nor in a replay.
export function handMark(t, i, usable) {
  if (t.replaying || !t.legal.length) return { usable: false, unplayable: false, reason: "" };
  if (usable) return { usable: true, unplayable: false, reason: "" };
  return { usable: false, unplayable: true, reason: String((t.blocked || [])[i] || "") };
}

// Why the tapped card (index `i` of the hand, -1 for none) has no move now, in the server's words.
export function cardReason(t, i) {
  if (i < 0 || t.replaying || !t.legal.length) return null;
  const why = (t.blocked || [])[i];
  return why ? h("div.reason#card-reason", { role: "note" }, `Not playable now: ${why}`) : null;
}

// A playing card (a code and its face) the player may tap to see what it can do.
export function playingCard(card, { id, selected = false, usable = false, unplayable = false, onclick = null, extra = null } = {}) {
  const suit = (card.code || "").slice(-1);
  const red = suit === "H" || suit === "D" || card.colour === "red" || card.suit === "hearts" || card.suit === "diamonds";
  const classes = ["pcard", red ? "red" : "black"];
  if (selected) classes.push("selected");
  if (usable) classes.push("usable");
  if (unplayable) classes.push("unplayable");
  const inner = [h("span.face", {}, card.face || card.code), extra ? h("span.card-note", {}, extra) : null];
  if (!onclick) return h("div", { id, class: classes.join(" ") }, inner);
  return button(inner, onclick, { id, class: classes.join(" "), "aria-pressed": String(selected) });
}

export function facts(...items) {
  return h("div.facts", {}, items.filter(Boolean).map((item) => h("span.fact", {}, item)));
}
