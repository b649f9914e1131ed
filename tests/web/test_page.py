"""The page in a real browser against a real `scmj serve`: a whole hand by taps, a reload mid-hand, two people
joined by code, a spectator, phone screens. Every check reads what a person would see on the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize

from webpage import (
    PHONE,
    SMALL_PHONE,
    NewPage,
    my_tiles,
    open_room,
    play_until,
    shot,
    step,
    tap_tile,
    wait_table,
    wait_tables,
)

#: The only places a face-up tile may be drawn for someone who does not hold it.
PUBLIC_TILES = ".river .tile, .meld .tile, .win-tile"


def faces_outside_public(page: Page, scope: str) -> list[str]:
    """Tiles drawn face up inside `scope` that are not in a river, a meld or a win (so: concealed tiles)."""
    selector = ", ".join(f"{part.strip()} .tile[data-tile]" for part in scope.split(","))
    found: list[str] = page.eval_on_selector_all(
        selector, f"els => els.filter(e => !e.matches({PUBLIC_TILES!r})).map(e => e.dataset.tile)"
    )
    return found


def signed_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"[+-]?\d+", text)]


def test_a_whole_hand_by_taps_with_three_bots(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    shot(page, "lobby")
    open_room(page, preset="app", hands=1)
    wait_table(page)
    shot(page, "table-start")
    claim_seen = False

    mid_shot = False

    def over() -> bool:
        nonlocal claim_seen, mid_shot
        if not mid_shot and page.locator(".river .tile").count() >= 18:
            mid_shot = True
            shot(page, "table-mid")
        if not claim_seen and page.locator('.act.hu, [data-action="pung"], [data-action="kong"]').count():
            claim_seen = True
            shot(page, "claim")
        return page.locator("[data-role=settlement]").count() > 0

    made = play_until(page, over, limit=75)
    # (No check that a pung made was also seen by over(): a bot's discard can raise the button between over()
    # and the next tap, and step() only taps buttons the page shows.)
    assert made[:2] == ["exchange", "void"], made
    assert any(m.startswith("discard ") for m in made)
    settlement = page.locator("[data-role=settlement]")
    shot(page, "settlement")
    rows = settlement.locator(".result-row")
    assert rows.count() == 4
    deltas = [signed_numbers(rows.nth(i).locator(".result-money b").inner_text())[0] for i in range(4)]
    assert sum(deltas) == 0, deltas
    # every hand is laid open at the end
    for i in range(4):
        assert rows.nth(i).locator("[data-role=result-hand] .tile[data-tile]").count() >= 1
    page.click("[data-act=close-panel]")
    standings = page.locator("[data-role=standings] .ranking li")
    standings.first.wait_for()
    assert standings.count() == 4
    shot(page, "standings")


def test_a_refused_tap_is_explained_and_the_hint_answers(new_page: NewPage) -> None:
    page = new_page()
    open_room(page, preset="app", hands=1)
    page.locator("[data-act=exchange]").wait_for()
    assert step(page) == "exchange"
    page.locator(".act.void-btn").first.wait_for()
    tile = page.locator(".seat-bottom .tile.mine").first
    tap_tile(tile)
    tile.click()  # a discard while the voids are being chosen: sent anyway, refused with the server's words
    toast = page.locator("[data-role=toast]")
    toast.wait_for()
    assert "定缺" in toast.inner_text()
    assert page.locator(".act.void-btn").count() == 3  # nothing changed
    assert step(page) == "void"
    play_until(page, lambda: page.locator(".seat-bottom .tile.mine.legal").count() > 0)
    # What the table shows of play: a discard adds a river tile, a claim of it moves it into a meld (a net gain
    # too), a win on it puts a badge up. Counted together, so a bot's quick pung cannot hide the discard.
    shown = "document.querySelectorAll('.river .tile, .melds .tile, .badge.won').length"
    before = page.evaluate(shown)
    page.click("[data-act=advise]")
    advice = page.locator("[data-role=advice]")
    advice.wait_for()
    assert advice.locator(".recommend").inner_text().strip()
    assert advice.locator(".options tr").count() >= 1
    shot(page, "advice")
    advice.locator("[data-act=send]").click()  # do what it recommends
    page.wait_for_function(f"{shown} > {before} || document.querySelector('[data-role=settlement]') !== null")
    assert page.locator("[data-role=advice]").count() == 0


def test_reload_mid_hand_returns_to_the_same_seat_and_view(new_page: NewPage) -> None:
    page = new_page()
    code = open_room(page, preset="bloody_kong", seats=("efficient", "efficient", "efficient"))
    wait_table(page)
    for _ in range(3):  # a few turns in, then stop on one's own discard turn
        play_until(page, lambda: page.locator(".seat-bottom .tile.mine.legal").count() > 0)
        step(page)
    play_until(page, lambda: page.locator(".seat-bottom .tile.mine.legal").count() > 0)
    before = my_tiles(page)
    river_before = page.locator(".river .tile").count()
    public_before = page.locator(".river .tile, .win-tile").count()
    page.reload()
    page.locator(".seat-bottom .tile.mine.legal").first.wait_for()
    assert page.url.endswith(f"?room={code}")
    assert my_tiles(page) == before
    assert page.locator(".river .tile").count() == river_before
    assert page.locator("[data-role=conn].conn-open").count() == 1
    assert page.locator(".seat-bottom .plate .rel").inner_text() in ("你", "You")
    assert (step(page) or "").startswith("discard ")  # and the game goes on from there
    # The discard lands in a river, or in a win when someone 胡s on it (血战: the tile leaves the river, and if the
    # winner sits just before me the next decision is mine, so the river alone may not grow).
    page.wait_for_function(f"document.querySelectorAll('.river .tile, .win-tile').length > {public_before}")


#: A person's tap on the discard button, all in one task (nothing from the server can come between): what the
#: page shows right after it.
TAP_DISCARD = """() => {
  const button = document.querySelector('[data-act=discard]:not([disabled])');
  button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  button.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}));
  button.click();
  return document.querySelectorAll('.seat-bottom .tile.mine.legal').length;
}"""


def test_a_tapped_discard_shows_as_sent_at_once(new_page: NewPage) -> None:
    # The redraw the tap asks for was held for the press and ran a task later: a look just after the tap (a
    # person's second tap, or a test's next check) still found the old marks.
    page = new_page()
    open_room(page, preset="bloody_kong", seats=("efficient", "efficient", "efficient"))
    wait_table(page)
    play_until(page, lambda: page.locator(".seat-bottom .tile.mine.legal").count() > 0)
    tap_tile(page.locator(".seat-bottom .tile.mine.legal").last)  # raise it
    assert page.evaluate(TAP_DISCARD) == 0


def test_two_people_join_by_code_and_each_sees_only_their_own_tiles(new_page: NewPage) -> None:
    host = new_page()
    code = open_room(host, name="阿明", preset="bloody", seats=("person", "efficient", "efficient"))
    host.locator("[data-role=code]").wait_for()
    assert host.locator("[data-role=code]").inner_text() == code
    assert code in (host.locator("[data-role=link]").input_value())
    friend = new_page()
    friend.goto("/")
    friend.fill("#name", "小红")
    friend.fill("#code", code.lower())
    friend.click("[data-act=join]")
    wait_tables(friend, host)
    # seat 0 (host) sees the friend on the right (下家); the friend sees the host on the left (上家)
    assert "小红" in host.locator(".seat-right .plate").inner_text()
    assert "阿明" in friend.locator(".seat-left .plate").inner_text()
    for _ in range(6):
        for page in (host, friend):
            step(page)
        assert faces_outside_public(host, ".seat-top, .seat-left, .seat-right") == []
        assert faces_outside_public(friend, ".seat-top, .seat-left, .seat-right") == []
        mine, theirs = my_tiles(host), my_tiles(friend)
        assert len(mine) in (13, 14, 11, 12, 10, 8, 7, 5, 4, 2, 1) and len(theirs) > 0
    shot(friend, "friend")


def test_a_friends_tuoguan_shows_at_once_and_a_tap_survives_the_redraw(new_page: NewPage) -> None:
    host = new_page()
    code = open_room(host, preset="bloody", seats=("person", "efficient", "efficient"))
    friend = new_page()
    friend.goto(f"/?room={code}")
    friend.fill("#name", "小红")
    friend.click("[data-act=join]")
    wait_tables(friend, host)
    badge = host.locator(".seat-right .plate .badge.auto")
    friend.click("[data-act=auto]")  # 托管: the friend's seat plays itself
    friend.locator("[data-act=auto].on").wait_for()
    play_until(host, lambda: host.locator(".seat-bottom .tile.mine.legal").count() > 0)
    badge.wait_for()
    # The table waits for the host: no view comes now, and the room's own message must redraw the plates.
    friend.click("[data-act=auto]")
    badge.wait_for(state="detached")
    # A press on a tile, the table redrawn under it (the friend's 托管 again), the release: the tap still counts.
    box = host.locator(".seat-bottom .tile.mine.legal").last.bounding_box()
    assert box is not None
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    friend.click("[data-act=auto]")
    host.wait_for_timeout(700)
    host.mouse.up()
    badge.wait_for()  # the redraw came, after the tap
    assert host.locator(".seat-bottom .tile.mine.raised").count() == 1
    assert host.locator("[data-act=discard]:not([disabled])").count() == 1


def test_a_spectator_sees_no_concealed_tile(new_page: NewPage) -> None:
    player = new_page()
    code = open_room(player, preset="bloody_kong", seats=("efficient", "efficient", "efficient"))
    wait_table(player)
    for _ in range(4):
        play_until(player, lambda: player.locator(".seat-bottom .tile.mine.legal").count() > 0)
        step(player)
    watcher = new_page()
    watcher.goto(f"/?room={code}")
    watcher.click("[data-act=watch]")
    wait_table(watcher)
    watcher.locator(".river .tile").first.wait_for()
    assert watcher.locator(".tile.mine").count() == 0
    assert watcher.locator("[data-act=send], [data-act=discard], [data-act=advise]").count() == 0
    assert faces_outside_public(watcher, "body") == []
    counts = watcher.eval_on_selector_all(".concealed", "els => els.map(e => Number(e.dataset.count))")
    assert len(counts) == 4 and all(n > 0 for n in counts)
    shot(watcher, "spectator")


def fits(page: Page, selector: str, width: int, min_width: int, min_height: int) -> None:
    """Every element of `selector` lies within the screen's width and is big enough to tap."""
    boxes = [page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())]
    assert boxes, f"nothing matches {selector}"
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
        assert box["width"] >= min_width and box["height"] >= min_height, (selector, box)


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_phone_screens_fit_the_hand_and_the_buttons(new_page: NewPage, viewport: ViewportSize) -> None:
    page = new_page(viewport=viewport, is_mobile=True, has_touch=True)
    page.goto("/")
    page.locator("[data-act=create]").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"phone-{viewport['width']}-lobby")
    open_room(page, preset="app", hands=1)
    page.locator("[data-act=exchange]").wait_for()
    width = viewport["width"]
    fits(page, ".seat-bottom .tile.mine", width, 20, 26)
    fits(page, ".actions button", width, 44, 36)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"phone-{width}-exchange")
    assert step(page) == "exchange"
    page.locator(".act.void-btn").first.wait_for()
    fits(page, ".act.void-btn", width, 44, 44)
    fits(page, ".seat-bottom .tile.mine", width, 20, 26)
    play_until(page, lambda: page.locator(".river .tile").count() > 0)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"phone-{width}")
