"""The model of one web table: its four seats, the match, who is asked, the answers given, and the turn timer's
deadline, all as plain data. No connection, no event loop, no store: :class:`Table` is driven by calls and
tested so (tests/server/test_table.py); :class:`~sichuan_mahjong.server.room.Room` builds on it with the
store (each answer written first), the timers that make bots and deadlines happen
(:mod:`~sichuan_mahjong.server.pacing`) and what each connection is sent
(:mod:`~sichuan_mahjong.server.delivery`). An import-linter contract (pyproject.toml) keeps it so.

What a seat may be shown is noted here as each moment comes (:meth:`Table._remember`), never sent: a seat that
is not asked sees nothing while others decide a claim, a robbed kong or a 报叫 (docs/engine.md), and each seat
numbers the views it is shown with its own ``seq``, the public view its own too (docs/protocol.md "Who is told
when"). The turn timer is data: :meth:`Table.ask` sets the deadline a decision must be made by, and
:meth:`Table.timeout_answers` says what each person still to answer then plays.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import Action, ActionParseError, Game
from sichuan_mahjong.game.view import public_view
from sichuan_mahjong.match import Match
from sichuan_mahjong.server.botpool import passive_answer, safe_answer
from sichuan_mahjong.server.seats import RoomFullError, RoomSettings, Seat, Shown
from sichuan_mahjong.server.store import SeatRow
from sichuan_mahjong.server.turn_timer import Strikes

__all__ = ["PAUSE_PHASES", "STAND_IN", "Refusal", "Table"]

log = logging.getLogger("sichuan_mahjong.server")

#: Phases in which a seat that is not asked is shown nothing (someone else is deciding).
PAUSE_PHASES: Final = frozenset({"claim", "rob", "declare"})
#: The bot that plays a seat in 托管, after the hold, or when the turn timer runs out with no safe default.
STAND_IN: Final = "expert"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an answer is not taken: ``code`` is the ``error`` message's (``stale``, ``malformed``, ``answered``,
    ``illegal``); ``seq`` the seat's current one (stale), ``action`` the answer refused (illegal)."""

    code: str
    message: str
    seq: int | None = None
    action: Action | None = None


