"""Bot speed: time per decision (mean, p99, max) per bot, hands per second, and the scaling with --jobs.

Run: ``.venv/bin/python benchmarks/bots.py [--hands N] [--rules app] [--bots master ...] [--import MODULE]``
(``--import`` registers variants first, as in ``strength.py``; ``PYTHONPATH=build/compiled`` or ``make compiled``
times the compiled build, named in the first line of the output). Every bot must decide in well under 50 ms (the search
bot ``master``: a median of at most 50 ms and the slowest decision at most 1 s); the hands-per-second target
with four ``efficient`` bots is 200 in one process.
"""

from __future__ import annotations

import argparse
import importlib
import time

import sichuan_mahjong as sm
from sichuan_mahjong import compiled
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.sim import run_tournament


def decision_times(name: str, hands: int, rules: sm.Rules) -> list[float]:
    """Seconds per act() of bot ``name`` at every seat of seeded hands (view building not included)."""
    times: list[float] = []
    for seed in range(hands):
        bots = [make_agent(name, seed=seed * 4 + s) for s in range(4)]
        game = sm.Game(rules, seed=seed)
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                start = time.perf_counter()
                answers[s] = bots[s].act(view, legal)
                times.append(time.perf_counter() - start)
            game.step(answers)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--rules", choices=("seed", "app"), default="seed")
    parser.add_argument("--bots", nargs="+", default=["random", "efficient", "expert", "master"])
    parser.add_argument("--import", dest="modules", action="append", default=[], help="module registering bots")
    args = parser.parse_args()
    for module in args.modules:
        importlib.import_module(module)
    rules = sm.Rules.preset(args.rules)
    print(compiled.describe())
    print(f"decision time per bot ({args.rules} rules, 4 of the same bot):")
    for name in args.bots:
        # A search bot is a hundred times slower on the decisions it searches: fewer hands.
        hands = max(8, args.hands // 50) if isinstance(make_agent(name), MasterAgent) else max(20, args.hands // 8)
        times = sorted(decision_times(name, hands, rules))
        mean = sum(times) / len(times)
        median = times[len(times) // 2]
        p99 = times[int(0.99 * (len(times) - 1))]
        print(f"  {name:<10} {len(times):>6} decisions  mean {mean * 1e3:6.3f} ms  median {median * 1e3:6.3f} ms"
              f"  p99 {p99 * 1e3:7.3f} ms  max {times[-1] * 1e3:7.3f} ms")  # fmt: skip
    for players in ([name] * 4 for name in ("efficient", "expert") if name in args.bots):
        for jobs in (1, 2):
            run_tournament(players, 8, rules, jobs=jobs)  # warm up imports and the pool
            s = run_tournament(players, args.hands, rules, seed=1, jobs=jobs)
            print(f"{players[0]} x4, --jobs {jobs}: {s.hands / s.seconds:7.1f} hands/s ({s.hands} hands)")


if __name__ == "__main__":
    main()
