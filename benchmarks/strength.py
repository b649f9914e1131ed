"""Bot strength on duplicate deals: each challenger against three copies of a weaker bot.

Run: ``.venv/bin/python benchmarks/strength.py [--hands 2000] [--jobs 2] [--seed 0] [--rules seed]``.
For each pairing it prints the challenger's points per hand (units of the base) with its 95% confidence
interval over deals; the claim "A is stronger than B" holds when the interval lies above zero. Duplicate deals
(every deal played four times with the seats rotated) take the luck of the tiles out of the comparison.
"""

from __future__ import annotations

import argparse
import json

import sichuan_mahjong as sm
from sichuan_mahjong.sim import run_tournament

PAIRINGS = (("efficient", "random"), ("expert", "random"), ("expert", "efficient"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=4000, help="hands per pairing (a multiple of 4, at least 2000)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="seed", help="rule preset")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = sm.Rules.preset(args.rules)
    rows = []
    for challenger, field in PAIRINGS:
        s = run_tournament(
            [challenger, field, field, field], args.hands, rules, seed=args.seed, duplicate=True, jobs=args.jobs
        )
        st = s.stats[0]
        lo, hi = st.ci95
        rows.append(
            {
                "challenger": challenger,
                "field": field,
                "hands": s.hands,
                "mean": st.mean,
                "ci95": [lo, hi],
                "above_zero": lo > 0,
                "win_rate": st.rate(st.wins),
                "deal_in_rate": st.rate(st.deal_ins),
                "hands_per_second": s.hands / s.seconds,
            }
        )
        if not args.json:
            verdict = "stronger" if lo > 0 else "NOT shown stronger"
            print(
                f"{challenger:>9} vs 3x {field:<9} {s.hands} hands: {st.mean:+.3f} per hand, 95% CI "
                f"[{lo:+.3f}, {hi:+.3f}] -> {verdict}  (win {st.rate(st.wins):.1%}, deal-in "
                f"{st.rate(st.deal_ins):.1%}, {s.hands / s.seconds:.0f} hands/s)"
            )
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
