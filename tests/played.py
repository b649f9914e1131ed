"""Real decisions for tests that need them: the views of expert bots playing seeded hands.

Shared by the engine's sampler tests, the master's and the learned discards' (on pytest's and mypy's path as
``played``).
"""

from __future__ import annotations

from collections.abc import Iterator

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation


def decision_views(preset: str, seeds: range) -> Iterator[tuple[Game, Observation]]:
    """(game, view) at every play / claim / rob decision of expert bots playing seeded hands."""
    rules = sm.Rules.preset(preset)
    for seed in seeds:
        game = Game(rules, seed=seed)
        bots = [make_agent("expert", seed=seed * 4 + s) for s in range(4)]
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                if view.phase in ("play", "claim", "rob"):
                    yield game, view
                answers[s] = bots[s].act(view, legal)
            game.step(answers)
