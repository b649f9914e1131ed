"""``scmj score``: the fan of one winning hand, with its breakdown."""

from __future__ import annotations

import argparse
import json

from sichuan_mahjong.cli.options import add_hand_arguments, add_rules_arguments, hand_from_args, rules_from_args
from sichuan_mahjong.scoring import score_hand
from sichuan_mahjong.tiles import Tile


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "score",
        help="score a winning hand (fan, multiplier, breakdown)",
        description="Score a winning hand. HAND is the concealed tiles including the winning tile, "
        "e.g. '123m456m789m123p55p' or '二三四四五六七七萬三四五七八九筒'.",
    )
    add_hand_arguments(p, "concealed tiles including the winning tile")
    p.add_argument("--win", metavar="TILE", help="the winning tile (default: the last one written)")
    p.add_argument("--self-draw", action="store_true", help="won by self-draw (自摸)")
    for flag, what in (
        ("--kong-flower", "won on a kong's replacement tile (杠上花)"),
        ("--kong-shot", "won on the discard after a kong (杠上炮)"),
    ):
        p.add_argument(
            flag, nargs="?", const=1, default=0, type=_kongs, metavar="N",
            help=f"{what}; N kongs in a row before the win, +1 fan each (default 1)",
        )  # fmt: skip
    p.add_argument("--robbed-kong", action="store_true", help="won by robbing an added kong (抢杠)")
    p.add_argument("--declared-ready", action="store_true", help="the winner declared ready (报叫)")
    p.add_argument("--heaven", action="store_true", help="dealer won on his first 14 tiles (天胡)")
    p.add_argument("--earth", action="store_true", help="non-dealer won on his first draw (地胡)")
    p.add_argument("--last-tile", action="store_true", help="won on the last tile or the discard after it")
    p.add_argument("--lang", choices=("zh", "en", "both"), default="both", help="language of the breakdown")
    add_rules_arguments(p)
    p.add_argument("--json", action="store_true", help="print JSON: fan, multiplier, patterns")


def _kongs(text: str) -> int:
    """N of --kong-flower/--kong-shot: 1..4 kongs made one after another before the win (每杠+1番)."""
    if text.strip() not in ("1", "2", "3", "4"):
        raise argparse.ArgumentTypeError(
            f"N counts the kongs in a row, 1 to 4, got {text[:20]!r} (write HAND before this flag)"
        )
    return int(text)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    tiles, melds = hand_from_args(args)
    win = Tile.from_str(args.win) if args.win else tiles[-1]
    score = score_hand(
        tiles,
        win,
        melds,
        self_draw=args.self_draw,
        kong_flower=args.kong_flower,
        kong_shot=args.kong_shot,
        robbed_kong=args.robbed_kong,
        declared_ready=args.declared_ready,
        heaven=args.heaven,
        earth=args.earth,
        last_tile=args.last_tile,
        rules=rules,
    )
    if args.json:
        print(json.dumps(score.to_dict(), ensure_ascii=False))
    elif args.lang == "both":
        print(score)
    else:
        print(score.describe(args.lang))
    return 0
