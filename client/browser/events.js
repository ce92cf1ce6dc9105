// The events view: Swiss tournaments and solitaire events (docs/protocol.md, "Tournaments and solitaire events"),
// upcoming, running and finished; the chosen one followed (its `event` pushes redraw it): pairings, standings,
// your state, and its actions (register, unregister, drop, play your table, play a solitaire's deal, watch).

import { button, clear, h } from "./dom.js";
import { title } from "./games.js";
import * as identity from "./identity.js";

const FILTERS = [["", "all"], ["upcoming", "upcoming"], ["running", "running"], ["finished", "finished"]];

function when(stamp) {
  if (stamp === null || stamp === undefined) return "when its creator starts it";
  return new Date(Number(stamp) * 1000).toISOString().slice(5, 16).replace("T", " ") + " UTC";
}

function num(value) {
  return String(Number(value));
}

function progress(e) {
  if (e.kind === "swiss") return e.round ? `round ${e.round}/${e.rounds}` : `${e.rounds} round${e.rounds === 1 ? "" : "s"}`;
  return `until ${when(e.ends)}`;
}

export class Events {
  constructor(app) {
    this.app = app;
    this.filter = "";
    this.listed = [];
    this.current = null; // the chosen event's id
    this.state = null; // its latest state (the highest version)
    this.root = h("div.events#events-view");
  }

  element() {
    this.render();
    return this.root;
  }

  async refresh() {
    const ask = { t: "list_events", limit: 100 };
    if (this.filter) ask.status = this.filter;
    const reply = await this.app.ask(ask, true);
    if (reply.t === "events") this.listed = reply.events || [];
    if (this.current) await this.choose(this.current);
    else this.render();
  }

  async choose(event) {
    this.current = event;
    const reply = await this.app.ask({ t: "follow_event", event });
    if (reply.t === "event") this.onEvent(reply, true);
  }

  // An `event` reply or push: keep the state of the highest version (a solitaire's new scores keep theirs).
  onEvent(message, fresh = false) {
    const state = message.event;
    if (!state || state.event !== this.current) return;
    const held = this.state && this.state.event === state.event ? Number(this.state.version) : -1;
    if (!fresh && Number(state.version) < held) return;
    const same = Number(state.version) === held && state.kind === "swiss"; // a reply and a push of one change
    this.state = state;
    if (same) return;
    const i = this.listed.findIndex((e) => e.event === state.event);
    if (i >= 0) this.listed[i] = { ...this.listed[i], status: state.status, players: state.players, round: state.round };
    if (this.app.screen === "events") this.render();
  }

  async act(kind) {
    const message = { t: kind, event: this.current };
    if (kind === "register") message.nonce = identity.nonce();
    const reply = await this.app.ask(message);
    if (reply.t === "event") this.onEvent(reply, true);
  }

  async playTable(table) {
    identity.addSeat(table.room, table.seat, this.state.game, table.token);
    await this.app.ask({ t: "resume", room: table.room, token: table.token });
  }

  // -- drawing ------------------------------------------------------------------------------------

  render() {
    const head = h("section.panel#events-head", {},
      h("h2", {}, "Events ", button("back to the lobby", () => this.app.showLobby(), { class: "small", id: "events-back" }),
        " ", button("refresh", () => this.refresh(), { class: "small", id: "events-refresh" })));
    clear(this.root, head, this.state ? this.detail(this.state) : null, this.list());
  }

  list() {
    const filters = h("div.choices#event-filters", {}, FILTERS.map(([status, label]) => button(label, () => {
      this.filter = status;
      this.refresh();
    }, { id: `events-filter-${status || "all"}`, class: this.filter === status ? "choice chosen" : "choice" })));
    const rows = this.listed.length ? this.listed.map((e) => {
      const facts = [title(e.game), e.kind, `${e.players} player${e.players === 1 ? "" : "s"}`, e.status, progress(e)];
      if (e.invite_only) facts.push("invite only");
      return h("div.room.event-row", { dataset: { event: e.event } },
        h("div.room-text", {}, h("div.room-players", {}, e.title || e.event), h("div.room-facts", {}, facts.join(" · "))),
        h("div.room-actions", {}, button(e.event === this.current ? "Shown" : "Open", () => this.choose(e.event),
          { class: e.event === this.current ? "" : "primary" })));
    }) : [h("p.quiet", {}, "No events.")];
    return h("section.panel#event-list-panel", {}, h("h3", {}, "All events"), filters, h("div#event-list", {}, rows));
  }

