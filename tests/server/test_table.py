"""The table's model (server/table.py) driven by calls alone: no event loop, no connection, no store. Seating,
who is asked, answers and refusals, the turn timer's deadline and the answers it gives, what each seat may be
shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from sichuan_mahjong.game import Action
from sichuan_mahjong.game.view import public_view
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.seats import Conn, RoomFullError, RoomSettings
from sichuan_mahjong.server.store import SeatRow
from sichuan_mahjong.server.table import PAUSE_PHASES, Refusal, Table


class Quiet:
    """A connection that is there and hears nothing (the model never sends)."""

    def send(self, message: Mapping[str, Any] | str) -> None:
        raise AssertionError("the table's model sent a message")

    def close(self, code: int) -> None:
        raise AssertionError("the table's model closed a connection")


def table(people: int = 4, timer: float | None = None, seed: int = 4, preset: str = "seed") -> Table:
    t = Table("TEST", RoomSettings(preset, Rules.preset(preset), 2, seed=seed, timer=timer))
    for i in range(4):
        t.place(SeatRow(i, f"p{i}", f"token{i}" if i < people else None, None if i < people else "efficient"))
    return t


def started(people: int = 4, timer: float | None = None, preset: str = "seed") -> Table:
    t = table(people, timer, preset=preset)
    t.begin()
    return t


def answer_all(t: Table) -> None:
    """Every seat asked answers its first legal action (one step)."""
    for s in t.to_answer():
        t.take(s, t.pending[s][0])


def test_seats_fill_in_order_and_a_full_table_refuses() -> None:
    t = Table("TEST", RoomSettings("seed", Rules.preset("seed"), 1, seed=1))
    assert t.free_seat() == 0 and not t.full
    t.place(SeatRow(0, "host", "tok", None))
    t.place(SeatRow(2, "bot", None, "efficient"))
    assert t.free_seat() == 1
    t.place(SeatRow(1, "a", "tok1", None))
    t.place(SeatRow(3, "b", "tok3", None))
    assert t.full and t.match is None and t.game is None
    with pytest.raises(RoomFullError):
        t.free_seat()
    assert [s.person for s in t._seats()] == [True, True, False, True]


def test_begin_deals_and_asks_someone() -> None:
    t = started()
    assert t.match is not None and t.game is not None
    assert t.pending and t.to_answer() == list(t.pending)
    assert t.answers == {} and t.seq == 1
    assert all(t.pending[s] for s in t.pending)


def several_asked() -> Table:
    """A table at a moment where several seats are asked at once (the exchange, 定缺 or a claim)."""
    t = started(preset="app")
    game = t.game
    assert game is not None
    for _ in range(2000):
        if len(t.pending) > 1 or game.is_over:
            break
        answer_all(t)
    assert len(t.pending) > 1, "never two seats asked at once"
    return t


def test_an_answer_waits_for_the_others_asked_then_steps_once() -> None:
    t = several_asked()
    first, *rest = t.to_answer()
    seq = t.seq
    assert t.take(first, t.pending[first][0]) is False
    assert t.seq == seq and first not in t.to_answer()
    for s in rest[:-1]:
        assert t.take(s, t.pending[s][0]) is False
    assert t.take(rest[-1], t.pending[rest[-1]][0]) is True
    assert t.seq == seq + 1 and t.answers == {}


def test_each_person_is_shown_its_own_view_and_the_public_one_hides_hands() -> None:
    t = started()
    game = t.game
    assert game is not None and t.public is not None
    for seat in t._seats():
        assert seat.shown is not None and seat.shown.seq == t.seq
        assert seat.shown.view == game.view(seat.index)
        assert seat.shown.number == seat.views == t.view_seq(seat.index) == 1
    assert t.public.view == public_view(game.view(0)) == public_view(game.view(3))
    assert t.public.view.hand == () and t.view_seq(None) == t.public_views == 1


def test_bots_are_not_shown_anything() -> None:
    t = started(people=2)
    assert [s.shown is not None for s in t._seats()] == [True, True, False, False]


def test_seats_not_asked_are_shown_nothing_while_others_decide() -> None:
    t = started()
    game = t.game
    assert game is not None
    for _ in range(2000):
        if game.phase in PAUSE_PHASES or game.is_over:
            break
        answer_all(t)
    assert game.phase in PAUSE_PHASES, "no claim in this deal"
    for seat in t._seats():
        assert seat.shown is not None
        assert (seat.shown.seq == t.seq) == (seat.index in t.pending)
    assert t.public is not None and t.public.seq < t.seq  # the spectators neither


def test_refusals_stale_malformed_illegal_answered() -> None:
    t = several_asked()
    s = next(iter(t.pending))
    seq = t.view_seq(s)
    stale = t.check(s, seq + 5, "pass")
    assert isinstance(stale, Refusal) and stale.code == "stale" and stale.seq == seq
    bad = t.check(s, seq, "fly away")
    assert isinstance(bad, Refusal) and bad.code == "malformed"
    legal = t.pending[s]
    illegal = next(a for a in map(Action.parse, ("pass", "discard 1m", "discard 5p", "hu")) if a not in legal)
    refused = t.check(s, seq, str(illegal))
    assert isinstance(refused, Refusal) and refused.code == "illegal" and refused.action == illegal
    ok = t.check(s, seq, str(legal[0]))
    assert ok == legal[0] and not isinstance(ok, Refusal)
    assert t.take(s, legal[0]) is False
    again = t.check(s, seq, str(legal[0]))
    assert isinstance(again, Refusal) and again.code == "answered"


def test_a_seat_not_asked_is_refused_as_illegal() -> None:
    t = started()
    idle = next(s.index for s in t._seats() if s.index not in t.pending)
    refused = t.check(idle, t.view_seq(idle), "pass")
    assert isinstance(refused, Refusal) and refused.code == "illegal"


def test_the_deadline_is_data_set_when_asked() -> None:
    t = started(timer=10.0)
    t.ask(1000.0)
    assert t.deadline == 1010.0 and t.public_deadline == 1010.0
    untimed = started()
    untimed.ask(1000.0)
    assert untimed.deadline is None and untimed.public_deadline is None


def test_a_timeout_answers_for_every_seat_still_to_answer_and_legally() -> None:
    t = started(timer=5.0)
    picks = t.timeout_answers(t.seq)
    assert [s for s, _ in picks] == t.to_answer()
    assert all(a in t.pending[s] for s, a in picks)
    assert t.timeout_answers(t.seq - 1) == []  # a timer of a moment that has passed does nothing
    for s, a in picks:
        t.take(s, a)
    assert t.answers == {} or set(t.answers) < set(t.pending)


def test_a_hand_plays_to_its_end_on_timeouts_alone() -> None:
    t = started(timer=5.0)
    game = t.game
    assert game is not None
    for _ in range(5000):
        if game.is_over:
            break
        for s, a in t.timeout_answers(t.seq):
            t.take(s, a)
    assert game.is_over and t.pending == {}


def test_bots_are_due_only_at_their_moment_and_with_a_person_there() -> None:
    t = started(people=1)
    bot = next((s for s in t.to_answer() if t._seat(s).botted), None)
    assert bot is not None, "no bot asked at the deal"
    assert not t.bot_due(bot, t.seq)  # nobody is connected
    person = t._seat(0)
    person.conn = Conn(Quiet(), 0)
    assert t.people_here and t.bot_due(bot, t.seq)
    assert not t.bot_due(bot, t.seq - 1)
    t.closed = "expired"
    assert not t.bot_due(bot, t.seq)


def test_next_hand_votes_count_connected_people_not_in_tuoguan() -> None:
    t = started(people=3)
    game = t.game
    assert game is not None
    for i in range(3):
        t._seat(i).conn = Conn(Quiet(), i)
    t._seat(2).auto = True
    while not game.is_over:
        for s, a in t.timeout_answers(t.seq):
            t.take(s, a)
    assert not t.vote_next(0)
    assert t.vote_next(1)  # seat 2 is in 托管, seat 3 a bot: their votes are not waited for
    seq = t.seq
    t.new_hand()
    assert t.seq == seq + 1 and t.next_votes == set() and t.answers == {} and t.game is not game
    assert all(s.shown is None or s.shown.seq == t.seq for s in t._seats())  # nothing of the last hand
    assert t.public is None or t.public.seq == t.seq


def test_replay_rebuilds_the_same_moment() -> None:
    t = started()
    taken: list[tuple[int, int, str]] = []
    assert t.match is not None
    for _ in range(40):
        for s in t.to_answer():
            a = t.pending[s][0]
            taken.append((t.match.hand_index, s, str(a)))
            t.take(s, a)
    again = table()
    again.replay(taken)
    assert again.game is not None and t.game is not None
    assert again.seq == t.seq and again.pending == t.pending
    assert again.game.view(1) == t.game.view(1)
