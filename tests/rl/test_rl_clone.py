"""Cloning the envs: ``clone()``, ``copy.deepcopy`` and ``pickle`` give an independent env that continues
identically — cloned mid-hand, both stepped with the same actions give the same observations and rewards, and
stepping one leaves the other where it was."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

from sichuan_mahjong import rl

Copier = Callable[[Any], Any]
COPIERS: dict[str, Copier] = {
    "clone": lambda e: e.clone(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
}


def _pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _gym_rest(env: rl.SichuanMahjongEnv, obs: dict[str, Any], seed: int) -> list[tuple[bytes, bytes, float]]:
    rng = np.random.default_rng(seed)
    out = []
    while True:
        obs, reward, terminated, _, _ = env.step(_pick(obs["action_mask"], rng))
        out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), float(reward)))
        if terminated:
            return out


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_gym_env_clones_mid_hand_and_continues_identically(how: str) -> None:
    env = rl.SichuanMahjongEnv(rules="app", opponents="random,efficient,expert", seat=1)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(8):  # into play: past 换三张 and 定缺
        obs, _, terminated, _, _ = env.step(_pick(obs["action_mask"], rng))
        assert not terminated
    assert env.game is not None
    events = len(env.game.events)
    twin = COPIERS[how](env)
    assert twin is not env and twin.game is not env.game
    clone_run = _gym_rest(twin, obs, seed=9)
    assert env.game is not None and len(env.game.events) == events  # the original did not move
    assert _gym_rest(env, obs, seed=9) == clone_run


def _aec_rest(e: rl.raw_env, seed: int) -> list[tuple[str, bytes, bytes, float]]:
    rng = np.random.default_rng(seed)
    out = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), float(reward)))
        e.step(None if terminated or truncated else _pick(obs["action_mask"], rng))
    return out


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_aec_env_clones_mid_hand_and_continues_identically(how: str) -> None:
    e = rl.env(rules="seed", seed=5)
    e.reset()
    rng = np.random.default_rng(1)
    for _ in range(40):
        e.step(_pick(e.observe(e.agent_selection)["action_mask"], rng))
    twin = COPIERS[how](e)
    assert e.game is not None and twin.game is not e.game
    events = len(e.game.events)
    clone_run = _aec_rest(twin, seed=2)
    assert len(e.game.events) == events
    assert _aec_rest(e, seed=2) == clone_run
    e.reset()  # both go on to further hands alike: the hand seeds were copied too
    twin.reset()
    assert e.game is not None and twin.game is not None and e.game.seed == twin.game.seed


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_parallel_env_clones_mid_hand_and_continues_identically(how: str) -> None:
    p = rl.parallel_env(rules="app", seed=2)
    obs, _ = p.reset()
    rng = np.random.default_rng(3)
    for _ in range(12):
        obs, *_ = p.step({a: _pick(obs[a]["action_mask"], rng) for a in p.agents})

    def rest(env: Any, obs: dict[str, Any]) -> list[Any]:
        r = np.random.default_rng(4)
        out = []
        while env.agents:
            obs, rewards, *_ = env.step({a: _pick(obs[a]["action_mask"], r) for a in env.agents})
            out.append(([obs[a]["observation"].tobytes() for a in obs], sorted(rewards.items())))
        return out

    twin = COPIERS[how](p)
    assert rest(twin, obs) == rest(p, obs)


def test_a_gym_made_env_deep_copies() -> None:
    env = gymnasium.make(rl.ENV_ID, rules="app", opponents="expert")
    env.reset(seed=1)
    twin = copy.deepcopy(env)
    assert twin.unwrapped.game is not env.unwrapped.game  # type: ignore[attr-defined]
    pickle.loads(pickle.dumps(env))
