"""How well samples of the hidden tiles predict which discards deal in: the search's picture of the others.

Run: ``.venv/bin/python benchmarks/sample_quality.py [--rules seed] [--hands 40] [--samples 30]``.
Four ``expert`` bots play seeded hands; at each discard decision of one seat (rotating) whose hand is near
ready, every distinct tile it may discard is checked against the others' real hands (does it complete one?)
and against ``samples`` determinizations of each method: the fraction of samples in which it completes one is
the method's P(deal-in). Printed per method: Brier score and log loss over (decision, tile) pairs (lower is
better), the mean P given to the tiles that really deal in and to those that do not, and the mean shanten of
the others' sampled hands against the real ones, and the share of the real concealed tiles the sampled hands
hold too (``shared``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable

from decision_regret import expert_hands
from likely import discard_likelihood

import sichuan_mahjong as sm
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.reader import deal_in, hold_weights, ready_odds, wait_odds
from sichuan_mahjong.game.actions import ActionKind
from sichuan_mahjong.game.sample import SampleError, sample_game
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.tiles import POW5

Method = Callable[[sm.Observation, random.Random], Game]
METHODS: dict[str, Method] = {
    "random deal": sample_game,
    "shaped": lambda v, r: sample_game(v, r, implied_voids=True, shaped=30),
    "read P(ready)": lambda v, r: sample_game(v, r, ready_odds=ready_odds(v)),
    "read P(ready), shaped": lambda v, r: sample_game(v, r, ready_odds=ready_odds(v), shaped=30, implied_voids=True),
    "read P(ready) and waits, shaped": lambda v, r: sample_game(
        v, r, ready_odds=ready_odds(v), waits=wait_odds(v, read_view(v).unseen), shaped=30, implied_voids=True
    ),
}


def _consistent(k: int, beta: float) -> Method:
    """The master's samples, each drawn from ``k`` by how well it explains the others' last discards."""

    def method(v: sm.Observation, r: random.Random) -> Game:
        odds = ready_odds(v)
        games = [sample_game(v, r, ready_odds=odds, shaped=30, implied_voids=True) for _ in range(k)]
        weights = [discard_likelihood(g, v.seat, beta) for g in games]
        return r.choices(games, weights)[0]

    return method


METHODS["read P(ready), shaped, let pass"] = lambda v, r: sample_game(
    v, r, ready_odds=ready_odds(v), shaped=30, implied_voids=True, passed=True
)
METHODS["read P(ready), shaped, holding"] = lambda v, r: sample_game(
    v, r, ready_odds=ready_odds(v), shaped=30, implied_voids=True, holding=hold_weights(v, read_view(v).unseen)
)
METHODS["consistent k4"] = _consistent(4, 4.0)
METHODS["consistent k8 beta8"] = _consistent(8, 8.0)

MODEL = "reader model (no sample)"


def deal_ins(game: Game, me: int, tiles: list[int]) -> tuple[list[bool], list[int]]:
    """Whether each tile completes an active other seat's concealed hand, and those seats' shanten."""
    hits = [False] * len(tiles)
    shanten = []
    for s in range(4):
        if s == me or not game._active[s]:
            continue
        keys = list(game._keys[s])
        nm = len(game._melds[s])
        ms, v = game._meld_suits[s], game._voids[s]
        shanten.append(shanten_keys(keys, nm, ms, v))
        for i, t in enumerate(tiles):
            keys[t // 9] += POW5[t % 9]
            if shanten_keys(keys, nm, ms, v) == -1:
                hits[i] = True
            keys[t // 9] -= POW5[t % 9]
    return hits, shanten


def overlap(sample: Game, real: Game, me: int) -> tuple[float, int]:
    """The tiles the sample's other active concealed hands share with the real ones, and how many they hold."""
    same = held = 0
    for s in range(4):
        if s != me and real._active[s]:
            same += sum(min(a, b) for a, b in zip(sample._counts[s], real._counts[s], strict=True))
            held += sum(real._counts[s])
    return same, held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="seed")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--near", type=int, default=1, help="only decisions whose best discard leaves this shanten")
    parser.add_argument("--method", action="append", choices=METHODS, help="the sampling methods compared (all)")
    args = parser.parse_args()
    methods = {name: METHODS[name] for name in args.method or METHODS}
    rules = sm.Rules.preset(args.rules)
    rng = random.Random(args.seed)
    stats = {
        m: {"brier": 0.0, "log": 0.0, "hit": 0.0, "miss": 0.0, "sh": 0.0, "sec": 0.0, "same": 0.0, "held": 0.0}
        for m in [*methods, MODEL]
    }
    n_pairs = n_hits = n_sh = n_dec = 0
    real_sh = 0.0
    for n, game, bots, seat in expert_hands(rules, args.hands, args.seed):
        while not game.is_over:
            asked = game.to_act()
            legal = asked.get(seat, [])
            view = game.view(seat)
            tiles = sorted({a.tile_index for a in legal if a.kind is ActionKind.DISCARD})
            if view.phase == "play" and len(tiles) > 1:
                h = read_view(view)
                best = 99
                for t in tiles:
                    h.remove(t)
                    best = min(best, h.shanten())
                    h.add(t)
                if best <= args.near:
                    truth, sh = deal_ins(game, seat, tiles)
                    n_pairs += len(tiles)
                    n_dec += 1
                    n_hits += sum(truth)
                    real_sh += sum(sh)
                    n_sh += len(sh)
                    model = deal_in(view, h, tiles)
                    st = stats[MODEL]
                    for i, x in enumerate(truth):
                        q = 1.0
                        for _, p in model[tiles[i]]:
                            q *= 1 - p
                        p = min(max(1 - q, 1e-3), 1 - 1e-3)
                        st["brier"] += (p - x) ** 2
                        st["log"] -= math.log(p if x else 1 - p)
                        st["hit" if x else "miss"] += p
                    for name, method in methods.items():
                        st = stats[name]
                        counts = [0] * len(tiles)
                        t0 = time.perf_counter()
                        shs = 0
                        try:
                            for _ in range(args.samples):
                                g = method(view, rng)
                                hits, s_sh = deal_ins(g, seat, tiles)
                                same, held = overlap(g, game, seat)
                                st["same"] += same
                                st["held"] += held
                                shs += sum(s_sh)
                                for i, x in enumerate(hits):
                                    counts[i] += x
                        except SampleError:
                            continue
                        st["sec"] += time.perf_counter() - t0
                        st["sh"] += shs / args.samples
                        for i, x in enumerate(truth):
                            p = counts[i] / args.samples
                            pc = min(max(p, 0.5 / args.samples), 1 - 0.5 / args.samples)
                            st["brier"] += (p - x) ** 2
                            st["log"] -= math.log(pc if x else 1 - pc)
                            st["hit" if x else "miss"] += p
            game.step({s: bots[s].act(game.view(s), lg) for s, lg in asked.items()})
        print(f"\r{n + 1}/{args.hands} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.rules}: {n_pairs} (decision, tile) pairs, {n_hits} deal in; others' shanten {real_sh / n_sh:.2f}")
    print(
        f"{'method':32} {'brier':>7} {'logloss':>8} {'P|deals':>8} {'P|safe':>8} {'shanten':>8} {'ms/sample':>9}"
        f" {'shared':>7}"
    )
    for name, st in stats.items():
        print(
            f"{name:32} {st['brier'] / n_pairs:7.4f} {st['log'] / n_pairs:8.4f} {st['hit'] / max(1, n_hits):8.3f}"
            f" {st['miss'] / max(1, n_pairs - n_hits):8.3f} {st['sh'] / n_sh:8.2f}"
            f" {1000 * st['sec'] / max(1, n_dec * args.samples):9.2f} {st['same'] / max(1.0, st['held']):7.3f}"
        )


if __name__ == "__main__":
    main()
