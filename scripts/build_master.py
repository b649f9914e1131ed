"""Rebuild every fitted part of the ``master`` bot from scratch, in order, each from its fixed seeds.

    .venv/bin/python scripts/build_master.py                 # the shipped recipe (about 2 hours on two cores)
    .venv/bin/python scripts/build_master.py --budget-min 20 # every collect's hands scaled to fit ~20 minutes
    .venv/bin/python scripts/build_master.py --scale 0.01 --check  # a quick run that writes nothing

The steps (docs/experiments.md gives each one's figures):

1. the table reader, ``scripts/fit_reader.py`` (P(ready), P(wins on t | ready), live copies);
2. the holding model, ``scripts/fit_holding.py`` (the copies each other seat holds);
3. the learned discards, app rules: ``scripts/discard_advantage.py collect``, 40,000 hands, seed 2; ``fit``;
4. the learned claims, app rules: ``collect --kind claim``, 40,000 hands each, seeds 11 and 12; ``fit``;
5. the learned claims, seed rules: 40,000 hands on seeds 11 and 12, 50,000 on 13 and 14; ``fit``;
6. the learned discards, seed rules, on the master's expert (``collect --live``, counting live copies: it reads
   the reader of step 1): 20,000 hands each, seeds 21 and 22; ``fit --lam 0.03``.

Each step writes its model into ``src/sichuan_mahjong/agents/`` (``--check``: none, the fits only print their
held-out checks) and the records into ``--out``. Everything runs on a compiled copy of the package built first
(``scripts/compile.py --into build/compiled``, as ``make test`` does; again after steps 1 and 2, whose models
the collects read; ``--pure``: none, slower); the collects run ``--jobs`` at a time and show one progress line:
hands done of all, time spent and left. ``--scale`` multiplies every collect's and fit's hands (a smaller
recipe gives other weights); ``--budget-min`` sets the scale from :data:`RATE`, the hands a core collects a
second here (compiled build), so that the collects take about that long. The same scale gives the same records
and weights: every hand is dealt and played from its seed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled"
#: Hands a core collects a second on this project's 2-core machine, compiled build (docs/experiments.md).
RATE = 24.0


@dataclass(frozen=True)
class Collect:
    rules: str
    kind: str
    seed: int
    hands: int
    live: bool = False

    @property
    def name(self) -> str:
        """The records' file, named as the shipped fits' notes name them (``app-2.jsonl``, ``claim-seed-11.jsonl``,
        ``live-seed-21.jsonl``)."""
        kind = "claim-" if self.kind == "claim" else "live-" if self.live else ""
        return f"{kind}{self.rules}-{self.seed}.jsonl"


@dataclass(frozen=True)
class Fit:
    title: str
    collects: tuple[Collect, ...]
    rules: str
    lam: float


FITS = (
    Fit("learned discards, app rules", (Collect("app", "discard", 2, 40_000),), "app", 0.01),
    Fit("learned claims, app rules", tuple(Collect("app", "claim", s, 40_000) for s in (11, 12)), "app", 0.01),
    Fit(
        "learned claims, seed rules",
        tuple(Collect("seed", "claim", s, n) for s, n in ((11, 40_000), (12, 40_000), (13, 50_000), (14, 50_000))),
        "seed",
        0.01,
    ),
    Fit(
        "learned discards, seed rules (the master's expert, live copies)",
        tuple(Collect("seed", "discard", s, 20_000, live=True) for s in (21, 22)),
        "seed",
        0.03,
    ),
)


def scaled(n: int, scale: float) -> int:
    return max(4, round(n * scale))


class Progress:
    """Hands a collect has finished (it writes one ``eligible`` line a hand), read on from where the last look
    stopped: its records run to hundreds of megabytes, read once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.hands = 0

    def done(self) -> int:
        if self.path.exists():
            with self.path.open("rb") as f:
                f.seek(self.offset)
                lines = f.read().split(b"\n")[:-1]  # complete lines only: the last may be still being written
            self.offset += sum(len(line) + 1 for line in lines)
            self.hands += sum(1 for line in lines if line.startswith(b'{"hand"') and b'"eligible"' in line)
        return self.hands


def clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}"


def run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"build_master: step failed ({done.returncode}): {' '.join(args)}")


