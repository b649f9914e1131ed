"""The environments' fast path: a PlaneTracker's observation equals ``encode(game.view(seat))`` for every seat at
every step: random hands of every preset, hands full of claims, kongs, wins and passed wins, scripted robbing,
一炮多响 and 报叫, a game handed over mid-hand (test_rl_aec checks the env's observations against encode too)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import pytest

import scripted
import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import play
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.rl import encode
from sichuan_mahjong.rl.encode import PLANES
from sichuan_mahjong.rl.tracker import PlaneTracker
from sichuan_mahjong.seat_log import SeatLog

Policy = Callable[[sm.Game, int, Sequence[Action]], Action]
Answers = Callable[[sm.Game], dict[int, Action | str]]


class Observer(Protocol):
    def observe(self, seat: int) -> np.ndarray: ...


def _differs(tracker: Observer, game: sm.Game) -> list[str]:
    """Each seat whose tracked planes differ from encode(view), with the planes that differ."""
    out = []
    for s in range(4):
        got, want = tracker.observe(s), encode(game.view(s))
        assert got.dtype == np.float32 and got.shape == want.shape
        if not np.array_equal(got, want):
            rows = {int(r) for r in np.argwhere(got != want)[:, 0]}
            names = sorted({p.name for p in PLANES for r in rows if p.start <= r < p.start + p.rows})
            out.append(f"seat {s}: {names}")
    return out


def _each(policy: Policy) -> Answers:
    return lambda game: {s: policy(game, s, legal) for s, legal in game.to_act().items()}


def _play(game: sm.Game, answers: Answers, tracker: Observer | None = None) -> Counter[str]:
    """Play the hand out, checking every seat's tracked planes after every step; the event types seen."""
    tracker = tracker or PlaneTracker(game)
    while True:
        assert not _differs(tracker, game), f"{game.phase} after {game.events[-3:]}: {_differs(tracker, game)}"
        if game.is_over:
            return Counter(e.type for e in game.events)
        game.step(answers(game))


def _random(seed: int) -> Policy:
    rng = random.Random(seed)
    return lambda game, seat, legal: rng.choice(legal)


def _eventful(seed: int) -> Policy:
    """Efficient bots that always kong and 报叫, and pass a third of the wins they could take (过水 locks)."""
    rng = random.Random(seed)
    bots = [make_agent("efficient", seed * 4 + s) for s in range(4)]
    eager = (ActionKind.DECLARE_READY, ActionKind.ADDED_KONG, ActionKind.CONCEALED_KONG, ActionKind.KONG)

    def act(game: sm.Game, seat: int, legal: Sequence[Action]) -> Action:
        for a in legal:
            if a.kind in eager:
                return a
        if len(legal) > 1 and any(a.kind is ActionKind.HU for a in legal) and rng.random() < 0.3:
            return next(a for a in legal if a.kind is not ActionKind.HU)
        return bots[seat].act(game.view(seat), list(legal))

    return act


