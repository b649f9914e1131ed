"""The master's play-outs alone, timed: ``play_on`` over fixed samples of fixed views (CPU time, best of seven).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/playout_speed.py`` (pure), or with ``PYTHONPATH=build/compiled``
after ``scripts/compile.py --into build/compiled`` (compiled). Six hands of four experts give a view every seventh
decision in play; each is sampled four times (as the master samples) and played out with the ``mixed`` policy.
The sum of the play-outs' points is printed too: a change to the loop must leave it as it is.
"""

from __future__ import annotations

import copy
import random
import time

from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.master import play_on
from sichuan_mahjong.game import Game, Observation
from sichuan_mahjong.game.sample import sample_game, seat_streams


def views(hands: int = 6) -> list[Observation]:
    out = []
    for seed in range(hands):
        game = Game(seed=seed)
        bots = [make_agent("expert", seed=s) for s in range(4)]
        n = 0
        while not game.is_over:
            pending = game.to_act()
            if game.phase == "play" and n % 7 == 3:
                out.append(game.view(next(iter(pending))))
            n += 1
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in pending.items()})
    return out


def main() -> None:
    samples = [
        (v, sample_game(v, random.Random(i * 10 + k), implied_voids=True, shaped=8))
        for i, v in enumerate(views())
        for k in range(4)
    ]
    best, total = float("inf"), 0.0
    for _ in range(7):
        work = [(v, copy.deepcopy(g)) for v, g in samples]
        start = time.process_time()
        total = sum(play_on(seat_streams(g), v.seat, v.legal[-1], i, "mixed") for i, (v, g) in enumerate(work))
        best = min(best, time.process_time() - start)
    n = len(samples)
    print(f"{n} play-outs: {best * 1000:.0f} ms CPU ({best / n * 1e6:.0f} us each), points sum {total}")


if __name__ == "__main__":
    main()
