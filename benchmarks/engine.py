"""Engine speed: full random hands per second (every seat picks a random legal answer), per preset.

Run: ``.venv/bin/python benchmarks/engine.py [--hands N]``. Compare with RLCard's mahjong env when it is
installed (``pip install rlcard``): its random-agent loop is timed the same way.
"""

from __future__ import annotations

import argparse
import random
import time

import sichuan_mahjong as sm


def random_hands(rules: sm.Rules, n: int) -> float:
    """Hands per second of seeded random legal play."""
    start = time.perf_counter()
    for seed in range(n):
        g = sm.Game(rules, seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.step({s: rng.choice(legal) for s, legal in g.to_act().items()})
    return n / (time.perf_counter() - start)


def rlcard_hands(n: int) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    start = time.perf_counter()
    for _ in range(n):
        env.run(is_training=False)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    for name in ("seed", "standard", "app"):
        print(f"sichuan_mahjong {name:>8}: {random_hands(sm.Rules.preset(name), args.hands):8.0f} hands/s")
    theirs = rlcard_hands(max(20, args.hands // 10))
    if theirs is not None:
        print(f"rlcard mahjong        : {theirs:8.0f} hands/s")


if __name__ == "__main__":
    main()
