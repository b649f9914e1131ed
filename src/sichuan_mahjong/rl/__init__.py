"""Reinforcement learning: PettingZoo ``AECEnv`` and ``ParallelEnv``, a Gymnasium single-seat env, the observation
encoder, bots across the env's boundary (rl/bots.py) and datasets of bots' decisions (rl/dataset.py, ``scmj
dataset``).

Needs the optional extra ``rl`` (gymnasium, pettingzoo: ``pip install -e '.[rl]'`` in a clone; docs/rl.md
"Install"). docs/rl.md has the observation layout, the action index, rewards, speed and a training example.

>>> import gymnasium
>>> from sichuan_mahjong import rl
>>> aec = rl.env(rules="app", seed=0)           # PettingZoo AEC, agents player_0..player_3
>>> aec.reset()
>>> aec.agent_selection, aec.observe(aec.agent_selection)["observation"].shape
('player_0', (90, 27))
>>> one = gymnasium.make("SichuanMahjong-v0", rules="app", opponents="expert")   # one seat against bots
>>> obs, info = one.reset(seed=0)
>>> int(obs["action_mask"].sum()) > 0
True
"""

try:
    import gymnasium as _gymnasium  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        f"sichuan_mahjong.rl needs the optional extra 'rl' (gymnasium, pettingzoo): "
        f"pip install gymnasium pettingzoo, or pip install -e '.[rl]' in a clone ({exc})"
    ) from exc

from sichuan_mahjong.rl.aec import AGENTS, TURNS, env, raw_env
from sichuan_mahjong.rl.bots import ObservationAgent, bot_action, reseed
from sichuan_mahjong.rl.encode import NUM_PLANES, OBS_SHAPE, PLANES, Encoder, Plane, encode
from sichuan_mahjong.rl.gym_env import SichuanMahjongEnv
from sichuan_mahjong.rl.parallel import SichuanMahjongParallelEnv, parallel_env
from sichuan_mahjong.rl.registration import ENV_ID, register

__all__ = [
    "AGENTS",
    "ENV_ID",
    "NUM_PLANES",
    "OBS_SHAPE",
    "PLANES",
    "TURNS",
    "Encoder",
    "ObservationAgent",
    "Plane",
    "SichuanMahjongEnv",
    "SichuanMahjongParallelEnv",
    "bot_action",
    "encode",
    "env",
    "parallel_env",
    "raw_env",
    "register",
    "reseed",
]

register()
