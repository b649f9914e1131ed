"""benchmarks/expert_tuning.py prices as a parameterized copy of the expert: with no change it must play as the
expert does, or its screens (docs/bots.md) would measure a drifted copy. Run in a subprocess: the module
registers its variants as bots, which must not join this process's registry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_tuning_copy_plays_as_the_expert() -> None:
    proc = subprocess.run(
        [sys.executable, "expert_tuning.py", "--check", "--hands", "4"],
        cwd=BENCHMARKS,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Tuned() = expert on" in proc.stdout
