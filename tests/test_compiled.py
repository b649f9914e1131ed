"""The compiled engine (scripts/compile.py, ``make compiled``): what runs compiled is what the record says, and a
source changed after compiling is refused rather than run stale."""

from __future__ import annotations

import hashlib
import importlib
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from sichuan_mahjong import compiled

ENGINE = (
    "sichuan_mahjong.game.state",
    "sichuan_mahjong.game.turns",
    "sichuan_mahjong.game.wins",
    "sichuan_mahjong.game.options",
    "sichuan_mahjong.game.board",
    "sichuan_mahjong.hand.analysis",
    "sichuan_mahjong.tiles",
    "sichuan_mahjong.rl.tracker",
    "sichuan_mahjong.rl.layout",
    "sichuan_mahjong.rl.spaces",
    "sichuan_mahjong.agents.hand",
    "sichuan_mahjong.agents.efficient",
    "sichuan_mahjong.agents.expert",
)


def _is_extension(module: str) -> bool:
    path = importlib.import_module(module).__file__
    return path is not None and path.endswith(tuple(EXTENSION_SUFFIXES))


def test_what_runs_compiled_is_what_the_record_says() -> None:
    listed = set(compiled.modules())
    assert listed <= set(ENGINE)
    for module in ENGINE:
        assert _is_extension(module) == (module in listed), module
    if os.environ.get("SCMJ_EXPECT_COMPILED"):  # make test's second pass runs against a compiled copy
        assert listed == set(ENGINE)


def _tree(tmp_path: Path, state: bytes | None, tiles: bytes | None) -> Path:
    """A src tree whose record lists game/state.py (compiled) and tiles.py (imported), both as ``x = 1``."""
    package = tmp_path / "sichuan_mahjong"
    (package / "game").mkdir(parents=True)
    recorded = hashlib.sha256(b"x = 1\n").hexdigest()
    lines = ""
    for kind, path, actual in (("compiled", "game/state.py", state), ("imported", "tiles.py", tiles)):
        if actual is not None:
            (package / path).write_bytes(actual)
        lines += f"{recorded}  {kind}  sichuan_mahjong/{path}\n"
    (package / "compiled.txt").write_text(lines, encoding="utf-8")
    return package / "compiled.txt"


def test_unchanged_sources_pass(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compiled, "RECORD", _tree(tmp_path, b"x = 1\n", b"x = 1\n"))
    compiled.check()
    assert compiled.modules() == ["sichuan_mahjong.game.state"]


@pytest.mark.parametrize(
    ("state", "tiles", "message"),
    [
        (b"x = 2\n", b"x = 1\n", r"game/state\.py changed after it was compiled;"),
        (None, b"x = 1\n", r"game/state\.py changed after it was compiled;"),
        (b"x = 1\n", b"x = 2\n", r"tiles\.py changed after it was compiled into the compiled modules"),
    ],
    ids=["edited", "deleted", "import-edited"],
)
def test_a_changed_source_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, state: bytes | None, tiles: bytes | None, message: str
) -> None:
    monkeypatch.setattr(compiled, "RECORD", _tree(tmp_path, state, tiles))
    with pytest.raises(compiled.StaleCompiledModuleError, match=message):
        compiled.check()


def test_nothing_compiled_nothing_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compiled, "RECORD", tmp_path / "compiled.txt")
    compiled.check()
    assert compiled.modules() == []


def test_the_bots_run_without_mypy_extensions() -> None:
    """The bots mark their classes for the compiled build with ``mypyc_attr``; a pure install without the dev
    extra (no mypy_extensions) still imports and plays them."""
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"
        "import sichuan_mahjong as sm\n"
        "from sichuan_mahjong.sim import run_tournament\n"
        "print(run_tournament(['expert', 'efficient', 'expert', 'efficient'], 2, sm.Rules(), seed=1).hands)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2"]


def _venv_layout(copy: Path, into: Path) -> None:
    """A venv build (what ``scripts/compile.py --venv`` leaves) made of a compiled copy's extensions and record."""
    files = [copy / "sichuan_mahjong" / "compiled.txt", *copy.glob("sichuan_mahjong_native*")]
    for suffix in EXTENSION_SUFFIXES:
        files += (copy / "sichuan_mahjong").rglob(f"*{suffix}")
    for f in files:
        dest = into / f.relative_to(copy)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(f.read_bytes())


PROBE = """
import pickle
import numpy as np
import sichuan_mahjong as sm
from sichuan_mahjong import compiled, rl
import sichuan_mahjong.game.state as state
e = rl.env(rules="app", seed=1)
e.reset()
for _ in range(20):
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
twin = pickle.loads(pickle.dumps(e))
assert np.array_equal(twin.observe(twin.agent_selection)["observation"], e.observe(e.agent_selection)["observation"])
print(len(compiled.modules()), state.__file__)
"""


@pytest.mark.skipif(not os.environ.get("SCMJ_EXPECT_COMPILED"), reason="uses the compiled copy of make test's pass")
def test_a_venv_build_runs_only_where_it_was_put(tmp_path: Path) -> None:
    """``make compiled`` puts the build in the venv (SCMJ_COMPILED_DIR stands for another venv's here): the pure
    sources then run compiled there, and nowhere else; SCMJ_PURE ignores it; a changed source is refused."""
    copy = Path(compiled.__file__).resolve().parent.parent  # the compiled copy this pass runs (build/compiled)
    src = Path(__file__).resolve().parents[1] / "src"
    build = tmp_path / "venv" / "sichuan_mahjong_compiled"
    _venv_layout(copy, build)
    base = {k: v for k, v in os.environ.items() if k != "SCMJ_EXPECT_COMPILED"} | {"PYTHONPATH": str(src)}

    def probe(**env: str) -> subprocess.CompletedProcess[str]:
        run = [sys.executable, "-c", PROBE]
        return subprocess.run(run, env=base | env, capture_output=True, text=True, check=False, timeout=300)

    here = probe(SCMJ_COMPILED_DIR=str(build))
    assert here.returncode == 0, here.stderr
    count, path = here.stdout.split()
    assert int(count) == len(ENGINE) and path.startswith(str(build)) and path.endswith(tuple(EXTENSION_SUFFIXES))
    elsewhere = probe(SCMJ_COMPILED_DIR=str(tmp_path / "another-venv"))
    assert elsewhere.returncode == 0 and elsewhere.stdout.split() == ["0", str(src / "sichuan_mahjong/game/state.py")]
    pure = probe(SCMJ_COMPILED_DIR=str(build), SCMJ_PURE="1")
    assert pure.returncode == 0 and pure.stdout.split()[0] == "0"
    record = build / "sichuan_mahjong" / "compiled.txt"
    record.write_text("0" * 64 + record.read_text()[64:])  # as if game/state.py changed since
    stale = probe(SCMJ_COMPILED_DIR=str(build))
    assert stale.returncode != 0 and "StaleCompiledModuleError" in stale.stderr and "make compiled" in stale.stderr
