"""A seat's own 过水不胡 lock in its view (docs/rules.md R9.1, R12): ``Observation.pass_lock``.

The view carries the seat's own lock (the capped fan of the best win it passed since its last draw) and nothing
of another seat's: a view of seat o is the same whether or not seat s (s != o) is locked. The engine's lock is
``Game._lock`` (-1 unlocked), read here only to check the view against it.
"""

from __future__ import annotations

import random

import pytest

import sichuan_mahjong as sm
from scripted import act, deal
from sichuan_mahjong.agents import Agent, make_agent
from sichuan_mahjong.game.actions import HU, PASS

#: Seat 1 deals and discards 9p, on which seat 0 (waiting on 6p 9p, 平胡) may win; seat 2 then draws 9p.
HANDS = [
    "1m1m2m3m4m5m6m7m2p3p4p7p8p",
    "9p5m8m5p1s4s7s9s1p3p6m2s2m1s",
    "2p3p4p6p7p8p3s3s8s8s7s5s6s",
    "1m2m3m4m5m6m7m8m9m9p9p4p1s",
]


def engine_lock(g: sm.Game, seat: int) -> int | None:
    lock: int = g._lock[seat]
    return lock if lock >= 0 else None


def check_lock_views(g: sm.Game) -> None:
    """Each view shows its own seat's lock, and clearing one seat's lock changes no other seat's view."""
    for s in range(4):
        assert g.view(s).pass_lock == engine_lock(g, s)
    for s in range(4):
        lock = g._lock[s]
        if lock < 0:
            continue
        others = [g.view(o) for o in range(4) if o != s]
        g._lock[s] = -1
        try:
            assert [g.view(o) for o in range(4) if o != s] == others, f"seat {s}'s lock shows in another view"
        finally:
            g._lock[s] = lock


def test_pass_lock_follows_a_pass_another_discard_and_the_own_draw() -> None:
    g = deal(HANDS, wall="9p", dealer=1, seed=1)
    act(g, {1: "discard 9p"})
    assert HU in g.to_act()[0]
    assert g.view(0).pass_lock is None  # offered a win, not yet passed
    check_lock_views(g)

    act(g, {})  # seat 0 passes the 0-fan win (seat 3 passes its pung)
    assert g.view(0).pass_lock == 0 == engine_lock(g, 0)  # 0 fan is a lock, distinct from None
    assert [g.view(s).pass_lock for s in (1, 2, 3)] == [None, None, None]
    check_lock_views(g)

    act(g, {2: "discard 9p"})  # seat 2 drew 9p: the same tile from another seat
    view = g.view(0)
    assert view.phase == "claim" and HU not in view.legal and view.pass_lock == 0
    with pytest.raises(sm.IllegalActionError, match="过水不胡"):
        g.step({s: HU if s == 0 else "pass" for s in [0, *g.to_act()]})
    check_lock_views(g)

    # the others pass and discard what they draw until seat 0 draws: its own draw clears the lock
    while not (g.phase == "play" and g.view(0).turn == 0):
        assert g.view(0).pass_lock == 0
        turn = g.view(0).turn
        if g.phase == "play":
            drawn = g.view(turn).drawn
            assert drawn is not None
            act(g, {turn: f"discard {drawn}"})
        else:
            act(g, {})
        check_lock_views(g)
    view = g.view(0)
    assert view.drawn is not None and view.pass_lock is None and engine_lock(g, 0) is None


def test_positional_construction_without_the_field_still_works() -> None:
    view = sm.Game(seed=3).view(0)
    rebuilt = sm.Observation(*view[:-1])
    assert rebuilt == view and rebuilt.pass_lock is None
    assert sm.Observation._fields[-1] == "pass_lock"


def answer(bot: Agent, g: sm.Game, s: int, opts: list[sm.Action], rng: random.Random) -> sm.Action:
    """The shanten bot's answer, except that an offered win on a discard is passed four times in five."""
    if g.phase in ("claim", "rob") and HU in opts and PASS in opts and rng.random() < 0.8:
        return PASS
    return bot.act(g.view(s), opts)


@pytest.mark.parametrize("preset", ["seed", "app", "standard"])
def test_views_carry_only_their_own_lock_in_played_hands(preset: str) -> None:
    rules = sm.Rules.preset(preset)
    locked = 0
    for seed in range(12):
        g = sm.Game(rules, seed)
        bots = [make_agent("efficient", seed=seed * 4 + s) for s in range(4)]
        rng = random.Random(seed)
        while not g.is_over:
            check_lock_views(g)
            locked += any(lock >= 0 for lock in g._lock)
            g.step({s: answer(bots[s], g, s, opts, rng) for s, opts in g.to_act().items()})
        check_lock_views(g)
    assert locked > 0, "no win was passed: the property was not exercised"
