"""The whole position of a :class:`Game` just before a draw, every hidden tile in it: for valuing search samples.

A search bot plays its *own samples* on (``agents/master.py``: a :func:`~sichuan_mahjong.game.sample.sample_game`
built from its view), and may cut a play-out short and ask a learned value what the rest is worth
(``agents/value.py``). That value reads the sample's every hand and its wall, which a bot may do only because
the sample is its own guess: never pass a real game here from a bot (R12). The snapshot is taken right after a
draw and shows the position *before* it: the tile just drawn is back in the wall, so that every seat still in
the hand holds 13 - 3k concealed tiles and the wall is what is left to come, in no order.

>>> import sichuan_mahjong as sm
>>> game = sm.Game(sm.Rules.preset("seed"), seed=1)
>>> while position(game) is None:
...     game.step({s: legal[0] for s, legal in game.to_act().items()})
>>> p = position(game)
>>> [sum(c) for c in p.counts], p.wall_count == game.wall_count + 1
([13, 13, 13, 13], True)
"""

from __future__ import annotations

from dataclasses import dataclass

from sichuan_mahjong.game.state import Game
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.tiles import NUM_KINDS, POW5

__all__ = ["Position", "position"]


@dataclass(frozen=True, slots=True)
class Position:
    """Seat ``turn`` is about to draw; per seat its concealed counts (and their per-suit base-5 keys), melds,
    meld suits (bit mask), 定缺 void (-1 for none), whether it is still in the hand and declared 报叫; ``wall``
    counts the tiles left to draw by kind (``wall_count`` of them); ``base`` is the game's unit of payment."""

    turn: int
    counts: tuple[list[int], ...]
    keys: tuple[list[int], ...]
    melds: tuple[tuple[Meld, ...], ...]
    meld_suits: tuple[int, ...]
    voids: tuple[int, ...]
    active: tuple[bool, ...]
    declared: tuple[bool, ...]
    wall: list[int]
    wall_count: int
    base: int


def position(game: Game) -> Position | None:
    """The position before the draw just made, or None when the game is not right after a draw."""
    if game.is_over or game.phase != "play":
        return None
    turn = game._turn
    drawn = game._drawn[turn]
    if drawn < 0:
        return None
    wall = [0] * NUM_KINDS
    for t in game._wall[game._head : game._tail]:
        wall[t] += 1
    wall[drawn] += 1
    counts = tuple(list(c) for c in game._counts)
    keys = tuple(list(k) for k in game._keys)
    counts[turn][drawn] -= 1
    keys[turn][drawn // 9] -= POW5[drawn % 9]
    return Position(
        turn=turn,
        counts=counts,
        keys=keys,
        melds=tuple(tuple(m) for m in game._melds),
        meld_suits=tuple(game._meld_suits),
        voids=tuple(game._voids),
        active=tuple(game._active),
        declared=tuple(game._declared),
        wall=wall,
        wall_count=game._tail - game._head + 1,
        base=game.base,
    )
