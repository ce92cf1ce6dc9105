// One websocket to the node that served the page, speaking the documented protocol (docs/protocol.md):
// every frame one binary msgpack map; requests carry `id`, replies carry it back as `re`.

import { Decoder, Encoder } from "./vendor/msgpack/index.mjs";

const encoder = new Encoder({ ignoreUndefined: true });
const decoder = new Decoder({ useBigInt64: true }); // seeds are 64-bit: kept exact as BigInt

export function serverUrl(location) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

export class Link {
  constructor(url, { onMessage, onClose }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
  }

  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("the server cannot be reached"));
      ws.onmessage = (event) => this.receive(event.data);
      ws.onclose = (event) => {
        if (this.ws !== ws) return;
        this.ws = null;
        for (const [, waiter] of this.pending) waiter({ t: "error", code: "disconnected", message: "the connection closed" });
        this.pending.clear();
        this.onClose(event.reason || `closed (${event.code})`);
      };
    });
  }

  close() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  receive(data) {
    if (!(data instanceof ArrayBuffer)) return;
    let message;
    try {
      message = decoder.decode(new Uint8Array(data));
    } catch {
      return;
    }
    if (message === null || typeof message !== "object") return;
    const re = typeof message.re === "bigint" ? Number(message.re) : message.re;
    const waiter = re === undefined || re === null ? undefined : this.pending.get(re);
    if (waiter) {
      this.pending.delete(re);
      waiter(message);
    }
    this.onMessage(message, Boolean(waiter));
  }

  // Send a message; the promise is the first reply naming it (an `error` reply included).
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!this.connected) {
        resolve({ t: "error", code: "disconnected", message: "not connected to the server" });
        return;
      }
      this.pending.set(id, resolve);
      this.ws.send(encoder.encode({ ...message, id }));
    });
  }
}
