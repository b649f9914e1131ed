"""scripts/build_neural.py: the one command that rebuilds the ``neural`` bot runs every step end to end at a tiny
scale (``--check``: no weights written), and refuses bad arguments by name."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "build_neural.py"
WEIGHTS = ROOT / "src" / "sichuan_mahjong" / "agents" / "neural_weights.npz"


def build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600
    )


def test_every_step_runs_and_a_check_writes_no_weights(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    before = hashlib.sha256(WEIGHTS.read_bytes()).hexdigest()
    done = build("--scale", "0.002", "--epochs", "1", "--jobs", "1", "--check", "--out", str(tmp_path))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    steps = [line.split("]")[0] for line in done.stdout.splitlines() if line.startswith("[")]
    assert steps == [f"[{i}/4" for i in range(1, 5)]
    assert "] 8/8 hands" in done.stdout and "epoch 1: loss" in done.stdout and "held-out agreement" in done.stdout
    manifest = json.loads((tmp_path / "expert-app-40-8" / "manifest.json").read_text())
    assert manifest["agents"] == ["expert"] * 4 and manifest["hands"] == 8
    assert hashlib.sha256(WEIGHTS.read_bytes()).hexdigest() == before
    again = build("--scale", "0.002", "--epochs", "1", "--jobs", "1", "--check", "--out", str(tmp_path))
    assert again.returncode == 0 and "reusing" in again.stdout  # the same recipe's data is not played again


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scale", "0"], "--scale must be above 0, got 0.0"),
        (["--budget-min", "-3"], "--budget-min must be above 0, got -3.0"),
        (["--scale", "1", "--budget-min", "5"], "give --scale or --budget-min, not both"),
        (["--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["--epochs", "0"], "--epochs must be at least 1, got 0"),
    ],
)
def test_bad_arguments_are_refused_by_name(args: list[str], message: str, tmp_path: Path) -> None:
    done = build(*args, "--out", str(tmp_path / "data"))
    assert done.returncode == 2 and message in done.stderr
    assert not (tmp_path / "data").exists()
