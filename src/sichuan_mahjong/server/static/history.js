// After the hand: 战绩 (your matches), the replay of a finished hand drawn by the live table's own tableHTML, and
// 复盘 (the master's review of your decisions). The server answers only for this browser's player id.

import { esc, signClass, signed } from "./dom.js";
import { playerName, tableHTML } from "./table.js";
import { actionWords } from "./tiles.js";

/** The 战绩 page: your matches, newest first, each hand with its result and a 回放 button. */
export function historyHTML(t, s) {
  const head = `<header class="lobby-head"><h1>${esc(t("history_title"))}</h1>
      <button data-act="home">${esc(t("back_to_lobby"))}</button></header>`;
  if (s.error) return `<div class="lobby history">${head}<p class="error" data-role="error">${esc(s.error)}</p></div>`;
  if (!s.data) return `<div class="lobby history">${head}<p class="loading">…</p></div>`;
  const matches = s.data.matches || [];
  const rows = matches.map((m) => matchHTML(t, m)).join("");
  const empty = matches.length ? "" : `<p data-role="empty">${esc(t("history_empty"))}</p>`;
  return `<div class="lobby history">${head}${empty}${rows}
      <section class="card forget"><p>${esc(t("forget_hint"))}</p>
        <button data-act="forget" class="danger">${esc(t("btn_forget"))}</button></section></div>`;
}

/** The seats of a played room as the table's room object: each name, and the tier of each bot (so the page
 * names a bot in words: 电脑·高手 / Bot · expert). */
function playedRoom(names, bots) {
  return { players: names.map((name, seat) => ({ name: name || "?", bot: bots?.[seat] || null, connected: true })) };
}

function matchHTML(t, m) {
  const room = playedRoom(m.names, m.bots);
  const others = [0, 1, 2, 3]
    .filter((seat) => seat !== m.seat)
    .map((seat) => esc(playerName(t, room, seat)))
    .join(t.lang === "zh" ? "、" : ", ");
  const hands = m.hands
    .map(
      (h) => `<li class="hand-row" data-hand="${h.hand}">
        <span>${esc(t("hand_no", { n: h.hand }))}</span>
        <span class="${signClass(h.deltas[m.seat])}">${esc(signed(h.deltas[m.seat]))}</span>
        <button data-act="replay" data-room="${esc(m.room)}" data-hand="${h.hand}">${esc(t("btn_replay"))}</button></li>`,
    )
    .join("");
  return `<section class="card match" data-room="${esc(m.room)}">
      <h2>${esc(m.date)} · ${esc(t(`preset_${m.preset}`))}</h2>
      <p class="match-line"><span>${esc(t("history_place", { place: m.place }))}</span>
        <span class="${signClass(m.totals[m.seat])}" data-role="total">${esc(signed(m.totals[m.seat]))}</span>
        <span class="others">${esc(t("history_with"))} ${others}</span></p>
      <ul class="hands">${hands}</ul></section>`;
}

/** The replay: the table at one step (tableHTML with the replayed view), the controls, and the 复盘 marks. */
export function replayHTML(t, s) {
  const r = s.replay;
  if (!r) return `<div class="lobby history"><p class="loading">…</p></div>`;
  const step = r.steps[s.at];
  const last = s.at === r.steps.length - 1;
  const room = {
    ...playedRoom(r.names, r.bots),
    code: r.room,
    started: true,
    totals: last ? r.hand_over.result.deltas : null,
  };
  const ctx = {
    t,
    msg: { type: "view", seq: s.at, view: step.view, legal: [], events: step.events, room, hints: null },
    me: r.seat,
    code: r.room,
    room,
    ui: { raised: null, picked: [], sent: null, answered: null, lastDiscard: null, bubbles: {}, received: [], showExchange: false, exchangeDirection: null, conn: "open" },
  };
  const decision = decisionAt(s.review, step);
  // What the seat answered here, and its 复盘 mark, sit where the live table puts its answer buttons.
  ctx.actionsHTML = answerHTML(t, step, decision);
  const marks = s.review ? r.steps.map((st, i) => markAt(t, s.review, st, i, r.steps.length)).join("") : "";
  return `<div class="replay" data-step="${s.at}">${tableHTML(t, ctx)}
      ${last ? endHTML(t, r, room) : ""}
      ${decision && s.showDecision ? decisionHTML(t, decision) : ""}
      <nav class="replay-bar">
        <button data-act="step" data-by="-1" aria-label="${esc(t("btn_step_back"))}" ${s.at ? "" : "disabled"}>◀</button>
        <button data-act="play" class="${s.playing ? "on" : ""}">${esc(t(s.playing ? "btn_pause" : "btn_play"))}</button>
        <button data-act="step" data-by="1" aria-label="${esc(t("btn_forward"))}" ${last ? "disabled" : ""}>▶</button>
        <span class="slider"><input type="range" min="0" max="${r.steps.length - 1}" value="${s.at}" data-role="slider" aria-label="${esc(t("replay_step"))}">${marks}</span>
        <span data-role="stepno">${s.at + 1}/${r.steps.length}</span>
        <button data-act="speed">${esc(`${s.speed}×`)}</button>
        ${reviewButtonHTML(t, s)}
        <button data-act="history" aria-label="${esc(t("btn_close"))}">✕</button>
      </nav></div>`;
}

