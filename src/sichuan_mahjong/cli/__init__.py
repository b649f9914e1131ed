"""The ``scmj`` command: one module per subcommand, each with ``add_parser`` and ``run``.

Errors a user can make (bad tiles, unknown options, a hand that does not win) end with status 2 and one
line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol, cast

#: Subcommand modules under sichuan_mahjong.cli, in the order --help lists them.
SUBCOMMANDS: tuple[str, ...] = ("score", "play", "advise", "simulate", "replay", "serve")


class Subcommand(Protocol):
    def add_parser(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


class UsageError(ValueError):
    """A user error detected by a subcommand: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scmj", description="Sichuan (Chengdu) mahjong.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = cast(Subcommand, importlib.import_module(f"sichuan_mahjong.cli.{name}"))
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    module = cast(Subcommand, importlib.import_module(f"sichuan_mahjong.cli.{args.command}"))
    try:
        return module.run(args)
    except ValueError as exc:  # every user-facing error of the library is a ValueError subclass
        print(f"scmj {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def entry() -> None:
    sys.exit(main())
