"""The turn timer's second strike: a seat that lets the timer run out :data:`STRIKES` times in a row is put in
托管 (the stand-in bot plays it) until the person taps again; everyone is told why (``timed_out`` in the room).

>>> strikes = Strikes()
>>> strikes.ran_out(0), strikes.ran_out(0), strikes.benched(0)
(False, True, True)
>>> strikes.back(0), strikes.benched(0), strikes.ran_out(0)
(True, False, False)
"""

from __future__ import annotations

from typing import Final

__all__ = ["STRIKES", "Strikes"]

#: Timeouts in a row that put a seat in 托管.
STRIKES: Final = 2


class Strikes:
    """Each seat's timeouts in a row, and the seats put in 托管 for them."""

    def __init__(self, strikes: int = STRIKES) -> None:
        self.strikes = strikes
        self.count: dict[int, int] = {}
        self.sitting_out: set[int] = set()

    def ran_out(self, seat: int) -> bool:
        """The timer answered for ``seat``; True when that puts it in 托管 now (the second time in a row)."""
        self.count[seat] = self.count.get(seat, 0) + 1
        if self.count[seat] >= self.strikes and seat not in self.sitting_out:
            self.sitting_out.add(seat)
            return True
        return False

    def back(self, seat: int) -> bool:
        """The person answered or turned 托管 off: the count starts again. True when it was in 托管 for timeouts."""
        self.count[seat] = 0
        if seat in self.sitting_out:
            self.sitting_out.discard(seat)
            return True
        return False

    def benched(self, seat: int) -> bool:
        """``seat`` is in 托管 because the timer ran out on it twice in a row."""
        return seat in self.sitting_out
