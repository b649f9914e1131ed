// Panels over the table: the settlement of a hand (结算), the match standings, the advisor's word.
// All numbers and words come from the server's messages.

import { esc, signClass, signed } from "./dom.js";
import { playerName, seatLabel } from "./table.js";
import { actionWords, tileHTML, tileName } from "./tiles.js";

function who(t, ctx, seat) {
  return `${seatLabel(t, seat, ctx.me)} ${playerName(t, ctx.room, seat)}`;
}

function winLine(t, ctx, win) {
  const how =
    win.from_seat === null || win.from_seat === undefined
      ? t("self_draw")
      : win.robbed_kong
        ? t("robbed_from", { seat: who(t, ctx, win.from_seat) })
        : t("dealt_in_by", { seat: who(t, ctx, win.from_seat) });
  // A pattern worth no fan (平胡) is named alone; the line ends with what the win pays each payer, in bases
  // (底): 2^fan after the cap, so 平胡 reads "1底", never "0番 = 0番".
  const fans = (win.patterns || [])
    .map((p) => (p.fan ? `${p[t.lang] || p.zh} ${t("fan_n", { n: p.fan })}` : p[t.lang] || p.zh))
    .join(" · ");
  const units = 2 ** (win.fan || 0);
  const worth = win.fan > 0 ? t("win_worth_fan", { fan: win.fan, n: units }) : t("win_worth", { n: units });
  return `<div class="winline">${tileHTML(win.tile, "sm")}<span class="win-how">${esc(t("won_on", { tile: tileName(win.tile, t) }))} · ${esc(how)}</span>${
    fans ? `<span class="win-fans">${esc(fans)}</span>` : ""
  }<b class="win-worth" data-role="win-worth">${esc(worth)}</b></div>`;
}

/** Seats still playing when the hand ended (the server's `active`; older results: those without a win). */
function stillPlaying(result, seat) {
  if (Array.isArray(result.active)) return result.active[seat] !== false;
  return !(result.wins || []).some((w) => w.seat === seat);
}

export function handOverHTML(t, ctx) {
  const { result, room } = ctx.handOver;
  const me = ctx.me ?? 0;
  const order = [0, 1, 2, 3].map((r) => (me + r) % 4);
  const melds = result.melds || ctx.msg?.view?.melds || [[], [], [], []];
  const rows = order
    .map((seat) => {
      const hand = (result.hands?.[seat] || []).map((tile) => tileHTML(tile, "sm")).join("");
      const meldTiles = (melds[seat] || [])
        .map((m) => `<span class="meld">${tileHTML(m.tile, "sm")}<sub>×${m.kind === "pung" ? 3 : 4}</sub></span>`)
        .join("");
      const wins = (result.wins || []).filter((w) => w.seat === seat).map((w) => winLine(t, ctx, w)).join("");
      const delta = result.deltas?.[seat] ?? 0;
      // 查叫: when the wall ran out, who of those still playing was ready (有叫) and who was not (无叫).
      const ready =
        result.reason === "wall" && result.ready && stillPlaying(result, seat)
          ? ` <span class="badge ${result.ready[seat] ? "ready" : "offline"}">${esc(t(result.ready[seat] ? "is_ready" : "not_ready"))}</span>`
          : "";
      const total = room?.totals?.[seat] ?? 0;
      return `
        <div class="result-row" data-seat="${seat}">
          <div class="result-who">${esc(who(t, ctx, seat))}${ready}${result.next_dealer === seat ? ` <span class="badge dealer">${esc(t("next_dealer_short"))}</span>` : ""}</div>
          <div class="result-hand" data-role="result-hand">${hand}${meldTiles}</div>
          <div class="result-wins">${wins}</div>
          <div class="result-money"><b class="${signClass(delta)}">${esc(signed(delta))}</b>
            <span class="total">${esc(t("total_short", { n: signed(total) }))}</span></div>
        </div>`;
    })
    .join("");
  const payments = (result.payments || [])
    .map((p) => {
      // Players read words, not rule IDs: "R8.2 自摸" is shown as "自摸".
      const words = (p.words?.[t.lang] || p.words?.zh || p.reason).replace(/^R\d+(?:\.\d+)*\s+/, "");
      const mine = ctx.me === p.payee ? "plus" : ctx.me === p.payer ? "minus" : "";
      // Names and the amount each in their own column, so a number never runs into a name.
      return `<li class="payment ${mine}"><span class="payer">${esc(who(t, ctx, p.payer))}</span><span class="pay-arrow">→</span><span class="payee">${esc(
        who(t, ctx, p.payee),
      )}</span><b class="amount" data-role="amount">${esc(p.amount)}</b><span class="why">${esc(words)}</span></li>`;
    })
    .join("");
  // 流局 (a drawn hand) only when nobody won; a 血战 hand whose wall ran out after wins just ended.
  const end = result.reason === "wall" && (result.wins || []).length ? "end_wall_won" : `end_${result.reason}`;
  const reason = result.reason ? `<span class="reason" data-role="end-reason">${esc(t(end))}</span>` : "";
  const last = room && room.hand_no >= room.hands;
  const missed = !!ctx.handOver.missed; // the server's copy for a seat that was away: the table goes on behind it
  const button = missed ? "btn_back_to_table" : last ? "btn_standings" : "btn_next_hand";
  return `
    <div class="overlay" role="dialog" aria-modal="true">
      <div class="panel settlement" data-role="settlement">
        <h2>${esc(t("settlement"))} · ${esc(t("hand_of", { n: ctx.handOver.hand_no ?? room?.hand_no ?? 1, total: room?.hands ?? 1 }))} ${reason}</h2>
        ${missed ? `<p class="missed" data-role="missed">${esc(t("missed_hand"))}</p>` : ""}
        <div class="results">${rows}</div>
        <h3>${esc(t("payments"))}</h3>
        ${payments ? `<ul class="payments">${payments}</ul>` : `<p>${esc(t("no_payments"))}</p>`}
        <p class="next">${esc(t("next_dealer", { seat: who(t, ctx, result.next_dealer) }))}</p>
        <div class="row buttons panel-foot"><button class="primary big" data-act="close-panel">${esc(t(button))}</button></div>
      </div>
    </div>`;
}

