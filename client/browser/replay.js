// The replay of a finished match, stepped through decision by decision, as the terminal's replay viewer shows
// it: the full view (the spectators' table with every hand, each from its own seat's view) or one seat's view.
// The page has no engine: the server rebuilds the match from its record and sends every step's views (`replay`,
// a page of steps at a time). Each table is drawn by the game's own module, as at a live table.
//
// Taps: First, Back, Next, Last step; the duel (Creature Wars) or attack (Fairy Meat) buttons jump to the previous
// or next one; the view button switches views. Keys: the arrows a decision, Home / End, p / n the duels, v the
// view, Esc back.

import { button, clear, h } from "./dom.js";
import { title } from "./games.js";
import { BOARDS, describeOutcome } from "./table.js";

const PAGE = 30;
const PAGES = 200; // 6 000 decisions: far past any match's length

// What a game's module reads of a table, for one view of one step: nothing can be decided or picked.
class Shown {
  constructor(replay, view, seat) {
    this.view = view;
    this.seat = seat;
    this.seats = replay.seats;
    this.names = replay.names;
    this.replaying = true;
    this.legal = [];
    this.blocked = [];
    this.selected = null;
    this.armed = "";
    this.pending = false;
    this.dealt = null;
  }

  nameOf(seat) {
    return this.names[seat] || `Player ${seat + 1}`;
  }

  named(text) {
    if (this.seats < 2) return text;
    return text.replace(/\bPlayer ([12])\b/g, (whole, n) => this.names[Number(n) - 1] || whole);
  }

  select() {}

  render() {}

  decide() {}
}

export class Replay {
  constructor(app, room, back) {
    this.app = app;
    this.room = room;
    this.back = back; // what ‹ returns to: "lobby", or "table" (the finished table it was opened from)
    this.steps = [];
    this.last = -1;
    this.n = 0;
    this.viewer = 0; // index into the step's views: 0 the full view (a solitaire: its player's), 1 + seat a seat's
    this.game = "";
    this.seats = 2;
    this.names = [];
    this.marks = [];
    this.outcome = null;
    this.problem = "";
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.whereEl = h("div.status.replay-where#replay-where", { role: "status" });
    this.boardEl = h("div.board#board");
    this.eventsEl = h("ol.log.replay-events#replay-events", { "aria-label": "what this decision did" });
    this.navEl = h("div.replay-nav#replay-nav", { role: "group", "aria-label": "step through the replay" });
    this.titleEl = h("div.table-title#table-title");
    this.root = h("div.replay-screen", { dataset: { room, step: "", loaded: "no" } },
      h("div.table-head", {}, button(back === "table" ? "‹ Table" : "‹ Lobby", () => this.leave(), { id: "replay-back", class: "small" }),
        this.titleEl),
      this.whereEl, this.boardEl,
      h("section.panel", {}, h("h3", {}, "This decision"), this.eventsEl),
      this.navEl);
    this.render();
  }

  element() {
    return this.root;
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
  }

  leave() {
    if (this.back === "table") this.app.enter(this.room, "watch");
    else this.app.showLobby();
  }

  // Every page of the replay, in order; the first step is shown as soon as the first page is in.
  async load() {
    let start = 0;
    for (let page = 0; page < PAGES && start !== null && start !== undefined; page += 1) {
      const message = { t: "replay", room: this.room, start, limit: PAGE };
      const held = this.app.heldToken(this.room);
      if (held) message.token = held;
      const reply = await this.app.ask(message, true);
      if (reply.t !== "replay") {
        this.problem = reply.message || reply.code;
        this.render();
        return;
      }
      if (page === 0) {
        this.game = reply.game;
        this.seats = reply.seats;
        this.names = (reply.names || []).map((n) => String(n || ""));
        this.marks = reply.marks || [];
        this.outcome = reply.outcome || null;
        this.last = reply.last;
      }
      this.steps.push(...reply.steps);
      start = reply.next;
      this.render();
    }
    this.root.dataset.loaded = "yes";
  }

  // -- stepping -------------------------------------------------------------------------------------

  go(n) {
    const most = this.steps.length - 1;
    this.n = Math.max(0, Math.min(most, n));
    this.render();
  }

  mark(direction) {
    const found = direction > 0 ? this.marks.find((m) => m > this.n) : [...this.marks].reverse().find((m) => m < this.n);
    if (found === undefined) {
      this.app.toast(direction > 0 ? "No further duel or attack that way." : "No earlier duel or attack.", "info");
      return;
    }
    this.go(found);
  }

