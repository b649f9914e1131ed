"""What a seat may do now: the legal answers the engine offers in each phase (R3 - R9).

``Options`` (on :class:`~sichuan_mahjong.game.board.Board`, under ``Wins``, ``Turns`` and ``Game``): the
换三张 choices, the seat on turn's plays (自摸, kongs, 报叫, its discards: void suit first, only the drawn tile
after 报叫), and the claims on a discard or an added kong (胡 unless 过水不胡 locks it, pung, kong), with 后4张必胡
(R9.2) forcing a win. The answers are the shared :class:`~sichuan_mahjong.game.actions.Action` instances, which
the engine compares by identity.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement, compress
from typing import Final

from sichuan_mahjong.game.actions import DECLARE_READY, HU, KONG, PASS, PUNG, Action
from sichuan_mahjong.game.board import FORCED_WIN_WALL, Board
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.scoring import score_hand
from sichuan_mahjong.tiles import NUM_KINDS, POW5

__all__ = ["Options"]

_DISCARD = tuple(Action.discard(t) for t in range(NUM_KINDS))
_CKONG = tuple(Action.concealed_kong(t) for t in range(NUM_KINDS))
_AKONG = tuple(Action.added_kong(t) for t in range(NUM_KINDS))
_EXCHANGE_OF: Final = {
    combo: Action.exchange_of(combo)
    for suit in range(3)
    for combo in combinations_with_replacement(range(suit * 9, suit * 9 + 9), 3)
}


@lru_cache(maxsize=1 << 14)
def _suit_exchanges(suit: int, key: int) -> tuple[Action, ...]:
    """The 换三张 choices within one suit of a hand whose base-5 key for that suit is ``key`` (R10), in order."""
    c = [key // POW5[r] % 5 for r in range(9)]
    ranks = [r for r in range(9) if c[r]]
    out: list[Action] = []
    base = suit * 9
    n = len(ranks)
    for i in range(n):
        a = ranks[i]
        for j in range(i, n):
            b = ranks[j]
            if b == a and c[a] < 2:
                continue
            for k in range(j, n):
                x = ranks[k]
                if x == b and c[x] < (3 if a == b else 2):
                    continue
                out.append(_EXCHANGE_OF[base + a, base + b, base + x])
    return tuple(out)


class Options(Board):
    """The legal answers of each phase, worked out from the board."""

    def _exchange_options(self, s: int) -> list[Action]:
        """Every multiset of three tiles of one suit the seat holds, in ``combinations_with_replacement`` order."""
        keys = self._keys[s]
        return [*_suit_exchanges(0, keys[0]), *_suit_exchanges(1, keys[1]), *_suit_exchanges(2, keys[2])]

    def _first_turn_of_dealer(self, s: int) -> bool:
        return s == self.dealer and self._discarded[s] == 0 and self._draws[s] == 0 and not self._melds_made

    def _play_options(self, s: int) -> list[Action]:
        c = self._counts[s]
        opts: list[Action] = []
        if not self._just_punged and self._may_win and self._wins_now(s):
            if self._forced_draw and self._draws[s]:
                return [HU]
            opts.append(HU)
        drawn = self._drawn[s]
        if self._declared[s]:
            if drawn >= 0 and not self._first_turn_of_dealer(s):
                opts.append(_DISCARD[drawn])
            else:  # the dealer declared on his first turn: discards that keep him ready
                opts.extend(_DISCARD[t] for t in range(NUM_KINDS) if c[t] and self._ready_without(s, t))
            return opts
        void = self._voids[s]
        if self.rules.kongs_pay and self._tail > self._head and not self._just_punged:
            if 4 in c:
                opts.extend(_CKONG[t] for t in range(NUM_KINDS) if c[t] == 4 and t // 9 != void)
            if self._melds[s]:
                opts.extend(_AKONG[m.tile_index] for m in self._melds[s] if m.kind is MeldKind.PUNG and c[m.tile_index])
        if (
            self.rules.declare_ready
            and self._first_turn_of_dealer(s)
            and any(c[t] and self._ready_without(s, t) for t in range(NUM_KINDS))
        ):
            opts.append(DECLARE_READY)
        if void >= 0 and any(c[void * 9 : void * 9 + 9]):
            opts.extend(compress(_DISCARD[void * 9 : void * 9 + 9], c[void * 9 : void * 9 + 9]))
        else:
            opts.extend(compress(_DISCARD, c))
        return opts

    def _ready_without(self, s: int, t: int) -> bool:
        self._remove(s, t)
        try:
            return self._shanten(s) == 0
        finally:
            self._add(s, t)

    def _claim_options(self, o: int, t: int, *, robbing: bool) -> list[Action]:
        opts: list[Action] = []
        if self._is_ready(o) and self._wins_with(o, t) and (self._lock[o] < 0 or self._own_fan(o, t) > self._lock[o]):
            if self._tail - self._head <= FORCED_WIN_WALL:
                return [HU]
            opts.append(HU)
        if not robbing and not self._declared[o] and self._tail > self._head and t // 9 != self._voids[o]:
            n = self._counts[o][t]
            if n == 3 and self.rules.kongs_pay:
                opts.append(KONG)
            if n >= 2:
                opts.append(PUNG)
        if opts:
            opts.append(PASS)
        return opts

    def _own_fan(self, o: int, t: int) -> int:
        """The fan of seat o's hand won on t by itself (叫牌番数, R9.1): shape + roots + 报叫, capped.

        过水不胡 locks and compares this, so a situational bonus (抢杠, 杠上炮, 海底炮) never lifts the lock.
        """
        tiles = self._concealed(o)
        tiles.append(t)
        return score_hand(tiles, t, self._melds[o], declared_ready=self._declared[o], rules=self._own_rules).fan
