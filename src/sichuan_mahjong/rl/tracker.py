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

from array import array
from typing import Final

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.game.events import TILE_TEXT, Event
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import PHASES
from sichuan_mahjong.rl.encode import (
    LOCK_FAN_LIMIT,
    LOCK_FAN_SCALE,
    NUM_PLANES,
    PLANES,
    SCORE_LIMIT,
    SCORE_SCALE,
    WALL_TILES,
)
from sichuan_mahjong.tiles import NUM_KINDS, SUITS

__all__ = ["PlaneTracker"]

Array = npt.NDArray[np.float32]
_K: Final = NUM_KINDS
_KIND: Final = {text: i for i, text in enumerate(TILE_TEXT)}
_ROW: Final = {p.name: p.start for p in PLANES}


def _table_layout() -> tuple[dict[str, int], int, int]:
    """Rows of the tracker's table: public blocks (absolute seats), then 14 private rows per seat."""
    public = [
        ("pung", 4), ("kong", 4), ("river", 24), ("void", 4), ("won", 4), ("pending", 1), ("hidden_kongs", 4),
        ("ready", 4), ("active", 4), ("concealed", 4), ("scores", 4), ("wall", 1), ("phase", len(PHASES)),
        ("turn", 4), ("dealer", 4), ("zero", 1),
    ]  # fmt: skip
    private = [
        ("hand", 4), ("drawn", 1), ("own_kong", 1), ("unseen", 4), ("given", 1), ("received", 1),
        ("pass_lock", 1), ("pass_lock_fan", 1),
    ]  # fmt: skip
    at: dict[str, int] = {}
    row = 0
    for name, rows in public:
        at[name] = row
        row += rows
    at["private"] = row
    size = 0
    for name, rows in private:
        at["my_" + name] = size
        size += rows
    return at, row + 4 * size, size


_AT, _TABLE_ROWS, _PRIVATE_ROWS = _table_layout()
_PUNG, _KONG, _RIVER, _VOID, _WON = _AT["pung"], _AT["kong"], _AT["river"], _AT["void"], _AT["won"]
_PENDING, _HIDDEN, _READY, _ACTIVE = _AT["pending"], _AT["hidden_kongs"], _AT["ready"], _AT["active"]
_CONCEALED, _SCORES, _WALL, _PHASE = _AT["concealed"], _AT["scores"], _AT["wall"], _AT["phase"]
_TURN, _DEALER, _ZERO = _AT["turn"], _AT["dealer"], _AT["zero"]
_MY_HAND, _MY_DRAWN, _MY_KONG, _MY_UNSEEN = _AT["my_hand"], _AT["my_drawn"], _AT["my_own_kong"], _AT["my_unseen"]
_MY_GIVEN, _MY_RECEIVED, _MY_LOCK, _MY_LOCK_FAN = (
    _AT["my_given"],
    _AT["my_received"],
    _AT["my_pass_lock"],
    _AT["my_pass_lock_fan"],
)
_PHASE_ROW: Final = {p: _PHASE + i for i, p in enumerate(PHASES)}


def _private(me: int, row: int) -> int:
    return _AT["private"] + _PRIVATE_ROWS * me + row


def _gather(me: int) -> npt.NDArray[np.intp]:
    """For seat ``me``: the table row of each of its 90 observation rows (encode.py's layout, seats relative)."""
    rows: list[int] = []

    def seats(block: int, own: int | None = None, width: int = 1) -> None:
        for r in range(4):
            if r == 0 and own is not None:
                rows.extend(range(own, own + width))
            else:
                rows.extend(range(block + width * ((me + r) & 3), block + width * ((me + r) & 3) + width))

    for p in PLANES:
        name = p.name
        if name in ("hand", "drawn", "unseen", "given", "received", "pass_lock", "pass_lock_fan"):
            rows.extend(range(_private(me, _AT["my_" + name]), _private(me, _AT["my_" + name]) + p.rows))
        elif name == "kong":
            seats(_KONG, own=_private(me, _MY_KONG))
        elif name == "hidden_kongs":
            seats(_HIDDEN, own=_ZERO)
        elif name == "river":
            seats(_RIVER, width=6)
        elif name in ("pending", "wall", "phase"):
            rows.extend(range(_AT[name], _AT[name] + p.rows))
        else:  # pung, void, won, ready, active, concealed, scores, turn, dealer: one row a seat
            seats(_AT[name])
    assert len(rows) == NUM_PLANES
    return np.array(rows, dtype=np.intp)


