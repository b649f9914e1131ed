"""Where the pure-Python ``shanten(list[Tile])`` call spends its time, part by part, beside `mahjong` 2.1.0.

    python benchmarks/shanten_parts.py [--hands 5000] [--rounds 20] [--repeat 5]

Issue 41 asks for tile-list shanten at 100x `mahjong`, compiled or not. Compiled it is past 400x
(benchmarks/evaluator.py); pure Python it stops near 65-80x. This splits the call to show why: each row times the
hot path of :func:`sichuan_mahjong.hand.analysis.shanten` (13 tiles, no melds, no void) cut off at one point, so
the differences between rows are what each part costs. The rows copy the body of that function on purpose (the
``shanten`` row runs the real one beside them); the script stops if the copy no longer gives shanten's answers.

* ``call``: an empty one-argument function - the loop and the call.
* ``+ sum``: unpack the 13 tiles and add their ``key_weight`` (the three suit keys packed in one 63-bit int).
* ``+ suit tables``: the three per-suit lookups (row offset, column offset, tiles held).
* ``+ checks and pair tables``: the fifth-copy check and the three 缺一门 pair lookups: the whole answer.
* ``shanten``: the function itself: its signature (melds, a keyword-only void) and its checks (a list? how
  many tiles? melds or a void?) added.
* ``index sum``: the ``+ sum`` row with ``Tile.index`` (ints under 2**30) in place of ``key_weight``: what the
  sum would cost if the packed key fitted one machine digit of CPython's ints (it cannot: 63 bits).

The last column is the rate as a multiple of `mahjong`'s ``calculate_shanten`` on the same hands (its 34-count
arrays built in advance); 100x needs the whole call in 1/100 of `mahjong`'s time.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

from sichuan_mahjong import Tile
from sichuan_mahjong.compiled import describe
from sichuan_mahjong.hand import analysis

try:
    from mahjong.shanten import Shanten
except ImportError:  # pragma: no cover - the bench extra is not installed
    sys.exit("this benchmark needs the bench extra: pip install -e '.[bench]'  (mahjong==2.1.0)")

# The hot path of analysis.shanten (13 Tiles, no melds, no void) in three steps, each with what a function cut
# off after it returns. One text, so the rows cannot drift apart; each row is compiled on its own (a call
# between the steps would cost more than some of them).
STEPS = (
    (
        "+ sum",
        """
    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12 = tiles
    packed = t0.key_weight + t1.key_weight + t2.key_weight + t3.key_weight + t4.key_weight + t5.key_weight
    packed += t6.key_weight + t7.key_weight + t8.key_weight + t9.key_weight + t10.key_weight + t11.key_weight
    packed += t12.key_weight
""",
        "packed",
    ),
    (
        "+ suit tables",
        """
    r0, _, d0 = _INFO[packed & 0x1FFFFF]
    r1, c1, d1 = _INFO[packed >> 21 & 0x1FFFFF]
    _, c2, d2 = _INFO[packed >> 42]
""",
        "r0 + d0 + r1 + c1 + d1 + c2 + d2",  # (these adds cost what the next row then saves)
    ),
    (
        "+ checks and pair tables",
        """
    if d0 + d1 + d2 != 13:
        raise ValueError("a fifth copy")
    x = _COMB[r0 + c1]
    y = _COMB[r0 + c2]
    if y < x:
        x = y
    y = _COMB[r1 + c2]
    if y < x:
        x = y
""",
        "x - 1",
    ),
)


def define(body: str, result: str) -> Callable[[list[Tile]], int]:
    """A one-argument function of ``body`` returning ``result``, with the evaluator's tables at hand."""
    space = {"_INFO": analysis._INFO, "_COMB": analysis._COMB}
    exec(f"def part(tiles):{body}    return {result}\n", space)  # our own text, not input
    part: Callable[[list[Tile]], int] = space["part"]  # type: ignore[assignment]
    return part


def cut(after: int) -> Callable[[list[Tile]], int]:
    """The hot path up to and including ``STEPS[after]``, as one function."""
    return define("".join(code for _, code, _ in STEPS[: after + 1]), STEPS[after][2])


def index_sum() -> Callable[[list[Tile]], int]:
    """The ``+ sum`` step over ``Tile.index`` (one-digit ints) in place of ``key_weight``."""
    _, code, result = STEPS[0]
    return define(code.replace(".key_weight", ".index"), result)


def call(tiles: list[Tile]) -> int:
    return 0


def per_call(fn: Callable[[list[Tile]], object], hands: list[list[Tile]], rounds: int, repeat: int) -> float:
    """Seconds per call, best of ``repeat`` timings of ``rounds`` passes over ``hands``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            for h in hands:
                fn(h)
        best = min(best, time.perf_counter() - start)
    return best / (rounds * len(hands))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the pure-Python shanten call, part by part, beside mahjong")
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=20, help="passes over the hands in one timing")
    parser.add_argument("--repeat", type=int, default=5, help="timings; the best is kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    wall = [t for t in range(27) for _ in range(4)]
    drawn = [sorted(rng.sample(wall, 13)) for _ in range(args.hands)]
    hands = [[Tile(t) for t in h] for h in drawn]
    counts = [[h.count(t) for t in range(34)] for h in drawn]
    whole = cut(len(STEPS) - 1)
    if [whole(h) for h in hands] != [analysis.shanten(h) for h in hands]:
        print("the copied hot path no longer gives shanten's answers: update this benchmark")
        return 1

    reference = Shanten()
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for c in counts:
            reference.calculate_shanten(c)
        best = min(best, time.perf_counter() - start)
    theirs = best / len(counts)

    # (name, function, whether the row adds a step to the row before: its "part" is the difference)
    rows: list[tuple[str, Callable[[list[Tile]], object], bool]] = [
        ("call", call, True),
        *((name, cut(i), True) for i, (name, _, _) in enumerate(STEPS)),
        ("shanten", analysis.shanten, False),
        ("index sum (one-digit ints)", index_sum(), False),
    ]
    print(f"python {platform.python_version()}; {describe()}; {args.hands} hands of 13 tiles")
    print(f"{'':28} {'ns/call':>8} {'part':>6} {'x mahjong':>10}")
    print(f"{'mahjong calculate_shanten':28} {theirs * 1e9:8.0f} {'':>6} {1:10.1f}")
    before = 0.0
    for name, fn, step in rows:
        ns = per_call(fn, hands, args.rounds, args.repeat) * 1e9
        part = f"{ns - before:6.0f}" if step else ""
        print(f"{name:28} {ns:8.0f} {part:>6} {theirs * 1e9 / ns:10.1f}")
        if step:
            before = ns
    print(f"100x mahjong needs {theirs * 1e9 / 100:.0f} ns per call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
