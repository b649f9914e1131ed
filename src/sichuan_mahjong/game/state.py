"""The authoritative state machine of one hand (局): set-up, turns, claims, kongs, wins, settlement.

Everything outward goes through :meth:`Game.view` (docs/rules.md R12). The hot path is integers: per seat a list
of 27 counts and three per-suit base-5 keys kept up to date as tiles move, so the evaluator's tables answer
"does this win" without building tiles. Every change is an :class:`Event`; the ``deal`` event holds all
chance, and the ``act`` events are the answers, so :meth:`Game.replay` rebuilds the same hand.

Phases (docs/engine.md): ``exchange`` (换三张, all seats at once) -> ``void`` (定缺, all at once, hidden until
all chose) -> ``declare`` (报叫 of ready non-dealers) -> ``play`` (the seat on turn) <-> ``claim`` (after a
discard: every seat that can win, pung or kong, asked together) / ``rob`` (after an added kong: every seat
that can rob it) -> ``over``.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, compress
from typing import Any, Final

from sichuan_mahjong.game.actions import (
    DECLARE_READY,
    HU,
    KONG,
    PASS,
    PUNG,
    Action,
    ActionKind,
    IllegalActionError,
)
from sichuan_mahjong.game.deal import Deal, read_deal, scripted_deal, shuffled_deal
from sichuan_mahjong.game.events import TILE_TEXT, Event, tiles_text
from sichuan_mahjong.game.settlement import (
    KongRecord,
    Ledger,
    Payment,
    Settlement,
    WinRecord,
    end_of_wall_payments,
    split,
)
from sichuan_mahjong.game.snapshot import PHASES as POSITION_PHASES
from sichuan_mahjong.game.snapshot import PositionError, Snapshot, check_snapshot
from sichuan_mahjong.game.view import Observation, WinView, filter_event
from sichuan_mahjong.game.why import describe, why
from sichuan_mahjong.hand.analysis import is_winning_keys, shanten_keys, waits_counts
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.scoring import NotWinningError, Score, own_fan_rules, score_hand
from sichuan_mahjong.tiles import NUM_KINDS, POW5, SUITS, Tile, TileLike

__all__ = ["FORCED_WIN_WALL", "Game"]

#: 后4张必胡 (R9.2): a win is forced while the wall holds this many tiles or fewer.
FORCED_WIN_WALL: Final = 4
_VOID = tuple(Action.void(s) for s in range(3))
_DISCARD = tuple(Action.discard(t) for t in range(NUM_KINDS))
_CKONG = tuple(Action.concealed_kong(t) for t in range(NUM_KINDS))
_AKONG = tuple(Action.added_kong(t) for t in range(NUM_KINDS))
_TILE = tuple(Tile(t) for t in range(NUM_KINDS))
_EXCHANGE_OF: Final = {
    combo: Action.exchange_of(combo)
    for suit in range(3)
    for combo in combinations_with_replacement(range(suit * 9, suit * 9 + 9), 3)
}
_EXCHANGE_TARGET: Final = {"clockwise": 3, "counterclockwise": 1, "across": 2}
_DICE_DIRECTION: Final = ("across", "counterclockwise", "clockwise")  # by (sum of the two dice) % 3


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


class Game:
    """One hand. Build with ``Game(rules, seed)`` or :meth:`setup`; drive with :meth:`to_act` / :meth:`step`."""

    # ------------------------------------------------------------------------------------------- creation
    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        *,
        dealer: int | None = None,
        base: int = 1,
        _deal: Deal | None = None,
    ):
        """A shuffled hand. ``dealer=None`` rolls for the first dealer (R2.2); a match passes it on (R2.5).

        ``_deal`` (internal: :meth:`setup`, :meth:`replay`, game/sample.py) deals a checked :class:`Deal` instead.
        """
        self._init(*(_deal or shuffled_deal(rules or Rules(), seed, dealer, base)))

    @classmethod
    def setup(
        cls,
        rules: Rules | None,
        hands: Sequence[str | Iterable[TileLike]],
        wall: str | Iterable[TileLike] = (),
        dealer: int = 0,
        seed: int = 0,
        *,
        replacements: str | Iterable[TileLike] = (),
        base: int = 1,
    ) -> Game:
        """A scripted deal: the dealer's 14, the others' 13, then the wall in draw order.

        Kong replacements come from the wall's far end; ``replacements`` lists them in the order they are
        drawn. The wall between is filled from the unused tiles, shuffled by ``seed``. Impossible counts raise.
        """
        return cls(_deal=scripted_deal(rules or Rules(), hands, wall, dealer, seed, replacements, base))

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
        self._begin()

    @classmethod
    def from_position(cls, position: Snapshot) -> Game:
        """A hand at ``position`` (:class:`~sichuan_mahjong.game.snapshot.Snapshot`), checked first: a snapshot no
        hand can be at raises :class:`~sichuan_mahjong.game.snapshot.PositionError` naming what is wrong.

        The engine works out who is asked and their legal answers, as it would have in play. The events start
        empty (a position has no history to replay); play on with ``to_act`` / ``step``.
        """
        check_snapshot(position)
        p = position
        game = cls(
            _deal=Deal(
                p.rules, p.base, p.seed, p.dealer, None, (1, 1), [list(h) for h in p.hands], list(p.wall), (1, 1)
            )
        )
        game._place(p)
        return game

    def snapshot(self) -> Snapshot:
        """This hand's position now, every hidden tile in it (never a bot's to read: R12); ``Game.from_position``
        builds a hand that plays on from it as this one does. Only in ``play``, ``claim`` or ``rob``."""
        if self._phase not in POSITION_PHASES:
            raise PositionError(f"a position is taken in {', '.join(POSITION_PHASES)}, not in phase {self._phase!r}")
        turn = self._turn
        return Snapshot(
            rules=self.rules,
            dealer=self.dealer,
            phase=self._phase,
            turn=turn,
            hands=tuple(tuple(h) for h in self._sorted),
            melds=tuple(tuple(m) for m in self._melds),
            rivers=tuple(tuple(r) for r in self._rivers),
            wall=tuple(self._wall[self._head : self._tail]),
            drawn=tuple(d if d >= 0 else None for d in self._drawn),
            pending_tile=self._pending_tile if self._pending_tile >= 0 else None,
            voids=tuple(v if v >= 0 else None for v in self._voids),
            declared=tuple(self._declared),
            active=tuple(self._active),
            wins=self._win_views,
            scores=tuple(self._ledger.deltas),
            locks=tuple(v if v >= 0 else None for v in self._lock),
            exchanged=tuple(self._exchanged) if self._exchanged is not None else None,
            after_pung=self._just_punged,
            kong_chain=self._kong_chain,
            draws=tuple(self._draws),
            discarded=tuple(self._discarded),
            ready_at_deal=tuple(self._ready_at_deal),
            kongs=tuple(self._kongs),
            payments=tuple(self._ledger.payments),
            win_records=tuple(self._wins),
            base=self.base,
            seed=self.seed,
        )

    def _place(self, p: Snapshot) -> None:
        """Set this freshly dealt game to the checked position ``p`` (from_position)."""
        self.events.clear()
        for s in range(4):
            melds = list(p.melds[s])
            self._melds[s] = melds
            self._shown_melds[s] = tuple(m for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
            self._hidden_kongs[s] = sum(1 for m in melds if m.kind is MeldKind.CONCEALED_KONG)
            ms = 0
            for m in melds:
                ms |= 1 << (m.tile_index // 9)
            self._meld_suits[s] = ms
            drawn = p.drawn[s]
            self._drawn[s] = -1 if drawn is None else drawn
            self._rivers[s] = list(p.rivers[s])
            self._river_view[s] = tuple(map(_TILE.__getitem__, p.rivers[s]))
            self._discarded[s] = len(p.rivers[s]) if p.discarded is None else p.discarded[s]
            self._draws[s] = len(p.rivers[s]) + len(melds) if p.draws is None else p.draws[s]
            self._ready[s] = None
            lock = p.locks[s]
            self._lock[s] = -1 if lock is None else lock
        self._melds_made = sum(len(m) for m in self._melds)
        self._voids = [-1 if v is None else v for v in p.voids]
        self._void_view = tuple(p.voids)
        self._declared = list(p.declared)
        self._active = list(p.active)
        self._ready_at_deal = list(p.ready_at_deal)
        self._win_views = tuple(p.wins)
        self._wins = list(p.win_records)
        self._groups = sum(not w.shared for w in p.wins)
        if p.wins:  # the first win and those that shared its tile (一炮多响) name the next dealer (R2.5)
            n = 1
            while n < len(p.wins) and p.wins[n].shared:
                n += 1
            self._first_group = ([w.seat for w in p.wins[:n]], p.wins[0].from_seat)
        self._ledger = Ledger()
        self._ledger.deltas = list(p.scores)
        self._ledger.payments = list(p.payments)
        self._exchanged = list(p.exchanged) if p.exchanged is not None else None
        self._kongs = list(p.kongs)
        self._kong_chain = p.kong_chain
        self._last_kong = self._kongs[-1] if p.kong_chain and self._kongs else None
        self._phase = p.phase
        self._turn = p.turn
        t = -1 if p.pending_tile is None else p.pending_tile
        self._pending_tile = t
        wall = len(p.wall)
        self._shot_context = (p.kong_chain, wall == 0)
        self._forced_draw = wall < FORCED_WIN_WALL and p.drawn[p.turn] is not None
        self._may_win = True
        self._just_punged = p.after_pung
        if p.phase == "play":
            self._pending = {p.turn: self._play_options(p.turn)}
        else:
            robbing = p.phase == "rob"
            pending: dict[int, list[Action]] = {}
            for k in range(1, 4):
                o = (p.turn + k) % 4
                if self._active[o]:
                    opts = self._claim_options(o, t, robbing=robbing)
                    if opts:
                        pending[o] = opts
            if not pending:
                raise PositionError(f"no seat can take seat {p.turn}'s {_TILE[t]} in this {p.phase} position")
            self._pending = pending

    # ------------------------------------------------------------------------------------ tiles, ints only
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

    # ----------------------------------------------------------------------------------- set-up phases
    def _begin(self) -> None:
        if self.rules.exchange_three:
            self._phase = "exchange"
            self._pending = {s: self._exchange_options(s) for s in range(4)}
        else:
            self._after_exchange()

    def _exchange_options(self, s: int) -> list[Action]:
        """Every multiset of three tiles of one suit the seat holds, in ``combinations_with_replacement`` order."""
        keys = self._keys[s]
        return [*_suit_exchanges(0, keys[0]), *_suit_exchanges(1, keys[1]), *_suit_exchanges(2, keys[2])]

    def _do_exchange(self, answers: Mapping[int, Action]) -> None:
        direction = self.rules.exchange_direction
        if direction == "dice":
            direction = _DICE_DIRECTION[sum(self.exchange_dice) % 3]
        shift = _EXCHANGE_TARGET[direction]
        given = [answers[s].exchange for s in range(4)]
        for s in range(4):
            for t in given[s]:
                self._remove(s, t)
        received: list[tuple[int, ...]] = [(), (), (), ()]
        for s in range(4):
            target = (s + shift) % 4
            received[target] = given[s]
            for t in given[s]:
                self._add(target, t)
        if self._drawn[self.dealer] in given[self.dealer]:
            self._drawn[self.dealer] = -1
        self._exchanged = [
            (tuple(map(_TILE.__getitem__, given[s])), tuple(map(_TILE.__getitem__, received[s]))) for s in range(4)
        ]
        self._emit(
            "exchange",
            -1,
            direction=direction,
            dice=list(self.exchange_dice) if self.rules.exchange_direction == "dice" else None,
            given=[tiles_text(g) for g in given],
            received=[tiles_text(r) for r in received],
        )
        self._after_exchange()

    def _after_exchange(self) -> None:
        if self.rules.declare_void:
            self._phase = "void"
            self._pending = {s: list(_VOID) for s in range(4)}
        else:
            self._after_void()

    def _after_void(self) -> None:
        for s in range(4):
            if s != self.dealer:
                self._ready_at_deal[s] = self._is_ready(s)
        seats = [s for s in range(4) if self._ready_at_deal[s]] if self.rules.declare_ready else []
        if seats:
            self._phase = "declare"
            self._pending = {s: [DECLARE_READY, PASS] for s in seats}
        else:
            self._start_play()

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

    def _shanten(self, s: int) -> int:
        return shanten_keys(self._keys[s], len(self._melds[s]), self._meld_suits[s], self._voids[s])

    def _start_play(self) -> None:
        self._phase = "play"
        self._turn = self.dealer
        self._may_win = True  # 14 dealt tiles: nothing known before
        self._pending = {self.dealer: self._play_options(self.dealer)}

    # ------------------------------------------------------------------------------------------- turns
    def _start_turn(self, s: int, *, replacement: bool = False) -> None:
        """Draw for seat s (from the far end after a kong) and ask it to play; an empty wall ends the hand."""
        if self._head >= self._tail:
            self._finish("wall")
            return
        self._forced_draw = self._tail - self._head <= FORCED_WIN_WALL
        self._may_win = self._is_ready(s)
        if self._streams is not None:
            self._stream_next(s, replacement)
        if replacement:
            self._tail -= 1
            t = self._wall[self._tail]
        else:
            t = self._wall[self._head]
            self._head += 1
        self._add(s, t)
        self._drawn[s] = t
        self._lock[s] = -1
        self._draws[s] += 1
        self._kong_chain = self._kong_chain + 1 if replacement else 0
        if not replacement:
            self._last_kong = None
        self._just_punged = False
        self._phase = "play"
        self._turn = s
        self._pending_tile = -1
        self._emit("draw", s, tile=TILE_TEXT[t], replacement=replacement)
        self._pending = {s: self._play_options(s)}

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

    def _claim_score(self, o: int, t: int, robbing: bool) -> Score:
        kong_shot, last_tile = (0, False) if robbing else self._shot_context
        tiles = self._concealed(o)
        tiles.append(t)
        return score_hand(
            tiles,
            t,
            self._melds[o],
            kong_shot=kong_shot,
            robbed_kong=robbing,
            declared_ready=self._declared[o],
            last_tile=last_tile,
            rules=self.rules,
        )

    def _ask_claims(self, d: int, t: int, *, robbing: bool) -> bool:
        """Ask every other seat still in that can claim t; False when nobody can."""
        pending: dict[int, list[Action]] = {}
        counts = self._counts
        for k in range(1, 4):
            o = (d + k) % 4
            # Most seats can do nothing with t: not ready (no win) and holding fewer than two (no pung).
            if self._active[o] and ((counts[o][t] >= 2 and not robbing) or self._is_ready(o)):
                opts = self._claim_options(o, t, robbing=robbing)
                if opts:
                    pending[o] = opts
        if not pending:
            return False
        self._phase = "rob" if robbing else "claim"
        self._turn = d
        self._pending_tile = t
        self._pending = pending
        return True

    def _next_active_after(self, s: int) -> int:
        for k in range(1, 5):
            o = (s + k) % 4
            if self._active[o]:
                return o
        return s

    # ------------------------------------------------------------------------------------- the public API
    def to_act(self) -> dict[int, list[Action]]:
        """Every seat that must decide now, with its legal actions (empty when the hand is over)."""
        return {s: list(opts) for s, opts in self._pending.items()}

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def turn(self) -> int:
        """The seat on turn (to draw or play), or whose discard or added kong the others are asked about; the
        dealer during the set-up phases and after the hand (the view's ``turn``)."""
        return self._turn

    @property
    def result(self) -> Settlement:
        if self._result is None:
            raise RuntimeError("the hand is not over: no result yet")
        return self._result

    @property
    def deltas(self) -> tuple[int, ...]:
        """Money moved so far in this hand, per seat."""
        return tuple(self._ledger.deltas)

    @property
    def payments(self) -> tuple[Payment, ...]:
        """Every payment so far in this hand, in order (public, as in the views' scores)."""
        return tuple(self._ledger.payments)

    def step(self, answers: Mapping[int, Action | str]) -> None:
        """Take the answers of every seat :meth:`to_act` asked. Invalid input raises and changes nothing."""
        chosen = self._validate(answers)
        for s in sorted(chosen):
            self._emit("act", s, action=str(chosen[s]))
        phase = self._phase
        if phase == "play":
            ((s, a),) = chosen.items()
            self._play(s, a)
        elif phase in ("claim", "rob"):
            self._resolve_claims(chosen, robbing=phase == "rob")
        elif phase == "exchange":
            self._do_exchange(chosen)
        elif phase == "void":
            for s in range(4):
                self._voids[s] = chosen[s].suit_index
                self._ready[s] = None
            self._void_view = tuple(self._voids)
            self._emit("voids", -1, voids=[SUITS[v] for v in self._voids])
            self._after_void()
        elif phase == "declare":
            for s in sorted(chosen):
                if chosen[s] is DECLARE_READY:
                    self._declare(s)
            self._start_play()

    def _validate(self, answers: Mapping[int, Action | str]) -> dict[int, Action]:
        if self._phase == "over":
            raise IllegalActionError("the hand is over: nobody may act")
        chosen: dict[int, Action] = {}
        for s, raw in answers.items():
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 4:
                raise IllegalActionError(f"{str(s)[:20]!r} is not a seat: seats are 0..3")
            a = Action.parse(raw) if isinstance(raw, str) else raw
            legal = self._pending.get(s)
            if legal is None:
                what = describe(self, a)
                if self._phase == "claim" and a.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.HU):
                    raise IllegalActionError(f"seat {s} cannot {what}: {why(self, s, a)}")
                asked = ", ".join(map(str, sorted(self._pending)))
                raise IllegalActionError(f"seat {s} cannot {what}: it is not asked now (asked: {asked})")
            for x in legal:
                if x is a:
                    break
            else:  # not one of the shared instances: an equal one must act as it (the engine compares by identity)
                if a not in legal:
                    raise IllegalActionError(f"seat {s} cannot {describe(self, a)}: {why(self, s, a)}")
                a = legal[legal.index(a)]
            chosen[s] = a
        for s, legal in self._pending.items():
            if s not in chosen:
                shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
                raise IllegalActionError(f"seat {s} must answer too (legal: {shown})")
        return chosen

    # -------------------------------------------------------------------------------------- play answers
    def _play(self, s: int, a: Action) -> None:
        kind = a.kind
        if kind is ActionKind.DISCARD:
            self._discard(s, a.tile_index)
        elif kind is ActionKind.HU:
            self._self_draw_win(s)
        elif kind is ActionKind.CONCEALED_KONG:
            self._concealed_kong(s, a.tile_index)
        elif kind is ActionKind.ADDED_KONG:
            t = a.tile_index
            self._emit("added_kong", s, tile=TILE_TEXT[t])
            if not self._ask_claims(s, t, robbing=True):
                self._complete_added_kong(s, t)
        elif kind is ActionKind.DECLARE_READY:
            self._declare(s)
            self._pending = {s: self._play_options(s)}

    def _declare(self, s: int) -> None:
        self._declared[s] = True
        self._emit("ready", s)

    def _discard(self, s: int, t: int) -> None:
        self._remove(s, t)
        self._drawn[s] = -1
        self._rivers[s].append(t)
        self._river_view[s] += (_TILE[t],)
        self._discarded[s] += 1
        self._just_punged = False
        self._emit("discard", s, tile=TILE_TEXT[t])
        self._shot_context = (self._kong_chain, self._tail == self._head)
        if not self._ask_claims(s, t, robbing=False):
            self._start_turn(self._next_active_after(s))

    def _resolve_claims(self, chosen: Mapping[int, Action], *, robbing: bool) -> None:
        d, t = self._turn, self._pending_tile
        for o, a in chosen.items():
            if a is not HU and HU in self._pending[o]:
                self._lock[o] = max(self._lock[o], self._own_fan(o, t))
        order = [(d + k) % 4 for k in range(1, 4)]
        winners = [o for o in order if chosen.get(o) is HU]
        self._pending = {}
        self._pending_tile = -1
        if winners:
            self._discard_win(d, t, winners, robbing=robbing)
            return
        if robbing:
            self._complete_added_kong(d, t)
            return
        for o in order:
            claim = chosen.get(o)
            if claim is KONG:
                self._exposed_kong(o, d, t)
                return
            if claim is PUNG:
                self._pung(o, d, t)
                return
        self._start_turn(self._next_active_after(d))

    def _pung(self, o: int, d: int, t: int) -> None:
        self._river_pop(d)
        self._remove(o, t, 2)
        self._add_meld(o, Meld(MeldKind.PUNG, t))
        self._meld_suits[o] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("pung", o, tile=TILE_TEXT[t], from_seat=d)
        self._phase = "play"
        self._turn = o
        self._just_punged = True
        self._kong_chain = 0
        self._last_kong = None
        self._drawn[o] = -1
        self._pending = {o: self._play_options(o)}

    def _kong_paid(self, record: KongRecord, payers: Iterable[int], amount: int, reason: str) -> None:
        for p in payers:
            payment = self._ledger.pay(p, record.seat, amount * self.base, reason)
            if payment is not None:
                record.income.append(payment)
                self._emit("payment", -1, **payment.to_dict())
        self._kongs.append(record)
        self._last_kong = record

    def _others_in(self, s: int) -> list[int]:
        return [(s + k) % 4 for k in range(1, 4) if self._active[(s + k) % 4]]

    def _exposed_kong(self, o: int, d: int, t: int) -> None:
        self._river_pop(d)
        self._remove(o, t, 3)
        self._add_meld(o, Meld(MeldKind.KONG, t))
        self._meld_suits[o] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("kong", o, tile=TILE_TEXT[t], from_seat=d)
        self._kong_paid(KongRecord(o, MeldKind.KONG, t, d), [d], 2, "R6.1 exposed kong 直杠")
        self._kong_chain = 0  # the claimer's turn begins with this kong; the discarder's chain is not his
        self._start_turn(o, replacement=True)

    def _concealed_kong(self, s: int, t: int) -> None:
        self._remove(s, t, 4)
        self._drawn[s] = -1
        self._add_meld(s, Meld(MeldKind.CONCEALED_KONG, t))
        self._meld_suits[s] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("concealed_kong", s, tile=TILE_TEXT[t])
        self._kong_paid(
            KongRecord(s, MeldKind.CONCEALED_KONG, t, None), self._others_in(s), 2, "R6.3 concealed kong 暗杠"
        )
        self._start_turn(s, replacement=True)

    def _complete_added_kong(self, s: int, t: int) -> None:
        self._remove(s, t)
        self._drawn[s] = -1
        melds = self._melds[s]
        i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.tile_index == t)
        melds[i] = Meld(MeldKind.ADDED_KONG, t)
        self._shown_melds[s] = tuple(m for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
        self._melds_made += 1
        self._kong_paid(KongRecord(s, MeldKind.ADDED_KONG, t, None), self._others_in(s), 1, "R6.2 added kong 补杠")
        self._start_turn(s, replacement=True)

    # ---------------------------------------------------------------------------------------------- wins
    def _pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        payment = self._ledger.pay(payer, payee, amount, reason)
        if payment is not None:
            self._emit("payment", -1, **payment.to_dict())

    def _record_win(
        self, s: int, t: int, from_seat: int | None, robbed: bool, score: Score, shared: bool = False
    ) -> None:
        self._wins.append(WinRecord(s, t, from_seat, robbed, score, self._groups))
        self._win_views += (WinView(s, _TILE[t], from_seat, robbed, score.fan, shared),)
        self._emit(
            "win",
            s,
            tile=TILE_TEXT[t],
            from_seat=from_seat,
            robbed_kong=robbed,
            fan=score.fan,
            patterns=[p.id for p in score.patterns],
        )

    def _discard_win(self, d: int, t: int, winners: list[int], *, robbing: bool) -> None:
        """One discard (or robbed added kong) wins one or more seats: 点炮, 一炮多响, 抢杠 (R8.1, R8.3)."""
        if robbing:
            self._remove(d, t)
            self._drawn[d] = -1
            self._emit("robbed", d, tile=TILE_TEXT[t], by=winners)
        else:
            self._river_pop(d)
        kong_shot = 0 if robbing else self._shot_context[0]
        self._groups += 1  # R7: a win spoils no one's 地胡, so it is not counted in _melds_made
        reason = "R8.3 robbed kong 抢杠" if robbing else "R8.1 discard win 点炮"
        for i, w in enumerate(winners):
            score = self._claim_score(w, t, robbing)
            self._add(w, t)
            self._record_win(w, t, d, robbing, score, i > 0)  # 一炮多响: one tile, a copy in each winner's hand
            self._pay(d, w, self.base * score.multiplier, reason)
        kong = self._last_kong
        if kong_shot and self.rules.kong_shot_transfer and kong is not None and kong.seat == d and kong.income:
            income = sum(p.amount for p in kong.income)
            kong.transferred = True
            for w, amount in zip(winners, split(income, len(winners)), strict=True):
                self._pay(d, w, amount, "R10 kong_shot_transfer 呼叫转移")
        if self._first_group is None:
            self._first_group = (winners, d)
        self._after_win(winners, last=winners[-1])

    def _self_draw_win(self, s: int) -> None:
        heaven = self._first_turn_of_dealer(s)
        t = self._drawn[s]
        tiles = self._concealed(s)
        kong_flower = self._kong_chain
        earth = (
            s != self.dealer
            and self._ready_at_deal[s]
            and self._draws[s] == 1
            and not kong_flower
            and not self._melds_made
            and not self._discarded[s]
        )
        last_tile = self.wall_count == 0 and not heaven

        def score(win: int) -> Score:
            return score_hand(
                tiles,
                win,
                self._melds[s],
                self_draw=True,
                kong_flower=kong_flower,
                declared_ready=self._declared[s],
                heaven=heaven,
                earth=earth,
                last_tile=last_tile,
                rules=self.rules,
            )

        if t < 0:  # 天胡 after the 14th tile left in 换三张: the best reading over the tiles held
            best: Score | None = None
            for cand in sorted(set(tiles)):
                try:
                    sc = score(cand)
                except NotWinningError:
                    continue
                if best is None or sc.raw_fan > best.raw_fan:
                    best, t = sc, cand
            if best is None:
                raise RuntimeError("hu was offered on tiles that do not win")
            win_score = best
        else:
            win_score = score(t)
        self._groups += 1
        self._record_win(s, t, None, False, win_score)
        kong = self._last_kong
        amount = self.base * win_score.multiplier + (self.base if self.rules.self_draw_bonus == "base" else 0)
        if (
            kong_flower
            and self.rules.kong_flower_payer == "discarder"
            and kong is not None
            and kong.kind is MeldKind.KONG
            and kong.feeder is not None
            and self._active[kong.feeder]
        ):
            self._pay(kong.feeder, s, amount, "R10 kong_flower_payer 点杠花")
        else:
            for p in self._others_in(s):
                self._pay(p, s, amount, "R8.2 self-draw 自摸")
        if self._first_group is None:
            self._first_group = ([s], None)
        self._after_win([s], last=s)

    def _after_win(self, winners: list[int], *, last: int) -> None:
        self._pending = {}
        if not self.rules.bloody:
            self._finish("win")
            return
        for w in winners:
            self._active[w] = False
        if sum(self._active) <= 1:
            self._finish("one_left")
            return
        self._start_turn(self._next_active_after(last))

    # ------------------------------------------------------------------------------------ end of the hand
    def _ready_score(self, s: int) -> Score | None:
        """What 查叫 charges for seat s's hand (R9.5), as :func:`value_of_ready_hand` reckons it: its lowest
        (查大叫: highest) wait scored as a win on a discard from shape, roots and 报叫; None when not ready.

        Only the waits are scored (found from the tables first), not all 27 tiles.
        """
        if not self._is_ready(s):
            return None
        melds = self._melds[s]
        held = [0] * NUM_KINDS
        for m in melds:
            held[m.tile_index] += m.size
        waits = waits_counts(self._counts[s], len(melds), self._meld_suits[s], self._voids[s], held)
        if not waits:
            return None  # every wait is a tile he holds all four of
        rules = self._own_rules
        tiles = self._concealed(s)
        scores = [score_hand([*tiles, w], w, melds, declared_ready=self._declared[s], rules=rules) for w in waits]
        pick = max if self.rules.check_max else min
        return pick(scores, key=lambda sc: (sc.fan, sc.raw_fan))

    def _is_pig(self, s: int) -> bool:
        c = self._counts[s]
        suits = self._meld_suits[s]
        for suit in range(3):
            if any(c[suit * 9 : suit * 9 + 9]):
                suits |= 1 << suit
        void = self._voids[s]
        return suits == 7 or (void >= 0 and bool(suits & (1 << void)))

    def _finish(self, reason: str) -> None:
        self._phase = "over"
        self._pending = {}
        self._pending_tile = -1
        ready = [False] * 4
        if reason == "wall":
            still_in = [s for s in range(4) if self._active[s]]
            before = len(self._ledger.payments)
            ready = end_of_wall_payments(
                self.rules, self.base, still_in, self._ready_score, self._is_pig, self._kongs, self._ledger
            )
            for payment in self._ledger.payments[before:]:
                self._emit("payment", -1, **payment.to_dict())
        if self._first_group is not None:
            winners, discarder = self._first_group
            next_dealer = discarder if len(winners) > 1 and discarder is not None else winners[0]
        else:
            next_dealer = self.dealer if self.rules.dealer_after_draw == "stay" else (self.dealer + 1) % 4
        self._result = Settlement(
            deltas=tuple(self._ledger.deltas),
            payments=tuple(self._ledger.payments),
            scores={w.seat: w.score for w in self._wins},
            wins=tuple(self._wins),
            next_dealer=next_dealer,
            reason=reason,
            ready=tuple(ready),
        )
        self._emit("end", -1, reason=reason, deltas=list(self._ledger.deltas), next_dealer=next_dealer, ready=ready)

    # -------------------------------------------------------------------------------------------- views
    def view(self, seat: int) -> Observation:
        """What seat ``seat`` may see (R12): its own tiles and the public table, nothing hidden."""
        if not 0 <= seat < 4:
            raise ValueError(f"seat must be 0..3, got {seat}")
        held = self._sorted[seat]
        drawn = self._drawn[seat]
        hand = list(map(_TILE.__getitem__, held))
        if drawn >= 0:
            del hand[bisect_left(held, drawn)]
        melds = list(self._shown_melds)
        melds[seat] = tuple(self._melds[seat])
        hidden = list(self._hidden_kongs)
        hidden[seat] = 0
        pending_tile = self._pending_tile
        lock = self._lock[seat]
        return Observation(
            seat=seat,
            dealer=self.dealer,
            rules=self.rules,
            base=self.base,
            phase=self._phase,
            turn=self._turn,
            pending_tile=_TILE[pending_tile] if pending_tile >= 0 else None,
            hand=tuple(hand),
            drawn=_TILE[drawn] if drawn >= 0 else None,
            melds=tuple(melds),
            hidden_kongs=tuple(hidden),
            concealed_counts=tuple(map(len, self._sorted)),
            discards=tuple(self._river_view),
            wall_count=self._tail - self._head,
            scores=tuple(self._ledger.deltas),
            wins=self._win_views,
            voids=self._void_view,  # set only once all four chose
            ready=tuple(self._declared),
            active=tuple(self._active),
            legal=tuple(self._pending.get(seat, ())),
            exchanged=self._exchanged[seat] if self._exchanged is not None else None,
            is_over=self._phase == "over",
            pass_lock=lock if lock >= 0 else None,  # this seat's own 过水不胡 only (R12)
        )

    def events_for(self, seat: int) -> list[Event]:
        """The event log as seat ``seat`` may receive it (the same filter as :meth:`view`)."""
        out = []
        for e in self.events:
            f = filter_event(e, seat)
            if f is not None:
                out.append(f)
        return out

    # ---------------------------------------------------------------------------------- replay and JSON
    @classmethod
    def replay(cls, events: Iterable[Event | Mapping[str, Any]]) -> Game:
        """Rebuild a hand from its events: the ``deal`` event, then every ``act`` answer re-applied.

        A deal the engine could not have made (impossible dice, a fifth copy of a tile, ...) raises DealError.
        """
        items = [e if isinstance(e, Event) else Event.from_dict(e) for e in events]
        if not items or items[0].type != "deal":
            raise ValueError("a replay starts with the 'deal' event")
        game = cls(_deal=read_deal(items[0].data))
        buffer: dict[int, Action | str] = {}
        for e in items[1:]:
            if e.type != "act":
                continue
            buffer[e.seat] = str(e.data["action"])
            if set(buffer) == set(game._pending):
                game.step(buffer)
                buffer = {}
        if buffer:
            raise ValueError(f"the events end with answers the hand did not ask for: {buffer}")
        return game

    def to_json(self) -> str:
        return json.dumps(
            {"format": "sichuan_mahjong.game", "version": 1, "events": [e.to_dict() for e in self.events]},
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        data = json.loads(text)
        return cls.replay(data["events"])
