"""Build ``src/sichuan_mahjong/hand/suit_tables.npz``, the per-suit distance table of the hand evaluator.

Run ``python scripts/build_tables.py`` after changing the table's definition; ``--check`` rebuilds in memory and
exits 1 if the shipped file differs. The script needs only numpy and deliberately does not import the package
(whose import loads the very file this writes). The format is described in ``sichuan_mahjong/hand/tables.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

KEY_SPACE: Final = 5**9
MAX_SUIT_TILES: Final = 14
GOALS: Final = 10  # (m sets, p pairs), m = 0..4, p = 0..1, column 2 * m + p
FORMAT_VERSION: Final = 1
TABLE_PATH: Final = Path(__file__).resolve().parents[1] / "src" / "sichuan_mahjong" / "hand" / "suit_tables.npz"
POW5: Final = tuple(5**r for r in range(9))
# Sets of one suit as {rank: copies}: nine pungs and seven chows.
SETS: Final = tuple({r: 3} for r in range(9)) + tuple({r: 1, r + 1: 1, r + 2: 1} for r in range(7))


def build_distances() -> npt.NDArray[np.uint8]:
    """Distance of every suit key with at most 14 tiles to each goal; shape (405350, 10), keys ascending.

    The distance to (m sets, p pairs) is the least number of tiles to add so that the suit contains them, never
    a fifth copy. Two passes over all 5**9 keys. First *cover*: does the suit already contain the goal? It holds
    m sets and p pairs iff removing some set leaves m - 1 sets and p pairs. Then by decreasing tile total: 0 if
    covered, else 1 + the least distance after adding one tile of a rank held fewer than four times. That
    recursion is exact: some tile of an optimal completion is missing and adding it lowers the distance by
    one, while adding any tile lowers it by at most one.
    """
    keys = np.arange(KEY_SPACE, dtype=np.int32)
    digits = np.stack([(keys // p) % 5 for p in POW5], axis=1).astype(np.int8)
    cover = np.zeros((KEY_SPACE, GOALS), dtype=bool)
    cover[:, 0] = True
    cover[:, 1] = (digits >= 2).any(axis=1)
    moves = []
    for s in SETS:
        ok = np.ones(KEY_SPACE, dtype=bool)
        for r, c in s.items():
            ok &= digits[:, r] >= c
        src = np.flatnonzero(ok)
        moves.append((src, src - sum(c * POW5[r] for r, c in s.items())))
    for m in range(1, 5):
        for p in range(2):
            fewer = cover[:, 2 * (m - 1) + p]
            acc = np.zeros(KEY_SPACE, dtype=bool)
            for src, dst in moves:
                acc[src] |= fewer[dst]
            cover[:, 2 * m + p] = acc
    total = digits.sum(axis=1)
    dist = np.zeros((KEY_SPACE, GOALS), dtype=np.uint8)
    for level in range(36, -1, -1):
        idx = np.flatnonzero(total == level).astype(np.int32)
        best = np.full((len(idx), GOALS), 254, dtype=np.uint8)
        for r, p5 in enumerate(POW5):
            room = digits[idx, r] < 4
            best[room] = np.minimum(best[room], dist[idx[room] + p5])
        dist[idx] = np.where(cover[idx], 0, best + 1)  # level 36 (all fours) covers every goal
    result: npt.NDArray[np.uint8] = dist[total <= MAX_SUIT_TILES]
    return result


def save(distances: npt.NDArray[np.uint8], path: Path = TABLE_PATH) -> None:
    np.savez_compressed(path, distance=distances, version=np.array([FORMAT_VERSION], dtype=np.int32))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing")
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    distances = build_distances()
    took = time.perf_counter() - start
    if args.check:
        with np.load(args.out) as data:
            same = bool(np.array_equal(data["distance"], distances)) and int(data["version"][0]) == FORMAT_VERSION
        print(f"{'matches' if same else 'DIFFERS from'} {args.out} (built in {took:.1f} s)")
        return 0 if same else 1
    save(distances, args.out)
    print(f"wrote {args.out}: {distances.shape[0]} keys x {GOALS} goals in {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
