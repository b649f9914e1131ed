"""One room of the web table: four seats (people or bots), spectators, a match, and who is told what when.

A :class:`Room` holds a :class:`~sichuan_mahjong.match.Match` (dealers by R2.5, running totals) and drives its
current hand: it gathers every answer :meth:`Game.to_act` asks for (people through :meth:`Room.handle`, bots
from ``game.view(seat)`` only), writes each accepted answer to the store *before* anything it causes is sent,
then steps the game and tells each seat what it may see (``view`` messages from its own view and filtered
events, spectators the public view). It knows nothing of HTTP or websockets: a connection is anything with
``send(message)`` and ``close(code)``; the loop's timers drive bots, the hold, the turn timer and the pause
between hands.

Seats that are not asked see nothing while others decide a claim, a robbed kong or a 报叫 (docs/engine.md:
the view would show ``phase == "claim"`` and tell them that someone can claim); they get the next view once
the state has moved on, with every event in between. For the same reason each seat numbers the views it is
shown with its own ``seq`` (the public view, for spectators and ``GET /api/rooms/{code}``, its own too): a
gap in one global count would tell everyone when somebody else was asked.

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
from typing import Any, Final, TypeVar

from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import Action, ActionParseError, Game, Observation
from sichuan_mahjong.game.view import public_view
from sichuan_mahjong.hints import NothingToAdviseError, advise_view
from sichuan_mahjong.match import Match
from sichuan_mahjong.record import save_hand, save_match
from sichuan_mahjong.server.botpool import passive_answer, pool_for, safe_answer
from sichuan_mahjong.server.delivery import Delivery, refusal_message
from sichuan_mahjong.server.phrases import Phrases, TooSoonError
from sichuan_mahjong.server.recap import Recap
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
    Shown,
)
from sichuan_mahjong.server.store import RoomStore, SeatRow
from sichuan_mahjong.server.turn_timer import Strikes
from sichuan_mahjong.server.wire import (
    ClientMessage,
    dumps,
    error_message,
    hand_over_message,
)

__all__ = ["PAUSE_PHASES", "Client", "Room", "RoomClosedError", "RoomFullError", "RoomSettings", "ServerOptions"]

log = logging.getLogger("sichuan_mahjong.server")

#: Phases in which a seat that is not asked is shown nothing (someone else is deciding).
PAUSE_PHASES: Final = frozenset({"claim", "rob", "declare"})
#: The bot that plays a seat in 托管, after the hold, or when the turn timer runs out with no safe default.
STAND_IN: Final = "expert"
_T = TypeVar("_T")


def record_stem(created: float, code: str) -> str:
    """The name a room's records start with, beside the database: ``<stem>-handNN.jsonl``, ``<stem>.jsonl``."""
    return f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime(created))}-{code}"


