"""Registers ``SichuanMahjong-v0`` with Gymnasium.

Gymnasium 1.x registers a third-party environment when its module is imported: ``import sichuan_mahjong.rl``
calls :func:`register`, and ``gymnasium.make("sichuan_mahjong.rl:SichuanMahjong-v0")`` imports it for you (also
in the worker processes of an ``AsyncVectorEnv``). Gymnasium 0.29 instead calls the ``gymnasium.envs`` entry
point that pyproject.toml declares, which is this same function.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ENV_ID", "register"]

ENV_ID: Final = "SichuanMahjong-v0"


def register() -> None:
    """Add ``SichuanMahjong-v0`` to Gymnasium's registry (once; calling it again changes nothing)."""
    from gymnasium.envs.registration import register as gym_register
    from gymnasium.envs.registration import registry

    if ENV_ID not in registry:
        gym_register(id=ENV_ID, entry_point="sichuan_mahjong.rl.gym_env:SichuanMahjongEnv")
