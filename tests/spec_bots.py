"""Bots of "your own" for the ``module:factory`` spec tests (tests/sim/test_sim_spec.py): ``spec_bots:make`` is a
seeded bot, the rest go wrong in each way a spec can."""

from __future__ import annotations

import random
from collections.abc import Sequence

import sichuan_mahjong as sm
from sichuan_mahjong.game.view import Observation


class Pinball:
    """Discards the drawn tile when it may, else a random legal action: a bot of its own, seeded."""

    name = "pinball"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Observation, legal: Sequence[sm.Action]) -> sm.Action:
        if view.drawn is not None:
            mine = sm.Action.discard(view.drawn)
            if mine in legal:
                return mine
        return legal[self.rng.randrange(len(legal))]


def make(seed: int | None) -> Pinball:
    return Pinball(seed)


def unseeded() -> Pinball:
    """A factory that takes no seed."""
    return Pinball(0)


def not_an_agent(seed: int | None) -> int:
    return 42


def broken(seed: int | None) -> Pinball:
    raise RuntimeError("no weights file")


NOT_CALLABLE = 3
