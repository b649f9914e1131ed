"""Where the expert loses against itself: the value of its decisions' alternatives, by kind of decision.

Run: ``.venv/bin/python benchmarks/decision_regret.py [--rules seed] [--hands 40] [--samples 12] [--seed 0]
[--read]``.
Four ``expert`` bots play seeded hands; at every decision of one seat (the seat rotates with the hand) that
has alternatives worth a look, each alternative is played out ``samples`` times by four experts:

* the *oracle* play-out (:func:`~sichuan_mahjong.game.sample.reshuffled`): every hand as it really is, only
  the order of the wall redrawn, so it values an action as one who saw the other hands would (the truth up to
  the luck of the draw, as far as the experts play on);
* the *search* play-out: from a sample of the hidden tiles drawn from the seat's view alone
  (:func:`~sichuan_mahjong.game.sample.sample_game`), what a determinized search such as ``master`` sees;
  plain samples, or with ``--read`` drawn as the master draws them (each other hand ready with the odds
  ``agents.reader`` reads, the rest played on as far as they have played).

Per kind of decision and per hand it prints, as points gained over the expert's own choice (all measured by
the oracle play-outs): **oracle**, the alternative best on half of the oracle play-outs measured on the other
half (what knowing the hidden hands would gain, less what choosing on half the play-outs loses to noise);
**search**, the alternative best by the search play-outs; **gated**, the same only where it beats the expert's choice by
1.5 standard errors and 0.1 points (the master's rule, ``agents/master.py``); the 95% interval is over hands.
The alternatives: discards, the expert's three best by its own price (by the shanten the best leaves);
claims, pass / pung / kong; a win on a discard or a robbed kong, taking it or not; 报叫, the other answer;
kongs, declaring or the best discard; 定缺, the three suits. 换三张 and self-drawn wins are not varied.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence

import sichuan_mahjong as sm
from sichuan_mahjong.agents.efficient import kind_of
from sichuan_mahjong.agents.expert import ExpertAgent, TableRead
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.master import MIN_GAIN, Z, play_on
from sichuan_mahjong.agents.reader import ready_odds
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.sample import SampleError, reshuffled, sample_game
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.sim.stats import t_quantile_975

COLUMNS = ("oracle", "search", "gated")
_KONGS = (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)


def alternatives(view: Observation, legal: Sequence[Action], choice: Action) -> tuple[str, list[Action]]:
    """The kind of decision and the answers compared (the expert's choice first); no kind when not varied."""
    kinds = kind_of(legal)
    if view.phase == "void":
        return "void", [choice, *(a for a in legal if a is not choice)]
    if view.phase == "declare":
        return "报叫", [choice, *(a for a in legal if a is not choice)]
    if view.phase not in ("play", "claim", "rob"):
        return "", []
    if ActionKind.HU in kinds:
        if view.phase == "play":
            return "", []
        other = kinds[ActionKind.PASS][0] if choice.kind is ActionKind.HU else kinds[ActionKind.HU][0]
        return "win on a discard", [choice, other]
    if view.phase == "rob":
        return "", []
    if view.phase == "claim":
        return "claim", [choice, *(a for a in legal if a is not choice)]
    h = read_view(view)
    expert = ExpertAgent(0)
    discards = [a.tile_index for a in kinds.get(ActionKind.DISCARD, [])]
    if not discards:
        return "", []
    scored = expert.discard_scores(view, h, TableRead(view, h), discards)
    best = Action.discard(scored[0][1])
    if ActionKind.DECLARE_READY in kinds:
        other = kinds[ActionKind.DECLARE_READY][0] if choice.kind is not ActionKind.DECLARE_READY else best
        return "报叫", [choice, other]
    kongs = [a for k in _KONGS for a in kinds.get(k, [])]
    if kongs:
        return "kong", list(dict.fromkeys([choice, *kongs, best]))
    h.remove(scored[0][1])
    s = min(h.shanten(), 3)
    h.add(scored[0][1])
    return f"discard, shanten {s}{'+' if s == 3 else ''}", list(
        dict.fromkeys([choice, *(Action.discard(t) for _, t in scored[:3])])
    )


def expert_hands(rules: sm.Rules, hands: int, seed: int) -> Iterator[tuple[int, Game, list[ExpertAgent], int]]:
    """(n, a new seeded hand, its four expert bots, the seat watched: it rotates with n) for n < hands."""
    for n in range(hands):
        yield n, Game(rules, seed=seed * 100_003 + n), [ExpertAgent(7 * n + s) for s in range(4)], n % 4


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def chosen_on_half(oracle: Sequence[Sequence[float]]) -> int:
    """The alternative best over alternative 0 on the first half of each one's oracle play-outs (0 on a tie):
    measured on the other half, what knowing the hidden hands gains less what choosing on few play-outs loses."""
    half = len(oracle[0]) // 2
    return max(range(len(oracle)), key=lambda i: (_mean(oracle[i][:half]) - _mean(oracle[0][:half]), i == 0))


def gains(
    game: Game, seat: int, alts: list[Action], samples: int, rng: random.Random, read: bool = False
) -> tuple[float, ...]:
    """(oracle, search, gated) gains over alts[0] (the expert's choice) at one decision, by oracle play-outs.

    ``read``: the search's samples make each other hand ready with the odds ``agents.reader`` reads from the
    table and play the rest on as far as they have played (``sample_game(ready_odds=..., shaped=30)``)."""
    view = game.view(seat)
    odds = ready_odds(view) if read and view.phase in ("play", "claim", "rob") else None
    shaped = 30 if read else 0
    oracle: list[list[float]] = [[] for _ in alts]
    search: list[list[float]] = [[] for _ in alts]
    for _ in range(samples):
        seed = rng.getrandbits(40)
        for i, a in enumerate(alts):
            oracle[i].append(play_on(reshuffled(game, random.Random(seed)), seat, a, seed, "expert"))
            try:  # no sample before play (定缺, 报叫 after the deal): no search, the expert's choice stands
                sample = sample_game(view, random.Random(seed), ready_odds=odds, shaped=shaped, implied_voids=read)
                search[i].append(play_on(sample, seat, a, seed, "expert"))
            except SampleError:
                search[i].append(0.0)
    half = samples // 2
    first = chosen_on_half(oracle)
    by_search = max(range(len(alts)), key=lambda i: (_mean(search[i]) - _mean(search[0]), i == 0))
    gated, lead = 0, MIN_GAIN
    for i in range(1, len(alts)):
        diffs = [x - y for x, y in zip(search[i], search[0], strict=True)]
        m = _mean(diffs)
        se = math.sqrt(sum((d - m) ** 2 for d in diffs) / (samples - 1) / samples)
        if m > lead and (se == 0 or m / se > Z):
            gated, lead = i, m
    return (
        _mean(oracle[first][half:]) - _mean(oracle[0][half:]),
        _mean(oracle[by_search]) - _mean(oracle[0]),
        _mean(oracle[gated]) - _mean(oracle[0]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="seed", help="rule preset")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--samples", type=int, default=12, help="play-outs per alternative (at least 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--read", action="store_true", help="search samples drawn with the reader's P(ready)")
    args = parser.parse_args()
    if args.hands < 2 or args.samples < 4:
        raise SystemExit(f"--hands must be at least 2 and --samples at least 4, got {args.hands}, {args.samples}")
    rules = sm.Rules.preset(args.rules)
    rng = random.Random(args.seed)
    counts: dict[str, int] = defaultdict(int)
    # per kind: per hand, the summed gains of each column
    per_hand: dict[str, list[list[float]]] = defaultdict(lambda: [[0.0] * args.hands for _ in COLUMNS])
    for n, game, bots, seat in expert_hands(rules, args.hands, args.seed):
        while not game.is_over:
            asked = game.to_act()
            answers = {s: bots[s].act(game.view(s), legal) for s, legal in asked.items()}
            if len(asked.get(seat, ())) > 1:
                kind, alts = alternatives(game.view(seat), asked[seat], answers[seat])
                if len(alts) > 1:
                    counts[kind] += 1
                    for col, g in enumerate(gains(game, seat, alts, args.samples, rng, args.read)):
                        per_hand[kind][col][n] += g
            game.step(answers)
        print(f"\r{n + 1}/{args.hands} hands", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    t = t_quantile_975(args.hands - 1)
    how = ", read samples" if args.read else ""
    print(f"{args.rules} rules{how}, {args.hands} hands, {args.samples} play-outs per alternative; points per hand")
    print(f"{'decision':24} {'per hand':>8}  " + "  ".join(f"{c:>22}" for c in COLUMNS))
    total = [[0.0] * args.hands for _ in COLUMNS]
    for kind in sorted(per_hand):
        cells = []
        for col, xs in enumerate(per_hand[kind]):
            total[col] = [a + b for a, b in zip(total[col], xs, strict=True)]
            cells.append(interval(xs, t))
        print(f"{kind:24} {counts[kind] / args.hands:8.2f}  " + "  ".join(cells))
    print(f"{'all':24} {sum(counts.values()) / args.hands:8.2f}  " + "  ".join(interval(xs, t) for xs in total))


def interval(xs: Sequence[float], t: float) -> str:
    """``mean [low, high]`` of ``xs``, ``t`` standard errors either side."""
    m = _mean(xs)
    half = t * math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    return f"{m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"


if __name__ == "__main__":
    main()
