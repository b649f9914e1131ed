"""Command-line arguments shared by subcommands: the rule set (--rules PRESET, --option KEY=VALUE)."""

from __future__ import annotations

import argparse

from sichuan_mahjong.rules import PRESETS, Rules, RulesError


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", default="seed", metavar="PRESET", help=f"rule preset: {', '.join(PRESETS)} (default: seed)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one rule option, e.g. max_fan=4 or extra_fans=menqing,zhongzhang (repeatable)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    options: dict[str, str] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RulesError(f"--option {item!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return Rules.preset(args.rules).with_options(options)
