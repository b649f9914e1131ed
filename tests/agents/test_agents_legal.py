"""Bots: the registry, and that every bot only ever answers with a legal action, over seeded hands of every preset.

Speed (< 50 ms per decision) is measured in benchmarks/bots.py, not asserted here.
"""

from __future__ import annotations

import random

import pytest
from win_model import p_win_fitted

import sichuan_mahjong as sm
from sichuan_mahjong.agents import AGENTS, Agent, UnknownAgentError, agent_names, make_agent
from sichuan_mahjong.agents.expert import p_win, plan_value
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.tiles import POW5


def test_registry() -> None:
    assert agent_names()[:3] == ["random", "efficient", "expert"]
    for name in agent_names():
        bot = make_agent(name, seed=1)
        assert isinstance(bot, Agent) and bot.name == name
    with pytest.raises(UnknownAgentError, match="unknown bot 'nobody'; bots: random, efficient, expert, master"):
        make_agent("nobody")
    assert set(AGENTS) >= {"random", "efficient", "expert"}


PRESETS = ["seed", "standard", "standard_kong", "bloody", "app"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(4))
def test_bots_answer_legally(preset: str, seed: int) -> None:
    """A mixed table of all three bots plays whole hands; every answer must be in the legal list it was given."""
    rules = sm.Rules.preset(preset)
    names = ["expert", "efficient", "random", "expert"] if seed % 2 else ["efficient", "expert", "expert", "random"]
    bots = [make_agent(n, seed=seed * 10 + i) for i, n in enumerate(names)]
    game = Game(rules, seed=1000 + seed)
    decisions = 0
    while not game.is_over:
        asked = game.to_act()
        answers = {}
        for s, legal in asked.items():
            view = game.view(s)
            assert tuple(legal) == view.legal
            a = bots[s].act(view, legal)
            assert a in legal, f"{names[s]} at seat {s} answered {a} not in {legal}"
            answers[s] = a
            decisions += 1
        game.step(answers)
    assert decisions > 10
    assert sum(game.result.deltas) == 0


def test_same_seed_same_choices() -> None:
    def play(seed: int) -> list[str]:
        bots = [make_agent(n, seed=seed + i) for i, n in enumerate(["random", "efficient", "expert", "random"])]
        game = Game(sm.Rules(), seed=3)
        while not game.is_over:
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
        return [str(e.data.get("action")) for e in game.events if e.type == "act"]

    assert play(5) == play(5)


def _state(tiles: str, void: int = -1) -> HandState:
    counts = [0] * 27
    for t in sm.parse_tiles(tiles):
        counts[t.index] += 1
    keys = [sum(counts[s * 9 + r] * POW5[r] for r in range(9)) for s in range(3)]
    return HandState(counts, keys, (), 0, 0, void, [4 - c for c in counts], [0] * 27)


def test_fast_ukeire_matches_the_evaluator() -> None:
    rng = random.Random(7)
    for _ in range(300):
        wall = [t for t in range(27) for _ in range(4)]
        rng.shuffle(wall)
        hand = wall[:13]
        h = _state(sm.format_tiles(hand), void=rng.choice([-1, -1, 0, 1, 2]))
        h.unseen = [rng.randint(0, 4 - c) for c in h.counts]
        s = h.shanten()
        assert h.ukeire(s) == h.ukeire_slow(s)
        improvement = sm.improvements(hand, void=h.void if h.void >= 0 else None)
        assert s == improvement.shanten
        assert set(h.useful(s)) == {t.index for t, _ in improvement.useful}


def test_efficient_discards_the_third_suit_and_keeps_the_wait() -> None:
    hands = ["123m456m789m11p23p5s", "123456789m1357p", "12345678s23456p", "99m99887766p5p45s"]
    game = Game.setup(sm.Rules().replace(declare_ready=False), hands, dealer=0)
    assert list(game.to_act()) == [0]
    view = game.view(0)
    action = make_agent("efficient").act(view, game.to_act()[0])
    assert str(action) == "discard 5s"


def test_read_view_counts_what_the_seat_sees() -> None:
    game = Game(sm.Rules(), seed=11)
    bots = [make_agent("efficient", seed=i) for i in range(4)]
    for _ in range(30):
        if game.is_over:
            break
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    view = game.view(0)
    h = read_view(view)
    assert sum(h.counts) == len(view.tiles)
    rivers = sum(len(r) for r in view.discards)
    assert sum(h.seen) >= rivers
    assert all(0 <= u <= 4 for u in h.unseen)


def test_p_win_is_a_probability_that_rises_with_useful_tiles() -> None:
    values = [p_win(1, uk, 10, 80) for uk in (0, 4, 8, 16, 32)]
    assert values == sorted(values) and values[0] == 0.0 and values[-1] < 1.0
    assert p_win(-1, 0, 0, 0) == 1.0
    assert p_win(0, 8, 10, 80) > p_win(2, 8, 10, 80)


def test_plan_value_sees_a_near_flush_only() -> None:
    """The 清一色 plan is priced for a hand one tile off one suit, and not at all for a hand spread over three."""
    near = _state("1123456789999m5p")
    near.remove(sm.Tile.from_str("9m").index)
    assert sum(near.counts) == 13
    assert plan_value(near, 12.0, 80, near.shanten(), 0, std=False) > 0.0
    spread = _state("123m456p789s125m3p")
    assert plan_value(spread, 12.0, 80, spread.shanten(), 0, std=False) == 0.0


def test_fitted_p_win_is_a_probability_that_rises_with_useful_tiles_and_draws() -> None:
    for void_rules in (False, True):
        for s in range(6):
            by_useful = [p_win_fitted(s, uk, 10, void_rules) for uk in (0, 4, 8, 16, 32)]
            assert all(0.0 < p < 1.0 for p in by_useful)
            assert by_useful == sorted(by_useful)
            by_draws = [p_win_fitted(s, 8, d, void_rules) for d in (1, 4, 8, 13)]
            assert by_draws == sorted(by_draws)
    assert p_win_fitted(-1, 0, 0) == 1.0
    assert p_win_fitted(2, 8, 0) == 0.0
    assert p_win_fitted(0, 8, 10) > p_win_fitted(2, 8, 10)
