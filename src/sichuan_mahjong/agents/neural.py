"""``neural``: a small network trained on the expert's decisions (``scmj dataset``), acting from the RL env's
observation; inference in numpy.

What it reads is the observation the RL envs give a seat — the planes of :mod:`sichuan_mahjong.agents.features`
(90 x 27, ``encode(view)``) and the action mask — and nothing else: :func:`policy` takes that observation, and
:class:`NeuralAgent` builds it from the view with the env's own encoder (as ``rl.ObservationAgent`` does) and plays
``policy``'s answer. From the planes alone it derives, in numpy, what a player counts first (:func:`derived`): the
shanten after each discard, the live tiles (unseen copies that would lower the shanten) after each, the shanten
of each void choice and whether a pung or kong of the discard on offer would slow the hand. The hand, the melds,
the void and the unseen copies are all rows of the planes, so these are functions of the observation.

The network: a trunk (two ReLU layers of :data:`HIDDEN` units over the flat planes and the derived global
features) scores the actions tied to no kind (win, pass, pung, kong, 报叫, 定缺); one small network shared by
the 27 kinds (over the kind's column of planes, its derived features and a summary of the trunk) scores
discarding, concealed-konging and added-konging each kind and keeping each in 换三张 (an exchange scores the sum
of its three tiles). The mask is applied to the logits; the bot plays the legal action scored highest.

Its weights (``agents/neural_weights.npz``, float16) are rebuilt from fixed seeds by ``scripts/build_neural.py``
(the ``train`` extra, PyTorch on CPU; playing needs numpy only). docs/rl.md "A neural baseline" has its figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.features import NUM_PLANES, PLANES, Encoder
from sichuan_mahjong.agents.hand import HandState
from sichuan_mahjong.game.actions import NUM_ACTIONS, Action
from sichuan_mahjong.game.view import PHASES, Observation
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = [
    "EXCHANGE",
    "GLOBAL_FEATURES",
    "HIDDEN",
    "KIND_FEATURES",
    "KIND_HIDDEN",
    "WEIGHTS",
    "NeuralAgent",
    "derived",
    "logits",
    "policy",
]

#: Units of each trunk layer.
HIDDEN: Final = 128
#: Units of the network shared by the kinds, and the trunk summary it reads.
KIND_HIDDEN: Final = 64
CONTEXT: Final = 16
#: Derived features of each kind, and global ones (see :func:`derived`).
KIND_FEATURES: Final = 8
GLOBAL_FEATURES: Final = 12
#: The shipped weights.
WEIGHTS: Final = Path(__file__).with_name("neural_weights.npz")

Array = npt.NDArray[np.float32]
_ROW: Final = {p.name: p.start for p in PLANES}
_PLAY: Final = _ROW["phase"] + PHASES.index("play")
_CLAIM: Final = _ROW["phase"] + PHASES.index("claim")
_FIRST_EXCHANGE: Final = 89


def _exchange_matrix() -> Array:
    out = np.zeros((NUM_ACTIONS - _FIRST_EXCHANGE, NUM_KINDS), dtype=np.float32)
    for i in range(_FIRST_EXCHANGE, NUM_ACTIONS):
        for t in Action.from_index(i).exchange:
            out[i - _FIRST_EXCHANGE, t] += 1.0
    return out


#: Row ``i`` counts the tiles of exchange action ``89 + i`` by kind.
EXCHANGE: Final = _exchange_matrix()


def _hand(planes: Array) -> HandState:
    """The seat's hand, melds, void and unseen copies, read back from its planes."""
    counts = planes[_ROW["hand"] : _ROW["hand"] + 4].sum(0).round().astype(int)
    melds = planes[_ROW["pung"]] + planes[_ROW["kong"]]  # own rows: 1 at each meld's kind
    meld_kinds = np.flatnonzero(melds > 0.5)
    void_row = planes[_ROW["void"]]
    void = int(np.argmax(void_row)) // 9 if void_row.any() else -1
    unseen = planes[_ROW["unseen"] : _ROW["unseen"] + 4].sum(0).round().astype(int)
    h = HandState([0] * NUM_KINDS, [0, 0, 0], (), len(meld_kinds), 0, void, unseen.tolist(), [0] * NUM_KINDS)
    for k in meld_kinds:
        h.meld_suits |= 1 << (int(k) // 9)
    for t in np.flatnonzero(counts):
        h.add(int(t), int(counts[t]))
    return h


def derived(planes: Array) -> tuple[Array, Array]:
    """What the network is given besides the planes, computed from them: per kind (27, :data:`KIND_FEATURES`) —
    copies held / 4; the shanten after discarding it is the least (1), one more (1), two or more (1); the live
    tiles after it / 40 and as a share of the most; its suit's tiles / 14; its distance from a terminal / 4 — and
    global (:data:`GLOBAL_FEATURES`) — the shanten now, one-hot (complete, 0 .. 5 or more); each void choice's
    shanten above the best one (/ 3); a pung of the discard on offer that speeds the hand (1); a kong that does
    not slow it (1)."""
    kinds = np.zeros((NUM_KINDS, KIND_FEATURES), dtype=np.float32)
    glob = np.zeros(GLOBAL_FEATURES, dtype=np.float32)
    h = _hand(planes)
    counts = h.counts
    size = sum(counts)
    if size == 0:
        return kinds, glob
    per_suit = h.suit_counts()
    for t in range(NUM_KINDS):
        kinds[t, 0] = counts[t] / 4
        kinds[t, 6] = per_suit[t // 9] / 14
        r = t % 9
        kinds[t, 7] = min(r, 8 - r) / 4
    if size % 3 == 2:  # a hand to discard from
        after = {}
        for t in range(NUM_KINDS):
            if counts[t]:
                h.remove(t)
                after[t] = h.shanten()
                h.add(t)
        now = min(after.values())
        live = {}
        for t, s in after.items():
            d = s - now
            kinds[t, 1 + min(d, 2)] = 1.0
            if d == 0:
                h.remove(t)
                live[t] = h.ukeire(s)
                h.add(t)
        most = max(live.values()) or 1
        for t, n in live.items():
            kinds[t, 4] = n / 40
            kinds[t, 5] = n / most
    else:
        now = h.shanten()
    glob[min(max(now + 1, 0), 6)] = 1.0
    voids = [shanten_keys(h.keys, h.n_melds, h.meld_suits, v) for v in range(3)]
    for v in range(3):
        glob[7 + v] = min(voids[v] - min(voids), 3) / 3
    pending = planes[_ROW["pending"]]
    if planes[_CLAIM, 0] > 0.5 and pending.any() and size % 3 == 1:
        t = int(np.argmax(pending))
        ms = h.meld_suits | (1 << (t // 9))
        if counts[t] >= 2:
            h.remove(t, 2)
            best = 99
            for d in range(NUM_KINDS):
                if h.counts[d]:
                    h.remove(d)
                    best = min(best, h.shanten_with(h.n_melds + 1, ms))
                    h.add(d)
            h.add(t, 2)
            glob[10] = float(best < now)
        if counts[t] >= 3:
            h.remove(t, 3)
            glob[11] = float(h.shanten_with(h.n_melds + 1, ms) <= now)
            h.add(t, 3)
    return kinds, glob


@cache
def _weights() -> dict[str, Array]:
    with np.load(WEIGHTS) as data:
        return {k: data[k].astype(np.float32) for k in data.files}


def logits(planes: Array, kinds: Array, glob: Array, weights: Mapping[str, Array] | None = None) -> Array:
    """The network's score of each of the 584 actions (illegal ones included) for one seat's planes and their
    :func:`derived` features. Products go through ``einsum``'s own loops, not a threaded BLAS (see learned.py)."""
    w = _weights() if weights is None else weights
    x = np.concatenate([planes.reshape(-1), glob])
    h = np.maximum(np.einsum("hc,c->h", w["t1_weight"], x) + w["t1_bias"], 0.0)
    h = np.maximum(np.einsum("hc,c->h", w["t2_weight"], h) + w["t2_bias"], 0.0)
    other = np.einsum("oh,h->o", w["other_weight"], h) + w["other_bias"]
    ctx = np.einsum("oh,h->o", w["ctx_weight"], h) + w["ctx_bias"]
    z = np.concatenate([planes.T, kinds, np.broadcast_to(ctx, (NUM_KINDS, ctx.shape[0]))], axis=1)
    u = np.maximum(np.einsum("kc,hc->kh", z, w["k1_weight"]) + w["k1_bias"], 0.0)
    o = np.einsum("kh,oh->ko", u, w["k2_weight"]) + w["k2_bias"]
    out: Array = np.concatenate([o[:, 0], o[:, 1], o[:, 2], other, np.einsum("ek,k->e", EXCHANGE, o[:, 3])])
    return out


def policy(obs: Mapping[str, Any]) -> int:
    """The action index the network plays for an env observation ``{"observation": planes, "action_mask": mask}``."""
    planes = np.asarray(obs["observation"], dtype=np.float32).reshape(NUM_PLANES, NUM_KINDS)
    legal = np.flatnonzero(np.asarray(obs["action_mask"]))
    if len(legal) == 1:
        return int(legal[0])
    kinds, glob = derived(planes)
    scores = logits(planes, kinds, glob)
    return int(legal[np.argmax(scores[legal])])


class NeuralAgent:
    """The network as a bot: the env's observation of the view (its encoder, the mask of ``legal``), then
    :func:`policy`. Deterministic; ``seed`` is taken as every bot factory's is."""

    name = "neural"

    def __init__(self, seed: int | None = None) -> None:
        self._encode = Encoder()

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        by_index = {a.index: a for a in legal}
        mask[list(by_index)] = 1
        return by_index[policy({"observation": self._encode(view), "action_mask": mask})]


register("neural")(NeuralAgent)
