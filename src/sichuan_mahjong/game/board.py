"""What a hand is made of, as integers: per seat its tiles, melds and river; the wall; the game's public fields.

The base of :class:`~sichuan_mahjong.game.state.Game` (``Board`` <- ``Options`` <- ``Wins`` <- ``Turns`` <-
``Game``). The hot path is integers: per seat a list of 27 counts and three per-suit base-5 keys kept up to date
as tiles move, so the evaluator's tables answer "does this win" without building tiles. Here: the fields, set
from a deal, and the moves every phase makes of them (a tile in or out of a hand, a meld, a river's last tile),
each seat's readiness cached until its tiles move, and the wall (its order, a sample's own draw streams).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from typing import Any, Final

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.events import Event, tiles_text
from sichuan_mahjong.game.settlement import KongRecord, Ledger, Settlement, WinRecord
from sichuan_mahjong.game.view import WinView
from sichuan_mahjong.hand.analysis import is_winning_keys, shanten_keys
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.scoring import own_fan_rules
from sichuan_mahjong.tiles import NUM_KINDS, POW5, Tile

__all__ = ["FORCED_WIN_WALL", "Board"]

#: 后4张必胡 (R9.2): a win is forced while the wall holds this many tiles or fewer.
FORCED_WIN_WALL: Final = 4


class Board:
    """A hand's fields and the moves of its tiles; :class:`~sichuan_mahjong.game.state.Game` is the one to build."""

    def _init(
        self,
        rules: Rules,
        base: int,
        seed: int,
        dealer: int,
        dealer_rolls: list[list[int]] | None,
        dice: tuple[int, int],
        hands: list[list[int]],
        wall: list[int],
        exchange_dice: tuple[int, int],
    ) -> None:
        self.rules = rules
        self._own_rules = own_fan_rules(rules)  # a hand's own fan: 过水不胡 (R9.1) and 查叫 (R9.5)
        self.base = base
        self.seed = seed
        self.dealer = dealer
        self.dealer_rolls = dealer_rolls
        self.dice = dice
        self.exchange_dice = exchange_dice
        self.events: list[Event] = []
        self._counts = [[0] * NUM_KINDS for _ in range(4)]
        self._sorted: list[list[int]] = [[], [], [], []]  # the same concealed tiles, ascending
        self._keys = [[0, 0, 0] for _ in range(4)]
        self._melds: list[list[Meld]] = [[], [], [], []]
        self._meld_suits = [0, 0, 0, 0]
        self._drawn = [-1, -1, -1, -1]
        self._rivers: list[list[int]] = [[], [], [], []]
        # What view() shows, kept up to date as it changes rather than rebuilt for every view.
        self._river_view: list[tuple[Tile, ...]] = [(), (), (), ()]
        self._shown_melds: list[tuple[Meld, ...]] = [(), (), (), ()]  # all but concealed kongs
        self._hidden_kongs = [0, 0, 0, 0]
        self._win_views: tuple[WinView, ...] = ()
        self._void_view: tuple[int | None, ...] = (None, None, None, None)
        self._wall = list(wall)
        self._head = 0
        self._tail = len(wall)
        # A sample's own draw order (game/sample.py ``seat_streams``): each seat's tiles to come, last first.
        self._streams: list[list[int]] | None = None
        self._active = [True] * 4
        self._voids = [-1, -1, -1, -1]
        self._declared = [False] * 4
        self._lock = [-1, -1, -1, -1]  # 过水不胡: fan of the best win passed since the last draw
        # Is seat s's hand (13 - 3k tiles) one tile from a win? None until asked after its tiles last moved. A
        # discard can only win a ready hand and a draw only complete one, so most win tests are skipped.
        self._ready: list[bool | None] = [None, None, None, None]
        self._may_win = True  # the seat on turn was ready before its draw (or it is the dealer's first turn)
        self._phase = "play"
        self._turn = dealer
        self._pending_tile = -1
        self._pending: dict[int, list[Action]] = {}
        self._kong_chain = 0  # kongs in a row the seat on turn made this turn, each with its replacement (杠上杠)
        self._last_kong: KongRecord | None = None
        self._just_punged = False
        self._melds_made = 0  # pungs and kongs so far, by anyone: 天胡 and 地胡 need none before them (R7)
        self._draws = [0, 0, 0, 0]
        self._discarded = [0, 0, 0, 0]
        self._ready_at_deal = [False] * 4
        self._forced_draw = False  # the tile just drawn was one of the last four (R9.2)
        self._shot_context = (0, False)  # (kongs in the discarder's chain, last_tile) of the pending discard
        self._exchanged: list[tuple[tuple[Tile, ...], tuple[Tile, ...]]] | None = None  # (given, received)
        self._wins: list[WinRecord] = []
        self._groups = 0
        self._first_group: tuple[list[int], int | None] | None = None  # winners and discarder of the first win
        self._kongs: list[KongRecord] = []
        self._ledger = Ledger()
        self._result: Settlement | None = None
        for s in range(4):  # as _add, tile by tile, in one pass
            counts, keys = self._counts[s], self._keys[s]
            for t in hands[s]:
                counts[t] += 1
                keys[t // 9] += POW5[t % 9]
            self._sorted[s] = sorted(hands[s])
        self._drawn[dealer] = hands[dealer][-1]
        self._emit(
            "deal",
            -1,
            rules=rules.to_dict(),
            base=base,
            seed=seed,
            dealer=dealer,
            dealer_rolls=dealer_rolls,
            dice=list(dice),
            exchange_dice=list(exchange_dice),
            hands=[tiles_text(h) for h in hands],
            wall=tiles_text(wall),
        )

    def _add(self, s: int, t: int) -> None:
        self._counts[s][t] += 1
        self._keys[s][t // 9] += POW5[t % 9]
        insort(self._sorted[s], t)
        self._ready[s] = None

    def _remove(self, s: int, t: int, n: int = 1) -> None:
        self._counts[s][t] -= n
        self._keys[s][t // 9] -= n * POW5[t % 9]
        tiles = self._sorted[s]
        i = bisect_left(tiles, t)
        del tiles[i : i + n]
        self._ready[s] = None

    def _is_ready(self, s: int) -> bool:
        """Shanten 0 for seat s holding 13 - 3k tiles, cached until its tiles move (a win needs it first)."""
        ready = self._ready[s]
        if ready is None:
            k0, k1, k2 = self._keys[s]
            suits = self._meld_suits[s] | (k0 > 0) | (k1 > 0) << 1 | (k2 > 0) << 2
            void = self._voids[s]
            # R3.1: a hand holding three suits (or its declared void) is no tile from a win, whatever its shape.
            three_suits = suits == 7 or (void >= 0 and suits >> void & 1)
            ready = self._ready[s] = not three_suits and self._shanten(s) == 0
        return ready

    def _shanten(self, s: int) -> int:
        return shanten_keys(self._keys[s], len(self._melds[s]), self._meld_suits[s], self._voids[s])

    def _wins_with(self, s: int, t: int) -> bool:
        """Would seat s's concealed tiles plus t (a discard or a robbed kong) win?"""
        keys = self._keys[s]
        k = [keys[0], keys[1], keys[2]]
        k[t // 9] += POW5[t % 9]
        return is_winning_keys(k, len(self._melds[s]), self._meld_suits[s], self._voids[s])

    def _wins_now(self, s: int) -> bool:
        return is_winning_keys(self._keys[s], len(self._melds[s]), self._meld_suits[s], self._voids[s])

    def _concealed(self, s: int) -> list[int]:
        return list(self._sorted[s])

    def _river_pop(self, d: int) -> None:
        """The last discard of seat d leaves its river (claimed or won)."""
        self._rivers[d].pop()
        self._river_view[d] = self._river_view[d][:-1]

    def _add_meld(self, s: int, meld: Meld) -> None:
        self._melds[s].append(meld)
        if meld.kind is MeldKind.CONCEALED_KONG:
            self._hidden_kongs[s] += 1
        else:
            self._shown_melds[s] += (meld,)

    def _emit(self, kind: str, seat: int, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))

    @property
    def wall_count(self) -> int:
        return self._tail - self._head

    def shuffle_wall(self, rng: random.Random) -> None:
        """Put the wall still to be drawn in a random order by ``rng`` (``game/sample.py`` ``reshuffled``)."""
        rest = self._wall[self._head : self._tail]
        rng.shuffle(rest)
        self._wall[self._head : self._tail] = rest

    def use_seat_streams(self) -> None:
        """Draw from a stream of each seat's own from now on (``game/sample.py`` ``seat_streams``): the wall still
        to be drawn dealt out in turn, last first, a tile to each seat."""
        rest = self._wall[self._head : self._tail]
        self._streams = [rest[s::4][::-1] for s in range(4)]

    def _stream_next(self, s: int, replacement: bool) -> None:
        """Put seat s's next tile from its own stream (the longest other's last once its own is spent) where the
        draw takes it (the wall's far end for a replacement), so that the wall's undrawn part still holds exactly
        the tiles to come."""
        streams = self._streams
        assert streams is not None
        # A seat that has spent its stream borrows the last tile of the longest, so the lender's next draws stay.
        t = streams[s].pop() if streams[s] else max(streams, key=len).pop(0)
        end = self._tail - 1 if replacement else self._head
        j = self._wall.index(t, self._head, self._tail)
        self._wall[j] = self._wall[end]
        self._wall[end] = t

    def _others_in(self, s: int) -> list[int]:
        return [(s + k) % 4 for k in range(1, 4) if self._active[(s + k) % 4]]

    def _next_active_after(self, s: int) -> int:
        for k in range(1, 5):
            o = (s + k) % 4
            if self._active[o]:
                return o
        return s