function endHTML(t, r, room) {
  const hands = r.hand_over.result.hands
    .map((h, seat) => `<li>${esc(playerName(t, room, seat))}: <span class="tiles-text">${esc(h.join(" "))}</span>
        <b class="${signClass(r.hand_over.result.deltas[seat])}">${esc(signed(r.hand_over.result.deltas[seat]))}</b></li>`)
    .join("");
  return `<section class="replay-end" data-role="end"><h3>${esc(t("replay_end"))}</h3><ul>${hands}</ul></section>`;
}

function reviewButtonHTML(t, s) {
  if (s.review) return `<span class="review-line" data-role="review-line">${esc(s.review.line[t.lang] || s.review.line.en)}</span>`;
  if (s.reviewState) return `<span class="review-wait" data-role="review-wait">${esc(t(s.reviewState === "queued" ? "review_queued" : "review_running"))}</span>`;
  return `<button data-act="review" class="primary">${esc(t("btn_review"))}</button>`;
}

/** The review's decision answered at this step: its ``step`` is the number of the seat's own events before it. */
export function decisionAt(review, step) {
  if (!review || step.answer === null) return null;
  return review.decisions.find((d) => d.step === step.log) || null;
}

function markAt(t, review, step, i, n) {
  const d = decisionAt(review, step);
  if (!d) return "";
  return `<i class="mark mark-${d.mark}" style="left:${(100 * i) / Math.max(1, n - 1)}%" title="${esc(actionWords(t, d.chosen))}"></i>`;
}

function answerHTML(t, step, d) {
  if (step.answer === null) return "";
  const mark = d ? `<button data-act="decision" class="mark-chip mark-${d.mark}" data-role="mark">${esc(t(`mark_${d.mark}`))}</button>` : "";
  return `<span class="replay-answer" data-role="answer">${esc(t("replay_you_did"))} <b>${esc(actionWords(t, step.answer))}</b></span>${mark}`;
}

function decisionHTML(t, d) {
  const rows = d.options
    .map((o) => `<tr class="${o.action === d.best ? "best" : ""}${o.action === d.chosen ? " chosen" : ""}">
        <td>${esc(actionWords(t, o.action))}</td><td>${esc(o.value.toFixed(2))}</td><td>±${esc(o.se.toFixed(2))}</td></tr>`)
    .join("");
  const reason = d.reason[t.lang] || d.reason.en;
  return `<div class="decision" data-role="decision"><p>${esc(t("review_master"))} <b>${esc(actionWords(t, d.master))}</b>
      ${d.best !== d.master ? ` · ${esc(t("review_best"))} <b>${esc(actionWords(t, d.best))}</b>` : ""}
      ${d.loss > 0 ? ` · ${esc(t("review_loss", { loss: d.loss.toFixed(2) }))}` : ""}</p>
      ${reason ? `<p class="reason">${esc(reason)}</p>` : ""}
      <table><thead><tr><th>${esc(t("review_option"))}</th><th>${esc(t("review_value"))}</th><th>${esc(t("review_se"))}</th></tr></thead>
      <tbody>${rows}</tbody></table></div>`;
}
