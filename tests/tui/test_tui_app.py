"""The terminal table driven by Textual's headless pilot: whole hands from keystrokes, the screen checked.

Tests are plain functions running the app with ``asyncio.run`` (no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.text import Text
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import Action, ActionKind, Observation
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


def widget_text(app: MahjongApp, selector: str, screen: Screen[Any] | None = None) -> str:
    """One widget's text, on the screen on top unless another is given."""
    content = (screen or app.screen).query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def keys_for(action: Action, view: Observation) -> list[str]:
    """The keys a person presses for ``action``: a tile is typed (``5p``) to put the cursor on it."""
    kind = action.kind
    simple = {ActionKind.HU: "h", ActionKind.PUNG: "p", ActionKind.KONG: "k", ActionKind.PASS: "x"}
    if kind in simple:
        return [simple[kind]]
    if kind is ActionKind.DECLARE_READY:
        return ["r"]
    if kind is ActionKind.VOID:
        return ["mps"[action.suit_index]]
    if action.tile is not None:
        typed = [str(action.tile.rank), action.tile.suit]
        return [*typed, "enter" if kind is ActionKind.DISCARD else "k"]
    assert kind is ActionKind.EXCHANGE
    keys, picked, at = ["home"], set(), 0
    for t in action.exchange:
        spot = next(i for i, tile in enumerate(view.tiles) if tile.index == t and i not in picked)
        picked.add(spot)
        keys += ["right" if spot > at else "left"] * abs(spot - at) + ["space"]
        at = spot
    return [*keys, "enter"]


class Player:
    """Seat 0 played from the keyboard: an expert bot decides, the keys say it."""

    def __init__(self, seed: int) -> None:
        self.bot = make_agent("expert", seed=seed)
        self.chosen: list[Action] = []

    async def turn(self, pilot: Pilot[None], table: TableScreen) -> None:
        view, legal = table.table.view(), table.table.legal
        action = self.bot.act(view, legal)
        before = len(table.table.game.events)
        await pilot.press(*keys_for(action, view))
        await pilot.pause()
        assert len(table.table.game.events) > before, f"{action} by {keys_for(action, view)}: {table.message}"
        self.chosen.append(action)


async def keys_for_turn(pilot: Pilot[None], table: TableScreen) -> None:
    await Player(table.table.settings.seed).turn(pilot, table)


async def play_hand_by_keys(
    pilot: Pilot[None], app: MahjongApp, player: Player | None = None, limit: int = 600
) -> TableScreen:
    """Press keys until the end-of-hand screen shows; returns the table screen."""
    table = app.table_screen
    player = player or Player(table.table.settings.seed)
    for _ in range(limit):
        if isinstance(app.screen, HandOverScreen):
            return table
        if table.table.legal:
            await player.turn(pilot, table)
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


@pytest.mark.parametrize(
    ("preset", "seed", "delay", "expected"),
    [
        ("seed", 3, 0.002, ["pung", "pung", "hu"]),  # seeds found by letting the expert bot play seat 0
        ("app", 4, 0, ["exchange", "void", "kong", "pung", "hu"]),
        ("app", 20, 0, ["exchange", "void", "pung", "pung", "pung", "added_kong", "hu"]),
    ],
)
def test_claims_and_kongs_by_keys_show_on_screen(
    tmp_path: Path, preset: str, seed: int, delay: float, expected: list[str]
) -> None:
    """Also, with a delay, the bots move on a timer between the player's turns."""

    async def go() -> None:
        app = MahjongApp(settings(tmp_path, preset=preset, seed=seed, records=None, hands=1, delay=delay))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            player = Player(seed)
            for _ in range(600):
                if isinstance(app.screen, HandOverScreen):
                    break
                if not table.table.legal:
                    await pilot.pause(0.01)
                    continue
                await player.turn(pilot, table)
                action = player.chosen[-1]
                me = widget_text(app, "#seat-0", table)
                tile = table.table.game.events_for(0)
                if action.kind is ActionKind.PUNG:
                    claimed = next(e for e in reversed(tile) if e.type == "pung").data["tile"]
                    assert f"pung {claimed} {claimed} {claimed}" in me
                elif action.kind is ActionKind.KONG:
                    claimed = next(e for e in reversed(tile) if e.type == "kong").data["tile"]
                    assert f"kong {' '.join([claimed] * 4)}" in me
                elif action.kind is ActionKind.ADDED_KONG:
                    assert f"added kong {' '.join([str(action.tile)] * 4)}" in me
                elif action.kind is ActionKind.HU:
                    assert "won on" in me and any(line.startswith("You win") for line in table.log_lines)
                elif action.kind is ActionKind.VOID:
                    assert "void" in me
            kinds = [a.kind.value for a in player.chosen if a.kind not in (ActionKind.DISCARD, ActionKind.PASS)]
            assert kinds == expected
            assert isinstance(app.screen, HandOverScreen) and "The match is over" in screen_text(app)
            await pilot.press("q")

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
            assert "There is no discard to pung" in widget_text(app, "#message")
            await pilot.press("x")
            assert "nothing to pass" in widget_text(app, "#message")
            await pilot.press("h")
            said = widget_text(app, "#message")
            assert said.startswith(("Your tiles do not make a winning hand", "You hold all three suits")), said
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
                assert "Tiles of your void suit" in widget_text(app, "#message")
                assert len(table.table.game.events) == before
            await pilot.press("q")

    run(go())


def test_exchange_needs_three_of_one_suit(tmp_path: Path) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path, preset="app"))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            table = app.table_screen
            assert "Exchange three" in widget_text(app, "#prompt")
            await pilot.press("enter")  # nothing picked yet
            assert "Pick three tiles of one suit" in widget_text(app, "#message")
            suits = [t.suit for t in table.table.view().tiles]
            two_suits = [suits.index(s) for s in dict.fromkeys(suits)][:2]
            await pilot.press("home", *["right"] * two_suits[0], "space", "home", *["right"] * two_suits[1], "space")
            await pilot.press("enter")
            assert "Pick three tiles of one suit" in widget_text(app, "#message")
            assert table.table.view().phase == "exchange" and len(table.table.game.events) == 1
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


@pytest.mark.parametrize(("size", "tiles", "flat"), [((80, 24), "zh", True), ((80, 24), "compact", False)])
def test_a_narrow_terminal_gets_flat_tiles(tmp_path: Path, size: tuple[int, int], tiles: str, flat: bool) -> None:
    async def go() -> None:
        app = MahjongApp(settings(tmp_path, tiles=tiles, records=None))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            row = app.screen.query_one("#hand-row")
            assert row.has_class("-flat") is flat
            last = app.screen.query_one("#tile-13")
            assert last.region.right <= size[0]  # the drawn tile is on screen
            await pilot.press("q")

    run(go())
