// The lobby: create a room (preset, the main house options, hands, a bot or a friend per seat, timer),
// join one by code or link, or watch as a spectator. Only forms: the server checks every value.

import { esc } from "./dom.js";

/** The presets the server lists (GET /api/presets), the Chengdu app's first; just "app" when it lists none. */
function presetNames(presets) {
  const names = Object.keys(presets || {});
  return names.length ? [...names.filter((n) => n === "app"), ...names.filter((n) => n !== "app")] : ["app"];
}
export const MODES = ["bloody_kong", "bloody", "standard_kong", "standard"];
// Strongest first: 大师 (master) searches, 高手 (expert) is the default, 新手 (random) plays anything.
export const BOT_TIERS = ["master", "expert", "efficient", "random"];
export const DEFAULT_TIER = "expert";
const SWITCHES = ["exchange_three", "declare_void", "declare_ready", "check_max", "flower_pig", "kong_shot_transfer"];
const MAX_FANS = [null, 2, 3, 4, 5, 6];
const SELF_DRAW = ["none", "base", "fan"];
const HANDS = [1, 4, 8, 12, 16];
const TIMERS = [null, 10, 15, 20, 30];

function select(id, values, current, label) {
  const options = values
    .map((v) => {
      const value = v === null ? "" : String(v);
      const selected = value === String(current ?? "") ? " selected" : "";
      return `<option value="${esc(value)}"${selected}>${esc(label(v))}</option>`;
    })
    .join("");
  return `<select id="${id}" name="${id}">${options}</select>`;
}

function field(label, control, extra = "") {
  return `<label class="field ${extra}"><span>${esc(label)}</span>${control}</label>`;
}

/** The rule options of a preset as the form shows them (null when the server did not list presets). */
function optionFields(t, rules) {
  if (!rules) return `<p class="note">${esc(t("lobby_preset_only"))}</p>`;
  const switches = SWITCHES.map(
    (name) =>
      `<label class="switch"><input type="checkbox" id="opt-${name}" ${rules[name] ? "checked" : ""}>` +
      `<span>${esc(t(`opt_${name}`))}</span></label>`,
  ).join("");
  return (
    `<div class="row">` +
    field(t("opt_mode"), select("opt-mode", MODES, rules.mode, (m) => t(`mode_${m}`))) +
    field(t("opt_max_fan"), select("opt-max_fan", MAX_FANS, rules.max_fan, (f) => (f === null ? t("no_cap") : t("fan_n", { n: f })))) +
    field(t("opt_self_draw_bonus"), select("opt-self_draw_bonus", SELF_DRAW, rules.self_draw_bonus, (v) => t(`self_draw_${v}`))) +
    `</div><div class="switches">${switches}</div>`
  );
}

/** The options the form holds now, as JSON values for POST /api/rooms. */
export function readOptions(root) {
  const mode = root.querySelector("#opt-mode");
  if (!mode) return {};
  const options = { mode: mode.value };
  const maxFan = root.querySelector("#opt-max_fan").value;
  options.max_fan = maxFan === "" ? null : Number(maxFan);
  options.self_draw_bonus = root.querySelector("#opt-self_draw_bonus").value;
  for (const name of SWITCHES) options[name] = root.querySelector(`#opt-${name}`).checked;
  return options;
}

export function lobbyHTML(t, s) {
  const presets = s.presets || {};
  const preset = s.preset || "app";
  const seatRows = [1, 2, 3]
    .map((seat) => {
      const values = ["person", ...BOT_TIERS];
      const current = s.bots?.[seat] ?? DEFAULT_TIER;
      return field(
        t(`seat_rel_${seat}`),
        select(`bot-${seat}`, values, current, (v) => t(`tier_${v}`)),
        "seat-choice",
      );
    })
    .join("");
  // An error is shown in the card whose button was pressed, where the person is looking (app.js scrolls to it).
  const error = (where) => (s.error && (s.errorAt || "join") === where ? errorHTML(s.error) : "");
  return `
  <div class="lobby">
    <header class="lobby-head">
      <h1>${esc(t("title"))}</h1>
      ${langSwitch(t)}
    </header>
    <section class="card create">
      <h2>${esc(t("lobby_create"))}</h2>
      ${field(t("your_name"), `<input id="name" maxlength="16" autocomplete="nickname" value="${esc(s.name)}">`)}
      <div class="row">
        ${field(t("preset"), select("preset", presetNames(presets), preset, (p) => t(`preset_${p}`)))}
        ${field(t("hands"), select("hands", HANDS, s.hands ?? 8, (n) => t("hands_n", { n })))}
        ${field(t("timer"), select("timer", TIMERS, s.timer ?? null, (n) => (n === null ? t("timer_none") : t("seconds_n", { n }))))}
      </div>
      <div id="options">${optionFields(t, presets[preset])}</div>
      <h3>${esc(t("lobby_seats"))}</h3>
      <div class="row seats">${seatRows}</div>
      ${error("create")}
      <button class="primary big" data-act="create" ${s.busy ? "disabled" : ""}>${esc(t("lobby_create_button"))}</button>
    </section>
    <section class="card join">
      <h2>${esc(t("lobby_join"))}</h2>
      <div class="row">
        ${field(t("room_code"), `<input id="code" maxlength="6" autocapitalize="characters" autocomplete="off" spellcheck="false" value="${esc(s.code || "")}" placeholder="K7QF9R">`)}
      </div>
      <div class="row buttons">
        <button class="primary" data-act="join" ${s.busy ? "disabled" : ""}>${esc(t("join_button"))}</button>
        <button data-act="watch" ${s.busy ? "disabled" : ""}>${esc(t("watch_button"))}</button>
      </div>
      ${error("join")}
    </section>
    <footer class="lobby-foot">${esc(t("lobby_foot"))}</footer>
  </div>`;
}

function errorHTML(text) {
  return `<p class="error" role="alert" data-role="error">${esc(text)}</p>`;
}

export function langSwitch(t) {
  const other = t.lang === "zh" ? "en" : "zh";
  return `<button class="lang" data-act="lang" data-lang="${other}" aria-label="${esc(t("switch_lang"))}">${esc(t("lang_other"))}</button>`;
}

/** The join screen for someone who opened a share link: a name, then join or watch. */
export function joinHTML(t, s) {
  return `
  <div class="lobby">
    <header class="lobby-head"><h1>${esc(t("title"))}</h1>${langSwitch(t)}</header>
    <section class="card join">
      <h2>${esc(t("join_room", { code: s.code }))}</h2>
      ${field(t("your_name"), `<input id="name" maxlength="16" autocomplete="nickname" value="${esc(s.name)}">`)}
      <input id="code" type="hidden" value="${esc(s.code)}">
      <div class="row buttons">
        <button class="primary big" data-act="join" ${s.busy ? "disabled" : ""}>${esc(t("join_button"))}</button>
        <button data-act="watch" ${s.busy ? "disabled" : ""}>${esc(t("watch_button"))}</button>
      </div>
      ${s.error ? errorHTML(s.error) : ""}
      <p><a href="/" data-act="home">${esc(t("back_to_lobby"))}</a></p>
    </section>
  </div>`;
}
