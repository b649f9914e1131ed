"""seat_log: one seat's view rebuilt from its filtered events alone, and the steps of a one-seat record."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import scripted
import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import Event, Observation
from sichuan_mahjong.record import HandRecord, RecordError, hand_to_jsonl, parse_record
from sichuan_mahjong.seat_log import SeatLog, seat_steps

#: Seats 1 and 2 are ready after the deal: the 报叫 round asks them (docs/rules.md R9.6).
READY_AT_DEAL = ["5p4p8p9p9p8s8s3m3m4m4m5m5m6m", "111m234m567m789m5p", "222s333s444s666s5p", "11s55s77s99s123p67p"]


def answers(seed: int, bot: str | None = None) -> Callable[[sm.Game], dict[int, sm.Action]]:
    """Random answers, or every seat played by ``bot``."""
    rng = random.Random(seed)
    bots = [make_agent(bot, seed=seed + s) for s in range(4)] if bot else None

    def answer(game: sm.Game) -> dict[int, sm.Action]:
        asked = game.to_act()
        if bots:
            return {s: bots[s].act(game.view(s), legal) for s, legal in asked.items()}
        return {s: rng.choice(legal) for s, legal in asked.items()}

    return answer


def played(game: sm.Game, seed: int, bot: str | None = None) -> sm.Game:
    answer = answers(seed, bot)
    while not game.is_over:
        game.step(answer(game))
    return game


def engine_view(game: sm.Game, seat: int) -> Observation:
    """What the log can give of game.view(seat): no legal answers, no 过水 lock (only the engine knows them)."""
    return game.view(seat)._replace(legal=(), pass_lock=None)


def follow(game: sm.Game, answer: Callable[[sm.Game], dict[int, Any]]) -> int:
    """Feed each seat's log as the hand goes and compare with the engine's view at every decision; returns how many."""
    logs, fed, checked = [SeatLog(s) for s in range(4)], [0] * 4, 0
    while True:
        for s in range(4):
            mine = game.events_for(s)
            for event in mine[fed[s] :]:
                logs[s].apply(event)
            fed[s] = len(mine)
            want = engine_view(game, s)
            if game.phase == "declare":  # a 报叫 round the seat is not asked in leaves no trace in its log
                want = want._replace(phase="play")
            assert logs[s].view() == want, (s, len(game.events))
            checked += 1
        if game.is_over:
            return checked
        game.step(answer(game))


@pytest.mark.parametrize("preset", ["app", "seed", "standard", "standard_kong", "bloody"])
def test_the_log_gives_the_seats_view_at_every_decision(preset: str) -> None:
    kinds: set[str] = set()
    for seed in range(8):
        game = sm.Game(sm.Rules.preset(preset), seed)
        assert follow(game, answers(seed, "efficient" if seed % 2 else None)) >= 4 * 10
        kinds |= {e.type for e in game.events}
    assert {"draw", "discard", "pung", "payment", "win", "end"} <= kinds


def test_the_log_follows_a_robbed_kong_and_the_baojiao_round() -> None:
    robbed, script = scripted.robbed_kong_deal()
    script.append({2: "hu"})
    steps = iter(script)
    follow(robbed, lambda game: next(steps))  # the kong waits as a pung, then the tile goes to the robber
    assert [e.type for e in robbed.events].count("robbed") == 1
    ready = scripted.deal(READY_AT_DEAL, wall="9m", rules=sm.Rules())
    assert ready.phase == "declare"
    script = [{1: "declare_ready", 2: "pass"}, {0: "discard 8p"}, {1: "discard 9m"}, {2: "discard 5p"}, {1: "hu"}]
    steps, rest = iter(script), answers(5)
    follow(ready, lambda game: next(steps, None) or rest(game))  # then random answers to the end
    assert ready.view(3).ready == (False, True, False, False)


def hand_of(game: sm.Game, seat: int) -> HandRecord:
    (hand,) = parse_record(hand_to_jsonl(game, seat=seat)).hands
    return hand


@pytest.mark.parametrize(("seed", "seat"), [(1, 3), (11, 1), (13, 2)])
def test_the_steps_of_a_one_seat_record(seed: int, seat: int) -> None:
    """One step per move, built from the log alone; the last holds the hand's end as the engine had it."""
    game = played(sm.Game(sm.Rules.preset("app"), seed), seed, "efficient")
    assert any(e.type == "concealed_kong" and e.seat != seat for e in game.events)  # a kong to hide
    hand = hand_of(game, seat)
    steps = seat_steps(hand, seat)
    assert steps[0].at == 1 and steps[-1].at == len(hand.events) == len(game.events_for(seat))
    assert [s.at for s in steps] == sorted({s.at for s in steps})
    end, last = engine_view(game, seat), steps[-1].view
    assert last == end and last.is_over and steps[-1].asked == {}
    assert last.scores == tuple(game.events[-1].data["deltas"])  # the settlement: the end event's deltas
    assert last.concealed_counts == tuple(len(game.view(s).tiles) for s in range(4))
    assert last.hidden_kongs[seat] == 0 and sum(last.hidden_kongs) > 0
    for s in range(4):  # every seat's public melds; concealed kongs face up for this seat only
        melds = game.view(s).melds[s]
        public = tuple(m for m in melds if not m.is_concealed)
        assert last.melds[s] == (melds if s == seat else public)
        assert last.hidden_kongs[s] == (0 if s == seat else len(melds) - len(public))
    for step in steps:  # nothing but the seat's own tiles: every other hand is a count
        view = step.view
        assert view.seat == seat and view.legal == () and view.pass_lock is None
        assert len(view.tiles) == view.concealed_counts[seat]
        assert all(not m.is_concealed for s in range(4) if s != seat for m in view.melds[s])


