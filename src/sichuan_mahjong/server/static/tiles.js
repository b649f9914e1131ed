// Tile faces as inline SVG: 万 a Chinese numeral over 萬 (red), 筒 dots (blue), 条 bamboo (green).
// A small Arabic rank in the corner keeps every tile readable at phone size and for English players.
// Tiles are strings "5p"; nothing here knows a rule.

const NUMERALS = "一二三四五六七八九";
const SUIT_CLASS = { m: "suit-m", p: "suit-p", s: "suit-s" };

// Dot centres per rank on a 60x80 face, with a radius.
const DOTS = {
  1: [[[30, 42]], 17],
  2: [[[30, 24], [30, 60]], 10],
  3: [[[16, 20], [30, 42], [44, 64]], 9],
  4: [[[18, 25], [42, 25], [18, 59], [42, 59]], 9.5],
  5: [[[17, 22], [43, 22], [30, 42], [17, 62], [43, 62]], 8.5],
  6: [[[19, 19], [41, 19], [19, 42], [41, 42], [19, 65], [41, 65]], 8],
  7: [[[16, 17], [30, 24], [44, 31], [19, 50], [41, 50], [19, 68], [41, 68]], 7],
  8: [[[19, 14], [41, 14], [19, 33], [41, 33], [19, 52], [41, 52], [19, 70], [41, 70]], 7.2],
  9: [[[15, 19], [30, 19], [45, 19], [15, 42], [30, 42], [45, 42], [15, 65], [30, 65], [45, 65]], 6.8],
};

// Bamboo stick centres per rank; the red ones are the traditional middle sticks.
const STICKS = {
  2: [[30, 25], [30, 59]],
  3: [[30, 25], [18, 59], [42, 59]],
  4: [[19, 25], [41, 25], [19, 59], [41, 59]],
  5: [[15, 25], [45, 25], [30, 42, "r"], [15, 59], [45, 59]],
  6: [[15, 25], [30, 25], [45, 25], [15, 59], [30, 59], [45, 59]],
  7: [[30, 17, "r"], [15, 42], [30, 42], [45, 42], [15, 66], [30, 66], [45, 66]],
  8: [[12, 25], [24, 25], [36, 25], [48, 25], [12, 59], [24, 59], [36, 59], [48, 59]],
  9: [[15, 17], [30, 17, "r"], [45, 17], [15, 42], [30, 42, "r"], [45, 42], [15, 67], [30, 67, "r"], [45, 67]],
};

function dots(rank) {
  const [centres, r] = DOTS[rank];
  return centres
    .map(([x, y]) => {
      const inner = rank === 1 ? `<circle cx="${x}" cy="${y}" r="${r * 0.55}" class="dot-ring"/>` : "";
      return (
        `<circle cx="${x}" cy="${y}" r="${r}" class="dot"/>` +
        inner +
        `<circle cx="${x}" cy="${y}" r="${r * 0.3}" class="dot-eye"/>`
      );
    })
    .join("");
}

function stick(x, y, red, tall) {
  const h = tall ? 48 : 22;
  const w = tall ? 10 : 7;
  const cls = red ? "stick red" : "stick";
  return (
    `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="${w / 2}" class="${cls}"/>` +
    `<line x1="${x - w / 2}" x2="${x + w / 2}" y1="${y}" y2="${y}" class="node"/>`
  );
}

function bamboo(rank) {
  if (rank === 1) {
    // 幺鸡 kept simple: one tall stick crowned with a red bud.
    return stick(30, 46, false, true) + `<circle cx="30" cy="17" r="7" class="bud"/>`;
  }
  return STICKS[rank].map(([x, y, red]) => stick(x, y, red === "r", false)).join("");
}

function characters(rank) {
  return (
    `<text x="31" y="36" class="wan-rank">${NUMERALS[rank - 1]}</text>` +
    `<text x="30" y="71" class="wan-suit">萬</text>`
  );
}

const cache = new Map();

/** The SVG markup of one face-up tile ("5p"), or of a tile back when `tile` is null. */
export function tileSVG(tile) {
  const key = tile || "back";
  let svg = cache.get(key);
  if (svg) return svg;
  if (!tile) {
    svg =
      `<svg viewBox="0 0 60 80" class="face back" aria-hidden="true">` +
      `<rect x="1" y="1" width="58" height="78" rx="7" class="back-body"/>` +
      `<rect x="6" y="6" width="48" height="68" rx="5" class="back-inlay"/></svg>`;
  } else {
    const rank = Number(tile[0]);
    const suit = tile[1];
    const body = suit === "m" ? characters(rank) : suit === "p" ? dots(rank) : bamboo(rank);
    svg =
      `<svg viewBox="0 0 60 80" class="face ${SUIT_CLASS[suit]}" role="img" aria-label="${tile}">` +
      `<rect x="1" y="1" width="58" height="78" rx="7" class="face-body"/>` +
      `<g transform="translate(3 5) scale(0.92)">${body}</g>` +
      `<text x="4" y="15" class="corner">${rank}</text></svg>`;
  }
  cache.set(key, svg);
  return svg;
}

/** One tile as HTML: a <span class="tile"> holding its face; `extra` adds classes, `attrs` attributes. */
export function tileHTML(tile, extra = "", attrs = "") {
  const data = tile ? ` data-tile="${tile}"` : "";
  return `<span class="tile${tile ? "" : " tile-back"} ${extra}"${data} ${attrs}>${tileSVG(tile)}</span>`;
}

/** Tiles sorted by suit then rank, as players hold them (m, p, s). */
export function sortTiles(tiles) {
  const order = { m: 0, p: 1, s: 2 };
  return [...tiles].sort((a, b) => order[a[1]] - order[b[1]] || Number(a[0]) - Number(b[0]));
}

/** A tile in words for the current language: "五萬" / "5 dots" style short forms live in the catalogue. */
export function tileName(tile, t) {
  if (!tile) return "";
  const rank = Number(tile[0]);
  return t(`tile_${tile[1]}`, { rank: t.lang === "zh" ? NUMERALS[rank - 1] : String(rank) });
}

/** Tiles written compactly as the protocol does ("119m", "12m5p") -> ["1m", "1m", "9m"]. */
export function parseTiles(text) {
  return [...text.matchAll(/(\d+)([mps])/g)].flatMap(([, ranks, suit]) => [...ranks].map((r) => r + suit));
}

/** An action string of the protocol in words, as the table, the replay and 复盘 say it: "discard 3m" -> 打三万 /
 * "discard 3 Crak", "exchange 119m" -> 换三张 一万 一万 九万, "void s" -> 缺条, "pung" -> 碰. */
export function actionWords(t, action) {
  const [kind, arg] = action.split(" ");
  if (kind === "void") return t("act_void", { suit: t(`suit_${arg}`) });
  if (kind === "exchange") {
    if (!arg) return t("act_exchange");
    return t("act_exchange_tiles", { tiles: parseTiles(arg).map((x) => tileName(x, t)).join(" ") });
  }
  if (arg) return t(`act_${kind}`, { tile: tileName(arg, t) });
  return t(`act_${kind}`);
}

