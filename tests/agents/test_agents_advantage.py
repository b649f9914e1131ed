"""The learned advantages (agents/advantage.py), at discards and at claims: read from the view alone, each replaces
the expert's answer only where the fit prices another above it by more than the margin; and
scripts/discard_advantage.py, which fits them, recovers an effect planted in random draws."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discard_advantage
import numpy as np
import pytest

import sichuan_mahjong as sm
from played import decision_views
from sichuan_mahjong.agents import advantage, advantage_model, make_agent
from sichuan_mahjong.agents.advantage import (
    CANDIDATE_FEATURES,
    CLAIM_FEATURES,
    advantage_choice,
    claim_choice,
    claim_features,
    claim_options,
    discard_candidates,
    discard_features,
)
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.sample import sample_game
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation

N = len(CANDIDATE_FEATURES)


def choice_views(preset: str, limit: int) -> list[tuple[Observation, Action]]:
    """(view, the expert's discard) where only discards are legal and the expert has at least two candidates,
    in expert-played hands."""
    out: list[tuple[Observation, Action]] = []
    bot = ExpertAgent(seed=0)
    for _, view in decision_views(preset, range(20)):
        discards = [a.tile_index for a in view.legal if a.kind is ActionKind.DISCARD]
        plain = all(a.kind is ActionKind.DISCARD for a in view.legal)  # no win, kong or 报叫 offered
        if view.phase == "play" and plain and len(discards) > 1:
            h = read_view(view)
            if len(discard_candidates(bot, view, h, bot.read_table(view, h), discards)) > 1:
                out.append((view, bot.act(view, view.legal)))
                if len(out) == limit:
                    break
    return out


@pytest.mark.parametrize("preset", ["app", "seed"])
def test_hidden_tiles_do_not_change_the_features_or_the_choice(preset: str) -> None:
    bot = ExpertAgent(seed=0)
    for k, (view, choice) in enumerate(choice_views(preset, 6)):
        a = sample_game(view, random.Random(100 + k)).view(view.seat)
        b = sample_game(view, random.Random(200 + k)).view(view.seat)
        assert a == b
        ha, hb = read_view(a), read_view(b)
        discards = [t.index for t in a.hand] + ([a.drawn.index] if a.drawn else [])
        ca = discard_candidates(bot, a, ha, bot.read_table(a, ha), sorted(set(discards)))
        cb = discard_candidates(bot, b, hb, bot.read_table(b, hb), sorted(set(discards)))
        assert ca == cb
        assert discard_features(bot, a, ha, bot.read_table(a, ha), ca) == discard_features(
            bot, b, hb, bot.read_table(b, hb), cb
        )
        assert advantage_choice(bot, a, a.legal, choice) == advantage_choice(bot, b, b.legal, choice)


def test_features_are_differences_from_the_experts_choice() -> None:
    bot = ExpertAgent(seed=0)
    for view, choice in choice_views("app", 5):
        h = read_view(view)
        discards = sorted({a.tile_index for a in view.legal if a.kind is ActionKind.DISCARD})
        candidates = discard_candidates(bot, view, h, bot.read_table(view, h), discards)
        assert candidates[0][1] == choice.tile_index
        rows, state = discard_features(bot, view, h, bot.read_table(view, h), candidates)
        assert rows[0] == [0.0] * N and len(rows) == len(candidates) and all(len(r) == N for r in rows)
        assert rows[1][0] == pytest.approx(candidates[1][0] - candidates[0][0])  # the price, and it is lower
        assert rows[1][0] <= 0 and len(state) == len(advantage.STATE_FEATURES)


def test_the_fit_and_its_margin_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fit that prefers the lower price deviates to the expert's worst candidate; a margin out of reach never."""
    bot = ExpertAgent(seed=0)
    cheap = (-1.0,) + (0.0,) * (N - 1)
    for view, choice in choice_views("app", 5):
        h = read_view(view)
        discards = sorted({a.tile_index for a in view.legal if a.kind is ActionKind.DISCARD})
        worst = discard_candidates(bot, view, h, bot.read_table(view, h), discards)[-1][1]
        monkeypatch.setitem(advantage_model.ADVANTAGE, True, (cheap, 0.0))
        assert advantage_choice(bot, view, view.legal, choice) == Action.discard(worst) != choice
        monkeypatch.setitem(advantage_model.ADVANTAGE, True, (cheap, 1e9))
        assert advantage_choice(bot, view, view.legal, choice) == choice


@pytest.mark.parametrize("searches", [True, False])
def test_master_searches_the_discards_the_advantage_leaves_if_told(searches: bool) -> None:
    """With ``search_discards``, where the learned advantage keeps the expert's discard, the master searches it as
    ``advantage=False`` would; where the advantage deviates, or without it (the default), its answer is the
    advantage's, unsearched."""
    bot = ExpertAgent(seed=0)
    searched = 0
    for view, choice in choice_views("seed", 12):
        master = MasterAgent(seed=1, search_discards=searches, live=False)  # its expert's choice is the plain one
        learned = advantage_choice(bot, view, view.legal, choice)
        answer = master.act(view, view.legal)
        kept = learned == choice and len(master._candidates(view, view.legal, choice)) > 1
        assert master.searched == (searches and kept)
        if not master.searched:
            assert answer == learned
        searched += master.searched
    assert (searched > 0) == searches


def test_master_with_advantage_answers_legally() -> None:
    bots = [MasterAgent(seed=1, advantage=True)] + [make_agent("expert", seed=s) for s in range(3)]
    game = Game(sm.Rules.preset("seed"), seed=4)
    while not game.is_over:
        answers = {}
        for s, legal in game.to_act().items():
            answers[s] = bots[s].act(game.view(s), legal)
            assert answers[s] in legal
        game.step(answers)


def test_the_fit_recovers_a_planted_effect() -> None:
    """Random draws among candidates whose 'shanten' feature costs 0.8 a step, beside a state effect and noise."""
    rng = np.random.default_rng(0)
    records: list[dict[str, Any]] = []
    for n in range(20000):
        k = int(rng.integers(2, 4))
        x = [[0.0] * N] + [list(rng.normal(0, 1, N)) for _ in range(k - 1)]
        state = [1.0, float(rng.uniform()), 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        i = int(rng.integers(k))
        y = 3.0 * state[1] - 0.8 * x[i][CANDIDATE_FEATURES.index("shanten")] + float(rng.normal(0, 3))
        records.append({"hand": (0, n), "x": x, "state": state, "i": i, "y": y})
    w, _ = discard_advantage.fit_weights(records, 1e-4)
    assert w[CANDIDATE_FEATURES.index("shanten")] == pytest.approx(-0.8, abs=0.15)
    others = np.delete(w, CANDIDATE_FEATURES.index("shanten"))
    assert np.abs(others).max() < 0.2
    gains = discard_advantage.policy_gain(records, w, np.array([0, 3.0, 0, 0, 0, 0, 0, 0]), 0.0)
    assert np.mean(gains) > 0.3  # choosing the fewer steps gains, measured from the random draws alone


def test_collect_writes_random_draws_and_what_followed(tmp_path: Path) -> None:
    out = tmp_path / "adv.jsonl"
    with out.open("w") as f:
        discard_advantage.collect(sm.Rules.preset("app"), 3, 5, 1.0, f)
    records, eligible = discard_advantage.load([str(out)])
    assert len(eligible) == 3 and records
    assert sum(sum(e) for e in eligible.values()) == len(records)  # explore 1.0: every choice drawn
    assert {r["i"] for r in records} >= {0, 1}
    assert all(r["x"][0] == [0.0] * N and 0 <= r["i"] < len(r["x"]) for r in records)


def claim_views(preset: str, limit: int) -> list[tuple[Observation, Action]]:
    """(view, the expert's answer) on discards the seat may pung or kong (no win offered), in expert hands."""
    out: list[tuple[Observation, Action]] = []
    bot = ExpertAgent(seed=0)
    for _, view in decision_views(preset, range(40)):
        choice = bot.act(view, view.legal)
        if view.phase == "claim" and claim_options(view.legal, choice):
            out.append((view, choice))
            if len(out) == limit:
                break
    return out


@pytest.mark.parametrize("preset", ["app", "seed"])
def test_claims_hidden_tiles_do_not_change_the_features_or_the_choice(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = ExpertAgent(seed=0)
    weights = tuple(float(v) for v in np.random.default_rng(1).normal(0, 1, len(CLAIM_FEATURES)))
    monkeypatch.setitem(advantage_model.CLAIMS, preset == "app", (weights, 0.0))
    views = claim_views(preset, 6)
    assert len(views) == 6
    for k, (view, choice) in enumerate(views):
        a = sample_game(view, random.Random(100 + k)).view(view.seat)
        b = sample_game(view, random.Random(200 + k)).view(view.seat)
        assert a == b
        options = claim_options(a.legal, choice)
        ha, hb = read_view(a), read_view(b)
        fa = claim_features(bot, a, ha, bot.read_table(a, ha), options)
        assert fa == claim_features(bot, b, hb, bot.read_table(b, hb), options)
        assert fa[0][0] == [0.0] * len(CLAIM_FEATURES) and len(fa[0]) == len(options) > 1
        assert claim_choice(bot, a, a.legal, choice) == claim_choice(bot, b, b.legal, choice) in a.legal


def test_claims_the_fit_and_its_margin_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fit that prizes pung plays it wherever offered; a margin out of reach never; no fit leaves it to the
    caller (None)."""
    bot = ExpertAgent(seed=0)
    prize = tuple(1.0 if name == "pung" else 0.0 for name in CLAIM_FEATURES)
    views = claim_views("seed", 8)
    assert any(c.kind is ActionKind.PASS for _, c in views)
    for view, choice in views:
        pung = next((a for a in view.legal if a.kind is ActionKind.PUNG), None)
        monkeypatch.delitem(advantage_model.CLAIMS, False, raising=False)
        assert claim_choice(bot, view, view.legal, choice) is None
        monkeypatch.setitem(advantage_model.CLAIMS, False, (prize, 0.0))
        assert claim_choice(bot, view, view.legal, choice) == (pung or choice)
        monkeypatch.setitem(advantage_model.CLAIMS, False, (prize, 1e9))
        assert claim_choice(bot, view, view.legal, choice) == choice


def test_collect_claims_writes_random_draws(tmp_path: Path) -> None:
    out = tmp_path / "claims.jsonl"
    with out.open("w") as f:
        discard_advantage.collect(sm.Rules.preset("seed"), 6, 5, 1.0, f, kind="claim")
    records, eligible = discard_advantage.load([str(out)])
    assert records and sum(sum(e) for e in eligible.values()) == len(records)
    assert all(r["kind"] == "claim" and r["x"][0] == [0.0] * len(CLAIM_FEATURES) for r in records)
    assert {r["i"] for r in records} >= {0, 1}
    kinds = [discard_advantage.claim_kinds(r) for r in records]
    assert all("pass" in k and len(set(k)) == len(k) for k in kinds) and any(k[0] == "pung" for k in kinds)


def test_the_shipped_fits_match_the_features() -> None:
    """Each fit in agents/advantage_model.py has a weight per feature of its kind (a refit after a feature changed)."""
    assert advantage_model.ADVANTAGE and advantage_model.CLAIMS
    for weights, margin in advantage_model.ADVANTAGE.values():
        assert len(weights) == len(CANDIDATE_FEATURES) and margin >= 0
    for weights, margin in advantage_model.CLAIMS.values():
        assert len(weights) == len(CLAIM_FEATURES) and margin >= 0


def test_collect_far_draws_only_further_from_ready(tmp_path: Path) -> None:
    out = tmp_path / "far.jsonl"
    with out.open("w") as f:
        discard_advantage.collect(sm.Rules.preset("seed"), 2, 5, 1.0, f, kind="far")
    records, _ = discard_advantage.load([str(out)])
    assert records and all(r["kind"] == "far" and r["state"][2] > advantage.NEAR for r in records)


def test_master_claims_learned_unless_told_otherwise() -> None:
    """Under seed rules (claims not in the search's scope) the master answers a claim as the learned claims do,
    and with ``learned_claims=False`` as the expert does; both differ somewhere."""
    learned, searched = MasterAgent(seed=1, live=False), MasterAgent(seed=1, learned_claims=False, live=False)
    bot = ExpertAgent(seed=0)
    views = claim_views("seed", 12)
    for view, choice in views:
        assert learned.act(view, view.legal) == claim_choice(bot, view, view.legal, choice)
        assert searched.act(view, view.legal) == choice
    assert any(claim_choice(bot, v, v.legal, c) != c for v, c in views)


def test_collect_with_playouts_plays_every_option_out_from_the_real_position(tmp_path: Path) -> None:
    """``--playouts``: nothing drawn; every option of every eligible decision played out twice, on the same two
    reshuffled walls for each option, and the options' outcomes part ways somewhere."""
    out = tmp_path / "oracle.jsonl"
    with out.open("w") as f:
        discard_advantage.collect(sm.Rules.preset("seed"), 4, 5, 1.0, f, kind="claim", playouts=2)
    records, eligible = discard_advantage.load([str(out)])
    assert records and sum(sum(e) for e in eligible.values()) == len(records)
    assert all("i" not in r and len(r["ys"]) == len(r["x"]) and {len(y) for y in r["ys"]} == {2} for r in records)
    assert all(r["capped"] is False for r in records)  # seed rules: the fit compares with the uncapped shipped fit
    assert any(len(set(map(tuple, r["ys"]))) > 1 for r in records)  # the options' play-outs part ways somewhere


def test_the_oracle_fit_recovers_a_planted_effect() -> None:
    """Played-out options whose 'shanten' feature costs 0.8 a step over the same walls, beside noise common to
    the options (which the paired design cancels) and noise of their own."""
    rng = np.random.default_rng(1)
    records: list[dict[str, Any]] = []
    for n in range(3000):
        k = int(rng.integers(2, 4))
        x = [[0.0] * N] + [list(rng.normal(0, 1, N)) for _ in range(k - 1)]
        common = float(rng.normal(0, 10))
        ys = [[common - 0.8 * row[CANDIDATE_FEATURES.index("shanten")] + float(rng.normal(0, 1))] for row in x]
        records.append({"hand": (0, n), "x": x, "ys": ys})
    xs, ds = discard_advantage.oracle_design(records)
    w = discard_advantage.ridge(xs, ds, 1e-4)
    assert w[CANDIDATE_FEATURES.index("shanten")] == pytest.approx(-0.8, abs=0.1)
    assert np.abs(np.delete(w, CANDIDATE_FEATURES.index("shanten"))).max() < 0.1
    assert np.mean(discard_advantage.oracle_gain(records, w, 0.0)) > 0.3
    assert np.mean(discard_advantage.oracle_gain(records, -w, 0.0)) < 0.0
