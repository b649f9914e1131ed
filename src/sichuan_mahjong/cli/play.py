"""``scmj play``: until the game table lands, a prompt that scores hands typed at it.

Each line is read exactly like the arguments of ``scmj score`` (``123m456m789m123p55p --self-draw``), so
everything learnt here carries over to the command line.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from sichuan_mahjong.cli import score

PROMPT = "hand> "
GREETING = """\
Sichuan mahjong hand scorer. Type a winning hand (concealed tiles including the winning tile) and options,
as for `scmj score`, e.g.:
  123m456m789m123p55p --self-draw
  一一二二二二四四萬五五七七八八筒
  11122m --meld "pung 5m" --meld "kong 8m" --kong-flower
Empty line or Ctrl-D to quit; --help lists the options."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    subparsers.add_parser("play", help="interactive hand scorer (the game table comes next)", description=__doc__)


def run(args: argparse.Namespace) -> int:
    line_parser = argparse.ArgumentParser(prog="", add_help=True, exit_on_error=False)
    line_subparsers = line_parser.add_subparsers(dest="command")
    score.add_parser(line_subparsers)
    print(GREETING)
    while True:
        try:
            line = input(PROMPT).strip()
        except EOFError:
            print()
            return 0
        if not line:
            return 0
        try:
            line_args = line_parser.parse_args(["score", *shlex.split(line)])
            score.run(line_args)
        except SystemExit:  # --help, or argparse's own usage error already printed
            continue
        except (ValueError, argparse.ArgumentError) as exc:
            print(f"error: {exc}", file=sys.stderr)
