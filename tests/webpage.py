"""A person at the web table, for the browser tests (tests/web/): open a room from the lobby, read the page,
tap tiles and buttons. Screenshots are written only when SCMJ_WEB_SHOTS names a folder (docs/web.md's pictures
come from there).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Locator, Page, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TIMEOUT_MS = 20_000  # for any one thing to show on a loaded machine
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL_PHONE: ViewportSize = {"width": 360, "height": 740}
#: The new_page fixture: new_page(viewport=..., **context options) -> a page in a fresh browser context.
NewPage = Callable[..., Page]


def shot(page: Page, name: str) -> None:
    """Save a screenshot when SCMJ_WEB_SHOTS names a folder (for docs/web.md)."""
    folder = os.environ.get("SCMJ_WEB_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


# ------------------------------------------------------------------------------------------- the lobby


def open_room(
    page: Page, *, name: str = "阿明", preset: str = "app", hands: int = 1, seats: tuple[str, ...] = ()
) -> str:
    """Create a room from the lobby form; `seats` are the choices for 下家, 对家, 上家 (default bots). Its code."""
    page.goto("/")
    page.fill("#name", name)
    page.select_option("#preset", preset)
    page.select_option("#hands", str(hands))
    for seat, choice in enumerate(seats, start=1):
        page.select_option(f"#bot-{seat}", choice)
    page.click("[data-act=create]")
    page.wait_for_url("**/?room=*")
    return page.url.rsplit("=", 1)[1]


TABLE = ".table .seat-bottom"
#: 不报: the answer to a 报叫 at the deal (the dealer's own 报叫 comes with his first discard, in play).
DEAL_PASS = '.table.phase-declare [data-act=send][data-action="pass"]'
#: What a page shows, for a failure's message: its screen, heading and connection.
SHOWING = """() => [document.body.dataset.screen, document.querySelector('h2')?.textContent,
    document.querySelector('[data-role=conn]')?.className].join(' | ')"""


def wait_table(page: Page) -> None:
    try:
        page.wait_for_selector(TABLE)
    except PlaywrightTimeoutError:
        raise AssertionError(f"no table after {TIMEOUT_MS / 1000:g} s; the page shows: {showing(page)}") from None


def wait_tables(*pages: Page) -> None:
    """Wait until every page shows the table, the first hand's 报叫 at the deal answered (不报) on a page asked it.

    Without exchange and 定缺 a non-dealer whose dealt hand is ready is asked 报叫 before anyone plays, and the
    seats not asked are shown nothing until it is answered (docs/protocol.md "Who is told when"): at the first
    hand their pages stay in the waiting room, told only that the match began, so one person's table can wait
    for another's answer."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        waiting = [page for page in pages if not page.locator(TABLE).count()]
        if not waiting:
            return
        for page in pages:
            if page.locator(DEAL_PASS).count():
                _tap(page, DEAL_PASS)
        if time.monotonic() > deadline:
            shown = "; ".join(showing(page) for page in waiting)
            raise AssertionError(
                f"no table on {len(waiting)} of {len(pages)} pages after {TIMEOUT_MS / 1000:g} s: {shown}"
            )
        waiting[0].wait_for_timeout(50)


def showing(page: Page) -> str:
    try:
        return str(page.evaluate(SHOWING))
    except Exception as exc:  # the page itself is gone or hung
        return f"(unreadable: {exc})"


# ------------------------------------------------------------------------------------------- the player


def my_tiles(page: Page) -> list[str]:
    """The player's concealed tiles (hand and drawn) as the page draws them."""
    tiles: list[str] = page.eval_on_selector_all(".seat-bottom .tile.mine", "els => els.map(e => e.dataset.tile)")
    return tiles


#: Claim and declare answers, in the order a simple player prefers them.
PREFERRED = ("hu", "pung", "kong", "declare_ready", "pass")


def step(page: Page, prefer: tuple[str, ...] = PREFERRED) -> str | None:
    """Make one decision by taps if the page offers one; what was done, or None when nothing is asked.

    Decides nothing about the rules: it taps the buttons the page shows (only legal answers, the first of
    `prefer` shown) and discards a tile the page marks as a legal discard.
    """
    if page.locator("[data-act=exchange]").count():
        suits = Counter(t[1] for t in my_tiles(page))
        suit = next(s for s, n in suits.most_common() if n >= 3)
        tiles = page.locator(f'.seat-bottom .tile.mine[data-tile$="{suit}"]')
        for i in range(3):
            tap_tile(tiles.nth(i))
        page.click("[data-act=exchange]:not([disabled])")
        return "exchange"
    if page.locator(".act.void-btn.suggested").count():
        return "void" if _tap(page, ".act.void-btn.suggested") else None
    for action in prefer:
        button = f'[data-act=send][data-action="{action}"]'
        if page.locator(button).count():
            return action if _tap(page, button) else None
    legal = page.locator(".seat-bottom .tile.mine.legal")
    if legal.count():
        tile = legal.last
        name = tile.get_attribute("data-tile")
        tap_tile(tile)  # raise it
        page.click("[data-act=discard]:not([disabled])")
        return f"discard {name}"
    return None


#: A tap on a hand tile that slid into its place less than this long ago is ignored (table.js TAP_SETTLE_MS).
TAP_SETTLE_MS = 150


def tap_tile(tile: Locator) -> None:
    """Tap a hand tile as a person would: once it has stood still long enough for a tap to count."""
    moved = tile.evaluate("el => performance.now() - Number(el.dataset.since || 0)")
    if moved < TAP_SETTLE_MS + 10:
        tile.page.wait_for_timeout(TAP_SETTLE_MS + 10 - moved)
    tile.click()


def _tap(page: Page, selector: str) -> bool:
    """Tap the first element ``selector`` finds; False when it went away first. The page redraws when the next
    message comes (a view after others' answers), so a button seen a moment before may be gone by the time it is
    tapped: nothing is asked then, and the caller looks again."""
    try:
        page.locator(selector).first.click(timeout=2000)
    except PlaywrightTimeoutError:
        return False
    return True


def play_until(page: Page, done: Callable[[], bool], limit: float = 60.0) -> list[str]:
    """Tap through decisions until done(); the decisions made. Fails after `limit` seconds."""
    made: list[str] = []
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"not done after {limit} s; decisions: {made}"
        did = step(page)
        if did:
            made.append(did)
        else:
            page.wait_for_timeout(50)
    return made
