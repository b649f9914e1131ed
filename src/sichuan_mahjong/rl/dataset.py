"""Datasets of bots' decisions for learning (``scmj dataset``), and the loader that reads them back in batches.

:func:`write` plays hands with four bots in the AEC env (:mod:`sichuan_mahjong.rl.aec`) and records every
decision of every seat: the env's observation for that seat (the planes of :mod:`~sichuan_mahjong.rl.encode`,
exactly what ``env.observe`` gives), its action mask, the action the bot took (flat index), the seat, the hand's
final points for that seat (the env's reward) and the seat's points from that decision on (the final points less
what the seat had already won or paid in the hand: 血战 wins and kongs pay as they happen). Each bot answers from
its own view and legal actions only (:func:`~sichuan_mahjong.rl.bots.bot_action`).

On disk a dataset is a directory: ``manifest.json`` (the recipe, the fields and each shard's hands and
decisions) and compressed numpy shards ``shard-00000.npz``, ... of :data:`SHARD_HANDS` hands each. Numpy's
``.npz`` rather than Parquet: the core package needs numpy alone, and pyarrow would be a new dependency for
arrays that are fixed-shape tensors anyway; ``np.load`` reads a shard anywhere. The planes are mostly zeros and
compress about tenfold.

Every hand is dealt and every bot seeded from ``seed`` and the hand's number alone, and a shard holds fixed
hands, so the same arguments give the same arrays whatever ``jobs`` is.

>>> import tempfile, pathlib
>>> from sichuan_mahjong.rl import dataset
>>> out = pathlib.Path(tempfile.mkdtemp()) / "tiny"
>>> manifest = dataset.write(out, agents="efficient", hands=2, rules="app", seed=0)
>>> manifest["hands"], manifest["decisions"] > 0
(2, True)
>>> batch = next(dataset.load(out, batch_size=8))
>>> batch["observation"].shape, batch["action_mask"].shape, batch["action"].dtype
((8, 90, 27), (8, 584), dtype('int16'))
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents import check_agent, make_agent
from sichuan_mahjong.game.actions import NUM_ACTIONS
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.aec import AGENTS, raw_env
from sichuan_mahjong.rl.bots import bot_action
from sichuan_mahjong.rl.encode import OBS_SHAPE
from sichuan_mahjong.rules import Rules

__all__ = ["FIELDS", "FORMAT", "SHARD_HANDS", "DatasetError", "hand_seed", "load", "manifest", "read", "write"]

#: Hands a shard holds (the last may hold fewer).
SHARD_HANDS: Final = 200
#: The manifest's ``format``: bumped when the fields change.
FORMAT: Final = "sichuan_mahjong.dataset/1"
#: Every field of a shard, one row a decision: its dtype and the shape of one row.
FIELDS: Final[dict[str, tuple[str, tuple[int, ...]]]] = {
    "observation": ("float32", OBS_SHAPE),  # the env's planes for the deciding seat
    "action_mask": ("int8", (NUM_ACTIONS,)),  # its legal actions
    "action": ("int16", ()),  # the flat index the bot chose
    "seat": ("int8", ()),  # the deciding seat, 0-3
    "hand": ("int32", ()),  # the hand's number in the dataset, 0 .. hands-1
    "reward": ("float32", ()),  # the seat's points for the whole hand (the env's reward)
    "points_to_go": ("float32", ()),  # the seat's points from this decision to the end of the hand
}


class DatasetError(ValueError):
    """A dataset that cannot be written or read as asked, named."""


def hand_seed(seed: int, hand: int) -> int:
    """The deal of hand ``hand`` in a dataset seeded ``seed`` (as ``scmj simulate`` seeds its deals)."""
    return (seed * 0x9E3779B1 + hand * 0x85EBCA77 + 0x165667B1) % (1 << 62)


@dataclass(frozen=True, slots=True)
class _Shard:
    """A picklable task: play hands ``start`` .. ``stop - 1`` and write them to ``path``."""

    agents: tuple[str, ...]
    rules: dict[str, object]
    seed: int
    start: int
    stop: int
    path: str


def _play(task: _Shard) -> tuple[str, int, int]:
    """Write one shard; its file name, hands and decisions."""
    rules = Rules.from_dict(task.rules)
    env = raw_env(rules)
    rows: dict[str, list[Any]] = {name: [] for name in FIELDS}
    for hand in range(task.start, task.stop):
        game_seed = hand_seed(task.seed, hand)
        bots = [make_agent(name, seed=(game_seed * 31 + s + 1) % (1 << 62)) for s, name in enumerate(task.agents)]
        env.reset(options={"game": Game(rules, seed=game_seed)})
        first = len(rows["action"])
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = AGENTS.index(agent)
            action = bot_action(env, agent, bots[seat])
            rows["observation"].append(obs["observation"])
            rows["action_mask"].append(obs["action_mask"])
            rows["action"].append(action)
            rows["seat"].append(seat)
            rows["hand"].append(hand)
            rows["points_to_go"].append(-env.view(agent).scores[seat])  # the final points are added below
            env.step(action)
        deltas = env.game.result.deltas if env.game is not None else (0, 0, 0, 0)
        for i in range(first, len(rows["action"])):
            final = float(deltas[rows["seat"][i]])
            rows["reward"].append(final)
            rows["points_to_go"][i] += final
    arrays = {
        name: np.asarray(rows[name], dtype=dtype).reshape((len(rows["action"]), *shape))
        for name, (dtype, shape) in FIELDS.items()
    }
    np.savez_compressed(task.path, **arrays)  # type: ignore[arg-type]  # numpy's stubs want positional arrays
    return Path(task.path).name, task.stop - task.start, len(rows["action"])


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(tasks: list[_Shard], jobs: int) -> Iterator[tuple[str, int, int]]:
    if jobs == 1 or len(tasks) == 1:
        yield from map(_play, tasks)
        return
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None  # workers are born ignoring it
    try:
        pool = multiprocessing.Pool(min(jobs, len(tasks)), initializer=_ignore_interrupts)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    with pool:  # leaving the block (Ctrl-C, an error) terminates the workers
        yield from pool.imap(_play, tasks)


def _agents(agents: str | Sequence[str]) -> tuple[str, ...]:
    names = [a.strip() for a in (agents.split(",") if isinstance(agents, str) else agents) if a.strip()]
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise DatasetError(f"agents: one bot for all four seats or four, comma-separated; got {len(names)}")
    for name in names:
        check_agent(name)
    return tuple(names)


def write(
    out: str | Path,
    agents: str | Sequence[str] = "expert",
    hands: int = 1000,
    rules: Rules | str = "app",
    *,
    seed: int = 0,
    jobs: int = 1,
    shard_hands: int = SHARD_HANDS,
    on_hands: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands with ``agents`` (one bot name or spec for every seat, or four) and write the dataset
    into the directory ``out`` (new, or empty); return its manifest. ``on_hands(n)`` is called as shards finish."""
    names = _agents(agents)
    rule_set = rules if isinstance(rules, Rules) else Rules.preset(rules)
    for what, value, least in (("hands", hands, 1), ("jobs", jobs, 1), ("shard_hands", shard_hands, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise DatasetError(f"{what} must be an integer of at least {least}, got {value!r}")
    where = Path(out)
    if where.exists() and (not where.is_dir() or any(where.iterdir())):
        raise DatasetError(f"{where} exists and is not an empty directory; a dataset is written into a new one")
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"cannot create {where}: {exc.strerror or exc}") from None
    rd = rule_set.to_dict()
    tasks = [
        _Shard(names, rd, seed, start, min(hands, start + shard_hands), str(where / f"shard-{i:05d}.npz"))
        for i, start in enumerate(range(0, hands, shard_hands))
    ]
    shards = []
    for name, n_hands, decisions in _run(tasks, jobs):
        shards.append({"file": name, "hands": n_hands, "decisions": decisions})
        if on_hands is not None:
            on_hands(n_hands)
    result: dict[str, Any] = {
        "format": FORMAT,
        "agents": list(names),
        "rules": rd,
        "seed": seed,
        "hands": hands,
        "decisions": sum(s["decisions"] for s in shards),
        "fields": {name: {"dtype": dtype, "shape": list(shape)} for name, (dtype, shape) in FIELDS.items()},
        "shards": shards,
    }
    (where / "manifest.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


def _directory(path: str | Path) -> Path:
    p = Path(path)
    return p.parent if p.name == "manifest.json" else p


def manifest(path: str | Path) -> dict[str, Any]:
    """The manifest of the dataset at ``path`` (its directory or its ``manifest.json``)."""
    file = _directory(path) / "manifest.json"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"no dataset at {path}: {file} not found (scmj dataset writes one)") from None
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{file}: not a dataset manifest ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DatasetError(f"{file}: not a dataset manifest of format {FORMAT}")
    return data


def _shard(directory: Path, name: str, fields: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    with np.load(directory / name) as data:
        return {f: data[f] for f in fields}


def _fields(fields: Sequence[str] | None) -> list[str]:
    chosen = list(FIELDS) if fields is None else list(fields)
    unknown = [f for f in chosen if f not in FIELDS]
    if unknown:
        raise DatasetError(f"unknown field {unknown[0]!r}; fields: {', '.join(FIELDS)}")
    return chosen


def load(
    path: str | Path,
    batch_size: int = 256,
    *,
    shuffle: bool = False,
    seed: int | None = None,
    fields: Sequence[str] | None = None,
    drop_last: bool = False,
) -> Iterator[dict[str, npt.NDArray[Any]]]:
    """One pass over the dataset at ``path`` in batches: dicts of arrays by field (``fields``, default all), each
    ``batch_size`` rows but perhaps the last (``drop_last`` drops it). ``shuffle`` visits the shards in a random
    order and the rows of each in a random order (``seed`` fixes both), carrying what is left of one shard into
    the next batch; one shard is in memory at a time."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise DatasetError(f"batch_size must be an integer of at least 1, got {batch_size!r}")
    chosen = _fields(fields)
    directory = _directory(path)
    shards = [s["file"] for s in manifest(path)["shards"]]
    rng = np.random.default_rng(seed)
    if shuffle:
        shards = [shards[i] for i in rng.permutation(len(shards))]
    carry: dict[str, npt.NDArray[Any]] | None = None
    for name in shards:
        part = _shard(directory, name, chosen)
        if shuffle:
            order = rng.permutation(len(part[chosen[0]]))
            part = {f: a[order] for f, a in part.items()}
        if carry is not None:
            part = {f: np.concatenate([carry[f], part[f]]) for f in chosen}
        n = len(part[chosen[0]])
        full = n - n % batch_size
        for start in range(0, full, batch_size):
            yield {f: a[start : start + batch_size] for f, a in part.items()}
        carry = {f: a[full:] for f, a in part.items()}
    if carry is not None and len(carry[chosen[0]]) and not drop_last:
        yield carry


def read(path: str | Path, fields: Sequence[str] | None = None) -> dict[str, npt.NDArray[Any]]:
    """The whole dataset at ``path`` in memory: one array per field (``fields``, default all), rows in order."""
    chosen = _fields(fields)
    directory = _directory(path)
    parts = [_shard(directory, s["file"], chosen) for s in manifest(path)["shards"]]
    if not parts:
        return {f: np.zeros((0, *FIELDS[f][1]), dtype=FIELDS[f][0]) for f in chosen}
    return {f: np.concatenate([p[f] for p in parts]) for f in chosen}
