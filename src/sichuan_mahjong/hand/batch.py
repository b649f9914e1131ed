"""The int API over numpy arrays of many hands at once: ``shanten_batch`` and ``waits_batch``.

The same tables and meanings as :func:`~sichuan_mahjong.hand.analysis.shanten_keys` and
:func:`~sichuan_mahjong.hand.analysis.waits_counts` (缺一门, seven pairs without melds, an optional void), one
numpy operation per table read instead of a Python call per hand: for data sets and training, not the engine.

>>> from sichuan_mahjong.tiles import counts_of, parse_tiles, suit_keys
>>> shanten_batch([suit_keys(counts_of(parse_tiles(h))) for h in ("11122233344455m", "123m456p789s1234m")]).tolist()
[-1, 3]
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.hand import tables as _tables
from sichuan_mahjong.tiles import NUM_KINDS, POW5

__all__ = ["shanten_batch", "waits_batch"]

_CAP: Final = _tables.DISTANCE_CAP
_KEPT: Final = _tables.KEPT


def waits_batch(
    counts: npt.ArrayLike,
    n_melds: int | npt.ArrayLike = 0,
    meld_suits: int | npt.ArrayLike = 0,
    void: int | npt.ArrayLike = -1,
    meld_counts: npt.ArrayLike | None = None,
) -> npt.NDArray[np.bool_]:
    """Waits of many 13 - 3k hands at once: ``counts`` shape (N, 27) -> bool (N, 27), True where the tile wins.

    Other arguments as in :func:`waits_counts`, scalars or one value per hand (``meld_counts`` shape (N, 27)).
    """
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 2 or c.shape[1] != NUM_KINDS:
        raise ValueError(f"counts must have shape (N, 27), got {c.shape}")
    keys = c.reshape(-1, 3, 9) @ np.array(POW5, dtype=np.int64)
    cls = _tables.SUIT_CLASS[keys].astype(np.int32)
    n = np.asarray(n_melds, dtype=np.int32)
    ms = np.asarray(meld_suits)
    vd = np.asarray(void)
    held = c if meld_counts is None else c + np.asarray(meld_counts, dtype=np.int64)
    allowed = [~((ms >> v) & 1).astype(bool) & ((vd < 0) | (vd == v)) for v in range(3)]
    table = _tables.COMBINED_NP
    width = _tables.N_CLASSES * 5
    out = np.zeros(c.shape, dtype=bool)
    for suit in range(3):
        for r in range(9):
            tile = 9 * suit + r
            room = c[:, tile] < 4
            grown = _tables.SUIT_CLASS[np.where(room, keys[:, suit] + POW5[r], keys[:, suit])].astype(np.int32)
            win = np.zeros(len(c), dtype=bool)
            for v in range(3):
                if v == suit:
                    continue  # a tile of the void suit is dead: it cannot complete the hand
                other = 3 - suit - v
                a, b = (grown, cls[:, other]) if suit < other else (cls[:, other], grown)
                win |= (table[a * width + b * 5 + n] == 0) & allowed[v]
            out[:, tile] = win & (held[:, tile] < 4)
    return out


IntArray = npt.NDArray[np.integer]


def shanten_batch(
    keys: npt.ArrayLike,
    n_melds: int | npt.ArrayLike = 0,
    meld_suits: int | npt.ArrayLike = 0,
    void: int | npt.ArrayLike = -1,
) -> npt.NDArray[np.int8]:
    """Shanten of many hands at once: ``keys`` shape (N, 3); the other arguments scalars or shape (N,).

    Same meaning as :func:`shanten_keys` (seven pairs where ``n_melds == 0``); returns int8 of shape (N,).
    """
    k = np.asarray(keys)
    if k.ndim != 2 or k.shape[1] != 3:
        raise ValueError(f"keys must have shape (N, 3), got {k.shape}")
    cls = _tables.SUIT_CLASS[k]
    row = cls.astype(np.int32)
    row *= _tables.N_CLASSES * 5
    col = cls.astype(np.int32)
    col *= 5
    n = np.asarray(n_melds, dtype=np.int32)
    table = _tables.COMBINED_NP
    ms = np.asarray(meld_suits)
    vd = np.asarray(void)
    restricted = bool(ms.any()) or bool((vd >= 0).any())
    best = np.full(len(k), _CAP, dtype=np.uint8)
    for v, (a, b) in enumerate(_KEPT):
        idx = row[:, a] + col[:, b]
        idx += n
        d = table[idx]
        if restricted:
            barred = ((ms >> v) & 1).astype(bool) | ((vd >= 0) & (vd != v))
            d = np.where(barred, np.uint8(_CAP), d)
        np.minimum(best, d, out=best)
    out = best.astype(np.int8)
    out -= 1
    return out
