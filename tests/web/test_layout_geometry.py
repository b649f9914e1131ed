"""The table's geometry in a real browser, from bounding boxes: at two phone shapes in portrait, a phone in
landscape and two laptops, whole hands are played with three bots and at every step of them the page is measured.

What must hold at every moment (docs/web.md "Phones"): no two of {each seat's hand, its plate, its river, the
prompt, the action buttons, the top bar, the centre} overlap; every seat shows its name, and the badges and score
of a plate lie inside it; the player's own tiles are big enough to tap (44 px tall on a landscape phone, 36 px on a
390 px portrait one); nothing the player must read or press lies outside the screen; each river stays inside its
own area. Besides the real hands, a view with everything at once (rivers of 26 tiles, melds and kongs on every
seat, two wins, every badge, long names, the claim buttons) is fed to the page through its own websocket, in
Chinese and in English.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocketRoute

import sichuan_mahjong.server
from webpage import NewPage, open_room, shot, step, wait_table

STATIC = Path(sichuan_mahjong.server.__file__).parent / "static"
LANDSCAPE_PHONE: ViewportSize = {"width": 844, "height": 390}
SIZES: dict[str, ViewportSize] = {
    "844x390": LANDSCAPE_PHONE,
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
}
#: The smallest height of the player's own concealed tiles, per screen.
MIN_TILE_HEIGHT = {"844x390": 44, "390x844": 36, "360x740": 33, "1366x768": 50, "1920x1080": 50}
PHONE_OPTIONS: dict[str, Any] = {"is_mobile": True, "has_touch": True}

#: Measures the table; a list of what is wrong (empty when all holds) and the own tiles' smallest height.
MEASURE = """() => {
  // The settled table: a tile landing or a meld sliding in (<= 200 ms) is measured where it lands.
  for (const a of document.getAnimations()) if (a.effect?.getComputedTiming().iterations !== Infinity) a.finish();
  const W = innerWidth, H = innerHeight, problems = [];
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, r: r.right, b: r.bottom,
    w: r.width, h: r.height, el}; };
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown).map(box);
  const name = (b) => {
    const el = b.el; const cls = typeof el.className === 'string' ? el.className : el.getAttribute('class');
    return `${el.tagName.toLowerCase()}.${(cls || '').trim().split(/\\s+/).join('.')}` +
      (el.dataset.tile ? `[${el.dataset.tile}]` : '') + ` (${Math.round(b.x)},${Math.round(b.y)} ` +
      `${Math.round(b.w)}x${Math.round(b.h)})`;
  };
  const groups = {};
  for (const pos of ['bottom', 'right', 'top', 'left']) {
    const seat = `.table .seat-${pos}`;
    groups[`hand-${pos}`] = all(`${seat} .concealed > *, ${seat} .melds .tile, ${seat} .hand .tile, ` +
      `${seat} .drawn .tile`);
    groups[`plate-${pos}`] = all(`${seat} .plate`);
    groups[`river-${pos}`] = all(`.table .river-${pos} .tile`);
  }
  groups.prompt = all('.table [data-role=prompt], .table [data-role=waits]:not([hidden]), .table .exchange-note');
  groups.actions = all('.table [data-role=actions] > *');
  groups.bar = all('.table .topbar');
  groups.centre = all('.table .compass');
  const overlap = (a, b) =>
    Math.min(a.r, b.r) - Math.max(a.x, b.x) > 1.5 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > 1.5;
  const keys = Object.keys(groups);
  for (let i = 0; i < keys.length; i++) for (let j = i + 1; j < keys.length; j++) {
    let found = 0;
    for (const a of groups[keys[i]]) for (const b of groups[keys[j]]) {
      if (overlap(a, b) && found++ < 2) problems.push(`${keys[i]} overlaps ${keys[j]}: ${name(a)} / ${name(b)}`);
    }
  }
  for (const bubble of all('.table .bubble')) {
    const covered = keys.filter((k) => k.startsWith('plate-') || ['prompt', 'actions', 'hand-bottom'].includes(k));
    for (const k of covered) {
      if (bubble.el.closest('.plate') === groups[k][0]?.el) continue;
      for (const b of groups[k]) if (overlap(bubble, b)) problems.push(`a bubble covers ${k}: ${name(b)}`);
    }
  }
  for (const [k, boxes] of Object.entries(groups)) for (const b of boxes) {
    if (b.x < -1 || b.y < -1 || b.r > W + 1 || b.b > H + 1) problems.push(`${k} off the screen: ${name(b)}`);
  }
  for (const pos of ['bottom', 'right', 'top', 'left']) {
    const plate = document.querySelector(`.table .seat-${pos} .plate`);
    if (!plate) { problems.push(`no plate for ${pos}`); continue; }
    const p = box(plate);
    const nameEl = plate.querySelector('.name');
    const n = nameEl && box(nameEl);
    if (!n || !shown(nameEl) || getComputedStyle(nameEl).visibility === 'hidden') {
      problems.push(`${pos}: no name shown`);
    } else if (n.w < Math.min(nameEl.scrollWidth, 28) - 1) {
      problems.push(`${pos}: the name is cut to ${Math.round(n.w)} px`);
    }
    for (const part of plate.querySelectorAll('.rel, .name, .badge, .money > *, .legend')) {
      if (!shown(part)) continue;
      const b = box(part);
      if (b.x < p.x - 1 || b.r > p.r + 1 || b.y < p.y - 1 || b.b > p.b + 1) {
        problems.push(`${pos}: ${name(b)} spills out of its plate ${name(p)}`);
      }
      if (b.x < -1 || b.r > W + 1 || b.y < -1 || b.b > H + 1) problems.push(`${pos}: ${name(b)} off the screen`);
    }
  }
  for (const river of document.querySelectorAll('.table .river')) {
    const r = box(river);
    for (const t of [...river.querySelectorAll('.tile')].map(box)) {
      if (t.x < r.x - 1 || t.r > r.r + 1 || t.y < r.y - 8 || t.b > r.b + 1) {
        problems.push(`a tile leaves its river: ${name(t)} outside ${name(r)}`);
        break;
      }
    }
  }
  // A seat's name wraps only between its words (电脑· / 高手 or Bot · / expert), never inside one (高 / 手) that
  // would fit on a line of its own (a longer one must break).
  for (const el of document.querySelectorAll('.table .who .name')) {
    const tops = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const r = range.getClientRects()[0];
        const seen = r && r.bottom <= el.getBoundingClientRect().bottom + 1; // not clamped away
        tops.push([n.data[i], seen ? Math.round(r.top) : null, seen ? r.width : 0]);
      }
    }
    let word = [];
    for (const [ch, top, width] of [...tops, [' ', null, 0]]) {
      // A word ends at a space or a ·, and a bracket starts one (大师 / （最强） may wrap like words).
      if (ch === ' ' || ch === '·' || ch === '(' || ch === '（') {
        const lines = new Set(word.filter(([t]) => t !== null).map(([t]) => t));
        const wide = word.reduce((sum, [, w]) => sum + w, 0);
        const text = word.map(([, , c]) => c).join('');
        if (lines.size > 1 && wide <= el.clientWidth) problems.push(`the name "${el.textContent}" breaks in "${text}"`);
        word = ch === '(' || ch === '（' ? [[top, width, ch]] : [];
      } else word.push([top, width, ch]);
    }
  }
  // The top bar's buttons and words each whole, on one line, side by side (not squeezed into one another).
  const bar = [...document.querySelectorAll('.table .topbar > *')].filter(shown).map(box);
  for (const b of bar) {
    const el = b.el;
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`the top bar squeezes ${name(b)} (${el.scrollWidth} px)`);
    if (b.r > W + 1) problems.push(`the top bar's ${name(b)} is off the screen`);
  }
  const line = Math.min(...bar.filter((b) => b.el.tagName === 'BUTTON').map((b) => b.h));
  for (const b of bar) if (b.el.tagName === 'BUTTON' && b.h > line + 4) problems.push(`the top bar wraps ${name(b)}`);
  for (let i = 1; i < bar.length; i++) {
    if (overlap(bar[i - 1], bar[i])) problems.push(`the top bar overlaps ${name(bar[i])}`);
  }
  const docW = document.documentElement.scrollWidth, docH = document.documentElement.scrollHeight;
  if (docW > W + 1 || docH > H + 1) problems.push(`the page scrolls: ${docW}x${docH} on ${W}x${H}`);
  const mine = all('.table .seat-bottom .tile.mine').map((b) => b.h);
  return {problems, tile: mine.length ? Math.min(...mine) : null};
}"""


def measure(page: Page, size: str, where: str) -> list[str]:
    """What is wrong with the table now (nothing while a panel covers it)."""
    if page.locator(".overlay").count() or not page.locator(".table").count():
        return []
    found: dict[str, Any] = page.evaluate(MEASURE)
    problems: list[str] = found["problems"]
    tile = found["tile"]
    if tile is not None and tile < MIN_TILE_HEIGHT[size] - 0.5:
        problems.append(f"own tiles {tile:.1f} px tall, at least {MIN_TILE_HEIGHT[size]} wanted")
    return [f"{size} {where}: {p}" for p in problems]


def assert_fits(page: Page, size: str, where: str) -> None:
    problems = measure(page, size, where)
    if problems:
        shot(page, f"geometry-fail-{size}")
    assert not problems, "\n".join(problems[:25])


#: A simple player that lets the wall run: it never wins (the test wants long rivers), else as webpage.step.
RUN_THE_WALL = ("pung", "kong", "declare_ready", "pass")


def play_hand_checked(page: Page, size: str, lang: str, limit: float = 150.0) -> tuple[int, int, int]:
    """Play one hand by taps to its 结算, measuring the table whenever it changed: the moments measured, the
    longest river seen and the wall's last count."""
    checked = longest = 0
    claimed = False
    wall = -1
    last: list[Any] = []
    deadline = time.monotonic() + limit
    while not page.locator("[data-role=settlement]").count():
        assert time.monotonic() < deadline, f"the hand did not end in {limit} s; the page offers: {offered(page)}"
        state: list[Any] = page.evaluate(SEEN)
        if state != last:
            last = state
            assert_fits(page, size, f"with {state[2]} tiles in the wall")
            if state[1] >= 12 > longest:
                shot(page, f"hand-{size}-{lang}")  # mid-hand, for docs/web.md
            if not claimed and page.locator(CLAIMS).count():
                claimed = True
                shot(page, f"claim-{size}-{lang}")
            longest, wall = max(longest, state[1]), state[2]
            checked += 1
        if step(page, prefer=RUN_THE_WALL):
            continue
        # Nothing of those asked: 后4张必胡 (R9.2) may leave the win the only answer in the last four tiles.
        if step(page, prefer=("hu",)) == "hu":
            print(f"{size} {lang}: a forced win (R9.2) with {state[2]} tiles in the wall")
            continue
        page.wait_for_timeout(30)
    return checked, longest, wall


