"""What a researcher's client needs of the envs: a flat Box observation with finite bounds that Gymnasium's own
flatten utilities agree with, vector envs under both autoreset modes (a mask never all zeros), opponents passed
as objects reseeded by reset(seed), scripted deals by reset options (unknown ones refused), and actions that are
not ints refused."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.efficient import EfficientAgent
from sichuan_mahjong.game.actions import PASS
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rl import ENV_ID, SichuanMahjongEnv, encode, env, parallel_env
from sichuan_mahjong.rl.spaces import observation_space


def _pick(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _play(e: SichuanMahjongEnv, seed: int) -> tuple[list[bytes], float]:
    rng = np.random.default_rng(seed)
    obs, _ = e.reset(seed=seed)
    seen = [obs["observation"].tobytes()]
    while True:
        obs, reward, terminated, _, _ = e.step(_pick(obs["action_mask"], rng))
        seen.append(obs["observation"].tobytes())
        if terminated:
            return seen, float(reward)


# ------------------------------------------------------------------------------------------ flat and bounded
def test_every_row_has_finite_bounds_and_check_env_does_not_warn() -> None:
    space = SichuanMahjongEnv().observation_space
    assert isinstance(space, spaces.Dict)
    for box in space.spaces.values():
        assert isinstance(box, spaces.Box) and np.isfinite(box.low).all() and np.isfinite(box.high).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(ENV_ID, rules="app", opponents="random").unwrapped, skip_render_check=True)
        check_env(gymnasium.make(ENV_ID, opponents="random", flatten=True).unwrapped, skip_render_check=True)


def test_a_huge_score_is_clipped_to_the_bound_in_encode_and_in_the_env() -> None:
    """Scores beyond ±4096 points stay inside the Box: encode() and the env's tracker clip them alike."""
    box = observation_space()["observation"]
    e = env(rules="seed", seed=0)
    e.reset()
    assert e.game is not None
    view = e.game.view(0)
    planes = encode(view._replace(scores=(0, 100_000, -100_000, 0)))
    assert box.contains(planes) and planes[69].max() == 256.0 and planes[70].min() == -256.0
    e._tracker._pay(1, 100_000)  # as a payment would, far beyond any hand
    obs = e._tracker.observe(0)
    assert box.contains(obs) and np.array_equal(obs[69], planes[69])


def test_flatten_is_gymnasiums_own_flatten_of_the_dict() -> None:
    plain = SichuanMahjongEnv(rules="app", opponents="efficient")
    flat = SichuanMahjongEnv(rules="app", opponents="efficient", flatten=True)
    assert flat.observation_space == spaces.flatten_space(plain.observation_space)
    assert isinstance(flat.observation_space, spaces.Box) and flat.observation_space.shape == (584 + 90 * 27,)
    rng = np.random.default_rng(0)
    a, _ = plain.reset(seed=4)
    b, _ = flat.reset(seed=4)
    while True:
        assert np.array_equal(
            b, np.asarray(spaces.flatten(plain.observation_space, a))
        ) and flat.observation_space.contains(b)
        assert np.array_equal(spaces.unflatten(plain.observation_space, b)["action_mask"], a["action_mask"])
        action = _pick(a["action_mask"], rng)
        a, ra, done, _, _ = plain.step(action)
        b, rb, _, _, _ = flat.step(action)
        assert ra == rb
        if done:
            break


def test_flat_observations_in_the_pettingzoo_envs() -> None:
    e = env(seed=1, flatten=True)
    e.reset()
    obs = e.observe(e.agent_selection)
    assert obs.shape == (3014,) and e.observation_space("player_0").contains(obs)
    p = parallel_env(seed=1, flatten=True)
    pobs, _ = p.reset()
    assert all(p.observation_space(a).contains(o) for a, o in pobs.items())


# ------------------------------------------------------------------------------------------ vector envs
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_env_masks_are_never_all_zero_under_either_autoreset(mode: AutoresetMode) -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(ENV_ID, rules="app", opponents="random") for _ in range(2)], autoreset_mode=mode
    )
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=10)
    finished = 0
    for _ in range(80):
        assert obs["action_mask"].any(axis=1).all()  # masked sampling never meets an empty mask
        obs, _, terminated, _, _ = envs.step(np.array([_pick(m, rng) for m in obs["action_mask"]]))
        finished += int(terminated.sum())
    assert finished >= 1
    envs.close()


