"""Fit the value of ``agents/value.py`` on expert games; write ``agents/value_weights.npz``.

Run: ``.venv/bin/python scripts/train_value.py [--hands 6000] [--epochs 4] [--jobs 2] [--seed 1000] [--check]``.
Needs the ``train`` extra (PyTorch on CPU); playing needs only numpy. The defaults rebuild the shipped weights
(about 4 minutes to play the hands with two processes and 2 to train, on this 2-core machine).

Four ``expert`` bots play seeded hands under the ``app`` rules (for the network under a 封顶 cap) and the
``seed`` rules (the one without), ``--hands`` each. Half the positions right after a draw (picked by a seeded
generator) are kept, each seen by every seat still in the hand: the position's features
(:func:`sichuan_mahjong.agents.value.features`) and that seat's points from there to the end of the hand, in
units of the base. A network with two hidden layers learns them by mean squared error; a tenth of the hands is
held out and its R² printed per epoch beside a linear fit's, and the epoch best on it is kept (the fit
overtakes the held-out hands after three or four). Torch's seed and the hands' seeds are fixed. ``--check``
fits and reports without writing the weights.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.value import HIDDEN, NUM_FEATURES, WEIGHTS, features
from sichuan_mahjong.game.position import position

#: The rule preset each network is fitted on.
PRESETS = {"capped": "app", "uncapped": "seed"}
Rows = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int32]]


def play(task: tuple[str, int, int]) -> Rows:
    """(features, points to the end of the hand / base, hand) of the positions kept in hands start..stop-1."""
    preset, start, stop = task
    rules = sm.Rules.preset(preset)
    xs: list[list[float]] = []
    ys: list[float] = []
    hands: list[int] = []
    for seed in range(start, stop):
        pick = random.Random(seed)
        bots = [make_agent("expert", seed=seed * 4 + i) for i in range(4)]
        game = sm.Game(rules, seed=seed)
        rows: list[tuple[list[float], int, int]] = []
        while not game.is_over:
            pos = position(game)
            if pos is not None and pick.random() < 0.5:
                deltas = game.deltas
                rows += [(features(pos, me, rules), me, deltas[me]) for me in range(4) if pos.active[me]]
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
        final = game.deltas
        for x, me, before in rows:
            xs.append(x)
            ys.append((final[me] - before) / game.base)
            hands.append(seed)
    return np.asarray(xs, np.float32), np.asarray(ys, np.float32), np.asarray(hands, np.int32)


def collect(preset: str, hands: int, seed: int, jobs: int) -> Rows:
    chunk = 100
    tasks = [(preset, seed + a, seed + min(hands, a + chunk)) for a in range(0, hands, chunk)]
    parts: list[Rows] = []
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(play, tasks):
            parts.append(part)
            print(f"\r{preset}: {sum(len(p[0]) for p in parts):,} positions, {len(parts) * chunk:,} hands", end="",
                  file=sys.stderr, flush=True)  # fmt: skip
    print(file=sys.stderr)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


def fit(rows: Rows, epochs: int, deadline: float) -> dict[str, npt.NDArray[np.float32]]:
    torch: Any = importlib.import_module("torch")  # the ``train`` extra, not a dependency of the package
    torch.manual_seed(0)
    torch.set_num_threads(1)
    x, y, hands = rows
    held = hands % 10 == 0
    linear = np.linalg.lstsq(np.c_[x[~held], np.ones((~held).sum())], y[~held], rcond=None)[0]
    guess = np.c_[x[held], np.ones(held.sum())] @ linear
    print(f"  linear fit: held-out R² {1 - ((guess - y[held]) ** 2).mean() / y[held].var():.4f}")
    xt, yt = torch.tensor(x[~held]), torch.tensor(y[~held])[:, None]
    xv, yv = torch.tensor(x[held]), torch.tensor(y[held])[:, None]
    net = torch.nn.Sequential(
        torch.nn.Linear(NUM_FEATURES, HIDDEN),
        torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, HIDDEN),
        torch.nn.ReLU(),
        torch.nn.Linear(HIDDEN, 1),
    )
    opt = torch.optim.Adam(net.parameters(), 1e-3)
    best: tuple[float, dict[str, Any]] = (-np.inf, {})
    for epoch in range(epochs):
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 512):
            idx = perm[i : i + 512]
            loss = ((net(xt[idx]) - yt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            r2 = 1 - ((net(xv) - yv) ** 2).mean().item() / yv.var().item()
        print(f"  epoch {epoch + 1}: held-out R² {r2:.4f}", flush=True)
        if r2 > best[0]:
            layers = [p.detach().numpy().astype(np.float32).copy() for p in net.parameters()]
            best = (r2, dict(zip(("w1", "b1", "w2", "b2", "w3", "b3"), layers, strict=True)))
        if time.monotonic() > deadline:
            break
    return best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=6000, help="hands per rule set")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000, help="the first hand's seed")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop training after this long")
    parser.add_argument("--check", action="store_true", help="report the fit without writing the weights")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args()
    deadline = time.monotonic() + 60 * args.minutes
    weights: dict[str, Any] = {}
    for model, preset in PRESETS.items():
        rows = collect(preset, args.hands, args.seed, args.jobs)
        print(f"{model} ({preset} rules): {len(rows[0]):,} positions")
        weights |= {f"{model}_{k}": v for k, v in fit(rows, args.epochs, deadline).items()}
    if args.check:
        return
    np.savez(args.out, **weights)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
