"""One seat's :class:`~sichuan_mahjong.game.view.Observation` as planes over the 27 tile kinds, for learning.

``encode(view)`` returns a new ``float32`` array of shape ``(NUM_PLANES, 27)`` = (90, 27): row ``p``, column ``k``
is feature ``p`` of tile kind ``k`` (m 0-8, p 9-17, s 18-26). It reads the view and nothing else, so it carries
exactly what the seat may know (docs/rules.md R12). Seats are *relative* to the observer: 0 the seat itself, 1 下家
(the next to play, on its right), 2 对家 (across), 3 上家 (left), so one network plays from any chair. A
per-seat feature takes consecutive rows (or blocks of rows) in that order. A *broadcast* row holds one number in
all 27 columns.

=========  ==================  ==================================================================================
rows       name                meaning
=========  ==================  ==================================================================================
0-3        hand                own concealed tiles, drawn tile included: row ``j`` is 1 where it holds > ``j`` copies
4          drawn               the tile just drawn (one-hot)
5-8        pung                each seat's pungs (1 at the pung's kind)
9-12       kong                each seat's kongs shown (exposed, added; its own concealed kongs for the seat itself)
13-36      river               6 rows a seat (13-18 the seat itself, 19-24 下家, ...); claimed tiles leave a river.
                               Rows +0..+3: 1 where the river holds > ``j`` copies; row +4 (order): (position of
                               the kind's first copy + 1) / river length, so early discards are small and late
                               ones near 1; row +5: the latest discard (one-hot)
37-40      unseen              copies this seat has not seen (4 - own - rivers - shown melds - winning tiles): row
                               ``j`` is 1 where more than ``j`` are unseen
41-44      void                each seat's void suit (定缺) once revealed: 1 over that suit's nine kinds
45-48      won                 the tile each seat won on (one-hot; 0 before it wins)
49         pending             the discard being claimed or the added-kong tile that may be robbed (one-hot)
50         given               the tiles this seat passed in 换三张 (counts 0-3), known to sit with their taker
51         received            the tiles it received in 换三张 (counts 0-3)
52-55      hidden_kongs        broadcast: another seat's concealed kongs, whose kind is hidden, / 4 (own row 0)
56-59      ready               broadcast: the seat declared ready (报叫)
60-63      active              broadcast: the seat is still in the hand (血战: not yet won)
64-67      concealed           broadcast: the seat's concealed tile count / 14
68-71      scores              broadcast: the seat's points so far in this hand / 16, clipped to ±4096 points
72         wall                broadcast: tiles left in the wall / 55
73         pass_lock           broadcast: 1 while this seat's own 过水不胡 lock holds (R9.1)
74         pass_lock_fan       broadcast: that lock's fan / 8 (a win must beat it; clipped at 32 fan), 0 unlocked
75-81      phase               broadcast one-hot: exchange, void, declare, play, claim, rob, over
82-85      turn                broadcast one-hot: the seat on turn, or whose discard / added kong is pending
86-89      dealer              broadcast one-hot: the dealer
=========  ==================  ==================================================================================

Unseen counts a winning tile once per win, and a tile won by several seats at once (一炮多响, two robbers) once
(``WinView.shared``, as :func:`~sichuan_mahjong.game.view.visible_counts` counts it). Given tiles are not
subtracted: the taker may discard them later, and they would be counted twice.

Fast: scalar writes for the few tiles that move, a river's six rows cached until that river changes, and a
handful of numpy operations (``benchmarks/rl.py`` measures calls per second). An :class:`Encoder` keeps its own
cache; :func:`encode` uses a shared one.

>>> import sichuan_mahjong as sm
>>> game = sm.Game(sm.Rules.preset("app"), seed=7)
>>> game.dealer
1
>>> x = encode(game.view(0))
>>> x.shape, x.dtype
((90, 27), dtype('float32'))
>>> int(x[0:4].sum()), int(encode(game.view(1))[0:4].sum())  # 13 tiles, the dealer 14
(13, 14)
>>> PLANES[0]
Plane(name='hand', start=0, rows=4, low=0.0, high=1.0)
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.game.view import PHASES, Observation
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.tiles import NUM_KINDS, Tile

__all__ = ["NUM_PLANES", "OBS_SHAPE", "PLANES", "Encoder", "Plane", "encode", "plane_bounds"]

Array = npt.NDArray[np.float32]


class Plane(NamedTuple):
    """A block of rows: its name (the table above), first row, row count and the values it may take."""

    name: str
    start: int
    rows: int
    low: float
    high: float


SCORE_SCALE: Final = 16.0
LOCK_FAN_SCALE: Final = 8.0
#: The score rows clip a seat's points at ±SCORE_LIMIT and the lock row its fan at LOCK_FAN_LIMIT, so every row
#: has finite bounds (a Box that normalising wrappers accept); no capped hand comes near either.
SCORE_LIMIT: Final = 4096
LOCK_FAN_LIMIT: Final = 32
_SPEC: Final = (
    ("hand", 4, 1.0),
    ("drawn", 1, 1.0),
    ("pung", 4, 1.0),
    ("kong", 4, 1.0),
    ("river", 24, 1.0),
    ("unseen", 4, 1.0),
    ("void", 4, 1.0),
    ("won", 4, 1.0),
    ("pending", 1, 1.0),
    ("given", 1, 3.0),
    ("received", 1, 3.0),
    # broadcast rows from here on, in the order encode() lists their values
    ("hidden_kongs", 4, 1.0),
    ("ready", 4, 1.0),
    ("active", 4, 1.0),
    ("concealed", 4, 1.0),
    ("scores", 4, SCORE_LIMIT / SCORE_SCALE),
    ("wall", 1, 1.0),
    ("pass_lock", 1, 1.0),
    ("pass_lock_fan", 1, LOCK_FAN_LIMIT / LOCK_FAN_SCALE),
    ("phase", len(PHASES), 1.0),
    ("turn", 4, 1.0),
    ("dealer", 4, 1.0),
)


def _layout() -> tuple[Plane, ...]:
    planes = []
    start = 0
    for name, rows, high in _SPEC:
        planes.append(Plane(name, start, rows, -high if name == "scores" else 0.0, high))
        start += rows
    return tuple(planes)


#: The layout, in row order (the table in this module's docstring and in docs/rl.md).
PLANES: Final = _layout()
NUM_PLANES: Final = PLANES[-1].start + PLANES[-1].rows
OBS_SHAPE: Final = (NUM_PLANES, NUM_KINDS)
_ROW: Final = {p.name: p.start for p in PLANES}
WALL_TILES: Final = 55.0
_RIVER_ROWS: Final = 6

_K = NUM_KINDS
_HAND: Final = _ROW["hand"]
_DRAWN: Final = _ROW["drawn"]
_PUNG: Final = _ROW["pung"]
_KONG: Final = _ROW["kong"]
_RIVER: Final = _ROW["river"]
_UNSEEN: Final = _ROW["unseen"]
_VOID: Final = _ROW["void"]
_WON: Final = _ROW["won"]
_PENDING: Final = _ROW["pending"]
_GIVEN: Final = _ROW["given"]
_RECEIVED: Final = _ROW["received"]
_BROADCAST: Final = _ROW["hidden_kongs"]
_PHASE: Final = {p: _ROW["phase"] - _BROADCAST + i for i, p in enumerate(PHASES)}
_TURN: Final = _ROW["turn"] - _BROADCAST
_DEALER: Final = _ROW["dealer"] - _BROADCAST
_ZEROS: Final = (0.0,) * (len(PHASES) + 8)  # the phase, turn and dealer one-hot values

#: Copies seen, from the rows above ``unseen``: weight 1 for own-tile and river thermometer rows (their sum is the
#: count), 3 for a pung, 4 for a kong; the drawn, order and latest-discard rows weigh 0.
_SEEN_WEIGHTS: Final = np.zeros(_UNSEEN, dtype=np.float32)
_SEEN_WEIGHTS[_HAND : _HAND + 4] = 1.0
_SEEN_WEIGHTS[_PUNG : _PUNG + 4] = 3.0
_SEEN_WEIGHTS[_KONG : _KONG + 4] = 4.0
for _r in range(4):
    _SEEN_WEIGHTS[_RIVER + _RIVER_ROWS * _r : _RIVER + _RIVER_ROWS * _r + 4] = 1.0
#: Unseen > j  <=>  seen <= 3 - j, for j = 0..3.
_SEEN_AT_MOST: Final = np.array([[3.0], [2.0], [1.0], [0.0]], dtype=np.float32)
#: The scale of each broadcast value, in row order.
_BROADCAST_SCALE: Final = np.array(
    [0.25] * 4
    + [1.0] * 8
    + [1 / 14] * 4
    + [1 / SCORE_SCALE] * 4
    + [1 / WALL_TILES, 1.0, 1 / LOCK_FAN_SCALE]
    + [1.0] * len(_ZEROS),
    dtype=np.float32,
)


def plane_bounds() -> tuple[Array, Array]:
    """``(low, high)`` arrays of :data:`OBS_SHAPE` for a ``gymnasium.spaces.Box``."""
    low = np.zeros(OBS_SHAPE, dtype=np.float32)
    high = np.zeros(OBS_SHAPE, dtype=np.float32)
    for p in PLANES:
        low[p.start : p.start + p.rows] = p.low
        high[p.start : p.start + p.rows] = p.high
    return low, high


def _river_block(river: tuple[Tile, ...]) -> Array:
    """The six rows of one river: four count thermometers, the order of first discards, the latest discard."""
    block = np.zeros((_RIVER_ROWS, _K), dtype=np.float32)
    copies = [0] * _K
    inv = 1.0 / len(river)
    for pos, t in enumerate(river):
        i = t.index
        c = copies[i]
        block[c, i] = 1.0
        if not c:
            block[4, i] = (pos + 1) * inv
        copies[i] = c + 1
    block[5, river[-1].index] = 1.0
    return block


class Encoder:
    """:func:`encode` with its own cache: each seat's river rows (and the void rows), kept until they change.

    A river changes once a round while every seat is observed, so most rivers come from the cache. The cache
    holds the river tuple itself and compares by identity (a view's river tuples are immutable), so it is never
    stale, whichever games it sees.
    """

    __slots__ = ("_rivers", "_voids")

    def __init__(self) -> None:
        empty = np.zeros((0, _K), dtype=np.float32)
        self._rivers: list[tuple[tuple[Tile, ...], Array]] = [((), empty)] * 4
        self._voids: list[tuple[tuple[int | None, ...], Array]] = [((), empty)] * 4

    def __call__(self, view: Observation) -> Array:
        """The planes of this module's table for one seat's view: a new ``float32`` array of shape ``(90, 27)``."""
        me, dealer, phase, turn, pending = view.seat, view.dealer, view.phase, view.turn, view.pending_tile
        hand, drawn, melds, hidden, counts = view.hand, view.drawn, view.melds, view.hidden_kongs, view.concealed_counts
        discards, wall, scores, wins, voids = view.discards, view.wall_count, view.scores, view.wins, view.voids
        ready, active, exchanged, lock = view.ready, view.active, view.exchanged, view.pass_lock
        out = np.zeros(OBS_SHAPE, dtype=np.float32)

        copies = [0] * _K
        for t in hand:
            i = t.index
            out[_HAND + copies[i], i] = 1.0
            copies[i] += 1
        if drawn is not None:
            i = drawn.index
            out[_HAND + copies[i], i] = 1.0
            out[_DRAWN, i] = 1.0

        rivers = self._rivers
        for s in range(4):
            r = (s - me) & 3
            for m in melds[s]:
                out[(_PUNG if m.kind is MeldKind.PUNG else _KONG) + r, m.tile_index] = 1.0
            river = discards[s]
            if river:
                cached = rivers[s]
                if cached[0] is not river:
                    cached = rivers[s] = (river, _river_block(river))
                top = _RIVER + _RIVER_ROWS * r
                out[top : top + _RIVER_ROWS] = cached[1]
        if voids[0] is not None:  # all four are revealed together
            known = self._voids[me]
            if known[0] is not voids:
                known = self._voids[me] = (voids, _void_block(voids, me))
            out[_VOID : _VOID + 4] = known[1]

        won: list[int] = []  # the kinds won by other seats, once per physical tile
        j, n_wins = 0, len(wins)
        while j < n_wins:  # a group: one self-draw, or the wins on one discard (or robbed kong) in a row
            w = wins[j]
            tile = w.tile
            out[_WON + ((w.seat - me) & 3), tile.index] = 1.0
            mine = w.seat == me
            j += 1
            while j < n_wins and wins[j].shared:
                out[_WON + ((wins[j].seat - me) & 3), tile.index] = 1.0
                mine = mine or wins[j].seat == me
                j += 1
            if not mine:  # a winner keeps the tile: the seat itself has it in its hand already
                won.append(tile.index)

        if pending is not None:
            out[_PENDING, pending.index] = 1.0
        if exchanged is not None:
            for t in exchanged[0]:
                out[_GIVEN, t.index] += 1.0
            for t in exchanged[1]:
                out[_RECEIVED, t.index] += 1.0

        values = [
            *hidden[me:], *hidden[:me], *ready[me:], *ready[:me], *active[me:], *active[:me],
            *counts[me:], *counts[:me], *clipped(scores[me:]), *clipped(scores[:me]), wall, lock is not None,
            min(lock or 0, LOCK_FAN_LIMIT), *_ZEROS,
        ]  # fmt: skip
        values[_PHASE[phase]] = 1.0
        values[_TURN + ((turn - me) & 3)] = 1.0
        values[_DEALER + ((dealer - me) & 3)] = 1.0
        broadcast = np.array(values, dtype=np.float32)
        broadcast *= _BROADCAST_SCALE
        out[_BROADCAST:] = broadcast[:, None]

        seen = np.dot(_SEEN_WEIGHTS, out[:_UNSEEN])
        for i in won:
            seen[i] += 1.0
        out[_UNSEEN : _UNSEEN + 4] = seen <= _SEEN_AT_MOST
        return out


def clipped(scores: tuple[int, ...]) -> list[int]:
    """Points clipped to ±:data:`SCORE_LIMIT`, as the score rows hold them."""
    return [max(-SCORE_LIMIT, min(SCORE_LIMIT, x)) for x in scores]


def _void_block(voids: tuple[int | None, ...], me: int) -> Array:
    block = np.zeros((4, _K), dtype=np.float32)
    for s, void in enumerate(voids):
        if void is not None:
            block[(s - me) & 3, void * 9 : void * 9 + 9] = 1.0
    return block


_SHARED = Encoder()


def encode(view: Observation) -> Array:
    """The planes of this module's table for one seat's view: a new ``float32`` array of shape ``(90, 27)``."""
    return _SHARED(view)
