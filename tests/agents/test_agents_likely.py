"""How well a deal explains the others' last discards (``benchmarks/likely.py``): the real deal explains them best."""

from __future__ import annotations

import copy
import math
import random

from likely import discard_likelihood, seat_likelihood

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.reader import ready_odds
from sichuan_mahjong.game.sample import sample_game
from sichuan_mahjong.game.state import Game


def claim_positions(preset: str, hands: int) -> list[tuple[Game, int, int]]:
    """(a copy of the game, the seat asked, the seat that just discarded) at claim decisions of expert hands."""
    out = []
    for seed in range(hands):
        game = Game(sm.Rules.preset(preset), seed=seed)
        bots = [make_agent("expert", seed=s) for s in range(4)]
        while not game.is_over:
            asked = game.to_act()
            seat = next(iter(asked))
            view = game.view(seat)
            if view.phase == "claim":
                out.append((copy.deepcopy(game), seat, view.turn))
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})
    return out


def test_an_experts_own_discard_is_its_best_priced() -> None:
    """Just after an expert discards, its real hand prices the tile it let go as the best (or near it)."""
    positions = claim_positions("seed", 8)
    assert len(positions) > 40
    weights = [seat_likelihood(game, discarder) for game, _, discarder in positions]
    assert sum(w > 0.99 for w in weights) >= 0.9 * len(weights)


def test_the_real_deal_explains_the_discards_better_than_samples() -> None:
    positions = claim_positions("app", 6)[::2]
    assert len(positions) > 10
    rng = random.Random(5)
    real = sampled = 0.0
    for game, seat, _ in positions:
        view = game.view(seat)
        real += math.log(discard_likelihood(game, seat))
        sample = sample_game(view, rng, ready_odds=ready_odds(view), shaped=30, implied_voids=True)
        sampled += math.log(discard_likelihood(sample, seat))
    # Each seat's last discard was, or was near, the expert's best on its real hand; on a sample far less often.
    assert real > -0.1 * len(positions)
    assert sampled < real - 0.5 * len(positions)