def offered(page: Page) -> str:
    """What the page asks of the player now, for a failure's message: its prompt, buttons and legal tiles."""
    return str(
        page.evaluate(
            """() => [document.querySelector('[data-role=prompt]')?.textContent,
  [...document.querySelectorAll('.act')].map((b) => b.dataset.action || b.dataset.act).join(', '),
  document.querySelectorAll('.seat-bottom .tile.mine.legal').length + ' legal tiles'].join(' | ')"""
        )
    )


#: What changed on the table: [a count of what is drawn, the longest river, the wall's count].
SEEN = """() => [
  document.querySelectorAll('.river .tile, .melds .tile, .tile.mine, .badge, .act, .bubble').length,
  Math.max(0, ...[...document.querySelectorAll('.river')].map((r) => r.querySelectorAll('.tile').length)),
  Number((document.querySelector('.compass .wall')?.textContent.match(/\\d+/) || [-1])[0]),
]"""


#: Claim buttons on the table.
CLAIMS = '.act.hu, [data-action="pung"], [data-action="kong"]'


@pytest.mark.parametrize(("size", "lang"), [*((size, "zh") for size in SIZES), ("844x390", "en"), ("360x740", "en")])
def test_a_long_bloody_hand_fits_the_screen_at_every_step(new_page: NewPage, size: str, lang: str) -> None:
    viewport = SIZES[size]
    page = new_page(viewport=viewport, **(PHONE_OPTIONS if viewport["width"] < 1000 else {}))
    page.goto("/")
    page.evaluate(f"localStorage.setItem('scmj.lang', {lang!r})")
    # 血战: two strong bots win early, the weak one and the player (who never wins) draw on to the end of the wall,
    # so their rivers grow long.
    open_room(page, preset="bloody", hands=1, seats=("expert", "random", "expert"))
    wait_table(page)
    tile = page.locator(".seat-bottom .tile.mine").first.bounding_box()
    checked, longest, wall = play_hand_checked(page, size, lang)
    # The 结算 that ends it: its button on to the next hand is on the screen without scrolling.
    button = None
    for _ in range(5):  # a redraw (a bubble fading) may replace the panel just as it is measured
        button = page.locator("[data-role=settlement] [data-act=close-panel]").bounding_box()
        if button is not None:
            break
        page.wait_for_timeout(100)
    assert button is not None, "no 结算 button to go on"
    assert button["y"] >= 0 and button["y"] + button["height"] <= viewport["height"], (size, button)
    shot(page, f"settlement-{size}-{lang}")
    own = f"{tile['width']:.1f}x{tile['height']:.1f}" if tile else "?"
    print(f"{size} {lang}: own tiles {own} px, {checked} moments measured, longest river {longest}, wall left {wall}")
    assert checked >= 10, checked
    assert longest >= 10, longest


