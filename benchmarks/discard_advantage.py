"""What each near-equal discard is worth, by experiment: four experts play, and at some of the discards near ready
a seat plays one of the expert's best few at random. The draw is random, so outcomes compared across candidates
measure each candidate's worth with the hidden hands as real play deals them (no sampler, no play-out policy).

``collect``: play hands, write one JSON line per randomized decision (each candidate's features as a difference
from the expert's choice, the decision's own features, the candidate played, this seat's points from then on)
and a line per seat and hand counting the decisions that had a choice. ``fit``: a ridge regression of the
outcome on the played candidate's features, centred on the candidates' mean (so that whatever the decision is
worth cancels out), the decision's features as a baseline; then, on held-out hands, what choosing by the fit
would gain over the expert, an unbiased estimate from the random draws (inverse propensity, baseline-corrected),
per decision and per seat and hand.

    PYTHONPATH=build/compiled .venv/bin/python benchmarks/discard_advantage.py collect --rules app \
        --hands 40000 --seed 2 --out app-2.jsonl
    .venv/bin/python benchmarks/discard_advantage.py fit app-2.jsonl --lam 0.01 --write app
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import sichuan_mahjong as sm
from sichuan_mahjong.agents.advantage import (
    CANDIDATE_FEATURES,
    advantage_choice,
    discard_candidates,
    discard_features,
    plain_discard,
)
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.state import Game

#: Margins tried (held out): the fit must price a candidate this far above the expert's choice to play it.
MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.6)


def collect(rules: sm.Rules, hands: int, seed: int, explore: float, out: Any, behaviour: str = "expert") -> None:
    """``behaviour``: what a seat plays where it does not draw at random, ``expert`` or ``advantage`` (the
    expert's discard replaced by the fitted advantage's, :func:`advantage_choice`: a fit's own data)."""
    for n in range(hands):
        game = Game(rules, seed=seed * 100_003 + n)
        bots = [ExpertAgent(7 * n + s) for s in range(4)]
        rng = random.Random(seed * 1_000_003 + n)
        pending: list[tuple[int, dict[str, Any], int]] = []
        eligible = [0] * 4
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                a = bots[s].act(view, legal)
                discards = [b.tile_index for b in legal if b.kind is ActionKind.DISCARD]
                if plain_discard(view, legal, a) and len(discards) > 1:
                    h = read_view(view)
                    read = bots[s]._read(view, h)
                    cands = discard_candidates(bots[s], view, h, read, discards)
                    if len(cands) > 1 and cands[0][1] == a.tile_index:
                        eligible[s] += 1
                        if behaviour == "advantage":
                            a = advantage_choice(bots[s], view, legal, a)
                        if rng.random() < explore:
                            x, state = discard_features(bots[s], view, h, read, cands)
                            i = rng.randrange(len(cands))
                            a = Action.discard(cands[i][1])
                            record = {"hand": n, "seat": s, "wall": view.wall_count, "x": x, "state": state, "i": i}
                            pending.append((s, record, game.deltas[s]))
                answers[s] = a
            game.step(answers)
        for s, record, before in pending:
            record["y"] = float(game.deltas[s] - before)
            out.write(json.dumps(record) + "\n")
        out.write(json.dumps({"hand": n, "eligible": eligible}) + "\n")
        out.flush()
        if n % 20 == 0:
            print(f"\rhand {n + 1}/{hands}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def load(paths: Sequence[str]) -> tuple[list[dict[str, Any]], dict[int, list[int]]]:
    records, eligible = [], {}
    for k, path in enumerate(paths):
        with open(path) as f:
            for line in f:
                if not line.endswith("\n"):
                    break  # a collect still writing
                r = json.loads(line)
                r["hand"] = (k, r["hand"])
                if "eligible" in r:
                    eligible[r["hand"]] = r["eligible"]
                else:
                    records.append(r)
    return records, eligible


def design(records: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centred features of the candidate played, the decision's own features, outcomes)."""
    xs = np.array([np.array(r["x"][r["i"]]) - np.mean(r["x"], axis=0) for r in records])
    ss = np.array([r["state"] for r in records])
    ys = np.array([r["y"] for r in records])
    return xs, ss, ys


def ridge(a: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    scale = a.std(axis=0) + 1e-9
    scale[0] = 1.0 if np.allclose(a[:, 0], 1.0) else scale[0]
    z = a / scale
    coef = np.linalg.solve(z.T @ z + lam * len(y) * np.eye(a.shape[1]), z.T @ y)
    return np.asarray(coef / scale)


def fit_weights(records: list[dict[str, Any]], lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(weights of the candidate features, of the baseline)."""
    xs, ss, ys = design(records)
    base = ridge(ss, ys, 1e-6)
    w = ridge(xs, ys - ss @ base, lam)
    return w, base


def policy_gain(records: list[dict[str, Any]], w: np.ndarray, base: np.ndarray, margin: float) -> list[float]:
    """Per decision: (1[played = the fit's choice] - 1[played = the expert's]) x candidates x (y - baseline)."""
    out = []
    for r in records:
        adv = np.array(r["x"]) @ w
        pick = int(np.argmax(adv)) if adv.max() > margin else 0
        k = len(r["x"])
        resid = r["y"] - float(np.array(r["state"]) @ base)
        out.append(((r["i"] == pick) - (r["i"] == 0)) * k * resid)
    return out


def _ci(xs: Sequence[float]) -> str:
    m = float(np.mean(xs))
    se = float(np.std(xs, ddof=1) / math.sqrt(len(xs))) if len(xs) > 1 else float("nan")
    return f"{m:+.4f} [{m - 1.96 * se:+.4f}, {m + 1.96 * se:+.4f}]"


MODEL = Path(__file__).resolve().parent.parent / "src" / "sichuan_mahjong" / "agents" / "advantage_model.py"


def write_model(cap: bool, weights: np.ndarray, margin: float, note: str) -> None:
    """Set ``ADVANTAGE[cap]`` in agents/advantage_model.py, keeping the other rule set's entry and note (laid
    out as ``ruff format`` would)."""
    model: dict[bool, tuple[tuple[float, ...], float]] = {}
    notes = {True: "", False: ""}
    if MODEL.exists():
        namespace: dict[str, Any] = {}
        exec(MODEL.read_text(), namespace)
        model, notes = dict(namespace["ADVANTAGE"]), dict(namespace["NOTES"])
    model[cap] = (tuple(round(float(v), 5) for v in weights), margin)
    notes[cap] = note
    lines = [
        '"""The fitted advantage of :mod:`~sichuan_mahjong.agents.advantage`, written by',
        "``benchmarks/discard_advantage.py fit --write`` (regenerate it; do not edit by hand).",
        "",
        "``ADVANTAGE[capped]`` is (weights of ``CANDIDATE_FEATURES``, margin): a candidate replaces the expert's",
        "discard when its weighted features exceed the margin; ``capped`` is True under a 封顶 cap (fitted on app",
        'rules), False without one (seed rules). ``NOTES`` says what each was fitted on."""',
        "",
        "from __future__ import annotations",
        "",
        '__all__ = ["ADVANTAGE", "NOTES"]',
        "",
        "ADVANTAGE: dict[bool, tuple[tuple[float, ...], float]] = {",
    ]
    for key in (True, False):
        if key in model:
            w, m = model[key]
            lines.append(f"    {key}: (")
            lines.append("        (")
            lines += [f"            {v!r}," for v in w]
            lines.append("        ),")
            lines.append(f"        {m!r},")
            lines.append("    ),")
    lines.append("}")
    lines.append("NOTES: dict[bool, str] = {")
    lines += [f"    {key}: {json.dumps(notes[key])}," for key in (True, False)]
    lines.append("}")
    MODEL.write_text("\n".join(lines) + "\n")


def fit(paths: Sequence[str], lam: float, folds: int, write: str | None) -> None:
    records, eligible = load(paths)
    per_seat_hand = sum(sum(e) for e in eligible.values()) / (4 * len(eligible))
    print(f"{len(records)} randomized decisions, {len(eligible)} hands, {per_seat_hand:.2f} with a choice a seat-hand")
    keys = sorted({r["hand"] for r in records})
    fold_of = {k: i % folds for i, k in enumerate(keys)}
    best_margin, best_gain = 0.0, -math.inf
    for margin in MARGINS:
        gains: list[float] = []
        deviate = 0
        for f in range(folds):
            train = [r for r in records if fold_of[r["hand"]] != f]
            test = [r for r in records if fold_of[r["hand"]] == f]
            w, base = fit_weights(train, lam)
            gains += policy_gain(test, w, base, margin)
            deviate += sum(1 for r in test if (np.array(r["x"]) @ w).max() > margin)
        share = deviate / len(records)
        mean = float(np.mean(gains))
        print(
            f"margin {margin:.1f}: deviates at {share:.1%} of decisions; gain a decision {_ci(gains)};"
            f" a seat-hand ~{mean * per_seat_hand:+.3f}"
        )
        if mean > best_gain:
            best_margin, best_gain = margin, mean
    w, base = fit_weights(records, lam)
    xs, _, _ = design(records)
    print("weights (all data), points per unit:")
    for name, v, sd in zip(CANDIDATE_FEATURES, w, xs.std(axis=0), strict=True):
        print(f"  {name:22s} {v:+.4f}  (x sd {sd:.3f})")
    if write is not None:
        files = ", ".join(Path(p).name for p in paths)
        note = f"{len(records)} random draws, {len(eligible)} hands ({files}), lam {lam}"
        write_model(write == "app", w, best_margin, note)
        print(f"wrote {MODEL} ({write}: margin {best_margin}, the best held out)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--rules", default="seed")
    c.add_argument("--hands", type=int, default=1000)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--explore", type=float, default=0.35, help="share of decisions with a choice randomized")
    c.add_argument("--behaviour", choices=("expert", "advantage"), default="expert")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("paths", nargs="+")
    f.add_argument("--lam", type=float, default=1e-3)
    f.add_argument("--folds", type=int, default=5)
    f.add_argument("--write", choices=("app", "seed"), help="write the fit to agents/advantage_model.py")
    args = p.parse_args()
    if args.cmd == "collect":
        with open(args.out, "w") as out:
            collect(sm.Rules.preset(args.rules), args.hands, args.seed, args.explore, out, args.behaviour)
    else:
        fit(args.paths, args.lam, args.folds, args.write)


if __name__ == "__main__":
    main()
