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
from sichuan_mahjong.tiles import counts_of, suit_keys

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
    drawn = game.drawn_tile  # None but in play, right after a draw
    if drawn is None:
        return None
    p = game.snapshot()
    turn = p.turn
    wall = counts_of(p.wall)
    wall[drawn] += 1
    counts = tuple(counts_of(hand) for hand in p.hands)
    counts[turn][drawn] -= 1
    keys = tuple(list(suit_keys(c)) for c in counts)
    meld_suits = tuple(sum({1 << m.tile_index // 9 for m in melds}) for melds in p.melds)
    return Position(
        turn=turn,
        counts=counts,
        keys=keys,
        melds=p.melds,
        meld_suits=meld_suits,
        voids=tuple(-1 if v is None else v for v in p.voids),
        active=p.active,
        declared=p.declared,
        wall=wall,
        wall_count=len(p.wall) + 1,
        base=p.base,
    )
