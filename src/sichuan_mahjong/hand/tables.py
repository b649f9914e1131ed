"""Per-suit lookup tables behind the hand evaluator.

A suit's concealed tiles are one base-5 number, its *key*: ``sum(count[r] * 5**r)`` over ranks r = 0..8
(:func:`sichuan_mahjong.tiles.suit_keys`). For every key holding at most 14 tiles the shipped file
``suit_tables.npz`` stores the *distance* to each goal (m sets, p pairs) with m = 0..4 and p = 0..1: the least
number of tiles that must be added to the suit so that it contains m sets (pungs or chows) and p pairs, never
holding a fifth copy (the Tomohxx formulation of shanten: shanten = total distance - 1). Column ``2 * m + p``.

Why a file: the distances take seconds of numpy to derive, so ``scripts/build_tables.py`` builds them once and the
package only loads them (the script does not import the package, so it runs without the file). At import they
are folded into *classes*: only a few hundred distinct per-suit vectors exist (distances plus the suit's pairs
and singles for seven pairs), so a hand of two kept suits is one entry of a small class-by-class table, kept as
``bytes`` so that pure Python reads it in a few tens of nanoseconds. That is what lets ``shanten_keys`` run
millions of times a second.

Layout of the loaded lookups (all indexed by a suit key, 0 <= key < 5**9):

* :data:`SUIT_CLASS` - numpy ``uint16`` class of every key; keys with more than 14 tiles map to :data:`INVALID_CLASS`.
* :data:`ROW`, :data:`COL` - the same class premultiplied for the tables below, as ``array('I')`` for speed;
  :data:`SUIT_INFO` - a list of ``(ROW[key], COL[key], tiles held)`` tuples, faster again from pure Python.
* :data:`COMBINED`, :data:`STANDARD` - ``bytes``; entry ``ROW[ka] + COL[kb] + n_melds`` is the least distance of
  the two suits ka, kb together to a winning hand with ``n_melds`` melds (COMBINED also allows seven pairs when
  ``n_melds == 0``). :data:`SEVEN_PAIRS` is indexed ``ROW[ka] + COL[kb]`` (its n slot is 0).
  The distance is capped at :data:`DISTANCE_CAP`, meaning "cannot win".
"""

from __future__ import annotations

import array
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "CLASS_ROWS",
    "COL",
    "COMBINED",
    "COMBINED_NP",
    "DISTANCE_CAP",
    "GOALS",
    "INVALID_CLASS",
    "KEY_SPACE",
    "MAX_SUIT_TILES",
    "N_CLASSES",
    "ROW",
    "SEVEN_PAIRS",
    "STANDARD",
    "STANDARD_NP",
    "SUIT_CLASS",
    "SUIT_INFO",
    "TABLE_PATH",
    "class_distances",
    "digit_sums",
    "load_distances",
    "valid_keys",
]

KEY_SPACE: Final = 5**9
#: A hand never holds more than 14 concealed tiles, so no suit key above that is ever looked up.
MAX_SUIT_TILES: Final = 14
#: Number of goal columns: (m sets, p pairs) for m = 0..4, p = 0..1, column 2 * m + p.
GOALS: Final = 10
#: "Cannot win" (e.g. melds in all three suits). shanten = distance - 1, so this reads as shanten 99.
DISTANCE_CAP: Final = 100
#: The two suits kept, (a, b) with a < b, for each void suit v (缺一门): a pair table is read at row a, column b.
KEPT: Final = ((1, 2), (0, 2), (0, 1))
TABLE_PATH: Final = Path(__file__).with_name("suit_tables.npz")
FORMAT_VERSION: Final = 1

Int8Array = npt.NDArray[np.int8]
UInt8Array = npt.NDArray[np.uint8]


