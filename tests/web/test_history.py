"""After the hand in a real browser (issue 39): a one-hand match against bots, then 战绩 lists it, the replay
steps back and forth through the hand as this seat saw it (drawn by the live table's code), and 复盘 marks the
decisions. "Forget me" empties the list. Screenshots for docs/web.md when SCMJ_WEB_SHOTS is set."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize

from webpage import LAPTOP, NewPage, open_room, play_until, shot, wait_table

LANDSCAPE: ViewportSize = {"width": 844, "height": 390}
PORTRAIT: ViewportSize = {"width": 390, "height": 844}
#: The lobby's default bot, as the page names it (its tier in words, never "expert").
EXPERT = {"zh": "电脑·高手", "en": "Bot · expert"}
#: A tile or an answer in the protocol's notation (3m, discard 2s, exchange 119m, concealed_kong): the page says
#: them in words (打 三万 / discard 3 Crak, 暗杠 / concealed kong).
NOTATION = re.compile(r"\b[1-9]+[mps]\b|\b[a-z]+_[a-z]+\b")


def in_words(text: str) -> str:
    assert text.strip() and not NOTATION.search(text), text
    return text


def play_one_hand(page: Page) -> None:
    open_room(page, preset="app", hands=1)
    wait_table(page)
    play_until(page, lambda: page.locator("[data-role=settlement]").count() > 0, limit=90)


def hidden_tiles_of_others(page: Page) -> int:
    """Face-up tiles in the other seats' concealed hands (the live table draws them as backs)."""
    return page.locator(".seat-right .hand .tile[data-tile], .seat-top .hand .tile[data-tile], "
                        ".seat-left .hand .tile[data-tile]").count()  # fmt: skip


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_history_replay_and_review(new_page: NewPage, lang: str) -> None:
    page = new_page(viewport=LAPTOP, locale="zh-CN" if lang == "zh" else "en-US")
    page.goto("/")
    page.evaluate(f"localStorage.setItem('scmj.lang', '{lang}')")
    play_one_hand(page)
    page.goto("/")
    page.click("[data-act=history]")
    match = page.locator(".history .match")
    match.first.wait_for()
    assert match.count() == 1
    assert page.locator(".history .hand-row").count() == 1
    played = page.locator("[data-role=answer]")  # what I answered at a step, in words, where the buttons were
    assert match.first.locator(".others").inner_text().count(EXPERT[lang]) == 3
    shot(page, f"history-{lang}-1366")
    for size, name in ((LANDSCAPE, "844"), (PORTRAIT, "390")):
        page.set_viewport_size(size)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), name
        shot(page, f"history-{lang}-{name}")
    page.set_viewport_size(LAPTOP)

    page.click("[data-act=replay]")
    page.locator(".replay .table").wait_for()
    total = int(page.locator("[data-role=stepno]").inner_text().split("/")[1])
    assert total > 10
    for _ in range(5):
        page.click('[data-act=step][data-by="1"]')
        if played.count():
            in_words(played.inner_text())
    assert page.locator("[data-role=stepno]").inner_text() == f"6/{total}"
    assert page.locator(".replay .seat-bottom .tile.mine").count() >= 7  # my own tiles, face up
    assert hidden_tiles_of_others(page) == 0
    assert page.locator(".replay .seat-top .name").inner_text() == EXPERT[lang]
    page.click('[data-act=step][data-by="-1"]')
    page.click('[data-act=step][data-by="-1"]')
    assert page.locator("[data-role=stepno]").inner_text() == f"4/{total}"
    page.locator("[data-role=slider]").fill(str(total - 1))
    page.locator("[data-role=end]").wait_for()
    assert page.locator("[data-role=end] li").count() == 4
    page.locator("[data-role=slider]").fill("1")
    page.locator("[data-act=speed]").click()
    assert page.locator("[data-act=speed]").inner_text() == "2×"

    page.click("[data-act=review]")
    page.locator("[data-role=review-wait], [data-role=review-line]").first.wait_for()
    line = page.locator("[data-role=review-line]")
    line.wait_for(timeout=240_000)
    assert ("与大师一致" if lang == "zh" else "Agreed with the master") in line.inner_text()
    assert page.locator(".replay-bar .mark").count() > 0
    # Mid-hand, the replay as the seat saw it.
    page.locator("[data-role=slider]").fill(str(total // 2))
    assert hidden_tiles_of_others(page) == 0
    shot(page, f"replay-{lang}-1366")
    page.set_viewport_size(LANDSCAPE)
    shot(page, f"replay-{lang}-844")
    for size in (LANDSCAPE, PORTRAIT):  # every control of the bar whole on the screen, on one line
        page.set_viewport_size(size)
        boxes = [b.bounding_box() for b in page.locator(".replay-bar button, .replay-bar input").all()]
        assert all(b and b["x"] >= 0 and b["x"] + b["width"] <= size["width"] + 1 for b in boxes), (size, boxes)
        assert len({round(b["y"] + b["height"] / 2) for b in boxes if b}) == 1, boxes
    shot(page, f"replay-{lang}-390")
    page.set_viewport_size(LAPTOP)
    # Open one of my decisions (a lost one if there is one): the options, their values and the master's answer.
    page.locator("[data-role=slider]").fill("0")
    marked: dict[int, str] = {}
    for i in range(total):
        chip = page.locator("[data-role=mark]")
        if chip.count():
            marked[i] = chip.get_attribute("class") or ""
            if "mark-costly" in marked[i] or "mark-small" in marked[i]:
                break
        if i == total - 1:
            break
        page.click('[data-act=step][data-by="1"]')
    assert marked
    lost = [i for i, c in marked.items() if "mark-costly" in c or "mark-small" in c]
    other = [i for i, c in marked.items() if "mark-agreed" not in c]
    page.locator("[data-role=slider]").fill(str((lost or other or list(marked))[0]))
    chip = page.locator(".seat-bottom .actions [data-role=mark]")  # in the table's actions area
    assert chip.count() == 1 and page.locator(".seat-bottom .actions [data-role=answer]").count() == 1
    in_words(played.inner_text())
    chip.click()
    decision = page.locator("[data-role=decision]")
    decision.wait_for()
    assert decision.locator("tbody tr").count() >= 1
    for cell in decision.locator("tbody tr td:first-child").all():
        in_words(cell.inner_text())
    in_words(decision.locator("p b").first.inner_text())  # the master's answer
    best = decision.locator("tr.best td:first-child").inner_text()  # the best in play-outs is named above the table
    assert best in decision.locator("p").first.inner_text(), (best, decision.locator("p").first.inner_text())
    shot(page, f"review-{lang}-1366")
    page.set_viewport_size(LANDSCAPE)
    shot(page, f"review-{lang}-844")
    page.set_viewport_size(PORTRAIT)
    shot(page, f"review-{lang}-390")
    page.set_viewport_size(LAPTOP)

    page.click("[data-act=history]")
    page.locator(".history .match").first.wait_for()
    page.on("dialog", lambda d: d.accept())
    page.click("[data-act=forget]")
    page.locator("[data-role=empty]").wait_for()
