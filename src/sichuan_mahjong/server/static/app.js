// The page: lobby, waiting room and table in one module graph, no build step. State lives here; the other
// modules turn it into HTML. The server is the only judge of what is legal: this page sends what the player
// taps and shows the server's words when it refuses.

import { loadCatalogues, savedLang, translator } from "./i18n.js";
import { joinHTML, lobbyHTML } from "./lobby.js";
import { askReview, forgetMe, nextSpeed, openHistory, openReplay, stepTo, stop, togglePlay } from "./afterhand.js";
import { historyHTML, replayHTML } from "./history.js";
import { Connection, forgetSeat, getJSON, savedSeat } from "./net.js";
import { adviceHTML, bubbleFor, handOverHTML, inviteHTML, matchOverHTML } from "./panels.js";
import { roomActions } from "./rooms.js";
import { phrasesHTML, saidText, tableExtrasHTML, timedOutHTML } from "./phrases.js";
import { play, setSound, soundFor, soundOn } from "./sounds.js";
import { TAP_SETTLE_MS, seatLabel, tableHTML, waitingHTML } from "./table.js";

const app = document.getElementById("app");

const state = {
  lang: savedLang(),
  t: null,
  screen: "lobby", // lobby | join | waiting | table | history | replay
  after: null, // 战绩, replay and 复盘 (afterhand.js)
  presets: null,
  lobby: { name: localStorage.getItem("scmj.name") || "", preset: "app", hands: 8, timer: null, bots: {}, code: "" },
  code: null,
  token: null,
  me: null,
  conn: null,
  connState: "connecting",
  msg: null,
  room: null,
  ui: freshUI(),
  handOver: null,
  matchOver: null,
  advice: null,
  panel: null, // hand_over | match_over | advice | invite | phrases
  toast: null,
  toastSeq: null, // a refusal's toast answers the view of this seq; the next view takes it away
  errorAt: null, // the lobby card whose button met the error: it is shown there
  scrollToError: false,
};

function freshUI() {
  return { raised: null, picked: [], sent: null, answered: null, lastDiscard: null, bubbles: {}, received: [], showExchange: false, exchangeDirection: null };
}

// ---------------------------------------------------------------- rendering

function ctx() {
  return {
    t: state.t,
    // The table reads the newest room: a "room" message (someone left, came back, turned 托管 on) comes between views.
    msg: state.msg && state.room ? { ...state.msg, room: state.room } : state.msg,
    me: state.me,
    code: state.code,
    room: state.room,
    ui: {
      ...state.ui,
      conn: state.connState,
      answered: state.ui.answered?.seq === state.msg?.seq ? state.ui.answered : null,
      sent: state.msg !== null && state.ui.sent === state.msg.seq,
    },
    handOver: state.handOver,
    matchOver: state.matchOver,
    advice: state.advice,
  };
}

// A tap is a press and a release on the same element: a redraw between them (a view arriving, a bubble fading)
// would replace the tile under the finger, and the tap would be lost. So a redraw asked for during a press waits
// for the press to end — its click handled — and at most HOLD_MS.
const HOLD_MS = 1500;
let press = 0; // the press under way, 0 when none
let presses = 0;
let held = false;

function release(id) {
  if (!id || press !== id) return;
  press = 0;
  if (held) {
    held = false;
    render();
  }
}
app.addEventListener(
  "pointerdown",
  () => {
    const id = (press = ++presses);
    setTimeout(() => release(id), HOLD_MS);
  },
  true,
);
// The click reaches the document after the table's own handler (on #app) has run: the redraw that handler asked
// for goes on now, in the same task, so an answer shows as sent the moment it is tapped (not a task later, while
// the old marks and buttons still invite a second tap).
document.addEventListener("click", () => release(press));
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    const id = press; // no click may follow (a press that slid off): the redraw goes on a little later
    setTimeout(() => release(id), 100);
  });
}

