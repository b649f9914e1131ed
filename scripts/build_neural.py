"""Rebuild the ``neural`` bot (``agents/neural.py``) from scratch, from fixed seeds: data, features, training.

    .venv/bin/python scripts/build_neural.py                  # the shipped recipe (about 25 minutes on two cores)
    .venv/bin/python scripts/build_neural.py --budget-min 10  # the hands and the training scaled to ~10 minutes
    .venv/bin/python scripts/build_neural.py --scale 0.01 --check   # a quick run that writes nothing

The steps:

1. the data: ``scmj dataset --agent expert --hands 4000 --rules app --seed 40`` (:mod:`sichuan_mahjong.rl.
   dataset`; four experts, every decision of every seat as the env's observation), into ``--out``; a dataset
   already there from the same recipe is reused;
2. the features: the decisions with a choice (two legal actions or more), their planes and the features
   :func:`~sichuan_mahjong.agents.neural.derived` computes from them, ``--jobs`` processes;
3. the training (the ``train`` extra: PyTorch on CPU; ``torch.manual_seed(40)``): the network of
   ``agents/neural.py`` learns the expert's choice by cross-entropy over the legal actions (the mask on the
   logits), Adam, :data:`EPOCHS` epochs or ``--train-min`` minutes, whichever ends first; a tenth of the hands
   is held out and the agreement with the expert on it printed after each epoch;
4. the weights, float16, into ``src/sichuan_mahjong/agents/neural_weights.npz`` (``--check``: not written).

Each step shows one progress line. ``--scale`` multiplies the hands (a smaller recipe gives other weights);
``--budget-min`` sets the scale from :data:`RATE` (hands a core plays and featurizes a second here) so that the
data takes about half the budget, and gives training the other half. The same scale gives the same data and
the same initial weights and batches; the trained weights may still differ in the last bits (the order of
floating-point sums across torch's threads), and training stopped by ``--train-min`` depends on the machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sichuan_mahjong" / "agents" / "neural_weights.npz"
#: The recipe: hands of four experts under the app rules, the data's seed, torch's seed, epochs.
HANDS, RULES, SEED, EPOCHS = 4000, "app", 40, 8
#: Hands a core plays (four experts) and featurizes a second on this project's loaded 2-core machine.
RATE = 6.0
BATCH = 256
Arrays = dict[str, npt.NDArray[Any]]


def clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}"


class Line:
    """One progress line: done of total, time spent and left."""

    def __init__(self, total: int, unit: str) -> None:
        self.total, self.unit, self.done, self.start = total, unit, 0, time.perf_counter()

    def add(self, n: int) -> None:
        self.done += n
        spent = time.perf_counter() - self.start
        left = spent / self.done * (self.total - self.done) if self.done else 0.0
        bar = "#" * (30 * self.done // max(1, self.total))
        print(
            f"\r  [{bar:30s}] {self.done:,}/{self.total:,} {self.unit}, {clock(spent)} spent, ~{clock(left)} left",
            end="",
            flush=True,
        )

    def close(self) -> None:
        print(flush=True)


def collect(out: Path, hands: int, jobs: int) -> Path:
    from sichuan_mahjong.rl import dataset

    where = out / f"expert-{RULES}-{SEED}-{hands}"
    recipe = {"agents": ["expert"] * 4, "hands": hands, "seed": SEED}
    if (where / "manifest.json").exists():
        man = dataset.manifest(where)
        if {k: man.get(k) for k in recipe} == recipe:
            print(f"  reusing {where} ({man['decisions']:,} decisions)")
            return where
        shutil.rmtree(where)
    line = Line(hands, "hands")
    man = dataset.write(where, "expert", hands, RULES, seed=SEED, jobs=jobs, shard_hands=50, on_hands=line.add)
    line.close()
    print(f"  {man['decisions']:,} decisions in {where}")
    return where


def featurize(task: tuple[str, str]) -> Arrays:
    """The decisions with a choice of one shard: planes (float16, flat), derived features, mask, action, hand."""
    from sichuan_mahjong.agents.neural import derived

    directory, name = task
    with np.load(Path(directory) / name) as data:
        obs, mask, action, hand = data["observation"], data["action_mask"], data["action"], data["hand"]
    keep = np.flatnonzero(mask.sum(1) > 1)
    feats = [derived(obs[i]) for i in keep]
    return {
        "planes": obs[keep].reshape(len(keep), -1).astype(np.float16),
        "kinds": np.asarray([f[0] for f in feats], dtype=np.float16).reshape(len(keep), -1),
        "glob": np.asarray([f[1] for f in feats], dtype=np.float16).reshape(len(keep), -1),
        "mask": mask[keep].astype(bool),
        "action": action[keep].astype(np.int64),
        "hand": hand[keep],
    }


def features(where: Path, jobs: int) -> Arrays:
    shards = json.loads((where / "manifest.json").read_text())["shards"]
    line = Line(len(shards), "shards")
    parts = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(featurize, [(str(where), s["file"]) for s in shards]):
            parts.append(part)
            line.add(1)
    line.close()
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def train(data: Arrays, epochs: int, minutes: float) -> dict[str, npt.NDArray[np.float32]]:
    """Fit the network of agents/neural.py; its weights by name (``t1_weight``, ...)."""
    # The `train` extra, typed as Any: mypy checks this script the same with or without PyTorch installed.
    torch: Any = importlib.import_module("torch")
    from sichuan_mahjong.agents.features import NUM_PLANES
    from sichuan_mahjong.agents.neural import CONTEXT, EXCHANGE, HIDDEN, KIND_HIDDEN
    from sichuan_mahjong.agents.neural import GLOBAL_FEATURES as G
    from sichuan_mahjong.agents.neural import KIND_FEATURES as KF

    nn = torch.nn
    torch.manual_seed(SEED)
    net = nn.ModuleDict(
        {
            "t1": nn.Linear(NUM_PLANES * 27 + G, HIDDEN),
            "t2": nn.Linear(HIDDEN, HIDDEN),
            "other": nn.Linear(HIDDEN, 8),
            "ctx": nn.Linear(HIDDEN, CONTEXT),
            "k1": nn.Linear(NUM_PLANES + KF + CONTEXT, KIND_HIDDEN),
            "k2": nn.Linear(KIND_HIDDEN, 4),
        }
    )
    exchange = torch.from_numpy(EXCHANGE)

    def forward(planes: Any, kinds: Any, glob: Any) -> Any:  # as agents/neural.py's logits, for a batch
        b = planes.shape[0]
        h = torch.relu(net["t1"](torch.cat([planes, glob], 1)))
        h = torch.relu(net["t2"](h))
        ctx = net["ctx"](h).unsqueeze(1).expand(b, 27, CONTEXT)
        z = torch.cat([planes.view(b, NUM_PLANES, 27).transpose(1, 2), kinds.view(b, 27, KF), ctx], 2)
        o = net["k2"](torch.relu(net["k1"](z)))  # (b, 27, 4)
        return torch.cat([o[:, :, 0], o[:, :, 1], o[:, :, 2], net["other"](h), o[:, :, 3] @ exchange.T], 1)

    held = (data["hand"] % 10) == 0
    tensors = {k: torch.from_numpy(v) for k, v in data.items() if k != "hand"}
    train_idx = torch.from_numpy(np.flatnonzero(~held))
    held_idx = torch.from_numpy(np.flatnonzero(held))
    print(f"  {len(train_idx):,} decisions to learn from, {len(held_idx):,} held out")

    def batch(idx: Any) -> tuple[Any, Any]:
        x = [tensors[k][idx].float() for k in ("planes", "kinds", "glob")]
        return forward(*x).masked_fill(~tensors["mask"][idx], -1e9), tensors["action"][idx]

    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    steps = epochs * ((len(train_idx) + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=max(1, steps))
    start = time.perf_counter()
    for epoch in range(epochs):
        order = train_idx[torch.randperm(len(train_idx))]
        line = Line(len(order), f"decisions (epoch {epoch + 1}/{epochs})")
        total = 0.0
        for b in range(0, len(order), BATCH):
            idx = order[b : b + BATCH]
            out, target = batch(idx)
            loss = torch.nn.functional.cross_entropy(out, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.item()) * len(idx)
            if (b // BATCH) % 50 == 49 or b + BATCH >= len(order):
                line.add(min(b + BATCH, len(order)) - line.done)
        line.close()
        with torch.no_grad():
            right = torch.cat([(batch(held_idx[i : i + 4096])[0].argmax(1) == tensors["action"][held_idx[i : i + 4096]])
                               for i in range(0, len(held_idx), 4096)])  # fmt: skip
        spent = time.perf_counter() - start
        agreement = float(right.float().mean()) if len(right) else float("nan")
        print(f"  epoch {epoch + 1}: loss {total / max(1, len(order)):.4f}, held-out agreement {agreement:.4f}")
        if spent > minutes * 60 and epoch + 1 < epochs:
            print(f"  stopped after {clock(spent)} (--train-min {minutes:g})")
            break
    return {k.replace(".", "_"): v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=None, help="the recipe's hands times this (default 1)")
    parser.add_argument("--budget-min", type=float, default=None, help="scale the whole build to about this long")
    parser.add_argument("--epochs", type=int, default=EPOCHS, help=f"training epochs (default {EPOCHS})")
    parser.add_argument("--train-min", type=float, default=12.0, help="stop training after this long (default 12)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the data and features (default 2)")
    parser.add_argument("--out", default="build/neural-data", help="where the dataset goes")
    parser.add_argument("--check", action="store_true", help="train and report, write no weights")
    args = parser.parse_args()
    if args.scale is not None and args.budget_min is not None:
        parser.error("give --scale or --budget-min, not both")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    full_min = HANDS / (RATE * args.jobs) / 60
    minutes = args.train_min
    if args.budget_min is not None:
        if args.budget_min <= 0:
            parser.error(f"--budget-min must be above 0, got {args.budget_min}")
        scale = min(1.0, args.budget_min / 2 / full_min)
        minutes = min(minutes, args.budget_min / 2)
    else:
        scale = 1.0 if args.scale is None else args.scale
        if scale <= 0:
            parser.error(f"--scale must be above 0, got {scale}")
    try:
        importlib.import_module("torch")
    except ImportError:
        parser.error("training needs PyTorch: pip install -e '.[train]' (CPU is enough)")
    hands = max(4, round(HANDS * scale))
    out = (ROOT / args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    print(f"scale {scale:.4g}: {hands:,} hands of four experts, about {full_min * scale:.0f} minutes of data")
    print(f"[1/4] the data: every decision of {hands:,} hands ({RULES} rules, seed {SEED})")
    where = collect(out, hands, args.jobs)
    print("[2/4] the features of the decisions with a choice")
    data = features(where, args.jobs)
    print(f"[3/4] the training: up to {args.epochs} epochs or {minutes:g} minutes")
    weights = train(data, args.epochs, minutes)
    if args.check:
        print("[4/4] the weights: not written (--check)")
    else:
        np.savez_compressed(OUT, **{k: v.astype(np.float16) for k, v in weights.items()})  # type: ignore[arg-type]
        print(f"[4/4] the weights: {OUT.relative_to(ROOT)} ({OUT.stat().st_size / 1024:.0f} KiB)")
    print(f"done in {clock(time.perf_counter() - start)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
