"""Quick phrases between the seats of a room (快点吧 / 不好意思 / 👍 …): a fixed list sent as an id, never free
text, at most one every :data:`INTERVAL` seconds per seat; spectators cannot send them (the room refuses).

The words live in the page's catalogues (``phrase_<id>``), so each person reads them in his own language.

>>> said = Phrases(clock=iter([0.0, 1.0, 2.5]).__next__)
>>> said.say(1, "hurry")
{'type': 'said', 'seat': 1, 'phrase': 'hurry'}
>>> said.say(1, "thanks")
Traceback (most recent call last):
...
sichuan_mahjong.server.phrases.TooSoonError: one phrase every 2 s: wait 1.0 s
>>> said.say(1, "thanks")["phrase"]
'thanks'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

__all__ = ["INTERVAL", "PHRASES", "Phrases", "TooSoonError"]

#: The phrases and reactions a seat may send, by id (the page's catalogue holds their words).
PHRASES: Final = ("hurry", "sorry", "nice", "thanks", "again", "thumbs", "laugh", "wow")
#: Seconds between two phrases of one seat.
INTERVAL: Final = 2.0


class TooSoonError(ValueError):
    """A seat sent a phrase sooner than :data:`INTERVAL` after its last one."""


class Phrases:
    """When each seat last said something; :meth:`say` checks the pace and builds the ``said`` message."""

    def __init__(self, interval: float = INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self.last: dict[int, float] = {}

    def say(self, seat: int, phrase: str) -> dict[str, Any]:
        """The ``said`` message every connection of the room gets; TooSoonError when the seat is too quick.

        ``phrase`` is one of :data:`PHRASES` (the wire checks it before the room sees it)."""
        if phrase not in PHRASES:
            raise ValueError(f"unknown phrase {phrase!r}; phrases: {', '.join(PHRASES)}")
        now = self.clock()
        last = self.last.get(seat)
        if last is not None and now - last < self.interval:
            raise TooSoonError(f"one phrase every {self.interval:g} s: wait {self.interval - (now - last):.1f} s")
        self.last[seat] = now
        return {"type": "said", "seat": seat, "phrase": phrase}
