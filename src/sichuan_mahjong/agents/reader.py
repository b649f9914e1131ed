"""Reading the others' hands from the table: who is ready, and on which tiles, learned from play.

A seat sees each other seat's river (in order), melds, void, 报叫 flag and concealed count (R12), no more.
From those, four models fitted on simulated ``expert`` games (``scripts/fit_reader.py``, coefficients in
:mod:`~sichuan_mahjong.agents.reader_model`) give, for each opponent still in:

* P(ready) (:func:`ready_odds`): his concealed hand is one tile from a win (features: 报叫, discards made,
  melds, how late, a one-suit meld set, a declared void he may still hold, what his last discards were);
* P(wins on t | ready) for each tile kind t: the tile's rank, how many copies are unseen, what he discarded
  (the tile itself, its neighbours and its 筋 t±3, lately or at all), how much of its suit he sheds, his melds
  in it, whether he just let it pass (过水不胡). Times P(ready), the chance that discarding t now deals in to
  him (:func:`deal_in`); a tile of his declared void, or of the suit his melds rule out, never does (a hand
  must be 缺一门 to win);
* for this seat, how many of each kind's unseen copies will still reach it, drawn or discarded by another
  (:func:`live_counts`, a Poisson model): who is void in its suit, who collects it, who sheds it.
* how many copies of each unseen kind t each opponent holds (:func:`hold_weights`, a Poisson model fitted by
  ``scripts/fit_holding.py``, coefficients in :mod:`~sichuan_mahjong.agents.holding_model`): the uniform
  share of the copies his hand size gives him, moved by what his river says (the tile, its neighbours and
  筋, early or late, how much of its suit he sheds), his melds and his void.

The ``master`` draws its search's samples with :func:`ready_odds` (and, as an option, makes the ready ones wait
with :func:`wait_odds`, or deals their hands by :func:`hold_weights`); the rest is measured in ``docs/experiments.md``
(``benchmarks/reader_variants.py``) and not used by a bot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sichuan_mahjong.agents.expert import shed_first, void_of
from sichuan_mahjong.agents.hand import HandState
from sichuan_mahjong.agents.holding_model import HOLD
from sichuan_mahjong.agents.reader_model import LIVE, READY, WAIT
from sichuan_mahjong.game.sample import empty_suit
from sichuan_mahjong.game.view import Observation, let_pass
from sichuan_mahjong.hand.melds import MeldKind

__all__ = [
    "deal_in",
    "hold_features",
    "hold_kinds",
    "hold_weights",
    "live_counts",
    "live_features",
    "ready_features",
    "ready_odds",
    "sure_void",
    "wait_features",
    "wait_odds",
]

#: Tiles in the wall when play begins (108 - 4 x 13 - 1).
_FULL_WALL = 55
_RANK_CLASS = (0, 1, 2, 3, 4, 3, 2, 1, 0)  # 1/9, 2/8, 3/7, 4/6, 5


def sure_void(view: Observation, o: int) -> int:
    """The suit seat o surely cannot win in: its declared void (定缺), or the third suit once it has melds in
    the other two; -1 when none is sure."""
    void, sure = void_of(view.voids[o], {m.tile_index // 9 for m in view.melds[o]}, view.discards[o])
    return void if sure else -1


def _sig(z: float) -> float:
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def ready_features(view: Observation, o: int) -> list[float]:
    """What the table says about whether seat o's hand is ready (see the module doc)."""
    river = view.discards[o]
    n = min(len(river), 20) / 10.0
    melds = view.melds[o]
    n_melds = len(melds) + view.hidden_kongs[o]
    suits = {m.tile_index // 9 for m in melds}
    late = max(0.0, _FULL_WALL - view.wall_count) / _FULL_WALL
    void = view.voids[o]
    holds_void = void is not None and (not river or river[-1].index // 9 == void)
    last = river[-4:]
    middle = sum(1 for x in last if 2 <= x.index % 9 <= 6) / 4.0
    edge = sum(1 for x in last if x.index % 9 in (0, 8)) / 4.0
    return [
        1.0,
        1.0 if view.ready[o] else 0.0,
        n,
        n * n,
        float(n_melds),
        late,
        1.0 if len(suits) == 1 and len(melds) >= 2 else 0.0,
        1.0 if holds_void else 0.0,
        middle,
        edge,
        n * n_melds,
    ]


def wait_features(view: Observation, unseen: Sequence[int], o: int, t: int, passed: bool) -> list[float]:
    """What the table says about whether ready seat o waits on tile kind t (see the module doc)."""
    river = view.discards[o]
    suit, rank = divmod(t, 9)
    cls = _RANK_CLASS[rank]
    u = unseen[t]
    mine = [x.index for x in river]
    recent = mine[-3:]
    in_suit = sum(1 for x in mine if x // 9 == suit)
    last5 = sum(1 for x in mine[-5:] if x // 9 == suit)

    def shed(d: int) -> float:
        r = rank + d
        return 1.0 if 0 <= r < 9 and (t + d) in mine else 0.0

    def live(d: int) -> int:
        r = rank + d
        return unseen[t + d] if 0 <= r < 9 else 0

    melds = view.melds[o]
    meld_suits = {m.tile_index // 9 for m in melds}
    return [
        1.0,
        1.0 if cls == 1 else 0.0,
        1.0 if cls == 2 else 0.0,
        1.0 if cls == 3 else 0.0,
        1.0 if cls == 4 else 0.0,
        1.0 if u == 0 else 0.0,
        1.0 if u == 1 else 0.0,
        1.0 if u == 2 else 0.0,
        1.0 if t in mine else 0.0,
        1.0 if t in recent else 0.0,
        max(shed(-3), shed(3)),
        max(shed(-1), shed(1)),
        max(shed(-2), shed(2)),
        in_suit / max(1, len(mine)),
        last5 / 5.0,
        1.0 if suit in meld_suits else 0.0,
        1.0 if suit == shed_first(river) and suit not in meld_suits else 0.0,
        1.0 if passed else 0.0,
        (live(-1) + live(1)) / 8.0,
        (live(-2) + live(2)) / 8.0,
        1.0 if any(m.tile_index == t and m.kind is MeldKind.PUNG for m in melds) else 0.0,
        1.0 if len(meld_suits) == 1 and suit in meld_suits and len(melds) >= 2 else 0.0,
        min(len(mine), 20) / 10.0,
    ]


def live_features(view: Observation, unseen: Sequence[int], t: int) -> list[float]:
    """What the table says about how many of tile kind t's unseen copies will still reach this seat (drawn by
    it, or discarded by another): the others who cannot keep it (void), who collect its suit, who shed it."""
    suit = t // 9
    cls = _RANK_CLASS[t % 9]
    u = unseen[t]
    void_free = void_held = implied = collects = shed = recent = ready = others = 0
    for o in range(4):
        if o == view.seat or not view.active[o]:
            continue
        others += 1
        river = view.discards[o]
        declared = view.voids[o]
        melds = view.melds[o]
        meld_suits = {m.tile_index // 9 for m in melds}
        if declared == suit:
            if river and river[-1].index // 9 != suit:
                void_free += 1
            else:
                void_held += 1
        elif declared is None and suit not in meld_suits and shed_first(river) == suit:
            implied += 1
        if suit in meld_suits:
            collects += 1
        mine = [x.index for x in river]
        shed += t in mine
        recent += t in mine[-3:]
        ready += view.ready[o]
    wall = view.wall_count / _FULL_WALL
    return [
        1.0,
        1.0 if u == 2 else 0.0,
        1.0 if u == 3 else 0.0,
        1.0 if u == 4 else 0.0,
        wall,
        wall * wall,
        float(others),
        float(void_free),
        float(void_held),
        float(implied),
        float(collects),
        float(shed),
        float(recent),
        float(ready),
        1.0 if cls == 0 else 0.0,
        1.0 if cls == 1 else 0.0,
        1.0 if cls == 4 else 0.0,
        math.log(u) if u else 0.0,
    ]


def hold_kinds(view: Observation, unseen: Sequence[int], o: int) -> list[int]:
    """The kinds seat o may hold, as the samples see it: unseen, outside the suit it surely or visibly holds none
    of (:func:`~sichuan_mahjong.game.sample.empty_suit`)."""
    v = empty_suit(view, o, True)
    return [t for t in range(len(unseen)) if unseen[t] and t // 9 != v]


def hold_features(view: Observation, unseen: Sequence[int], o: int, t: int) -> list[float]:
    """What the table says about how many copies of tile kind t seat o holds (see the module doc)."""
    river = [x.index for x in view.discards[o]]
    suit, rank = divmod(t, 9)
    cls = _RANK_CLASS[rank]
    u = unseen[t]
    v = empty_suit(view, o, True)
    pool = sum(n for k, n in enumerate(unseen) if k // 9 != v)
    c = view.concealed_counts[o]
    early = river[:6]
    n = len(river)
    in_suit = sum(1 for x in river if x // 9 == suit)
    last5 = sum(1 for x in river[-5:] if x // 9 == suit)

    def near(d: int, where: Sequence[int]) -> float:
        return 1.0 if any(0 <= rank + e < 9 and (t + e) in where for e in (-d, d)) else 0.0

    def live(d: int) -> int:
        return unseen[t + d] if 0 <= rank + d < 9 else 0

    melds = view.melds[o]
    meld_suits = {m.tile_index // 9 for m in melds}
    one_suit = len(meld_suits) == 1 and len(melds) >= 2
    return [
        1.0,
        math.log(u * c / pool) if u and c and pool else -10.0,
        1.0 if cls == 1 else 0.0,
        1.0 if cls == 2 else 0.0,
        1.0 if cls == 3 else 0.0,
        1.0 if cls == 4 else 0.0,
        1.0 if t in river else 0.0,
        1.0 if t in river[-3:] else 0.0,
        1.0 if t in early else 0.0,
        near(1, river),
        near(1, early),
        near(2, river),
        near(2, early),
        near(3, river),
        in_suit / max(1, n),
        last5 / 5.0,
        1.0 if suit in meld_suits else 0.0,
        1.0 if one_suit and suit in meld_suits else 0.0,
        1.0 if one_suit and suit not in meld_suits else 0.0,
        1.0 if suit == shed_first(view.discards[o]) and suit not in meld_suits else 0.0,
        1.0 if view.voids[o] == suit else 0.0,
        min(n, 20) / 10.0,
        1.0 if view.ready[o] else 0.0,
        (live(-1) + live(1)) / 8.0,
        (live(-2) + live(2)) / 8.0,
        1.0 if u == 1 else 0.0,
        1.0 if u >= 3 else 0.0,
    ]


def hold_weights(view: Observation, unseen: Sequence[int]) -> list[list[float]]:
    """``[o][t]``: how much likelier each unseen copy of kind t is to be in seat o's hand than a copy drawn at
    random (the holding model's rate over the uniform one, :func:`hold_features`); 1 for itself, seats out of
    the hand and kinds outside :func:`hold_kinds`."""
    w = HOLD[int(view.rules.declare_void)]
    out = [[1.0] * len(unseen) for _ in range(4)]
    for o in range(4):
        if o == view.seat or not view.active[o]:
            continue
        for t in hold_kinds(view, unseen, o):
            x = hold_features(view, unseen, o, t)
            out[o][t] = math.exp(sum(a * v for a, v in zip(w, x, strict=True)) - x[1])
    return out


def ready_odds(view: Observation) -> list[float]:
    """P(ready) of each seat's concealed hand as this seat reads it (0 for itself and seats out of the hand)."""
    w = READY[int(view.rules.declare_void)]
    return [
        _sig(sum(a * x for a, x in zip(w, ready_features(view, o), strict=True)))
        if o != view.seat and view.active[o]
        else 0.0
        for o in range(4)
    ]


def live_counts(view: Observation, unseen: Sequence[int]) -> list[float]:
    """Each kind's unseen copies weighted by how likely they are to reach this seat (:func:`live_features`),
    scaled so that they add up to the unseen copies."""
    w = LIVE[int(view.rules.declare_void)]
    mu = [
        math.exp(sum(a * x for a, x in zip(w, live_features(view, unseen, t), strict=True))) if u else 0.0
        for t, u in enumerate(unseen)
    ]
    total = sum(mu)
    if total <= 0:
        return [float(u) for u in unseen]
    k = sum(unseen) / total
    return [m * k for m in mu]


def wait_odds(view: Observation, unseen: Sequence[int]) -> list[list[float]]:
    """P(seat o wins on tile kind t | his hand is ready), ``[o][t]`` for every kind, as this seat reads it (all 0
    for itself and seats out of the hand; 0 for the suit he surely cannot win in)."""
    wait_w = WAIT[int(view.rules.declare_void)]
    out = [[0.0] * len(unseen) for _ in range(4)]
    for o in range(4):
        if o == view.seat or not view.active[o]:
            continue
        void = sure_void(view, o)
        passed = let_pass(view, o, pending=True)
        for t in range(len(unseen)):
            if t // 9 != void:
                z = sum(w * x for w, x in zip(wait_w, wait_features(view, unseen, o, t, t in passed), strict=True))
                out[o][t] = _sig(z)
    return out


def deal_in(view: Observation, h: HandState, kinds: Sequence[int]) -> dict[int, list[tuple[int, float]]]:
    """For each tile kind in ``kinds``: (opponent, P(discarding it now deals in to him)) for every opponent
    still in with a chance above zero: P(ready) x P(wins on it | ready)."""
    odds = ready_odds(view)
    waits = wait_odds(view, h.unseen)
    return {t: [(o, odds[o] * waits[o][t]) for o in range(4) if waits[o][t] > 0] for t in kinds}