export function matchOverHTML(t, ctx) {
  const totals = ctx.matchOver.totals || [];
  const ranked = [0, 1, 2, 3].sort((a, b) => totals[b] - totals[a] || a - b);
  const rows = ranked
    .map(
      (seat, i) =>
        `<li class="${seat === ctx.me ? "me" : ""}"><span class="rank">${i + 1}</span><span class="who">${esc(
          who(t, ctx, seat),
        )}</span><b class="${signClass(totals[seat])}">${esc(signed(totals[seat]))}</b></li>`,
    )
    .join("");
  return `
    <div class="overlay" role="dialog" aria-modal="true">
      <div class="panel standings" data-role="standings">
        <h2>${esc(t("match_over"))}</h2>
        <ol class="ranking">${rows}</ol>
        <div class="row buttons"><button class="primary big" data-act="home">${esc(t("back_to_lobby"))}</button></div>
      </div>
    </div>`;
}

function stateWords(t, shanten) {
  if (shanten < 0) return t("state_win");
  return shanten === 0 ? t("state_ready") : t("state_shanten", { n: shanten });
}

export function adviceHTML(t, ctx) {
  const advice = ctx.advice;
  const rec = advice.recommendation || {};
  const options = (advice.options || [])
    .map(
      (o) =>
        `<tr><td>${esc(actionWords(t, o.action))}${o.discard && !o.action.startsWith("discard") ? ` → ${esc(actionWords(t, `discard ${o.discard}`))}` : ""}</td>` +
        `<td>${esc(o.fan !== null && o.fan !== undefined ? t("fan_n", { n: o.fan }) : stateWords(t, o.shanten))}</td>` +
        `<td>${o.shanten >= 0 ? esc(t("live_n", { n: o.live })) : ""}</td></tr>`,
    )
    .join("");
  const discards = (advice.discards || [])
    .slice(0, 6)
    .map((d) => {
      const waits = (d.waits || []).map((w) => `${tileName(w.tile, t)}×${w.remaining}`).join(" ");
      return `<tr><td>${tileHTML(d.discard, "sm")}</td><td>${esc(stateWords(t, d.shanten))}</td><td>${esc(t("live_n", { n: d.total }))}</td><td>${esc(waits)}</td></tr>`;
    })
    .join("");
  return `
    <div class="overlay" role="dialog" aria-modal="true">
      <div class="panel advice" data-role="advice">
        <h2>${esc(t("advice_title"))}</h2>
        <p class="recommend">${esc(rec[t.lang] || rec.zh || "")}</p>
        ${options ? `<table class="options">${options}</table>` : ""}
        ${discards ? `<h3>${esc(t("advice_discards"))}</h3><table class="discards">${discards}</table>` : ""}
        <div class="row buttons">
          ${rec.action ? `<button class="primary" data-act="send" data-action="${esc(rec.action)}">${esc(t("btn_follow", { action: actionWords(t, rec.action) }))}</button>` : ""}
          <button data-act="close-panel">${esc(t("btn_close"))}</button>
        </div>
      </div>
    </div>`;
}

export function inviteHTML(t, ctx) {
  const link = `${location.origin}/?room=${encodeURIComponent(ctx.code)}`;
  return `
    <div class="overlay" role="dialog" aria-modal="true">
      <div class="panel invite">
        <h2>${esc(t("btn_invite"))}</h2>
        <p class="bigcode">${esc(ctx.code)}</p>
        <p class="share"><input readonly value="${esc(link)}" data-role="link"><button data-act="copy">${esc(t("btn_copy"))}</button></p>
        <div class="row buttons"><button data-act="close-panel">${esc(t("btn_close"))}</button></div>
      </div>
    </div>`;
}

/** A short line for an event worth a bubble over a seat (pung, kong, win); null for the rest. */
export function bubbleFor(t, event) {
  const type = event.type;
  if (type === "pung") return t("bubble_pung");
  if (type === "kong" || type === "added_kong" || type === "concealed_kong") return t("bubble_kong");
  if (type === "win") return t("bubble_hu");
  if (type === "ready") return t("bubble_ready");
  return null;
}

