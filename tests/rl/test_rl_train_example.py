"""The training example of docs/rl.md runs as written, shrunk to a few hands (the full run takes minutes)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SIZES = "HANDS, EVERY, EVAL, LR = 6000, 1000, 300, 0.2"


def _example() -> str:
    md = (ROOT / "docs" / "rl.md").read_text()
    section = md.split("## Training example", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert code is not None, "docs/rl.md has no python block under its training example"
    return code.group(1)


def test_the_docs_training_example_runs_and_learns() -> None:
    code = _example()
    assert SIZES in code  # the sizes the printed curve was made with
    namespace: dict[str, object] = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace(SIZES, "HANDS, EVERY, EVAL, LR = 6, 3, 2, 0.2"), "docs/rl.md", "exec"), namespace)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("hands  points/hand vs 3x random")
    rows = [line.split() for line in lines[1:]]
    assert [r[0] for r in rows] == ["0", "3", "6"]
    assert all(len(r) == 3 for r in rows) and all(float(x) == float(x) for r in rows for x in r[1:])
    theta, bias = namespace["theta"], namespace["bias"]
    assert isinstance(theta, np.ndarray) and isinstance(bias, np.ndarray)
    assert theta.any() and bias.any()  # the training hands moved the policy


def test_the_printed_curve_in_the_docs_is_the_examples() -> None:
    md = (ROOT / "docs" / "rl.md").read_text()
    curve = md.split("## Training example", 1)[1].split("Its output", 1)[1]
    rows = re.findall(r"^\s*(\d+)\s+([+-]\d+\.\d\d)\s+([+-]\d+\.\d\d)$", curve, flags=re.MULTILINE)
    assert [int(r[0]) for r in rows] == list(range(0, 6001, 1000))
