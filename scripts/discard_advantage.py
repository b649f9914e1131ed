"""What each near-equal discard (or each answer to a discard one may claim) is worth, by experiment: four experts
play, and at some of the discards near ready a seat plays one of the expert's best few at random (``--kind
claim``: at some of the discards it may pung or kong, it passes, pungs or kongs at random). The draw is random,
so outcomes compared across candidates measure each candidate's worth with the hidden hands as real play deals
them (no sampler, no play-out policy).

``collect``: play hands, write one JSON line per randomized decision (each candidate's features as a difference
from the expert's choice, the decision's own features, the candidate played, this seat's points from then on)
and a line per seat and hand counting the decisions that had a choice. ``fit``: a ridge regression of the
outcome on the played candidate's features, centred on the candidates' mean (so that whatever the decision is
worth cancels out), the decision's features as a baseline; then, on held-out hands, what choosing by the fit
would gain over the expert, an unbiased estimate from the random draws (inverse propensity, baseline-corrected),
per decision and per seat and hand.

    PYTHONPATH=build/compiled .venv/bin/python scripts/discard_advantage.py collect --rules app \
        --hands 40000 --seed 2 --out app-2.jsonl
    .venv/bin/python scripts/discard_advantage.py fit app-2.jsonl --lam 0.01 --write app
    (claims, seed rules: collect --kind claim --rules seed; fit writes CLAIMS from records of that kind)
    (the seed rules' discard fit: collect --live, every seat the master's expert on live copies, seeds 21 and 22
    with 20,000 hands each; fit --lam 0.03 --write seed: docs/experiments.md)

``collect --playouts N`` draws nothing: every option of a decision is played out N times from the real position,
only the wall reshuffled (analysis only, never a bot's), the same walls for every option; ``fit`` on those
records regresses each option's mean points less the expert's choice's on its features and compares, held out,
its choices with the shipped fit's on the same play-outs (docs/experiments.md, "Fits on played-out options").
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import sichuan_mahjong as sm
from sichuan_mahjong.agents.advantage import (
    CANDIDATE_FEATURES,
    CLAIM_FEATURES,
    advantage_choice,
    claim_features,
    claim_options,
    discard_candidates,
    discard_features,
    plain_discard,
)
from sichuan_mahjong.agents.advantage_model import ADVANTAGE, CLAIMS
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.hand import HandState
from sichuan_mahjong.agents.master import live_hand, play_on
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.sample import reshuffled, seat_streams
from sichuan_mahjong.game.state import Game

#: Margins tried (held out): the fit must price a candidate this far above the expert's choice to play it.
MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.6)


class LiveExpert(ExpertAgent):
    """The master's expert alone (``collect --live``): each unseen kind counted by its live copies."""

    def _hand(self, view: sm.Observation) -> HandState:
        return live_hand(view)


def oracle_outcomes(game: Game, seat: int, options: Sequence[Action], playouts: int, seed: int) -> list[list[float]]:
    """Each option's points for ``seat`` from now to the end, played out ``playouts`` times by four experts from
    the real position with only the wall reshuffled and drawn seat by seat (``reshuffled``, ``seat_streams``:
    analysis only), the same walls and bots for every option (common random numbers)."""
    walls = [seed * 7919 + r * 104_729 for r in range(playouts)]
    return [
        [play_on(seat_streams(reshuffled(game, random.Random(w))), seat, a, w, "expert") for w in walls]
        for a in options
    ]


def write_played(
    out: Any, game: Game, seat: int, record: dict[str, Any], options: Sequence[Action], playouts: int, seed: int
) -> None:
    """Write ``record`` with its options' play-outs (``ys``, :func:`oracle_outcomes`) and whether the rules have
    a cap (``capped``: which shipped fit ``fit`` compares with)."""
    record["ys"] = oracle_outcomes(game, seat, options, playouts, seed)
    record["capped"] = game.rules.max_fan is not None
    out.write(json.dumps(record) + "\n")


