"""``scmj advise``: what each discard of a hand leaves, and which one to make (see sichuan_mahjong.advisor)."""

from __future__ import annotations

import argparse
import json

from sichuan_mahjong.advisor import advise
from sichuan_mahjong.cli.options import add_hand_arguments, add_rules_arguments, hand_from_args, rules_from_args
from sichuan_mahjong.tiles import parse_tiles


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "advise",
        help="advise a discard: shanten, useful tiles, waits and their fan for every discard",
        description="Advise the discard of a hand about to discard (14 concealed tiles, 3 fewer per meld), "
        "e.g. 'scmj advise 234s22346888p --meld \"pung 2s\" --seen 6p6p'.",
    )
    add_hand_arguments(p, "the concealed tiles, including the one just drawn")
    p.add_argument(
        "--seen",
        default="",
        metavar="TILES",
        help="tiles seen elsewhere: every river and the other players' melds, e.g. 6p6p1s",
    )
    p.add_argument("--void", choices=("m", "p", "s"), help="the declared void suit (定缺), if any")
    p.add_argument("--lang", choices=("zh", "en", "both"), default="both", help="language of the recommendation")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON: every discard and the recommendation")


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    tiles, melds = hand_from_args(args)
    seen = parse_tiles(args.seen, max_copies=None) if args.seen else []
    advice = advise(tiles, melds, seen, rules, void=args.void)
    if args.json:
        print(json.dumps(advice.to_dict(), ensure_ascii=False))
    else:
        print(advice.table(args.lang))
    return 0
