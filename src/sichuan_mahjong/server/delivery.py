"""What a room tells its connections: the room object, a seat's or spectator's view, the coalesced ``room``
notices, stale and refused answers. :class:`Delivery` is the base of :class:`~sichuan_mahjong.server.room.Room`
that holds these, on the table's model (:mod:`~sichuan_mahjong.server.table`), which keeps the match and who
is asked. A message that goes to several connections is encoded once, and the same JSON text is queued for
each (:meth:`Delivery._broadcast`; a moment's view: its shared fields once, the spectators' whole message once).

Nothing here may tell a seat (or a spectator, or ``GET /api/rooms/{code}``) when another seat was asked: the
``seq`` a connection sees is its own count of the views it was shown, and the room object carries the public
moment's ``seq`` and deadline (docs/protocol.md "Who is told when"). A helper here that only reads (hints, a
refusal's words) never raises into the room: its error becomes a missing hint or the plain words, and a log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from sichuan_mahjong.game import Action, Event, Observation
from sichuan_mahjong.game.view import filter_event, public_event
from sichuan_mahjong.refusals import refusal
from sichuan_mahjong.server.recap import Recap
from sichuan_mahjong.server.schema import hand_over_message
from sichuan_mahjong.server.seats import Conn, ServerOptions, Shown
from sichuan_mahjong.server.table import Refusal, Table
from sichuan_mahjong.server.wire import dumps, error_message, hints_json, view_message_text

__all__ = ["Delivery", "refusal_message"]

log = logging.getLogger("sichuan_mahjong.server")
_T = TypeVar("_T")


class Delivery(Table):
    """The connection-facing half of a room (its other parts are set by :class:`~sichuan_mahjong.server.room.Room`)."""

    options: ServerOptions
    spectators: list[Conn]
    _notice: asyncio.TimerHandle | None
    _room_sent: float  # the event loop's time of the last room message (coalescing)
    _rules_json: dict[str, Any]
    recap: Recap

    if TYPE_CHECKING:  # the room's (server/room.py)

        def guard(self, fn: Callable[..., _T], *args: Any) -> _T | None: ...

    # ------------------------------------------------------------------------------------- who is here
    @property
    def connections(self) -> int:
        return len(self._conns())

    def _conns(self) -> list[Conn]:
        return [s.conn for s in self._seats() if s.conn is not None] + list(self.spectators)

    def _shown(self, conn: Conn) -> Shown | None:
        """The last view this connection's seat (a spectator: the public one) was shown, if any."""
        return self.public if conn.seat is None else self._seat(conn.seat).shown

    def _broadcast(self, message: Mapping[str, Any]) -> str:
        """Send ``message`` to every connection of the room, encoded once: each gets the same JSON text."""
        text = dumps(message)
        for conn in self._conns():
            conn.client.send(text)
        return text

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

    def _send_views(self, room: str) -> None:
        """This moment's view to each seat shown one now and to the spectators (``room``: the room's JSON). The
        spectators' view is encoded once for all those sent the same events (all but one just come back)."""
        for seat in self._seats():
            if seat.conn is not None and seat.shown is not None and seat.shown.seq == self.seq:
                self._view_to(seat.conn, seat.shown, room)
        public = self.public
        if public is not None and public.seq == self.seq:
            texts: dict[tuple[int, int], str] = {}
            for conn in self.spectators:
                self._view_to(conn, public, room, texts)

    def _view_to(self, conn: Conn, shown: Shown, room: str, texts: dict[tuple[int, int], str] | None = None) -> None:
        """Send ``shown`` with the events this connection has not had; ``texts``: the messages already encoded
        for other connections of the same kind, by (hand, events sent)."""
        assert self.match is not None
        if conn.hand != self.match.hand_index:
            conn.hand, conn.cursor = self.match.hand_index, 0
        key = (conn.hand, conn.cursor)
        text = None if texts is None else texts.get(key)
        if text is None:
            text = self._view_text(conn.seat, conn.cursor, shown, room)
            if texts is not None:
                texts[key] = text
        conn.cursor = max(conn.cursor, shown.upto)
        conn.room = room
        conn.client.send(text)

    def _view_text(self, seat: int | None, cursor: int, shown: Shown, room: str) -> str:
        game = self.game
        assert game is not None
        events: list[Event] = []
        for e in game.events[cursor : shown.upto]:
            f = public_event(e) if seat is None else filter_event(e, seat)
            if f is not None:
                events.append(f)
        if shown.hints is None:
            shown.hints = "null" if seat is None else self._hints(shown.view)
        own = shown.own_text(self._rules_json)
        shared = shown.shared_text(self._rules_json)
        # An older view (a seat shown nothing while others decide) or a decision already answered asks nothing.
        asked = shown.seq == self.seq and seat is not None and seat not in self.answers
        legal = shown.view.legal if asked else ()
        return view_message_text(shown.number, own, shared, legal, events, room, shown.hints)

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

    def _greet(self, conn: Conn) -> None:
        """A connection just attached: ``hello``, then what it missed: its last view (or the room), the hand's
        end and the match's if over, a 结算 the bot finished for its seat while it was away. The others hear of
        it in the next coalesced ``room``."""
        role = "spectator" if conn.seat is None else "player"
        conn.client.send({"type": "hello", "room": self.code, "seat": conn.seat, "role": role})
        game = self.game
        shown = self._shown(conn)
        room = self.room_json(current=shown is not None and shown.seq == self.seq)
        if game is None or self.match is None:
            self._room_to(conn, dumps(room))
            self._send_room()  # the others hear of it, coalesced
            return
        if shown is not None:
            self._view_to(conn, shown, dumps(room))
        else:  # shown nothing yet (a 报叫 at the deal is being decided): the room says the match began
            self._room_to(conn, dumps(room))
        self._send_room()  # the others hear of it, coalesced (this one has the room already)
        if game.is_over:
            conn.client.send(hand_over_message(game, self.match.hand_index + 1, room))
            if conn.seat is not None:
                self.recap.told.add(conn.seat)
            if self.match.is_over:
                conn.client.send({"type": "match_over", "totals": self.match.totals, "room": room})
        else:
            missed = None if conn.seat is None else self.recap.missed(conn.seat)
            if missed is not None:  # the bot finished the last hand while this seat was away
                conn.client.send(missed)

    # ---------------------------------------------------------------------------------------- refusals
    def _stale(self, conn: Conn, seq: int | None) -> bool:
        """``seq`` is not the seat's last view's: the connection is told so (and the current ``seq``)."""
        stale = self.stale(conn.seat, seq)
        if stale is not None:
            self._refuse(conn, stale)
        return stale is not None

    def _refuse(self, conn: Conn, why: Refusal) -> None:
        """Tell a connection why its answer was not taken (an illegal one in words, zh and en)."""
        if why.code == "stale":
            message = {**error_message("stale", why.message), "seq": why.seq}
        elif why.code == "illegal" and why.action is not None and conn.seat is not None:
            shown = self._seat(conn.seat).shown
            message = refusal_message(
                why.action, shown.view if shown is not None else None, self.pending.get(conn.seat, [])
            )
        else:
            message = error_message(why.code, why.message)
        conn.client.send(message)


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
