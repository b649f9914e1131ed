// The table: you at the bottom, 下家 right, 对家 top, 上家 left; rivers around the centre, the wall count and
// whose turn in the middle. Everything drawn comes from the server's view message; the buttons are the
// answers it lists in `legal`. Nothing here decides what is allowed.

import { POSITIONS, esc, relative, signClass, signed } from "./dom.js";
import { actionWords, tileHTML, tileName } from "./tiles.js";

const SUIT_ORDER = ["m", "p", "s"];

// What the last drawing showed, so that a change can be told from a redraw of the same thing: a tile that just
// landed in a river or a meld just claimed moves in (once, not at every redraw), and a hand tile that slid to a
// new place is not taken by a tap meant for the tile that was there (TAP_SETTLE_MS, see app.js).
const shown = { rivers: {}, melds: {}, slots: {}, shape: "" };
export const TAP_SETTLE_MS = 150;

/** True once per change of `key`'s count: the first drawing that shows more than the last one did. */
function grew(store, key, count) {
  const before = store[key];
  store[key] = count;
  return before !== undefined && count > before;
}

export function seatLabel(t, seat, me) {
  if (me === null || me === undefined) return t("seat_n", { n: seat + 1 });
  return t(`seat_rel_${relative(seat, me)}`);
}

export function playerName(t, room, seat) {
  const p = room?.players?.[seat];
  if (!p || !p.name) return t("seat_empty");
  return p.bot ? botName(t, p.bot) : p.name;
}

/** A name as HTML that may wrap only after its separator (电脑·<wbr>高手), never inside a word (高 / 手). */
function nameHTML(name) {
  return esc(name).replaceAll("·", "·<wbr>");
}

/** A bot by its tier as the page names it (电脑·高手 / Bot · expert); a tier the page has no words for by name. */
export function botName(t, tier) {
  return t.has(`tier_${tier}`) ? t(`tier_${tier}`) : t("tier_other", { name: tier });
}

function meldHTML(meld, small) {
  const size = small ? "sm" : "md";
  const face = (extra = "") => tileHTML(meld.tile, `${size} ${extra}`);
  const back = () => tileHTML(null, size);
  let tiles;
  if (meld.kind === "pung") tiles = [face(), face(), face()];
  else if (meld.kind === "concealed_kong") tiles = [back(), face(), face(), back()];
  else if (meld.kind === "added_kong") tiles = [face(), face("added"), face()]; // the fourth stacked on top
  else tiles = [face(), face(), face(), face()];
  const stacked = meld.kind === "added_kong" ? `<span class="stack">${face()}</span>` : "";
  return `<span class="meld meld-${meld.kind}" data-meld="${meld.kind} ${meld.tile}">${tiles.join("")}${stacked}</span>`;
}

function hiddenKongsHTML(count, small) {
  const size = small ? "sm" : "md";
  let html = "";
  for (let i = 0; i < count; i++) {
    html += `<span class="meld meld-hidden">${[0, 1, 2, 3].map(() => tileHTML(null, size)).join("")}</span>`;
  }
  return html;
}

function meldsHTML(view, seat, small) {
  const list = view.melds[seat] || [];
  const hidden = view.hidden_kongs?.[seat] || 0;
  const fresh = grew(shown.melds, seat, list.length + hidden);
  const melds = list.map((m, i) => {
    const html = meldHTML(m, small);
    return fresh && i === list.length - 1 ? html.replace('class="meld ', 'class="meld fresh ') : html;
  });
  return melds.join("") + hiddenKongsHTML(hidden, small);
}

function winsOf(view, seat) {
  const wins = [];
  (view.wins || []).forEach((w, i) => {
    if (w.seat === seat) wins.push({ ...w, order: i + 1 });
  });
  return wins;
}

function badgesHTML(t, view, room, seat) {
  const out = [];
  if (view.dealer === seat) out.push(`<span class="badge dealer" title="${esc(t("dealer"))}">${esc(t("dealer_short"))}</span>`);
  const v = view.voids?.[seat];
  if (v) out.push(`<span class="badge void void-${v}" data-void="${v}">${esc(t(`void_${v}`))}</span>`);
  if (view.ready?.[seat]) out.push(`<span class="badge ready">${esc(t("ready_badge"))}</span>`);
  for (const w of winsOf(view, seat)) {
    out.push(`<span class="badge won">${esc(t("won_n", { n: w.order }))}</span>`);
  }
  const p = room?.players?.[seat];
  if (p?.auto) out.push(`<span class="badge auto">${esc(t("auto_badge"))}</span>`);
  else if (p && !p.bot && p.name && p.connected === false) out.push(`<span class="badge offline">${esc(t("offline_badge"))}</span>`);
  return out.join("");
}

