"""The ``neural`` bot: registered, small, legal; it acts from the RL env's observation alone (the same answer from
the env's observation as from its own encoding of the view), and the features it derives from the planes are what
a reader of the view computes (the efficient bot's shanten and live tiles)."""

from __future__ import annotations

import numpy as np

import sichuan_mahjong as sm
from sichuan_mahjong.agents import agent_names, make_agent
from sichuan_mahjong.agents.efficient import best_discards
from sichuan_mahjong.agents.features import encode
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.neural import WEIGHTS, NeuralAgent, derived, policy


def test_registered_and_small() -> None:
    assert "neural" in agent_names()
    assert isinstance(make_agent("neural", seed=1), NeuralAgent)
    assert WEIGHTS.stat().st_size < 2 * 1024 * 1024


def test_the_derived_features_are_the_views_shanten_and_live_tiles() -> None:
    checked = 0
    for seed in range(12):
        game = sm.Game(sm.Rules.preset("app"), seed=seed)
        bots = [make_agent("expert", seed=s) for s in range(4)]
        while not game.is_over:
            for s, legal in game.to_act().items():
                view = game.view(s)
                if view.phase != "play" or not any(a.kind is sm.ActionKind.DISCARD for a in legal):
                    continue
                kinds, _ = derived(encode(view))
                h = read_view(view)
                ranked = best_discards(h, sorted({t.index for t in view.tiles}))
                best = {t for _, _, t in ranked}
                assert set(np.flatnonzero(kinds[:, 1])) == best
                if len(ranked) > 1:  # ukeire is computed for ties only by best_discards
                    assert {t: round(float(kinds[t, 4]) * 40) for t in best} == {t: -uk for _, uk, t in ranked}
                checked += 1
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    assert checked > 100


def test_it_plays_from_the_envs_observation() -> None:
    from sichuan_mahjong import rl

    env = rl.env(rules="app", seed=5)
    env.reset()
    bot = make_agent("neural")
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            continue
        action = policy(obs)  # over the env's own observation
        assert obs["action_mask"][action] == 1
        assert rl.bot_action(env, agent, bot) == action  # the bot, from the view, answers the same
        env.step(action)
        steps += 1
    assert steps > 20 and sum(info["deltas"]) == 0
