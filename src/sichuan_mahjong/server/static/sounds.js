// Short table sounds made in the browser with WebAudio (no sound files): a draw, a discard's click, 碰, 杠 and
// 胡. Off until the player turns them on (the 🔇 / 🔊 switch); the choice is remembered in localStorage.

const KEY = "scmj.sound";
let ctx = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) audio(); // a tap turns them on: the browser lets a page start its audio only from a tap
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// Each sound: notes of [frequency Hz, start s, length s, wave, loudness]. Kept under a third of a second.
const SOUNDS = {
  draw: [[660, 0, 0.06, "sine", 0.12]],
  discard: [
    [190, 0, 0.05, "square", 0.1],
    [120, 0.02, 0.07, "triangle", 0.14],
  ],
  pung: [
    [392, 0, 0.09, "triangle", 0.2],
    [523, 0.08, 0.12, "triangle", 0.2],
  ],
  kong: [
    [330, 0, 0.08, "sawtooth", 0.12],
    [440, 0.07, 0.08, "sawtooth", 0.12],
    [660, 0.14, 0.14, "triangle", 0.18],
  ],
  hu: [
    [523, 0, 0.1, "triangle", 0.22],
    [659, 0.09, 0.1, "triangle", 0.22],
    [784, 0.18, 0.12, "triangle", 0.22],
    [1047, 0.27, 0.05, "sine", 0.18],
  ],
};

/** Plays one of draw | discard | pung | kong | hu when sounds are on; silently nothing otherwise. */
export function play(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn()) return;
  const ac = audio();
  if (!ac) return;
  const now = ac.currentTime;
  for (const [freq, start, length, wave, loud] of notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(loud, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ac.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}

/** The sound of an event of the table, or null (draws only for one's own seat: others' would be noise). */
export function soundFor(event, me) {
  const type = event.type;
  if (type === "draw") return event.seat === me ? "draw" : null;
  if (type === "discard") return "discard";
  if (type === "pung") return "pung";
  if (type === "kong" || type === "added_kong" || type === "concealed_kong") return "kong";
  if (type === "win") return "hu";
  return null;
}
