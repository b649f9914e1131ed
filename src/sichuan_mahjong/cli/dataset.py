"""``scmj dataset``: bots' decisions as the RL env's observations, masks, actions and rewards, for learning
(sichuan_mahjong.rl.dataset; docs/rl.md "A dataset of bots' decisions")."""

from __future__ import annotations

import argparse
import sys
import time

from sichuan_mahjong.cli.options import add_rules_arguments, rules_from_args

#: Runs at least this long (in hands) draw a progress bar on a terminal.
PROGRESS_MIN_HANDS = 50


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "dataset",
        help="record bots' decisions as the RL env's observations, masks, actions and rewards (.npz shards)",
        description="Play hands with four bots in the RL env and write every decision of every seat: the env's "
        "observation for that seat, its action mask, the action taken, the hand's final points for the seat and "
        "its points from that decision on. OUT is a new directory: manifest.json and compressed numpy shards; "
        "sichuan_mahjong.rl.dataset.load(OUT, batch_size=...) reads them back in batches. Needs the 'rl' extra.",
    )
    p.add_argument(
        "--agent",
        default="expert",
        metavar="BOT",
        help="the bot at every seat, or four comma-separated: a name or module:factory (default: expert)",
    )
    p.add_argument("--hands", type=int, default=1000, metavar="N", help="hands to play (default 1000)")
    add_rules_arguments(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the dataset's directory (new, or empty)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    p.add_argument("--seed", type=int, default=0, help="fixes every deal and every bot (default 0)")
    p.add_argument("--shard-hands", type=int, default=None, metavar="H", help="hands per shard (default 200)")
    p.add_argument("--no-progress", action="store_true", help="never draw a progress bar")


def run(args: argparse.Namespace) -> int:
    from sichuan_mahjong.cli import UsageError

    rules = rules_from_args(args)
    try:
        from sichuan_mahjong.rl import dataset
    except ImportError as exc:
        raise UsageError(str(exc)) from None
    from sichuan_mahjong.sim.runner import Progress

    bar = None
    if not args.no_progress and args.hands >= PROGRESS_MIN_HANDS and sys.stderr.isatty():
        bar = Progress(args.hands)
    start = time.perf_counter()
    try:
        manifest = dataset.write(
            args.out,
            args.agent,
            args.hands,
            rules,
            seed=args.seed,
            jobs=args.jobs,
            shard_hands=dataset.SHARD_HANDS if args.shard_hands is None else args.shard_hands,
            on_hands=None if bar is None else bar.update,
        )
    finally:
        if bar is not None:
            bar.close()
    spent = time.perf_counter() - start
    decisions = manifest["decisions"]
    print(
        f"{decisions:,} decisions of {manifest['hands']:,} hands in {len(manifest['shards'])} shards written to "
        f"{args.out} ({spent:.1f} s, {decisions / max(spent, 1e-9):,.0f} decisions/s)"
    )
    return 0
