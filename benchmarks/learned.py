"""``learned``: a policy network that imitates the expert, run in numpy.

The network reads one seat's view as the RL environments' planes (:mod:`sichuan_mahjong.agents.features`,
90 x 27) and sees tile *shapes*: three convolutions over the nine kinds of each suit (kernel 3, :data:`WIDTH`
channels, ReLU, the last two residual; the same weights for the three suits) give each kind a feature vector.
From it, one linear map scores discarding, concealed-konging and added-konging that kind (actions 0-80); the
features pooled over the kinds (mean, max, and those of the tile being claimed) feed a hidden layer of
:data:`HIDDEN` units that scores the other actions (win, pass, pung, kong, 报叫, 定缺, 换三张). The bot plays the
legal answer scored highest. Its weights (``benchmarks/learned_weights.npz``, float16) were fitted by
``scripts/train_imitation.py`` on the decisions of four experts (the ``train`` extra, PyTorch; playing needs
numpy only). It sees the view alone, as every bot does.

A research baseline, not among the players' bots and not shipped in the package (``learned_bots.py`` registers
it for the benchmarks): ``docs/experiments.md`` has its figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents.features import NUM_PLANES, PLANES, encode
from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.view import Observation

__all__ = ["HIDDEN", "PENDING", "WEIGHTS", "WIDTH", "LearnedAgent", "policy_logits"]

#: Channels of the convolutions over a suit's kinds.
WIDTH = 64
#: Units of the hidden layer that scores the actions not tied to one kind.
HIDDEN = 256
#: The shipped weights.
WEIGHTS = Path(__file__).with_name("learned_weights.npz")

Array = npt.NDArray[np.float32]
#: The plane row of the tile being claimed (its features are pooled for the claim actions).
PENDING = next(p.start for p in PLANES if p.name == "pending")


@cache
def _weights() -> dict[str, Array]:
    with np.load(WEIGHTS) as data:
        return {k: data[k].astype(np.float32) for k in data.files}


def _conv(x: Array, w: Array, b: Array) -> Array:
    """x (3 suits, in, 9 kinds), w (out, in, 3): a convolution over the kinds of each suit, zero-padded."""
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1)))
    # rows: (suit, kind) windows of (in, tap), contiguous, so that einsum runs one plain product
    windows = np.stack([padded[:, :, t : t + 9] for t in range(3)], axis=-1).transpose(0, 2, 1, 3).reshape(27, -1)
    out = np.einsum("ok,pk->po", w.reshape(w.shape[0], -1), windows) + b
    result: Array = out.reshape(3, 9, -1).transpose(0, 2, 1)
    return result


def policy_logits(view: Observation) -> Array:
    """The network's score of each of the 584 actions for this view (illegal ones included).

    The products go through ``einsum``'s own loops, not BLAS: a threaded BLAS on a busy machine took 12 ms for a
    product that takes a fraction of a millisecond here."""
    w = _weights()
    planes = encode(view)
    h = np.maximum(_conv(planes.reshape(NUM_PLANES, 3, 9).transpose(1, 0, 2), w["c1_weight"], w["c1_bias"]), 0.0)
    h = np.maximum(_conv(h, w["c2_weight"], w["c2_bias"]), 0.0) + h
    h = np.maximum(_conv(h, w["c3_weight"], w["c3_bias"]), 0.0) + h
    kinds = h.transpose(0, 2, 1).reshape(27, -1)  # kind s * 9 + r: suit s, rank r
    per_kind = (np.einsum("kc,jc->jk", kinds, w["kind_weight"]) + w["kind_bias"][:, None]).reshape(81)
    pooled = np.concatenate([kinds.mean(0), kinds.max(0), np.einsum("k,kc->c", planes[PENDING], kinds)])
    hidden = np.maximum(np.einsum("hc,c->h", w["g1_weight"], pooled) + w["g1_bias"], 0.0)
    rest = np.einsum("oh,h->o", w["g2_weight"], hidden) + w["g2_bias"]
    out: Array = np.concatenate([per_kind, rest])
    return out


class LearnedAgent:
    name = "learned"

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is taken as every bot factory's is, and unused: the policy is deterministic."""

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        logits = policy_logits(view)
        return max(legal, key=lambda a: float(logits[a.index]))
