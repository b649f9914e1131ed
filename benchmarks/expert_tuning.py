"""The expert's constants, screened on duplicate deals against three experts (a tuning harness).

``cd benchmarks && ../.venv/bin/python strength.py --import expert_tuning --agent t_pung13 --baseline-agent
expert --field expert --rules app --hands 4000 --jobs 1 --seed 200`` (about 3 minutes; the expert scores exactly
0 against three copies of itself, so the figure is the variant's own gain).

Each variant is the shipped expert with one or a few of its constants changed: ``ExpertAgent(params=...)``
(:class:`~sichuan_mahjong.agents.expert.ExpertParams`; ``danger`` is its ``danger_scale``). No copy of the
pricing is kept here, so a screen always measures the expert as it ships; it runs compiled too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.expert import DANGER_SCALE, DEFAULT_PARAMS, ExpertAgent, ExpertParams

VARIANTS: dict[str, dict[str, float]] = {
    "t_same": {},
    "t_pung09": {"pung_margin": 0.9},
    "t_pung13": {"pung_margin": 1.3},
    "t_pung16": {"pung_margin": 1.6},
    "t_kong0": {"kong_slack": 0},
    "t_kong2": {"kong_slack": 2},
    "t_akong1": {"added_kong_danger": 1.0},
    "t_akong01": {"added_kong_danger": 0.1},
    "t_declare2": {"declare_live": 2},
    "t_declare5": {"declare_live": 5},
    "t_nopass": {"pass_win": 0},
    "t_br16": {"boost_ready": 1.6},
    "t_br30": {"boost_ready": 3.0},
    "t_b10": {"boost": 1.0},
    "t_b20": {"boost": 2.0},
    "t_slow03": {"slow": 0.3},
    "t_slow10": {"slow": 1.0},
    "t_cj0": {"chajiao": 0.0},
    "t_cj1": {"chajiao": 1.0},
    "t_dead0": {"dead_ready": 0.0},
    "t_dead1": {"dead_ready": 1.0},
    "t_trip0": {"trip_root": 0.0},
    "t_trip6": {"trip_root": 0.6},
    "t_foff2": {"flush_off": 2},
    "t_foff6": {"flush_off": 6},
    "t_freach0": {"flush_reach": 0},
    "t_freach2": {"flush_reach": 2},
    "t_ffan15": {"flush_fan": 1.5},
    "t_ffan25": {"flush_fan": 2.5},
    "t_d0": {"danger": 0.0},
    "t_d01": {"danger": 0.1},
    "t_d02": {"danger": 0.2},
    "t_exit05": {"exit": 0.5},
    "t_exit1": {"exit": 1.0},
    "t_exit2": {"exit": 2.0},
    "t_exitm05": {"exit": -0.5},
}


def tuned(changes: dict[str, float]) -> Callable[[int | None], ExpertAgent]:
    """A factory of experts with these constants changed (names: ``danger`` and :class:`ExpertParams`' fields)."""
    unknown = sorted(set(changes) - {"danger", *ExpertParams.names()})
    if unknown:
        raise ValueError(
            f"unknown expert constant {unknown[0]!r}; constants: danger, {', '.join(ExpertParams.names())}"
        )
    danger = changes.get("danger", DANGER_SCALE)
    fields: dict[str, Any] = {k: (bool(v) if k == "pass_win" else v) for k, v in changes.items() if k != "danger"}
    params = replace(DEFAULT_PARAMS, **fields)

    def make(seed: int | None = None) -> ExpertAgent:
        return ExpertAgent(seed, danger, params=params)

    return make


for _name, _changes in VARIANTS.items():
    register(_name)(tuned(_changes))
