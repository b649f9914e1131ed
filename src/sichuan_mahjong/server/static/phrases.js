// Quick phrases and reactions between friends (快点吧 / 不好意思 / 👍 …): a fixed list, sent as an id (the server
// checks it, paces it and refuses it from spectators: server/phrases.py); shown over the seat for a few seconds.
// Also the table's small extras in its top bar (the sound switch, the phrases button) and the notice of 托管
// after two timeouts.

import { esc } from "./dom.js";

/** The ids the server accepts (server/phrases.py PHRASES), in the order the panel shows them. */
export const PHRASES = ["hurry", "sorry", "nice", "thanks", "again", "thumbs", "laugh", "wow"];

export function saidText(t, id) {
  return PHRASES.includes(id) ? t(`phrase_${id}`) : "";
}

export function phrasesHTML(t) {
  const buttons = PHRASES.map(
    (id) => `<button data-act="say" data-phrase="${id}">${esc(t(`phrase_${id}`))}</button>`,
  ).join("");
  return `<div class="phrases-panel" role="dialog" aria-label="${esc(t("btn_phrases"))}" data-role="phrases">${buttons}</div>`;
}

/** Buttons the top bar gets: sound on/off (remembered), and quick phrases for a player (never a spectator). */
export function tableExtrasHTML(t, { sound, player }) {
  const label = t(sound ? "sound_on" : "sound_off");
  const soundButton = `<button class="sound" data-act="sound" aria-pressed="${sound}" aria-label="${esc(label)}" title="${esc(label)}">${sound ? "🔊" : "🔇"}</button>`;
  const phrases = player
    ? `<button class="phrases" data-act="phrases" aria-label="${esc(t("btn_phrases"))}" title="${esc(t("btn_phrases"))}">💬</button>`
    : "";
  return soundButton + phrases;
}

/** One's own seat in 托管 because the turn timer ran out twice: says so, with the tap that takes it back. */
export function timedOutHTML(t, ctx) {
  const me = ctx.me;
  if (me === null || me === undefined || !ctx.room?.players?.[me]?.timed_out) return "";
  return `<div class="timed-out" role="alert" data-role="timed-out"><span>${esc(t("timed_out_me"))}</span><button class="primary" data-act="back">${esc(t("btn_back"))}</button></div>`;
}