# ------------------------------------------------------------------------------- everything at once


class Socket:
    """The page's websocket, passed through to the real server; `inject` hands the page a message of our own."""

    def __init__(self, page: Page) -> None:
        self.route: WebSocketRoute | None = None
        self.last_view: dict[str, Any] | None = None
        self.sent: list[dict[str, Any]] = []
        page.route_web_socket("**/ws/**", self._handle)

    def _handle(self, ws: WebSocketRoute) -> None:
        self.route = ws
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "view":
                self.last_view = data
            ws.send(message)

        def from_page(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    def inject(self, message: dict[str, Any]) -> None:
        assert self.route is not None
        self.route.send(json.dumps(message, ensure_ascii=False))


def crowded(view_message: dict[str, Any]) -> dict[str, Any]:
    """A copy of a real view with everything a seat can show at once, seen by seat 0 on a claim."""
    m: dict[str, Any] = json.loads(json.dumps(view_message))
    v = m["view"]
    river = ["1m", "9p", "5s", "2m", "7p", "3s", "4m", "6p", "8s", "1p", "2s", "9m", "3p", "4s"] * 2
    v["discards"] = [river[:26]] * 4
    v["melds"] = [
        [{"kind": "pung", "tile": "7m"}, {"kind": "added_kong", "tile": "5p"}],
        [{"kind": "pung", "tile": "2s"}, {"kind": "kong", "tile": "3m"}],
        [{"kind": "added_kong", "tile": "8p"}, {"kind": "pung", "tile": "6s"}],
        [{"kind": "kong", "tile": "1s"}, {"kind": "pung", "tile": "9m"}],
    ]
    v["hidden_kongs"] = [0, 1, 0, 1]
    v["hand"] = ["2m", "3m", "4m", "5m", "6p", "7s"]  # 7s: the void suit, to be played first (先打)
    v["drawn"] = None
    v["concealed_counts"] = [6, 2, 7, 2]
    v["wins"] = [
        {"seat": 1, "tile": "4s", "from_seat": 2, "robbed_kong": False, "fan": 3},
        {"seat": 3, "tile": "8m", "from_seat": None, "robbed_kong": False, "fan": 2},
    ]
    v["active"] = [True, False, True, False]
    v["voids"] = ["s", "p", "m", "p"]
    v["ready"] = [True, True, True, True]
    v["scores"] = [-128, 256, -64, -64]
    v["dealer"] = 2
    v["phase"] = "claim"
    v["turn"] = 2
    v["pending_tile"] = "6p"
    v["wall_count"] = 3
    v["is_over"] = False
    m["legal"] = ["hu", "kong", "pung", "pass"]
    m["events"] = [{"type": "discard", "seat": 2, "data": {"tile": "6p"}}]
    m["hints"] = {"waits": [{"tile": "6p", "left": 2}, {"tile": "1m", "left": 3}], "discard_waits": {}}
    room = m.get("room") or {}
    players = room.get("players") or [{} for _ in range(4)]
    names = ["阿明同学的手机号码很长", "Alexandra Konstantinopoulou", "李白白白白白白白白", "Bartholomew"]
    bots = [None, None, None, "master"]  # 上家 a bot: its name (电脑·大师（最强）) wraps between words only
    for seat, p in enumerate(players):
        p.update({"name": names[seat], "bot": bots[seat], "auto": seat == 1, "connected": seat != 3})
    room.update({"players": players, "totals": [-1024, 2048, -512, -512], "hand_no": 12, "hands": 16})
    m["room"] = room
    return m


#: crowded_table(viewport, lang) -> (page, socket)
CrowdedTable = Callable[..., tuple[Page, Socket]]


@pytest.fixture
def crowded_table(new_page: NewPage) -> CrowdedTable:
    """(page, socket) on a room's table, its real view then replaced by a crowded one."""

    def make(viewport: ViewportSize, lang: str, **options: Any) -> tuple[Page, Socket]:
        page = new_page(viewport=viewport, **(PHONE_OPTIONS if viewport["width"] < 1000 else {}), **options)
        socket = Socket(page)
        page.goto("/")
        page.evaluate(f"localStorage.setItem('scmj.lang', {lang!r})")
        open_room(page, preset="bloody", hands=1, seats=("expert", "expert", "expert"))
        wait_table(page)
        play_until_discard(page)  # the server waits on this seat: no view of its own comes after ours
        assert socket.last_view is not None
        socket.inject(crowded(socket.last_view))
        page.locator(".act.hu").wait_for()
        return page, socket

    return make


#: The least opacity, over a second, of what the player must press or play first (胡, the 先打 tiles), counting
#: every ancestor's opacity too.
FAINTEST = """async () => {
  let least = 1;
  for (let i = 0; i < 12; i++) {
    for (const el of document.querySelectorAll('.act.hu, .tile.void-tile')) {
      let o = 1;
      for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
      least = Math.min(least, o);
    }
    await new Promise((r) => setTimeout(r, 90));
  }
  return least;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_crowded_table_fits(crowded_table: CrowdedTable, size: str, lang: str) -> None:
    page, _ = crowded_table(SIZES[size], lang)
    assert page.locator(".river-top .tile").count() == 26
    assert page.locator(".tile.void-tile").count() == 1
    # What must be pressed or played first is drawn at full strength, its cue a ring, not a fade.
    assert page.evaluate(FAINTEST) == 1
    # Every mark explained: 先打 / 1st in words under the prompt; no bare symbol for the match total.
    legend = page.locator("[data-role=legend]").inner_text()
    assert ("先打" in legend) if lang == "zh" else ("1st" in legend and "void" in legend), legend
    assert "Σ" not in page.locator(".table").inner_text()
    assert_fits(page, size, f"crowded ({lang})")
    shot(page, f"crowded-{size}-{lang}")


#: The moves running on the newest discard and meld: [name, seconds] of each.
MOVES = """() => [...document.querySelectorAll('.tile.fresh, .meld.fresh')].map((el) => {
  const style = getComputedStyle(el);
  return [style.animationName, parseFloat(style.animationDuration)];
})"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_discard_lands_with_a_short_move_unless_asked_not_to(crowded_table: CrowdedTable, motion: str) -> None:
    page, _ = crowded_table(LANDSCAPE_PHONE, "zh", reduced_motion=motion)
    moves = page.evaluate(MOVES)
    assert len(moves) >= 4, moves  # the last tile of each river that grew, and the melds
    if motion == "reduce":
        assert all(name == "none" for name, _ in moves), moves
    else:
        assert all(name != "none" and 0 < seconds <= 0.2 for name, seconds in moves), moves


def test_a_spectator_is_told_they_are_watching_and_the_table_fits(new_page: NewPage) -> None:
    player = new_page()
    code = open_room(player, preset="bloody", hands=1, seats=("expert", "expert", "expert"))
    wait_table(player)
    watcher = new_page(viewport=LANDSCAPE_PHONE, **PHONE_OPTIONS)
    watcher.goto("/")
    watcher.evaluate("localStorage.setItem('scmj.lang', 'en')")
    watcher.goto(f"/?room={code}")
    watcher.click("[data-act=watch]")
    wait_table(watcher)
    assert "Watching" in watcher.locator("[data-role=prompt]").inner_text()
    assert_fits(watcher, "844x390", "watching")
    shot(watcher, "spectator-844x390")


def test_the_installed_app_asks_for_landscape() -> None:
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    assert manifest["orientation"] == "landscape"


# ------------------------------------------------------------------------------- a tap on a tile that slid in


def test_quick_taps_after_a_redraw_do_not_discard_the_tile_that_slid_in(new_page: NewPage) -> None:
    # A claim redraws the hand shorter and every tile slides; a player tapping fast (four taps 40 ms apart) at
    # the place of the tile they meant must not raise and discard the one that slid there (table.js
    # TAP_SETTLE_MS). Without the settling time the second tap discarded it.
    page = new_page(viewport=LANDSCAPE_PHONE, **PHONE_OPTIONS)
    socket = Socket(page)
    open_room(page, preset="bloody_kong", hands=1, seats=("efficient", "efficient", "efficient"))
    wait_table(page)
    play_until_discard(page)
    assert socket.last_view is not None
    real = socket.last_view
    aim = page.locator(".seat-bottom .hand .tile.mine").nth(6).bounding_box()
    assert aim is not None
    x, y = aim["x"] + aim["width"] / 2, aim["y"] + aim["height"] * 0.75
    claimed = json.loads(json.dumps(real))
    view = claimed["view"]
    hand = view["hand"] + ([view["drawn"]] if view["drawn"] else [])
    view["hand"], view["drawn"] = sorted(hand[2:], key=lambda t: ("mps".index(t[1]), t[0])), None
    view["melds"][view["seat"]] = [*view["melds"][view["seat"]], {"kind": "pung", "tile": hand[0]}]
    claimed["legal"] = [f"discard {t}" for t in sorted(set(view["hand"]))]
    claimed["events"] = []
    sent_before = len(socket.sent)
    # The taps are timed in the page, from the moment the shorter hand is drawn: 0, 40, 80 and 120 ms after.
    page.evaluate(QUICK_TAPS, {"x": x, "y": y, "count": len(view["hand"])})
    socket.inject(claimed)
    page.wait_for_function("window.quickTaps && window.quickTaps.length === 4")
    under = page.evaluate("window.quickTaps")
    assert all(under), f"no hand tile under the finger at some tap: {under}"
    discards = [m for m in socket.sent[sent_before:] if str(m.get("action", "")).startswith("discard")]
    assert discards == [], f"a quick tap discarded the tile that slid in: {discards}"
    # Once it has stood still, the same tap counts: it raises the tile.
    page.wait_for_timeout(200)
    if page.locator(".seat-bottom .tile.mine.raised").count() == 0:
        page.mouse.click(x, y)
    assert page.locator(".seat-bottom .tile.mine.raised").count() == 1


#: Installs four taps (press, release, click) at (x, y), 40 ms apart, run as soon as the hand holds `count` tiles;
#: window.quickTaps lists the tile under the finger at each.
QUICK_TAPS = """({x, y, count}) => {
  const tap = () => {
    const el = document.elementFromPoint(x, y);
    const at = {bubbles: true, cancelable: true, clientX: x, clientY: y};
    el.dispatchEvent(new PointerEvent('pointerdown', at));
    el.dispatchEvent(new PointerEvent('pointerup', at));
    el.dispatchEvent(new MouseEvent('click', at));
    window.quickTaps.push(el.closest('.tile.mine')?.dataset.tile ?? null);
  };
  const watch = new MutationObserver(() => {
    if (document.querySelectorAll('.seat-bottom .hand .tile.mine').length !== count) return;
    watch.disconnect();
    window.quickTaps = [];
    for (const ms of [0, 40, 80, 120]) setTimeout(tap, ms);
  });
  watch.observe(document.getElementById('app'), {childList: true, subtree: true});
}"""


def play_until_discard(page: Page) -> None:
    """Tap through the opening (exchange, void) until it is the player's own discard."""
    deadline = time.monotonic() + 60
    while not page.locator(".seat-bottom .tile.mine.legal").count():
        assert time.monotonic() < deadline, "no discard turn within 60 s"
        if not step(page):
            page.wait_for_timeout(50)