def collect_all(collects: list[Collect], scale: float, jobs: int, out: Path, env: dict[str, str]) -> None:
    """Run the collects ``jobs`` at a time, one progress line for all of them."""
    total = sum(scaled(c.hands, scale) for c in collects)
    start = time.perf_counter()
    waiting = list(collects)
    running: list[tuple[Collect, subprocess.Popen[bytes], Progress]] = []
    finished = 0
    while waiting or running:
        while waiting and len(running) < jobs:
            c = waiting.pop(0)
            cmd = [sys.executable, "scripts/discard_advantage.py", "collect", "--rules", c.rules, "--kind", c.kind]
            cmd += ["--seed", str(c.seed), "--hands", str(scaled(c.hands, scale)), "--out", str(out / c.name)]
            cmd += ["--live"] if c.live else []
            with (out / c.name).with_suffix(".log").open("wb") as log:  # the child keeps its own copy
                proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
            running.append((c, proc, Progress(out / c.name)))
        time.sleep(1.0)
        for job in list(running):
            c, proc, _ = job
            if proc.poll() is not None:
                if proc.returncode:
                    raise SystemExit(f"build_master: collect {c.name} failed; see {(out / c.name).with_suffix('.log')}")
                running.remove(job)
                finished += scaled(c.hands, scale)
        done = finished + sum(progress.done() for _, _, progress in running)
        spent = time.perf_counter() - start
        left = spent / done * (total - done) if done else 0.0
        bar = "#" * (30 * done // max(1, total))
        print(
            f"\r  [{bar:30s}] {done:,}/{total:,} hands, {clock(spent)} spent, ~{clock(left)} left", end="", flush=True
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=None, help="every step's hands times this (default 1)")
    parser.add_argument("--budget-min", type=float, default=None, help="scale the collects to about this long")
    parser.add_argument("--jobs", type=int, default=2, help="collects at a time (default 2)")
    parser.add_argument("--out", default="build/master-data", help="where the records go")
    parser.add_argument("--check", action="store_true", help="fit and print, write no model")
    parser.add_argument("--pure", action="store_true", help="pure Python (no compiled copy: slower)")
    args = parser.parse_args()
    if args.scale is not None and args.budget_min is not None:
        parser.error("give --scale or --budget-min, not both")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    hands = sum(c.hands for f in FITS for c in f.collects)
    full_min = hands / (RATE * args.jobs) / 60
    if args.budget_min is not None:
        if args.budget_min <= 0:
            parser.error(f"--budget-min must be above 0, got {args.budget_min}")
        scale = min(1.0, args.budget_min / full_min)
    else:
        scale = 1.0 if args.scale is None else args.scale
        if scale <= 0:
            parser.error(f"--scale must be above 0, got {scale}")
    out = (ROOT / args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    check = ["--check"] if args.check else []
    print(f"scale {scale:.4g}: {round(hands * scale):,} hands to collect, about {full_min * scale:.0f} minutes")
    print(f"records in {out}; {'pure Python' if args.pure else f'the compiled build in {COMPILED}'}")

    def compiled_copy() -> None:
        """The compiled copy of the package, from the sources as they are now (it keeps copies of them); with
        ``--pure``, this checkout's sources (not whatever copy of the package the venv has installed)."""
        if args.pure:
            env["PYTHONPATH"] = str(ROOT / "src")
        else:
            run(["scripts/compile.py", "--into", str(COMPILED)], env)
            env["PYTHONPATH"] = str(COMPILED)

    compiled_copy()
    steps = 2 + len(FITS)
    print(f"[1/{steps}] the table reader")
    run(["scripts/fit_reader.py", "--hands", str(scaled(3000, scale)), "--jobs", str(args.jobs), *check], env)
    print(f"[2/{steps}] the holding model")
    run(["scripts/fit_holding.py", "--hands", str(scaled(1000, scale)), "--jobs", str(args.jobs), *check], env)
    if not args.check:
        compiled_copy()  # with the new models, which the collects below read
    for i, f in enumerate(FITS, start=3):
        print(f"[{i}/{steps}] {f.title}")
        collect_all(list(f.collects), scale, args.jobs, out, env)
        fit = ["scripts/discard_advantage.py", "fit", *(str(out / c.name) for c in f.collects)]
        run([*fit, "--lam", str(f.lam), *([] if args.check else ["--write", f.rules])], env)
    print(
        "done" + ("" if args.check else ": src/sichuan_mahjong/agents/*_model.py rewritten (git diff shows what moved)")
    )


if __name__ == "__main__":
    main()
