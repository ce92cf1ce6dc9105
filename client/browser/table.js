// A table: the room's clocks, status, the game's board and moves, the log, chat, and what a seat may do
// besides playing (resign, abort, cancel, rematch), then the end screen. The game's own part is drawn by
// its module in tables/.

import { applyDelta } from "./delta.js";
import { button, clear, h, seconds } from "./dom.js";
import { GAMES, title } from "./games.js";
import * as identity from "./identity.js";
import creatureWars from "./tables/creature_wars.js";
import fairyMeat from "./tables/fairy_meat.js";
import fairyTableau from "./tables/fairy_tableau.js";
import queensChallenge from "./tables/queens_challenge.js";

const ASK_AGAIN_MS = 1000; // after a refused ask for the whole view

export const BOARDS = {
  creature_wars: creatureWars,
  fairy_meat: fairyMeat,
  fairy_tableau: fairyTableau,
  queens_challenge: queensChallenge,
};
const LOG_LINES = 200;
const REASONS = {
  knockout: "by knockout", mayhem: "after MAYHEM", resigned: "by resignation",
  forfeit: "by forfeit", aborted: "aborted",
};

// How a match ended, in words, for `seat` (null: someone watching): who won and how, or a solitaire's result.
export function describeOutcome(outcome, seats, seat, nameOf) {
  if (!outcome) return "";
  const how = REASONS[outcome.reason] || outcome.reason;
  if (seats === 1) return `game over: ${outcome.reason === "won" ? "you won" : "you lost"} · score ${(outcome.scores || []).join(" ")}`;
  if (outcome.winner === null || outcome.winner === undefined) return outcome.reason === "aborted" ? "the match was aborted" : "a draw";
  const who = outcome.winner === seat ? "you won" : `${nameOf(outcome.winner)} won`;
  return `${who} ${how}`;
}

function recordName(room) {
  return `cardroom-${room}.json`;
}

// JSON with 64-bit integers (seeds, decoded as BigInt) written out exactly, as Python's json writes them.
export function recordJson(record) {
  const marked = JSON.stringify(record, (key, value) => (typeof value === "bigint" ? `\u0000big:${value}` : value), 1);
  return marked.replace(/"\\u0000big:(-?\d+)"/g, "$1");
}

export class Table {
  constructor(app, room, game, seat) {
    this.app = app;
    this.board = BOARDS[game];
    this.game = game;
    this.seats = (GAMES[game] || {}).seats || 2;
    this.tick = setInterval(() => this.drawClocks(), 250);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    this.build();
    this.reset(room, seat);
  }

  reset(room, seat) {
    this.room = room;
    this.seat = seat;
    this.view = null;
    this.stale = false; // a delta did not fit the view held: its whole view is asked for (askWhole)
    this.asking = false;
    this.blocked = [];
    this.version = -1;
    this.clock = null;
    this.clockAt = 0;
    this.presence = [];
    this.spectators = 0; // how many watch without a seat (view messages and watchers pushes say)
    this.names = [];
    this.over = null;
    this.closed = null;
    this.rematchOffers = new Set();
    this.abortOffers = new Set();
    this.confirming = "";
    this.selected = null;
    this.armed = "";
    this.pending = false;
    this.refusal = "";
    this.dealt = null;
    this.dropped = new Set();
    this.seatMoved = false;
    this.endShown = false;
    clear(this.logEl);
    clear(this.chatLines);
    this.endEl.hidden = true;
    this.loadNames();
    this.render();
  }

