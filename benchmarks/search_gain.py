"""What the master's search gains, decision by decision, measured against the oracle (docs/experiments.md).

Run: ``PYTHONPATH=build/compiled .venv/bin/python benchmarks/search_gain.py collect --rules app --hands 200
--samples 24 --out app.jsonl`` (about 10 s a hand on one core), then ``.venv/bin/python
benchmarks/search_gain.py gates app.jsonl``.

``collect``: four experts play seeded hands. At every decision of every seat that the master would search (its
own candidates, ``MasterAgent._candidates``; ``--scope`` as the master's), each candidate is played out twice
over, as in ``decision_regret.py``: ``--samples`` times on the master's own samples of the hidden tiles (what it
decides by) and ``--oracle`` times from the real position with only the wall reshuffled (what the choice is
worth: the truth up to the luck of the draws to come, the experts playing on); of each play-out, apart, what a
discard paid at once when it dealt in. One JSON line per decision. With ``--streams``, every play-out (search and
oracle) gives each seat a stream of draws of its own (``MasterAgent(streams=True)``); with ``--holding``, the
search's samples deal the others' hands by what their rivers say they hold (``MasterAgent(holding=True)``; the
oracle's play-outs are the same as without: the same seed pairs the two records).

``gates``: the oracle's gain over the expert's choices of a gate (the master's: a challenger replaces the
expert's choice when its mean gain on the search's samples is at least ``MIN_GAIN`` and ``z`` standard errors),
per seat and hand, counting each seat's first deviation in a hand: a bot that deviates once a hand, each seat in
turn played so on the experts' hands. Printed: the master's gate at several ``z``; by kind of decision; with more
play-outs where the records have them (``--samples`` takes the first n); with the samples' immediate deal-in
replaced by the reader's feared loss; and gates fitted on half the hands (a ``z`` per kind, a ridge regression of
the oracle's gain on what the search says), measured on the other half, each paired with the master's gate on the
same records. The gains are what a single deviation is worth on the expert's path: an upper bound to confirm on
duplicate deals (``strength.py``), not a substitute (docs/experiments.md).

``compare a.jsonl b.jsonl``: two ``collect`` runs of the same hands and seed that searched differently (one with
``--holding``, say), paired on the decisions both recorded with the same oracle play-outs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from statistics import fmean
from typing import Any

import numpy as np
from decision_regret import chosen_on_half, expert_hands, interval

import sichuan_mahjong as sm
from sichuan_mahjong.agents.expert import ExpertAgent, feared_loss
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.master import SAMPLES, SCOPES, MasterAgent, Z, _gains
from sichuan_mahjong.agents.reader import deal_in
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.sample import SampleError, reshuffled, seat_streams
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.sim.stats import t_quantile_975
from sichuan_mahjong.tiles import NUM_KINDS

_KONGS = (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)


def kind(view: Observation, candidates: Sequence[Action]) -> str:
    """claim, kong, or a discard by the shanten the expert's choice leaves (0: ready)."""
    if view.phase == "claim":
        return "claim"
    if any(a.kind in _KONGS for a in candidates):
        return "kong"
    h = read_view(view)
    h.remove(candidates[0].tile_index)
    return f"discard {h.shanten()}"


def decisions(
    rules: sm.Rules, hands: int, seed: int
) -> Iterator[tuple[int, Game, int, Observation, list[Action], Action]]:
    """(hand, game, seat, view, legal, the expert's choice) at every decision with alternatives, every seat, in
    ``decision_regret.py``'s hands."""
    for n, game, bots, _ in expert_hands(rules, hands, seed):
        while not game.is_over:
            asked = game.to_act()
            answers = {s: bots[s].act(game.view(s), legal) for s, legal in asked.items()}
            for s, legal in asked.items():
                if len(legal) > 1:
                    yield n, game, s, game.view(s), legal, answers[s]
            game.step(answers)