function plateHTML(t, ctx, seat) {
  const { view, room } = ctx.msg;
  const score = view.scores?.[seat] ?? 0;
  const total = room?.totals?.[seat] ?? 0;
  const bubble = ctx.ui.bubbles?.[seat];
  return `
    <div class="plate">
      <div class="who"><span class="rel">${esc(seatLabel(t, seat, ctx.me))}</span>
        <span class="name">${nameHTML(playerName(t, room, seat))}</span></div>
      <div class="badges">${badgesHTML(t, view, room, seat)}</div>
      <div class="money"><span class="${signClass(score)}" title="${esc(t("this_hand"))}">${esc(signed(score))}</span>
        <span class="total" title="${esc(t("match_total"))}">${esc(t("total_short", { n: signed(total) }))}</span></div>
      ${bubble ? `<div class="bubble">${esc(bubble)}</div>` : ""}
    </div>`;
}

function winTilesHTML(view, seat, size) {
  return winsOf(view, seat)
    .map((w) => tileHTML(w.tile, `${size} win-tile`, `title="${w.fan}"`))
    .join("");
}

function otherSeatHTML(t, ctx, seat, pos) {
  const { view } = ctx.msg;
  const count = view.concealed_counts?.[seat] ?? 0;
  // The side seats' tiles stand edge-on, as seen across a real table; the top seat shows their backs.
  const side = pos === "left" || pos === "right";
  const backs = side ? '<span class="slab"></span>'.repeat(count) : Array.from({ length: count }, () => tileHTML(null, "sm")).join("");
  const turn = isTurn(view, seat) ? " on-turn" : "";
  const out = view.active && view.active[seat] === false ? " out" : "";
  return `
    <section class="seat seat-${pos}${turn}${out}" data-seat="${seat}">
      ${plateHTML(t, ctx, seat)}
      <div class="concealed" data-count="${count}">${backs}${winTilesHTML(view, seat, "sm")}</div>
      <div class="melds">${meldsHTML(view, seat, true)}</div>
    </section>`;
}

function isTurn(view, seat) {
  return ["play", "claim", "rob"].includes(view.phase) && view.turn === seat;
}

function riverHTML(ctx, seat, pos) {
  const { view } = ctx.msg;
  const river = view.discards?.[seat] || [];
  const last = ctx.ui.lastDiscard;
  const markLast = last && last.seat === seat && river.length && river[river.length - 1] === last.tile;
  const fresh = grew(shown.rivers, seat, river.length);
  const tiles = river
    .map((tile, i) => {
      const end = i === river.length - 1;
      return tileHTML(tile, `rv${markLast && end ? " last" : ""}${fresh && end ? " fresh" : ""}`);
    })
    .join("");
  // Each river is its own box (a size container): the tiles shrink as it fills, so it never spills (style.css).
  return `<div class="river river-${pos}" data-seat="${seat}" style="--n:${river.length}"><div class="rv-grid">${tiles}</div></div>`;
}

function compassHTML(t, ctx) {
  const { view, room } = ctx.msg;
  const arrows = [0, 1, 2, 3]
    .map((seat) => {
      const pos = POSITIONS[relative(seat, ctx.me)];
      const lit = isTurn(view, seat) ? " lit" : "";
      return `<span class="arrow arrow-${pos}${lit}"></span>`;
    })
    .join("");
  const deadline = room?.deadline_ms ? `<span class="countdown" data-deadline="${room.deadline_ms}"></span>` : "";
  return `
    <div class="compass">
      ${arrows}
      <div class="wall">${esc(t("wall_left", { n: view.wall_count }))}</div>
      <div class="handno">${esc(t("hand_of", { n: room?.hand_no ?? 1, total: room?.hands ?? 1 }))}</div>
      ${deadline}
    </div>`;
}

function voidSuggestion(tiles) {
  const counts = { m: 0, p: 0, s: 0 };
  for (const tile of tiles) counts[tile[1]]++;
  return SUIT_ORDER.reduce((best, s) => (counts[s] < counts[best] ? s : best), "m");
}

