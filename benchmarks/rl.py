"""RL environment speed beside RLCard's ``mahjong`` environment, in the same run.

    .venv/bin/pip install rlcard          # into your venv only; RLCard is not a project dependency
    python benchmarks/rl.py [--seconds 3] [--rounds 3] [--wall]

Rows are agent steps per second of CPU time (``time.process_time``: a machine shared with other work steals wall
time from every row unevenly), the best of ``--rounds`` timings of about ``--seconds`` each, taken in turn:

* ``AEC, masked random``: ``sichuan_mahjong.rl.env(rules=...)``, every agent reads ``env.last()`` (the full
  observation: the 90 x 27 planes and the mask) and picks uniformly among the legal actions (the same cheap pick,
  ``random.Random.random``, in every row); the dead steps at the end of each hand count too, as in PettingZoo's
  own loop;
* ``Gymnasium vs 3 expert``: ``gymnasium.make("SichuanMahjong-v0", opponents="expert")``, the learner's
  masked random ``env.step`` calls per second (each includes the three expert bots' answers until the learner's
  next turn); hands per second beside it;
* ``RLCard mahjong``: ``rlcard.make("mahjong")``, ``env.step`` with a uniformly random legal action, each step
  building RLCard's state (its observation and legal actions), as a training loop does;
* ``engine + view (no encoding)``: ``Game.to_act`` / ``view`` / ``step`` alone, each asked seat's view built
  once: what the environment would cost with an observation that were free;
* ``encode()``: calls per second of :func:`sichuan_mahjong.rl.encode` over the views of random hands (every
  seat's view after every step), with the cache of one ``Encoder``, and with a fresh one each call.

RLCard's game is a simpler rule set (136 tiles with honours, chow, no scoring, the game ends at the first win).

Targets (issue 12): >= 20,000 agent steps/s for masked random AEC play in one process, and >= 10x RLCard.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version

import gymnasium
import numpy as np
import numpy.typing as npt

import sichuan_mahjong as sm
from sichuan_mahjong import compiled, rl

CLOCK: list[Callable[[], float]] = [time.process_time]


def _until(seconds: float, work: Callable[[], int]) -> float:
    """Run ``work`` (which returns how many steps it took) until ``seconds`` of the clock passed; steps/s."""
    clock = CLOCK[0]
    start = clock()
    steps = 0
    while True:
        steps += work()
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def _pick(legal: Sequence[int] | npt.NDArray[np.intp], rng: random.Random) -> int:
    """A uniformly random one of the legal action indices: the same cheap pick for every environment."""
    return int(legal[int(rng.random() * len(legal))])


def aec_rate(preset: str, seconds: float) -> float:
    env = rl.env(rules=preset, seed=1)
    rng = random.Random(0)

    def hand() -> int:
        env.reset()
        steps = 0
        for _agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
            else:
                env.step(_pick(obs["action_mask"].nonzero()[0], rng))
            steps += 1
        return steps

    return _until(seconds, hand)


def gym_rate(opponents: str, seconds: float) -> tuple[float, float]:
    env = gymnasium.make(rl.ENV_ID, rules="app", opponents=opponents)
    rng = random.Random(0)
    hands = [0]

    def hand() -> int:
        obs, _ = env.reset(seed=rng.getrandbits(31))
        steps = 0
        while True:
            obs, _, terminated, _, _ = env.step(_pick(obs["action_mask"].nonzero()[0], rng))
            steps += 1
            if terminated:
                hands[0] += 1
                return steps

    clock = CLOCK[0]
    start = clock()
    rate = _until(seconds, hand)
    return rate, hands[0] / (clock() - start)


def engine_rate(preset: str, seconds: float) -> float:
    rules = sm.Rules.preset(preset)
    seeds = iter(range(10**9))

    def hand() -> int:
        seed = next(seeds)
        game = sm.Game(rules, seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            pending = game.to_act()
            for s in pending:
                game.view(s)
                steps += 1
            game.step({s: rng.choice(legal) for s, legal in pending.items()})
        return steps

    return _until(seconds, hand)


def rlcard_rate(seconds: float) -> float:
    import rlcard

    env = rlcard.make("mahjong", config={"seed": 0})
    rng = random.Random(0)

    def game() -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(_pick(list(state["legal_actions"]), rng))
            steps += 1
        return steps

    return _until(seconds, game)


def sample_views(preset: str, hands: int) -> list[sm.Observation]:
    views = []
    for seed in range(hands):
        game = sm.Game(sm.Rules.preset(preset), seed)
        rng = random.Random(seed)
        while not game.is_over:
            views += [game.view(s) for s in range(4)]
            game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    return views


def encode_rate(views: list[sm.Observation], cached: bool, rounds: int) -> float:
    clock = CLOCK[0]
    best = 0.0
    for _ in range(rounds):
        encoder = rl.Encoder()
        start = clock()
        for view in views:
            (encoder if cached else rl.Encoder())(view)
        best = max(best, len(views) / (clock() - start))
    return best


def _installed(package: str) -> str | None:
    """The installed version of ``package``, or None."""
    return version(package) if importlib.util.find_spec(package) is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of each timing")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each row; the best is shown")
    parser.add_argument("--wall", action="store_true", help="time wall-clock instead of CPU time")
    args = parser.parse_args()
    CLOCK[0] = time.perf_counter if args.wall else time.process_time
    rlcard_version = _installed("rlcard")
    if rlcard_version is None:
        print("rlcard is not installed (pip install rlcard into your venv): our rows only", file=sys.stderr)
    versions = ", ".join(f"{p} {_installed(p) or '-'}" for p in ("numpy", "gymnasium", "pettingzoo", "rlcard"))
    print(f"python {platform.python_version()}, {versions}; {'wall-clock' if args.wall else 'CPU'} time")
    print(compiled.describe())
    rows: dict[str, float] = {}
    extra: dict[str, str] = {}
    for _ in range(args.rounds):
        for preset in ("app", "seed"):
            key = f"AEC, masked random ({preset})"
            rows[key] = max(rows.get(key, 0.0), aec_rate(preset, args.seconds))
        rate, hands = gym_rate("expert", args.seconds)
        if rate > rows.get("Gymnasium vs 3 expert (app)", 0.0):
            rows["Gymnasium vs 3 expert (app)"] = rate
            extra["Gymnasium vs 3 expert (app)"] = f"{hands:.0f} hands/s"
        key = "engine + view, no encoding (app)"
        rows[key] = max(rows.get(key, 0.0), engine_rate("app", args.seconds))
        if rlcard_version:
            rows["RLCard mahjong, random"] = max(rows.get("RLCard mahjong, random", 0.0), rlcard_rate(args.seconds))
    theirs = rows.get("RLCard mahjong, random")
    print(f"{'':40}{'steps/s':>10}{'x rlcard':>10}")
    for key, rate in rows.items():
        ratio = f"{rate / theirs:9.1f}x" if theirs else ""
        note = f"  {extra[key]}" if key in extra else ""
        print(f"{key:<40}{rate:10.0f}{ratio}{note}")

    views = sample_views("app", 30)
    cached = encode_rate(views, True, args.rounds)
    fresh = encode_rate(views, False, args.rounds)
    print(f"encode(): {cached:,.0f} calls/s ({1e6 / cached:.1f} us) with an Encoder's cache, ", end="")
    print(f"{fresh:,.0f} calls/s ({1e6 / fresh:.1f} us) with a fresh one; {len(views)} views of 30 app hands")
    aec = rows["AEC, masked random (app)"]
    print(f"target: AEC >= 20,000 steps/s: {'met' if aec >= 20_000 else 'NOT met'} ({aec:,.0f})", end="")
    if theirs:
        print(f"; >= 10x RLCard: {'met' if aec >= 10 * theirs else 'NOT met'} ({aec / theirs:.1f}x)")
    else:
        print()


if __name__ == "__main__":
    main()
