"""scripts/build_master.py: the one command that rebuilds the master's fitted parts runs every step end to end
(a tiny scale, ``--check``: nothing written), and refuses bad arguments by name."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from sichuan_mahjong.agents.advantage_model import NOTES

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "build_master.py"
_spec = importlib.util.spec_from_file_location("build_master", SCRIPT)
assert _spec is not None and _spec.loader is not None
bm = importlib.util.module_from_spec(_spec)
sys.modules["build_master"] = bm  # its dataclasses look their module up
_spec.loader.exec_module(bm)
MODELS = sorted((ROOT / "src" / "sichuan_mahjong" / "agents").glob("*_model.py"))


def build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600
    )


def digests() -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in MODELS]


def test_every_step_runs_and_a_check_writes_no_model(tmp_path: Path) -> None:
    before = digests()
    done = build("--scale", "0.0001", "--check", "--pure", "--out", str(tmp_path))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    steps = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert [s.split("]")[0] for s in steps] == [f"[{i}/6" for i in range(1, 7)]
    recipe = {c.name: bm.scaled(c.hands, 0.0001) for f in bm.FITS for c in f.collects}
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == sorted(recipe)
    assert {"app-2.jsonl", "live-seed-21.jsonl"} <= recipe.keys() and recipe["claim-seed-13.jsonl"] == 5
    for name, hands in recipe.items():  # each collect played its hands, one line each
        lines = (tmp_path / name).read_text().splitlines()
        assert sum('"eligible"' in line for line in lines) == hands, name
    for f in bm.FITS:  # the progress line of each step ends at all its hands
        total = sum(recipe[c.name] for c in f.collects)
        assert f"] {total}/{total} hands" in done.stdout
    assert digests() == before


def test_the_records_are_named_as_the_shipped_fits_notes_name_them() -> None:
    names = [c.name for f in bm.FITS for c in f.collects]
    notes = " ".join(NOTES.values())
    assert names and all(name in notes for name in names), (names, notes)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scale", "0"], "--scale must be above 0, got 0.0"),
        (["--budget-min", "-3"], "--budget-min must be above 0, got -3.0"),
        (["--scale", "1", "--budget-min", "5"], "give --scale or --budget-min, not both"),
        (["--jobs", "0"], "--jobs must be at least 1, got 0"),
    ],
)
def test_bad_arguments_are_refused_by_name(args: list[str], message: str, tmp_path: Path) -> None:
    done = build(*args, "--out", str(tmp_path))
    assert done.returncode == 2 and message in done.stderr
    assert not list(tmp_path.iterdir())
