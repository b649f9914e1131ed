"""One room of the web table: four seats (people or bots), spectators, a match, and who is told what when.

A :class:`Room` holds a :class:`~sichuan_mahjong.match.Match` (dealers by R2.5, running totals) and drives its
current hand: it gathers every answer :meth:`Game.to_act` asks for (people through :meth:`Room.handle`, bots
from ``game.view(seat)`` only), writes each accepted answer to the store *before* anything it causes is sent,
then steps the game and tells each seat what it may see (``view`` messages from its own view and filtered
events, spectators the public view). It knows nothing of HTTP or websockets: a connection is anything with
``send(message)`` and ``close(code)``. Its bases hold the parts: the model of seats, answers and who is asked
(:mod:`~sichuan_mahjong.server.table`), the timers of bots, holds and the turn timer
(:mod:`~sichuan_mahjong.server.pacing`), and what each connection is sent (:mod:`~sichuan_mahjong.server.delivery`).

Under abuse (issue 37): bots play only while a person of the room is connected (spectators do not count), a
room expires on its people's clock (:meth:`Room.expired`), connects and disconnects reach the others as at most
one ``room`` message per ``room_interval``, the bots think in the server's one bounded pool
(:mod:`~sichuan_mahjong.server.botpool`), and a request that only reads (advice, a refusal's words, hints) can
never close the room: its error becomes an ``error`` message or a missing hint, and one log line.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sichuan_mahjong.game import Action, Game
from sichuan_mahjong.hints import NothingToAdviseError, advise_view
from sichuan_mahjong.record import save_hand, save_match
from sichuan_mahjong.server.delivery import Delivery
from sichuan_mahjong.server.pacing import Pacing
from sichuan_mahjong.server.phrases import Phrases, TooSoonError
from sichuan_mahjong.server.recap import Recap
from sichuan_mahjong.server.schema import hand_over_message
from sichuan_mahjong.server.seats import (
    CLOSE_REPLACED,
    CLOSE_ROOM_FAILED,
    Client,
    Conn,
    RoomClosedError,
    RoomFullError,
    RoomSettings,
    Seat,
    ServerOptions,
)
from sichuan_mahjong.server.store import RoomStore, SeatRow
from sichuan_mahjong.server.table import PAUSE_PHASES, STAND_IN, Refusal
from sichuan_mahjong.server.wire import ClientMessage, dumps, error_message

__all__ = [
    "PAUSE_PHASES",
    "STAND_IN",
    "Client",
    "Room",
    "RoomClosedError",
    "RoomFullError",
    "RoomSettings",
    "ServerOptions",
]

log = logging.getLogger("sichuan_mahjong.server")

_T = TypeVar("_T")


def record_stem(created: float, code: str) -> str:
    """The name a room's records start with, beside the database: ``<stem>-handNN.jsonl``, ``<stem>.jsonl``."""
    return f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime(created))}-{code}"


