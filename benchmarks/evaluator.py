"""Speed of the hand evaluator beside the `mahjong` package (2.1.0), on the same random hands in the same run.

    pip install -e '.[bench]'            # or: make bench
    python benchmarks/evaluator.py [--hands 20000] [--batch 1000000] [--seed 1]

Rows are calls (or hands) per second, best of ``--repeat`` timings; the last column is the ratio to the `mahjong`
row it stands beside. Hands are uniform random draws of 13 (or 14) tiles from the 108-tile wall, no melds.

What is compared with what:

* shanten - ``mahjong.shanten.Shanten().calculate_shanten(tiles_34)`` vs our ``shanten(list[Tile])`` (tile list
  converted on every call), ``shanten_keys(keys, 0)`` (suit keys held by the caller) and ``shanten_batch``.
* is_winning - ``mahjong.agari.Agari().is_agari(tiles_34)`` on 14 tiles vs ``is_winning`` / ``is_winning_keys``
  and ``shanten_batch(...) == -1``.
* waits - `mahjong` has no waits function, so its row is the usual loop: ``is_agari`` on the hand plus each
  tile held fewer than four times; ours ``waits(list[Tile])``, ``waits_counts`` and ``waits_batch``.

The rules differ, and this measures speed, not agreement: ours applies 缺一门 and counts a four of a kind as two
pairs in seven pairs; `mahjong` is riichi mahjong (no void suit). `mahjong` gets its 34-count arrays built in
advance, ours converts its tile list inside the timed call.

Targets (issues 2, 41): tile-list shanten >= 100x `mahjong` (50x before issue 41; compiled past 400x, pure
Python short of it: benchmarks/shanten_parts.py shows where the call's time goes); held keys >= 2M shanten/s;
batch >= 10M hands/s.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from typing import Any

import numpy as np

import sichuan_mahjong as sm

try:
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten
except ImportError:  # pragma: no cover - the bench extra is not installed
    sys.exit("this benchmark needs the bench extra: pip install -e '.[bench]'  (mahjong==2.1.0)")

WALL = [t for t in range(27) for _ in range(4)]


def deal(rng: random.Random, count: int, size: int) -> list[list[int]]:
    return [sorted(rng.sample(WALL, size)) for _ in range(count)]


def counts34(hand: Sequence[int]) -> list[int]:
    """`mahjong`'s 34-count array: man 0-8, pin 9-17, sou 18-26 - the same order as our tile indices."""
    out = [0] * 34
    for t in hand:
        out[t] += 1
    return out


