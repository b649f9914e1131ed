"""The flow around the table in a real browser against a real `scmj serve`: lobby errors where the person looks,
the strongest bot in the lobby, a 结算 true to the hand, refusals that go when the situation changes, the turn
timer for every seat and its 托管, sounds and quick phrases. Every check reads what a person would see."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, ViewportSize

from sichuan_mahjong.game import Game
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.wire import hand_over_message
from webpage import PHONE, NewPage, open_room, play_until, shot, step, tap_tile, wait_table, wait_tables

LANDSCAPE: ViewportSize = {"width": 844, "height": 390}
PHONES = [PHONE, LANDSCAPE]
PHONE_IDS = ["390x844", "844x390"]


def inside(page: Page, target: Locator) -> None:
    """The element is drawn wholly inside the viewport, and nothing covers its middle."""
    box = target.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"], (box, size)
    covered = target.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                   return !(hit && (hit === el || el.contains(hit))); }"""
    )
    assert not covered, "something covers it"


def full_room(server: str) -> str:
    r = httpx.post(f"{server}/api/rooms", json={"hands": 1, "bots": {"1": "random", "2": "random", "3": "random"}})
    assert r.status_code == 201, r.text
    return str(r.json()["room"])


# ------------------------------------------------------------------------------------------------ the lobby


@pytest.mark.parametrize("viewport", PHONES, ids=PHONE_IDS)
@pytest.mark.parametrize("case", ["unknown", "full"])
def test_a_join_error_is_shown_where_the_person_is_looking(
    new_page: NewPage, server: str, viewport: ViewportSize, case: str
) -> None:
    code, words = ("QQQQ", "没有这个房间") if case == "unknown" else (full_room(server), "房间已满")
    page = new_page(viewport=viewport, is_mobile=True, has_touch=True)
    page.goto("/")
    page.fill("#code", code)
    page.locator("[data-act=join]").scroll_into_view_if_needed()
    page.click("[data-act=join]")
    error = page.locator(".error", has_text=words)
    error.wait_for()
    shot(page, f"lobby-error-{case}-{viewport['width']}x{viewport['height']}")
    inside(page, error)


