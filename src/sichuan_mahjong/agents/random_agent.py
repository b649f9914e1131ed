"""``random``: a uniformly random legal answer. The floor every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.view import Observation

__all__ = ["RandomAgent"]


@register("random")
class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError(f"seat {view.seat} was asked to act with no legal action")
        return legal[self.rng.randrange(len(legal))]