def collect(
    rules: sm.Rules,
    hands: int,
    seed: int,
    explore: float,
    out: Any,
    behaviour: str = "expert",
    kind: str = "discard",
    playouts: int = 0,
    live: bool = False,
) -> None:
    """``behaviour``: what a seat plays where it does not draw at random, ``expert`` or ``advantage`` (the
    expert's discard replaced by the fitted advantage's, :func:`advantage_choice`: a fit's own data). ``kind``:
    the decisions randomized, ``discard`` (near ready, :func:`discard_candidates`), ``far`` (the same further
    from ready: tried, nothing to fit) or ``claim`` (pass, pung and kong on a discard, :func:`claim_options`).
    With ``playouts``, nothing is drawn: at the same share of those decisions every option is played out that
    many times from the real position (:func:`oracle_outcomes`, its points in ``ys``), and the seat plays on.
    With ``live``, every seat is the master's expert (:class:`LiveExpert`, counting live copies) and the features
    are read on its hand."""

    def explored(
        s: int, wall: int, x: list[list[float]], state: list[float], options: list[Action], a: Action
    ) -> Action:
        """Record an explored decision (the options' features ``x``, the decision's ``state``): every option
        played out (``playouts``), or one drawn to be played and its outcome kept for the hand's end. The answer
        played: ``a``, or the one drawn."""
        record = {"hand": n, "seat": s, "wall": wall, "x": x, "state": state}
        if kind != "discard":
            record["kind"] = kind
        if playouts:
            write_played(out, game, s, record, options, playouts, rng.randrange(2**31))
            return a
        record["i"] = i = rng.randrange(len(options))
        pending.append((s, record, game.deltas[s]))
        return options[i]

    for n in range(hands):
        game = Game(rules, seed=seed * 100_003 + n)
        bots = [(LiveExpert if live else ExpertAgent)(7 * n + s) for s in range(4)]
        rng = random.Random(seed * 1_000_003 + n)
        pending: list[tuple[int, dict[str, Any], int]] = []
        eligible = [0] * 4
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                a = bots[s].act(view, legal)
                discards = [b.tile_index for b in legal if b.kind is ActionKind.DISCARD]
                options = claim_options(legal, a) if kind == "claim" and view.phase == "claim" else []
                if options:
                    eligible[s] += 1
                    if rng.random() < explore:
                        h = bots[s]._hand(view)
                        x, state = claim_features(bots[s], view, h, bots[s].read_table(view, h), options)
                        a = explored(s, view.wall_count, x, state, options, a)
                elif kind in ("discard", "far") and plain_discard(view, legal, a) and len(discards) > 1:
                    h = bots[s]._hand(view)
                    read = bots[s].read_table(view, h)
                    cands = discard_candidates(bots[s], view, h, read, discards, kind == "far")
                    if len(cands) > 1 and cands[0][1] == a.tile_index:
                        eligible[s] += 1
                        if behaviour == "advantage":
                            a = advantage_choice(bots[s], view, legal, a)
                        if rng.random() < explore:
                            x, state = discard_features(bots[s], view, h, read, cands)
                            a = explored(s, view.wall_count, x, state, [Action.discard(t) for _, t in cands], a)
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


