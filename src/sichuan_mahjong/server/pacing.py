"""When a room's bots answer and its timers fire: the event loop's side of a
:class:`~sichuan_mahjong.server.table.Table`, a base of :class:`~sichuan_mahjong.server.room.Room`.

Bots answer after ``bot_delay`` (a stand-in for a person in 托管 or away, sooner), thinking in the server's one
bounded pool (:mod:`~sichuan_mahjong.server.botpool`) from the view taken when asked; an answer counts only if
nothing moved meanwhile. With a turn timer, people answer by the table's deadline or
:meth:`~sichuan_mahjong.server.table.Table.timeout_answers` answers for them. A disconnected person's seat
is held ``hold`` seconds, then the stand-in plays it. Nothing is scheduled while no person of the room is
connected: its bots wait for one, and a room expires on its people's clock (:meth:`Pacing.expired`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sichuan_mahjong.game import Action, Observation
from sichuan_mahjong.server.botpool import pool_for, safe_answer
from sichuan_mahjong.server.seats import Seat, ServerOptions
from sichuan_mahjong.server.store import RoomStore
from sichuan_mahjong.server.table import STAND_IN, Table

__all__ = ["Pacing"]

log = logging.getLogger("sichuan_mahjong.server")
_T = TypeVar("_T")


class Pacing(Table):
    """The timers of a room (its other parts are set by :class:`~sichuan_mahjong.server.room.Room`)."""

    options: ServerOptions
    store: RoomStore
    last_active: float  # when a person of the room was last connected or active (time.monotonic())
    visited: bool  # a person of the room has connected (or the room was restored with answers)
    _handles: list[asyncio.TimerHandle]

    if TYPE_CHECKING:  # the room's (server/room.py) and its delivery's (server/delivery.py), after this in its bases

        def guard(self, fn: Callable[..., _T], *args: Any) -> _T | None: ...
        def _submit(self, seat: int, action: Action) -> None: ...
        def _send_room(self) -> None: ...

    def expired(self, now: float | None = None) -> str | None:
        """Why the room should close now (``"expired"``, ``"finished"``), or None.

        People keep a room alive, bots and spectators do not: with no person connected, a room nobody ever
        connected to closes after ``options.unused`` seconds, a finished match after ``idle / 10``, any other
        after ``idle`` since a person was last there."""
        if self.people_here:
            return None
        now = time.monotonic() if now is None else now
        over = self.match is not None and self.match.is_over
        if over:
            limit, reason = self.options.idle / 10, "finished"
        else:
            limit, reason = (self.options.idle if self.visited else self.options.unused), "expired"
        return reason if now - self.last_active > limit else None

    def touch(self) -> None:
        self.last_active = time.monotonic()

    def _cancel(self) -> None:
        for h in self._handles:
            h.cancel()
        self._handles = []

    def _later(self, delay: float, fn: Callable[..., None], *args: Any) -> None:
        loop = asyncio.get_running_loop()
        self._handles.append(loop.call_later(max(0.0, delay), self.guard, fn, *args))

    def _schedule(self) -> None:
        """Bots answer after their delay; with a turn timer, people answer by the deadline. Nothing happens
        while no person of the room is connected: its bots wait for one."""
        self._cancel()
        if not self.people_here:
            return
        people = False
        for s in self.to_answer():
            seat = self._seat(s)
            if seat.botted:
                delay = self.options.bot_delay if seat.bot is not None else min(self.options.bot_delay, 0.3)
                self._later(delay, self._bot_answer, s, self.seq)
            else:
                people = True
        if people and self.deadline is not None:
            self._later(self.deadline - time.time(), self._timeout, self.seq)

    def _bot_answer(self, s: int, seq: int) -> None:
        if not self.bot_due(s, seq):
            return
        game = self.game
        assert game is not None
        # A searching bot (master) may think for a few hundred ms: it thinks in the server's one bot pool,
        # from the view taken here, so the event loop keeps serving every other room; its answer counts only
        # if nothing moved meanwhile.
        seat, view, legal = self._seat(s), game.view(s), self.pending[s]
        pool = pool_for(self.options.bot_workers, self.options.bot_processes)
        seed = (self.settings.seed * 4 + s) % (1 << 62)
        pool.submit(
            self.code,
            s,
            seat.bot or STAND_IN,
            seed,
            view,
            legal,
            lambda: self.bot_due(s, seq),
            lambda answer: self.guard(self._bot_answered, s, seq, view, legal, answer),
            playing=any(p.person and p.conn is not None and not p.botted for p in self._seats()),
        )

    def _bot_answered(
        self, s: int, seq: int, view: Observation, legal: list[Action], answer: Action | BaseException
    ) -> None:
        if not self.bot_due(s, seq):
            return
        if isinstance(answer, BaseException):
            log.warning("room %s: the bot of seat %d failed, playing a safe answer: %r", self.code, s, answer)
            answer = safe_answer(view, legal)
        self._submit(s, answer if answer in legal else safe_answer(view, legal))

    def _timeout(self, seq: int) -> None:
        """The turn timer ran out: each person still to answer passes, else discards the drawn tile, else the
        stand-in bot answers; a second timeout in a row puts the seat in 托管 until the person taps again."""
        for s, pick in self.timeout_answers(seq):
            if s in self.answers or seq != self.seq:
                continue
            if not self._seat(s).botted and self.strikes.ran_out(s):
                self._auto(self._seat(s), True)
            self._submit(s, pick)

    def _start_hold(self, seat: Seat) -> None:
        if seat.hold is not None:
            seat.hold.cancel()
        loop = asyncio.get_running_loop()
        seat.hold = loop.call_later(self.options.hold, self.guard, self._take_over, seat.index)

    def _take_over(self, s: int) -> None:
        seat = self._seat(s)
        seat.hold = None
        if seat.conn is None and not seat.away:
            seat.away = True
            self._send_room()
            if self.match is not None and self.game is not None and not self.game.is_over:
                self._schedule()

    def _auto(self, seat: Seat, on: bool) -> None:
        if not on and self.strikes.back(seat.index) and not seat.auto:
            self._send_room()  # 托管 for timeouts ends (the flag shows in the room) though auto was already off
        if seat.auto != on:
            seat.auto = on
            self.store.set_auto(self.code, seat.index, on)
            self._send_room()
            if self.game is not None and not self.game.is_over:
                self._schedule()