function render() {
  if (press) {
    held = true;
    return;
  }
  const t = state.t;
  document.documentElement.lang = state.lang === "zh" ? "zh-CN" : "en";
  document.title = t("title");
  let html;
  if (state.screen === "lobby") {
    html = lobbyHTML(t, { ...state.lobby, presets: state.presets, error: state.error, errorAt: state.errorAt, busy: state.busy });
  }
  else if (state.screen === "history") html = historyHTML(t, state.after);
  else if (state.screen === "replay") html = replayHTML(t, state.after);
  else if (state.screen === "join") html = joinHTML(t, { ...state.lobby, code: state.code, error: state.error, busy: state.busy });
  else if (state.screen === "waiting" || !state.msg) html = waitingHTML(t, ctx());
  else html = tableHTML(t, ctx());
  const c = ctx();
  if (state.panel === "hand_over" && state.handOver) html += handOverHTML(t, c);
  else if (state.panel === "match_over" && state.matchOver) html += matchOverHTML(t, c);
  else if (state.panel === "advice" && state.advice) html += adviceHTML(t, c);
  else if (state.panel === "invite") html += inviteHTML(t, c);
  else if (state.panel === "phrases" && state.me !== null) html += phrasesHTML(t);
  const timedOut = state.screen === "table" && state.msg ? timedOutHTML(t, c) : "";
  if (timedOut && !state.panel) html += timedOut;
  if (state.toast) html += `<div class="toast" role="status" data-role="toast">${escapeText(state.toast)}</div>`;
  app.innerHTML = html;
  document.body.dataset.screen = state.screen;
  if (state.screen === "lobby") {
    app.querySelector(".lobby-head h1")?.insertAdjacentHTML("afterend", `<button data-act="history" class="history-btn">${escapeText(t("btn_history"))}</button>`);
  }
  // The sound switch and the phrases button join the table's top bar (the table itself is table.js's).
  const bar = app.querySelector(".topbar");
  if (bar) bar.querySelector('[data-act="lang"]')?.insertAdjacentHTML("beforebegin", tableExtrasHTML(t, { sound: soundOn(), player: state.me !== null }));
  // Over a panel (the 结算 that follows quickly once the bot plays) the notice is its first line.
  if (timedOut && state.panel) app.querySelector(".overlay .panel")?.insertAdjacentHTML("afterbegin", timedOut);
  if (state.scrollToError) {
    // A refused join or create is said where the person is looking: the error is scrolled into view.
    state.scrollToError = false;
    app.querySelector('[data-role="error"]')?.scrollIntoView({ block: "center" });
  }
  tick();
}

function escapeText(s) {
  const div = document.createElement("div");
  div.textContent = s;
  return div.innerHTML;
}

let toastTimer = null;
function toast(text, ms = 4000, seq = null) {
  state.toast = text;
  state.toastSeq = seq;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    state.toast = null;
    const el = app.querySelector('[data-role="toast"]');
    if (el) el.remove();
  }, ms);
  render();
}

