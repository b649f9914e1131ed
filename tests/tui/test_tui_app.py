"""The terminal table driven by Textual's headless pilot: whole hands from keystrokes, the screen checked.

Tests are plain functions running the app with ``asyncio.run`` (no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Input, Static

from sichuan_mahjong.game import ActionKind
from sichuan_mahjong.record import load_hand
from sichuan_mahjong.tui.app import HandOverScreen, MahjongApp, SettingsScreen, TableScreen
from sichuan_mahjong.tui.settings import PlaySettings
from sichuan_mahjong.tui.text import payment_reason


def screen_text(app: MahjongApp) -> str:
    """Every text widget of the screen on top, in order: what a person reads."""
    lines = []
    for widget in app.screen.query(Static):
        content = widget.content
        lines.append(content.plain if isinstance(content, Text) else str(content))
    return "\n".join(lines)


def widget_text(app: MahjongApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def keys_for_turn(pilot: Pilot[None], table: TableScreen) -> None:
    """Answer what the table asks with the keys a person would press: hu when possible, else pass on claims,
    else discard the tile under the cursor (the drawn one), moving left when the rules refuse it."""
    legal = table.table.legal
    kinds = {a.kind for a in legal}
    view = table.table.view()
    if ActionKind.HU in kinds:
        await pilot.press("h")
    elif view.phase == "exchange":
        counts = Counter(t.suit for t in view.tiles)
        suit = max((s for s in counts if counts[s] >= 3), key=lambda s: (-counts[s], s))
        positions = [i for i, t in enumerate(view.tiles) if t.suit == suit][:3]
        await pilot.press("home")
        at = 0
        for p in positions:
            await pilot.press(*["right"] * (p - at), "space")
            at = p
        await pilot.press("enter")
    elif view.phase == "void":
        counts = Counter(t.suit for t in view.tiles)
        await pilot.press(min("mps", key=lambda s: (counts[s], s)))
    elif ActionKind.PASS in kinds:
        await pilot.press("x")
    elif ActionKind.DISCARD in kinds:
        before = len(table.table.game.events)
        await pilot.press("enter")
        for _ in range(14):
            if len(table.table.game.events) != before:
                break
            await pilot.press("left", "enter")
    await pilot.pause()


async def play_hand_by_keys(pilot: Pilot[None], app: MahjongApp, limit: int = 600) -> TableScreen:
    """Press keys until the end-of-hand screen shows; returns the table screen."""
    table = app.table_screen
    for _ in range(limit):
        if isinstance(app.screen, HandOverScreen):
            return table
        if table.table.legal:
            await keys_for_turn(pilot, table)
        else:
            await pilot.pause(0.01)
    raise AssertionError("the hand did not end")


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(coro)


def settings(tmp_path: Path, **changes: Any) -> PlaySettings:
    base = PlaySettings(seed=1, delay=0, lang="en", hands=2, records=tmp_path)
    return base.replace(**changes)


SIZE = (110, 36)


def test_a_whole_hand_from_keystrokes(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert "Hand 1/2" in text and "seed 1" in text and "Your turn" in text
            table = await play_hand_by_keys(pilot, app)
            game = table.table.game
            assert game.is_over
            over = screen_text(app)
            result = game.result
            assert "Settlement" in over and "Match totals" in over
            for win in result.wins:
                assert win.score.describe("en") in over
            assert over.count(" → ") == len(result.payments)
            for p in result.payments:
                assert payment_reason(p.reason, "en") in over
            if result.reason == "wall":
                assert "Ready check" in over
            saved = sorted(tmp_path.glob("*-hand1.jsonl"))
            assert len(saved) == 1 and str(saved[0]) in over
            assert [e.to_dict() for e in load_hand(saved[0]).events] == [e.to_dict() for e in game.events]
            next_dealer = result.next_dealer
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert table.table.number == 2 and table.table.game.dealer == next_dealer
            assert "Hand 2/2" in widget_text(app, "#status")
            assert table.table.totals_before == tuple(result.deltas)
            await pilot.press("q")
        assert app.return_code in (None, 0)

    run(go())


def test_same_seed_deals_the_same_hand(tmp_path: Path) -> None:
    hands = []

    async def go() -> None:
        app = MahjongApp(settings(tmp_path, records=None))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            hands.append(widget_text(app, "#seat-0") + str(app.table_screen.table.view().tiles))
            await pilot.press("q")

    run(go())
    run(go())
    assert hands[0] == hands[1]


def test_bad_keys_and_illegal_choices_change_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            assert table.table.legal, "seed 1 makes the player the dealer, on turn"
            before = [e.to_dict() for e in table.table.game.events]
            await pilot.press("z")
            assert "does nothing" in widget_text(app, "#message")
            await pilot.press("p")
            assert "cannot pung" in widget_text(app, "#message")
            await pilot.press("x")
            assert "cannot pass" in widget_text(app, "#message")
            await pilot.press("h")
            assert "cannot hu" in widget_text(app, "#message")
            await pilot.press("space")
            assert "does nothing" in widget_text(app, "#message")
            held = {str(t) for t in table.table.view().tiles}
            missing = next(f"{r}{s}" for s in "mps" for r in range(1, 10) if f"{r}{s}" not in held)
            await pilot.press(missing[0], missing[1])
            assert f"You hold no {missing}" in widget_text(app, "#message")
            await pilot.press("f5", "ctrl+x", "tab", "a")  # a: the hint screen on a discard turn
            assert "Discard advice" in screen_text(app) and "Recommendation" in screen_text(app)
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)
            assert [e.to_dict() for e in table.table.game.events] == before
            # the rules refuse a discard: a declared void must go first (refused by the engine, shown on screen)
            await pilot.press("escape")
            assert widget_text(app, "#message") == ""
            await pilot.press("q")

    run(go())


def test_engine_refusal_is_shown(tmp_path: Path) -> None:
    """With 定缺 on, discarding a tile outside the void while holding it is refused with the engine's reason."""

    async def go() -> None:
        app = MahjongApp(settings(tmp_path, preset="app"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            for _ in range(200):
                view = table.table.view()
                if view.phase == "play" and any(a.kind is ActionKind.DISCARD for a in table.table.legal):
                    break
                await keys_for_turn(pilot, table)
            view = table.table.view()
            void = view.voids[0]
            assert void is not None
            tiles = view.tiles
            if any(t.suit_index == void for t in tiles):
                other = next(i for i, t in enumerate(tiles) if t.suit_index != void)
                before = len(table.table.game.events)
                await pilot.press("home", *["right"] * other, "enter")
                assert "You cannot discard" in widget_text(app, "#message")
                assert len(table.table.game.events) == before
            await pilot.press("q")

    run(go())


def test_app_preset_exchange_and_void_by_keys(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path, preset="app", hands=1))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Exchange three" in widget_text(app, "#prompt")
            await pilot.press("enter")  # nothing picked yet: refused
            assert "Pick three tiles of one suit" in widget_text(app, "#message")
            table = await play_hand_by_keys(pilot, app)
            events = [e.type for e in table.table.game.events]
            assert "exchange" in events and "voids" in events
            assert "The match is over" in screen_text(app)
            await pilot.press("q")

    run(go())


def test_timer_passes_a_claim(tmp_path: Path) -> None:
    """Seed 11 offers the player a claim on the first discard; with a timer set it passes by itself."""

    async def go() -> None:
        app = MahjongApp(settings(tmp_path, seed=11, timer=0.3))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            for _ in range(100):
                if table.table.view().phase in ("claim", "rob") and table.table.legal:
                    break
                await pilot.pause(0.02)
            assert "auto-pass in" in widget_text(app, "#prompt")
            at = len(table.table.game.events)
            for _ in range(200):
                await pilot.pause(0.05)
                if len(table.table.game.events) != at:
                    break
            answers = [e.data["action"] for e in table.table.game.events[at:] if e.type == "act" and e.seat == 0]
            assert answers[:1] == ["pass"]
            await pilot.press("q")

    run(go())


def test_no_timer_waits(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            at = len(app.table_screen.table.game.events)
            await pilot.pause(0.3)
            assert len(app.table_screen.table.game.events) == at
            await pilot.press("q")

    run(go())


def test_mouse_chooses_and_discards(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            tile = table.table.view().tiles[0]
            await pilot.click("#tile-0")
            assert table.cursor == 0
            await pilot.click("#tile-0")
            await pilot.pause()
            assert table.table.game.view(0).discards[0][:1] == (tile,)
            await pilot.press("q")

    run(go())


def test_settings_screen_starts_a_new_match(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("o")
            assert isinstance(app.screen, SettingsScreen)
            app.screen.query_one("#seed", Input).value = "5"
            app.screen.query_one("#hands", Input).value = "3"
            await pilot.click("#apply")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert app.table_screen.table.settings.seed == 5
            assert "Hand 1/3" in widget_text(app, "#status") and "seed 5" in widget_text(app, "#status")
            await pilot.press("o")
            app.screen.query_one("#hands", Input).value = "zero"
            await pilot.click("#apply")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            assert "not a number" in widget_text(app, "#settings-error")
            await pilot.press("escape")
            await pilot.press("l")  # language: display only, the match goes on
            assert "第 1/3 局" in widget_text(app, "#status")
            await pilot.press("t")
            assert app.table_screen.table.settings.tiles == "zh"
            await pilot.press("question_mark")
            assert "报叫" in screen_text(app)
            await pilot.press("escape", "q")

    run(go())