@pytest.mark.parametrize("preset", sorted(sm.PRESETS))
def test_random_hands_every_seat_every_step(preset: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        seen += _play(sm.Game(sm.Rules.preset(preset), seed), _each(_random(seed)))
    assert seen["discard"] > 100 and seen["pung"] > 0


@pytest.mark.parametrize("preset", ["app", "seed", "bloody_kong", "standard_kong"])
def test_hands_full_of_claims_kongs_wins_and_passed_wins(preset: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        seen += _play(sm.Game(sm.Rules.preset(preset), seed), _each(_eventful(seed)))
    assert seen["win"] >= 4 and seen["kong"] + seen["concealed_kong"] + seen["added_kong"] > 0


def _scripted(script: list[dict[int, str]]) -> Answers:
    """One scripted step after another (every other asked seat passes), then every seat discards its drawn tile."""
    steps = iter(script)

    def answers(game: sm.Game) -> dict[int, Action | str]:
        given = next(steps, None)
        pending = game.to_act()
        if given is not None:
            return {s: given.get(s, "pass") for s in pending}
        return {s: legal[-1] if game.phase == "play" else Action.parse("pass") for s, legal in pending.items()}

    return answers


def test_a_robbed_kong_a_lock_and_a_pung() -> None:
    """tests/game's robbing deal: seat 3 pungs as seat 1 passes a win (locked), then seat 1 robs the added kong."""
    hands = [
        "1m9m1s2s3s4s6s8s9s1p2p6p7p8p",
        "23m567m345p999p55p",
        "4m8m1s2s3s4s6s8s9s1p2p6p7p",
        "1m1m6m7m8m5s6s7s7s4p8p3s9s",
    ]
    game = scripted.deal(hands, "7m8m5m1m", seed=29, robbing_kong_fan=1)
    steps = [{0: "discard 1m"}, {3: "pung"}, {3: "discard 9s"}, {0: "discard 7m"}, {1: "discard 8m"}]
    steps += [{2: "discard 5m"}, {3: "added_kong 1m"}, {1: "hu"}]
    seen = _play(game, _scripted(steps))
    assert seen["robbed"] == 1 and seen["pung"] == 1 and game.view(0).wins[0].robbed_kong


def test_one_discard_won_by_two_seats_or_punged_past_two_ready_seats() -> None:
    hands = ["5p1m1m1m2m2m2m3m3m3m4m4m4m9s", "5p5p1s1s1s2s3s4s6s7s8s9s9s", "4p6p1p2p3p7p8p9p5m5m5m6m6m"]
    hands.append("3p4p6p6p6p7m7m7m8m8m8m9m9m")
    game = scripted.deal(hands, "7s")
    seen = _play(game, _scripted([{0: "discard 5p"}, {2: "hu", 3: "hu"}]))
    wins = game.view(0).wins
    assert [(w.seat, w.from_seat) for w in wins[:2]] == [(2, 0), (3, 0)] and seen["win"] >= 2
    game = scripted.deal(hands, "7s")  # seat 1 pungs the 5p, seats 2 and 3 pass their wins
    _play(game, _scripted([{0: "discard 5p"}, {1: "pung"}]))


def test_the_dealer_declares_ready_on_his_first_turn() -> None:
    hands = [
        "111m234m567m789m5p9s",
        "1p3p5p7p9p2s4s6s8s1s3s5s7s",
        "2p4p6p8p1p3p5p7p2s4s6s8s9p",
        "2p4p6p8p9p1s3s5s7s9s2m4m6m",
    ]
    seen = _play(scripted.deal(hands, rules=sm.Rules()), _scripted([{0: "declare_ready"}, {0: "discard 9s"}]))
    assert seen["ready"] == 1


def test_a_game_handed_over_mid_hand_is_caught_up_locks_included() -> None:
    """A tracker made mid-hand reads the whole log; handed over while a seat holds a 过水 lock, it shows it."""
    locked = 0
    for seed in range(16):
        game = sm.Game(sm.Rules.preset("app"), seed)
        answers = _each(_eventful(seed))
        while not game.is_over and not any(game.view(s).pass_lock is not None for s in range(4)):
            game.step(answers(game))
        if not game.is_over:
            locked += 1
            _play(game, answers, PlaneTracker(game))
    assert locked >= 3


def test_the_check_catches_a_wrong_plane() -> None:
    """Negative control: a tracker whose river order row is left stale is caught at the first discard."""

    river = next(p for p in PLANES if p.name == "river")
    order = [river.start + 6 * r + 4 for r in range(4)]  # each seat's river order row (docs/rl.md)

    class Stale:  # wraps rather than subclasses: the compiled tracker (make compiled) cannot be subclassed
        def __init__(self, game: sm.Game) -> None:
            self.tracker = PlaneTracker(game)
            self.first: dict[int, np.ndarray] = {}

        def observe(self, seat: int) -> np.ndarray:  # a bug: the order rows never change
            planes = self.tracker.observe(seat)
            planes[order] = self.first.setdefault(seat, planes[order].copy())
            return planes

    game = sm.Game(sm.Rules.preset("app"), 0)
    with pytest.raises(AssertionError, match="river"):
        _play(game, _each(_random(0)), Stale(game))


@pytest.mark.parametrize("preset", ["app", "seed", "bloody"])
def test_the_tracker_and_each_seat_log_fold_the_events_alike(preset: str) -> None:
    """The two folds of the event log (the tracker: every seat's planes at once; ``SeatLog``: one seat's view from
    its filtered events) agree at every step of many hands: encoding the seat log's view gives the tracker's
    planes. The seat log knows no legal answers nor 过水 lock (the engine's), and shows the 报叫 round as ``play``;
    those three come from the game."""
    steps = 0
    for seed in range(8):
        game = sm.Game(sm.Rules.preset(preset), seed=seed)
        bots = [make_agent("efficient" if s % 2 else "random", seed=seed * 4 + s) for s in range(4)]
        tracker = PlaneTracker(game)
        logs = [SeatLog(s) for s in range(4)]
        fed = [0, 0, 0, 0]
        while True:
            for s in range(4):
                events = game.events_for(s)
                for event in events[fed[s] :]:
                    logs[s].apply(event)
                fed[s] = len(events)
                seen = game.view(s)
                folded = logs[s].view()._replace(legal=seen.legal, pass_lock=seen.pass_lock)
                if game.phase == "declare":
                    folded = folded._replace(phase="declare")
                assert np.array_equal(tracker.observe(s), encode(folded)), (preset, seed, s, game.events[-3:])
            if game.is_over:
                break
            play(game, bots, max_steps=1)
            steps += 1
    assert steps > 200
