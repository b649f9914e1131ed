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

// Icons drawn inline (no emoji font needed): a speaker with waves or crossed out, a speech bubble.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const MUTED = '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';
const BUBBLE = '<path d="M4 5h16v10H10l-5 4v-4H4z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>';

function icon(paths) {
  return `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">${paths}</svg>`;
}

/** Buttons the top bar gets: sound on/off (remembered), and quick phrases for a player (never a spectator). */
export function tableExtrasHTML(t, { sound, player }) {
  const label = t(sound ? "sound_on" : "sound_off");
  const soundButton = `<button class="sound icon" data-act="sound" aria-pressed="${sound}" aria-label="${esc(label)}" title="${esc(label)}">${icon(SPEAKER + (sound ? WAVES : MUTED))}</button>`;
  const phrases = player
    ? `<button class="phrases icon" data-act="phrases" aria-label="${esc(t("btn_phrases"))}" title="${esc(t("btn_phrases"))}">${icon(BUBBLE)}</button>`
    : "";
  return soundButton + phrases;
}

/** One's own seat in 托管 because the turn timer ran out twice: says so, with the tap that takes it back. */
export function timedOutHTML(t, ctx) {
  const me = ctx.me;
  if (me === null || me === undefined || !ctx.room?.players?.[me]?.timed_out) return "";
  return `<div class="timed-out" role="alert" data-role="timed-out"><span>${esc(t("timed_out_me"))}</span><button class="primary" data-act="back">${esc(t("btn_back"))}</button></div>`;
}