/** Countdowns tick without redrawing the table. */
function tick() {
  for (const el of app.querySelectorAll(".countdown[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = String(left);
    el.classList.toggle("urgent", left <= 5);
  }
}
setInterval(tick, 250);

// ---------------------------------------------------------------- lobby (rooms.js)

const { captureLobby, createRoom, joinRoom, watchRoom } = roomActions(state, app, render, go);

// ---------------------------------------------------------------- routing

function go(code) {
  const url = code ? `/?room=${encodeURIComponent(code)}` : "/";
  if (location.pathname + location.search !== url) history.pushState({}, "", url);
  route();
}

function route() {
  if (state.conn) state.conn.close();
  state.conn = null;
  state.msg = null;
  state.room = null;
  state.handOver = null;
  state.matchOver = null;
  state.panel = null;
  state.ui = freshUI();
  state.error = null;
  stop(state);
  if (new URLSearchParams(location.search).has("history")) {
    openHistory(state, render);
    return;
  }
  const code = (new URLSearchParams(location.search).get("room") || "").toUpperCase();
  state.code = code || null;
  if (!code) {
    state.screen = "lobby";
    render();
    return;
  }
  const seat = savedSeat(code);
  if (!seat) {
    state.screen = "join";
    render();
    return;
  }
  state.token = seat.token;
  state.me = seat.role === "spectator" ? null : seat.seat;
  state.screen = "waiting";
  state.connState = "connecting";
  state.conn = new Connection(code, seat.token, { onMessage, onState });
  state.conn.connect();
  render();
}

window.addEventListener("popstate", route);

// ---------------------------------------------------------------- the connection

let freshConnection = true;

function onState(connState, event) {
  state.connState = connState;
  if (connState === "open") freshConnection = true;
  if (connState === "refused" && event?.code === 4409) {
    // The same seat was opened in another tab or device: this page steps aside until asked to take it back.
    state.connState = "elsewhere";
    render();
    return;
  }
  if (connState === "refused") {
    // The token is no longer good (the room expired or was closed): forget it and offer the lobby.
    forgetSeat(state.code);
    state.error = event?.reason || state.t("error_refused");
    state.screen = "join";
    render();
    return;
  }
  const el = app.querySelector('[data-role="conn"]');
  if (el) {
    el.className = `conn conn-${connState}`;
    el.textContent = state.t(`conn_${connState}`);
  } else render();
}

function onMessage(m) {
  switch (m.type) {
    case "hello":
      if (m.role === "spectator") state.me = null;
      else if (Number.isInteger(m.seat)) state.me = m.seat;
      if (m.room && typeof m.room === "object") state.room = m.room;
      render();
      break;
    case "view":
      onView(m);
      break;
    case "hand_over":
      // A missed hand's 结算 (the bot finished it while this seat was away) comes after the new hand's view:
      // it is shown over the table, whose room is the newer one.
      state.handOver = m;
      if (m.room && !m.missed) setRoom(m.room);
      state.panel = "hand_over";
      render();
      break;
    case "match_over":
      state.matchOver = m;
      if (m.room) state.room = m.room;
      if (state.panel !== "hand_over") state.panel = "match_over";
      render();
      break;
    case "advice":
      state.advice = m.advice || m;
      state.panel = "advice";
      render();
      break;
    case "answered":
      // A claim answer is in; the others still decide. Hide the buttons until the next view.
      state.ui.answered = { seq: m.seq, action: m.action };
      render();
      break;
    case "said":
      said(m);
      break;
    case "error":
      if (m.code === "stale") break; // a newer view is on its way; it replaces the one the tap answered
      if (m.code === "too_soon") {
        toast(state.t("phrase_too_soon"), 2000);
        break;
      }
      state.ui.sent = null;
      // A refusal answers the situation of this view: the next view (it became your turn…) takes it away.
      toast(m.words ? m.words[state.lang] || m.words.zh : m.message || m.code, 4000, state.msg?.seq ?? null);
      break;
    case "pong":
      break;
    default:
      if (m.room && typeof m.room === "object") {
        setRoom(m.room);
        render();
      }
  }
}

/** A newer room object; a seat newly put in 托管 by the turn timer is announced (one's own gets a notice). */
function setRoom(room) {
  const before = state.room?.players || [];
  state.room = room;
  (room.players || []).forEach((p, seat) => {
    if (p?.timed_out && !before[seat]?.timed_out && seat !== state.me && state.t) {
      toast(state.t("timed_out_other", { seat: seatLabel(state.t, seat, state.me) }), 6000);
    }
  });
}

const PHRASE_MS = 3500;

/** A quick phrase from a seat: over its plate for a few seconds (a short note before the table is up). */
function said(m) {
  const text = saidText(state.t, m.phrase);
  if (state.screen !== "table") {
    toast(state.t("said", { seat: seatLabel(state.t, m.seat, state.me), phrase: text }), PHRASE_MS);
    return;
  }
  // Its own object (a later bubble replaces it), read in the language of the moment it is drawn.
  const bubble = { toString: () => saidText(state.t, m.phrase) };
  state.ui.bubbles = { ...state.ui.bubbles, [m.seat]: bubble };
  setTimeout(() => {
    if (state.ui.bubbles[m.seat] === bubble) {
      const { [m.seat]: _, ...rest } = state.ui.bubbles;
      state.ui.bubbles = rest;
      if (state.screen === "table") render();
    }
  }, PHRASE_MS);
  render();
}

function onView(m) {
  const before = state.msg;
  const wasAsked = before && before.legal && before.legal.length > 0;
  if (before && before.room && m.room && before.room.hand_no !== m.room.hand_no) state.ui = freshUI();
  state.msg = { ...m, legal: m.legal || [], hints: m.hints || {} };
  if (m.room) setRoom(m.room);
  state.screen = "table";
  if (state.toast && state.toastSeq !== null && state.toastSeq !== m.seq) {
    state.toast = null; // the refusal answered an older situation
    state.toastSeq = null;
  }
  if (state.ui.answered && state.ui.answered.seq !== m.seq) state.ui.answered = null;
  readEvents(m.events || [], freshConnection);
  freshConnection = false;
  const view = m.view;
  // Drop a raised tile or a pick that the new view no longer holds.
  const holds = (key) => (key === "d" ? !!view.drawn : Number(key) < view.hand.length);
  if (state.ui.raised !== null && (!holds(state.ui.raised) || !state.msg.legal.length)) state.ui.raised = null;
  if (!state.msg.legal.some((a) => a.startsWith("exchange "))) state.ui.picked = [];
  if (!wasAsked && state.msg.legal.length && navigator.vibrate) navigator.vibrate(60);
  if (state.panel === "advice") state.panel = null;
  render();
}

const BUBBLE_MS = 1600;

function readEvents(events, initial) {
  for (const e of events) {
    const data = e.data || e;
    const seat = e.seat;
    if (e.type === "discard") state.ui.lastDiscard = { seat, tile: data.tile };
    else if (["pung", "kong", "robbed"].includes(e.type)) state.ui.lastDiscard = null;
    if (e.type === "exchange" && data.received) {
      state.ui.exchangeDirection = data.direction;
      state.ui.showExchange = true;
      const received = Array.isArray(data.received) ? data.received : String(data.received).match(/\d[mps]/g) || [];
      state.ui.received = initial ? [] : received;
      setTimeout(() => {
        state.ui.received = [];
        state.ui.showExchange = false;
        if (state.screen === "table") render();
      }, 6000);
    }
    if (initial || seat === undefined || seat < 0) continue;
    const sound = soundFor(e, state.me);
    if (sound) play(sound);
    const bubble = bubbleFor(state.t, e);
    if (bubble) {
      state.ui.bubbles = { ...state.ui.bubbles, [seat]: bubble };
      setTimeout(() => {
        if (state.ui.bubbles[seat] === bubble) {
          const { [seat]: _, ...rest } = state.ui.bubbles;
          state.ui.bubbles = rest;
          if (state.screen === "table") render();
        }
      }, BUBBLE_MS);
    }
  }
}

function send(message) {
  if (!state.conn || !state.conn.send(message)) {
    toast(state.t("error_offline"));
    return false;
  }
  return true;
}

function act(action) {
  if (!state.msg) return;
  state.ui.raised = null;
  state.ui.picked = [];
  if (send({ type: "act", action, seq: state.msg.seq })) {
    state.ui.sent = state.msg.seq; // one answer per view: the buttons wait for the next view (or a refusal)
    if (state.panel === "advice") state.panel = null;
    render();
  }
}

function tileOf(key) {
  const view = state.msg.view;
  return key === "d" ? view.drawn : view.hand[Number(key)];
}

function tapTile(key) {
  const msg = state.msg;
  if (!msg || state.me === null || state.ui.sent === msg.seq) return;
  if (msg.legal.some((a) => a.startsWith("exchange "))) {
    const picked = state.ui.picked;
    state.ui.picked = picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key].slice(-3);
    render();
    return;
  }
  if (state.ui.raised === key) {
    act(`discard ${tileOf(key)}`);
    return;
  }
  state.ui.raised = key;
  render();
}