function waitsText(t, waits) {
  return waits.map((w) => t("wait_item", { tile: tileName(w.tile, t), n: w.left })).join(" · ");
}

function promptText(t, ctx) {
  const { view, legal } = ctx.msg;
  const me = ctx.me;
  if (me === null) return t("spectating");
  if (view.is_over || view.phase === "over") return t("hand_over_wait");
  if (view.active && view.active[me] === false) return t("you_won_wait");
  if (ctx.ui.answered) return t("answered_wait", { action: actionWords(t, ctx.ui.answered.action) });
  const has = (prefix) => legal.some((a) => a === prefix || a.startsWith(`${prefix} `));
  if (has("exchange")) return t("prompt_exchange", { n: ctx.ui.picked.length });
  if (has("void")) return t("prompt_void");
  if (view.phase === "declare" && has("declare_ready")) return t("prompt_declare");
  if ((view.phase === "claim" || view.phase === "rob") && legal.length) {
    const key = view.phase === "rob" ? "prompt_rob" : "prompt_claim";
    return t(key, { seat: seatLabel(t, view.turn, me), tile: tileName(view.pending_tile, t) });
  }
  if (has("discard")) return t("prompt_discard");
  if (view.phase === "exchange") return t("wait_exchange");
  if (view.phase === "void") return t("wait_void");
  return t("waiting_for", { seat: seatLabel(t, view.turn, me) });
}

function actionButtons(t, ctx) {
  const { view, legal } = ctx.msg;
  if (ctx.me === null || ctx.ui.answered || ctx.ui.sent) return "";
  const buttons = [];
  const btn = (action, label, cls = "") =>
    `<button class="act ${cls}" data-act="send" data-action="${esc(action)}">${esc(label)}</button>`;
  if (legal.includes("hu")) buttons.push(btn("hu", t("btn_hu"), "hu"));
  for (const a of legal) {
    if (a === "kong") buttons.push(btn(a, t("btn_kong"), "claim"));
    else if (a.startsWith("concealed_kong ") || a.startsWith("added_kong ")) {
      buttons.push(btn(a, t("btn_kong_tile", { tile: tileName(a.split(" ")[1], t) }), "claim"));
    }
  }
  if (legal.includes("pung")) buttons.push(btn("pung", t("btn_pung"), "claim"));
  if (legal.includes("declare_ready")) buttons.push(btn("declare_ready", t("btn_declare"), "claim"));
  if (legal.some((a) => a.startsWith("void "))) {
    const suggest = voidSuggestion([...view.hand, ...(view.drawn ? [view.drawn] : [])]);
    for (const s of SUIT_ORDER) {
      const action = `void ${s}`;
      const cls = `void-btn void-${s}${s === suggest ? " suggested" : ""}`;
      buttons.push(btn(action, t(`suit_${s}`), cls));
    }
  }
  if (legal.some((a) => a.startsWith("exchange "))) {
    const ready = ctx.ui.picked.length === 3 ? "" : " disabled";
    buttons.push(`<button class="act claim" data-act="exchange"${ready}>${esc(t("btn_exchange"))}</button>`);
  }
  if (legal.some((a) => a.startsWith("discard "))) {
    const dis = ctx.ui.raised === null ? " disabled" : "";
    buttons.push(`<button class="act discard" data-act="discard"${dis}>${esc(t("btn_discard"))}</button>`);
  }
  if (legal.includes("pass")) buttons.push(btn("pass", t(view.phase === "declare" ? "btn_no_declare" : "btn_pass"), "pass"));
  const deadline = ctx.msg.room?.deadline_ms;
  if (deadline && buttons.length) buttons.push(`<span class="countdown ring" data-deadline="${deadline}" title="${esc(t("timer"))}"></span>`);
  return buttons.join("");
}

