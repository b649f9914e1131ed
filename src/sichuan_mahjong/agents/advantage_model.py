"""The fitted advantage of :mod:`~sichuan_mahjong.agents.advantage`, written by
``benchmarks/discard_advantage.py fit --write`` (regenerate it; do not edit by hand).

``ADVANTAGE[capped]`` is (weights of ``CANDIDATE_FEATURES``, margin): a candidate replaces the expert's
discard when its weighted features exceed the margin; ``capped`` is True under a 封顶 cap (fitted on app
rules), False without one (seed rules). ``NOTES`` says what each was fitted on."""

from __future__ import annotations

__all__ = ["ADVANTAGE", "NOTES"]

ADVANTAGE: dict[bool, tuple[tuple[float, ...], float]] = {
    True: (
        (
            -0.03675,
            0.54755,
            -0.11102,
            -3.1541,
            0.59449,
            1.6545,
            -0.31905,
            -0.80509,
            0.05453,
            0.01637,
            -0.2448,
            -0.16369,
            -0.57444,
            -1.86483,
            -0.29083,
            1.20997,
            0.26045,
            0.09097,
            0.18661,
            0.27627,
        ),
        0.0,
    ),
    False: (
        (
            0.20447,
            -0.06261,
            2.21205,
            -0.75183,
            0.39213,
            0.29876,
            -1.10761,
            -0.57832,
            0.01586,
            0.02194,
            -0.1981,
            -0.31428,
            -0.17383,
            0.06251,
            -0.00589,
            0.50342,
            0.04923,
            0.04697,
            0.59109,
            0.33,
        ),
        0.0,
    ),
}
NOTES: dict[bool, str] = {
    True: "204532 random draws, 40000 hands (app-2.jsonl), lam 0.01",
    False: "276970 random draws, 40000 hands (seed-2.jsonl), lam 0.01",
}
