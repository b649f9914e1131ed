"""The observation encoder of the RL environments: :mod:`sichuan_mahjong.agents.features`, where it lives so that a
bot with a learned policy (``benchmarks/learned.py``) reads the very same planes without the ``rl``
extra. Its table of planes is below."""

from __future__ import annotations

from sichuan_mahjong.agents import features as _features
from sichuan_mahjong.agents.features import (
    LOCK_FAN_LIMIT,
    LOCK_FAN_SCALE,
    NUM_PLANES,
    OBS_SHAPE,
    PLANES,
    SCORE_LIMIT,
    SCORE_SCALE,
    WALL_TILES,
    Encoder,
    Plane,
    encode,
    plane_bounds,
)

__all__ = [
    "LOCK_FAN_LIMIT",
    "LOCK_FAN_SCALE",
    "NUM_PLANES",
    "OBS_SHAPE",
    "PLANES",
    "SCORE_LIMIT",
    "SCORE_SCALE",
    "WALL_TILES",
    "Encoder",
    "Plane",
    "encode",
    "plane_bounds",
]
__doc__ = (__doc__ or "") + "\n\n" + (_features.__doc__ or "")
