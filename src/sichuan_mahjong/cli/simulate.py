"""``scmj simulate``: a tournament of bots, with statistics per player (see sichuan_mahjong.sim)."""

from __future__ import annotations

import argparse
import json
import sys

from sichuan_mahjong.agents import agent_names
from sichuan_mahjong.cli.options import add_rules_arguments, rules_from_args
from sichuan_mahjong.sim.runner import BACKENDS, SimulationError, run_tournament

#: Runs at least this long (in hands) draw a progress bar on a terminal.
PROGRESS_MIN_HANDS = 200


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="play many hands with four bots and report points per hand with 95%% CIs",
        description="Play a tournament of bots. Entry i of every statistic belongs to the i-th name in "
        f"--players wherever it sat; points are in units of the base. Bots: {', '.join(agent_names())}, "
        "or module:factory for your own.",
    )
    p.add_argument("--hands", type=int, default=1000, metavar="N", help="hands to play (default 1000)")
    p.add_argument(
        "--players",
        default="expert,efficient,efficient,efficient",
        metavar="A,B,C,D",
        help="four bots, comma-separated: a name, or module:factory for your own (an importable callable taking "
        "a seed and returning an Agent; docs/simulate.md) (default: expert,efficient,efficient,efficient)",
    )
    add_rules_arguments(p)
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal four times with the seats rotated, so luck cancels (N must be a multiple of 4)",
    )
    p.add_argument("--seed", type=int, default=0, help="tournament seed: fixes every deal and every bot")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes, or CPUs of a local Ray")
    p.add_argument("--backend", choices=BACKENDS, default="process", help="process pool or Ray (default: process)")
    p.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: join this running Ray cluster (host:port as `ray start` printed it, or 'auto'); "
        "the package is shipped to its workers (docs/simulate.md)",
    )
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--plot", metavar="FILE", help="write a plot of the results to FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--no-progress", action="store_true", help="never draw a progress bar")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = [name.strip() for name in args.players.split(",") if name.strip()]
    if args.address and args.backend != "ray":
        raise SimulationError("--address is for --backend ray")
    plot = None
    if args.plot:
        from sichuan_mahjong.sim.plot import check_plot_path

        plot = check_plot_path(args.plot)  # a plot that cannot be written fails now, not after every hand
    progress = not args.no_progress and args.hands >= PROGRESS_MIN_HANDS and sys.stderr.isatty()
    summary = run_tournament(
        players,
        args.hands,
        rules,
        seed=args.seed,
        duplicate=args.duplicate,
        jobs=args.jobs,
        backend=args.backend,
        address=args.address,
        progress=progress,
    )
    if args.json:
        print(json.dumps(summary.to_dict(), ensure_ascii=False))
    else:
        print(summary.table())
    sys.stdout.flush()  # the results are out before the plot is drawn
    if plot is not None:
        from sichuan_mahjong.sim.plot import plot_summary

        written = plot_summary(summary, plot)
        if not args.json:
            print(f"plot written to {written}")
    return 0
