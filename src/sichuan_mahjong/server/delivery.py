"""What a room tells its connections: the room object, a seat's or spectator's view, the coalesced ``room``
notices, stale and refused answers. :class:`Delivery` is the base of :class:`~sichuan_mahjong.server.room.Room`
that holds these; the room itself keeps the match and decides who answers when.

Nothing here may tell a seat (or a spectator, or ``GET /api/rooms/{code}``) when another seat was asked: the
``seq`` a connection sees is its own count of the views it was shown, and the room object carries the public
moment's ``seq`` and deadline (docs/protocol.md "Who is told when"). A helper here that only reads (hints, a
refusal's words) never raises into the room: its error becomes a missing hint or the plain words, and a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sichuan_mahjong.game import Action, Event, Game, Observation
from sichuan_mahjong.game.view import filter_event, public_event
from sichuan_mahjong.match import Match
from sichuan_mahjong.refusals import refusal
from sichuan_mahjong.server.seats import Conn, RoomSettings, Seat, ServerOptions, Shown
from sichuan_mahjong.server.turn_timer import Strikes
from sichuan_mahjong.server.wire import dumps, error_message, hints_json, view_message_text

__all__ = ["Delivery", "refusal_message"]

log = logging.getLogger("sichuan_mahjong.server")
_T = TypeVar("_T")


class Delivery:
    """The connection-facing half of a room (its state is set by :class:`~sichuan_mahjong.server.room.Room`)."""

    code: str
    settings: RoomSettings
    options: ServerOptions
    seats: list[Seat | None]
    spectators: list[Conn]
    match: Match | None
    seq: int
    public_views: int
    public: Shown | None
    deadline: float | None
    public_deadline: float | None
    answers: dict[int, Action]
    closed: str | None
    _notice: asyncio.TimerHandle | None
    _room_sent: float  # the event loop's time of the last room message (coalescing)
    _rules_json: dict[str, Any]
    strikes: Strikes

    def guard(self, fn: Callable[..., _T], *args: Any) -> _T | None:
        raise NotImplementedError

    @property
    def game(self) -> Game | None:
        return self.match.game if self.match is not None else None

    # ------------------------------------------------------------------------------------- who is here
    def _seats(self) -> list[Seat]:
        return [s for s in self.seats if s is not None]

    @property
    def connections(self) -> int:
        return len(self._conns())

    def _conns(self) -> list[Conn]:
        return [s.conn for s in self._seats() if s.conn is not None] + list(self.spectators)

    def _shown(self, conn: Conn) -> Shown | None:
        """The last view this connection's seat (a spectator: the public one) was shown, if any."""
        return self.public if conn.seat is None else self._seat(conn.seat).shown

    @property
    def people_here(self) -> bool:
        """A person of the room (not a bot, not a spectator) is connected: only then do its bots play."""
        return any(s.person and s.conn is not None for s in self._seats())

    def _seat(self, index: int) -> Seat:
        seat = self.seats[index]
        assert seat is not None
        return seat

    def view_seq(self, seat: int | None) -> int:
        """The ``seq`` of the last view this seat (None: the public) was shown."""
        shown = self.public if seat is None else self._seat(seat).shown
        return 0 if shown is None else shown.number

    # ------------------------------------------------------------------------------------------- views
    def room_json(self, current: bool = False) -> dict[str, Any]:
        """The room object. Its ``seq`` and ``deadline_ms`` are the public moment's (what a spectator or
        ``GET /api/rooms/{code}`` may know); ``current`` gives the deadline of now, for those shown it."""
        match = self.match
        deadline = self.deadline if current else self.public_deadline
        return {
            "code": self.code,
            "hand_no": 0 if match is None else match.hand_index + 1,
            "hands": self.settings.hands,
            "totals": [0, 0, 0, 0] if match is None else match.totals,
            "players": [
                None
                if s is None
                else {
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.conn is not None,
                    "auto": s.auto or s.away,
                    "away": s.away,
                    "timed_out": self.strikes.benched(s.index),
                }
                for s in self.seats
            ],
            "spectators": len(self.spectators),
            "seq": self.public_views,
            "started": match is not None,
            "over": match is not None and match.is_over,
            "timer": self.settings.timer,
            "deadline_ms": None if deadline is None else int(deadline * 1000),
        }

    def _view_to(self, conn: Conn, shown: Shown, room: str) -> None:
        game = self.game
        assert game is not None and self.match is not None
        if conn.hand != self.match.hand_index:
            conn.hand, conn.cursor = self.match.hand_index, 0
        events: list[Event] = []
        for e in game.events[conn.cursor : shown.upto]:
            f = public_event(e) if conn.seat is None else filter_event(e, conn.seat)
            if f is not None:
                events.append(f)
        conn.cursor = max(conn.cursor, shown.upto)
        if shown.hints is None:
            shown.hints = "null" if conn.seat is None else self._hints(shown.view)
        own = shown.own_text(self._rules_json)
        shared = shown.shared_text(self._rules_json)
        # An older view (a seat shown nothing while others decide) or a decision already answered asks nothing.
        asked = shown.seq == self.seq and conn.seat is not None and conn.seat not in self.answers
        legal = shown.view.legal if asked else ()
        conn.room = room
        conn.client.send(view_message_text(shown.number, own, shared, legal, events, room, shown.hints))

    def _hints(self, view: Observation) -> str:
        """The seat's hints as JSON text; ``null`` (and one log line) if they cannot be worked out."""
        try:
            return dumps(hints_json(view))
        except Exception as exc:
            log.warning("room %s: hints for seat %d failed: %r", self.code, view.seat, exc)
            return "null"

    def _send_room(self) -> None:
        """Tell every connection the room changed: at most one ``room`` message per ``room_interval``, so a
        flood of connects and disconnects cannot flood the others. The first change after a quiet interval goes
        at once; the changes within an interval after it go together at its end, as the room is then."""
        if self._notice is not None or self.closed is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script driving the room by hand): at once
            self._flush_room()
            return
        wait = self._room_sent + self.options.room_interval - loop.time()
        if wait <= 0:
            self._flush_room()
        else:
            self._notice = loop.call_later(wait, self.guard, self._flush_room)

    def _flush_room(self) -> None:
        self._notice = None
        with contextlib.suppress(RuntimeError):
            self._room_sent = asyncio.get_running_loop().time()
        room = dumps(self.room_json())
        for conn in self._conns():
            if conn.room != room:  # not for one that has this room already (in its view, on connecting)
                self._room_to(conn, room)

    @staticmethod
    def _room_to(conn: Conn, room: str) -> None:
        conn.room = room
        conn.client.send(f'{{"type":"room","room":{room}}}')

    # ---------------------------------------------------------------------------------------- refusals
    def _stale(self, conn: Conn, seq: int | None) -> bool:
        """``seq`` is not the seat's last view's (each seat counts its own views: no gap tells it of others)."""
        current = self.view_seq(conn.seat)
        if seq != current:
            conn.client.send(
                {
                    **error_message("stale", f"seq {seq} is not the current view; the current seq is {current}"),
                    "seq": current,
                }
            )
            return True
        return False


def refusal_message(action: Action, view: Observation | None, legal: list[Action]) -> dict[str, Any]:
    shown = ", ".join(map(str, legal)) or "none"
    fallback = (f"不能这样做（可以：{shown}）", f"Not allowed now (legal: {shown})")
    words = {}
    for i, lang in enumerate(("zh", "en")):
        try:  # the words only read the view: they never close the room
            words[lang] = (refusal(action, view, lang, "words") if view is not None else None) or fallback[i]
        except Exception as exc:
            log.warning("refusal words for %s failed: %r", action, exc)
            words[lang] = fallback[i]
    return error_message("illegal", f"{action} is not legal now; legal: {shown}", words)
