"""Which modules run compiled (``make compiled``: scripts/compile.py builds them with mypyc), and a guard.

A compiled module is a C extension imported in its source's place. ``make compiled`` (``scripts/compile.py
--venv``) puts the extensions inside the venv that built them, in ``<venv>/sichuan_mahjong_compiled`` (or the
directory ``SCMJ_COMPILED_DIR`` names): when this module is imported — ``sichuan_mahjong/__init__.py`` does it
before anything else — it finds them there and has Python import them instead of their sources, so only that
venv runs compiled and another venv of the same clone stays pure Python. ``SCMJ_PURE=1`` ignores them. A build
in place or a compiled copy (``scripts/compile.py`` alone, ``--into DIR``) keeps its extensions beside their
sources, found as any module is; its record beside this file wins over a venv's.

The record, ``compiled.txt``, holds the hash of each source compiled and of each package source they import
(mypyc builds their types and constants in). :func:`check` refuses to go on when one of them has changed since, so
an edit never runs against stale extensions unnoticed. :func:`describe` says which build runs.

>>> all(name.startswith("sichuan_mahjong.") for name in modules())  # e.g. "sichuan_mahjong.game.state"
True
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path

__all__ = ["RECORD", "StaleCompiledModuleError", "check", "describe", "modules", "venv_build"]

#: The record of a build in place or of a compiled copy (``--into``), beside this file.
RECORD = Path(__file__).with_name("compiled.txt")
#: The package's sources: what every record's paths are relative to.
SRC = Path(__file__).resolve().parent.parent


def venv_build() -> Path:
    """Where ``make compiled`` puts this venv's compiled modules: ``SCMJ_COMPILED_DIR``, else
    ``<sys.prefix>/sichuan_mahjong_compiled``."""
    return Path(os.environ.get("SCMJ_COMPILED_DIR") or Path(sys.prefix) / "sichuan_mahjong_compiled")


def _record_file() -> Path:
    """The record in force: beside this file when there is one, else the venv build's (unless SCMJ_PURE)."""
    if RECORD.exists() or os.environ.get("SCMJ_PURE"):
        return RECORD
    return venv_build() / "sichuan_mahjong" / "compiled.txt"


class StaleCompiledModuleError(ImportError):
    """A compiled module's source changed after it was compiled."""


def _recorded() -> list[tuple[str, str, str]]:
    """(sha256, "compiled" or "imported", path under src/) of each source recorded; empty when nothing is compiled."""
    record = _record_file()
    if not record.exists():
        return []
    out = []
    for line in record.read_text(encoding="utf-8").splitlines():
        kind, _, path = line[66:].partition("  ")
        out.append((line[:64], kind, path))
    return out


def modules() -> list[str]:
    """The dotted names of the modules that run compiled (from the record)."""
    return [path.removesuffix(".py").replace("/", ".") for _, kind, path in _recorded() if kind == "compiled"]


def describe() -> str:
    """One line for a benchmark's output: which build runs.

    >>> describe().startswith(("engine: compiled (", "engine: pure Python"))
    True
    """
    native = modules()
    return f"engine: compiled ({', '.join(native)})" if native else "engine: pure Python (`make compiled`: docs/rl.md)"


def check() -> None:
    """Raise :class:`StaleCompiledModuleError` if a source compiled, or one they import, changed since."""
    src = RECORD.parent.parent if RECORD.exists() else SRC
    for digest, kind, path in _recorded():
        source = src / path
        if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            what = "was compiled" if kind == "compiled" else "was compiled into the compiled modules that import it"
            raise StaleCompiledModuleError(
                f"sichuan_mahjong: {path} changed after it {what}; run `make compiled` to rebuild "
                "or `make pure` to remove the compiled modules (scripts/compile.py)"
            )


class _VenvBuild(MetaPathFinder):
    """Imports the compiled modules of a venv build from there, in their sources' place."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        return spec_from_file_location(name, file, loader=ExtensionFileLoader(name, str(file)))


def _use_venv_build() -> None:
    """Import the compiled modules from the venv build, when it is the build in force."""
    if RECORD.exists() or os.environ.get("SCMJ_PURE"):
        return
    root = venv_build()
    files: dict[str, Path] = {}
    for name in modules():
        stem = root / name.replace(".", "/")
        found = [stem.with_name(stem.name + suffix) for suffix in EXTENSION_SUFFIXES]
        files[name] = next((f for f in found if f.exists()), found[0])
    if files:
        sys.path.append(str(root))  # the extensions' shared library is a top-level module there
        sys.meta_path.insert(0, _VenvBuild(files))


check()
_use_venv_build()
