"""The imitation example of docs/rl.md ("Imitation over the loader") runs as written over a small dataset."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np

from sichuan_mahjong.rl import dataset

ROOT = Path(__file__).resolve().parents[2]
SIZES = 'PATH, EPOCHS, LR = "expert-400", 3, 0.5'


def _example() -> str:
    section = (ROOT / "docs" / "rl.md").read_text().split("### Imitation over the loader", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert code is not None, "docs/rl.md has no python block under its imitation example"
    return code.group(1)


def test_the_docs_imitation_example_runs_and_learns(tmp_path: Path) -> None:
    code = _example()
    assert SIZES in code and len(code.splitlines()) <= 24  # the sizes the printed lines were made with; short
    dataset.write(tmp_path / "small", agents="expert", hands=4, rules="app", seed=0)
    namespace: dict[str, object] = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace(SIZES, f"PATH, EPOCHS, LR = {str(tmp_path / 'small')!r}, 2, 0.5"), "rl.md", "exec"),
             namespace)  # fmt: skip
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["epoch 1", "epoch 2"]
    shares = [float(re.search(r"action ([\d.]+)% of", line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert all(0 < s <= 100 for s in shares)
    weights = namespace["W"]
    assert isinstance(weights, np.ndarray) and weights.any()  # the batches moved the policy
