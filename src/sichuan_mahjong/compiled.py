"""Which modules run compiled (``make compiled``: scripts/compile.py builds them with mypyc), and a guard.

A compiled module is a C extension beside its source, imported in its place. ``compiled.txt`` beside this file
records the hash of each source compiled and of each package source they import (mypyc builds their types and
constants in). :func:`check` refuses to go on when one of them has changed since, so an edit never runs against
stale extensions unnoticed; it runs when this module is imported, which ``sichuan_mahjong/__init__.py`` does
before anything else.

>>> all(name.startswith("sichuan_mahjong.") for name in modules())  # e.g. "sichuan_mahjong.game.state"
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["RECORD", "StaleCompiledModuleError", "check", "describe", "modules"]

RECORD = Path(__file__).with_name("compiled.txt")


class StaleCompiledModuleError(ImportError):
    """A compiled module's source changed after it was compiled."""


def _recorded() -> list[tuple[str, str, str]]:
    """(sha256, "compiled" or "imported", path under src/) of each source recorded; empty when nothing is compiled."""
    if not RECORD.exists():
        return []
    out = []
    for line in RECORD.read_text(encoding="utf-8").splitlines():
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
    src = RECORD.parent.parent
    for digest, kind, path in _recorded():
        source = src / path
        if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            what = "was compiled" if kind == "compiled" else "was compiled into the compiled modules that import it"
            raise StaleCompiledModuleError(
                f"sichuan_mahjong: {path} changed after it {what}; run `make compiled` to rebuild "
                "or `make pure` to remove the compiled modules (scripts/compile.py)"
            )


check()
