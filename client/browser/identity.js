// The player's identity in this browser: a name and a secret key, kept in the browser's storage as the
// terminal client keeps its identity file (client/identity.py), and the tokens of the seats it holds.
// The key goes to the server in `hello` and nowhere else: never on screen, never in a log.

const STORE = "cardroom.identity";
const KEY_BYTES = 32;

function fresh() {
  return { format: 1, name: "", key: "", seats: {} };
}

let unsaved = null; // where a browser that keeps no storage (a private window may refuse it) holds the identity

export function load() {
  if (unsaved) return structuredClone(unsaved);
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    if (data && typeof data === "object") return { ...fresh(), ...data, seats: data.seats || {} };
  } catch {
    // an unreadable entry is an empty identity
  }
  return fresh();
}

function save(data) {
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch {
    unsaved = structuredClone(data); // kept for this tab only
  }
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_BYTES));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function key() {
  const data = load();
  if (typeof data.key !== "string" || data.key.length < 16 || data.key.length > 128) {
    data.key = newKey();
    save(data);
  }
  return data.key;
}

export function name() {
  return load().name || "";
}

export function setName(value) {
  const data = load();
  data.name = value;
  save(data);
}

export function seats() {
  return load().seats;
}

export function addSeat(room, seat, game, token) {
  const data = load();
  data.seats[room] = { seat, game, token };
  save(data);
}

export function dropSeat(room) {
  const data = load();
  delete data.seats[room];
  save(data);
}

export function nonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}
