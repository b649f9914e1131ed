"""Fit the holding model of ``agents/reader.py``: how many copies of each kind each other seat holds.

Run: ``.venv/bin/python scripts/fit_holding.py [--hands 1000] [--jobs 2] [--seed 0] [--check]`` (about a minute
with two processes; the same seed writes the same coefficients). ``--check`` fits on the first 80% of the hands
and prints the fit on the rest beside the uniform rate's, instead of writing.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from fit_reader import _poisson_check, _wrapped, fit_poisson

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.reader import hold_features, hold_kinds
from sichuan_mahjong.game.actions import ActionKind

OUT = Path(__file__).resolve().parents[1] / "src" / "sichuan_mahjong" / "agents" / "holding_model.py"
Rows = list[list[float]]


def play(task: tuple[str, int, int]) -> Rows:
    preset, start, stop = task
    rules = sm.Rules.preset(preset)
    rows: Rows = []
    for seed in range(start, stop):
        bots = [make_agent("expert", seed=seed * 4 + i) for i in range(4)]
        game = sm.Game(rules, seed=seed)
        k = 0
        while not game.is_over:
            asked = game.to_act()
            for s, legal in asked.items():
                if game.phase != "play" or sum(1 for a in legal if a.kind is ActionKind.DISCARD) < 2:
                    continue
                k += 1
                if k % 3:
                    continue
                view = game.view(s)
                unseen = read_view(view).unseen
                for o in range(4):
                    if o == s or not view.active[o]:
                        continue
                    for t in hold_kinds(view, unseen, o):
                        rows.append([*hold_features(view, unseen, o, t), float(game._counts[o][t]), float(seed)])
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="hands a rule set")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    base = 3_000_000 + args.seed * args.hands * 4
    chunk = 25
    model: dict[int, list[float]] = {}
    sizes = []
    for fam, preset in enumerate(("seed", "app")):
        first = base + fam * args.hands * 2
        tasks = [(preset, first + a, first + min(args.hands, a + chunk)) for a in range(0, args.hands, chunk)]
        rows: Rows = []
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for i, part in enumerate(pool.map(play, tasks)):
                rows += part
                print(f"\r{preset}: {(i + 1) * chunk}/{args.hands} hands", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        data = np.array(rows, dtype=np.float64)
        x, y, hand = data[:, :-2], data[:, -2], data[:, -1]
        train = hand < first + args.hands * 0.8 if args.check else np.ones(len(y), dtype=bool)
        test = ~train if args.check else train
        w = fit_poisson(x[train], y[train])
        print(f"{preset}: {len(y)} rows, mean {y.mean():.4f}; w={w}")
        where = "held out" if args.check else "in sample"
        print(f"  {where}:", _poisson_check(x[test], y[test], w))
        # What the uniform rate alone (the bias and its log) explains, for comparison.
        w0 = fit_poisson(x[train][:, :2], y[train])
        print(f"  {where}, the uniform rate alone:", _poisson_check(x[test][:, :2], y[test], w0))
        model[int(sm.Rules.preset(preset).declare_void)] = w
        sizes.append(len(y))
    print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.check:
        return
    hold = ",\n".join(f"    {fam}: (\n{_wrapped(w)}\n    )" for fam, w in sorted(model.items()))
    OUT.write_text(
        '"""The holding model of ``agents/reader.py``, fitted by ``scripts/fit_holding.py`` (regenerate it; do not\n'
        "edit by hand).\n\n"
        "``HOLD[void_rules]`` weighs :func:`~sichuan_mahjong.agents.reader.hold_features` (Poisson: the copies of a\n"
        "kind a seat holds), with ``void_rules`` 1 under 定缺 (R3.2). Fitted on"
        f" {sum(sizes)} (seat, kind) rows at every third\ndiscard decision of {args.hands} hands a rule set"
        f" of four experts (seed {args.seed}).\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        '__all__ = ["HOLD"]\n\n'
        f"HOLD: dict[int, tuple[float, ...]] = {{\n{hold},\n}}\n"
    )
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
