"""The compiled engine (scripts/compile.py, ``make compiled``): what runs compiled is what the record says, and a
source changed after compiling is refused rather than run stale."""

from __future__ import annotations

import hashlib
import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from sichuan_mahjong import compiled

ENGINE = ("sichuan_mahjong.game.state", "sichuan_mahjong.hand.analysis", "sichuan_mahjong.rl.tracker")


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


def _tree(tmp_path: Path, recorded: bytes, actual: bytes | None) -> Path:
    """A src tree whose record lists sichuan_mahjong/game/state.py with the hash of ``recorded``."""
    package = tmp_path / "sichuan_mahjong"
    (package / "game").mkdir(parents=True)
    if actual is not None:
        (package / "game" / "state.py").write_bytes(actual)
    record = package / "compiled.txt"
    record.write_text(f"{hashlib.sha256(recorded).hexdigest()}  sichuan_mahjong/game/state.py\n", encoding="utf-8")
    return record


def test_an_unchanged_source_passes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compiled, "RECORD", _tree(tmp_path, b"x = 1\n", b"x = 1\n"))
    compiled.check()
    assert compiled.modules() == ["sichuan_mahjong.game.state"]


@pytest.mark.parametrize("actual", [b"x = 2\n", None], ids=["edited", "deleted"])
def test_a_changed_source_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, actual: bytes | None) -> None:
    monkeypatch.setattr(compiled, "RECORD", _tree(tmp_path, b"x = 1\n", actual))
    with pytest.raises(compiled.StaleCompiledModuleError, match=r"game/state\.py changed after it was compiled"):
        compiled.check()


def test_nothing_compiled_nothing_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(compiled, "RECORD", tmp_path / "compiled.txt")
    compiled.check()
    assert compiled.modules() == []