class Room(Delivery):
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
        self.code = code
        self.settings = settings
        self.store = store
        self.options = options
        self.created = time.time() if created is None else created
        self.on_close = on_close
        self.seats: list[Seat | None] = [None, None, None, None]
        self.spectators: list[Conn] = []
        self.spectator_tokens: set[str] = set()
        self.match: Match | None = None
        self.seq = 0  # the room's own count of moments (steps and new hands); never sent
        self.public_views = 0  # the public view's seq: the moments spectators were shown
        self.public_deadline: float | None = None  # the deadline as of the last public moment
        self.answers: dict[int, Action] = {}
        self.pending: dict[int, list[Action]] = {}
        self.deadline: float | None = None  # wall-clock seconds the current decision must be made by
        self.public: Shown | None = None
        self.closed: str | None = None
        self.next_votes: set[int] = set()
        self.last_active = time.monotonic()  # when a person of the room was last connected or active
        self.visited = False  # a person of the room has connected (or the room was restored with answers)
        self._handles: list[asyncio.TimerHandle] = []
        self._next_hand: asyncio.TimerHandle | None = None
        self._notice: asyncio.TimerHandle | None = None
        self._room_sent = float("-inf")
        self._rules_json = settings.rules.to_dict()
        self.phrases = Phrases()  # quick phrases: one per seat every 2 s (server/phrases.py)
        self.strikes = Strikes()  # two timeouts in a row: 托管 (server/turn_timer.py)
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
        for conn in self._conns():
            if message is not None:
                conn.client.send(message)
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

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def place(self, seat: SeatRow) -> None:
        """Put a stored seat in the room (creation and restore)."""
        self.seats[seat.seat] = Seat(seat.seat, seat.name, seat.token, seat.bot, seat.auto)

    def join(self, name: str) -> SeatRow:
        """A person takes the first free seat; raises RoomFullError. Starts the match when the room fills."""
        if self.closed is not None:
            raise RoomClosedError(f"room {self.code} is closed")
        free = next((i for i, s in enumerate(self.seats) if s is None), None)
        if free is None:
            raise RoomFullError(f"room {self.code} is full")
        row = SeatRow(free, name, secrets.token_urlsafe(24), None)
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

    def touch(self) -> None:
        self.last_active = time.monotonic()

    # ------------------------------------------------------------------------------------------- replay
    def restore(self, answers: list[tuple[int, int, str]]) -> None:
        """Rebuild the match from the stored answers (hand index, seat, action), in the order accepted."""
        if not self.full:
            return
        self.match = Match(self.settings.rules, hands=self.settings.hands, seed=self.settings.seed)
        self._new_hand()
        for hand, seat, text in answers:
            while self.match.hand_index < hand:
                self._new_hand()
            self._take(seat, Action.parse(text), persist=False)
        self.visited = self.visited or bool(answers)
        self.touch()

    def start(self) -> None:
        """All four seats are filled: the match begins."""
        self.match = Match(self.settings.rules, hands=self.settings.hands, seed=self.settings.seed)
        self._new_hand()
        self.resume()
        # A 报叫 at the deal (no exchange, no 定缺) is asked before anyone plays, and the seats not asked are
        # shown nothing meanwhile: they hear from the room itself that the match began (a view carries it too).
        room: dict[str, Any] | None = None
        for conn in self._conns():
            if self._shown(conn) is None:
                room = room or {"type": "room", "room": self.room_json()}
                conn.client.send(room)

    def resume(self) -> None:
        """After start or restore: hold timers for absent people, then tell everyone and schedule the bots."""
        for seat in self._seats():
            if seat.person and seat.conn is None:
                self._start_hold(seat)
        self._changed()

    def _new_hand(self) -> None:
        assert self.match is not None
        self.match.next_game()
        self.seq += 1
        self.answers = {}
        self.next_votes = set()
        # Nothing of this hand is shown yet: a seat not asked a 报叫 at the deal is shown nothing until it is
        # answered (on reconnecting meanwhile: the room, never the last hand's view, whose events count another game).
        self.public = None
        for seat in self._seats():
            seat.shown = None
        self._remember()

    # --------------------------------------------------------------------------------------- the engine
    def _take(self, seat: int, action: Action, *, persist: bool = True) -> bool:
        """Accept one answer (written first); step the game once every asked seat has answered."""
        game = self.game
        assert game is not None and self.match is not None
        if persist:
            self.store.add_answer(self.code, self.match.hand_index, seat, str(action))
        self.answers[seat] = action
        if len(self.answers) < len(self.pending) or not set(self.pending) <= set(self.answers):
            return False
        answers, self.answers = self.answers, {}
        game.step(answers)
        self.seq += 1
        self._remember()
        return True

    def _remember(self) -> None:
        """Note what each person (and the public) may be shown now; nothing is sent here."""
        game = self.game
        assert game is not None
        self.pending = game.to_act()
        pause = game.phase in PAUSE_PHASES
        upto = len(game.events)
        public = Shown(self.seq, public_view(game.view(0)), upto)
        for seat in self._seats():
            if seat.person and (not pause or seat.index in self.pending):
                seat.views += 1
                seat.shown = Shown(self.seq, game.view(seat.index), upto, public, number=seat.views)
        if not pause:
            self.public_views += 1
            public.number = self.public_views
            self.public = public

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
        self.deadline = None
        if self.pending and self.settings.timer is not None:
            self.deadline = time.time() + self.settings.timer
        if self.public is not None and self.public.seq == self.seq:
            self.public_deadline = self.deadline
        room = self.room_json(current=True)
        room_text = dumps(room)
        for seat in self._seats():
            if seat.conn is not None and seat.shown is not None and seat.shown.seq == self.seq:
                self._view_to(seat.conn, seat.shown, room_text)
        if self.public is not None and self.public.seq == self.seq:
            for conn in self.spectators:
                self._view_to(conn, self.public, room_text)
        if game.is_over:
            self._hand_over(game, room)
        else:
            self._schedule()

    def _hand_over(self, game: Game, room: Mapping[str, Any]) -> None:
        assert self.match is not None
        message = hand_over_message(game, self.match.hand_index + 1, room)
        for conn in self._conns():
            conn.client.send(message)
        self.recap.sent(message, (s.index for s in self._seats() if s.conn is not None))
        records = self.options.records
        if records is not None:  # each hand once, then the whole match once: linear in the match's length
            records.mkdir(parents=True, exist_ok=True)
            name = record_stem(self.created, self.code)
            save_hand(game, records / f"{name}-hand{self.match.hand_index + 1:02d}.jsonl")
            if self.match.is_over:
                save_match(self.match, records / f"{name}.jsonl")
        if self.match.is_over:
            over = {"type": "match_over", "totals": self.match.totals, "room": room}
            for conn in self._conns():
                conn.client.send(over)
        else:
            self._next_hand = asyncio.get_running_loop().call_later(self.options.pause, self.guard, self.next_hand)

    def next_hand(self) -> None:
        game = self.game
        if self.match is None or game is None or not game.is_over or self.match.is_over:
            return
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self._new_hand()
        self._changed()

    # -------------------------------------------------------------------------------------- bots, timers
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
        for s in self.pending:
            if s in self.answers:
                continue
            seat = self._seat(s)
            if seat.botted:
                self._later(
                    self.options.bot_delay if seat.bot is not None else min(self.options.bot_delay, 0.3),
                    self._bot_answer,
                    s,
                    self.seq,
                )
            else:
                people = True
        if people and self.deadline is not None:
            self._later(self.deadline - time.time(), self._timeout, self.seq)

    def _bot_due(self, s: int, seq: int) -> bool:
        """Seat s is still a bot's to answer at step ``seq``: nothing moved, nobody answered for it, a person
        is there to see it."""
        return (
            self.closed is None
            and seq == self.seq
            and s not in self.answers
            and s in self.pending
            and self._seat(s).botted
            and self.people_here
        )

    def _bot_answer(self, s: int, seq: int) -> None:
        if not self._bot_due(s, seq):
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
            lambda: self._bot_due(s, seq),
            lambda answer: self.guard(self._bot_answered, s, seq, view, legal, answer),
            playing=any(p.person and p.conn is not None and not p.botted for p in self._seats()),
        )

    def _bot_answered(
        self, s: int, seq: int, view: Observation, legal: list[Action], answer: Action | BaseException
    ) -> None:
        if not self._bot_due(s, seq):
            return
        if isinstance(answer, BaseException):
            log.warning("room %s: the bot of seat %d failed, playing a safe answer: %r", self.code, s, answer)
            answer = safe_answer(view, legal)
        self._submit(s, answer if answer in legal else safe_answer(view, legal))

    def _timeout(self, seq: int) -> None:
        """The turn timer ran out: each person still to answer passes, else discards the drawn tile, else the
        stand-in bot answers."""
        game = self.game
        if seq != self.seq or game is None:
            return
        for s, legal in list(self.pending.items()):
            if s in self.answers or seq != self.seq:
                continue
            view = game.view(s)
            pick = passive_answer(view, legal)
            if pick is None:
                try:
                    pick = make_agent(STAND_IN, seed=seq).act(view, legal)
                except Exception as exc:
                    log.warning("room %s: the stand-in for seat %d failed: %r", self.code, s, exc)
                    pick = safe_answer(view, legal)
            if not self._seat(s).botted and self.strikes.ran_out(s):
                self._auto(self._seat(s), True)  # the second timeout in a row: 托管 until the person taps again
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
        client = conn.client
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
        role = "spectator" if conn.seat is None else "player"
        client.send({"type": "hello", "room": self.code, "seat": conn.seat, "role": role})
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
            client.send(hand_over_message(game, self.match.hand_index + 1, room))
            if conn.seat is not None:
                self.recap.told.add(conn.seat)
            if self.match.is_over:
                client.send({"type": "match_over", "totals": self.match.totals, "room": room})
        else:
            missed = None if conn.seat is None else self.recap.missed(conn.seat)
            if missed is not None:  # the bot finished the last hand while this seat was away
                client.send(missed)
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
            self.next_votes.add(seat.index)
            if game.is_over and all(
                s.index in self.next_votes for s in self._seats() if s.person and s.conn is not None and not s.auto
            ):
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
        for other in self._conns():
            other.client.send(said)

    def _auto(self, seat: Seat, on: bool) -> None:
        if not on and self.strikes.back(seat.index) and not seat.auto:
            self._send_room()  # 托管 for timeouts ends (the flag shows in the room) though auto was already off
        if seat.auto != on:
            seat.auto = on
            self.store.set_auto(self.code, seat.index, on)
            self._send_room()
            if self.game is not None and not self.game.is_over:
                self._schedule()

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
        if self._stale(conn, message.seq):
            return
        try:
            action = Action.parse(str(message.action))
        except ActionParseError as exc:
            conn.client.send(error_message("malformed", str(exc)))
            return
        if seat.index in self.answers:
            conn.client.send(error_message("answered", f"you already answered {self.answers[seat.index]}"))
            return
        legal = self.pending.get(seat.index, [])
        if action not in legal:
            view = seat.shown.view if seat.shown is not None else None
            conn.client.send(refusal_message(action, view, legal))
            return
        if seat.away:
            seat.away = False
            self._send_room()
        if self.strikes.back(seat.index):  # a tap of one's own ends 托管 for timeouts
            self._auto(seat, False)
        self._submit(seat.index, legal[legal.index(action)])
