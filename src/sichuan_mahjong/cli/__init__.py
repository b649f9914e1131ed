"""The ``scmj`` command: one module per subcommand, each with ``add_parser`` and ``run``.

Errors a user can make (bad tiles, unknown options, a hand that does not win) end with status 2 and one
line on stderr, never a traceback; Ctrl-C ends with status 130 and one line; a closed pipe (``| head``) ends
quietly with status 141.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Protocol, cast

#: Subcommand modules under sichuan_mahjong.cli, in the order --help lists them.
SUBCOMMANDS: tuple[str, ...] = ("score", "play", "advise", "simulate", "replay", "review", "serve", "dataset", "bot")


class Subcommand(Protocol):
    def add_parser(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


class UsageError(ValueError):
    """A user error detected by a subcommand: printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scmj", description="Sichuan (Chengdu) mahjong.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = cast(Subcommand, importlib.import_module(f"sichuan_mahjong.cli.{name}"))
        module.add_parser(subparsers)
    return parser


def _version() -> str:
    try:
        return metadata.version("sichuan-mahjong")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree that was never installed
        return "unknown"


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        if isinstance(action, argparse._SubParsersAction):
            return cast(argparse.ArgumentParser, action.choices[name])
    raise LookupError(name)  # pragma: no cover - every command has its parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("scmj: error: a command is needed (scmj --help lists them)", file=sys.stderr)
        return 2
    if extra:  # reported with the command's own usage, not the top-level one
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    module = cast(Subcommand, importlib.import_module(f"sichuan_mahjong.cli.{args.command}"))
    try:
        status = module.run(args)
        sys.stdout.flush()  # a reader that went away (`| head`) shows here, not at exit
        return status
    except BrokenPipeError:
        # The reader of our output has gone: stop quietly, as Unix tools do (status 128 + SIGPIPE).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more reaches the closed pipe, not even at exit
        os.close(devnull)
        return 141
    except ValueError as exc:  # every user-facing error of the library is a ValueError subclass
        print(f"scmj {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"scmj {args.command}: interrupted", file=sys.stderr)
        return 130


def entry() -> None:
    sys.exit(main())
