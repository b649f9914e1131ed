"""Widgets shared by the table and the replay screen."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual import events
from textual.containers import ScrollableContainer
from textual.widgets import Static


@runtime_checkable
class KeyScreen(Protocol):
    """A screen that takes its keys through one method, so a click can be the same as a key."""

    def press_key(self, key: str) -> None: ...


class KeyChip(Static):
    """A clickable label standing for one key: a click presses that key on the screen it sits on."""

    def __init__(self, key: str, chip_id: str) -> None:
        super().__init__("", id=chip_id, markup=False)
        self.key = key

    def on_click(self, event: events.Click) -> None:
        event.stop()
        screen = self.screen
        if isinstance(screen, KeyScreen):
            screen.press_key(self.key)


class TileView(Static):
    """One of the player's tiles; a click puts the cursor on it, a click on the cursor's tile plays it."""

    DEFAULT_CSS = """
    TileView {
        width: auto;
        height: 3;
        border: round $panel-lighten-2;
        padding: 0 0;
        margin: 0 0;
    }
    TileView.-cursor { border: heavy $accent; background: $accent 30%; text-style: bold; }
    TileView.-picked { border: double $warning; background: $warning 40%; }
    TileView.-received { border: round $success; color: $success; }
    TileView.-drawn { margin: 0 0 0 2; }
    TileView.-hidden { display: none; }
    """

    def __init__(self, position: int) -> None:
        super().__init__("", id=f"tile-{position}", markup=False)
        self.position = position

    def on_click(self, event: events.Click) -> None:
        event.stop()
        click = getattr(self.screen, "click_tile", None)
        if callable(click):
            click(self.position)


class Chip(KeyChip):
    """A clickable action label (``h 胡``); a click is the same as its key."""

    DEFAULT_CSS = """
    Chip { width: auto; height: 1; padding: 0 1; margin: 0 1 0 0; background: $boost; color: $text-muted; }
    Chip.-legal { background: $success 60%; color: $text; text-style: bold; }
    """


def scroll_by_key(box: ScrollableContainer, key: str) -> bool:
    """↑/↓, PageUp/PageDown, Home/End scroll ``box``; True when ``key`` was one of them."""
    moves = {
        "up": box.scroll_up,
        "down": box.scroll_down,
        "pageup": box.scroll_page_up,
        "pagedown": box.scroll_page_down,
        "home": box.scroll_home,
        "end": box.scroll_end,
    }
    move = moves.get(key)
    if move is None:
        return False
    move()
    return True
