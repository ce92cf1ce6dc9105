// The lobby: start a game (a room, the computer, or "play now"), and the rooms to join, watch or resume.

import { button, clear, h, seconds } from "./dom.js";
import { CLOCKS, GAMES, title } from "./games.js";
import * as identity from "./identity.js";

const REFRESH_MS = 3000;
const FINISHED = 10; // your finished matches listed, to replay

function choice(id, label, chosen, onclick) {
  return button(label, onclick, { id, class: chosen ? "choice chosen" : "choice", "aria-pressed": String(chosen) });
}

export class Lobby {
  constructor(app) {
    this.app = app;
    this.game = "creature_wars";
    this.options = {};
    this.opponent = "person";
    this.clock = "standard";
    this.rated = true;
    this.daily = false;
    this.filter = "";
    this.rooms = [];
    this.mine = [];
    this.queue = null; // {game, since, waiting}
    this.queueComputer = true;
    this.timer = null;
    this.root = h("div.lobby#lobby");
    this.roomsEl = null;
    this.leaders = null; // {game, daily, entries} once asked for
  }

  element() {
    this.render();
    return this.root;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async refresh() {
    this.stop();
    this.timer = setInterval(() => this.load(), REFRESH_MS);
    await this.load();
  }

  async load() {
    if (!this.app.link) return;
    const ask = { t: "list_rooms", limit: 100 };
    if (this.filter) ask.game = this.filter;
    const before = Object.keys(identity.seats()); // a seat granted while the request is out is not forgotten
    const [listed, mine] = await Promise.all([this.app.ask(ask, true), this.app.ask({ t: "my_rooms" }, true)]);
    if (listed.t === "rooms") this.rooms = listed.rooms || [];
    if (mine.t === "rooms") {
      this.mine = mine.rooms || [];
      const kept = new Set(this.mine.map((r) => r.room));
      for (const room of before) if (!kept.has(room)) identity.dropSeat(room); // the room is gone: so is its token
    }
    const fresh = this.roomsPanel();
    if (this.roomsEl && this.roomsEl.isConnected) this.roomsEl.replaceWith(fresh);
    this.roomsEl = fresh;
  }

  // -- what the server pushes --------------------------------------------------------------------

  onQueue(message) {
    if (message.t === "queued") {
      this.queue = { game: message.game, since: Date.now(), waiting: message.waiting };
    } else if (message.t === "unqueued" || message.t === "paired") {
      if (!this.queue || this.queue.game === message.game || message.t === "paired") this.queue = null;
    }
    this.render();
  }

  // -- actions ------------------------------------------------------------------------------------

  pick(game) {
    this.game = game;
    this.options = {};
    this.daily = false;
    if (!GAMES[game].computer) this.opponent = "person";
    this.render();
  }

  async create() {
    const spec = GAMES[this.game];
    const message = { t: "create_room", game: this.game, nonce: identity.nonce() };
    const options = {};
    for (const option of spec.options) {
      if (option.key in this.options && this.options[option.key] !== option.standard) options[option.key] = this.options[option.key];
    }
    if (spec.seats === 1 && this.daily) {
      message.daily = true;
    } else if (Object.keys(options).length) {
      message.options = options;
    }
    if (spec.seats === 2) {
      const clock = CLOCKS.find((c) => c.id === this.clock);
      if (clock && clock.clock) message.clock = clock.clock;
      if (this.opponent !== "person") message.computer = this.opponent;
      else if (this.rated) message.ranked = true;
    }
    await this.app.ask(message);
  }

  async playNow(game) {
    const message = { t: "queue", game, nonce: identity.nonce() };
    if (this.queueComputer) {
      message.computer_after = 30;
      message.computer = "strong";
    }
    await this.app.ask(message);
  }

  async cancelQueue() {
    if (this.queue) await this.app.ask({ t: "unqueue", game: this.queue.game });
  }

  // -- drawing -------------------------------------------------------------------------------------

  render() {
    this.roomsEl = this.roomsPanel();
    clear(this.root, this.newGame(), this.playNowPanel(), this.roomsEl, this.eventsPanel(), this.leadersPanel());
  }

  eventsPanel() {
    return h("section.panel#events-entry", {}, h("h2", {}, "Events"),
      h("p.quiet", {}, "Swiss tournaments and solitaire events: register, follow the pairings, play your tables."),
      button("Events", () => this.app.showEvents(), { id: "open-events", class: "primary" }));
  }

  newGame() {
    const spec = GAMES[this.game];
    const rows = [
      h("div.choices#games", { role: "group", "aria-label": "game" },
        Object.entries(GAMES).map(([game, g]) => choice(`game-${game}`, g.title, game === this.game, () => this.pick(game)))),
    ];
    const daily = spec.seats === 1 && this.daily;
    for (const option of spec.options) {
      const current = option.key in this.options ? this.options[option.key] : option.standard;
      rows.push(h("div.row", {}, h("span.label", {}, option.label),
        h("div.choices", { role: "group", "aria-label": option.label },
          option.choices.map((value) => choice(`opt-${option.key}-${value}`, String(value), value === current && !daily, () => {
            this.options[option.key] = value;
            this.daily = false;
            this.render();
          })))));
    }
    if (spec.seats === 2) {
      const opponents = [["person", "a player"]];
      if (spec.computer) opponents.push(["strong", "computer"], ["random", "random bot"]);
      rows.push(h("div.row", {}, h("span.label", {}, "Opponent"), h("div.choices", {},
        opponents.map(([id, label]) => choice(`opp-${id}`, label, this.opponent === id, () => {
          this.opponent = id;
          this.render();
        })))));
      rows.push(h("div.row", {}, h("span.label", {}, "Clock"), h("div.choices", {},
        CLOCKS.map((c) => choice(`clock-${c.id}`, c.label, this.clock === c.id, () => {
          this.clock = c.id;
          this.render();
        })))));
      if (this.opponent === "person") {
        rows.push(h("div.row", {}, h("span.label", {}, "Rated"), h("div.choices", {},
          choice("rated-on", "rated", this.rated, () => { this.rated = true; this.render(); }),
          choice("rated-off", "casual", !this.rated, () => { this.rated = false; this.render(); }))));
      }
    } else {
      rows.push(h("div.row", {}, h("span.label", {}, "Deal"), h("div.choices", {},
        choice("daily-off", "new deal", !this.daily, () => { this.daily = false; this.render(); }),
        choice("daily-on", "today's daily", this.daily, () => { this.daily = true; this.options = {}; this.render(); }))));
    }
    const what = spec.seats === 1 ? "Play" : this.opponent === "person" ? "Create room" : "Play the computer";
    rows.push(button(what, () => this.create(), { id: "create", class: "primary" }));
    return h("section.panel#new-game", {}, h("h2", {}, "New game"), rows);
  }

  playNowPanel() {
    const body = [];
    if (this.queue) {
      const queue = this.queue;
      const waiting = () => `Looking for a ${title(queue.game)} opponent… waited ${seconds((Date.now() - queue.since) / 1000)}; `
        + `${queue.waiting} in the pool when you joined it`;
      const line = h("p#queue-status", { role: "status" }, waiting());
      body.push(line, button("Cancel", () => this.cancelQueue(), { id: "play-now-cancel" }));
      const tick = setInterval(() => {
        if (line.isConnected && this.queue === queue) line.textContent = waiting();
        else clearInterval(tick);
      }, 1000);
    } else {
      body.push(h("div.choices", {}, Object.entries(GAMES).filter(([, g]) => g.seats === 2)
        .map(([game, g]) => button(g.title, () => this.playNow(game), { id: `play-now-${game}` }))));
      body.push(h("div.choices", {},
        choice("play-now-computer", "the computer after 30 s", this.queueComputer, () => {
          this.queueComputer = !this.queueComputer;
          this.render();
        })));
    }
    return h("section.panel#play-now", {}, h("h2", {}, "Play now"), body);
  }

  roomsPanel() {
    const held = identity.seats();
    const filters = h("div.choices#filters", {},
      choice("filter-all", "all", !this.filter, () => { this.filter = ""; this.load(); }),
      Object.entries(GAMES).map(([game, g]) => choice(`filter-${game}`, g.title, this.filter === game, () => {
        this.filter = game;
        this.load();
      })));
    const mine = this.mine.filter((r) => held[r.room] && r.status !== "over");
    const yours = mine.length ? h("div#your-rooms", {}, h("h3", {}, "Your rooms"),
      mine.map((r) => this.row(r, held))) : null;
    const ended = this.mine.filter((r) => r.status === "over").slice(0, FINISHED);
    const finished = ended.length ? h("div#your-finished", {}, h("h3", {}, "Your finished matches"),
      ended.map((r) => this.row(r, held))) : null;
    const list = this.rooms.length ? this.rooms.map((r) => this.row(r, held)) : [h("p.quiet", {}, "No rooms yet.")];
    return h("section.panel#rooms", {}, h("h2", {}, "Rooms ", button("refresh", () => this.load(), { class: "small", id: "refresh" })),
      filters, yours, finished, h("div#room-list", {}, list));
  }

  // The rating table of a two-player game, or a solitaire's high scores (all time, or today's daily deal).
  async showLeaders(game, daily = false) {
    const two = GAMES[game].seats === 2;
    const reply = await this.app.ask(two ? { t: "ratings", game, limit: 20 } : { t: "scores", game, daily, limit: 20 });
    if (reply.t !== "ratings" && reply.t !== "scores") return;
    this.leaders = { game, daily, entries: reply.entries || [] };
    this.render();
  }

  leadersPanel() {
    const picks = h("div.choices", {}, Object.entries(GAMES).map(([game, g]) => choice(`leaders-${game}`, g.title,
      Boolean(this.leaders && this.leaders.game === game && !this.leaders.daily), () => this.showLeaders(game))),
    Object.entries(GAMES).filter(([, g]) => g.seats === 1).map(([game, g]) => choice(`leaders-${game}-daily`,
      `${g.title} today`, Boolean(this.leaders && this.leaders.game === game && this.leaders.daily), () => this.showLeaders(game, true))));
    let table = null;
    if (this.leaders) {
      const two = GAMES[this.leaders.game].seats === 2;
      table = this.leaders.entries.length
        ? h("ol.leaders#leaders-list", {}, this.leaders.entries.map((e) => h("li", {},
          h("span.who", {}, e.name || "guest"),
          two ? ` · ${Math.round(e.rating)} ± ${Math.round(e.rd)} · ${e.games} match${e.games === 1 ? "" : "es"}` : ` · ${e.score}`)))
        : h("p.quiet#leaders-list", {}, two ? "No rated matches yet." : "No scores yet.");
    }
    return h("section.panel#leaders", {}, h("h2", {}, "Ratings and high scores"), picks, table);
  }

  row(room, held) {
    const players = (room.players || []).map((n) => n || "—").join(" vs ");
    const clock = room.clock && (room.clock.move || room.clock.bank) ? `${room.clock.move}s + ${seconds(room.clock.bank)}` : "";
    const facts = [title(room.game), `${room.taken}/${room.seats}`, room.status, room.ranked === "rated" ? "rated" : "",
      clock, room.spectators ? `${room.spectators} watching` : ""].filter(Boolean).join(" · ");
    const actions = [];
    if (held[room.room]) actions.push(button("Resume", () => this.app.enter(room.room, "resume"), { class: "primary" }));
    else if (room.status === "waiting" && room.taken < room.seats) actions.push(button("Join", () => this.app.enter(room.room, "join"), { class: "primary" }));
    if (!held[room.room]) actions.push(button("Watch", () => this.app.enter(room.room, "watch")));
    if (room.status === "over") actions.push(button("Replay", () => this.app.showReplay(room.room, "lobby"), { class: "replay" }));
    return h("div.room", { dataset: { room: room.room } },
      h("div.room-text", {}, h("div.room-players", {}, players || "(empty)"), h("div.room-facts", {}, facts)),
      h("div.room-actions", {}, actions));
  }
}
