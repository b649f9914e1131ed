"""Compile the engine's hot modules to C extensions with mypyc: ``make compiled`` (``make pure`` undoes it).

The package stays pure Python; this is an optional speed-up for simulation and RL (docs/rl.md, "Speed"). The
modules below are plain type-checked Python that mypyc turns into C extensions placed beside their sources, where
Python imports them first. ``src/sichuan_mahjong/compiled.txt`` records the hash of each source compiled and of every
package source they import: if one changes afterwards, ``import sichuan_mahjong`` refuses to run the stale
extensions and says what to do.

Needs a C compiler and Python's headers (Debian: ``gcc``, ``python3-dev``), mypy and setuptools (the ``compile``
extra, which ``make compiled`` installs).

    python scripts/compile.py --venv      # build into this venv alone (`make compiled`; about a minute)
    python scripts/compile.py             # build in place, beside the sources (every venv of the clone sees it)
    python scripts/compile.py --clean     # remove every compiled module built in place and the record
    python scripts/compile.py --into DIR  # a compiled copy of the package in DIR (put DIR first on PYTHONPATH)

``--venv`` compiles a copy (in build/venv-compiled) and moves its extensions and record to
``<venv>/sichuan_mahjong_compiled`` (``SCMJ_COMPILED_DIR`` overrides it), where ``sichuan_mahjong/compiled.py``
finds them on import: run it with the venv's own Python.

``make test`` runs the engine's tests a second time against a copy built with ``--into`` (build/compiled).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
# The hot path of a hand: the engine, the hand analysis under it and its Tile (a native class: the tile-list
# door reads each Tile's key_weight from its struct, about 5 times as fast as from a Python object), the RL
# environments' plane tracker and mask, the bots' pricing (the master's play-outs are four experts: 1.5 to 2 times
# as fast compiled). Not game/events.py: a compiled frozen dataclass cannot be deep-copied. Not scoring.py:
# compiled, its public calls would answer a wrongly typed argument with mypyc's TypeError instead of the
# ValueError naming it.
MODULES = (
    "sichuan_mahjong/game/state.py",
    "sichuan_mahjong/game/turns.py",
    "sichuan_mahjong/game/wins.py",
    "sichuan_mahjong/game/options.py",
    "sichuan_mahjong/game/board.py",
    "sichuan_mahjong/hand/analysis.py",
    "sichuan_mahjong/tiles.py",
    "sichuan_mahjong/rl/tracker.py",
    "sichuan_mahjong/rl/layout.py",
    "sichuan_mahjong/rl/spaces.py",
    "sichuan_mahjong/agents/hand.py",
    "sichuan_mahjong/agents/efficient.py",
    "sichuan_mahjong/agents/expert.py",
)
# Under the src directory compiled; read by sichuan_mahjong/compiled.py, which this script cannot import (that
# import refuses a stale build, and rebuilding one is this script's job).
RECORD = Path("sichuan_mahjong/compiled.txt")
GROUP = "sichuan_mahjong_native"  # the shared library's name (a top-level module beside the package)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def imported(src: Path, modules: tuple[str, ...]) -> list[str]:
    """The package's sources that ``modules`` import, directly or not (mypyc builds their types and constants in)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse((src / path).read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for name in names:
                if name.split(".")[0] != "sichuan_mahjong":
                    continue
                base = src / name.replace(".", "/")
                for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                    if candidate.exists():
                        todo.append(candidate.relative_to(src).as_posix())
    return sorted(seen - set(modules))


def built_files(src: Path) -> list[Path]:
    """Every extension module in the package under ``src`` (the package has none but these), the shared library
    and the record: also what an earlier build with a longer MODULES left."""
    from importlib.machinery import EXTENSION_SUFFIXES

    record = src / RECORD
    found = [record] if record.exists() else []
    for suffix in EXTENSION_SUFFIXES:
        found += (src / "sichuan_mahjong").rglob(f"*{suffix}")
    found += [p for p in src.glob(f"{GROUP}__mypyc*") if p.is_file()]
    return sorted(set(found))


def clean(src: Path) -> None:
    for path in built_files(src):
        path.unlink()
        print(f"removed {path}")


def build(src: Path) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    clean(src)
    os.chdir(src)  # mypyc names each module by its path from here
    with tempfile.TemporaryDirectory(prefix="scmj-mypyc-") as tmp:
        extensions = mypycify(list(MODULES), opt_level="3", target_dir=f"{tmp}/c", group_name=GROUP)
        setup(
            name="sichuan-mahjong-compiled",
            ext_modules=extensions,
            script_args=["-q", "build_ext", "--inplace", "--build-temp", f"{tmp}/o", "--build-lib", f"{tmp}/lib"],
        )
    lines = [f"{digest(src / m)}  compiled  {m}\n" for m in MODULES]
    lines += [f"{digest(src / m)}  imported  {m}\n" for m in imported(src, MODULES)]
    (src / RECORD).write_text("".join(lines), encoding="utf-8")
    print(f"compiled {len(MODULES)} modules in {src}: {', '.join(MODULES)}")


def copy_package(into: Path) -> Path:
    """A fresh copy of the package's sources in ``into`` (its old contents replaced); ``into`` resolved."""
    into = into.resolve()
    if not into.is_relative_to(SRC.parent):  # mypyc reads the project's mypy settings from pyproject.toml above
        raise SystemExit(f"--into must be a directory inside the repository ({SRC.parent}), got {into}")
    shutil.rmtree(into / "sichuan_mahjong", ignore_errors=True)
    shutil.copytree(SRC / "sichuan_mahjong", into / "sichuan_mahjong", ignore=shutil.ignore_patterns("__pycache__"))
    clean(into)  # the copy must not carry extensions or a record built in place
    return into


def venv_build() -> Path:
    """Where this venv's build goes (as sichuan_mahjong/compiled.py finds it; this script cannot import it)."""
    return Path(os.environ.get("SCMJ_COMPILED_DIR") or Path(sys.prefix) / "sichuan_mahjong_compiled")


def build_venv(target: Path) -> None:
    """Compile a copy, then move its extensions and record to ``target`` (old contents replaced)."""
    staging = copy_package(SRC.parent / "build" / "venv-compiled")
    build(staging)
    shutil.rmtree(target, ignore_errors=True)
    for path in built_files(staging):
        dest = target / path.relative_to(staging)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(path, dest)
    shutil.rmtree(staging)
    print(f"installed into {target}: only this venv ({sys.prefix}) runs compiled; `make pure` removes it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    parser.add_argument("--into", type=Path, metavar="DIR", help="compile a copy of the package in DIR instead")
    parser.add_argument("--venv", action="store_true", help="build into this venv alone (make compiled)")
    args = parser.parse_args()
    if args.clean:
        clean(args.into.resolve() if args.into else SRC)
        if args.venv:
            shutil.rmtree(venv_build(), ignore_errors=True)
    elif args.venv:
        build_venv(venv_build())
    else:
        build(copy_package(args.into) if args.into else SRC)


if __name__ == "__main__":
    main()
