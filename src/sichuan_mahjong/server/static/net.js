// Talking to `scmj serve`: the JSON API, the websocket with automatic reconnect, and the seat tokens kept in
// localStorage so that a reload returns to the same seat.

/** POST a JSON body; resolves to the JSON answer or throws an Error carrying the server's words and status. */
export async function post(path, body = {}) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw Object.assign(new Error(String(err.message || err)), { status: 0 });
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok) {
    const message = data.message || data.error || data.detail || response.statusText;
    throw Object.assign(new Error(message), { status: response.status, words: data.words, data });
  }
  return data;
}

export async function getJSON(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

// ---- the player id: random, kept in this browser, sent when creating or joining a room (战绩 and 复盘 are
// looked up by it). No account: "forget me" deletes what the server keeps under it.
const PLAYER_KEY = "scmj.player";

export function playerId() {
  let id = localStorage.getItem(PLAYER_KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem(PLAYER_KEY, id);
  }
  return id;
}

// ---- seats kept across reloads: {"K7QF": {"token": "...", "seat": 2, "role": "player", "name": "阿明"}}
const SEATS_KEY = "scmj.seats";

function seats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function savedSeat(room) {
  return seats()[room] || null;
}

export function saveSeat(room, entry) {
  const all = seats();
  all[room] = { ...entry, saved: Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function forgetSeat(room) {
  const all = seats();
  delete all[room];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/**
 * One room's websocket. Reconnects by itself (1 s, 2 s, 4 s ... up to 10 s) until closed on purpose or the
 * server refuses the token (close code 4401 and the other 44xx codes: the room or the seat is gone).
 * onState receives "connecting" | "open" | "closed" | "refused".
 */
export class Connection {
  constructor(room, token, { onMessage, onState }) {
    this.room = room;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.retry = 0;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.room)}?token=${encodeURIComponent(this.token)}`;
  }

  connect() {
    if (this.stopped) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code >= 4400 && event.code < 4500) {
        this.stopped = true;
        this.onState("refused", event);
        return;
      }
      if (this.stopped) return;
      this.onState("closed", event);
      const delay = Math.min(10000, 1000 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Sends one message; false when the socket is not open (the page shows it is reconnecting). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Reconnects now (after the page comes back to the foreground, or the network returns). */
  nudge() {
    if (this.stopped || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    this.retry = 0;
    this.connect();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
