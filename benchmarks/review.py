"""How long ``scmj review`` takes a hand, and what it finds, for seats played by different bots.

Run: ``.venv/bin/python benchmarks/review.py [--rules seed app] [--hands 3] [--samples K] [--seed 11]
[--bots expert]``.
For each rule set and each bot, seat 0 is played by that bot and seats 1-3 by experts on hands dealt with seeds
``seed``, ``seed + 1``, ...; each hand is reviewed for seat 0 (``sichuan_mahjong.review``, one process) and the
wall-clock seconds per hand (and the CPU seconds: on a shared machine the wall clock waits for others) are printed
with the decisions reviewed, the share agreeing with the master and the
points lost per hand. The target (docs/review.md): a hand in 15 s or less with the default samples on the
project's two-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

import sichuan_mahjong as sm
from sichuan_mahjong.agents.base import make_agent
from sichuan_mahjong.review import SAMPLES, review_games


def play(rules: sm.Rules, bot: str, seed: int) -> sm.Game:
    """A hand dealt by ``seed``: seat 0 played by ``bot``, the others by experts."""
    game = sm.Game(rules, seed=seed)
    bots = [make_agent(bot, seed), *(make_agent("expert", seed + s) for s in (1, 2, 3))]
    while not game.is_over:
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    return game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", nargs="+", default=["seed", "app"])
    p.add_argument("--bots", nargs="+", default=["expert"])
    p.add_argument("--hands", type=int, default=3)
    p.add_argument("--samples", type=int, default=SAMPLES)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    print(f"samples {args.samples}, hands {args.hands}, seeds {args.seed}..{args.seed + args.hands - 1}")
    for preset in args.rules:
        rules = sm.Rules.preset(preset)
        for bot in args.bots:
            times, cpu, decisions, losses, agree = [], 0.0, 0, 0.0, 0
            for i in range(args.hands):
                game = play(rules, bot, args.seed + i)
                start, start_cpu = time.perf_counter(), time.process_time()
                review = review_games([game], 0, samples=args.samples)
                times.append(time.perf_counter() - start)
                cpu += time.process_time() - start_cpu
                decisions += len(review.decisions)
                agree += sum(d.agreed for d in review.decisions)
                losses += sum(d.loss for d in review.decisions)
            print(
                f"{preset:5s} {bot:9s} {statistics.mean(times):6.2f} s/hand (slowest {max(times):.2f}; "
                f"CPU {cpu / args.hands:.2f} s/hand), "
                f"{decisions / args.hands:.1f} decisions/hand, agreement {agree / max(1, decisions):.0%}, "
                f"loss {losses / args.hands:.2f}/hand"
            )


if __name__ == "__main__":
    main()
