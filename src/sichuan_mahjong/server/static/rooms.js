// Creating, joining and watching a room from the lobby's forms: the form read into state.lobby, the request
// to the server, the seat saved in this browser, and the server's refusal shown on the card that asked.
// app.js owns the state and the drawing; roomActions binds these to them.

import { readOptions } from "./lobby.js";
import { playerId, post, saveSeat } from "./net.js";

/** The lobby's actions on `state`, drawing with `render` and going to a room's page with `go(code)`. */
export function roomActions(state, app, render, go) {
  function captureLobby() {
    const get = (sel) => app.querySelector(sel);
    if (get("#name")) state.lobby.name = get("#name").value.trim();
    if (get("#preset")) state.lobby.preset = get("#preset").value;
    if (get("#hands")) state.lobby.hands = Number(get("#hands").value);
    if (get("#timer")) state.lobby.timer = get("#timer").value === "" ? null : Number(get("#timer").value);
    if (get("#code")) state.lobby.code = get("#code").value.trim().toUpperCase();
    for (const seat of [1, 2, 3]) {
      const el = get(`#bot-${seat}`);
      if (el) state.lobby.bots[seat] = el.value;
    }
    if (state.lobby.name) localStorage.setItem("scmj.name", state.lobby.name);
  }

  function playerNameOrDefault() {
    return state.lobby.name || state.t("default_name");
  }

  function errorText(err) {
    const t = state.t;
    if (err.words) return err.words[state.lang] || err.words.zh;
    if (err.status === 409) return t("error_full");
    if (err.status === 404) return t("error_no_room");
    if (err.status === 0) return t("error_network");
    return t("error_server", { message: err.message });
  }

  async function busy(fn, where) {
    state.busy = true;
    state.error = null;
    render();
    try {
      await fn();
    } catch (err) {
      state.error = errorText(err);
      state.errorAt = where;
      state.scrollToError = true;
    } finally {
      state.busy = false;
      render();
    }
  }

  async function createRoom() {
    captureLobby();
    const bots = {};
    for (const seat of [1, 2, 3]) {
      const tier = state.lobby.bots[seat] || "expert";
      if (tier !== "person") bots[String(seat)] = tier;
    }
    const body = { preset: state.lobby.preset, hands: state.lobby.hands, name: playerNameOrDefault(), bots, player_id: playerId() };
    const options = readOptions(app);
    if (Object.keys(options).length) body.options = options;
    if (state.lobby.timer) body.timer = state.lobby.timer;
    await busy(async () => {
      const answer = await post("/api/rooms", body);
      saveSeat(answer.room, { token: answer.token, seat: answer.seat, role: "player" });
      go(answer.room);
    }, "create");
  }

  function codeFromForm() {
    captureLobby();
    const code = state.lobby.code || state.code || "";
    if (!/^[A-Za-z0-9]{4,6}$/.test(code)) {
      state.error = state.t("error_code");
      state.errorAt = "join";
      state.scrollToError = true;
      render();
      return null;
    }
    return code.toUpperCase();
  }

  async function joinRoom() {
    const code = codeFromForm();
    if (!code) return;
    await busy(async () => {
      const answer = await post(`/api/rooms/${encodeURIComponent(code)}/seats`, { name: playerNameOrDefault(), player_id: playerId() });
      saveSeat(code, { token: answer.token, seat: answer.seat, role: "player" });
      go(code);
    }, "join");
  }

  async function watchRoom() {
    const code = codeFromForm();
    if (!code) return;
    await busy(async () => {
      const answer = await post(`/api/rooms/${encodeURIComponent(code)}/spectators`, {});
      saveSeat(code, { token: answer.token, seat: null, role: "spectator" });
      go(code);
    }, "join");
  }

  return { captureLobby, createRoom, joinRoom, watchRoom };
}