function myHandHTML(t, ctx) {
  const { view, legal, hints } = ctx.msg;
  const me = ctx.me;
  const pos = "bottom";
  if (me === null) {
    // A spectator sits where seat 0 sits and sees only backs there too; the prompt says they are watching.
    return otherSeatHTML(t, ctx, 0, pos)
      .replace("seat seat-bottom", "seat seat-bottom spectator-bottom")
      .replace(">", `><div class="prompt watching" data-role="prompt">${esc(promptText(t, ctx))}</div>`);
  }
  const voidSuit = view.voids?.[me];
  const holdsVoid = voidSuit && [...view.hand, view.drawn].some((x) => x && x[1] === voidSuit);
  const readyDiscards = hints?.discard_waits || {};
  const received = ctx.ui.received || [];
  const receivedLeft = [...received];
  const exchanging = legal.some((a) => a.startsWith("exchange "));
  // A slot whose tile changed (or the row around it, a claim or a kong) is marked with the time it changed:
  // a tap there in the next TAP_SETTLE_MS was meant for the tile that was under the finger before.
  const now = performance.now();
  const shape = `${me}:${view.hand.length}:${(view.melds[me] || []).length}:${view.hidden_kongs?.[me] || 0}`;
  const reshaped = shape !== shown.shape;
  shown.shape = shape;
  const slots = {};
  const since = (tile, key) => {
    const before = shown.slots[key];
    // A tile drawn where none was (the deal, a draw) did not slide in: nothing was aimed at an empty place.
    slots[key] = before && before.tile === tile && !reshaped ? before : { tile, at: before ? now : 0 };
    return slots[key].at;
  };
  const tileAt = (tile, key) => {
    const classes = ["lg", "mine"];
    if (ctx.ui.raised === key) classes.push("raised");
    if (!ctx.ui.sent && legal.includes(`discard ${tile}`)) classes.push("legal");
    if (exchanging && ctx.ui.picked.includes(key)) classes.push("raised", "picked");
    if (holdsVoid && tile[1] === voidSuit) classes.push("void-tile");
    const r = receivedLeft.indexOf(tile);
    if (r >= 0) {
      receivedLeft.splice(r, 1);
      classes.push("received");
    }
    const ting = readyDiscards[tile] ? `<i class="ting">${esc(t("ting_mark"))}</i>` : "";
    const first = holdsVoid && tile[1] === voidSuit ? `<i class="first">${esc(t("void_first_mark"))}</i>` : "";
    const moved = since(tile, key);
    const attrs = `data-key="${key}" data-since="${moved}" role="button" tabindex="0"`;
    return tileHTML(tile, classes.join(" "), attrs).replace(
      "</span>",
      `${ting}${first}</span>`,
    );
  };
  const hand = view.hand.map((tile, i) => tileAt(tile, String(i))).join("");
  const drawn = view.drawn ? tileAt(view.drawn, "d") : "";
  shown.slots = slots;
  const waits = hints?.waits || [];
  const raisedTile = ctx.ui.raised === null ? null : ctx.ui.raised === "d" ? view.drawn : view.hand[Number(ctx.ui.raised)];
  let strip = "";
  if (raisedTile && readyDiscards[raisedTile]) {
    strip = t("waits_if", { tile: tileName(raisedTile, t), waits: waitsText(t, readyDiscards[raisedTile]) });
  } else if (waits.length) {
    const left = waits.reduce((n, w) => n + w.left, 0);
    strip = t("waits_now", { waits: waitsText(t, waits), n: left });
  }
  const exchangedNote = view.exchanged && ctx.ui.showExchange ? exchangeNote(t, ctx) : "";
  // The marks on the tiles in words, while they show.
  const legend = [];
  if (Object.keys(readyDiscards).some((tile) => legal.includes(`discard ${tile}`))) legend.push(t("ting_legend"));
  if (holdsVoid) legend.push(t("void_first_legend"));
  const turn = isTurn(view, me) ? " on-turn" : "";
  return `
    <section class="seat seat-bottom me${turn}" data-seat="${me}">
      <div class="talk">
        <div class="prompt" data-role="prompt">${esc(promptText(t, ctx))}</div>
        ${exchangedNote}
        <div class="waits" data-role="waits" ${strip ? "" : "hidden"}>${esc(strip)}</div>
        ${legend.length ? `<div class="legend" data-role="legend">${esc(legend.join(" · "))}</div>` : ""}
      </div>
      <div class="actions" data-role="actions">${ctx.actionsHTML ?? actionButtons(t, ctx)}</div>
      <div class="my-row">
        <div class="melds">${meldsHTML(view, me, false)}</div>
        <div class="hand" data-role="hand">${hand}</div>
        <div class="drawn" data-role="drawn">${drawn}${winTilesHTML(view, me, "lg")}</div>
      </div>
      ${plateHTML(t, ctx, me)}
    </section>`;
}

