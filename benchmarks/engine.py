"""Engine speed beside RLCard's ``mahjong`` environment, random agents on both sides, in the same run.

    make bench-engine                    # installs rlcard into .venv, then runs this
    python benchmarks/engine.py [--hands 300] [--rlcard-games 40] [--rounds 3]

Rows are whole hands (games) per second of CPU time (``time.process_time``: a machine shared with other work
steals wall time from both sides unevenly), best of ``--rounds`` timings taken in turn (ours, theirs, ours, ...);
the ratio column divides by RLCard's games/s. ``--wall`` times wall-clock instead.

What is timed:

* ours, ``engine``: ``Game(rules, seed)``, then every asked seat picks a uniformly random legal answer
  (``to_act`` / ``step``) until the hand is over;
* ours, ``with views``: the same, and each asked seat also builds its ``view(seat)`` first, as a bot does.
  This is the fair row: RLCard's ``env.run`` builds every acting player's state (observation) on each step;
* RLCard: ``rlcard.make("mahjong")``, ``env.run(is_training=False)`` with four agents that choose uniformly
  among the legal actions (RLCard's ``RandomAgent`` does exactly that with the global ``np.random``; here each
  agent has its own seeded ``np.random.Generator``, so both sides are reproducible).

RLCard's game is a simpler rule set: 136 tiles with honours, chow/pung/gong, any four sets and a pair wins, the
game ends at the first win, no 缺一门, no fan, no payments, no 血战, 过水 or 查叫. Ours plays the full rules of
each preset (docs/rules.md), settlement included. Random play rarely wins on either side, so most hands run to the
wall's end: the timings are of the turn loop, claims and the end-of-wall settlement.

Memory: ``tracemalloc`` of one finished hand kept alive (the ``Game`` with its event log) and the peak while it
was played; for RLCard, the environment after one game (its ``make`` included).

Target (issue 3): ours, with views, >= 20x RLCard's games/s for every preset.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import numpy as np

import sichuan_mahjong as sm

PRESETS = ("seed", "standard", "standard_kong", "bloody", "bloody_kong", "app")


def play_hand(rules: sm.Rules, seed: int, views: bool) -> sm.Game:
    g = sm.Game(rules, seed)
    rng = random.Random(seed)
    while not g.is_over:
        pending = g.to_act()
        if views:
            for s in pending:
                g.view(s)
        g.step({s: rng.choice(legal) for s, legal in pending.items()})
    return g


CLOCK: list[Callable[[], float]] = [time.process_time]


def ours(rules: sm.Rules, hands: int, views: bool) -> float:
    clock = CLOCK[0]
    start = clock()
    for seed in range(hands):
        play_hand(rules, seed, views)
    return hands / (clock() - start)


class SeededRandomAgent:
    """RLCard's RandomAgent (uniform over ``state['legal_actions']``) with its own generator."""

    use_raw = False

    def __init__(self, num_actions: int, seed: int) -> None:
        self.num_actions = num_actions
        self.rng = np.random.default_rng(seed)

    def step(self, state: dict[str, Any]) -> int:
        return int(self.rng.choice(list(state["legal_actions"])))

    def eval_step(self, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.step(state), {}


def rlcard_env(seed: int) -> Any:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([SeededRandomAgent(env.num_actions, seed * 4 + i) for i in range(env.num_players)])
    return env


def theirs(games: int) -> float:
    env = rlcard_env(0)
    clock = CLOCK[0]
    start = clock()
    for _ in range(games):
        env.run(is_training=False)
    return games / (clock() - start)


def memory(make: Callable[[], object]) -> tuple[int, int]:
    """Bytes still held by what ``make`` returns, and the peak while it ran."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return current - before, peak - before


def rlcard_one_game() -> object:
    env = rlcard_env(1)
    env.run(is_training=False)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=300, help="our hands per preset and timing")
    parser.add_argument("--rlcard-games", type=int, default=40, help="RLCard games per timing")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each row; the best is shown")
    parser.add_argument("--wall", action="store_true", help="time wall-clock instead of CPU time")
    args = parser.parse_args()
    if args.wall:
        CLOCK[0] = time.perf_counter
    try:
        import rlcard  # noqa: F401
    except ImportError:
        rlcard_version = None
        print("rlcard is not installed (pip install rlcard, or make bench-engine): our rows only", file=sys.stderr)
    else:
        rlcard_version = version("rlcard")

    clock = "wall-clock" if args.wall else "CPU"
    print(f"python {platform.python_version()}, numpy {np.__version__}, rlcard {rlcard_version or '-'}; {clock} time")
    for preset in PRESETS:  # warm the caches and tables
        play_hand(sm.Rules.preset(preset), 10_000, True)
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for preset in PRESETS:
            rules = sm.Rules.preset(preset)
            for views in (False, True):
                key = f"{preset} {'with views' if views else 'engine'}"
                best[key] = max(best.get(key, 0.0), ours(rules, args.hands, views))
            if rlcard_version:
                best["rlcard"] = max(best.get("rlcard", 0.0), theirs(args.rlcard_games))
    rl = best.get("rlcard")
    print(f"{'':42}{'hands/s':>9}{'x rlcard':>10}")
    for key, rate in best.items():
        if key == "rlcard":
            continue
        ratio = f"{rate / rl:9.1f}x" if rl else ""
        print(f"{'sichuan_mahjong ' + key:<42}{rate:9.0f}{ratio}")
    if rl:
        print(f"{'rlcard mahjong, random agents (games/s)':<42}{rl:9.1f}")
        print("note: RLCard's game is a simpler rule set (136 tiles, chow, no scoring; it ends at the first win)")

    seed_rules = sm.Rules.preset("seed")
    kept, peak = memory(lambda: play_hand(seed_rules, 7, False))
    g = play_hand(seed_rules, 7, False)
    size = f"{kept / 1024:.0f} KiB kept, {peak / 1024:.0f} KiB peak"
    print(f"memory, one finished hand (seed preset, {len(g.events)} events): {size}")
    if rlcard_version:
        kept, peak = memory(rlcard_one_game)
        print(f"memory, rlcard env after one game: {kept / 1024:.0f} KiB kept, {peak / 1024:.0f} KiB peak")


if __name__ == "__main__":
    main()
