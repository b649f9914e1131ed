// Small helpers shared by the page's modules.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text made safe for innerHTML (player names come from other people). */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** A signed number as players read it: +3, -2, 0. */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** The CSS class of a signed amount: green in, red out. */
export function signClass(n) {
  return n > 0 ? "plus" : n < 0 ? "minus" : "zero";
}

/** Where a seat sits from the viewer: 0 bottom (you), 1 right (下家), 2 top (对家), 3 left (上家). */
export function relative(seat, me) {
  return (seat - (me ?? 0) + 4) % 4;
}

export const POSITIONS = ["bottom", "right", "top", "left"];