  detail(s) {
    const facts = [title(s.game), s.kind, s.status, progress(s), `${s.players} ${s.kind === "swiss" ? "registered" : "played"}`];
    if (s.kind === "swiss" && s.status === "upcoming") facts.push(`starts ${when(s.start)}`);
    if (s.rated) facts.push("rated");
    if (s.invite_only) facts.push("invite only");
    if (s.creator) facts.push(`by ${s.creator}`);
    return h("section.panel#event-detail", { dataset: { event: s.event, status: s.status, version: num(s.version) } },
      h("h3#event-title", {}, s.title || s.event),
      h("p.room-facts", {}, facts.join(" · ")),
      this.you(s),
      s.kind === "swiss" ? [this.pairings(s), this.standings(s)] : this.scores(s));
  }

  you(s) {
    const you = s.you || {};
    const lines = [];
    const actions = [];
    if (s.kind === "solitaire") {
      if (you.room) lines.push(`You played this deal in room #${you.room}.`);
      else if (s.status === "running") actions.push(button("Play", () => this.act("play_event"), { id: "event-play", class: "primary" }));
    } else if (!you.registered) {
      if (s.status === "upcoming") actions.push(button("Register", () => this.act("register"), { id: "event-register", class: "primary" }));
      else lines.push("You are not playing in this event.");
    } else {
      const table = you.table;
      if (table) {
        lines.push(`Your table: round ${table.round} against ${table.opponent} (#${table.room}).`);
        actions.push(button("Play your table", () => this.playTable(table), { id: "event-play-table", class: "primary" }));
      } else if (you.dropped) {
        lines.push("You dropped out.");
      } else {
        lines.push(s.status === "upcoming" ? "You are registered." : s.status === "running" ? "You are playing; waiting for your next table."
          : "You played in this event.");
      }
      if (s.status === "upcoming") actions.push(button("Unregister", () => this.act("unregister"), { id: "event-unregister" }));
      if (s.status === "running" && !you.dropped) actions.push(button("Drop", () => this.act("drop"), { id: "event-drop", class: "danger" }));
    }
    return h("div#event-you", {}, lines.map((line) => h("p", {}, line)), actions.length ? h("div.choices", {}, actions) : null);
  }

  pairings(s) {
    const rounds = s.pairings || [];
    if (!rounds.length) return h("div#event-pairings", {}, h("h4", {}, "Pairings"), h("p.quiet", {}, "Not paired yet."));
    const last = rounds[rounds.length - 1].round;
    return h("div#event-pairings", {}, h("h4", {}, "Pairings"), rounds.map((r) => h("div.event-round", { dataset: { round: num(r.round) } },
      h("h5", {}, `Round ${r.round}`),
      r.tables.map((t) => {
        const result = t.result ? t.result.points.map(num).join(" - ") : "playing";
        const mine = s.you && s.you.table && s.you.table.room === t.room; // your own table: "Play your table"
        const watch = r.round === last && t.room && s.status === "running" && !mine
          ? button("Watch", () => this.app.enter(t.room, "watch"), { class: "small" }) : null;
        return h("div.room.pairing", { dataset: { room: t.room || "", table: num(t.table) } },
          h("div.room-text", {}, h("div.room-players", {}, `${t.table}. ${t.players[0]} v ${t.players[1]}`),
            h("div.room-facts", {}, [t.room ? `#${t.room}` : "room to come", result].join(" · "))),
          h("div.room-actions", {}, watch));
      }),
      r.bye ? h("p.room-facts", {}, `bye: ${r.bye}`) : null)));
  }

  standings(s) {
    const rows = s.standings || [];
    const list = rows.length
      ? h("ol.leaders#event-standings-list", {}, rows.map((e) => h("li", { dataset: { rank: num(e.rank) } },
        h("span.who", {}, e.name || "—"),
        ` · ${num(e.points)} pts · omw ${Number(e.omw).toFixed(2)} · gw ${Number(e.gw).toFixed(2)} · ogw ${Number(e.ogw).toFixed(2)}`,
        e.dropped ? " (dropped)" : "")))
      : h("p.quiet", {}, "No players yet.");
    return h("div#event-standings", {}, h("h4", {}, "Standings"), list);
  }

  scores(s) {
    const rows = s.scores || [];
    const list = rows.length
      ? h("ol.leaders#event-scores-list", {}, rows.map((e) => h("li", {}, h("span.who", {}, e.name || "—"), ` · ${e.score}`)))
      : h("p.quiet", {}, "No scores yet.");
    return h("div#event-standings", {}, h("h4", {}, "Scores"), list);
  }
}
