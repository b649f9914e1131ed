"""The fitted advantages of :mod:`~sichuan_mahjong.agents.advantage`, written by
``scripts/discard_advantage.py fit --write`` (regenerate it; do not edit by hand).

``ADVANTAGE[capped]`` is (weights of ``CANDIDATE_FEATURES``, margin): a candidate replaces the expert's
discard when its weighted features exceed the margin; ``CLAIMS[capped]`` the same for ``CLAIM_FEATURES``
and the expert's pass, pung or kong (a rule set without one leaves claims to the master's search).
``capped`` is True under a 封顶 cap (fitted on app rules), False without one (seed rules). ``NOTES``
says what each was fitted on."""

from __future__ import annotations

__all__ = ["ADVANTAGE", "CLAIMS", "NOTES"]

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
            -0.06217,
            -0.01392,
            1.67656,
            -0.83992,
            0.09123,
            0.60101,
            -0.33031,
            -0.59106,
            0.08713,
            -0.03931,
            -0.21902,
            -0.14886,
            -0.17257,
            -0.36055,
            0.07369,
            1.09269,
            0.11382,
            0.00899,
            0.32593,
            0.01346,
        ),
        0.0,
    ),
}
CLAIMS: dict[bool, tuple[tuple[float, ...], float]] = {
    True: (
        (
            -0.26928,
            1.56378,
            0.66929,
            -0.6318,
            0.01443,
            0.24993,
            -0.81568,
            -0.51978,
            0.39907,
            -0.23992,
            0.09976,
            5.17331,
            1.01767,
            0.06673,
            0.4432,
            1.35332,
            -0.24879,
        ),
        0.3,
    ),
    False: (
        (
            -0.158,
            1.02894,
            0.66617,
            -0.35156,
            -0.05084,
            0.18339,
            -0.25531,
            -0.41738,
            0.86549,
            -0.14723,
            -0.38344,
            2.19615,
            0.97426,
            -0.19231,
            0.53291,
            1.08591,
            -0.26721,
        ),
        0.2,
    ),
}
NOTES: dict[str, str] = {
    "claim app": "154373 random draws, 80000 hands (claim-app-11.jsonl, claim-app-12.jsonl), lam 0.01",
    "claim seed": (
        "354674 random draws, 180000 hands (claim-seed-11.jsonl, claim-seed-12.jsonl, claim-seed-13.jsonl, "
        "claim-seed-14.jsonl), lam 0.01"
    ),
    "discard app": "204532 random draws, 40000 hands (app-2.jsonl), lam 0.01",
    "discard seed": "275007 random draws, 40000 hands (live-seed-21.jsonl, live-seed-22.jsonl), lam 0.03",
}