def oracle_design(records: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Records with play-outs (``ys``): a row per option other than the expert's, (its features, its mean
    points less the expert's choice's on the same walls)."""
    xs, ds = [], []
    for r in records:
        means = np.mean(r["ys"], axis=1)
        xs += r["x"][1:]
        ds += list(means[1:] - means[0])
    return np.array(xs), np.array(ds)


def oracle_gain(records: list[dict[str, Any]], w: np.ndarray, margin: float) -> list[float]:
    """Per decision: the played-out points of the fit's choice less the expert's (0 where they agree)."""
    out = []
    for r in records:
        adv = np.array(r["x"]) @ w
        pick = int(np.argmax(adv)) if adv.max() > margin else 0
        means = np.mean(r["ys"], axis=1)
        out.append(float(means[pick] - means[0]))
    return out


def claim_kinds(record: dict[str, Any]) -> list[str]:
    """Each option's kind ("pass", "pung", "kong") in a claim record, read back from its pung and kong features
    (differences from the expert's choice, whose kind is the one the others are -1 from)."""
    x = np.array(record["x"])
    pung, kong = float((x[:, 0] < -0.5).any()), float((x[:, 1] < -0.5).any())
    return ["pung" if pung + p > 0.5 else "kong" if kong + k > 0.5 else "pass" for p, k in x[:, :2]]


def always(records: list[dict[str, Any]], base: np.ndarray, kind: str) -> list[float]:
    """Per claim decision, the gain of answering ``kind`` wherever offered over the expert (as policy_gain)."""
    out = []
    for r in records:
        kinds = claim_kinds(r)
        pick = kinds.index(kind) if kind in kinds else 0
        resid = r["y"] - float(np.array(r["state"]) @ base)
        out.append(((r["i"] == pick) - (r["i"] == 0)) * len(kinds) * resid)
    return out


def _ci(xs: Sequence[float] | np.ndarray) -> str:
    m = float(np.mean(xs))
    se = float(np.std(xs, ddof=1) / math.sqrt(len(xs))) if len(xs) > 1 else float("nan")
    return f"{m:+.4f} [{m - 1.96 * se:+.4f}, {m + 1.96 * se:+.4f}]"


MODEL = Path(__file__).resolve().parent.parent / "src" / "sichuan_mahjong" / "agents" / "advantage_model.py"


def write_model(kind: str, cap: bool, weights: np.ndarray, margin: float, note: str) -> None:
    """Set ``ADVANTAGE[cap]`` (``kind`` "discard") or ``CLAIMS[cap]`` ("claim") in agents/advantage_model.py,
    keeping the other entries and notes (laid out as ``ruff format`` would)."""
    namespace: dict[str, Any] = {}
    if MODEL.exists():
        exec(MODEL.read_text(), namespace)
    tables = {"ADVANTAGE": dict(namespace.get("ADVANTAGE", {})), "CLAIMS": dict(namespace.get("CLAIMS", {}))}
    notes: dict[str, str] = dict(namespace.get("NOTES", {}))
    tables["CLAIMS" if kind == "claim" else "ADVANTAGE"][cap] = (tuple(round(float(v), 5) for v in weights), margin)
    notes[f"{kind} {'app' if cap else 'seed'}"] = note
    lines = [
        '"""The fitted advantages of :mod:`~sichuan_mahjong.agents.advantage`, written by',
        "``scripts/discard_advantage.py fit --write`` (regenerate it; do not edit by hand).",
        "",
        "``ADVANTAGE[capped]`` is (weights of ``CANDIDATE_FEATURES``, margin): a candidate replaces the expert's",
        "discard when its weighted features exceed the margin; ``CLAIMS[capped]`` the same for ``CLAIM_FEATURES``",
        "and the expert's pass, pung or kong (a rule set without one leaves claims to the master's search).",
        "``capped`` is True under a 封顶 cap (fitted on app rules), False without one (seed rules). ``NOTES``",
        'says what each was fitted on."""',
        "",
        "from __future__ import annotations",
        "",
        '__all__ = ["ADVANTAGE", "CLAIMS", "NOTES"]',
        "",
    ]
    for name, model in tables.items():
        lines.append(f"{name}: dict[bool, tuple[tuple[float, ...], float]] = {{")
        for capped in (True, False):
            if capped in model:
                w, m = model[capped]
                lines += [f"    {capped}: (", "        ("]
                lines += [f"            {v!r}," for v in w]
                lines += ["        ),", f"        {m!r},", "    ),"]
        lines.append("}")
    lines.append("NOTES: dict[str, str] = {")
    for name in sorted(notes):
        parts = textwrap.wrap(notes[name], 100, drop_whitespace=False)  # within the line length, as ruff keeps it
        if len(parts) == 1:
            lines.append(f"    {json.dumps(name)}: {json.dumps(notes[name])},")
        else:
            lines += [f"    {json.dumps(name)}: (", *(f"        {json.dumps(p)}" for p in parts), "    ),"]
    lines.append("}")
    MODEL.write_text("\n".join(lines) + "\n")


def fit_oracle(records: list[dict[str, Any]], lam: float, folds: int) -> np.ndarray:
    """Ridge fit of the options' played-out advantage over the expert's choice; on held-out hands, what choosing
    by it gains a decision, beside the shipped fit for the records' rules on the same decisions (paired: the same
    play-outs)."""
    claims = records[0].get("kind") == "claim"
    shipped = (CLAIMS if claims else ADVANTAGE).get(records[0]["capped"])
    keys = sorted({r["hand"] for r in records})
    fold_of = {k: i % folds for i, k in enumerate(keys)}
    held = np.zeros(len(records))
    for f in range(folds):
        test = [i for i, r in enumerate(records) if fold_of[r["hand"]] == f]
        xs, ds = oracle_design([r for r in records if fold_of[r["hand"]] != f])
        held[test] = oracle_gain([records[i] for i in test], ridge(xs, ds, lam), 0.0)
    print(f"the fit, held out: gain a decision {_ci(held)}")
    if shipped is not None:
        ship = np.array(oracle_gain(records, np.array(shipped[0]), shipped[1]))
        print(f"the shipped fit on the same decisions: {_ci(ship)}; the fit less the shipped {_ci(held - ship)}")
    xs, ds = oracle_design(records)
    return ridge(xs, ds, lam)


def fit(paths: Sequence[str], lam: float, folds: int, write: str | None) -> None:
    records, eligible = load(paths)
    per_seat_hand = sum(sum(e) for e in eligible.values()) / (4 * len(eligible))
    print(f"{len(records)} decisions, {len(eligible)} hands, {per_seat_hand:.2f} with a choice a seat-hand")
    if "ys" in records[0]:
        weights = fit_oracle(records, lam, folds)
        if write is not None:
            files = ", ".join(Path(p).name for p in paths)
            note = f"{len(records)} decisions played out, {len(eligible)} hands ({files}), lam {lam}"
            write_model(records[0].get("kind", "discard"), write == "app", weights, 0.0, note)
            print(f"wrote {MODEL} ({write})")
        return
    weights, baseline = fit_weights(records, lam)  # all the data: the weights written, the always-answers' baseline
    if records[0].get("kind") == "claim":
        for kind in ("pass", "pung", "kong"):
            print(f"always {kind} where offered: gain a decision {_ci(always(records, baseline, kind))}")
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
    xs, _, _ = design(records)
    print("weights (all data), points per unit:")
    names = CLAIM_FEATURES if records[0].get("kind") == "claim" else CANDIDATE_FEATURES
    for name, v, sd in zip(names, weights, xs.std(axis=0), strict=True):
        print(f"  {name:22s} {v:+.4f}  (x sd {sd:.3f})")
    if write is not None:
        files = ", ".join(Path(p).name for p in paths)
        note = f"{len(records)} random draws, {len(eligible)} hands ({files}), lam {lam}"
        write_model(records[0].get("kind", "discard"), write == "app", weights, best_margin, note)
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
    c.add_argument("--kind", choices=("discard", "far", "claim"), default="discard", help="the decisions randomized")
    c.add_argument(
        "--playouts", type=int, default=0, help="play every option out this many times instead of drawing one"
    )
    c.add_argument("--live", action="store_true", help="the seats' expert counts live copies (the master's)")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("paths", nargs="+")
    f.add_argument("--lam", type=float, default=1e-3)
    f.add_argument("--folds", type=int, default=5)
    f.add_argument("--write", choices=("app", "seed"), help="write the fit to agents/advantage_model.py")
    args = p.parse_args()
    if args.cmd == "collect":
        with open(args.out, "w") as out:
            collect(
                sm.Rules.preset(args.rules),
                args.hands,
                args.seed,
                args.explore,
                out,
                args.behaviour,
                args.kind,
                args.playouts,
                args.live,
            )
    else:
        fit(args.paths, args.lam, args.folds, args.write)


if __name__ == "__main__":
    main()
