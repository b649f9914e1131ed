// The 战绩 / replay / 复盘 screens' behaviour: fetching the player's matches and a hand's steps, stepping and
// playing them, asking for the review and polling until it is ready. app.js routes clicks here.

import { getJSON, playerId } from "./net.js";

const SPEEDS = [1, 2, 4, 0.5];
const STEP_MS = 1200;

export function freshAfter() {
  return { data: null, error: null, replay: null, at: 0, playing: false, speed: 1, review: null, reviewState: null, showDecision: false };
}

async function call(method, path) {
  const response = await fetch(path, { method });
  let data = {};
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok && response.status !== 202) throw Object.assign(new Error(data.error || response.statusText), { status: response.status });
  return { status: response.status, data };
}

const base = () => `/api/players/${encodeURIComponent(playerId())}`;

export async function openHistory(state, render) {
  state.screen = "history";
  state.after = freshAfter();
  render();
  try {
    state.after.data = await getJSON(`${base()}/matches`);
  } catch (err) {
    state.after.error = String(err.message || err);
  }
  render();
}

export async function openReplay(state, render, room, hand) {
  stop(state);
  const after = { ...freshAfter(), data: state.after?.data || null };
  state.after = after;
  state.screen = "replay";
  render();
  try {
    after.replay = await getJSON(`${base()}/matches/${encodeURIComponent(room)}/hands/${hand}`);
    after.replay.hand = hand;
  } catch (err) {
    after.error = String(err.message || err);
    state.screen = "history";
  }
  render();
}

export function stepTo(state, render, at) {
  const a = state.after;
  if (!a?.replay) return;
  a.at = Math.max(0, Math.min(a.replay.steps.length - 1, at));
  a.showDecision = false;
  if (a.at === a.replay.steps.length - 1) stop(state);
  render();
}

let timer = null;

export function stop(state) {
  if (timer) clearTimeout(timer);
  timer = null;
  if (state.after) state.after.playing = false;
}

export function togglePlay(state, render) {
  const a = state.after;
  if (a.playing) {
    stop(state);
    render();
    return;
  }
  a.playing = true;
  if (a.at === a.replay.steps.length - 1) a.at = 0;
  const tick = () => {
    if (!a.playing || state.after !== a || state.screen !== "replay") return;
    stepTo(state, render, a.at + 1);
    if (a.playing) timer = setTimeout(tick, STEP_MS / a.speed);
  };
  render();
  timer = setTimeout(tick, STEP_MS / a.speed);
}

export function nextSpeed(state, render) {
  const a = state.after;
  a.speed = SPEEDS[(SPEEDS.indexOf(a.speed) + 1) % SPEEDS.length];
  render();
}

/** POST the review; 202 while it is queued or running (said on the bar), polled each second until 200. */
export async function askReview(state, render, toast) {
  const a = state.after;
  const path = `${base()}/matches/${encodeURIComponent(a.replay.room)}/hands/${a.replay.hand}/review`;
  for (;;) {
    let answer;
    try {
      answer = await call("POST", path);
    } catch (err) {
      a.reviewState = null;
      toast(String(err.message || err));
      render();
      return;
    }
    if (state.after !== a) return;
    if (answer.status === 200) {
      a.review = answer.data.review;
      a.reviewState = null;
      render();
      return;
    }
    a.reviewState = answer.data.status;
    render();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

export async function forgetMe(state, render) {
  await call("DELETE", base());
  state.after = { ...freshAfter(), data: { matches: [] } };
  render();
}
