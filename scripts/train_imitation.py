"""Train the policy of ``benchmarks/learned.py`` by imitating the expert; write ``benchmarks/learned_weights.npz``.

Run: ``.venv/bin/python scripts/train_imitation.py [--hands 3000] [--epochs 5] [--jobs 2] [--seed 0]
[--minutes 60] [--check]``. Needs the ``train`` extra (PyTorch on CPU); playing needs only numpy. The defaults
rebuild the shipped weights (about 15 minutes on this 2-core machine).

Four ``expert`` bots play seeded hands under the ``seed`` and the ``app`` rules (``--hands`` each). At every
decision with more than one legal answer, each asked seat's view is encoded (:mod:`sichuan_mahjong.agents.
features`, the RL environments' planes) beside its legal answers and the expert's choice. The network of
``benchmarks/learned.py`` (convolutions over the kinds of each suit, then a score per kind and one per other action)
learns the expert's choice by cross-entropy over the legal answers only; a tenth of the hands is held out and
the agreement with the expert on it printed per epoch.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # the experiment's own module
from learned import HIDDEN, PENDING, WIDTH

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.features import NUM_PLANES, encode
from sichuan_mahjong.game.actions import NUM_ACTIONS

OUT = Path(__file__).resolve().parents[1] / "benchmarks" / "learned_weights.npz"
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
    """Fit the network of ``benchmarks/learned.py``; its weights by name (``c1_weight``, ...)."""
    # The `train` extra, typed as Any: mypy checks this script the same with or without PyTorch installed.
    torch: Any = importlib.import_module("torch")
    nn = torch.nn
    torch.manual_seed(seed)
    x, m, y, h = data
    held = (h % 10) == 0  # a tenth of the hands, held out
    net = nn.ModuleDict(
        {
            "c1": nn.Conv1d(NUM_PLANES, WIDTH, 3, padding=1),
            "c2": nn.Conv1d(WIDTH, WIDTH, 3, padding=1),
            "c3": nn.Conv1d(WIDTH, WIDTH, 3, padding=1),
            "kind": nn.Linear(WIDTH, 3),
            "g1": nn.Linear(3 * WIDTH, HIDDEN),
            "g2": nn.Linear(HIDDEN, NUM_ACTIONS - 81),
        }
    )

    def forward(batch: Any) -> Any:  # as benchmarks/learned.py's policy_logits, for a batch
        b = batch.shape[0]
        planes = batch.view(b, NUM_PLANES, 27)
        suits = planes.view(b, NUM_PLANES, 3, 9).permute(0, 2, 1, 3).reshape(b * 3, NUM_PLANES, 9)
        f = torch.relu(net["c1"](suits))
        f = torch.relu(net["c2"](f)) + f
        f = torch.relu(net["c3"](f)) + f
        kinds = f.view(b, 3, WIDTH, 9).permute(0, 1, 3, 2).reshape(b, 27, WIDTH)
        per_kind = net["kind"](kinds).permute(0, 2, 1).reshape(b, 81)
        claimed = (planes[:, PENDING, :].unsqueeze(2) * kinds).sum(1)
        pooled = torch.cat([kinds.mean(1), kinds.max(1).values, claimed], dim=1)
        return torch.cat([per_kind, net["g2"](torch.relu(net["g1"](pooled)))], dim=1)

    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    arrays = (x.astype(np.float32), m, y.astype(np.int64))  # converted once: x is about 1.5 GB in float16
    xt, mt, yt = (torch.from_numpy(a[~held]) for a in arrays)
    xv, mv, yv = (torch.from_numpy(a[held]) for a in arrays)
    print(f"{len(yt)} decisions to learn from, {len(yv)} held out", file=sys.stderr)
    discards = mv[:, :27].sum(1) > 2
    start = time.perf_counter()
    batch = 512
    for epoch in range(epochs):
        order = torch.randperm(len(yt))
        total = 0.0
        for b in range(0, len(yt), batch):
            idx = order[b : b + batch]
            loss = torch.nn.functional.cross_entropy(forward(xt[idx]).masked_fill(~mt[idx], -1e9), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        with torch.no_grad():
            parts = [forward(xv[i : i + 4096]).masked_fill(~mv[i : i + 4096], -1e9) for i in range(0, len(yv), 4096)]
            right = torch.cat(parts).argmax(1) == yv
        elapsed = time.perf_counter() - start
        print(
            f"epoch {epoch + 1}: loss {total / len(yt):.4f}, held-out agreement {float(right.float().mean()):.4f},"
            f" on discards of three choices or more {float(right[discards].float().mean()):.4f} ({elapsed:.0f} s)"
        )
        if elapsed > minutes * 60:
            break
    return {k.replace(".", "_"): v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000, help="hands per rule preset")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=60.0, help="stop training after this long")
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
