"""The install docs/rl.md gives works: ``make dist`` builds a wheel, and the wheel installed into a fresh venv runs
an env step and ``scmj`` from that venv, with no source tree on the path.

The fresh venv installs the wheel alone (``--no-deps --no-index``); its dependencies (numpy, gymnasium,
pettingzoo) are lent from the test's own environment by a path file, so that the test needs no network for them.
Building the wheel uses pip's build isolation (setuptools and wheel from the index, or pip's cache), as
``make dist`` does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STEP = """
import sys
import gymnasium
import numpy as np
import sichuan_mahjong, sichuan_mahjong.rl as rl
assert sichuan_mahjong.__file__.startswith(sys.prefix), sichuan_mahjong.__file__
e = rl.env(rules="app", seed=0)
e.reset()
e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
g = gymnasium.make("SichuanMahjong-v0", opponents="expert")
obs, _ = g.reset(seed=0)
g.step(int(np.flatnonzero(obs["action_mask"])[0]))
print("one step", sichuan_mahjong.compiled.describe())
"""


def _run(*args: str | Path, env: dict[str, str] | None = None, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        [str(a) for a in args], check=False, capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_wheel_installs_into_a_fresh_venv_and_steps_an_env(tmp_path: Path) -> None:
    tree = tmp_path / "clone"  # the clone's tracked sources only: no build/, egg-info or compiled modules
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"))
    (tree / "src" / "sichuan_mahjong" / "compiled.txt").unlink(missing_ok=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, ".", cwd=tree)  # what `make dist` runs
    (wheel,) = dist.glob("sichuan_mahjong-*-py3-none-any.whl")
    fresh = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=True).create(fresh)
    python = fresh / "bin" / "python"
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    lent = sysconfig.get_paths()["purelib"]  # the dependencies, without this checkout's package
    (Path(site) / "zz_lent_dependencies.pth").write_text(lent + "\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    _run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel, env=env)
    out = _run(python, "-c", STEP, env=env, cwd=tmp_path)
    assert out.startswith("one step engine: pure Python")
    assert _run(fresh / "bin" / "scmj", "--version", env=env, cwd=tmp_path).startswith("scmj 0.")


def test_make_dist_and_the_docs_name_the_commands_that_work() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^dist:.*\n(\t.*\n)*\t\$\(BIN\)/pip wheel --no-deps -w dist \.$", makefile, re.M)
    docs = (ROOT / "docs" / "rl.md").read_text()
    assert "pip install -e '.[rl]'" in docs and "pip install 'dist/sichuan_mahjong-" in docs
    assert "pip install 'sichuan-mahjong[rl]'" not in docs  # not on the index: it would fail as written


def test_make_compiled_installs_only_what_building_needs() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[]", d)[0] for d in extras["compile"]}
    assert names == {"mypy", "setuptools", "sichuan-mahjong"} and "sichuan-mahjong[rl]" in extras["compile"]
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^compiled: (\S+)$", makefile, re.M)
    assert target is not None and target.group(1) == "$(COMPILE_STAMP)"
    assert re.search(r"^\$\(COMPILE_STAMP\):.*\n(\t.*\n)*\t\$\(BIN\)/pip install -q -e '\.\[compile\]'", makefile, re.M)