  switchView() {
    const views = this.seats > 1 ? this.seats + 1 : 1;
    this.viewer = (this.viewer + 1) % views;
    this.render();
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target instanceof HTMLInputElement) return;
    const moves = {
      ArrowRight: () => this.go(this.n + 1), ArrowLeft: () => this.go(this.n - 1), l: () => this.go(this.n + 1),
      h: () => this.go(this.n - 1), Home: () => this.go(0), End: () => this.go(this.steps.length - 1),
      n: () => this.mark(1), p: () => this.mark(-1), v: () => this.switchView(), Escape: () => this.leave(),
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      move();
    }
  }

  // -- drawing ----------------------------------------------------------------------------------------

  seatOf(viewer) {
    if (this.seats < 2) return 0;
    return viewer === 0 ? null : viewer - 1;
  }

  viewName() {
    const seat = this.seatOf(this.viewer);
    if (this.seats < 2) return "";
    return seat === null ? "full view: every hand" : `${this.names[seat] || `Player ${seat + 1}`}'s view`;
  }

  render() {
    const step = this.steps[this.n];
    Object.assign(this.root.dataset, { step: step ? String(step.step) : "", last: String(this.last),
      viewer: String(this.viewer), game: this.game });
    clear(this.titleEl, h("strong", {}, "Replay"), ` · ${this.game ? title(this.game) : ""} · room ${this.room}`);
    if (this.problem && !step) {
      this.whereEl.textContent = `No replay: ${this.problem}`;
      clear(this.boardEl);
      clear(this.navEl, this.navButtons());
      return;
    }
    if (!step) {
      this.whereEl.textContent = "Loading the replay…";
      clear(this.navEl, this.navButtons());
      return;
    }
    clear(this.whereEl, this.where(step));
    clear(this.boardEl, this.table(step));
    const events = (step.events[this.viewer] || []).filter((e) => e && e.text);
    const shown = new Shown(this, step.views[this.viewer], this.seatOf(this.viewer));
    clear(this.eventsEl, events.length
      ? events.map((e) => h("li", {}, "to" in e ? h("strong", {}, `[${shown.nameOf(e.to)}] `) : null, shown.named(e.text)))
      : h("li.quiet", {}, step.step ? "(no events)" : "The cards are dealt."));
    clear(this.navEl, this.navButtons());
  }

  where(step) {
    const seat = this.seatOf(this.viewer);
    const shown = new Shown(this, null, seat);
    const head = [h("strong", {}, `Decision ${step.step}/${this.last}`)];
    if (step.mark) head.push(this.game === "creature_wars" ? " · a duel resolved" : " · an attack resolved");
    if (this.viewName()) head.push(h("em", {}, ` · ${this.viewName()}`));
    let said = "The deal.";
    if (step.seat !== null && step.seat !== undefined) {
      const who = this.seats > 1 ? `${shown.nameOf(step.seat)}: ` : "";
      said = seat === null || seat === step.seat ? `${who}${step.label}` : `${who}${step.kind || "decides"} (hidden from this view)`;
    }
    const lines = [h("div", {}, head), h("div#replay-decision", {}, said)];
    if (step.step === this.last && this.outcome) {
      lines.push(h("div#replay-outcome", {}, describeOutcome(this.outcome, this.seats, seat, (s) => shown.nameOf(s),
        (text) => shown.named(text))));
    }
    return lines;
  }

  // The step's table as the game's module draws it; in the full view, every hand below it from its own seat's view.
  // What a live table remembers from the events of each view (the damage of the last duel and its reasons, what
  // followed an attack's result, the labels of the choices offered) is rebuilt from every step up to this one.
  table(step) {
    const board = BOARDS[this.game];
    const seat = this.seatOf(this.viewer);
    const shown = new Shown(this, null, seat);
    if (board.events) {
      for (let k = 0; k <= this.n; k += 1) {
        shown.view = this.steps[k].views[this.viewer];
        board.events(shown, this.steps[k].events[this.viewer] || []);
      }
    }
    shown.view = step.views[this.viewer];
    const parts = [board.board(shown)];
    if (seat === null && board.hand) {
      for (let s = 0; s < this.seats; s += 1) {
        const own = new Shown(this, step.views[1 + s], s);
        parts.push(h("section.replay-hand", { id: `replay-hand-${s}` },
          h("h3", {}, `${own.nameOf(s)}'s hand`), board.hand(own)));
      }
    }
    return parts;
  }

  navButtons() {
    const end = this.steps.length - 1;
    const at = this.n;
    const out = [
      button("First", () => this.go(0), { id: "replay-first", "aria-label": "the deal", disabled: at <= 0 }),
      button("‹ Back", () => this.go(at - 1), { id: "replay-prev", disabled: at <= 0 }),
      button("Next", () => this.go(at + 1), { id: "replay-next", class: "primary", disabled: at >= end }),
      button("Last", () => this.go(end), { id: "replay-last", "aria-label": "the last decision", disabled: at >= end }),
    ];
    if (this.marks.length) {
      const what = this.game === "creature_wars" ? "duel" : "attack";
      out.push(button(`‹ ${what}`, () => this.mark(-1), { id: "replay-mark-prev", "aria-label": `the previous ${what}` }),
        button(`Next ${what}`, () => this.mark(1), { id: "replay-mark-next", "aria-label": `the next ${what}` }));
    }
    if (this.seats > 1) {
      out.push(button(this.viewer === 0 ? "View: all" : `View: ${this.names[this.viewer - 1] || `Player ${this.viewer}`}`,
        () => this.switchView(), { id: "replay-view" }));
    }
    return out;
  }
}