function exchangeNote(t, ctx) {
  const { exchanged } = ctx.msg.view;
  const dir = ctx.ui.exchangeDirection ? t(`direction_${ctx.ui.exchangeDirection}`) : "";
  return `<div class="note exchange-note">${esc(
    t("exchanged", {
      direction: dir,
      given: exchanged.given.map((x) => tileName(x, t)).join(" "),
      received: exchanged.received.map((x) => tileName(x, t)).join(" "),
    }),
  )}</div>`;
}

function topBarHTML(t, ctx) {
  const { view, room } = ctx.msg;
  const conn = ctx.ui.conn;
  const me = ctx.me;
  const autoOn = me !== null && room?.players?.[me]?.auto;
  const mode = view.rules?.mode ? t(`mode_${view.rules.mode}`) : "";
  const player = me !== null;
  return `
    <header class="topbar">
      <span class="code" title="${esc(t("room_code"))}">${esc(room?.code || ctx.code)}</span>
      <span class="mode">${esc(mode)}</span>
      ${conn === "elsewhere" ? `<button class="conn conn-refused" data-role="conn" data-act="reconnect">${esc(t("conn_elsewhere"))}</button>` : `<span class="conn conn-${conn}" data-role="conn">${esc(t(`conn_${conn}`))}</span>`}
      <span class="spacer"></span>
      <button data-act="invite">${esc(t("btn_invite"))}</button>
      ${player ? `<button data-act="advise">${esc(t("btn_advise"))}</button>` : ""}
      ${player ? `<button data-act="auto" class="${autoOn ? "on" : ""}">${esc(t(autoOn ? "btn_auto_off" : "btn_auto"))}</button>` : ""}
      <button data-act="lang" data-lang="${t.lang === "zh" ? "en" : "zh"}">${esc(t("lang_other"))}</button>
      <button data-act="home" aria-label="${esc(t("btn_leave"))}">✕</button>
    </header>`;
}

export function tableHTML(t, ctx) {
  const me = ctx.me;
  const others = [1, 2, 3].map((r) => ((me ?? 0) + r) % 4);
  const seats = others.map((seat) => otherSeatHTML(t, ctx, seat, POSITIONS[relative(seat, me)])).join("");
  const rivers = [0, 1, 2, 3].map((seat) => riverHTML(ctx, seat, POSITIONS[relative(seat, me)])).join("");
  const phase = ctx.msg.view.phase;
  return `
    <div class="table phase-${esc(phase)}${me === null ? " spectator" : ""}">
      ${topBarHTML(t, ctx)}
      ${seats}
      <section class="center">${rivers}${compassHTML(t, ctx)}</section>
      ${myHandHTML(t, ctx)}
    </div>`;
}

/** The waiting room before four seats are filled: the code, the link to share, who is there. */
export function waitingHTML(t, ctx) {
  const room = ctx.room || {};
  const players = room.players || [];
  const link = `${location.origin}/?room=${encodeURIComponent(ctx.code)}`;
  const rows = [0, 1, 2, 3]
    .map((seat) => {
      const p = players[seat];
      const who = p && p.name ? playerName(t, room, seat) : t("seat_waiting");
      const you = seat === ctx.me ? ` <b>(${esc(t("you"))})</b>` : "";
      return `<li class="${p && p.name ? "filled" : "open"}">${esc(seatLabel(t, seat, ctx.me))}: ${esc(who)}${you}</li>`;
    })
    .join("");
  // The match began but no view came yet (a 报叫 at the deal is being decided, and seats not asked are shown
  // nothing meanwhile): no more invitations, the table follows.
  const share = room.started
    ? `<p data-role="started">${esc(t("started_hint"))}</p>`
    : `<p>${esc(t("share_hint"))}</p>
        <p class="share"><input readonly value="${esc(link)}" data-role="link"><button data-act="copy">${esc(t("btn_copy"))}</button></p>`;
  return `
    <div class="lobby waiting">
      <header class="lobby-head"><h1>${esc(t("title"))}</h1>
        <span class="conn conn-${ctx.ui.conn}" data-role="conn">${esc(t(`conn_${ctx.ui.conn}`))}</span></header>
      <section class="card">
        <h2>${esc(t(room.started ? "waiting_started" : "waiting_room"))}</h2>
        <p class="bigcode" data-role="code">${esc(ctx.code)}</p>
        ${share}
        <ul class="seatlist">${rows}</ul>
        <p><a href="/" data-act="home">${esc(t("back_to_lobby"))}</a></p>
      </section>
    </div>`;
}
