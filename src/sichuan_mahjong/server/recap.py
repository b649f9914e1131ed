"""The last hand's 结算 for a seat that did not see it: a person whose phone dropped while the stand-in bot
finished the hand (and the next one began) gets that hand's ``hand_over`` when it comes back, marked
``"missed": true``. Kept in memory: after a restart the hand is in the records (docs/records.md).

>>> recap = Recap()
>>> recap.sent({"type": "hand_over", "hand_no": 1}, told=[0, 2])
>>> recap.missed(0), recap.missed(1)
(None, {'type': 'hand_over', 'hand_no': 1, 'missed': True})
>>> recap.missed(1) is None  # once
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Recap"]


class Recap:
    """The last ``hand_over`` message and the seats that have it."""

    def __init__(self) -> None:
        self.message: dict[str, Any] | None = None
        self.told: set[int] = set()

    def sent(self, message: Mapping[str, Any], told: Iterable[int]) -> None:
        """A hand ended: ``message`` went to the seats ``told`` (those connected then)."""
        self.message = dict(message)
        self.told = set(told)

    def missed(self, seat: int) -> dict[str, Any] | None:
        """The ``hand_over`` ``seat`` has not had (once), or None."""
        if self.message is None or seat in self.told:
            return None
        self.told.add(seat)
        return {**self.message, "missed": True}