def _digit_tensor(values: tuple[int, ...]) -> npt.NDArray[np.int8]:
    """Sum over ranks of ``values[count[r]]`` for every key, via broadcasting (no per-key loop)."""
    per = np.array(values, dtype=np.int8)
    total = np.zeros((1,) * 9, dtype=np.int8)
    for axis in range(9):
        shape = [1] * 9
        shape[axis] = 5
        total = total + per.reshape(shape)
    # C order puts the last axis fastest; the key's fastest digit is rank 0, so axis a holds rank 8 - a.
    return total.reshape(-1)


def digit_sums() -> Int8Array:
    """Tiles held in each of the 5**9 suit keys."""
    return _digit_tensor((0, 1, 2, 3, 4))


def valid_keys() -> npt.NDArray[np.int32]:
    """The suit keys with at most 14 tiles, ascending: the rows of the shipped distance array."""
    return np.flatnonzero(digit_sums() <= MAX_SUIT_TILES).astype(np.int32)


def load_distances(path: Path = TABLE_PATH) -> UInt8Array:
    """The shipped distance rows; raises if the file does not match this code (rebuild with the script)."""
    with np.load(path) as data:
        version = int(data["version"][0])
        distances: UInt8Array = data["distance"]
    n_valid = int(np.count_nonzero(digit_sums() <= MAX_SUIT_TILES))
    if version != FORMAT_VERSION or distances.shape != (n_valid, GOALS):
        raise RuntimeError(f"{path} is stale (version {version}, shape {distances.shape}): run scripts/build_tables.py")
    return distances


def _classes(distances: UInt8Array) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int16]]:
    """Fold keys into classes of equal (distances, pairs, pairs + singles); returns per-key class and class rows.

    Pairs count a four of a kind as two (龙七对), singles are the odd counts; both are capped at 7 because seven
    pairs never needs more, which keeps the number of classes small.
    """
    valid = digit_sums() <= MAX_SUIT_TILES
    pairs = np.minimum(_digit_tensor((0, 0, 1, 1, 2))[valid], 7).astype(np.int64)
    pairs_singles = np.minimum(_digit_tensor((0, 1, 1, 2, 2))[valid], 7).astype(np.int64)
    code = pairs | (pairs_singles << 3)
    for g in range(GOALS):
        code |= distances[:, g].astype(np.int64) << (6 + 4 * g)
    unique, inverse = np.unique(code, return_inverse=True)
    rows = np.zeros((len(unique), GOALS + 2), dtype=np.int16)
    for g in range(GOALS):
        rows[:, g] = (unique >> (6 + 4 * g)) & 15
    rows[:, GOALS] = unique & 7
    rows[:, GOALS + 1] = (unique >> 3) & 7
    per_key = np.full(KEY_SPACE, len(unique), dtype=np.uint16)  # invalid keys: the extra last class
    per_key[valid] = inverse.reshape(-1)
    return per_key, rows


def _pair_tables(rows: npt.NDArray[np.int16]) -> tuple[UInt8Array, UInt8Array, UInt8Array]:
    """Min-plus of two suits' class rows: standard (by melds), seven pairs, and their minimum.

    ``rows`` has one extra class for invalid keys appended here, whose distances are all DISTANCE_CAP.
    """
    n = len(rows) + 1
    dist = np.full((n, 5, 2), DISTANCE_CAP, dtype=np.int16)
    dist[:-1] = rows[:, :GOALS].reshape(-1, 5, 2)
    standard = np.full((n, n, 5), DISTANCE_CAP, dtype=np.int16)
    for melds in range(5):
        sets = 4 - melds
        for ma in range(sets + 1):
            for pa in range(2):
                both = dist[:, ma, pa][:, None] + dist[:, sets - ma, 1 - pa][None, :]
                standard[:, :, melds] = np.minimum(standard[:, :, melds], both)
    pairs = np.zeros(n, dtype=np.int16)
    pairs_singles = np.zeros(n, dtype=np.int16)
    pairs[:-1] = rows[:, GOALS]
    pairs_singles[:-1] = rows[:, GOALS + 1]
    p = np.minimum(pairs[:, None] + pairs[None, :], 7)
    ps = pairs_singles[:, None] + pairs_singles[None, :]
    # Distance to seven pairs: each missing pair costs one tile while odd counts last, two after that.
    seven = (7 - p) + np.maximum(0, 7 - ps)
    seven[-1, :] = DISTANCE_CAP
    seven[:, -1] = DISTANCE_CAP
    seven_slots = np.full((n, n, 5), DISTANCE_CAP, dtype=np.int16)
    seven_slots[:, :, 0] = seven
    combined = np.minimum(standard, seven_slots)
    cap = DISTANCE_CAP

    def as_u8(table: npt.NDArray[np.int16]) -> UInt8Array:
        return np.minimum(table, cap).astype(np.uint8).reshape(-1)

    return as_u8(combined), as_u8(standard), as_u8(seven_slots)