_GATHER: Final = tuple(_gather(me) for me in range(4))
# Cell offsets (row * 27) of each seat's private rows, and of the public rows written cell by cell.
_HAND_AT: Final = tuple(_private(s, _MY_HAND) * _K for s in range(4))
_DRAWN_AT: Final = tuple(_private(s, _MY_DRAWN) * _K for s in range(4))
_OWN_KONG_AT: Final = tuple(_private(s, _MY_KONG) * _K for s in range(4))
_UNSEEN_AT: Final = tuple(_private(s, _MY_UNSEEN) * _K for s in range(4))
_GIVEN_AT: Final = tuple(_private(s, _MY_GIVEN) * _K for s in range(4))
_RECEIVED_AT: Final = tuple(_private(s, _MY_RECEIVED) * _K for s in range(4))
_RIVER_AT: Final = tuple((_RIVER + 6 * s) * _K for s in range(4))
_SEATS: Final = range(4)


def _scaled(value: float, scale: float) -> float:
    """``value * scale`` in float32, as encode() computes its broadcast rows."""
    return float(np.float32(value) * np.float32(scale))


def _row(value: float) -> memoryview:
    """27 float32 cells of one value, to copy into a broadcast row with one slice assignment."""
    return memoryview(array("f", [value] * _K))


_ONES: Final = _row(1.0)
_ZEROS: Final = _row(0.0)
_CONCEALED_ROW: Final = tuple(_row(_scaled(n, 1 / 14)) for n in range(19))
_WALL_ROW: Final = tuple(_row(_scaled(n, 1 / WALL_TILES)) for n in range(109))
_OTHERS: Final = tuple(tuple(o for o in range(4) if o != s) for s in range(4))


def _initial() -> Array:
    """The table before the deal: every seat active, every copy of every kind unseen."""
    table = np.zeros((_TABLE_ROWS, _K), dtype=np.float32)
    table[_ACTIVE : _ACTIVE + 4] = 1.0
    for s in range(4):
        table[_private(s, _MY_UNSEEN) : _private(s, _MY_UNSEEN) + 4] = 1.0
    return table


