"""agents/reader.py: the table-reading models read only the view, and their odds match what the hands hold."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.reader import (
    deal_in,
    hold_kinds,
    hold_weights,
    live_counts,
    ready_odds,
    sure_void,
    wait_odds,
)
from sichuan_mahjong.game.sample import sample_game
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.tiles import NUM_KINDS

ROOT = Path(__file__).resolve().parents[2]


def _play_decisions(preset: str, hands: int) -> Iterator[tuple[Game, int, Observation]]:
    """Every discard decision (the seat, its view) of ``hands`` games of four experts, on unseen seeds."""
    rules = sm.Rules.preset(preset)
    for seed in range(hands):
        game = Game(rules, seed=900 + seed)
        bots = [make_agent("expert", seed=seed * 4 + s) for s in range(4)]
        while not game.is_over:
            asked = game.to_act()
            for s in asked:
                view = game.view(s)
                if view.phase == "play":
                    yield game, s, view
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})


def _odds_and_truth(preset: str, hands: int) -> tuple[list[float], list[int], list[float], list[int]]:
    """P(ready) against the real hands, and P(deal-in) of each held tile against them, at discard decisions."""
    p_ready: list[float] = []
    ready: list[int] = []
    p_deal: list[float] = []
    deals: list[int] = []
    for game, s, view in _play_decisions(preset, hands):
        odds = ready_odds(view)
        for o in range(4):
            if o != s and view.active[o]:
                p_ready.append(odds[o])
                ready.append(int(game._is_ready(o)))
        h = read_view(view)
        held = [t for t in range(NUM_KINDS) if h.counts[t]]
        for t, risks in deal_in(view, h, held).items():
            p_deal.append(1 - math.prod(1 - p for _, p in risks))
            wins = (game._is_ready(o) and game._counts[o][t] < 4 and game._wins_with(o, t) for o, _ in risks)
            deals.append(int(any(wins)))
    return p_ready, ready, p_deal, deals


def _log_loss(p: list[float], y: list[int]) -> float:
    return -sum(math.log(max(1e-6, q if x else 1 - q)) for q, x in zip(p, y, strict=True)) / len(y)


@pytest.mark.parametrize("preset", ["seed", "app"])
def test_odds_are_calibrated_and_beat_a_constant(preset: str) -> None:
    """On hands the models never saw: the mean odds match the real rates, and they predict far better than the
    rate alone (log loss), both for who is ready and for which held tile would deal in."""
    p_ready, ready, p_deal, deals = _odds_and_truth(preset, 24)
    for p, y in ((p_ready, ready), (p_deal, deals)):
        assert len(y) > 500
        rate = sum(y) / len(y)
        assert abs(sum(p) / len(p) - rate) < 0.35 * rate
        assert _log_loss(p, y) < 0.85 * _log_loss([rate] * len(y), y)
    # Ready hands are told apart: the ready seats' mean odds are over twice the others'.
    hit = [p for p, y in zip(p_ready, ready, strict=True) if y]
    miss = [p for p, y in zip(p_ready, ready, strict=True) if not y]
    assert sum(hit) / len(hit) > 2 * sum(miss) / len(miss)


def test_reading_uses_the_view_only() -> None:
    """Two positions with the same view (the hidden tiles re-dealt) read the same; a declared void never deals
    in; 报叫 reads as ready; live counts add up to the unseen copies."""
    game = Game(sm.Rules.preset("app"), seed=11)
    bots = [make_agent("expert", seed=s) for s in range(4)]
    checked = 0
    while not game.is_over:
        asked = game.to_act()
        for s in asked:
            view = game.view(s)
            if view.phase == "play" and view.wall_count < 45:
                other = sample_game(view, random.Random(checked)).view(s)
                h, h2 = read_view(view), read_view(other)
                kinds = list(range(NUM_KINDS))
                assert deal_in(view, h, kinds) == deal_in(other, h2, kinds)
                assert ready_odds(view) == ready_odds(other)
                assert wait_odds(view, h.unseen) == wait_odds(other, h2.unseen)
                assert wait_odds(view, h.unseen)[s] == [0.0] * NUM_KINDS
                assert live_counts(view, h.unseen) == live_counts(other, h2.unseen)
                assert hold_weights(view, h.unseen) == hold_weights(other, h2.unseen)
                assert hold_weights(view, h.unseen)[s] == [1.0] * NUM_KINDS
                assert math.isclose(sum(live_counts(view, h.unseen)), sum(h.unseen))
                risks = deal_in(view, h, kinds)
                for o in range(4):
                    v = sure_void(view, o)
                    if o != s and v >= 0:
                        assert all(o not in dict(risks[t]) for t in range(9 * v, 9 * v + 9))
                    if o != s and view.ready[o] and view.active[o]:
                        assert ready_odds(view)[o] > 0.9
                checked += 1
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})
    assert checked > 10


def _deviance(mu: list[float], y: list[int]) -> float:
    return 2 * sum((n * math.log(n / m) if n else 0.0) - (n - m) for m, n in zip(mu, y, strict=True)) / len(y)


@pytest.mark.parametrize("preset", ["seed", "app"])
def test_holding_model_reads_the_rivers(preset: str) -> None:
    """On hands the model never saw: the copies of each kind it expects a seat to hold (its weight times the
    uniform rate, concealed count x unseen copies / unseen copies it may hold) add up to the concealed tiles and
    predict the real counts better than the uniform rate does (Poisson deviance)."""
    mu: list[float] = []
    mu0: list[float] = []
    y: list[int] = []
    for game, s, view in _play_decisions(preset, 12):
        unseen = read_view(view).unseen
        weights = hold_weights(view, unseen)
        for o in range(4):
            if o == s or not view.active[o]:
                continue
            kinds = hold_kinds(view, unseen, o)
            pool = sum(unseen[t] for t in kinds)
            for t in kinds:
                mu0.append(unseen[t] * view.concealed_counts[o] / pool)
                mu.append(weights[o][t] * mu0[-1])
                y.append(game._counts[o][t])
    assert len(y) > 5000
    assert abs(sum(mu) / sum(y) - 1) < 0.1
    assert _deviance(mu, y) < 0.93 * _deviance(mu0, y)


@pytest.mark.parametrize(
    ("script", "marks"),
    [("fit_reader.py", ("seed ready:", "app live:")), ("fit_holding.py", ("seed:", "app:"))],
)
def test_fit_script_runs_from_scratch(script: str, marks: tuple[str, str]) -> None:
    """The one command that rebuilds each reader model runs (a tiny fit, --check writes nothing)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), "--hands", "25", "--jobs", "1", "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert all(mark in out for mark in marks) and "held out" in out