def _uint_array(values: npt.NDArray[np.integer]) -> array.array[int]:
    out = array.array("I")
    if out.itemsize != 4:  # pragma: no cover - every platform we support has 4-byte unsigned int
        raise RuntimeError("array('I') is not 4 bytes here")
    out.frombytes(values.astype(np.uint32).tobytes())
    return out


_CLASS_PER_KEY, _CLASS_ROWS = _classes(load_distances())
#: Class of every suit key (numpy, for the batch API and tests).
SUIT_CLASS: Final = _CLASS_PER_KEY
#: Per class: the 10 goal distances, then pairs and pairs + singles (each capped at 7). No row for INVALID_CLASS.
CLASS_ROWS: Final = _CLASS_ROWS
N_CLASSES: Final = len(_CLASS_ROWS) + 1
INVALID_CLASS: Final = N_CLASSES - 1
_COMBINED_NP, _STANDARD_NP, _SEVEN_NP = _pair_tables(_CLASS_ROWS)
COMBINED_NP: Final = _COMBINED_NP
STANDARD_NP: Final = _STANDARD_NP
COMBINED: Final = _COMBINED_NP.tobytes()
STANDARD: Final = _STANDARD_NP.tobytes()
SEVEN_PAIRS: Final = _SEVEN_NP.tobytes()
ROW: Final = _uint_array(_CLASS_PER_KEY.astype(np.uint32) * (N_CLASSES * 5))
COL: Final = _uint_array(_CLASS_PER_KEY.astype(np.uint32) * 5)


def _suit_info(per_key: npt.NDArray[np.uint16]) -> list[tuple[int, int, int]]:
    """Per key the tuple (ROW, COL, tiles held), shared among keys: a list read is cheaper than two array reads.

    Only a few hundred distinct tuples exist, so the list costs its 8-byte slots; it is filled through an
    ``array('H')`` of tuple ids so that no transient list of two million ints is made.
    """
    code = per_key.astype(np.int32) * 64 + digit_sums()
    present = np.zeros(N_CLASSES * 64, dtype=bool)
    present[code] = True
    ids = np.cumsum(present, dtype=np.int32) - 1
    tuples = [(int(c >> 6) * N_CLASSES * 5, int(c >> 6) * 5, int(c & 63)) for c in np.flatnonzero(present)]
    which = array.array("H")
    which.frombytes(ids[code].astype(np.uint16).tobytes())
    return list(map(tuples.__getitem__, which))


#: ``SUIT_INFO[key] == (ROW[key], COL[key], tiles held)``: the tile-list API reads all three in one go.
SUIT_INFO: Final = _suit_info(_CLASS_PER_KEY)


def class_distances(key: int) -> tuple[tuple[int, int], ...]:
    """The (no pair, one pair) distances of one suit key for m = 0..4 sets; for tests and debugging."""
    c = int(SUIT_CLASS[key])
    if c == INVALID_CLASS:
        return tuple((DISTANCE_CAP, DISTANCE_CAP) for _ in range(5))
    row = _CLASS_ROWS[c]
    return tuple((int(row[2 * m]), int(row[2 * m + 1])) for m in range(5))
