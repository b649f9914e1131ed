"""The Gymnasium env SichuanMahjong-v0: Gymnasium's check_env, registration, vector envs, opponents, seeding,
illegal actions and the entry point."""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import sichuan_mahjong as sm
from sichuan_mahjong.agents import UnknownAgentError
from sichuan_mahjong.game.actions import PASS
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rl import ENV_ID, SichuanMahjongEnv, register

ROOT = Path(__file__).resolve().parents[2]


def _masked(obs: dict[str, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


def _play(env: gymnasium.Env[Any, Any], seed: int) -> tuple[list[bytes], float, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    seen = [obs["observation"].tobytes()]
    while True:
        obs, reward, terminated, truncated, info = env.step(_masked(obs, rng))
        seen.append(obs["observation"].tobytes())
        assert not truncated
        if terminated:
            return seen, float(reward), info
        assert reward == 0.0


def test_check_env_passes() -> None:
    check_env(gymnasium.make(ENV_ID, rules="app", opponents="efficient").unwrapped)
    check_env(SichuanMahjongEnv(rules="seed", opponents="random", seat=2))


def test_make_by_id_and_by_module_path() -> None:
    register()  # again: nothing changes
    env = gymnasium.make("sichuan_mahjong.rl:SichuanMahjong-v0", opponents="random")
    assert isinstance(env.unwrapped, SichuanMahjongEnv)
    assert gymnasium.spec(ENV_ID).entry_point == "sichuan_mahjong.rl.gym_env:SichuanMahjongEnv"


def test_the_entry_point_gymnasium_029_calls_registers_the_env() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["gymnasium.envs"]
    assert declared == {"__root__": "sichuan_mahjong.rl.registration:register"}
    (point,) = [e for e in entry_points(group="gymnasium.envs") if e.value.startswith("sichuan_mahjong")]
    spec = gymnasium.envs.registration.registry.pop(ENV_ID)
    try:
        point.load()()  # what Gymnasium 0.29's load_plugin_envs does on import
        assert gymnasium.spec(ENV_ID).entry_point == spec.entry_point
    finally:
        gymnasium.envs.registration.registry[ENV_ID] = spec


def test_a_hand_against_expert_bots_pays_the_seat_its_points() -> None:
    env = gymnasium.make(ENV_ID, rules="app", opponents="expert", reward_scale=0.25)
    for seed in range(3):
        _, reward, info = _play(env, seed)
        game = env.unwrapped.game  # type: ignore[attr-defined]
        assert game.is_over and info["deltas"] == list(game.result.deltas)
        assert reward == 0.25 * game.result.deltas[0]


def test_seeding_is_deterministic() -> None:
    def env() -> gymnasium.Env[Any, Any]:
        return gymnasium.make(ENV_ID, rules="app", opponents="random,efficient,expert", seat=1)

    assert _play(env(), 4) == _play(env(), 4)
    assert _play(env(), 4)[0] != _play(env(), 5)[0]


def test_one_bot_per_seat_and_custom_bots() -> None:
    class Recorder:
        name = "recorder"

        def __init__(self) -> None:
            self.seats: set[int] = set()

        def act(self, view: Observation, legal: Any) -> sm.Action:
            assert view.legal == tuple(legal)  # a bot sees its own view only
            self.seats.add(view.seat)
            return legal[0]  # type: ignore[no-any-return]

    rec = Recorder()
    env = SichuanMahjongEnv(rules="seed", opponents=["random", rec, "expert"], seat=3)
    _play(env, 1)
    assert rec.seats == {1}  # seat 3's opponents in play order: 0, 1, 2


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"opponents": "expert,random"}, ValueError, "one per seat \\(three\\), got 2"),
        ({"opponents": "grandmaster"}, UnknownAgentError, "unknown bot 'grandmaster'"),
        ({"opponents": [object()]}, TypeError, "a bot name or an object with act"),
        ({"seat": 4}, ValueError, "seat must be 0..3, got 4"),
        ({"illegal": "ignore"}, ValueError, "illegal must be one of penalty, raise"),
        ({"render_mode": "rgb_array"}, ValueError, "render_mode must be one of human, ansi"),
    ],
)
def test_bad_options_say_what_is_wrong(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        SichuanMahjongEnv(**kwargs)


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = SichuanMahjongEnv(rules="app", opponents="random", illegal_reward=-10.0, reward_scale=0.5)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert not env.action_masks()[illegal] and env.action_masks().sum() == obs["action_mask"].sum()
    obs, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-5.0, True, {"illegal_action": True})
    assert set(np.flatnonzero(obs["action_mask"])) == {PASS.index}  # over: pass alone, never all zeros
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    strict = SichuanMahjongEnv(rules="app", opponents="random", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(sm.IllegalActionError, match=f"seat 0 cannot .* \\(action {illegal}\\)"):
        strict.step(illegal)


def test_render_ansi_shows_the_seats_table() -> None:
    env = SichuanMahjongEnv(rules="app", opponents="random", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "player_0 holds" in text and "legal: exchange" in text


def _vector_rollout(envs: gymnasium.vector.VectorEnv[Any, Any, Any], steps: int) -> int:
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=10)
    finished = 0
    for _ in range(steps):
        # a sub-env that just ended resets on this step (autoreset) and ignores its action: its mask is all 0
        actions = np.array([_masked({"action_mask": m}, rng) if m.any() else 0 for m in obs["action_mask"]])
        obs, _, terminated, _, _ = envs.step(actions)
        finished += int(terminated.sum())
        assert obs["observation"].shape == (2, 90, 27)
    return finished


def test_sync_vector_env() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_ID, rules="app", opponents="random") for _ in range(2)]
    )
    assert _vector_rollout(envs, 60) >= 1
    envs.close()


def test_async_vector_env() -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("sichuan_mahjong.rl:SichuanMahjong-v0", opponents="random") for _ in range(2)]
    )
    try:
        assert _vector_rollout(envs, 60) >= 1
    finally:
        envs.close()
