"""The Game API under a hypothesis state machine (issue 10, item 6): random legal and illegal answers, missing and
extra seats, garbage text, answers after the end. Every illegal call raises its typed error (IllegalActionError,
or ActionParseError for text that is no action) and leaves the game exactly as it was: its JSON, who is asked
and what, and every seat's view."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import NUM_ACTIONS, ActionParseError

ALL_ACTIONS = [sm.Action.from_index(i) for i in range(NUM_ACTIONS)]
GARBAGE = ["", "chow", "discard", "discard 0m", "discard 10p", "hu now", "void x", "exchange 1m", "kong 5p 6p", "🀄"]


def _snapshot(game: sm.Game) -> tuple[Any, ...]:
    return (game.to_json(), game.to_act(), tuple(game.view(s) for s in range(4)), game.deltas, game.phase)


class GameMachine(RuleBasedStateMachine):
    game: sm.Game

    @initialize(
        preset=st.sampled_from(sorted(sm.PRESETS)),
        seed=st.integers(0, 2**32),
        exchange=st.booleans(),
        void=st.booleans(),
    )
    def deal(self, preset: str, seed: int, exchange: bool, void: bool) -> None:
        rules = sm.Rules.preset(preset).replace(exchange_three=exchange, declare_void=void)
        self.game = sm.Game(rules, seed)
        self.hands = 0

    def _illegal(self, answers: dict[Any, Any], error: type[Exception] = sm.IllegalActionError) -> None:
        before = _snapshot(self.game)
        try:
            self.game.step(answers)
        except error:
            pass
        else:
            raise AssertionError(f"{answers!r} was accepted; asked {self.game.to_act()}")
        assert _snapshot(self.game) == before, answers

    # ------------------------------------------------------------------------------------------ legal
    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data(), as_text=st.booleans())
    def answer_legally(self, data: st.DataObject, as_text: bool) -> None:
        answers: dict[int, sm.Action | str] = {}
        for seat, legal in self.game.to_act().items():
            action = data.draw(st.sampled_from(legal))
            answers[seat] = str(action) if as_text else action
        self.game.step(answers)

    @precondition(lambda self: self.game.is_over)
    @rule(seed=st.integers(0, 2**32))
    def next_hand(self, seed: int) -> None:
        self._illegal({0: "pass"})  # the hand is over: nobody may act
        self._illegal({})
        self.game = sm.Game(self.game.rules, seed, dealer=self.game.result.next_dealer)
        self.hands += 1

    # ---------------------------------------------------------------------------------------- illegal
    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def answer_one_illegal_action(self, data: st.DataObject) -> None:
        asked = self.game.to_act()
        seat = data.draw(st.sampled_from(sorted(asked)))
        wrong = [a for a in ALL_ACTIONS if a not in asked[seat]]
        answers: dict[int, sm.Action | str] = {s: legal[0] for s, legal in asked.items()}
        answers[seat] = (
            data.draw(st.sampled_from(wrong)) if data.draw(st.booleans()) else str(data.draw(st.sampled_from(wrong)))
        )
        self._illegal(answers)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def leave_a_seat_out(self, data: st.DataObject) -> None:
        asked = self.game.to_act()
        missing = data.draw(st.sampled_from(sorted(asked)))
        self._illegal({s: legal[0] for s, legal in asked.items() if s != missing})

    @precondition(lambda self: not self.game.is_over and len(self.game.to_act()) < 4)
    @rule(data=st.data(), seat=st.sampled_from([0, 1, 2, 3, 4, -1, 99]))  # found: seat 4's "hu" was an IndexError
    def answer_for_a_seat_not_asked(self, data: st.DataObject, seat: int) -> None:
        asked = self.game.to_act()
        if seat in asked:
            return
        answers: dict[int, sm.Action] = {s: legal[0] for s, legal in asked.items()}
        answers[seat] = data.draw(st.sampled_from(ALL_ACTIONS))
        self._illegal(answers)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data(), text=st.sampled_from(GARBAGE) | st.text(max_size=12))
    def answer_garbage(self, data: st.DataObject, text: str) -> None:
        asked = self.game.to_act()
        seat = data.draw(st.sampled_from(sorted(asked)))
        try:
            action = sm.Action.parse(text)
        except ActionParseError:
            answers: dict[int, sm.Action | str] = {s: legal[0] for s, legal in asked.items()}
            answers[seat] = text
            self._illegal(answers, ActionParseError)
            return
        if action not in asked[seat]:  # text that reads as an action the seat may not take now
            self._illegal({**{s: legal[0] for s, legal in asked.items()}, seat: text})

    # --------------------------------------------------------------------------------------- invariants
    @invariant()
    def money_sums_to_zero(self) -> None:
        assert sum(self.game.deltas) == 0

    @invariant()
    def somebody_is_asked_until_the_end(self) -> None:
        assert bool(self.game.to_act()) != self.game.is_over


GameMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_game_state_machine = GameMachine.TestCase


def test_an_answer_from_no_seat_is_illegal_not_a_crash() -> None:
    """What the state machine found: seat 4 answering 'hu' during a claim raised IndexError."""
    game = sm.Game(sm.Rules.preset("app"), 0)
    while game.phase != "claim":
        game.step({s: legal[0] for s, legal in game.to_act().items()})
    before = game.to_json()
    for seat in (4, -1, 99):
        with pytest.raises(sm.IllegalActionError, match=r"is not a seat: seats are 0\.\.3"):
            game.step({**{s: legal[-1] for s, legal in game.to_act().items()}, seat: "hu"})
    assert game.to_json() == before
