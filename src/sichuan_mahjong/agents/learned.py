"""``learned``: a policy network that imitates the expert, run in numpy.

The network reads one seat's view as the RL environments' planes (:mod:`sichuan_mahjong.agents.features`,
90 x 27), passes them through two hidden layers of :data:`HIDDEN` ReLU units and scores the 584 actions of
``game/actions.py``; the bot plays the legal answer scored highest. Its weights
(``agents/learned_weights.npz``, float16) were fitted by ``scripts/train_imitation.py`` on the decisions of four
experts (the ``train`` extra, PyTorch; playing needs numpy only). It sees the view alone, as every bot does.

A research baseline, not among the players' bots (``benchmarks/learned_bots.py`` registers it for the
benchmarks): it agrees with the expert on 68% of held-out decisions, and half its discards, and loses about two
points a hand to three ``efficient`` bots (``docs/bots.md``). A network that sees tile shapes (convolutions over
the kinds of a suit), more data and self-play are the next rungs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents.features import encode
from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.view import Observation

__all__ = ["HIDDEN", "WEIGHTS", "LearnedAgent", "policy_logits"]

#: Units in each of the two hidden layers.
HIDDEN = 256
#: The shipped weights.
WEIGHTS = Path(__file__).with_name("learned_weights.npz")

Array = npt.NDArray[np.float32]


@cache
def _layers() -> tuple[tuple[Array, Array], ...]:
    """(weights in x out, bias) of each layer, as float32."""
    with np.load(WEIGHTS) as data:
        return tuple((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(3))


@cache
def _rows() -> tuple[tuple[Array, Array], ...]:
    """The layers with their weights out x in, contiguous, for :func:`policy_logits`."""
    return tuple((np.ascontiguousarray(w.T), b) for w, b in _layers())


def policy_logits(view: Observation) -> Array:
    """The network's score of each of the 584 actions for this view (illegal ones included).

    The products go through ``einsum``'s own loops, not BLAS: a threaded BLAS on a busy machine took 12 ms for
    the first layer's vector-matrix product that takes 0.3 ms here."""
    x = encode(view).reshape(-1)
    layers = _rows()
    for w, b in layers[:-1]:
        x = np.maximum(np.einsum("ji,i->j", w, x) + b, 0.0)
    w, b = layers[-1]
    out: Array = np.einsum("ji,i->j", w, x) + b
    return out


class LearnedAgent:
    name = "learned"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)  # unused: the policy is deterministic; kept for the bot protocol's seed

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        logits = policy_logits(view)
        return max(legal, key=lambda a: float(logits[a.index]))