def test_the_lobby_offers_the_master_as_the_strongest_and_keeps_expert_the_default(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    for seat in (1, 2, 3):
        select = page.locator(f"#bot-{seat}")
        assert select.input_value() == "expert"
    options = page.eval_on_selector_all("#bot-1 option", "els => els.map(e => [e.value, e.textContent])")
    bots = [value for value, _ in options if value != "person"]
    assert bots[0] == "master", options  # listed first: the strongest
    assert "大师" in dict(options)["master"]
    page.click("[data-act=lang]")
    assert "master" in page.locator('#bot-1 option[value="master"]').inner_text().lower()
    page.click("[data-act=lang]")
    open_room(page, seats=("master", "random", "random"))
    wait_table(page)
    assert "大师" in page.locator(".seat-right .plate").inner_text()


# ------------------------------------------------------------------------------------------------ 结算


def wall_hand_with_two_wins() -> dict[str, Any]:
    """A real 血战 hand (the app's rules) played to the end of the wall after two wins, one of them 平胡 (0
    fan): its hand_over message as the server sends it."""
    for seed in range(400):
        game = Game(Rules.preset("app"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                hu = [a for a in legal if str(a) == "hu"]
                answers[s] = hu[0] if hu else rng.choice([a for a in legal if str(a) != "hu"] or legal)
            game.step(answers)
        result = game.result
        if result.reason == "wall" and len(result.wins) == 2 and any(w.score.fan == 0 for w in result.wins):
            room = {
                "code": "TEST",
                "hand_no": 1,
                "hands": 4,
                "totals": list(result.deltas),
                "players": [{"name": "阿明", "bot": None}] + [{"name": "bot", "bot": "expert"}] * 3,
            }
            return hand_over_message(game, 1, room)
    raise AssertionError("no such hand in 400 seeds")


SHOW_SETTLEMENT = """async ([message, lang]) => {
  const { translator } = await import('/i18n.js');
  const { handOverHTML } = await import('/panels.js');
  const t = translator(lang);
  const html = handOverHTML(t, { me: 0, room: message.room, handOver: message, msg: null });
  document.getElementById('app').insertAdjacentHTML('beforeend', html);
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_settlement_is_true_to_the_hand(new_page: NewPage, lang: str) -> None:
    message = wall_hand_with_two_wins()
    result = message["result"]
    winners = {w["seat"] for w in result["wins"]}
    page = new_page(viewport=LANDSCAPE, is_mobile=True, has_touch=True)
    page.goto("/")
    page.locator("[data-act=create]").wait_for()
    page.evaluate(SHOW_SETTLEMENT, [message, lang])
    panel = page.locator("[data-role=settlement]")
    panel.wait_for()
    shot(page, f"settlement-wall-{lang}")
    heading = panel.locator("h2").inner_text()
    assert "流局" not in heading and "no win" not in heading, heading  # two people won: not a drawn hand
    for seat in range(4):
        who = panel.locator(f'.result-row[data-seat="{seat}"] .result-who').inner_text()
        marks = re.findall(r"有叫|无叫|not ready|ready", who)
        if seat in winners:
            assert marks == [], f"winner {seat} marked {marks}"  # no longer playing when the wall ran out
        else:
            assert len(marks) == 1, who
    wins = panel.locator(".result-wins").all_inner_texts()
    text = " ".join(wins)
    assert "0番" not in text and "0 fan" not in text, text
    assert ("1底" if lang == "zh" else "1× base") in text, text  # 平胡 pays one base
    # every amount is its own column, apart from the names
    for row in panel.locator(".payments li").all():
        amount = row.locator(".amount")
        assert re.fullmatch(r"\d+", amount.inner_text()), row.inner_text()
        a, payee = amount.bounding_box(), row.locator(".payee").bounding_box()
        assert a is not None and payee is not None
        assert payee["x"] + payee["width"] + 4 <= a["x"], (payee, a)
    # 下一局 within reach at 844x390 without scrolling
    inside(page, panel.locator("[data-act=close-panel]"))


def test_a_missed_settlement_goes_back_to_the_table(new_page: NewPage) -> None:
    message = {**wall_hand_with_two_wins(), "missed": True}
    page = new_page(viewport=LANDSCAPE)
    page.goto("/")
    page.locator("[data-act=create]").wait_for()
    page.evaluate(SHOW_SETTLEMENT, [message, "zh"])
    assert page.locator("[data-role=missed]").inner_text() == "你不在时这一局打完了"
    assert page.locator("[data-role=settlement] [data-act=close-panel]").inner_text() == "回到牌桌"


# ------------------------------------------------------------------------------------------------ refusals


def test_a_refusal_goes_when_the_situation_changes(new_page: NewPage) -> None:
    page = new_page()
    open_room(page, preset="app", hands=1)
    page.locator("[data-act=exchange]").wait_for()
    assert step(page) == "exchange"
    page.locator(".act.void-btn").first.wait_for()
    tile = page.locator(".seat-bottom .tile.mine").first
    tap_tile(tile)  # once the hand the exchange redrew stands still (table.js ignores taps on a tile just slid in)
    tile.click()  # a discard while the voids are chosen: refused with the server's words
    toast = page.locator("[data-role=toast]")
    toast.wait_for()
    assert "定缺" in toast.inner_text() and not re.search(r"\(\d\)|[1-9][mps]\b", toast.inner_text())
    assert step(page) == "void"
    # the bots choose at once: the next view comes, and the refusal (about choosing a void) is gone with it
    page.locator(".act.void-btn").first.wait_for(state="detached")
    toast.wait_for(state="detached", timeout=1500)


# ------------------------------------------------------------------------------------------------ the timer


#: Keeps the text of every toast the page shows (a note of a few seconds may come and go between two looks).
KEEP_TOASTS = """
window.__toasts = [];
new MutationObserver(() => {
  const toast = document.querySelector('[data-role=toast]');
  const seen = window.__toasts;
  if (toast && seen[seen.length - 1] !== toast.textContent) seen.push(toast.textContent);
}).observe(document, {childList: true, subtree: true});
"""


def seat_page(new_page: NewPage, code: str, entry: dict[str, Any], lang: str = "zh") -> Page:
    """A page that holds a seat or a spectator's token (as after creating or joining) and opens the room."""
    page = new_page()
    page.add_init_script(KEEP_TOASTS)
    page.goto("/")
    page.evaluate("entry => localStorage.setItem('scmj.seats', JSON.stringify(entry))", {code: entry})
    page.evaluate("lang => localStorage.setItem('scmj.lang', lang)", lang)
    page.goto(f"/?room={code}")
    return page


def test_the_timer_counts_down_for_everyone_and_two_timeouts_mean_tuoguan(new_page: NewPage, server: str) -> None:
    lobby = new_page()
    lobby.goto("/")
    lobby.locator("#timer").wait_for()  # the lobby is drawn once the catalogues and presets are in
    timers = lobby.eval_on_selector_all("#timer option", "els => els.map(e => e.value)")
    assert "" in timers and len(timers) > 2  # the lobby offers a turn timer
    r = httpx.post(
        f"{server}/api/rooms",
        json={"hands": 1, "name": "慢", "timer": 3, "bots": {"1": "random", "2": "random", "3": "random"}},
    )
    assert r.status_code == 201, r.text
    created = r.json()
    code = created["room"]
    host = seat_page(new_page, code, {"token": created["token"], "seat": 0, "role": "player"}, lang="en")
    watch = httpx.post(f"{server}/api/rooms/{code}/spectators", json={}).json()
    watcher = seat_page(new_page, code, {"token": watch["token"], "seat": None, "role": "spectator"})
    wait_tables(host, watcher)
    for page in (host, watcher):  # the countdown, for a seat and for a spectator
        clock = page.locator(".compass .countdown")
        clock.wait_for()
        assert re.fullmatch(r"\d+", clock.inner_text()), clock.inner_text()
    # the host never taps: the exchange and the void time out, and the seat is put in 托管, said on screen
    # everyone is told, in his own language (a note of a few seconds for the others)
    notice = host.locator("[data-role=timed-out]")
    notice.wait_for(timeout=20_000)
    watcher.wait_for_function("window.__toasts.some(t => t.includes('超时两次'))")
    assert "twice" in notice.inner_text()
    watcher.locator(".seat-bottom .badge.auto").wait_for()
    shot(host, "timed-out")
    host.click("[data-role=timed-out] [data-act=back]")  # I'm back
    notice.wait_for(state="detached")
    watcher.locator(".seat-bottom .badge.auto").wait_for(state="detached")


# ------------------------------------------------------------------------------------------------ feel

COUNT_SOUNDS = """
window.__sounds = 0;
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__sounds++; return make.call(this); };
"""


def test_sounds_are_off_by_a_switch_and_remembered(new_page: NewPage) -> None:
    page = new_page()
    page.add_init_script(COUNT_SOUNDS)
    open_room(page, preset="bloody_kong", seats=("random", "random", "random"))
    wait_table(page)
    switch = page.locator(".topbar [data-act=sound]")
    assert switch.get_attribute("aria-pressed") == "false"
    play_until(page, lambda: page.locator(".river .tile").count() >= 2)
    assert page.evaluate("window.__sounds") == 0  # off: silent
    switch.click()
    assert page.locator(".topbar [data-act=sound]").get_attribute("aria-pressed") == "true"
    rivers = page.locator(".river .tile").count()
    play_until(page, lambda: page.locator(".river .tile").count() >= rivers + 2)
    assert page.evaluate("window.__sounds") > 0  # on: discards click
    page.reload()
    wait_table(page)
    assert page.locator(".topbar [data-act=sound]").get_attribute("aria-pressed") == "true"  # remembered
    page.click(".topbar [data-act=sound]")
    assert page.evaluate("localStorage.getItem('scmj.sound')") == "off"


def test_quick_phrases_reach_the_friend_paced_and_not_from_spectators(new_page: NewPage) -> None:
    host = new_page()
    code = open_room(host, preset="bloody", seats=("person", "random", "random"))
    friend = new_page(locale="en-US")
    friend.goto(f"/?room={code}")
    friend.fill("#name", "小红")
    friend.click("[data-act=join]")
    wait_tables(friend, host)
    host.click(".topbar [data-act=phrases]")
    host.click('[data-act=say][data-phrase="hurry"]')
    bubble = friend.locator(".seat-left .plate .bubble", has_text="快点吧")  # the host sits on the friend's left
    bubble.wait_for()
    friend.click("[data-act=lang]")
    friend.locator(".seat-left .plate .bubble", has_text="Hurry up!").wait_for()  # in the reader's language
    host.click(".topbar [data-act=phrases]")
    host.click('[data-act=say][data-phrase="thumbs"]')  # within 2 s: refused
    assert "两秒" in host.locator("[data-role=toast]").inner_text()
    shot(friend, "phrase")
    watcher = new_page()
    watcher.goto(f"/?room={code}")
    watcher.click("[data-act=watch]")
    wait_table(watcher)
    assert watcher.locator("[data-act=phrases]").count() == 0
    assert json.loads(watcher.evaluate("JSON.stringify(localStorage.getItem('scmj.sound'))")) is None
