"""Widgets shared by the table and the replay screen."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual import events
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