def play_split(game: Game, me: int, action: Action, seed: int) -> tuple[float, float]:
    """``play_on(game, me, action, seed, "expert")`` (the same play), and of it what this seat paid at once when
    ``action`` is a discard that deals in (0 otherwise): the search's immediate deal-in, apart from the rest."""
    bots = [ExpertAgent(seed + s) for s in range(4)]
    before = game.deltas[me]
    answers = {o: bots[o].act(game.view(o), legal) for o, legal in game.to_act().items() if o != me}
    answers[me] = action
    game.step(answers)
    at_once = 0.0
    if action.kind is ActionKind.DISCARD and not game.is_over and game.phase == "claim":
        game.step({o: bots[o].act(game.view(o), legal) for o, legal in game.to_act().items()})
        at_once = float(game.deltas[me] - before)
    while not game.is_over:
        game.step({o: bots[o].act(game.view(o), legal) for o, legal in game.to_act().items()})
    return float(game.deltas[me] - before), at_once


def collect(
    rules: sm.Rules,
    hands: int,
    seed: int,
    samples: int,
    oracle: int,
    out: Any,
    scope: str = "auto",
    streams: bool = False,
    holding: bool = False,
) -> None:
    rng = random.Random(seed)
    split = seat_streams if streams else (lambda g: g)
    shown = -1
    for n, game, seat, view, legal, choice in decisions(rules, hands, seed):
        if view.phase not in ("play", "claim"):
            continue
        master = MasterAgent(rng.getrandbits(32), samples=samples, scope=scope, holding=holding)
        candidates = master._candidates(view, legal, choice)
        if len(candidates) < 2:
            continue
        master._read_samples(view)
        try:
            seeds = [master._seed(view) for _ in range(samples)]
            search = [[play_split(split(master._sample(view, s)), seat, a, s) for s in seeds] for a in candidates]
        except SampleError:
            continue
        walls = [rng.getrandbits(40) for _ in range(oracle)]
        truth = [[play_split(split(reshuffled(game, random.Random(w))), seat, a, w) for w in walls] for a in candidates]
        h = read_view(view)
        risk = deal_in(view, h, range(NUM_KINDS))  # ReadTable.danger, which the compiled build cannot subclass
        discards = [a.tile_index if a.kind is ActionKind.DISCARD else None for a in candidates]
        record = {
            "hand": n,
            "seat": seat,
            "kind": kind(view, candidates),
            "wall": view.wall_count,
            "candidates": [str(a) for a in candidates],
            "search": [[v for v, _ in xs] for xs in search],
            "oracle": [[v for v, _ in xs] for xs in truth],
            "search_at_once": [[v for _, v in xs] for xs in search],
            "oracle_at_once": [[v for _, v in xs] for xs in truth],
            # the reader's P(each candidate's discard deals in) x the expert's feared loss from it
            "danger": [0.0 if t is None else sum(p * feared_loss(view, o) for o, p in risk[t]) for t in discards],
        }
        out.write(json.dumps(record) + "\n")
        out.flush()
        if n != shown:
            shown = n
            print(f"\rhand {n + 1}/{hands}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def gated(search: list[list[float]], z: float = Z) -> int:
    """The master's rule (``MasterAgent._search``): the challenger with the best mean gain over candidate 0 among
    those at least ``MIN_GAIN`` and ``z`` standard errors above it; 0 when none."""
    best, lead = 0, 0.0
    for i, mean, t in _gains(search, 0, list(range(len(search)))):
        if mean > lead and t > z:
            best, lead = i, mean
    return best


Record = dict[str, Any]
Rule = Callable[[Record], int]  # a record -> the candidate chosen (0: the expert's choice)


def gate_rule(z: float = Z, kinds: Iterable[str] | None = None) -> Rule:
    """The master's gate at ``z``, searching only ``kinds`` of decision when given."""
    only = None if kinds is None else frozenset(kinds)
    return lambda r: 0 if only is not None and r["kind"] not in only else gated(r["search"], z)


def samples_rule(samples: dict[str, int], default: int = SAMPLES) -> Rule:
    """The master's gate on the first ``samples[kind]`` (else ``default``) of the recorded search play-outs."""
    return lambda r: gated([xs[: samples.get(r["kind"], default)] for xs in r["search"]])


def per_kind_rule(zs: dict[str, float]) -> Rule:
    """A gate with a ``z`` of its own for each kind of decision (``inf``: the kind is not searched)."""
    return lambda r: gated(r["search"], zs.get(r["kind"], math.inf))


def seat_hand_gains(records: list[Record], seat_hands: int, rule: Rule, first: bool = True) -> list[float]:
    """The oracle's gain of ``rule``'s choices over the expert's, per seat and hand (zeros where it keeps every
    choice). ``first``: only its first deviation in a seat's hand counts, so the measure is of a bot deviating
    once a hand (later decisions were seen only on the expert's path); otherwise every deviation counts, which
    overcounts a chance offered again and again (a kong the expert declines turn after turn)."""
    sums = [0.0] * seat_hands  # by 4 * hand + seat
    done: set[int] = set()
    for r in records:
        key = 4 * r["hand"] + r["seat"]
        if key in done:
            continue
        i = rule(r)
        if i:
            sums[key] += fmean(r["oracle"][i]) - fmean(r["oracle"][0])
            if first:
                done.add(key)
    return sums


def _ci(xs: Sequence[float]) -> str:
    return interval(xs, t_quantile_975(len(xs) - 1))


def _paired(a: list[float], b: list[float]) -> str:
    """Gains per seat and hand ``a``, and over ``b`` (the master's gate's) on the same seats and hands."""
    return f"{_ci(a)}; over the master's gate {_ci([x - y for x, y in zip(a, b, strict=True)])}"


ZS = (0.5, 1.0, 1.5, 2.0, 2.5)


def load(path: str, samples: int | None = None) -> list[Record]:
    """The records of a ``collect`` file, keeping only the first ``samples`` search play-outs if given."""
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    if samples is not None:
        for r in records:
            for key in ("search", "search_at_once"):
                if key in r:
                    r[key] = [xs[:samples] for xs in r[key]]
    return records


def gates(path: str, hands: int | None, samples: int | None) -> None:
    records = load(path, samples)
    n = hands if hands is not None else max(r["hand"] for r in records) + 1
    seat_hands = 4 * n
    counts: dict[str, int] = defaultdict(int)
    for r in records:
        counts[r["kind"]] += 1
    k = len(records[0]["search"][0])
    print(
        f"{path}: {len(records)} decisions searched in {n} hands, {k} search play-outs a candidate (per seat and "
        "hand: " + ", ".join(f"{kd} {c / seat_hands:.2f}" for kd, c in sorted(counts.items())) + ")"
    )
    master = seat_hand_gains(records, seat_hands, gate_rule())
    print("the oracle's gain per seat and hand over the expert [95% CI], first deviation (every deviation)")
    for z in (0.0, *ZS):
        once = seat_hand_gains(records, seat_hands, gate_rule(z))
        every = seat_hand_gains(records, seat_hands, gate_rule(z), first=False)
        tag = " (the master's)" if z == Z else ""
        print(f"  z {z:.1f}{tag}: {_ci(once)} ({fmean(every):+.3f})")
    print("by kind, the gate at z " + " / ".join(f"{z}" for z in ZS) + "; the oracle's best (chosen on half its")
    print("play-outs, measured on the other); first deviations")
    for kd in sorted(counts):
        cells = [fmean(seat_hand_gains(records, seat_hands, gate_rule(z, kinds=[kd]))) for z in ZS]
        best = seat_hand_gains(records, seat_hands, _oracle_rule(kd))
        print(f"  {kd:10} " + " ".join(f"{c:+.3f}" for c in cells) + f"   oracle {fmean(best):+.3f}")
    print("by kind, how well the search's mean difference of each challenger follows the oracle's: correlation,")
    print("and each one's split-half reliability (Spearman-Brown, the whole of its play-outs)")
    for kd in sorted(counts):
        print(f"  {kd:10} " + agreement([r for r in records if r["kind"] == kd]))
    # Fitted on one half of the hands, measured on the other (both ways): honest figures for a fitted gate.
    halves = [[r for r in records if r["hand"] % 2 == p] for p in (0, 1)]
    fitted: list[Rule] = []
    for p in (0, 1):
        zs = {}
        for kd in counts:
            score = {z: sum(seat_hand_gains(halves[p], seat_hands, gate_rule(z, kinds=[kd]))) for z in ZS}
            zs[kd] = max((*ZS, math.inf), key=lambda z: score.get(z, 0.0))
        print(f"  z per kind fitted on half {p}: {zs}")
        fitted.append(per_kind_rule(zs))
    if k > SAMPLES:
        base = seat_hand_gains(records, seat_hands, samples_rule({}))
        print(f"the master's gate on its {SAMPLES} play-outs: {_ci(base)}; with {k} play-outs for")
        for kinds in (["claim"], ["kong"], ["claim", "kong"], sorted(counts)):
            more = seat_hand_gains(records, seat_hands, samples_rule(dict.fromkeys(kinds, k)))
            print(f"  {', '.join(kinds)}: {_paired(more, base)}")
    if "danger" in records[0]:
        print("the search's immediate deal-in replaced by the reader's expected loss (k x its feared loss):")
        for scale in (0.5, 1.0, 2.0):
            mixed = [with_reader_danger(r, scale) for r in records]
            for z in (1.0, Z):
                print(f"  k {scale}, z {z}: {_paired(seat_hand_gains(mixed, seat_hands, gate_rule(z)), master)}")
    fitted += [learned(halves[0]), learned(halves[1])]
    for name, rules in (("z per kind", fitted[:2]), ("ridge per kind", fitted[2:])):
        # each hand's decisions by the rule fitted on the other half of the hands
        def cross(r: Record, rules: list[Rule] = rules) -> int:
            return rules[1 - int(r["hand"]) % 2](r)

        print(f"{name}, fitted on the other half: {_paired(seat_hand_gains(records, seat_hands, cross), master)}")


def compare(path_a: str, path_b: str) -> None:
    """Two ``collect`` runs of the same hands that searched differently (e.g. one with ``--holding``), paired on
    the decisions both recorded with the same oracle play-outs: the master's gate's gain by kind in each and
    b's over a's, and how well each search follows the oracle."""
    a, b = load(path_a), load(path_b)
    n = max(r["hand"] for r in a + b) + 1

    def key(r: Record) -> tuple[Any, ...]:
        return r["hand"], r["seat"], r["wall"], tuple(r["candidates"])

    by_key = {key(r): r for r in b}
    pairs = [(r, by_key[key(r)]) for r in a if key(r) in by_key and by_key[key(r)]["oracle"] == r["oracle"]]
    print(f"{len(pairs)} decisions with the same oracle in both ({len(a)} in {path_a}, {len(b)} in {path_b})")
    ra, rb = [x for x, _ in pairs], [y for _, y in pairs]
    print("the master's gate, the oracle's gain per seat and hand [95% CI], first deviations: a, b, b - a")
    for kd in [None, *sorted({r["kind"] for r in ra})]:
        rule = gate_rule(kinds=None if kd is None else (kd,))
        ga, gb = seat_hand_gains(ra, 4 * n, rule), seat_hand_gains(rb, 4 * n, rule)
        diff = _ci([y - x for x, y in zip(ga, gb, strict=True)])
        print(f"  {kd or 'all':10} {_ci(ga)}  {_ci(gb)}  {diff}")
    print("by kind, how well each search follows the oracle (as in gates)")
    for kd in sorted({r["kind"] for r in ra}):
        print(f"  {kd:10} a: " + agreement([r for r in ra if r["kind"] == kd]))
        print(f"  {'':10} b: " + agreement([r for r in rb if r["kind"] == kd]))


def with_reader_danger(record: Record, scale: float) -> Record:
    """The record with each discard's search play-outs valued without what they paid at once for dealing in,
    and ``scale`` x the reader's feared loss (``ReadTable.danger``) taken off instead: the samples' danger
    replaced by the reader's own (better calibrated, docs/experiments.md)."""
    search = [
        [v - once - scale * d for v, once in zip(xs, ys, strict=True)]
        for xs, ys, d in zip(record["search"], record["search_at_once"], record["danger"], strict=True)
    ]
    return {**record, "search": search}


def agreement(records: list[Record]) -> str:
    """corr(search, oracle) of the challengers' mean differences over the expert's choice, and the split-half
    reliability of each (the first half of its play-outs against the second, stepped up to the whole)."""

    def diff(xs: list[list[float]], i: int, part: slice = slice(None)) -> float:
        return fmean(xs[i][part]) - fmean(xs[0][part])

    rows = []
    for r in records:
        s, o = r["search"], r["oracle"]
        hs, ho = len(s[0]) // 2, len(o[0]) // 2
        for i in range(1, len(s)):
            halves = (slice(None, hs), slice(hs, None), slice(None, ho), slice(ho, None))
            rows.append((diff(s, i), diff(o, i), *(diff(xs, i, h) for xs, h in zip((s, s, o, o), halves, strict=True))))
    if len(rows) < 3:
        return "too few"
    x = np.array(rows)

    def corr(a: int, b: int) -> float:
        return float(np.corrcoef(x[:, a], x[:, b])[0, 1])

    def whole(half: float) -> float:
        return 2 * half / (1 + half)

    return (
        f"corr {corr(0, 1):.2f}  reliability search {whole(corr(2, 3)):.2f} / oracle {whole(corr(4, 5)):.2f}  "
        f"({len(rows)} challengers)"
    )


def _oracle_rule(kind: str) -> Rule:
    return lambda r: chosen_on_half(r["oracle"]) if r["kind"] == kind else 0


def _features(record: Record, i: int) -> list[float]:
    """What the search says of challenger i against the expert's choice (candidate 0), and of the decision."""
    base = record["search"][0]
    diffs = [x - y for x, y in zip(record["search"][i], base, strict=True)]
    n = len(diffs)
    m = fmean(diffs)
    se = math.sqrt(sum((d - m) ** 2 for d in diffs) / (n - 1) / n)
    t = m / se if se > 0 else (3.0 if m > 0 else 0.0)
    clipped = fmean([max(-6.0, min(6.0, d)) for d in diffs])
    up = sum(1 for d in diffs if d > 0) / n - sum(1 for d in diffs if d < 0) / n
    return [1.0, m, max(-4.0, min(4.0, t)), clipped, up, record["wall"] / 50.0]


def learned(fit: list[Record]) -> Rule:
    """A gate learned from the oracle: per kind of decision, the oracle's gain of a challenger regressed on what
    the search says of it (:func:`_features`, ridge); the challenger predicted best is chosen where that is
    above zero."""
    coef: dict[str, Any] = {}
    for kd in {r["kind"] for r in fit}:
        xs, ys = [], []
        for r in fit:
            if r["kind"] == kd:
                o0 = fmean(r["oracle"][0])
                for i in range(1, len(r["search"])):
                    xs.append(_features(r, i))
                    ys.append(fmean(r["oracle"][i]) - o0)
        x, y = np.array(xs), np.array(ys)
        ridge = np.eye(x.shape[1])
        ridge[0, 0] = 0.0
        coef[kd] = np.linalg.solve(x.T @ x + ridge, x.T @ y)

    def rule(r: Record) -> int:
        if r["kind"] not in coef:
            return 0
        pred = [float(coef[r["kind"]] @ np.array(_features(r, i))) for i in range(1, len(r["search"]))]
        i = max(range(len(pred)), key=lambda i: pred[i])
        return i + 1 if pred[i] > 0 else 0

    return rule


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play expert hands and record the master's searched decisions")
    c.add_argument("--rules", default="app", help="rule preset")
    c.add_argument("--hands", type=int, default=100)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--samples", type=int, default=12, help="search play-outs per candidate (the master's)")
    c.add_argument("--oracle", type=int, default=16, help="oracle play-outs per candidate")
    c.add_argument("--scope", default="auto", choices=SCOPES, help="the decisions searched (MasterAgent's scope)")
    c.add_argument("--streams", action="store_true", help="every play-out's seats draw from streams of their own")
    c.add_argument("--holding", action="store_true", help="the search deals the others' hands by hold_weights")
    c.add_argument("--out", required=True, help="JSON lines file to write")
    g = sub.add_parser("gates", help="the oracle's gain of gate rules over recorded decisions")
    g.add_argument("path")
    g.add_argument("--hands", type=int, default=None, help="hands played (default: the last recorded + 1)")
    g.add_argument("--samples", type=int, default=None, help="use only the first this many search play-outs")
    p = sub.add_parser("compare", help="two collect runs of the same hands, paired decision by decision")
    p.add_argument("path_a")
    p.add_argument("path_b")
    args = parser.parse_args()
    if args.command == "collect":
        if args.hands < 1 or args.samples < 2 or args.oracle < 2:
            raise SystemExit("--hands must be at least 1, --samples and --oracle at least 2")
        with open(args.out, "w", encoding="utf-8") as out:
            rules = sm.Rules.preset(args.rules)
            collect(
                rules, args.hands, args.seed, args.samples, args.oracle, out, args.scope, args.streams, args.holding
            )
    elif args.command == "compare":
        compare(args.path_a, args.path_b)
    else:
        gates(args.path, args.hands, args.samples)


if __name__ == "__main__":
    main()
