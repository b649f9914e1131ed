"""The expert's constants are parameters (``ExpertParams``), not a copy of its pricing: unchanged they are the
shipped expert; each changed one changes its play somewhere; benchmarks/expert_tuning.py builds its variants
from them (in a subprocess: the module registers its variants as bots, which must not join this registry)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents.expert import DEFAULT_PARAMS, ExpertAgent, ExpertParams
from sichuan_mahjong.game.state import Game

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def differences(params: ExpertParams, hands: int) -> tuple[int, int]:
    """(decisions, decisions where an expert with ``params`` answers otherwise) in hands of four shipped experts."""
    n = differ = 0
    for preset in ("seed", "app"):
        for g in range(hands):
            game = Game(sm.Rules.preset(preset), seed=g)
            bots = [ExpertAgent(seed=g * 4 + s) for s in range(4)]
            twin = ExpertAgent(seed=0, params=params)
            while not game.is_over:
                answers = {}
                for s, legal in game.to_act().items():
                    view = game.view(s)
                    answers[s] = bots[s].act(view, legal)
                    differ += twin.act(view, legal) != answers[s]
                    n += 1
                game.step(answers)
    return n, differ


def test_the_default_params_are_the_shipped_expert() -> None:
    assert ExpertAgent().params is DEFAULT_PARAMS
    n, differ = differences(ExpertParams(), 3)
    assert n > 300 and differ == 0


@pytest.mark.parametrize(
    "changes",
    [
        {"pung_margin": 3.0},
        {"boost": 0.3, "slow": 2.0},
        {"scale": 0.2},
        {"trip_root": 2.0},
        {"flush_off": 0, "flush_fan": 6.0},
    ],
)
def test_a_changed_constant_changes_the_play(changes: dict[str, Any]) -> None:
    n, differ = differences(replace(DEFAULT_PARAMS, **changes), 3)
    assert differ > 0, (changes, n)


def test_the_tuning_variants_are_experts_with_changed_params() -> None:
    code = (
        "import expert_tuning as t\n"
        "from sichuan_mahjong.agents import make_agent\n"
        "from sichuan_mahjong.agents.expert import DEFAULT_PARAMS\n"
        "bot = make_agent('t_pung13', seed=1)\n"
        "assert bot.params.pung_margin == 1.3 and bot.params.kong_slack == DEFAULT_PARAMS.kong_slack\n"
        "assert make_agent('t_d02', seed=1).danger_scale == 0.2\n"
        "assert make_agent('t_nopass', seed=1).params.pass_win is False\n"
        "try:\n"
        "    t.tuned({'pung': 1.0})\n"
        "except ValueError as e:\n"
        "    print(e)\n"
        "print(len(t.VARIANTS), 'variants')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=BENCHMARKS, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "unknown expert constant 'pung'; constants: danger, boost_ready" in proc.stdout
    assert "36 variants" in proc.stdout
