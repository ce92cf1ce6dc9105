// The browser client: a name, the lobby, and a table per room, over one websocket to the node.

import { button, clear, h } from "./dom.js";
import * as identity from "./identity.js";
import { Events } from "./events.js";
import { Link, serverUrl } from "./link.js";
import { Lobby } from "./lobby.js";
import { Replay } from "./replay.js";
import { Table } from "./table.js";

const RETRY = [1, 2, 4, 8, 10];

class App {
  constructor() {
    this.main = document.getElementById("main");
    this.banner = document.getElementById("banner");
    this.toasts = document.getElementById("toasts");
    this.who = document.getElementById("who");
    this.link = null;
    this.table = null;
    this.replay = null;
    this.lobby = new Lobby(this);
    this.events = new Events(this);
    this.retries = 0;
    this.screen = "";
    // Routing by node (docs/protocol.md): the node this connection reached, the node of the table's room when
    // it is another (the next connection names it: ?node=ID), and the (room, node) pairs moved for already.
    this.node = "";
    this.route = "";
    this.routing = true;
    this.rerouting = false;
    this.routed = new Set();
  }

  start() {
    const wanted = /^#(room|join|replay)\/([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
    this.invite = wanted ? { how: wanted[1], room: wanted[2] } : null;
    if (!identity.name()) this.showName("");
    else this.connect();
  }

  // -- the name -------------------------------------------------------------------------------

  showName(problem) {
    this.screen = "name";
    this.stopReplay();
    this.lobby.stop();
    if (this.table) this.table.stop();
    this.table = null;
    const input = h("input#name-input", {
      type: "text", maxlength: 40, autocomplete: "nickname", value: identity.name(), placeholder: "your name",
      "aria-label": "your name",
    });
    const form = h("form.name-form", {
      onsubmit: (event) => {
        event.preventDefault();
        const chosen = input.value.trim();
        if (!chosen) {
          this.showName("Choose a name to play under.");
          return;
        }
        identity.setName(chosen);
        if (this.link) this.link.close();
        this.link = null;
        this.connect();
      },
    },
    h("h1", {}, "cardroom"),
    h("p", {}, "Choose the name other players see. It is kept in this browser with a secret key that "
      + "binds the name to you on this server."),
    problem ? h("p.problem#name-problem", { role: "alert" }, problem) : null,
    input,
    h("button#name-ok", { type: "submit" }, "Play"));
    clear(this.main, form);
    this.who.textContent = "";
  }

  // -- the connection ---------------------------------------------------------------------------

  async connect() {
    this.setBanner("connecting…");
    const url = serverUrl(location) + (this.routing && this.route ? `?node=${encodeURIComponent(this.route)}` : "");
    const link = new Link(url, {
      onMessage: (message, answered) => this.receive(message, answered),
      onClose: (reason) => this.lost(link, reason),
    });
    this.link = link;
    try {
      await link.open();
    } catch {
      this.lost(link, "the server cannot be reached");
      return;
    }
    const welcome = await link.request({ t: "hello", v: 1, name: identity.name(), key: identity.key(), deltas: true });
    if (welcome.t !== "welcome") {
      this.link = null;
      link.close();
      this.setBanner("");
      this.showName(welcome.message || "The server refused that name.");
      return;
    }
    this.retries = 0;
    this.node = typeof welcome.node === "string" && welcome.proxied === true ? welcome.node : ""; // direct: stay
    if (this.route && this.node !== this.route) { // the node is down, or this address does not route by node
      if (this.rerouting) this.routing = false;
      this.route = "";
    }
    this.rerouting = false;
    this.setBanner("");
    this.who.replaceChildren(h("span.me", {}, welcome.name || "(no name)"),
      button("change name", () => this.showName(""), { class: "small", id: "change-name" }));
    if (this.table) {
      this.table.rejoin();
    } else if (this.screen === "replay" && this.replay) {
      if (this.replay.root.dataset.loaded !== "yes") this.showReplay(this.replay.room, this.replay.back); // load it anew
    } else if (this.invite) {
      const { how, room } = this.invite;
      this.invite = null;
      this.showLobby();
      if (how === "replay") this.showReplay(room, "lobby");
      else this.enter(room, how === "join" ? "join" : "watch");
    } else if (this.screen === "events") {
      this.showEvents(); // follows the chosen event again on the new connection
    } else {
      this.showLobby();
    }
  }

  // The table's room is on another node than this connection's: connect again naming it (a proxy that routes by
  // node sends the connection there), once per room and node; the table takes its seat back there.
  reroute(room, node) {
    const pair = `${room}\n${node}`;
    if (!this.routing || this.rerouting || typeof node !== "string" || !node || !this.node || node === this.node
        || this.routed.has(pair) || !this.link) return;
    this.routed.add(pair);
    this.route = node;
    this.rerouting = true;
    const old = this.link;
    this.link = null;
    old.close();
    this.connect();
  }

