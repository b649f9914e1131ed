"""Command-line arguments shared by subcommands: a hand with its melds, and the rule set (--rules, --option)."""

from __future__ import annotations

import argparse

from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.rules import PRESETS, Rules, RulesError
from sichuan_mahjong.tiles import Tile, parse_tiles


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


def add_hand_arguments(parser: argparse.ArgumentParser, hand_help: str) -> None:
    """HAND and repeatable --meld, read the same way by every subcommand that takes a hand."""
    parser.add_argument("hand", metavar="HAND", help=hand_help)
    parser.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="MELD",
        help="a meld put down: 'pung 2s', 'kong 8p', 'added_kong 2s', 'concealed_kong 8p' (repeatable)",
    )


def hand_from_args(args: argparse.Namespace) -> tuple[list[Tile], list[Meld]]:
    """The tiles and melds of add_hand_arguments; an empty HAND is an error, as any bad notation is."""
    tiles = parse_tiles(args.hand)
    if not tiles:
        raise ValueError("HAND is empty")
    return tiles, [Meld.parse(text) for text in args.meld]
