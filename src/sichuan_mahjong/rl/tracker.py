"""Every seat's planes of rl/encode.py kept up to date from one game's event log: the environments' fast path.

``encode(game.view(seat))`` builds the 90 planes from scratch. A :class:`PlaneTracker` follows the game's
events instead, and each event changes only the cells it touches in one ``float32`` table: the public rows
once, in absolute seat order (melds, rivers, voids, wins, the pending tile, the broadcast rows), and each seat's
private rows (its tiles and drawn tile, its own kongs, what it has not seen, its 换三张, its 过水 lock). A seat's
observation is then one ``take`` of 90 rows of that table, rotated to the seat — the same array ``encode``
returns for that seat's view (``tests/rl/test_rl_tracker.py`` checks it at every step of many hands).

What a seat's rows learn is what its filtered event stream tells it (docs/rules.md R12, ``filter_event``): the
tiles of the deal, of 换三张, of a draw and of a concealed kong reach only the seat's own rows; everything else
is public. The 过水 lock is in no event: after a seat answered a claim other than by ``hu``, it is read from the
seat's own view. The phase comes from :attr:`Game.phase`.

It is a second fold of the events beside ``seat_log.SeatLog`` (one seat's view rebuilt from its filtered events)
and does not go through it because it is the environments' hot path: it writes each event into the float32 cells
of all four seats at once, where a seat log would build four ``Observation`` values for ``encode`` to turn back
into planes every step; ``tests/rl/test_rl_tracker.py`` checks that the two folds agree at every step of many
hands (``test_the_tracker_and_each_seat_log_fold_the_events_alike``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.encode import (
    LOCK_FAN_LIMIT,
    LOCK_FAN_SCALE,
    SCORE_LIMIT,
    SCORE_SCALE,
)
from sichuan_mahjong.rl.layout import (
    ACTIVE,
    CONCEALED,
    CONCEALED_ROW,
    DEALER,
    DRAWN_AT,
    GATHER,
    GIVEN_AT,
    HAND_AT,
    HIDDEN,
    INITIAL,
    KIND,
    KONG,
    MY_LOCK,
    MY_LOCK_FAN,
    ONES,
    OTHERS,
    OWN_KONG_AT,
    PENDING,
    PHASE_ROW,
    PUNG,
    READY,
    RECEIVED_AT,
    RIVER_AT,
    SCORES,
    SEATS,
    TABLE_ROWS,
    TURN,
    UNSEEN_AT,
    VOID,
    WALL,
    WALL_ROW,
    WON,
    ZEROS,
    K,
    private_row,
    scaled,
)
from sichuan_mahjong.tiles import SUITS

__all__ = ["PlaneTracker"]

Array = npt.NDArray[np.float32]


class PlaneTracker:
    """The planes of every seat of one :class:`Game`, updated from its events as they come (see module doc).

    ``observe(seat)`` catches up with the events appended since the last call, then returns a new array equal to
    ``encode(game.view(seat))``. ``turn`` and ``pending_tile`` are the public facts of the same names of a view.
    """

    __slots__ = (
        "_bloody",
        "_cells",
        "_concealed",
        "_dealer",
        "_drawn",
        "_first",
        "_game",
        "_hand",
        "_hidden",
        "_last_win",
        "_lock_asked",
        "_locked",
        "_n",
        "_offer",
        "_pending",
        "_phase",
        "_rcount",
        "_river",
        "_rowv",
        "_scores",
        "_seen",
        "_table",
        "_wall",
        "turn",
    )

    def __init__(self, game: Game | None = None) -> None:
        self._table = table = np.zeros((TABLE_ROWS, K), dtype=np.float32)
        self._cells = memoryview(table.data).cast("B").cast("f")  # flat float32 cells: the fastest scalar writes
        self._rowv = [table[r] for r in range(TABLE_ROWS)]
        if game is not None:
            self.reset(game)

    def __reduce__(self) -> tuple[type[PlaneTracker], tuple[Game, ...]]:
        """Pickled and copied as the game it follows: a copy replays that game's events into a fresh table (the
        table's memoryview cannot be pickled), so it equals the original and shares nothing with it."""
        try:
            game = self._game
        except AttributeError:  # never reset
            return PlaneTracker, ()
        return PlaneTracker, (game,)

    def reset(self, game: Game) -> None:
        """Follow ``game`` from its first event (a game handed over mid-hand is caught up at once)."""
        self._game = game
        np.copyto(self._table, INITIAL)
        self._bloody = game.rules.bloody
        self._hand = [[0] * K for _ in range(4)]
        self._seen = [[0] * K for _ in range(4)]
        self._drawn = [-1] * 4
        self._river: list[list[int]] = [[], [], [], []]
        self._rcount = [[0] * K for _ in range(4)]
        self._first: list[dict[int, int]] = [{}, {}, {}, {}]  # kind -> position of its first copy + 1
        self._hidden = [0] * 4
        self._concealed = [0] * 4
        self._scores = [0] * 4
        self._locked = [False] * 4
        self._wall = 0
        self._dealer = 0
        self.turn = 0
        self._phase = ""
        self._pending = -1
        # The discard or added kong others may claim: (seat, tile, robbing, settled); None once the turn moved.
        self._offer: tuple[int, int, bool, bool] | None = None
        self._last_win: tuple[int | None, int, set[int]] | None = None  # (from_seat, tile, winners) of the group
        self._lock_asked: set[int] = set()  # seats whose 过水 lock to read from their view
        self._n = 0
        self.sync()

    # ------------------------------------------------------------------------------------------ reading
    @property
    def pending_tile(self) -> int:
        """The tile index of the discard being claimed or the added kong that may be robbed, else -1."""
        offer = self._offer
        return offer[1] if offer is not None and self._game.phase in ("claim", "rob") else -1

    def observe(self, seat: int) -> Array:
        """``encode(game.view(seat))``, from the table: a new ``float32`` array of shape ``(90, 27)``."""
        if len(self._game.events) != self._n:
            self._catch_up()
            if self._lock_asked:
                self._read_locks()
        return self._table.take(GATHER[seat], 0)

    def sync(self) -> PlaneTracker:
        """Catch up with the game's events now (``observe`` does it when needed); returns the tracker."""
        self._catch_up()
        if self._lock_asked:
            self._read_locks()
        return self

    # ------------------------------------------------------------------------------------------ writing
    def _see(self, me: int, k: int, n: int) -> None:
        """Seat ``me`` has seen ``n`` more copies of kind ``k`` (fewer when n < 0): unseen > j <=> seen <= 3 - j."""
        seen = self._seen[me]
        a = seen[k]
        b = seen[k] = a + n
        cells = self._cells
        at = UNSEEN_AT[me] + k
        if n > 0:
            for v in range(max(a, 0), min(b, 4)):  # seen passes v: row 3 - v turns 0
                cells[at + (3 - v) * K] = 0.0
        else:
            for v in range(max(b, 0), min(a, 4)):
                cells[at + (3 - v) * K] = 1.0

    def _see_all(self, k: int, n: int, but: int = -1) -> None:
        for me in SEATS:
            if me != but:
                self._see(me, k, n)

    def _hand_add(self, s: int, k: int, n: int) -> None:
        """Seat s's concealed tiles gain (n > 0) or lose (n < 0) copies of k: its own rows and seen counts."""
        hand = self._hand[s]
        c = hand[k]
        cells = self._cells
        at = HAND_AT[s] + k
        if n > 0:
            for j in range(c, c + n):
                cells[at + j * K] = 1.0
        else:
            for j in range(c + n, c):
                cells[at + j * K] = 0.0
        hand[k] = c + n
        self._see(s, k, n)
        count = self._concealed[s] + n
        self._concealed[s] = count
        at = (CONCEALED + s) * K
        cells[at : at + K] = CONCEALED_ROW[count]

    def _set_drawn(self, s: int, k: int) -> None:
        at = DRAWN_AT[s]
        old = self._drawn[s]
        if old >= 0:
            self._cells[at + old] = 0.0
        if k >= 0:
            self._cells[at + k] = 1.0
        self._drawn[s] = k

    def _write_order(self, s: int) -> None:
        """Seat s's river order row: (position of each kind's first copy + 1) / river length."""
        cells = self._cells
        at = RIVER_AT[s] + 4 * K
        inv = 1.0 / len(self._river[s])
        for k, p in self._first[s].items():
            cells[at + k] = p * inv

    def _river_push(self, s: int, k: int) -> None:
        river = self._river[s]
        count = self._rcount[s]
        cells = self._cells
        top = RIVER_AT[s]
        c = count[k]
        cells[top + c * K + k] = 1.0
        count[k] = c + 1
        if not c:
            self._first[s][k] = len(river) + 1
        if river:
            cells[top + 5 * K + river[-1]] = 0.0
        cells[top + 5 * K + k] = 1.0
        river.append(k)
        self._see_all(k, 1)
        self._write_order(s)

    def _river_pop(self, s: int) -> None:
        river = self._river[s]
        k = river.pop()
        count = self._rcount[s]
        cells = self._cells
        top = RIVER_AT[s]
        c = count[k] - 1
        count[k] = c
        cells[top + c * K + k] = 0.0
        cells[top + 5 * K + k] = 0.0
        if not c:
            del self._first[s][k]
            cells[top + 4 * K + k] = 0.0
        if river:
            cells[top + 5 * K + river[-1]] = 1.0
            self._write_order(s)
        self._see_all(k, -1)

    def _set_turn(self, s: int) -> None:
        cells = self._cells
        at = (TURN + self.turn) * K
        cells[at : at + K] = ZEROS
        at = (TURN + s) * K
        cells[at : at + K] = ONES
        self.turn = s

    def _pay(self, s: int, amount: int) -> None:
        self._scores[s] += amount
        points = max(-SCORE_LIMIT, min(SCORE_LIMIT, self._scores[s]))
        self._rowv[SCORES + s].fill(scaled(points, 1 / SCORE_SCALE))

    def _settle_added_kong(self) -> None:
        """An added kong nobody robbed is complete: the pung becomes a kong, its fourth tile leaves the hand."""
        offer = self._offer
        if offer is None or not offer[2] or offer[3]:
            return
        s, k = offer[0], offer[1]
        self._offer = (s, k, True, True)
        self._hand_add(s, k, -1)
        self._set_drawn(s, -1)
        cells = self._cells
        cells[(PUNG + s) * K + k] = 0.0
        cells[(KONG + s) * K + k] = 1.0
        cells[OWN_KONG_AT[s] + k] = 1.0
        self._see_all(k, 1)  # a shown pung (3) became a shown kong (4); for s the 4th left its hand

    # ------------------------------------------------------------- the two events of nearly every step
    def _discard(self, s: int, k: int) -> None:
        """Seat s discards k: its hand loses it, its river gains it; the others have seen one more."""
        cells = self._cells
        hand = self._hand[s]
        c = hand[k] - 1
        hand[k] = c
        cells[HAND_AT[s] + c * K + k] = 0.0  # the seat's own seen count does not change: hand to river
        n = self._concealed[s] - 1
        self._concealed[s] = n
        at = (CONCEALED + s) * K
        cells[at : at + K] = CONCEALED_ROW[n]
        drawn = self._drawn[s]
        if drawn >= 0:
            cells[DRAWN_AT[s] + drawn] = 0.0
            self._drawn[s] = -1
        river = self._river[s]
        count = self._rcount[s]
        first = self._first[s]
        top = RIVER_AT[s]
        c = count[k]
        cells[top + c * K + k] = 1.0
        count[k] = c + 1
        if not c:
            first[k] = len(river) + 1
        if river:
            cells[top + 5 * K + river[-1]] = 0.0
        cells[top + 5 * K + k] = 1.0
        river.append(k)
        inv = 1.0 / len(river)
        at = top + 4 * K
        for kind, p in first.items():
            cells[at + kind] = p * inv
        seen = self._seen
        for o in OTHERS[s]:
            so = seen[o]
            a = so[k]
            so[k] = a + 1
            if 0 <= a < 4:
                cells[UNSEEN_AT[o] + (3 - a) * K + k] = 0.0
        self._offer = (s, k, False, False)
        self._last_win = None  # a new tile: a win on it is a new group, even of the kind the last group won on

    def _draw(self, s: int, k: int) -> None:
        """Seat s draws k (its own rows only), the wall shrinks, s is on turn and its 过水 lock lifts."""
        offer = self._offer
        if offer is not None:
            if offer[2] and not offer[3]:
                self._settle_added_kong()
            self._offer = None
        cells = self._cells
        w = self._wall - 1
        self._wall = w
        at = WALL * K
        cells[at : at + K] = WALL_ROW[w]
        hand = self._hand[s]
        c = hand[k]
        hand[k] = c + 1
        cells[HAND_AT[s] + c * K + k] = 1.0
        n = self._concealed[s] + 1
        self._concealed[s] = n
        at = (CONCEALED + s) * K
        cells[at : at + K] = CONCEALED_ROW[n]
        so = self._seen[s]
        a = so[k]
        so[k] = a + 1
        if 0 <= a < 4:
            cells[UNSEEN_AT[s] + (3 - a) * K + k] = 0.0
        drawn = self._drawn[s]
        if drawn >= 0:
            cells[DRAWN_AT[s] + drawn] = 0.0
        cells[DRAWN_AT[s] + k] = 1.0
        self._drawn[s] = k
        if s != self.turn:
            self._set_turn(s)
        if self._lock_asked:
            self._lock_asked.discard(s)
        if self._locked[s]:
            self._write_lock(s, None)

    # ----------------------------------------------------------------------------------------- events
    def _catch_up(self) -> None:
        game = self._game
        events = game.events
        n = len(events)
        for i in range(self._n, n):
            e = events[i]
            kind = e.type
            if kind == "act":
                offer = self._offer
                if offer is not None and not offer[3] and e.data["action"] != "hu":
                    self._lock_asked.add(e.seat)  # it declined a claim: had it been able to win, it is locked now
            elif kind == "discard":
                self._discard(e.seat, KIND[e.data["tile"]])
            elif kind == "draw":
                self._draw(e.seat, KIND[e.data["tile"]])  # private: only the drawer's rows take the tile
            else:
                self._apply(e)
        self._n = n
        phase = game.phase
        if phase != self._phase:
            cells = self._cells
            if self._phase:
                at = PHASE_ROW[self._phase] * K
                cells[at : at + K] = ZEROS
            at = PHASE_ROW[phase] * K
            cells[at : at + K] = ONES
            self._phase = phase
        offer = self._offer
        pending = offer[1] if offer is not None and phase in ("claim", "rob") else -1
        if pending != self._pending:
            if self._pending >= 0:
                self._cells[PENDING * K + self._pending] = 0.0
            if pending >= 0:
                self._cells[PENDING * K + pending] = 1.0
            self._pending = pending

    def _read_locks(self) -> None:
        for s in self._lock_asked:
            self._write_lock(s, self._game.view(s).pass_lock)
        self._lock_asked.clear()

    def _write_lock(self, s: int, lock: int | None) -> None:
        rows = self._rowv
        rows[private_row(s, MY_LOCK)].fill(0.0 if lock is None else 1.0)
        rows[private_row(s, MY_LOCK_FAN)].fill(scaled(min(lock or 0, LOCK_FAN_LIMIT), 1 / LOCK_FAN_SCALE))
        self._locked[s] = lock is not None

    def _apply(self, e: Event) -> None:
        kind, s, data = e.type, e.seat, e.data
        cells = self._cells
        if kind == "payment":
            self._settle_added_kong()
            amount = data["amount"]
            self._pay(data["payer"], -amount)
            self._pay(data["payee"], amount)
        elif kind == "pung":
            k = KIND[data["tile"]]
            self._offer = None
            self._river_pop(data["from_seat"])
            self._hand_add(s, k, -2)
            cells[(PUNG + s) * K + k] = 1.0
            self._see_all(k, 3)
            self._set_drawn(s, -1)
            self._set_turn(s)
        elif kind == "kong":
            k = KIND[data["tile"]]
            self._offer = None
            self._river_pop(data["from_seat"])
            self._hand_add(s, k, -3)
            cells[(KONG + s) * K + k] = 1.0
            cells[OWN_KONG_AT[s] + k] = 1.0
            self._see_all(k, 4)
            self._set_drawn(s, -1)
        elif kind == "win":
            self._win(s, KIND[data["tile"]], data["from_seat"])
        elif kind == "added_kong":
            self._offer = (s, KIND[data["tile"]], True, False)
        elif kind == "robbed":
            k = KIND[data["tile"]]
            self._offer = (s, k, True, True)
            self._last_win = None
            self._hand_add(s, k, -1)
            self._set_drawn(s, -1)
        elif kind == "concealed_kong":
            k = KIND[data["tile"]]  # private: the others see a kong of unknown kind
            self._hand_add(s, k, -4)
            self._see(s, k, 4)
            self._set_drawn(s, -1)
            cells[OWN_KONG_AT[s] + k] = 1.0
            self._hidden[s] += 1
            self._rowv[HIDDEN + s].fill(scaled(self._hidden[s], 0.25))
        elif kind == "ready":
            self._rowv[READY + s].fill(1.0)
        elif kind == "voids":
            for seat, suit in enumerate(data["voids"]):
                at = (VOID + seat) * K + 9 * SUITS.index(suit)
                for k in range(at, at + 9):
                    cells[k] = 1.0
        elif kind == "exchange":
            self._exchange(data["given"], data["received"])
        elif kind == "end":
            self._settle_added_kong()
        elif kind == "deal":
            self._deal(data["dealer"], data["hands"], len(data["wall"]) // 2)

    def _deal(self, dealer: int, hands: list[str], wall: int) -> None:
        cells = self._cells
        self._dealer = dealer
        at = (DEALER + dealer) * K
        cells[at : at + K] = ONES
        self._set_turn(dealer)
        self._wall = wall
        at = WALL * K
        cells[at : at + K] = WALL_ROW[wall]
        for s in range(4):  # each seat's own rows take its own tiles only
            tiles = _kinds(hands[s])
            hand = self._hand[s]
            seen = self._seen[s]
            for k in tiles:
                c = hand[k]
                cells[HAND_AT[s] + c * K + k] = 1.0
                if c < 4:
                    cells[UNSEEN_AT[s] + (3 - c) * K + k] = 0.0
                hand[k] = seen[k] = c + 1
            self._concealed[s] = len(tiles)
            at = (CONCEALED + s) * K
            cells[at : at + K] = CONCEALED_ROW[len(tiles)]
            if s == dealer:
                self._set_drawn(s, tiles[-1])

    def _exchange(self, given: list[str], received: list[str]) -> None:
        cells = self._cells
        for s in range(4):  # each seat's own rows take its own tiles only
            for k in _kinds(given[s]):
                self._hand_add(s, k, -1)
                cells[GIVEN_AT[s] + k] += 1.0
            for k in _kinds(received[s]):
                self._hand_add(s, k, 1)
                cells[RECEIVED_AT[s] + k] += 1.0
        if self._drawn[self._dealer] in _kinds(given[self._dealer]):
            self._set_drawn(self._dealer, -1)

    def _win(self, s: int, k: int, source: int | None) -> None:
        """A win: the won row; a discard or robbed tile joins the winner's hand; others saw the tile, once."""
        offer = self._offer
        if source is not None:
            if offer is not None and not offer[2] and not offer[3]:
                self._river_pop(source)  # the discard leaves the river once, however many win on it
                self._offer = (offer[0], offer[1], False, True)
            self._hand_add(s, k, 1)
        self._cells[(WON + s) * K + k] = 1.0
        if self._bloody:
            self._rowv[ACTIVE + s].fill(0.0)
        group = self._last_win
        if source is not None and group is not None and group[0] == source and group[1] == k:
            # one tile won by several seats (一炮多响, WinView.shared), as encode() reads it: seen by non-winners
            if s not in group[2]:
                group[2].add(s)
                self._see(s, k, -1)
            return
        self._last_win = (source, k, {s})
        self._see_all(k, 1, but=s)


def _kinds(text: str) -> list[int]:
    """Tile indices of tiles written one after another (``"1m1m5p"``)."""
    return [KIND[text[i : i + 2]] for i in range(0, len(text), 2)]