  build() {
    this.titleEl = h("div.table-title#table-title");
    this.clocksEl = h("div.clocks#clocks");
    this.statusEl = h("div.status#status", { role: "status" });
    this.boardEl = h("div.board#board");
    this.movesEl = h("div.moves#moves");
    this.actionsEl = h("div.actions#actions");
    this.logEl = h("ol.log#log", { "aria-label": "what happened" });
    this.chatLines = h("ol.chat-lines#chat-lines");
    const input = h("input#chat-input", { type: "text", maxlength: 200, placeholder: "say something", "aria-label": "chat" });
    this.chatForm = h("form.chat-form", {
      onsubmit: async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        const reply = await this.app.ask({ t: "chat", room: this.room, text });
        if (reply.t === "chat") input.value = "";
      },
    }, input, h("button#chat-send", { type: "submit" }, "Send"));
    this.endEl = h("div.end#end", { hidden: true, role: "dialog", "aria-label": "the end of the match" });
    this.root = h("div.table-screen", { dataset: { game: this.game } },
      h("div.play", {},
        h("div.table-head", {}, button("‹ Lobby", () => this.app.leaveTable(), { id: "to-lobby", class: "small" }), this.titleEl),
        this.clocksEl, this.statusEl, this.boardEl, this.movesEl),
      h("div.side", {},
        h("section.panel", {}, h("h3", {}, "Log"), this.logEl),
        h("section.panel", {}, h("h3", {}, "Chat"), this.chatLines, this.chatForm),
        this.actionsEl),
      this.endEl);
  }

  element() {
    return this.root;
  }

  stop() {
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.onKey);
  }

  // Keys on a desktop, as in the terminal: 1-9 pick (a card, an answer, a move), Enter plays the picked card.
  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target instanceof HTMLInputElement) return;
    if (!this.view || this.view.outcome || this.seat === null || this.seatMoved || this.pending || !this.endEl.hidden) return;
    const n = /^[1-9]$/.test(event.key) ? Number(event.key) - 1 : null;
    if (this.board.key && this.board.key(this, event.key, n)) {
      event.preventDefault();
      return;
    }
    if (n !== null) {
      const moves = [...this.movesEl.querySelectorAll("button.move:not([disabled])")];
      if (moves[n]) {
        event.preventDefault();
        moves[n].click();
      }
    }
  }

  // After a reconnect: take the seat back, or watch again.
  rejoin() {
    const held = identity.seats()[this.room];
    if (this.seat !== null && held) this.app.ask({ t: "resume", room: this.room, token: held.token });
    else this.app.ask({ t: "spectate", room: this.room });
  }

  // A rematch made a new room: this table follows it.
  moveTo(room, seat) {
    this.reset(room, seat);
    history.replaceState(null, "", `#room/${room}`);
  }

  async loadNames() {
    let cursor;
    for (let page = 0; page < 5; page += 1) {
      const reply = await this.app.ask({ t: "list_rooms", game: this.game, limit: 200, cursor }, true);
      if (reply.t !== "rooms") return;
      const found = (reply.rooms || []).find((r) => r.room === this.room);
      if (found) {
        this.names = (found.players || []).map((n) => String(n || ""));
        this.render();
        return;
      }
      if (!reply.next) return;
      cursor = reply.next;
    }
  }

  // -- what the server sends -------------------------------------------------------------------

  receive(message) {
    switch (message.t) {
      case "view": this.onView(message); break;
      case "match_over": this.onMatchOver(message); break;
      case "presence":
        this.presence[message.seat] = message.connected;
        if (message.seat !== this.seat && this.view) { // a drop, and the return of a seat seen to drop, are news
          if (!message.connected) this.dropped.add(message.seat);
          if (!message.connected || this.dropped.delete(message.seat)) {
            const gone = this.over ? "left the table" : "left the table: their clock runs on"; // after the match: no rematch from them
            this.note(`${this.nameOf(message.seat)} ${message.connected ? "is back" : gone}.`);
          }
        }
        if (message.connected && !this.names[message.seat]) this.loadNames();
        this.drawClocks();
        break;
      case "watchers":
        this.spectators = Number(message.spectators) || 0;
        this.drawClocks();
        break;
      case "chat": this.onChat(message); break;
      case "abort_offered":
        this.abortOffers.add(message.seat);
        this.note(message.seat === this.seat ? "You offered to abort." : `${this.nameOf(message.seat)} offers to abort the match.`);
        this.render();
        break;
      case "rematch_offered":
        this.rematchOffers.add(message.seat);
        this.note(message.seat === this.seat ? "You asked for a rematch." : `${this.nameOf(message.seat)} asks for a rematch.`);
        this.render();
        break;
      case "seat_moved":
        this.note(message.message || "Another connection took this seat.");
        this.seatMoved = true;
        this.render();
        break;
      default:
    }
  }

  // The room's whole view asked for, one ask at a time, while the view held is stale (a delta did not fit it): the
  // deltas that come before the answer are covered by it; an ask refused is made again a second later.
  askWhole() {
    if (this.asking) return;
    this.asking = true;
    const room = this.room;
    this.app.ask({ t: "view", room }, true).then((reply) => {
      this.asking = false;
      const again = () => this.stale && this.room === room && !this.closed && this.app.table === this;
      if (reply.t === "error" && again()) setTimeout(() => { if (again()) this.askWhole(); }, ASK_AGAIN_MS);
    });
  }

  onView(message) {
    const events = [...(message.recent || []), ...(message.events || [])];
    for (const event of events) this.logEvent(event);
    const version = Number(message.version);
    const wasNull = this.view === null;
    if (message.delta !== undefined) { // on the view held, if it is the delta's base; else the whole view is asked for
      let view = null;
      try {
        if (this.view !== null && this.version === Number(message.base)) view = applyDelta(this.view, message.delta);
      } catch {
        // it does not fit the view held: left null
      }
      if (view === null) {
        this.stale = true;
        this.askWhole();
        return;
      }
      this.view = view;
    } else {
      this.view = message.view || null;
      this.stale = false;
    }
    this.blocked = Array.isArray(message.blocked) ? message.blocked : []; // per card of the hand: why not, or null
    if (this.board.events) this.board.events(this, events);
    this.version = version;
    if (message.clock) {
      this.clock = message.clock;
      this.clockAt = performance.now();
    }
    if (message.presence) this.presence = [...message.presence];
    if (typeof message.spectators === "number") this.spectators = message.spectators;
    if (this.view && typeof this.view.seat === "number") this.seat = this.view.seat;
    if (!this.view || (wasNull && this.view)) this.loadNames();
    if (!this.view || (this.board.keep && !this.board.keep(this))) this.selected = null;
    this.armed = "";
    this.refusal = "";
    this.render();
  }

  onMatchOver(message) {
    this.over = message; // the seat's token is kept: a rematch asks with it (the lobby forgets it once the room is gone)
    this.render();
    if (!this.endShown) {
      this.endShown = true;
      this.showEnd();
    }
  }

  onClosed(message) {
    this.closed = message.reason;
    this.note(`The room was closed: ${message.reason}.`);
    this.render();
  }

  onChat(message) {
    const who = message.name || (message.seat === null || message.seat === undefined ? "spectator" : this.nameOf(message.seat));
    const line = h("li", {}, h("span.who", {}, `${who}: `), message.text);
    if (message.past) line.classList.add("past");
    this.chatLines.append(line);
    while (this.chatLines.children.length > LOG_LINES) this.chatLines.firstElementChild.remove();
    this.chatLines.scrollTop = this.chatLines.scrollHeight;
  }

  logEvent(event) {
    if (!event || typeof event.text !== "string" || !event.text) return;
    this.note(this.named(event.text));
  }

  note(text) {
    this.logEl.append(h("li", {}, text));
    while (this.logEl.children.length > LOG_LINES) this.logEl.firstElementChild.remove();
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  // -- helpers for the game's module -------------------------------------------------------------

  nameOf(seat) {
    const name = this.names[seat];
    return name ? name : `Player ${seat + 1}`;
  }

  // The server's texts say "Player 1" and "Player 2": the names the room lists instead, where known.
  named(text) {
    if (this.seats < 2) return text;
    return text.replace(/\bPlayer ([12])\b/g, (whole, n) => this.names[Number(n) - 1] || whole);
  }

  get legal() {
    return (this.view && this.view.legal) || [];
  }

  select(value) {
    this.refusal = "";
    this.selectedTurn = this.view ? this.view.turn : undefined; // a selection lasts its turn at most
    this.selected = this.selected === value ? null : value;
    this.render();
  }

  async decide(decision) {
    const held = identity.seats()[this.room];
    if (!held) {
      this.app.toast("You hold no seat in this room.");
      return;
    }
    this.selected = null;
    this.pending = true; // until the server answers, no second decision is sent
    this.render();
    try {
      const reply = await this.app.ask({ t: "decide", room: this.room, token: held.token, version: this.version, decision }, true);
      if (reply.t === "error") { // the engine's reason, in the status line, with cards counted from 1 as shown
        this.refusal = String(reply.message || reply.code).replace(/\bin slot (\d+)\b/g, (whole, n) => `(card ${Number(n) + 1})`);
      }
    } finally {
      this.pending = false;
      this.render();
    }
  }

  async seatRequest(t) {
    const held = identity.seats()[this.room];
    if (!held) return;
    this.confirming = "";
    const message = { t, room: this.room, token: held.token };
    if (t === "rematch") message.nonce = identity.nonce();
    await this.app.ask(message);
    this.render();
  }

  // -- drawing --------------------------------------------------------------------------------------

  render() {
    Object.assign(this.root.dataset, {
      room: this.room, version: String(this.version), over: this.over ? "yes" : "no", pending: this.pending ? "yes" : "no",
      seat: this.seat === null ? "" : String(this.seat),
    });
    const you = this.seat === null ? "watching" : this.seats === 2 ? `you are ${this.nameOf(this.seat)}` : "";
    clear(this.titleEl, h("strong", {}, title(this.game)), ` · room ${this.room}`, you ? ` · ${you}` : "");
    this.statusEl.textContent = this.statusText();
    clear(this.boardEl, this.view ? this.board.board(this) : this.waitingBoard());
    clear(this.movesEl, this.movesRow());
    clear(this.actionsEl, this.actionButtons());
    if (!this.endEl.hidden) this.drawEnd(); // a rematch offered meanwhile shows on it
    this.drawClocks();
  }

  statusText() {
    if (this.closed) return `the room was closed (${this.closed})`;
    if (!this.view) return this.seat === null ? "waiting for players" : "waiting for an opponent to join";
    if (this.view.outcome) return this.ending();
    if (this.seatMoved) return "this seat is played from another connection";
    if (this.refusal) return `refused: ${this.refusal}`;
    if (this.seat === null) return `watching: ${this.board.status(this)}`;
    return this.board.status(this);
  }

  waitingBoard() {
    const invite = `${location.origin}${location.pathname}#join/${this.room}`;
    return h("div.waiting", {}, h("p", {}, "Send this link to a friend to play:"), h("code#invite", {}, invite));
  }

  movesRow() {
    if (!this.view || this.view.outcome || this.seat === null || this.seatMoved) return [];
    const moves = this.board.moves(this);
    if (this.pending) for (const move of moves) if (move instanceof HTMLButtonElement) move.disabled = true;
    return moves;
  }

  actionButtons() {
    const out = [];
    const seated = this.seat !== null && !this.seatMoved;
    const running = this.view && !this.view.outcome && !this.closed;
    if (this.seatMoved) out.push(button("Play here", () => this.app.enter(this.room, "resume"), { id: "play-here", class: "primary" }));
    if (seated && !this.view && !this.closed) {
      out.push(button("Cancel room", () => this.seatRequest("cancel"), { id: "cancel-room" }));
    }
    if (seated && running) {
      if (this.confirming === "resign") {
        out.push(h("span.confirm", {}, "Resign the match?"),
          button("Yes, resign", () => this.seatRequest("resign"), { id: "resign-yes", class: "danger" }),
          button("No", () => { this.confirming = ""; this.render(); }, { id: "resign-no" }));
      } else {
        out.push(button("Resign", () => { this.confirming = "resign"; this.render(); }, { id: "resign" }));
      }
      const offered = [...this.abortOffers].filter((s) => s !== this.seat).length > 0;
      out.push(button(offered ? "Accept abort" : "Offer abort", () => this.seatRequest("abort"), { id: "abort" }));
    }
    if (this.over) {
      out.push(button("End screen", () => this.showEnd(), { id: "show-end" }));
      out.push(button("Replay", () => this.app.showReplay(this.room, "table"), { id: "replay-side" }));
      if (seated && this.seats === 2) out.push(this.rematchButton("rematch-side"));
    }
    return out;
  }

  rematchButton(id) {
    const asked = this.rematchOffers.has(this.seat);
    const theirs = [...this.rematchOffers].some((s) => s !== this.seat);
    const label = asked ? "Rematch asked…" : theirs ? "Accept rematch" : "Rematch";
    return button(label, () => this.seatRequest("rematch"), { id, class: "primary", disabled: asked });
  }

  ending() {
    const outcome = (this.over && this.over.outcome) || (this.view && this.view.outcome);
    return describeOutcome(outcome, this.seats, this.seat, (s) => this.nameOf(s));
  }

  showEnd() {
    this.drawEnd();
    this.endEl.hidden = false;
  }

  drawEnd() {
    const outcome = (this.over && this.over.outcome) || (this.view && this.view.outcome) || {};
    const scores = outcome.scores && outcome.scores.length
      ? (this.seats === 2 ? outcome.scores.map((s, i) => `${this.nameOf(i)} ${s}`).join(" · ") : `score ${outcome.scores[0]}`)
      : "";
    const buttons = [];
    if (this.seat !== null && this.seats === 2) buttons.push(this.rematchButton("rematch"));
    if (this.seats === 1) {
      buttons.push(button("Play again", () => this.app.ask({ t: "create_room", game: this.game, nonce: identity.nonce() }),
        { id: "play-again", class: "primary" }));
    }
    buttons.push(button("Replay", () => this.app.showReplay(this.room, "table"), { id: "replay", class: "primary" }));
    buttons.push(button("Match record", () => this.exportRecord(), { id: "export" }));
    buttons.push(button("Lobby", () => this.app.leaveTable(), { id: "end-lobby" }),
      button("Look at the table", () => { this.endEl.hidden = true; }, { id: "end-close" }));
    clear(this.endEl, h("div.end-box", {},
      h("h2#end-title", {}, this.ending() || "the match is over"),
      outcome.detail ? h("p#end-detail", {}, this.named(outcome.detail)) : null,
      scores ? h("p#end-scores", {}, scores) : null,
      h("div.end-buttons", {}, buttons),
      h("p.quiet", {}, `Replay steps through the match here, decision by decision. The match record (the revealed seed and `
        + `every decision) replays in a terminal too: cardroom replay ${recordName(this.room)}, and `
        + `cardroom verify ${recordName(this.room)} checks the deal.`)));
  }

  // The finished match's record (`export`), saved as the JSON `cardroom export` prints.
  async exportRecord() {
    const held = identity.seats()[this.room];
    const reply = await this.app.ask({ t: "export", room: this.room, token: held ? held.token : undefined });
    if (reply.t !== "match") return;
    const url = URL.createObjectURL(new Blob([recordJson(reply.record)], { type: "application/json" }));
    const link = h("a", { href: url, download: recordName(this.room) });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  drawClocks() {
    if (!this.clocksEl) return;
    const limits = (this.clock && this.clock.limits) || {};
    const timed = Boolean(limits.move || limits.bank);
    const watching = this.spectators > 0 ? h("div.watching", { id: "watching" }, `${this.spectators} watching`) : null;
    if (this.seats < 2 && !timed) {
      clear(this.clocksEl, watching ? [watching] : []);
      return;
    }
    const elapsed = (performance.now() - this.clockAt) / 1000;
    const running = this.view && !this.view.outcome;
    const seats = [];
    for (let seat = 0; seat < this.seats; seat += 1) {
      const c = ((this.clock && this.clock.seats) || [])[seat] || {};
      let text = "";
      if (timed) {
        let left = c.left;
        let bank = Number(c.bank || 0);
        if (running && left !== null && left !== undefined) {
          const spent = Math.max(0, elapsed - left);
          left = Math.max(0, left - elapsed);
          if (!c.capped) bank = Math.max(0, bank - spent);
          text = `${seconds(left)} + ${seconds(bank)}`;
        } else {
          text = `bank ${seconds(bank)}`;
        }
        if (c.strikes) text += ` · ${c.strikes} time-out${c.strikes > 1 ? "s" : ""}`;
      }
      const away = running && this.presence.length && this.presence[seat] === false;
      const ticking = running && c.left !== null && c.left !== undefined;
      seats.push(h(`div.clock${ticking ? ".ticking" : ""}${seat === this.seat ? ".mine" : ""}`, { id: `clock-${seat}` },
        h("span.clock-name", {}, this.nameOf(seat) + (seat === this.seat ? " (you)" : "")),
        text ? h("span.clock-time", {}, text) : null,
        away ? h("span.away", {}, "away") : null));
    }
    if (watching) seats.push(watching);
    clear(this.clocksEl, seats);
  }
}