  lost(link, reason) {
    if (this.link !== link) return;
    this.link = null;
    const wait = RETRY[Math.min(this.retries, RETRY.length - 1)];
    this.retries += 1;
    this.setBanner(`connection lost (${reason}); reconnecting in ${wait} s…`);
    setTimeout(() => {
      if (this.link === null && this.screen !== "name") this.connect();
    }, wait * 1000);
  }

  setBanner(text) {
    this.banner.textContent = text;
    this.banner.hidden = !text;
  }

  toast(text, kind = "error") {
    const item = h(`div.toast.${kind}`, { role: "status" }, text);
    this.toasts.append(item);
    setTimeout(() => item.remove(), 6000);
  }

  // Send a request; an error reply is shown (unless `quiet`) and returned like any reply.
  async ask(message, quiet = false) {
    if (!this.link) {
      if (!quiet) this.toast("Not connected to the server.");
      return { t: "error", code: "disconnected", message: "not connected" };
    }
    const reply = await this.link.request(message);
    if (reply.t === "error" && !quiet) this.toast(reply.message || reply.code);
    return reply;
  }

  receive(message, answered) {
    const table = this.table && this.table.room === message.room ? this.table : null;
    switch (message.t) {
      case "seat_granted":
        identity.addSeat(message.room, message.seat, message.game, message.token);
        this.openTable(message.room, message.game, message.seat);
        this.reroute(message.room, message.node);
        break;
      case "spectating":
        this.openTable(message.room, message.game, null);
        this.reroute(message.room, message.node);
        break;
      case "rematch_ready":
        identity.addSeat(message.new_room, message.seat, this.table ? this.table.game : "", message.token);
        if (this.table && this.table.room === message.room) this.table.moveTo(message.new_room, message.seat);
        break;
      case "queued":
      case "unqueued":
        this.lobby.onQueue(message);
        break;
      case "paired":
        identity.addSeat(message.room, message.seat, message.game, message.token);
        this.lobby.onQueue(message);
        this.ask({ t: "resume", room: message.room, token: message.token });
        break;
      case "room_closed":
        identity.dropSeat(message.room);
        if (table) table.onClosed(message);
        break;
      case "event":
        this.events.onEvent(message);
        break;
      case "error":
        if (!answered) this.toast(message.message || message.code);
        break;
      default:
        if (table) table.receive(message);
    }
  }

  // -- screens ----------------------------------------------------------------------------------

  // The replay stops listening to the keys before another screen is drawn.
  stopReplay() {
    if (this.replay) this.replay.stop();
    this.replay = null;
  }

  // The seat token held in `room`, if any (a players-only replay asks with it).
  heldToken(room) {
    const held = identity.seats()[room];
    return held ? held.token : undefined;
  }

  // A finished match's replay; `back` is where its ‹ button goes: "lobby", or "table" (the table it came from).
  showReplay(room, back) {
    if (this.table) {
      this.ask({ t: "leave", room: this.table.room }, true);
      this.table.stop();
    }
    this.table = null;
    this.lobby.stop();
    this.stopReplay();
    this.screen = "replay";
    history.replaceState(null, "", `#replay/${room}`);
    this.replay = new Replay(this, room, back);
    clear(this.main, this.replay.element());
    this.replay.load();
  }

  showLobby() {
    this.stopReplay();
    if (this.table) this.table.stop();
    this.table = null;
    this.screen = "lobby";
    if (location.hash) history.replaceState(null, "", location.pathname);
    clear(this.main, this.lobby.element());
    this.lobby.refresh();
  }

  showEvents() {
    this.stopReplay();
    if (this.table) this.table.stop();
    this.table = null;
    this.lobby.stop();
    this.screen = "events";
    if (location.hash) history.replaceState(null, "", location.pathname);
    clear(this.main, this.events.element());
    this.events.refresh();
  }

  openTable(room, game, seat) {
    if (this.table && this.table.room === room) { // a seat taken back (a reconnect, or after seat_moved)
      this.table.seat = seat;
      this.table.seatMoved = false;
      this.table.render();
      return;
    }
    if (this.table) this.table.stop();
    this.lobby.stop();
    this.stopReplay();
    this.table = new Table(this, room, game, seat);
    this.screen = "table";
    history.replaceState(null, "", `#room/${room}`);
    clear(this.main, this.table.element());
  }

  // Take a seat held in `room`, else join or watch it.
  async enter(room, how) {
    const held = identity.seats()[room];
    if (held) {
      const reply = await this.ask({ t: "resume", room, token: held.token });
      if (reply.t === "error" && ["bad_token", "unknown_room", "room_closed"].includes(reply.code)) identity.dropSeat(room);
    } else if (how === "join") {
      await this.ask({ t: "join", room, nonce: identity.nonce() });
    } else {
      await this.ask({ t: "spectate", room });
    }
  }

  async leaveTable() {
    const table = this.table;
    if (table) await this.ask({ t: "leave", room: table.room }, true);
    this.showLobby();
  }
}

const app = new App();
window.addEventListener("DOMContentLoaded", () => app.start());
