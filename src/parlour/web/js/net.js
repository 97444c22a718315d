// One WebSocket per seat, version 1 of the protocol, reconnecting by itself.

const VERSION = 1;

/** A game connection: `hello` is sent on every (re)connect; `onMessage(msg)` gets every
 * server message; `onStatus("open" | "closed" | "reconnecting")` follows the connection. */
export class GameSocket {
  constructor(tableId, hello, { onMessage, onStatus }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(tableId)}`;
    this.hello = hello;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    this.retry = 0;
    this.closed = false;
    this.ref = 0;
    this.open();
  }

  open() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ v: VERSION, type: "hello", ...this.hello }));
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "ping" && typeof msg.nonce === "number") {
        // The server measures this seat's round trip (real-time tables): answer at once.
        ws.send(JSON.stringify({ v: VERSION, type: "pong", nonce: msg.nonce }));
        return;
      }
      // Back-off starts afresh only once a server has taken this seat again (a server that
      // accepts the socket and closes it at once, e.g. while a table moves to another
      // server process, does not reset it).
      if (msg.type === "welcome") this.retry = 0;
      this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.closed || event.code === 4404 || event.code === 4410) {
        this.onStatus("closed");
        return;
      }
      this.onStatus("reconnecting");
      // Exponential back-off with jitter (half to one and a half times the step), so that the
      // many browsers of a server that went away do not all come back at the same moment.
      const step = Math.min(8000, 300 * 2 ** this.retry++);
      setTimeout(() => this.open(), step * (0.5 + Math.random()));
    });
  }

  /** Send a message of `type` with `body`; returns its ref (for `act` and `play`) or null if
   * the socket is not open. */
  send(type, body = {}) {
    if (this.ws?.readyState !== WebSocket.OPEN) return null;
    const ref = ++this.ref;
    const withRef = type === "act" || type === "play" ? { ref } : {};
    this.ws.send(JSON.stringify({ v: VERSION, type, ...body, ...withRef }));
    return ref;
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}

/** The seat tokens this browser holds, by table id (kept in localStorage). */
export const seats = {
  get(tableId) {
    try {
      return JSON.parse(localStorage.getItem("parlour.seats") ?? "{}")[tableId] ?? null;
    } catch {
      return null;
    }
  },
  set(tableId, seat, token) {
    let all = {};
    try {
      all = JSON.parse(localStorage.getItem("parlour.seats") ?? "{}");
    } catch {
      all = {};
    }
    all[tableId] = { seat, token, at: Date.now() };
    const recent = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
    localStorage.setItem("parlour.seats", JSON.stringify(Object.fromEntries(recent)));
  },
  drop(tableId) {
    try {
      const all = JSON.parse(localStorage.getItem("parlour.seats") ?? "{}");
      delete all[tableId];
      localStorage.setItem("parlour.seats", JSON.stringify(all));
    } catch {
      /* nothing stored */
    }
  },
};

/** The player's name, remembered between visits. */
export const player = {
  get name() {
    return localStorage.getItem("parlour.name") ?? "";
  },
  set name(value) {
    localStorage.setItem("parlour.name", value);
  },
};

/** POST JSON to the API; resolves to the parsed answer, or throws an Error with its message. */
export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.message ?? response.statusText), { code: data.code });
  return data;
}

/** Create a table and remember the host's token; resolves to the table id. */
export async function createTable(setup) {
  const data = await postJSON("/api/tables", setup);
  seats.set(data.table_id, data.seat, data.token);
  localStorage.setItem("parlour.setup", JSON.stringify(setup));
  return data.table_id;
}
