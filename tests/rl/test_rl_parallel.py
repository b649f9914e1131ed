"""The PettingZoo ParallelEnv: PettingZoo's parallel_api_test, simultaneous answers in one step, the rewards, and
the aec_to_parallel / parallel_to_aec conversions both ways."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import PASS
from sichuan_mahjong.rl import AGENTS, encode, env, parallel_env


def _pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.filterwarnings("ignore:Observation:UserWarning", "ignore:The observation contains negative:UserWarning")
@pytest.mark.parametrize("rules", ["app", "seed"])
def test_parallel_api_test(rules: str) -> None:
    parallel_api_test(parallel_env(rules=rules, seed=3), num_cycles=400)


def test_each_step_answers_every_seat_the_engine_asks_and_the_rest_see_pass_alone() -> None:
    p = parallel_env(rules="app", seed=7)
    obs, infos = p.reset()
    assert set(obs) == set(infos) == set(AGENTS)
    rng = np.random.default_rng(0)
    several = 0
    while p.agents:
        game = p.game
        assert game is not None
        asked = game.to_act()
        for s, a in enumerate(AGENTS):
            mask = obs[a]["action_mask"]
            want = {x.index for x in asked[s]} if s in asked else {PASS.index}
            assert set(np.flatnonzero(mask)) == want
            assert np.array_equal(obs[a]["observation"], encode(game.view(s)))
        several += len(asked) > 1
        events = len(game.events)
        actions = {AGENTS[s]: _pick(obs[AGENTS[s]]["action_mask"], rng) for s in asked}
        obs, rewards, terms, truncs, infos = p.step(actions)  # the seats not asked left out
        assert len(game.events) > events  # one step of the engine
    assert several >= 2  # 换三张 and 定缺 (and claims by several seats) came as one step each
    assert sum(rewards.values()) == 0 and all(terms.values()) and not any(truncs.values())
    assert [rewards[a] for a in AGENTS] == infos["player_0"]["deltas"]
    assert p.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        p.step({})


def test_bad_steps_say_what_is_wrong() -> None:
    p = parallel_env(rules="app", seed=1)
    obs, _ = p.reset()
    with pytest.raises(ValueError, match="player_0 is asked now and needs an action"):
        p.step({})
    good = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in AGENTS}
    with pytest.raises(ValueError, match="unknown agent 'player_9'"):
        p.step({**good, "player_9": 0})
    with pytest.raises(sm.IllegalActionError, match="got '13'"):
        p.step({**good, "player_0": "13"})
    obs, *_ = p.step(good)  # all four are asked in 换三张, then 定缺
    obs, *_ = p.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in AGENTS})
    waiting = next(a for a in AGENTS if set(np.flatnonzero(obs[a]["action_mask"])) == {PASS.index})
    with pytest.raises(sm.IllegalActionError, match=f"{waiting} \\(not asked now\\) cannot"):
        p.step({**{a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in AGENTS}, waiting: 0})


def test_the_same_seed_and_actions_give_what_the_aec_env_gives() -> None:
    """The parallel env and the AEC env run the same engine: same seed, same answers, same hand."""
    p, a = parallel_env(seed=4), env(seed=4)
    obs, _ = p.reset()
    a.reset()
    rng = np.random.default_rng(1)
    while p.agents:
        actions = {x: _pick(obs[x]["action_mask"], rng) for x in p.agents if p.legal_actions(x)}
        for _ in actions:
            a.step(actions[a.agent_selection])
        obs, *_ = p.step(actions)
    assert p.game is not None and a.game is not None
    assert p.game.result.deltas == a.game.result.deltas


@pytest.mark.filterwarnings("ignore:Observation:UserWarning", "ignore:The observation contains negative:UserWarning")
def test_conversions_both_ways() -> None:
    p = parallel_env(rules="app", seed=2)
    as_aec = parallel_to_aec(p)
    api_test(as_aec, num_cycles=200)
    assert aec_to_parallel(as_aec) is p  # the round trip gives the env back
    cycled = env(rules="app", seed=2, turns="cycle")
    assert cycled.metadata["is_parallelizable"] and not env().metadata["is_parallelizable"]
    api_test(cycled, num_cycles=200)
    as_par = aec_to_parallel(cycled)
    parallel_api_test(as_par, num_cycles=400)
    assert parallel_to_aec(as_par) is cycled


def test_aec_to_parallel_of_the_cycled_env_plays_the_parallel_envs_hand() -> None:
    direct, converted = parallel_env(seed=6), aec_to_parallel(env(seed=6, turns="cycle"))
    obs_d, _ = direct.reset()
    obs_c, _ = converted.reset()
    rng = np.random.default_rng(2)
    while direct.agents:
        for a in AGENTS:
            assert np.array_equal(obs_d[a]["observation"], obs_c[a]["observation"])
        actions = {a: _pick(obs_d[a]["action_mask"], rng) for a in direct.agents}
        obs_d, rew_d, *_ = direct.step(actions)
        obs_c, rew_c, *_ = converted.step(actions)
        assert {a: float(r) for a, r in rew_c.items()} == rew_d
    assert converted.agents == []