class Room(Pacing, Delivery):
    """A room and its match. Every public method is safe: an exception inside fails this room only."""

    def __init__(
        self,
        code: str,
        settings: RoomSettings,
        store: RoomStore,
        options: ServerOptions,
        created: float | None = None,
        on_close: Callable[[Room], None] | None = None,
    ) -> None:
        super().__init__(code, settings)
        self.store = store
        self.options = options
        self.created = time.time() if created is None else created
        self.on_close = on_close
        self.spectators: list[Conn] = []
        self.spectator_tokens: set[str] = set()
        self.last_active = time.monotonic()  # when a person of the room was last connected or active
        self.visited = False  # a person of the room has connected (or the room was restored with answers)
        self._handles: list[asyncio.TimerHandle] = []
        self._next_hand: asyncio.TimerHandle | None = None
        self._notice: asyncio.TimerHandle | None = None
        self._room_sent = float("-inf")
        self._rules_json = settings.rules.to_dict()
        self.phrases = Phrases()  # quick phrases: one per seat every 2 s (server/phrases.py)
        self.recap = Recap()  # the last 结算, for a seat that was away (server/recap.py)

    # ------------------------------------------------------------------------------------------ guarding
    def guard(self, fn: Callable[..., _T], *args: Any) -> _T | None:
        """Run fn; an exception fails this room (error to its clients, a log line) and nothing else."""
        if self.closed is not None:
            return None
        try:
            return fn(*args)
        except Exception as exc:
            self.fail(exc)
            return None

    def fail(self, exc: BaseException) -> None:
        log.error("room %s failed: %r", self.code, exc, exc_info=exc)
        message = error_message("room_failed", f"room {self.code} stopped after an internal error; it is closed")
        self.close(f"failed: {exc!r}", message, CLOSE_ROOM_FAILED)

    def close(
        self, reason: str, message: Mapping[str, Any] | None = None, code: int = 1000, *, stored: bool = True
    ) -> None:
        """Close the room for good: timers stop, clients get ``message`` and are disconnected. ``stored=False``:
        only here (another worker takes it over), it stays open in the store."""
        if self.closed is not None:
            return
        self.closed = reason
        self._cancel()
        for handle in (self._next_hand, self._notice):
            if handle is not None:
                handle.cancel()
        if message is not None:
            self._broadcast(message)
        for conn in self._conns():
            conn.client.close(code)
        for seat in self._seats():
            seat.conn = None
            if seat.hold is not None:
                seat.hold.cancel()
        self.spectators.clear()
        try:
            if stored:
                self.store.close_room(self.code, reason)
        finally:
            if self.on_close is not None:
                self.on_close(self)

    # ------------------------------------------------------------------------------------------- seating
    def join(self, name: str) -> SeatRow:
        """A person takes the first free seat; raises RoomFullError. Starts the match when the room fills."""
        if self.closed is not None:
            raise RoomClosedError(f"room {self.code} is closed")
        row = SeatRow(self.free_seat(), name, secrets.token_urlsafe(24), None)
        self.store.add_seat(self.code, row)
        self.place(row)
        self.touch()
        self.guard(self._after_join)
        return row

    def _after_join(self) -> None:
        if self.full and self.match is None:
            self.start()
        else:
            self._send_room()

    def add_spectator(self) -> str:
        if self.closed is not None:
            raise RoomClosedError(f"room {self.code} is closed")
        token = secrets.token_urlsafe(24)
        self.store.add_spectator(self.code, token)
        self.spectator_tokens.add(token)
        return token

    # ------------------------------------------------------------------------------------------- replay
    def restore(self, answers: list[tuple[int, int, str]]) -> None:
        """Rebuild the match from the stored answers (hand index, seat, action), in the order accepted."""
        if not self.full:
            return
        self.replay(answers)
        self.visited = self.visited or bool(answers)
        self.touch()

    def start(self) -> None:
        """All four seats are filled: the match begins."""
        self.begin()
        self.resume()
        # A 报叫 at the deal (no exchange, no 定缺) is asked before anyone plays, and the seats not asked are
        # shown nothing meanwhile: they hear from the room itself that the match began (a view carries it too).
        room: str | None = None
        for conn in self._conns():
            if self._shown(conn) is None:
                room = room or dumps({"type": "room", "room": self.room_json()})
                conn.client.send(room)

    def resume(self) -> None:
        """After start or restore: hold timers for absent people, then tell everyone and schedule the bots."""
        for seat in self._seats():
            if seat.person and seat.conn is None:
                self._start_hold(seat)
        self._changed()

    # --------------------------------------------------------------------------------------- the engine
    def _take(self, seat: int, action: Action) -> bool:
        """Accept one answer, written to the store first; True when it stepped the game."""
        assert self.match is not None
        self.store.add_answer(self.code, self.match.hand_index, seat, str(action))
        return self.take(seat, action)

    def _submit(self, seat: int, action: Action) -> None:
        """Take an answer; the seat hears ``answered`` whenever it gets no view at once (others still decide)."""
        me = self._seat(seat)
        seq = me.views
        stepped = self._take(seat, action)
        if stepped:
            self._changed()
        if me.conn is not None and (not stepped or me.shown is None or me.shown.seq != self.seq):
            me.conn.client.send({"type": "answered", "seq": seq, "action": str(action)})

    # -------------------------------------------------------------------------------------------- views
    def _changed(self) -> None:
        """The state moved: send each seat and spectator what it may see now, then schedule who answers."""
        game = self.game
        assert game is not None and self.match is not None
        self._cancel()
        self.ask(time.time())
        room = self.room_json(current=True)
        self._send_views(dumps(room))
        if game.is_over:
            self._hand_over(game, room)
        else:
            self._schedule()

    def _hand_over(self, game: Game, room: Mapping[str, Any]) -> None:
        assert self.match is not None
        message = hand_over_message(game, self.match.hand_index + 1, room)
        self._broadcast(message)
        self.recap.sent(message, (s.index for s in self._seats() if s.conn is not None))
        records = self.options.records
        if records is not None:  # each hand once, then the whole match once: linear in the match's length
            records.mkdir(parents=True, exist_ok=True)
            name = record_stem(self.created, self.code)
            save_hand(game, records / f"{name}-hand{self.match.hand_index + 1:02d}.jsonl")
            if self.match.is_over:
                save_match(self.match, records / f"{name}.jsonl")
        if self.match.is_over:
            self._broadcast({"type": "match_over", "totals": self.match.totals, "room": room})
        else:
            self._next_hand = asyncio.get_running_loop().call_later(self.options.pause, self.guard, self.next_hand)

    def next_hand(self) -> None:
        game = self.game
        if self.match is None or game is None or not game.is_over or self.match.is_over:
            return
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self.new_hand()
        self._changed()

    # -------------------------------------------------------------------------------------- connections
    def attach(self, client: Client, seat: int | None) -> Conn:
        """A connection authenticated for ``seat`` (None: a spectator); a seat's older connection is closed."""
        conn = Conn(client, seat)
        if seat is not None:
            self.touch()
            self.visited = True
        self.guard(self._attach, conn)
        return conn

    def _attach(self, conn: Conn) -> None:
        if conn.seat is None:
            self.spectators.append(conn)
        else:
            seat = self._seat(conn.seat)
            if seat.conn is not None:
                seat.conn.client.close(CLOSE_REPLACED)
            seat.conn = conn
            if seat.hold is not None:
                seat.hold.cancel()
                seat.hold = None
            seat.away = False
        self._greet(conn)
        if self.game is not None and not self.game.is_over:
            self._schedule()

    def detach(self, conn: Conn) -> None:
        self.guard(self._detach, conn)

    def _detach(self, conn: Conn) -> None:
        if conn.seat is None:
            if conn not in self.spectators:
                return
            self.spectators.remove(conn)
        else:
            seat = self._seat(conn.seat)
            if seat.conn is not conn:
                return  # replaced by a newer connection, or already detached
            self.touch()
            seat.conn = None
            if self.match is not None:
                self._start_hold(seat)
                if not self.people_here:
                    self._cancel()  # the bots wait for a person
        self._send_room()

    # ----------------------------------------------------------------------------------------- messages
    def handle(self, conn: Conn, message: ClientMessage) -> None:
        """One checked client message from a connection of this room."""
        if conn.seat is not None:
            self.touch()
        self.guard(self._handle, conn, message)

    def _handle(self, conn: Conn, message: ClientMessage) -> None:
        client = conn.client
        kind = message.type
        if kind == "ping":
            client.send({"type": "pong"})
            return
        if conn.seat is None:
            client.send(error_message("spectator", "a spectator cannot act"))
            return
        seat = self._seat(conn.seat)
        if kind == "say":
            self._say(conn, seat, str(message.phrase))
            return
        game = self.game
        if game is None or self.match is None:
            client.send(error_message("not_started", "the match starts when all four seats are taken"))
            return
        if kind == "auto":
            self._auto(seat, bool(message.on))
        elif kind == "next":
            if self.vote_next(seat.index):
                self.next_hand()
        elif kind == "advise":
            self._advise(conn, seat, message)
        elif kind == "act":
            self._act(conn, seat, message)

    def _say(self, conn: Conn, seat: Seat, phrase: str) -> None:
        """A quick phrase: every connection of the room (spectators too) hears which seat said which."""
        try:
            said = self.phrases.say(seat.index, phrase)
        except TooSoonError as exc:
            conn.client.send(error_message("too_soon", str(exc)))
            return
        self._broadcast(said)

    def _advise(self, conn: Conn, seat: Seat, message: ClientMessage) -> None:
        if self._stale(conn, message.seq):
            return
        shown = seat.shown
        if shown is None or seat.index not in self.pending:
            conn.client.send(error_message("nothing_to_advise", "there is no decision of yours to advise on now"))
            return
        try:
            advice = advise_view(shown.view, style="words").to_dict()
        except NothingToAdviseError as exc:
            conn.client.send(error_message("nothing_to_advise", str(exc)))
            return
        except Exception as exc:  # advice only reads the view: it never closes the room
            log.warning("room %s: advice for seat %d failed: %r", self.code, seat.index, exc)
            conn.client.send(error_message("advice_failed", "no advice for this decision (an internal error)"))
            return
        conn.client.send({"type": "advice", "seq": shown.number, **advice})

    def _act(self, conn: Conn, seat: Seat, message: ClientMessage) -> None:
        action = self.check(seat.index, message.seq, str(message.action))
        if isinstance(action, Refusal):
            self._refuse(conn, action)
            return
        if seat.away:
            seat.away = False
            self._send_room()
        if self.strikes.back(seat.index):  # a tap of one's own ends 托管 for timeouts
            self._auto(seat, False)
        self._submit(seat.index, action)
