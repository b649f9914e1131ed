"""A learned value of a search sample's position: what the rest of the hand is worth to one seat.

The master judges a candidate by playing each of its samples out to the end of the hand
(``agents/master.py``). Nearly all the noise of a play-out is the luck of the draws to come: with the very same
hidden hands and only the wall reshuffled, the difference between two candidates' play-outs varies about as
much as over fresh samples (``docs/experiments.md``). ``MasterAgent(value_depth=d)`` cuts each play-out ``d`` draws
after the decision and adds this value of the position reached, which sees every tile of the sample (its own
guess, never the real game; :mod:`sichuan_mahjong.game.position`) and prices the rest of the hand without its
luck.

:func:`features` reads, for the seat valued and each other seat in turn order: in the hand or not, shanten
(0, 1, 2, 3 or more), the wall's tiles that would bring it a step nearer, a ready hand's live winning tiles
and their mean value, the expert's P(win) and P(win) x value with the wall known (``agents/expert.py``'s
``p_win`` and ``plan_value``), the winning tiles the others hold, 报叫, melds and whether it is the seat about
to draw; then the wall left, the seats in the hand, and the value of the others' winning tiles the valued
seat holds. A small network (two hidden layers of :data:`HIDDEN`) maps them to the seat's points from now to
the end of the hand; it was fitted on the positions of hands four experts played (``scripts/train_value.py``:
one network under a 封顶 cap, fitted on the ``app`` rules, and one without, fitted on the ``seed`` rules) and
runs here in numpy.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents.expert import p_win, plan_value, wait_values
from sichuan_mahjong.agents.hand import HandState
from sichuan_mahjong.game.position import Position
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = ["HIDDEN", "MODELS", "NUM_FEATURES", "SEAT_FEATURES", "WEIGHTS", "features", "model_for", "state_value"]

#: Features per seat, and in all (four seats and three of the table).
SEAT_FEATURES = 14
NUM_FEATURES = 4 * SEAT_FEATURES + 3
#: Width of the network's two hidden layers.
HIDDEN = 128
WEIGHTS = Path(__file__).with_name("value_weights.npz")
#: The two networks: under a 封顶 cap and without one.
MODELS = ("capped", "uncapped")


def model_for(rules: Rules) -> str:
    return "capped" if rules.max_fan is not None else "uncapped"


def features(pos: Position, me: int, rules: Rules) -> list[float]:
    """The inputs of the value of ``pos`` for seat ``me`` (:data:`NUM_FEATURES` floats)."""
    wall, wall_n = pos.wall, pos.wall_count
    in_hand = [s for s in range(4) if pos.active[s]]
    draws = wall_n / max(1, len(in_hand))
    waits: dict[int, list[tuple[int, int, int]]] = {}
    out: list[float] = []
    rows: list[tuple[int, list[float]]] = []
    for j in range(4):
        s = (me + j) % 4
        if not pos.active[s]:
            rows.append((s, [0.0] * SEAT_FEATURES))
            continue
        melds = pos.melds[s]
        h = HandState(list(pos.counts[s]), list(pos.keys[s]), melds, len(melds), pos.meld_suits[s], pos.voids[s],
                      list(wall), [0] * NUM_KINDS)  # fmt: skip
        sh = h.shanten()
        useful = h.ukeire(sh) if sh >= 0 else 0
        live = 0
        value = p = ev = 0.0
        if sh == 0:
            w = waits[s] = wait_values(h, melds, rules, pos.declared[s])
            live = sum(n for _, n, _ in w)
            value = sum(2.0**f for _, _, f in w) / len(w) if w else 0.0
            p = p_win(0, live, draws, wall_n)
            ev = p * value
        elif sh > 0:
            p = p_win(sh, useful, draws, wall_n)
            ev = plan_value(h, draws, wall_n, sh, useful)
        rows.append((s, [
            1.0, float(sh == 0), float(sh == 1), float(sh == 2), float(sh >= 3), useful / 20.0, live / 8.0,
            math.log2(value) / 4.0 if value > 0 else 0.0, p, ev, 0.0, float(pos.declared[s]), len(melds) / 4.0,
            float(s == pos.turn),
        ]))  # fmt: skip
    for s, row in rows:
        if s in waits:  # the winning tiles the others still in the hand hold (they may have to let them go)
            row[10] = sum(pos.counts[o][t] for o in in_hand if o != s for t, _, _ in waits[s]) / 4.0
        out += row
    mine = pos.counts[me]
    held = sum(min(1, mine[t]) * 2.0**f for s, w in waits.items() if s != me for t, _, f in w)
    out += [wall_n / 56.0, len(in_hand) / 4.0, math.log1p(held)]
    return out


@cache
def _layers(model: str) -> tuple[npt.NDArray[np.float64], ...]:
    with np.load(WEIGHTS) as w:
        return tuple(w[f"{model}_{name}"].astype(np.float64) for name in ("w1", "b1", "w2", "b2", "w3", "b3"))


def state_value(pos: Position, me: int, rules: Rules) -> float:
    """Seat ``me``'s expected points from ``pos`` to the end of the hand (as the game counts them: base included)."""
    w1, b1, w2, b2, w3, b3 = _layers(model_for(rules))
    x = np.asarray(features(pos, me, rules))
    x = np.maximum(w1 @ x + b1, 0.0)
    x = np.maximum(w2 @ x + b2, 0.0)
    return float((w3 @ x)[0] + b3[0]) * pos.base
