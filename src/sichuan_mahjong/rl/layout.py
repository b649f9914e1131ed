"""The layout of :class:`~sichuan_mahjong.rl.tracker.PlaneTracker`'s table: which row of one ``float32`` table holds
which plane, public blocks in absolute seat order and each seat's private rows, and for each seat the rows that
make its observation (rl/encode.py's 90 planes, seats relative). Constants only, computed once at import; the
tracker writes and reads the table by them.
"""

from __future__ import annotations

from array import array
from typing import Final

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.game.events import TILE_TEXT
from sichuan_mahjong.game.view import PHASES
from sichuan_mahjong.rl.encode import NUM_PLANES, PLANES, WALL_TILES
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = [
    "ACTIVE",
    "CONCEALED",
    "CONCEALED_ROW",
    "DEALER",
    "DRAWN_AT",
    "GATHER",
    "GIVEN_AT",
    "HAND_AT",
    "HIDDEN",
    "INITIAL",
    "KIND",
    "KONG",
    "MY_LOCK",
    "MY_LOCK_FAN",
    "ONES",
    "OTHERS",
    "OWN_KONG_AT",
    "PENDING",
    "PHASE_ROW",
    "PUNG",
    "READY",
    "RECEIVED_AT",
    "RIVER_AT",
    "SCORES",
    "SEATS",
    "TABLE_ROWS",
    "TURN",
    "UNSEEN_AT",
    "VOID",
    "WALL",
    "WALL_ROW",
    "WON",
    "ZEROS",
    "K",
    "private_row",
    "scaled",
]

Array = npt.NDArray[np.float32]
K: Final = NUM_KINDS
KIND: Final = {text: i for i, text in enumerate(TILE_TEXT)}


def table_layout() -> tuple[dict[str, int], int, int]:
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


AT, TABLE_ROWS, PRIVATE_ROWS = table_layout()
PUNG, KONG, RIVER, VOID, WON = AT["pung"], AT["kong"], AT["river"], AT["void"], AT["won"]
PENDING, HIDDEN, READY, ACTIVE = AT["pending"], AT["hidden_kongs"], AT["ready"], AT["active"]
CONCEALED, SCORES, WALL, PHASE = AT["concealed"], AT["scores"], AT["wall"], AT["phase"]
TURN, DEALER, ZERO = AT["turn"], AT["dealer"], AT["zero"]
MY_HAND, MY_DRAWN, MY_KONG, MY_UNSEEN = AT["my_hand"], AT["my_drawn"], AT["my_own_kong"], AT["my_unseen"]
MY_GIVEN, MY_RECEIVED, MY_LOCK, MY_LOCK_FAN = (
    AT["my_given"],
    AT["my_received"],
    AT["my_pass_lock"],
    AT["my_pass_lock_fan"],
)
PHASE_ROW: Final = {p: PHASE + i for i, p in enumerate(PHASES)}


def private_row(me: int, row: int) -> int:
    return AT["private"] + PRIVATE_ROWS * me + row


def gather(me: int) -> npt.NDArray[np.intp]:
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
            rows.extend(range(private_row(me, AT["my_" + name]), private_row(me, AT["my_" + name]) + p.rows))
        elif name == "kong":
            seats(KONG, own=private_row(me, MY_KONG))
        elif name == "hidden_kongs":
            seats(HIDDEN, own=ZERO)
        elif name == "river":
            seats(RIVER, width=6)
        elif name in ("pending", "wall", "phase"):
            rows.extend(range(AT[name], AT[name] + p.rows))
        else:  # pung, void, won, ready, active, concealed, scores, turn, dealer: one row a seat
            seats(AT[name])
    assert len(rows) == NUM_PLANES
    return np.array(rows, dtype=np.intp)


GATHER: Final = tuple(gather(me) for me in range(4))
# Cell offsets (row * 27) of each seat's private rows, and of the public rows written cell by cell.
HAND_AT: Final = tuple(private_row(s, MY_HAND) * K for s in range(4))
DRAWN_AT: Final = tuple(private_row(s, MY_DRAWN) * K for s in range(4))
OWN_KONG_AT: Final = tuple(private_row(s, MY_KONG) * K for s in range(4))
UNSEEN_AT: Final = tuple(private_row(s, MY_UNSEEN) * K for s in range(4))
GIVEN_AT: Final = tuple(private_row(s, MY_GIVEN) * K for s in range(4))
RECEIVED_AT: Final = tuple(private_row(s, MY_RECEIVED) * K for s in range(4))
RIVER_AT: Final = tuple((RIVER + 6 * s) * K for s in range(4))
SEATS: Final = range(4)


def scaled(value: float, scale: float) -> float:
    """``value * scale`` in float32, as encode() computes its broadcast rows."""
    return float(np.float32(value) * np.float32(scale))


def row(value: float) -> memoryview:
    """27 float32 cells of one value, to copy into a broadcast row with one slice assignment."""
    return memoryview(array("f", [value] * K))


ONES: Final = row(1.0)
ZEROS: Final = row(0.0)
CONCEALED_ROW: Final = tuple(row(scaled(n, 1 / 14)) for n in range(19))
WALL_ROW: Final = tuple(row(scaled(n, 1 / WALL_TILES)) for n in range(109))
OTHERS: Final = tuple(tuple(o for o in range(4) if o != s) for s in range(4))


def initial() -> Array:
    """The table before the deal: every seat active, every copy of every kind unseen."""
    table = np.zeros((TABLE_ROWS, K), dtype=np.float32)
    table[ACTIVE : ACTIVE + 4] = 1.0
    for s in range(4):
        table[private_row(s, MY_UNSEEN) : private_row(s, MY_UNSEEN) + 4] = 1.0
    return table


INITIAL: Final = initial()