def rate(fn: Callable[[], Any], items: int, repeat: int) -> float:
    """Items per second, best of ``repeat`` runs of ``fn`` (which processes ``items`` items)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return items / best


def loop(fn: Callable[[Any], Any], args: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for a in args:
            fn(a)

    return run


def mahjong_waits(agari: Agari, hand34: list[int]) -> list[int]:
    out = []
    for t in range(27):
        if hand34[t] < 4:
            hand34[t] += 1
            if agari.is_agari(hand34):
                out.append(t)
            hand34[t] -= 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="hand evaluator speed beside the mahjong package")
    parser.add_argument("--hands", type=int, default=20000, help="hands for the per-call rows")
    parser.add_argument("--waits-hands", type=int, default=2000, help="hands for the per-call waits rows")
    parser.add_argument("--batch", type=int, default=1_000_000, help="hands for the batch rows")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rep = args.repeat

    h13 = deal(rng, args.hands, 13)
    h14 = deal(rng, args.hands, 14)
    t13 = [[sm.Tile(t) for t in h] for h in h13]
    t14 = [[sm.Tile(t) for t in h] for h in h14]
    k13 = [sm.suit_keys(sm.counts_of(h)) for h in h13]
    k14 = [sm.suit_keys(sm.counts_of(h)) for h in h14]
    c13 = [sm.counts_of(h) for h in h13]
    m13 = [counts34(h) for h in h13]
    m14 = [counts34(h) for h in h14]
    nw = min(args.waits_hands, args.hands)

    # Same answers whichever door: a cheap guard against timing something broken.
    same = [sm.shanten(t) for t in t13[:500]] == [sm.shanten_keys(k, 0) for k in k13[:500]]
    same &= [sm.waits(t) for t in t13[:200]] == [[sm.Tile(i) for i in sm.waits_counts(c, 0)] for c in c13[:200]]
    same &= sm.shanten_batch(np.array(k13[:500])).tolist() == [sm.shanten_keys(k, 0) for k in k13[:500]]

    big = np.random.default_rng(args.seed)
    batch_counts = np.zeros((args.batch, 27), dtype=np.int64)
    # 14 distinct wall positions per row (no fifth copy): the first 13 make the hand, the 14th the draw.
    order = np.argsort(big.random((args.batch, 108)), axis=1)[:, :14]
    tiles14 = np.array(WALL)[order]
    np.add.at(batch_counts, (np.arange(args.batch)[:, None], tiles14[:, :13]), 1)
    pow5 = 5 ** np.arange(9, dtype=np.int64)
    bkeys13 = batch_counts.reshape(-1, 3, 9) @ pow5
    counts14 = batch_counts.copy()
    np.add.at(counts14, (np.arange(args.batch), tiles14[:, 13]), 1)
    bkeys14 = counts14.reshape(-1, 3, 9) @ pow5
    nwb = max(1, args.batch // 10)
    same &= [np.flatnonzero(w).tolist() for w in sm.waits_batch(batch_counts[:200])] == [
        sm.waits_counts(c.tolist(), 0) for c in batch_counts[:200]
    ]
    if not same:
        sys.exit("the evaluator's doors disagree; fix that before timing")

    shanten = Shanten()
    agari = Agari()
    rows: list[tuple[str, str, float, float | None]] = []

    ref = rate(loop(shanten.calculate_shanten, m13), len(m13), rep)
    rows.append(("shanten", "mahjong Shanten().calculate_shanten(tiles_34)", ref, None))
    tiles_rate = rate(loop(sm.shanten, t13), len(t13), rep)
    rows.append(("shanten", "ours shanten(list[Tile])", tiles_rate, ref))
    rows.append(("shanten", "ours shanten(list[int])", rate(loop(sm.shanten, h13), len(h13), rep), ref))
    keys_rate = rate(loop(lambda k: sm.shanten_keys(k, 0), k13), len(k13), rep)
    rows.append(("shanten", "ours shanten_keys(keys, 0)", keys_rate, ref))
    batch_rate = rate(lambda: sm.shanten_batch(bkeys13), args.batch, rep)
    rows.append(("shanten", f"ours shanten_batch, {args.batch:,} hands", batch_rate, ref))

    ref = rate(loop(agari.is_agari, m14), len(m14), rep)
    rows.append(("is_winning", "mahjong Agari().is_agari(tiles_34)", ref, None))
    rows.append(("is_winning", "ours is_winning(list[Tile])", rate(loop(sm.is_winning, t14), len(t14), rep), ref))
    rows.append(
        (
            "is_winning",
            "ours is_winning_keys(keys, 0)",
            rate(loop(lambda k: sm.is_winning_keys(k, 0), k14), len(k14), rep),
            ref,
        )
    )
    rows.append(
        (
            "is_winning",
            f"ours shanten_batch == -1, {args.batch:,}",
            rate(lambda: sm.shanten_batch(bkeys14) == -1, args.batch, rep),
            ref,
        )
    )

    ref = rate(loop(lambda h: mahjong_waits(agari, h), m13[:nw]), nw, rep)
    rows.append(("waits", "mahjong is_agari over 27 tiles", ref, None))
    rows.append(("waits", "ours waits(list[Tile])", rate(loop(sm.waits, t13[:nw]), nw, rep), ref))
    rows.append(
        ("waits", "ours waits_counts(counts, 0)", rate(loop(lambda c: sm.waits_counts(c, 0), c13[:nw]), nw, rep), ref)
    )
    rows.append(
        ("waits", f"ours waits_batch, {nwb:,} hands", rate(lambda: sm.waits_batch(batch_counts[:nwb]), nwb, rep), ref)
    )

    versions = f"python {platform.python_version()}, numpy {np.__version__}, mahjong {version('mahjong')}"
    print(f"{versions}, {platform.machine()}, {platform.processor() or 'cpu ?'}")
    print(f"{args.hands:,} random hands per call row (waits: {nw:,}), seed {args.seed}, best of {rep}\n")
    print(f"{'':11s}{'what':52s}{'calls/s':>14s}{'x mahjong':>11s}")
    for group, what, value, base in rows:
        ratio = f"{value / base:10.1f}x" if base else f"{'1.0x':>11s}"
        print(f"{group:11s}{what:52s}{value:14,.0f}{ratio}")

    shanten_ref = rows[0][2]
    print("\ntargets:")
    targets = [
        ("tile-list shanten >= 100x mahjong", tiles_rate / shanten_ref, 100.0, "x"),
        ("held-key shanten >= 2M/s", keys_rate / 1e6, 2.0, "M/s"),
        ("batch shanten >= 10M hands/s", batch_rate / 1e6, 10.0, "M/s"),
    ]
    for name, got, want, unit in targets:
        print(f"  {'met ' if got >= want else 'MISS'}  {name:36s} {got:8.1f} {unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
