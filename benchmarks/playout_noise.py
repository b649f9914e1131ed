"""Where a play-out's noise comes from, and how much of it the learned value takes away.

Run: ``.venv/bin/python benchmarks/playout_noise.py [--rules app] [--hands 40] [--samples 24] [--seed 7]
[--depths 0 2 4 8]``.
Four ``expert`` bots play seeded hands; at each discard one seat's master searches (the seat rotates with the
hand), every candidate is played out on ``samples`` samples, and the paired difference of each challenger with
the expert's choice is taken per sample, as the master's gate takes it (``agents/master.py``). Printed per
kind of play-out: the variance of those differences over samples and decisions, their mean, and how well the
mean of the first half of a decision's samples agrees with the mean of whole play-outs on the other half (the
correlation over challengers; whole play-outs against themselves give the reliability of a half):

* ``whole``: the master's play-outs, from its samples to the end of the hand;
* ``streams``: the same samples, each seat drawing from a stream of its own
  (:func:`~sichuan_mahjong.game.sample.seat_streams`, ``MasterAgent(streams=True)``);
* ``wall only``: from the real position (every hand as it is) with only the wall reshuffled
  (:func:`~sichuan_mahjong.game.sample.reshuffled`, analysis only): the noise left when the hidden hands are
  known, the luck of the draws alone;
* ``value at d``: the master's samples played on to the d+1-th draw after the decision and valued there by
  ``agents/value.py`` (``MasterAgent(value_depth=d)``).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
from collections.abc import Sequence

from decision_regret import expert_hands

import sichuan_mahjong as sm
from sichuan_mahjong.agents.master import MasterAgent, play_on
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.sample import SampleError, reshuffled, seat_streams
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation

DEPTHS = (0, 2, 4, 8)


def kinds(depths: Sequence[int]) -> list[str]:
    return ["whole", "streams", "wall only", *(f"value at {d}" for d in depths)]


def playouts(
    master: MasterAgent, game: Game, view: Observation, cands: list[Action], samples: int, depths: Sequence[int]
) -> dict[str, list[list[float]]]:
    """Per kind of play-out, per sample, each candidate's value (nothing when a sample cannot be drawn)."""
    master._read_samples(view)
    rows: dict[str, list[list[float]]] = {k: [] for k in kinds(depths)}
    me = view.seat
    try:
        for _ in range(samples):
            s = master.rng.getrandbits(48)
            truth = reshuffled(game, random.Random(s))
            rows["whole"].append([play_on(master._sample(view, s), me, a, s, "expert") for a in cands])
            rows["streams"].append([play_on(seat_streams(master._sample(view, s)), me, a, s, "expert") for a in cands])
            rows["wall only"].append([play_on(copy.deepcopy(truth), me, a, s, "expert") for a in cands])
            for d in depths:
                cut = [play_on(master._sample(view, s), me, a, s, "expert", None, d) for a in cands]
                rows[f"value at {d}"].append(cut)
    except SampleError:
        return {}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="app")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--samples", type=int, default=24, help="an even number")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depths", type=int, nargs="*", default=DEPTHS, help="the value's cuts (none: no value)")
    args = parser.parse_args()
    # Per kind, per challenger, its per-sample differences.
    diffs: dict[str, list[list[float]]] = {k: [] for k in kinds(args.depths)}
    master = MasterAgent(0)
    decisions = 0
    for n, game, bots, seat in expert_hands(sm.Rules.preset(args.rules), args.hands, args.seed):
        while not game.is_over:
            asked = game.to_act()
            view = game.view(seat)
            if seat in asked and view.phase == "play" and len(asked[seat]) > 1:
                choice = bots[seat].act(view, asked[seat])
                cands = master._candidates(view, asked[seat], choice)
                if len(cands) > 1 and all(a.kind is ActionKind.DISCARD for a in cands):
                    rows = playouts(master, game, view, cands, args.samples, args.depths)
                    if rows:
                        decisions += 1
                        for k, row in rows.items():
                            diffs[k] += [[r[i] - r[0] for r in row] for i in range(1, len(cands))]
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in asked.items()})
        print(f"\r{n + 1}/{args.hands} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    half = args.samples // 2
    other = [statistics.mean(d[half:]) for d in diffs["whole"]]
    print(f"{args.rules}: {decisions} searched discards, {len(other)} challengers, {args.samples} samples each")
    print(f"{'play-out':14} {'variance':>9} {'mean':>7} {'agreement':>10}")
    for k, per in diffs.items():
        flat = [x for d in per for x in d]
        first = [statistics.mean(d[:half]) for d in per]
        agree = statistics.correlation(first, other)
        print(f"{k:14} {statistics.pvariance(flat):9.2f} {statistics.mean(flat):7.3f} {agree:10.3f}")


if __name__ == "__main__":
    main()