# ------------------------------------------------------------------------------------------ opponents reseeded
class _SeedHook:
    """A bot with its own seed method and a numpy generator."""

    name = "hooked"

    def __init__(self) -> None:
        self.gen = np.random.default_rng()

    def seed(self, seed: int) -> None:
        self.gen = np.random.default_rng(seed)

    def act(self, view: Observation, legal: Any) -> sm.Action:
        return legal[int(self.gen.integers(len(legal)))]  # type: ignore[no-any-return]


class _Plain:
    """A bot whose randomness is an attribute under a name of its own."""

    name = "plain"

    def __init__(self) -> None:
        self.dice = random.Random()

    def act(self, view: Observation, legal: Any) -> sm.Action:
        return legal[self.dice.randrange(len(legal))]  # type: ignore[no-any-return]


def test_opponent_objects_are_reseeded_by_reset_seed() -> None:
    e = SichuanMahjongEnv(rules="app", opponents=[EfficientAgent(), _SeedHook(), _Plain()])
    first = _play(e, 4)
    _play(e, 5)  # the bots' generators move on
    assert _play(e, 4) == first
    twin = SichuanMahjongEnv(rules="app", opponents=[make_agent("efficient"), _SeedHook(), _Plain()])
    assert _play(twin, 4) == first


# ------------------------------------------------------------------------------------------ scripted deals
def _a_deal() -> dict[str, Any]:
    shuffled = sm.Game(sm.Rules.preset("app"), seed=3)
    hands = ["".join(str(t) for t in shuffled.view(s).tiles) for s in range(4)]
    return {"hands": hands, "wall": "", "dealer": shuffled.dealer, "seed": 5}


DEAL = _a_deal()


def _hands(game: sm.Game) -> list[str]:
    return [" ".join(str(t) for t in game.view(s).tiles) for s in range(4)]


def test_reset_options_deal_scripts_the_hand_in_every_env() -> None:
    want = _hands(sm.Game.setup(sm.Rules.preset("app"), **DEAL))
    g = SichuanMahjongEnv(rules="app", opponents="random")
    g.reset(seed=0, options={"deal": DEAL})
    a = env(rules="app")
    a.reset(options={"deal": DEAL})
    p = parallel_env(rules="app")
    p.reset(options={"deal": DEAL})
    for e in (g, a, p):
        assert e.game is not None and _hands(e.game) == want


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"dael": DEAL}, ValueError, "unknown 'dael'; known: deal, game"),
        ({"deal": {"hands": DEAL["hands"], "walls": ""}}, ValueError, "unknown 'walls'"),
        ({"deal": {"wall": ""}}, ValueError, '"hands" is missing'),
        ({"deal": "11m"}, TypeError, "must be a dict of Game.setup arguments"),
        ({"game": "g"}, TypeError, "must be a sichuan_mahjong.Game"),
    ],
)
def test_bad_reset_options_are_refused(options: dict[str, Any], error: type[Exception], message: str) -> None:
    for e in (SichuanMahjongEnv(opponents="random"), env(), parallel_env()):
        with pytest.raises(error, match=message):
            e.reset(options=options)


# ------------------------------------------------------------------------------------------ not an action
@pytest.mark.parametrize("bad", ["13", 3.0, True, 584, None, [3, 4]])
def test_an_action_that_is_not_an_int_is_refused_in_every_env(bad: Any) -> None:
    g = SichuanMahjongEnv(rules="app", opponents="random")  # illegal="penalty": still refused, not a penalty
    g.reset(seed=0)
    with pytest.raises(sm.IllegalActionError, match=r"an action is an int 0\.\.583, got"):
        g.step(bad)
    a = env()
    a.reset(seed=0)
    with pytest.raises(sm.IllegalActionError, match=r"an action is an int 0\.\.583, got"):
        a.step(bad)
    legal = int(np.flatnonzero(a.observe(a.agent_selection)["action_mask"])[0])
    a.step(np.array([legal]))  # a one-element integer array, as policies return, is an action
    assert PASS.index == 82
