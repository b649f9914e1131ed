"""Game's private fields are the game-state modules' own: every other module goes through Game's public API.

An AST scan: no attribute that the game-state modules use on ``self`` with a leading underscore (``_wall``,
``_streams``, ``_counts``, ...) is written on any other object outside them, in the package, its scripts or its
benchmarks, nor read in the package (a script or benchmark may read a real hand's hidden state to measure it).
A module that needs the whole position takes ``Game.snapshot()``; one that builds a game at a position passes a
:class:`~sichuan_mahjong.game.snapshot.Snapshot` to ``Game.from_position``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "sichuan_mahjong"
GAME = PACKAGE / "game"
#: The modules that make up Game (its class and the classes it is built on).
STATE = ("state.py", "turns.py", "wins.py", "options.py", "board.py")
#: Modules allowed to read (never write) Game's private fields, and why.
READERS = {
    # The tail of the engine's own IllegalActionError messages, called from Game's answer check: it explains a
    # refusal from the state refused, and never changes it.
    GAME / "why.py": "the engine's refusal messages",
}


def _private_fields() -> set[str]:
    names: set[str] = set()
    for name in STATE:
        for node in ast.walk(ast.parse((GAME / name).read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                names.add(node.attr)
    return names


def _sources() -> list[Path]:
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]
    paths += (ROOT / "benchmarks").rglob("*.py")
    return sorted(p for p in paths if p.parent != GAME or p.name not in STATE)


def _written(tree: ast.AST) -> set[int]:
    """The ids of the Attribute nodes assigned, augmented or deleted (``x._f = ...``, ``x._f[i] = ...``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        else:
            continue
        todo = list(targets)
        while todo:
            t = todo.pop()
            if isinstance(t, ast.Tuple | ast.List):
                todo.extend(t.elts)
            elif isinstance(t, ast.Subscript | ast.Starred):
                todo.append(t.value)
            elif isinstance(t, ast.Attribute):
                out.add(id(t))
    return out


def test_only_the_game_state_modules_touch_games_private_fields() -> None:
    fields = _private_fields()
    assert {"_wall", "_head", "_tail", "_streams", "_counts", "_turn"} <= fields
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = {"self", "cls"} | {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        written = _written(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr not in fields:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in own:
                continue  # a field of the module's own objects that happens to share a name
            if id(node) not in written and (path in READERS or PACKAGE not in path.parents):
                continue
            what = "writes" if id(node) in written else "reads"
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {what} {ast.unparse(node)}")
    assert not found, "Game's private fields used outside the game-state modules:\n" + "\n".join(found)
