"""Train the policy of ``agents/learned.py`` by imitating the expert; write ``agents/learned_weights.npz``.

Run: ``.venv/bin/python scripts/train_imitation.py [--hands 1500] [--epochs 6] [--jobs 2] [--seed 0]
[--minutes 30] [--check]``. Needs the ``train`` extra (PyTorch on CPU); playing needs only numpy.

Four ``expert`` bots play seeded hands under the ``seed`` and the ``app`` rules (``--hands`` each). At every
decision with more than one legal answer, each asked seat's view is encoded (:mod:`sichuan_mahjong.agents.
features`, the RL environments' planes) beside its legal answers and the expert's choice. A small network
(planes -> 256 -> 256 -> the 584 actions, ReLU) learns the expert's choice by cross-entropy over the legal
answers only; a tenth of the hands is held out and the agreement with the expert on it printed per epoch.
Training stops after ``--epochs`` or ``--minutes``, whichever comes first; torch's seed and the hands' seeds
are fixed. ``--check`` trains and reports without writing the weights.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.features import encode
from sichuan_mahjong.agents.learned import HIDDEN
from sichuan_mahjong.game.actions import NUM_ACTIONS

OUT = Path(__file__).resolve().parents[1] / "src" / "sichuan_mahjong" / "agents" / "learned_weights.npz"
Rows = tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], npt.NDArray[np.int16], npt.NDArray[np.int32]]


def play(task: tuple[str, int, int]) -> Rows:
    """(planes, legal masks, the expert's action, hand) of every decision with a choice in hands start..stop-1."""
    preset, start, stop = task
    rules = sm.Rules.preset(preset)
    xs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    ys: list[int] = []
    hands: list[int] = []
    for seed in range(start, stop):
        bots = [make_agent("expert", seed=seed * 4 + i) for i in range(4)]
        game = sm.Game(rules, seed=seed)
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                answers[s] = bots[s].act(view, legal)
                if len(legal) > 1:
                    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
                    mask[[a.index for a in legal]] = True
                    xs.append(encode(view))
                    masks.append(mask)
                    ys.append(answers[s].index)
                    hands.append(seed)
            game.step(answers)
    return (
        np.asarray(xs, dtype=np.float16).reshape(len(xs), -1),
        np.asarray(masks, dtype=np.bool_),
        np.asarray(ys, dtype=np.int16),
        np.asarray(hands, dtype=np.int32),
    )


def collect(hands: int, seed: int, jobs: int) -> Rows:
    base = 3_000_000 + seed * hands * 4
    chunk = 25
    parts: list[Rows] = []
    for fam, preset in enumerate(("seed", "app")):
        first = base + fam * hands * 2
        tasks = [(preset, first + a, first + min(hands, a + chunk)) for a in range(0, hands, chunk)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for i, part in enumerate(pool.map(play, tasks)):
                parts.append(part)
                done = min(hands, (i + 1) * chunk)
                print(
                    f"\r{preset}: {done}/{hands} hands, {sum(len(p[2]) for p in parts)} decisions",
                    end="",
                    file=sys.stderr,
                )
        print(file=sys.stderr)
    x, m, y, h = (np.concatenate([p[i] for p in parts]) for i in range(4))
    return x, m, y, h


def train(data: Rows, epochs: int, minutes: float, seed: int) -> dict[str, npt.NDArray[np.float32]]:
    # The `train` extra, typed as Any: mypy checks this script the same with or without PyTorch installed.
    torch: Any = importlib.import_module("torch")

    torch.manual_seed(seed)
    x, m, y, h = data
    held = (h % 10) == 0  # a tenth of the hands, held out
    inputs = x.shape[1]
    layers = [torch.nn.Linear(inputs, HIDDEN), torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.Linear(HIDDEN, NUM_ACTIONS)]
    net = torch.nn.Sequential(layers[0], torch.nn.ReLU(), layers[1], torch.nn.ReLU(), layers[2])
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    xt = torch.from_numpy(x[~held].astype(np.float32))
    mt = torch.from_numpy(m[~held])
    yt = torch.from_numpy(y[~held].astype(np.int64))
    xv = torch.from_numpy(x[held].astype(np.float32))
    mv = torch.from_numpy(m[held])
    yv = torch.from_numpy(y[held].astype(np.int64))
    print(f"{len(yt)} decisions to learn from, {len(yv)} held out", file=sys.stderr)
    start = time.perf_counter()
    batch = 512
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(yt))
        total = 0.0
        for b in range(0, len(yt), batch):
            idx = order[b : b + batch]
            logits = net(xt[idx]).masked_fill(~mt[idx], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        net.eval()
        with torch.no_grad():
            agree = float((net(xv).masked_fill(~mv, -1e9).argmax(1) == yv).float().mean())
        elapsed = time.perf_counter() - start
        print(f"epoch {epoch + 1}: loss {total / len(yt):.4f}, held-out agreement {agree:.4f} ({elapsed:.0f} s)")
        if elapsed > minutes * 60:
            break
    out: dict[str, npt.NDArray[np.float32]] = {}
    for i, layer in enumerate(layers):
        out[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32)
        out[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1500, help="hands per rule preset")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--minutes", type=float, default=30.0, help="stop training after this long")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="train and report, write nothing")
    args = parser.parse_args()
    start = time.perf_counter()
    data = collect(args.hands, args.seed, args.jobs)
    print(f"collected in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    weights = train(data, args.epochs, args.minutes, args.seed)
    if not args.check:
        halves: dict[str, Any] = {k: v.astype(np.float16) for k, v in weights.items()}
        np.savez_compressed(OUT, **halves)
        print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB)")
    print(f"{time.perf_counter() - start:.0f} s in all", file=sys.stderr)


if __name__ == "__main__":
    main()