_INITIAL: Final = _initial()


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
        self._table = table = np.zeros((_TABLE_ROWS, _K), dtype=np.float32)
        self._cells = memoryview(table.data).cast("B").cast("f")  # flat float32 cells: the fastest scalar writes
        self._rowv = [table[r] for r in range(_TABLE_ROWS)]
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
        np.copyto(self._table, _INITIAL)
        self._bloody = game.rules.bloody
        self._hand = [[0] * _K for _ in range(4)]
        self._seen = [[0] * _K for _ in range(4)]
        self._drawn = [-1] * 4
        self._river: list[list[int]] = [[], [], [], []]
        self._rcount = [[0] * _K for _ in range(4)]
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
        return self._table.take(_GATHER[seat], 0)

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
        at = _UNSEEN_AT[me] + k
        if n > 0:
            for v in range(max(a, 0), min(b, 4)):  # seen passes v: row 3 - v turns 0
                cells[at + (3 - v) * _K] = 0.0
        else:
            for v in range(max(b, 0), min(a, 4)):
                cells[at + (3 - v) * _K] = 1.0

    def _see_all(self, k: int, n: int, but: int = -1) -> None:
        for me in _SEATS:
            if me != but:
                self._see(me, k, n)

    def _hand_add(self, s: int, k: int, n: int) -> None:
        """Seat s's concealed tiles gain (n > 0) or lose (n < 0) copies of k: its own rows and seen counts."""
        hand = self._hand[s]
        c = hand[k]
        cells = self._cells
        at = _HAND_AT[s] + k
        if n > 0:
            for j in range(c, c + n):
                cells[at + j * _K] = 1.0
        else:
            for j in range(c + n, c):
                cells[at + j * _K] = 0.0
        hand[k] = c + n
        self._see(s, k, n)
        count = self._concealed[s] + n
        self._concealed[s] = count
        at = (_CONCEALED + s) * _K
        cells[at : at + _K] = _CONCEALED_ROW[count]

    def _set_drawn(self, s: int, k: int) -> None:
        at = _DRAWN_AT[s]
        old = self._drawn[s]
        if old >= 0:
            self._cells[at + old] = 0.0
        if k >= 0:
            self._cells[at + k] = 1.0
        self._drawn[s] = k

    def _write_order(self, s: int) -> None:
        """Seat s's river order row: (position of each kind's first copy + 1) / river length."""
        cells = self._cells
        at = _RIVER_AT[s] + 4 * _K
        inv = 1.0 / len(self._river[s])
        for k, p in self._first[s].items():
            cells[at + k] = p * inv

    def _river_push(self, s: int, k: int) -> None:
        river = self._river[s]
        count = self._rcount[s]
        cells = self._cells
        top = _RIVER_AT[s]
        c = count[k]
        cells[top + c * _K + k] = 1.0
        count[k] = c + 1
        if not c:
            self._first[s][k] = len(river) + 1
        if river:
            cells[top + 5 * _K + river[-1]] = 0.0
        cells[top + 5 * _K + k] = 1.0
        river.append(k)
        self._see_all(k, 1)
        self._write_order(s)

    def _river_pop(self, s: int) -> None:
        river = self._river[s]
        k = river.pop()
        count = self._rcount[s]
        cells = self._cells
        top = _RIVER_AT[s]
        c = count[k] - 1
        count[k] = c
        cells[top + c * _K + k] = 0.0
        cells[top + 5 * _K + k] = 0.0
        if not c:
            del self._first[s][k]
            cells[top + 4 * _K + k] = 0.0
        if river:
            cells[top + 5 * _K + river[-1]] = 1.0
            self._write_order(s)
        self._see_all(k, -1)

    def _set_turn(self, s: int) -> None:
        cells = self._cells
        at = (_TURN + self.turn) * _K
        cells[at : at + _K] = _ZEROS
        at = (_TURN + s) * _K
        cells[at : at + _K] = _ONES
        self.turn = s

    def _pay(self, s: int, amount: int) -> None:
        self._scores[s] += amount
        points = max(-SCORE_LIMIT, min(SCORE_LIMIT, self._scores[s]))
        self._rowv[_SCORES + s].fill(_scaled(points, 1 / SCORE_SCALE))

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
        cells[(_PUNG + s) * _K + k] = 0.0
        cells[(_KONG + s) * _K + k] = 1.0
        cells[_OWN_KONG_AT[s] + k] = 1.0
        self._see_all(k, 1)  # a shown pung (3) became a shown kong (4); for s the 4th left its hand

    # ------------------------------------------------------------- the two events of nearly every step
    def _discard(self, s: int, k: int) -> None:
        """Seat s discards k: its hand loses it, its river gains it; the others have seen one more."""
        cells = self._cells
        hand = self._hand[s]
        c = hand[k] - 1
        hand[k] = c
        cells[_HAND_AT[s] + c * _K + k] = 0.0  # the seat's own seen count does not change: hand to river
        n = self._concealed[s] - 1
        self._concealed[s] = n
        at = (_CONCEALED + s) * _K
        cells[at : at + _K] = _CONCEALED_ROW[n]
        drawn = self._drawn[s]
        if drawn >= 0:
            cells[_DRAWN_AT[s] + drawn] = 0.0
            self._drawn[s] = -1
        river = self._river[s]
        count = self._rcount[s]
        first = self._first[s]
        top = _RIVER_AT[s]
        c = count[k]
        cells[top + c * _K + k] = 1.0
        count[k] = c + 1
        if not c:
            first[k] = len(river) + 1
        if river:
            cells[top + 5 * _K + river[-1]] = 0.0
        cells[top + 5 * _K + k] = 1.0
        river.append(k)
        inv = 1.0 / len(river)
        at = top + 4 * _K
        for kind, p in first.items():
            cells[at + kind] = p * inv
        seen = self._seen
        for o in _OTHERS[s]:
            so = seen[o]
            a = so[k]
            so[k] = a + 1
            if 0 <= a < 4:
                cells[_UNSEEN_AT[o] + (3 - a) * _K + k] = 0.0
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
        at = _WALL * _K
        cells[at : at + _K] = _WALL_ROW[w]
        hand = self._hand[s]
        c = hand[k]
        hand[k] = c + 1
        cells[_HAND_AT[s] + c * _K + k] = 1.0
        n = self._concealed[s] + 1
        self._concealed[s] = n
        at = (_CONCEALED + s) * _K
        cells[at : at + _K] = _CONCEALED_ROW[n]
        so = self._seen[s]
        a = so[k]
        so[k] = a + 1
        if 0 <= a < 4:
            cells[_UNSEEN_AT[s] + (3 - a) * _K + k] = 0.0
        drawn = self._drawn[s]
        if drawn >= 0:
            cells[_DRAWN_AT[s] + drawn] = 0.0
        cells[_DRAWN_AT[s] + k] = 1.0
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
                self._discard(e.seat, _KIND[e.data["tile"]])
            elif kind == "draw":
                self._draw(e.seat, _KIND[e.data["tile"]])  # private: only the drawer's rows take the tile
            else:
                self._apply(e)
        self._n = n
        phase = game.phase
        if phase != self._phase:
            cells = self._cells
            if self._phase:
                at = _PHASE_ROW[self._phase] * _K
                cells[at : at + _K] = _ZEROS
            at = _PHASE_ROW[phase] * _K
            cells[at : at + _K] = _ONES
            self._phase = phase
        offer = self._offer
        pending = offer[1] if offer is not None and phase in ("claim", "rob") else -1
        if pending != self._pending:
            if self._pending >= 0:
                self._cells[_PENDING * _K + self._pending] = 0.0
            if pending >= 0:
                self._cells[_PENDING * _K + pending] = 1.0
            self._pending = pending

    def _read_locks(self) -> None:
        for s in self._lock_asked:
            self._write_lock(s, self._game.view(s).pass_lock)
        self._lock_asked.clear()

    def _write_lock(self, s: int, lock: int | None) -> None:
        rows = self._rowv
        rows[_private(s, _MY_LOCK)].fill(0.0 if lock is None else 1.0)
        rows[_private(s, _MY_LOCK_FAN)].fill(_scaled(min(lock or 0, LOCK_FAN_LIMIT), 1 / LOCK_FAN_SCALE))
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
            k = _KIND[data["tile"]]
            self._offer = None
            self._river_pop(data["from_seat"])
            self._hand_add(s, k, -2)
            cells[(_PUNG + s) * _K + k] = 1.0
            self._see_all(k, 3)
            self._set_drawn(s, -1)
            self._set_turn(s)
        elif kind == "kong":
            k = _KIND[data["tile"]]
            self._offer = None
            self._river_pop(data["from_seat"])
            self._hand_add(s, k, -3)
            cells[(_KONG + s) * _K + k] = 1.0
            cells[_OWN_KONG_AT[s] + k] = 1.0
            self._see_all(k, 4)
            self._set_drawn(s, -1)
        elif kind == "win":
            self._win(s, _KIND[data["tile"]], data["from_seat"])
        elif kind == "added_kong":
            self._offer = (s, _KIND[data["tile"]], True, False)
        elif kind == "robbed":
            k = _KIND[data["tile"]]
            self._offer = (s, k, True, True)
            self._last_win = None
            self._hand_add(s, k, -1)
            self._set_drawn(s, -1)
        elif kind == "concealed_kong":
            k = _KIND[data["tile"]]  # private: the others see a kong of unknown kind
            self._hand_add(s, k, -4)
            self._see(s, k, 4)
            self._set_drawn(s, -1)
            cells[_OWN_KONG_AT[s] + k] = 1.0
            self._hidden[s] += 1
            self._rowv[_HIDDEN + s].fill(_scaled(self._hidden[s], 0.25))
        elif kind == "ready":
            self._rowv[_READY + s].fill(1.0)
        elif kind == "voids":
            for seat, suit in enumerate(data["voids"]):
                at = (_VOID + seat) * _K + 9 * SUITS.index(suit)
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
        at = (_DEALER + dealer) * _K
        cells[at : at + _K] = _ONES
        self._set_turn(dealer)
        self._wall = wall
        at = _WALL * _K
        cells[at : at + _K] = _WALL_ROW[wall]
        for s in range(4):  # each seat's own rows take its own tiles only
            tiles = _kinds(hands[s])
            hand = self._hand[s]
            seen = self._seen[s]
            for k in tiles:
                c = hand[k]
                cells[_HAND_AT[s] + c * _K + k] = 1.0
                if c < 4:
                    cells[_UNSEEN_AT[s] + (3 - c) * _K + k] = 0.0
                hand[k] = seen[k] = c + 1
            self._concealed[s] = len(tiles)
            at = (_CONCEALED + s) * _K
            cells[at : at + _K] = _CONCEALED_ROW[len(tiles)]
            if s == dealer:
                self._set_drawn(s, tiles[-1])

    def _exchange(self, given: list[str], received: list[str]) -> None:
        cells = self._cells
        for s in range(4):  # each seat's own rows take its own tiles only
            for k in _kinds(given[s]):
                self._hand_add(s, k, -1)
                cells[_GIVEN_AT[s] + k] += 1.0
            for k in _kinds(received[s]):
                self._hand_add(s, k, 1)
                cells[_RECEIVED_AT[s] + k] += 1.0
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
        self._cells[(_WON + s) * _K + k] = 1.0
        if self._bloody:
            self._rowv[_ACTIVE + s].fill(0.0)
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
    return [_KIND[text[i : i + 2]] for i in range(0, len(text), 2)]
