"""Fit the table-reading models of ``agents/reader.py`` and write ``src/sichuan_mahjong/agents/reader_model.py``.

Run: ``.venv/bin/python scripts/fit_reader.py [--hands 3000] [--jobs 2] [--seed 0] [--check]``.

Four ``expert`` bots play seeded hands under the ``seed`` and the ``app`` rules. At every discard decision, for
each other seat still in, it records what the decider's view shows (:func:`~sichuan_mahjong.agents.reader.
ready_features`) and whether that seat's real hand is ready; for each ready one and each tile kind outside its
sure void, the tile's features (:func:`~sichuan_mahjong.agents.reader.wait_features`) and whether the seat
could win on it now (its 过水不胡 lock included). Per rule family (with or without 定缺) it fits the two
logistic models by Newton's method (``fit_win_model.fit_logistic``) and writes the coefficients as Python
literals. ``--check`` prints the fit and its calibration on held-out hands, writes nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
from fit_win_model import fit_logistic

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.reader import live_features, ready_features, sure_void, wait_features
from sichuan_mahjong.game.actions import ActionKind
from sichuan_mahjong.game.view import let_pass
from sichuan_mahjong.tiles import NUM_KINDS, Tile

OUT = Path(__file__).resolve().parents[1] / "src" / "sichuan_mahjong" / "agents" / "reader_model.py"
Rows = tuple[list[list[float]], list[list[float]], list[list[float]]]  # ready, wait, live: features + [label, hand]


def play(task: tuple[str, int, int]) -> Rows:
    """Rows of hands ``start`` .. ``stop - 1`` under a rule preset."""
    preset, start, stop = task
    rules = sm.Rules.preset(preset)
    ready_rows: list[list[float]] = []
    wait_rows: list[list[float]] = []
    live_rows: list[list[float]] = []
    for seed in range(start, stop):
        pending: list[tuple[int, int, int, list[float]]] = []  # (seat, kind, event index, features)
        bots = [make_agent("expert", seed=seed * 4 + i) for i in range(4)]
        game = sm.Game(rules, seed=seed)
        while not game.is_over:
            asked = game.to_act()
            for s, legal in asked.items():
                if game.phase != "play" or sum(1 for a in legal if a.kind is ActionKind.DISCARD) < 2:
                    continue
                view = game.view(s)
                h = read_view(view)
                at = len(game.events)
                for t in range(NUM_KINDS):
                    if h.unseen[t]:
                        pending.append((s, t, at, live_features(view, h.unseen, t)))
                for o in range(4):
                    if o == s or not view.active[o]:
                        continue
                    ready = game._is_ready(o)
                    ready_rows.append([*ready_features(view, o), float(ready), float(seed)])
                    if not ready:
                        continue
                    void = sure_void(view, o)
                    passed = let_pass(view, o, pending=True)
                    lock = game._lock[o]
                    for t in range(NUM_KINDS):
                        if t // 9 == void:
                            continue
                        wins = (
                            game._counts[o][t] < 4
                            and game._wins_with(o, t)
                            and (lock < 0 or game._own_fan(o, t) > lock)
                        )
                        wait_rows.append([*wait_features(view, h.unseen, o, t, t in passed), float(wins), float(seed)])
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})
        # The copies of each kind that reached each seat after each moment: drawn by it or discarded by another,
        # until it won.
        arrivals: list[tuple[int, int, int]] = []  # (event index, seat or -1 for a discard by seat ~s, kind)
        won_at = [len(game.events)] * 4
        for i, e in enumerate(game.events):
            if e.type == "draw":
                arrivals.append((i, e.seat, Tile.from_str(e.data["tile"]).index))
            elif e.type == "discard":
                arrivals.append((i, -1 - e.seat, Tile.from_str(e.data["tile"]).index))
            elif e.type == "win" and won_at[e.seat] == len(game.events):
                won_at[e.seat] = i
        for s, t, at, x in pending:
            n = sum(
                1
                for i, who, k in arrivals
                if k == t and at <= i < won_at[s] and (who == s or (who < 0 and -1 - who != s))
            )
            live_rows.append([*x, float(n), float(seed)])
    return ready_rows, wait_rows, live_rows


def fit_poisson(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], ridge: float = 1e-3) -> list[float]:
    """Poisson regression (log link) by Newton's method with a small ridge."""
    w = np.zeros(x.shape[1])
    w[0] = np.log(max(y.mean(), 1e-3))
    for _ in range(50):
        mu = np.exp(np.clip(x @ w, -30, 30))
        grad = x.T @ (mu - y) + ridge * w
        hess = (x * mu[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return [round(float(v), 4) for v in w]


def _poisson_check(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: list[float]) -> str:
    mu = np.exp(x @ np.array(w))
    dev = 2 * np.mean(np.where(y > 0, y * np.log(np.maximum(y, 1e-9) / mu), 0.0) - (y - mu))
    dev0 = 2 * np.mean(np.where(y > 0, y * np.log(np.maximum(y, 1e-9) / y.mean()), 0.0) - (y - y.mean()))
    cells = np.array_split(np.argsort(mu), 5)
    calib = " ".join(f"{mu[c].mean():.2f}/{y[c].mean():.2f}" for c in cells if len(c))
    return f"deviance {dev:.4f} (constant {dev0:.4f}); fitted/observed by quintile: {calib}"


def _calibration(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: list[float]) -> str:
    p = 1.0 / (1.0 + np.exp(-(x @ np.array(w))))
    eps = 1e-6
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
    base = y.mean()
    loss0 = -np.mean(y * np.log(base + eps) + (1 - y) * np.log(1 - base + eps))
    cells = np.array_split(np.argsort(p), 5)
    calib = " ".join(f"{p[c].mean():.3f}/{y[c].mean():.3f}" for c in cells if len(c))
    return f"log loss {loss:.4f} (constant {loss0:.4f}); fitted/observed by quintile: {calib}"


def _wrapped(w: list[float]) -> str:
    """Coefficients as Python literal lines, one a line (as ``ruff format`` writes a long tuple)."""
    return "\n".join(f"        {v}," for v in w)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000, help="hands per rule preset")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="print the fit and a held-out check, write nothing")
    args = parser.parse_args()
    start = time.perf_counter()
    base = 2_000_000 + args.seed * args.hands * 4
    chunk = 25
    model: dict[int, tuple[list[float], ...]] = {}
    sizes = []
    for fam, preset in enumerate(("seed", "app")):
        first = base + fam * args.hands * 2
        tasks = [(preset, first + a, first + min(args.hands, a + chunk)) for a in range(0, args.hands, chunk)]
        ready_rows: list[list[float]] = []
        wait_rows: list[list[float]] = []
        live_rows: list[list[float]] = []
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for i, part in enumerate(pool.map(play, tasks)):
                ready_rows += part[0]
                wait_rows += part[1]
                live_rows += part[2]
                print(f"\r{preset}: {(i + 1) * chunk}/{args.hands} hands", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        fitted: list[list[float]] = []
        for name, rows in (("ready", ready_rows), ("wait", wait_rows), ("live", live_rows)):
            data = np.array(rows, dtype=np.float64)
            x, y, hand = data[:, :-2], data[:, -2], data[:, -1]
            train = hand < first + args.hands * 0.8 if args.check else np.ones(len(y), dtype=bool)
            test = ~train if args.check else train
            if name == "live":
                w = fit_poisson(x[train], y[train])
                check = _poisson_check(x[test], y[test], w)
            else:
                w = fit_logistic(x[train], y[train])
                check = _calibration(x[test], y[test], w)
            fitted.append(w)
            print(f"{preset} {name}: {len(y)} rows, mean {y.mean():.4f}; w={w}")
            print(f"  {'held out' if args.check else 'in sample'}: {check}")
            sizes.append(len(y))
        model[int(sm.Rules.preset(preset).declare_void)] = tuple(fitted)
    print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.check:
        return
    ready, wait, live = (
        ",\n".join(f"    {fam}: (\n{_wrapped(ws[i])}\n    )" for fam, ws in sorted(model.items())) for i in range(3)
    )
    OUT.write_text(
        '"""The table-reading models of ``agents/reader.py``, fitted by ``scripts/fit_reader.py`` (regenerate it;\n'
        "do not edit by hand).\n\n"
        "``READY[void_rules]`` weighs :func:`~sichuan_mahjong.agents.reader.ready_features`, ``WAIT[void_rules]``\n"
        ":func:`~sichuan_mahjong.agents.reader.wait_features` (logistic), ``LIVE[void_rules]``\n"
        ":func:`~sichuan_mahjong.agents.reader.live_features` (Poisson), with ``void_rules`` 1 under 定缺 (R3.2).\n"
        f"Fitted on {sum(sizes[0::3])} (seat, decision), {sum(sizes[1::3])} (ready seat, tile) and\n"
        f"{sum(sizes[2::3])} (decision, unseen kind) rows of {2 * args.hands} hands of four experts"
        f" (seed {args.seed}).\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        '__all__ = ["LIVE", "READY", "WAIT"]\n\n'
        f"READY: dict[int, tuple[float, ...]] = {{\n{ready},\n}}\n"
        f"WAIT: dict[int, tuple[float, ...]] = {{\n{wait},\n}}\n"
        f"LIVE: dict[int, tuple[float, ...]] = {{\n{live},\n}}\n"
    )
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