class Table:
    """Four seats and their match, stepped by the answers it is given."""

    def __init__(self, code: str, settings: RoomSettings) -> None:
        self.code = code
        self.settings = settings
        self.seats: list[Seat | None] = [None, None, None, None]
        self.match: Match | None = None
        self.seq = 0  # the table's own count of moments (steps and new hands); never sent
        self.public_views = 0  # the public view's seq: the moments spectators were shown
        self.public_deadline: float | None = None  # the deadline as of the last public moment
        self.answers: dict[int, Action] = {}
        self.pending: dict[int, list[Action]] = {}
        self.deadline: float | None = None  # wall-clock seconds the current decision must be made by
        self.public: Shown | None = None
        self.closed: str | None = None
        self.next_votes: set[int] = set()
        self.strikes = Strikes()  # two timeouts in a row: 托管 (server/turn_timer.py)

    # ------------------------------------------------------------------------------------------- seating
    @property
    def game(self) -> Game | None:
        return self.match.game if self.match is not None else None

    def _seats(self) -> list[Seat]:
        return [s for s in self.seats if s is not None]

    def _seat(self, index: int) -> Seat:
        seat = self.seats[index]
        assert seat is not None
        return seat

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def people_here(self) -> bool:
        """A person of the table (not a bot, not a spectator) is connected: only then do its bots play."""
        return any(s.person and s.conn is not None for s in self._seats())

    def free_seat(self) -> int:
        """The first free seat; RoomFullError when there is none."""
        free = next((i for i, s in enumerate(self.seats) if s is None), None)
        if free is None:
            raise RoomFullError(f"room {self.code} is full")
        return free

    def place(self, seat: SeatRow) -> None:
        """Put a stored seat at the table (creation, joining and restore)."""
        self.seats[seat.seat] = Seat(seat.seat, seat.name, seat.token, seat.bot, seat.auto)

    def view_seq(self, seat: int | None) -> int:
        """The ``seq`` of the last view this seat (None: the public) was shown."""
        shown = self.public if seat is None else self._seat(seat).shown
        return 0 if shown is None else shown.number

    # ------------------------------------------------------------------------------------------ the match
    def begin(self) -> None:
        """All four seats are filled: the match and its first hand."""
        self.match = Match(self.settings.rules, hands=self.settings.hands, seed=self.settings.seed)
        self.new_hand()

    def replay(self, answers: Iterable[tuple[int, int, str]]) -> None:
        """Rebuild the match from stored answers (hand index, seat, action), in the order accepted."""
        self.begin()
        assert self.match is not None
        for hand, seat, text in answers:
            while self.match.hand_index < hand:
                self.new_hand()
            self.take(seat, Action.parse(text))

    def new_hand(self) -> None:
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

    def take(self, seat: int, action: Action) -> bool:
        """Accept one answer; step the game once every asked seat has answered (True then)."""
        game = self.game
        assert game is not None
        self.answers[seat] = action
        if len(self.answers) < len(self.pending) or not set(self.pending) <= set(self.answers):
            return False
        answers, self.answers = self.answers, {}
        game.step(answers)
        self.seq += 1
        self._remember()
        return True

    def _remember(self) -> None:
        """Note what each person (and the public) may be shown now; nothing is sent here. The public view is
        taken from a view this moment builds anyway (a person's), not from one more seat's."""
        game = self.game
        assert game is not None
        self.pending = game.to_act()
        pause = game.phase in PAUSE_PHASES
        upto = len(game.events)
        shown = [s for s in self._seats() if s.person and (not pause or s.index in self.pending)]
        views = [game.view(s.index) for s in shown]
        public = Shown(self.seq, public_view(views[0] if views else game.view(0)), upto)
        for seat, view in zip(shown, views, strict=True):
            seat.views += 1
            seat.shown = Shown(self.seq, view, upto, public, number=seat.views)
        if not pause:
            self.public_views += 1
            public.number = self.public_views
            self.public = public

    # --------------------------------------------------------------------------------------- the asking
    def ask(self, now: float) -> None:
        """The state moved at wall-clock ``now``: the deadline of the decision now asked (None without a turn
        timer, or with nobody asked); the public one too when the public was shown this moment."""
        timer = self.settings.timer
        self.deadline = now + timer if self.pending and timer is not None else None
        if self.public is not None and self.public.seq == self.seq:
            self.public_deadline = self.deadline

    def to_answer(self) -> list[int]:
        """The seats asked that have not answered yet."""
        return [s for s in self.pending if s not in self.answers]

    def bot_due(self, s: int, seq: int) -> bool:
        """Seat s is still a bot's to answer at moment ``seq``: nothing moved, nobody answered for it, the table
        is open and a person is there to see it."""
        return (
            self.closed is None
            and seq == self.seq
            and s not in self.answers
            and s in self.pending
            and self._seat(s).botted
            and self.people_here
        )

    def timeout_answers(self, seq: int) -> list[tuple[int, Action]]:
        """The turn timer of moment ``seq`` ran out: what each seat still to answer plays: a pass, else the
        drawn tile's discard, else the stand-in bot's answer (a safe one if the bot fails). Nothing if the
        moment has passed."""
        game = self.game
        if seq != self.seq or game is None:
            return []
        out: list[tuple[int, Action]] = []
        for s in self.to_answer():
            legal = self.pending[s]
            view = game.view(s)
            pick = passive_answer(view, legal)
            if pick is None:
                try:
                    pick = make_agent(STAND_IN, seed=seq).act(view, legal)
                except Exception as exc:
                    log.warning("room %s: the stand-in for seat %d failed: %r", self.code, s, exc)
                    pick = safe_answer(view, legal)
            out.append((s, pick))
        return out

    def stale(self, seat: int | None, seq: int | None) -> Refusal | None:
        """``seq`` is not the seat's last view's (each seat counts its own views: no gap tells it of others)."""
        current = self.view_seq(seat)
        if seq == current:
            return None
        return Refusal("stale", f"seq {seq} is not the current view; the current seq is {current}", current)

    def check(self, seat: int, seq: int | None, text: str) -> Action | Refusal:
        """Seat ``seat``'s answer ``text`` to its view ``seq``: the legal action it names, or why not."""
        stale = self.stale(seat, seq)
        if stale is not None:
            return stale
        try:
            action = Action.parse(text)
        except ActionParseError as exc:
            return Refusal("malformed", str(exc))
        if seat in self.answers:
            return Refusal("answered", f"you already answered {self.answers[seat]}")
        legal = self.pending.get(seat, [])
        if action not in legal:
            shown = ", ".join(map(str, legal)) or "none"
            return Refusal("illegal", f"{action} is not legal now; legal: {shown}", action=action)
        return legal[legal.index(action)]

    def vote_next(self, seat: int) -> bool:
        """Seat ``seat`` asks for the next hand: True once the hand is over and every connected person not in
        托管 has asked."""
        self.next_votes.add(seat)
        game = self.game
        return (
            game is not None
            and game.is_over
            and all(s.index in self.next_votes for s in self._seats() if s.person and s.conn is not None and not s.auto)
        )