function exchange() {
  const tiles = state.ui.picked.map(tileOf).filter(Boolean);
  const suits = new Set(tiles.map((x) => x[1]));
  // One suit is written the engine's way (exchange 123m); anything else goes as picked, and the server says why not.
  const text =
    suits.size === 1
      ? `exchange ${tiles.map((x) => x[0]).sort().join("")}${tiles[0][1]}`
      : `exchange ${tiles.join("")}`;
  act(text);
}

async function copyLink() {
  const input = app.querySelector('[data-role="link"]');
  if (!input) return;
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  toast(state.t("copied"), 1500);
}

function setLang(lang) {
  captureLobby();
  state.lang = lang;
  state.t = translator(lang);
  localStorage.setItem("scmj.lang", lang);
  render();
}

// ---------------------------------------------------------------- input

app.addEventListener("click", (event) => {
  const tile = event.target.closest(".tile.mine");
  if (tile && state.screen !== "replay") {
    // A tile that slid under the finger a moment ago (a claim, a discard redrew the hand) is not what was aimed at.
    if (performance.now() - Number(tile.dataset.since || 0) < TAP_SETTLE_MS) return;
    tapTile(tile.dataset.key);
    return;
  }
  const el = event.target.closest("[data-act]");
  if (!el || el.disabled) return;
  const what = el.dataset.act;
  if (what === "home") {
    event.preventDefault();
    go(null);
  } else if (what === "create") createRoom();
  else if (what === "join") joinRoom();
  else if (what === "watch") watchRoom();
  else if (what === "lang") setLang(el.dataset.lang);
  else if (what === "send") act(el.dataset.action);
  else if (what === "discard" && state.ui.raised !== null) act(`discard ${tileOf(state.ui.raised)}`);
  else if (what === "exchange") exchange();
  else if (what === "advise") send({ type: "advise", seq: state.msg?.seq });
  else if (what === "auto") send({ type: "auto", on: !state.room?.players?.[state.me]?.auto });
  else if (what === "back") send({ type: "auto", on: false });
  else if (what === "sound") {
    setSound(!soundOn());
    render();
  } else if (what === "phrases") {
    state.panel = state.panel === "phrases" ? null : "phrases";
    render();
  } else if (what === "say") {
    state.panel = null;
    send({ type: "say", phrase: el.dataset.phrase });
    render();
  }
  else if (what === "reconnect") route();
  else if (what === "history") {
    const url = "/?history";
    if (location.pathname + location.search !== url) history.pushState({}, "", url);
    route();
  } else if (what === "replay") openReplay(state, render, el.dataset.room, Number(el.dataset.hand));
  else if (what === "step") stepTo(state, render, state.after.at + Number(el.dataset.by));
  else if (what === "play") togglePlay(state, render);
  else if (what === "speed") nextSpeed(state, render);
  else if (what === "review") askReview(state, render, toast);
  else if (what === "decision") {
    state.after.showDecision = !state.after.showDecision;
    render();
  } else if (what === "forget") {
    if (window.confirm(state.t("forget_confirm"))) forgetMe(state, render);
  }
  else if (what === "invite") {
    state.panel = "invite";
    render();
  } else if (what === "copy") copyLink();
  else if (what === "close-panel") {
    if (state.panel === "hand_over" && state.handOver?.missed) {
      state.handOver = null; // a missed hand's 结算: back to the table, which has gone on
      state.panel = null;
      render();
      return;
    }
    if (state.panel === "hand_over" && !state.matchOver) send({ type: "next" });
    state.panel = state.panel === "hand_over" && state.matchOver ? "match_over" : null;
    render();
  }
});

app.addEventListener("change", (event) => {
  if (event.target.dataset?.role === "slider") stepTo(state, render, Number(event.target.value));
  if (event.target.id === "preset") {
    captureLobby();
    render();
  }
});

app.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && event.target.classList?.contains("mine")) tapTile(event.target.dataset.key);
  if (event.key === "Enter" && event.target.id === "code") joinRoom();
});

window.addEventListener("online", () => state.conn?.nudge());
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) state.conn?.nudge();
});

// ---------------------------------------------------------------- start

async function start() {
  await loadCatalogues();
  state.t = translator(state.lang);
  try {
    state.presets = (await getJSON("/api/presets")).presets;
  } catch {
    state.presets = null; // the lobby then offers the presets as they are
  }
  route();
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  }
}

start();
