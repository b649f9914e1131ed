"""Observations carry nothing hidden: two deals with the same own tiles and the same public history but different
hidden tiles give seat 0 identical observations until something differs in public.

Deal B keeps seat 0's hand and the whole wall (so every draw that becomes public by a discard is the same) and
deals the other seats' tiles among them anew. The others play a policy that reads only what is public where it
can (discard the drawn tile, pass every claim, a fixed void), so both hands stay alike in public for long
stretches; seat 0 plays a seeded random policy on its own observations. At each of seat 0's decisions, while
its filtered event stream (``events_for(0)``: everything it may know) is the same in both hands, its
observation must be too. A negative control shows the harness catches a leak.
"""

from __future__ import annotations

from typing import Any

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.rl import encode, raw_env
from twin_deals import compare, observe_env


@pytest.mark.parametrize("preset", ["app", "seed", "bloody_kong"])
def test_hidden_tiles_never_reach_an_observation(preset: str) -> None:
    rules = sm.Rules.preset(preset)
    total = 0
    for seed in range(12):
        compared, differed = compare(rules, seed, observe_env)
        assert not differed, f"seed {seed}: an observation differed while the public history was the same"
        total += compared
    assert total >= 150, f"only {total} observations compared: the twin deals diverge in public too soon"


def test_the_comparison_catches_a_leak() -> None:
    """Negative control: an observer that adds seat 1's own view (hidden from seat 0) is caught at once."""

    def leaky(e: raw_env, agent: str) -> dict[str, Any]:
        obs = observe_env(e, agent)
        assert e.game is not None
        return {**obs, "observation": obs["observation"] + encode(e.game.view(1))}

    rules = sm.Rules.preset("app")
    assert all(compare(rules, seed, leaky) == (1, True) for seed in range(3))
