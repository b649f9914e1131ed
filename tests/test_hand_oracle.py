"""The fast evaluator against a brute-force oracle written here, independently of ``hand/tables.py``.

What the oracle covers:

* **Every suit key** (all 5**9 keys, of which the 405,350 with at most 14 tiles are shipped): the per-suit
  distance to (m sets, p pairs), m = 0..4, p = 0..1, straight from its definition - the least
  ``sum(max(0, t[r] - h[r]))`` over every target t of m sets and p pairs in one suit (enumerated with
  itertools, at most four copies). Computed as: targets -> everything below a target (reverse cumulative max
  along each rank axis) -> cost ``|t| - |g|`` -> least over every g <= h (cumulative min along each axis). This is
  checked against the shipped file, the classes folded from it at import, and ``scripts/build_tables.py``'s
  builder (a different algorithm: cover sets, then one tile at a time).
* **Every winning shape**: every hand of four sets (minus melds) and a pair spread over one or two suits, in
  every pair of suits, for 0..4 melds, and every seven-pairs hand over two suits, through ``shanten_batch``;
  every one-suit winning hand through the tile-list ``is_winning``.
* **A large random sample** of whole hands (6,000: uniform, two-suit, one-suit, near-winning, with random melds,
  with a declared void), checked for ``shanten``, ``shanten_standard``, ``shanten_seven_pairs``, ``is_winning``,
  ``waits``, ``improvements`` and the int API against: a whole-hand shanten by definition (least tiles to add
  to reach any winning hand in the allowed suits; the per-suit split of a winning hand is exact, seven pairs by
  greedily taking the seven cheapest pair slots) and a recursive set/pair decomposition for winning.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.hand import analysis, tables
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import Tile, tiles_of_counts

POW5 = [5**r for r in range(9)]
N_KEYS = 5**9
BIG = 1000
SUIT_SETS: list[list[int]] = [[3 if r == p else 0 for r in range(9)] for p in range(9)] + [
    [1 if s <= r <= s + 2 else 0 for r in range(9)] for s in range(7)
]


def key_of(vec: list[int] | tuple[int, ...]) -> int:
    return sum(c * POW5[r] for r, c in enumerate(vec))


@functools.cache
def targets(m: int, p: int) -> npt.NDArray[np.int64]:
    """Keys of every one-suit multiset of m sets and p pairs with at most four copies of a rank."""
    out: set[int] = set()
    for sets in itertools.combinations_with_replacement(range(len(SUIT_SETS)), m):
        base = [sum(SUIT_SETS[s][r] for s in sets) for r in range(9)]
        for pair in range(9) if p else [None]:
            vec = list(base)
            if pair is not None:
                vec[pair] += 2
            if max(vec) <= 4:
                out.add(key_of(vec))
    return np.array(sorted(out), dtype=np.int64)


@functools.cache
def oracle_distances() -> npt.NDArray[np.int16]:
    """Shape (10, 5**9): distance of every suit key to goal column 2 * m + p, by definition (see module doc)."""
    keys = np.arange(N_KEYS)
    size = np.zeros(N_KEYS, dtype=np.int16)
    for r in range(9):
        size += ((keys // POW5[r]) % 5).astype(np.int16)
    out = np.empty((10, N_KEYS), dtype=np.int16)
    for m in range(5):
        for p in range(2):
            below = np.zeros(N_KEYS, dtype=np.uint8)
            below[targets(m, p)] = 1
            cube = below.reshape((5,) * 9)
            for axis in range(9):
                cube = np.flip(np.maximum.accumulate(np.flip(cube, axis), axis=axis), axis)
            cost = np.where(cube.reshape(-1) > 0, 3 * m + 2 * p - size, BIG).astype(np.int16)
            cube16 = cost.reshape((5,) * 9)
            for axis in range(9):
                cube16 = np.minimum.accumulate(cube16, axis=axis)
            out[2 * m + p] = cube16.reshape(-1)
    return out


# ---- whole-hand oracle -------------------------------------------------------------------------------------


def oracle_shanten(counts: list[int], melds: list[Meld], void: int = -1, form: str = "all") -> int:
    dist = oracle_distances()
    keys = [key_of(counts[9 * s : 9 * s + 9]) for s in range(3)]
    meld_suits = {m.tile_index // 9 for m in melds}
    need = 4 - len(melds)
    best = BIG
    for v in range(3):
        if v in meld_suits or (void >= 0 and v != void):
            continue
        a, b = [s for s in range(3) if s != v]
        if form in ("all", "standard"):
            for ma in range(need + 1):
                for pa in range(2):
                    d = int(dist[2 * ma + pa, keys[a]]) + int(dist[2 * (need - ma) + 1 - pa, keys[b]])
                    best = min(best, d)
        if form in ("all", "seven") and not melds:
            slots: list[int] = []
            for t in [*range(9 * a, 9 * a + 9), *range(9 * b, 9 * b + 9)]:
                first = max(0, 2 - counts[t])
                slots += [first, max(0, 4 - counts[t]) - first]
            best = min(best, sum(sorted(slots)[:7]))
    return min(best, analysis.NO_WIN + 1) - 1


def decomposes(counts: list[int]) -> bool:
    """Whether counts split exactly into pungs and chows (lowest tile first)."""
    i = next((t for t, c in enumerate(counts) if c), -1)
    if i < 0:
        return True
    if counts[i] >= 3:
        counts[i] -= 3
        ok = decomposes(counts)
        counts[i] += 3
        if ok:
            return True
    if i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for t in (i, i + 1, i + 2):
            counts[t] -= 1
        ok = decomposes(counts)
        for t in (i, i + 1, i + 2):
            counts[t] += 1
        return ok
    return False


def oracle_wins(counts: list[int], melds: list[Meld], void: int = -1) -> bool:
    suits = {t // 9 for t, c in enumerate(counts) if c} | {m.tile_index // 9 for m in melds}
    if len(suits) > 2 or (void >= 0 and void in suits):
        return False
    if not melds and all(c % 2 == 0 for c in counts):
        return True
    for t in range(27):
        if counts[t] >= 2:
            counts[t] -= 2
            ok = decomposes(counts)
            counts[t] += 2
            if ok:
                return True
    return False


def meld_counts_of(melds: list[Meld]) -> list[int]:
    out = [0] * 27
    for m in melds:
        out[m.tile_index] += m.size
    return out


def random_hands(rng: random.Random, count: int) -> Iterator[tuple[list[int], list[Meld], int]]:
    """(concealed counts of 13 - 3k or 14 - 3k tiles, melds, forced void or -1), in several flavours."""
    kinds = [MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG]
    for i in range(count):
        flavour = i % 5
        suits = rng.sample(range(3), 3)
        if flavour == 0:
            pool = list(range(27))
        elif flavour == 1:
            pool = [t for t in range(27) if t // 9 in suits[:2]]
        elif flavour == 2:
            pool = [t for t in range(27) if t // 9 == suits[0]]
        else:
            pool = [t for t in range(27) if t // 9 in suits[:2]] + [suits[2] * 9 + rng.randrange(9)]
        left = dict.fromkeys(range(27), 4)
        melds: list[Meld] = []
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) if flavour >= 3 else 0):
            t = rng.choice(pool)
            if left[t] == 4:
                melds.append(Meld(rng.choice(kinds), t))
                left[t] -= melds[-1].size
        size = rng.choice([13, 14]) - 3 * len(melds)
        counts = [0] * 27
        if flavour == 4:  # near-winning: a winning shape of two suits, then up to three swaps
            for _ in range(4 - len(melds)):
                for _ in range(20):
                    s = rng.choice(suits[:2]) * 9
                    shape = (
                        [s + rng.randrange(9)] * 3
                        if rng.random() < 0.3
                        else [s + rng.randrange(7) + j for j in range(3)]
                    )
                    if all(counts[t] + shape.count(t) <= left[t] for t in shape):
                        for t in shape:
                            counts[t] += 1
                        break
            pair = rng.choice(suits[:2]) * 9 + rng.randrange(9)
            if counts[pair] + 2 <= left[pair]:
                counts[pair] += 2
            while sum(counts) > size:
                counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
            for _ in range(rng.randrange(3)):
                if sum(counts):
                    counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
        while sum(counts) < size:
            t = rng.choice(pool) if rng.random() < 0.9 else rng.randrange(27)
            if counts[t] < left[t]:
                counts[t] += 1
        void = rng.randrange(3) if rng.random() < 0.15 else -1
        yield counts, melds, void


# ---- tests -------------------------------------------------------------------------------------------------


def test_every_suit_key_distance_matches_oracle() -> None:
    valid = tables.valid_keys()
    expected = oracle_distances()[:, valid].T
    shipped = tables.load_distances().astype(np.int16)
    assert np.array_equal(shipped, expected)
    folded = tables.CLASS_ROWS[tables.SUIT_CLASS[valid]][:, :10]
    assert np.array_equal(folded, expected)
    assert (tables.SUIT_CLASS[tables.digit_sums() > 14] == tables.INVALID_CLASS).all()


def test_class_rows_hold_pairs_and_singles_of_every_key() -> None:
    valid = tables.valid_keys()
    digits = np.stack([(valid // p) % 5 for p in POW5], axis=1)
    rows = tables.CLASS_ROWS[tables.SUIT_CLASS[valid]]
    assert np.array_equal(rows[:, 10], np.minimum((digits // 2).sum(axis=1), 7))
    assert np.array_equal(rows[:, 11], np.minimum((digits // 2 + digits % 2).sum(axis=1), 7))


def test_suit_info_mirrors_row_col_and_tile_count() -> None:
    sums = tables.digit_sums()
    for key in range(0, N_KEYS, 89):
        assert tables.SUIT_INFO[key] == (tables.ROW[key], tables.COL[key], int(sums[key]))
    assert len(tables.SUIT_INFO) == N_KEYS


def test_build_script_rebuilds_the_shipped_file() -> None:
    path = Path(__file__).resolve().parents[1] / "scripts" / "build_tables.py"
    spec = importlib.util.spec_from_file_location("build_tables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_tables"] = module
    spec.loader.exec_module(module)
    built = module.build_distances()
    assert np.array_equal(built, tables.load_distances())


def _winning_keys(n_melds: int) -> npt.NDArray[np.int64]:
    """Every standard winning hand with n_melds melds over at most two suits, as (N, 3) concealed keys."""
    need = 4 - n_melds
    blocks = []
    for ma in range(need + 1):
        for pa in range(2):
            ta, tb = targets(ma, pa), targets(need - ma, 1 - pa)
            pairs = np.stack(np.meshgrid(ta, tb, indexing="ij"), axis=-1).reshape(-1, 2)
            for a, b in ((0, 1), (0, 2), (1, 2)):
                block = np.zeros((len(pairs), 3), dtype=np.int64)
                block[:, a] = pairs[:, 0]
                block[:, b] = pairs[:, 1]
                blocks.append(block)
    return np.concatenate(blocks)


@pytest.mark.parametrize("n_melds", range(5))
def test_r7_every_standard_winning_shape_is_complete(n_melds: int) -> None:
    keys = _winning_keys(n_melds)
    assert (sm.shanten_batch(keys, n_melds) == -1).all()
    # the same hands with their sets melded in the kept suits, void the third
    for a, b, v in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
        rows = keys[keys[:, v] == 0]
        assert (sm.shanten_batch(rows, n_melds, meld_suits=(1 << a) | (1 << b)) == -1).all()
        assert (sm.shanten_batch(rows, n_melds, void=v) == -1).all()
        three = rows[(rows[:, a] > 0) & (rows[:, b] > 0)]
        if n_melds:  # R3.1: a meld in the third suit makes a two-suit concealed hand a three-suit hand
            assert (sm.shanten_batch(three, n_melds, meld_suits=1 << v) >= 0).all()


def test_r7_every_seven_pairs_shape_is_complete() -> None:
    hands = []
    for picks in itertools.combinations_with_replacement(range(18), 7):
        if max(picks.count(t) for t in set(picks)) <= 2:
            vec = [0] * 18
            for t in picks:
                vec[t] += 2
            hands.append((key_of(vec[:9]), key_of(vec[9:])))
    two = np.array(hands, dtype=np.int64)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        keys = np.zeros((len(two), 3), dtype=np.int64)
        keys[:, a] = two[:, 0]
        keys[:, b] = two[:, 1]
        assert (sm.shanten_batch(keys) == -1).all()
        assert (sm.shanten_batch(keys, 1) >= 0).sum() > 0  # with a meld seven pairs no longer counts


def test_r7_every_one_suit_winning_hand_through_tile_list() -> None:
    for n_melds in range(5):
        need = 4 - n_melds
        for key in targets(need, 1):
            for suit in range(3):
                tiles = [Tile(suit * 9 + r) for r in range(9) for _ in range(int(key) // POW5[r] % 5)]
                melds = [Meld(MeldKind.PUNG, (suit + 1) % 3 * 9 + i) for i in range(n_melds)]
                assert sm.is_winning(tiles, melds), (tiles, melds)


def test_random_hands_match_oracle() -> None:
    rng = random.Random(20240611)
    checked = 0
    ready: list[tuple[list[int], list[int], int, int, int, list[int]]] = []
    for counts, melds, void in random_hands(rng, 6000):
        tiles = tiles_of_counts(counts)
        n = len(melds)
        keys = [key_of(counts[9 * s : 9 * s + 9]) for s in range(3)]
        meld_suits = sum(1 << s for s in {m.tile_index // 9 for m in melds})
        v = void if void >= 0 else None
        expect = oracle_shanten(counts, melds, void)
        assert sm.shanten(tiles, melds, void=v) == expect, (tiles, melds, void)
        assert sm.shanten_keys(keys, n, meld_suits, void) == expect
        assert sm.shanten_batch(np.array([keys]), n, meld_suits, void)[0] == expect
        assert sm.shanten_standard(tiles, melds, void=v) == oracle_shanten(counts, melds, void, "standard")
        seven = sm.shanten_seven_pairs(tiles, melds, void=v)
        assert seven == (oracle_shanten(counts, melds, void, "seven") if not melds else sm.NO_WIN)
        if len(tiles) == 14 - 3 * n:
            assert sm.is_winning(tiles, melds, void=v) == oracle_wins(list(counts), melds, void)
        else:
            held = meld_counts_of(melds)
            expected_waits = []
            for t in range(27):
                if counts[t] + held[t] < 4:
                    counts[t] += 1
                    if oracle_wins(counts, melds, void):
                        expected_waits.append(Tile(t))
                    counts[t] -= 1
            assert sm.waits(tiles, melds, void=v) == expected_waits, (tiles, melds, void)
            ready.append((counts, held, n, meld_suits, void, [t.index for t in expected_waits]))
            if not melds:
                assert bool(expected_waits) == (expect == 0)
        checked += 1
    assert checked == 6000
    counts_n, held_n, n_n, ms_n, void_n, expected = (list(x) for x in zip(*ready, strict=True))
    got = sm.waits_batch(np.array(counts_n), np.array(n_n), np.array(ms_n), np.array(void_n), np.array(held_n))
    assert [np.flatnonzero(row).tolist() for row in got] == expected


def test_random_improvements_match_oracle() -> None:
    rng = random.Random(7)
    for counts, melds, _ in random_hands(rng, 600):
        if sum(counts) != 13 - 3 * len(melds):
            continue
        seen = [rng.randrange(27) for _ in range(rng.randrange(12))]
        held = meld_counts_of(melds)
        base = oracle_shanten(counts, melds)
        expected = []
        for t in range(27):
            if counts[t] + held[t] >= 4:
                continue
            counts[t] += 1
            if oracle_shanten(counts, melds) < base:
                expected.append((Tile(t), max(0, 4 - counts[t] + 1 - held[t] - seen.count(t))))
            counts[t] -= 1
        got = sm.improvements(tiles_of_counts(counts), melds, seen)
        assert got.shanten == base
        assert list(got.useful) == expected
        assert got.total == sum(n for _, n in expected)