def test_a_step_waits_where_the_log_shows_an_answer() -> None:
    """Who is asked: the seat on turn, the seat itself before its own answer, the 报叫 round from its traces."""
    game = scripted.deal(READY_AT_DEAL, wall="9m", rules=sm.Rules())
    for answers in (
        {1: "declare_ready", 2: "pass"},
        {0: "discard 8p"},
        {1: "discard 9m"},
        {2: "discard 5p"},
        {1: "hu"},
    ):
        game.step(answers)
    declare = sm.Action.parse("declare_ready"), sm.Action.parse("pass")
    two = seat_steps(hand_of(game, 2), 2)
    assert two[0].view.phase == "declare" and two[0].asked == {2: declare}
    three = seat_steps(hand_of(game, 3), 3)
    assert three[0].view.phase == "declare" and three[0].asked == {}  # seat 1's 报叫 tells of the round
    assert three[1].view.ready == (False, True, False, False)
    assert three[1].view.phase == "play" and three[1].asked == {0: ()}  # the dealer plays
    claim = next(s for s in two if s.view.phase == "claim")  # seat 2's discard, then seat 1 wins on it
    assert claim.view.pending_tile == sm.Tile.from_str("5p") and claim.view.turn == 2 and claim.asked == {}
    assert three[-1].view.wins[0].seat == 1 and three[-1].view.discards[2] == ()  # the won discard left the river


def test_what_the_seat_could_not_see_is_refused() -> None:
    game = played(sm.Game(sm.Rules.preset("app"), 1), 1, "efficient")
    full = game.events
    cases: list[tuple[list[Event], str]] = [
        (full[:1], "it holds every hand"),
        ([*game.events_for(3)[:5], next(e for e in full if e.type == "act" and e.seat != 3)], "another seat's answer"),
        ([*game.events_for(3)[:5], next(e for e in full if e.type == "draw" and e.seat != 3)], "concealed tile"),
        ([*game.events_for(3)[:1], next(e for e in full if e.type == "exchange")], "every seat's exchanged tiles"),
    ]
    for events, why in cases:
        log = SeatLog(3)
        with pytest.raises(ValueError, match=f"seat 3 could not see this .*{why}"):
            for event in events:
                log.apply(event)
        with pytest.raises(RecordError, match=f"event {len(events)}: seat 3's log does not add up: .*{why}"):
            seat_steps(HandRecord({}, events, None, None, None), 3)


def test_a_log_that_does_not_add_up() -> None:
    game = played(sm.Game(sm.Rules.preset("seed"), 4), 4)
    mine = game.events_for(0)
    own = next(i for i, e in enumerate(mine) if e.type == "discard" and e.seat == 0)
    tile = "9s" if mine[own].data["tile"] != "9s" else "1m"
    held = SeatLog(0)
    for event in mine[:1]:
        held.apply(event)
    bad = [*mine[:own], Event("discard", 0, {"tile": tile}), *mine[own + 1 :]]
    with pytest.raises(RecordError, match="does not add up: seat 0 gives up 1 × "):
        seat_steps(HandRecord({}, bad, None, None, None), 0)
    pung = [*mine[:1], Event("pung", 1, {"tile": "5p", "from_seat": 2})]
    with pytest.raises(RecordError, match=r"event 2: .*claims 5p, which is not the discard waiting"):
        seat_steps(HandRecord({}, pung, None, None, None), 0)
    with pytest.raises(ValueError, match="a hand starts with its 'deal' event"):
        SeatLog(0).apply(mine[1])
