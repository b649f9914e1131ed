"""``scmj score``: the fan of one winning hand, with its breakdown."""

from __future__ import annotations

import argparse
import json

from sichuan_mahjong.cli import UsageError
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


#: Pairs of flags no win can have together: (first, second, why).
_EXCLUSIVE: tuple[tuple[str, str, str], ...] = (
    ("heaven", "earth", "天胡 is the dealer's win, 地胡 a non-dealer's"),
    ("last_tile", "heaven", "the first tiles are not the last"),
    ("last_tile", "earth", "the first draw is not the last tile"),
    ("kong_flower", "kong_shot", "a win is on a replacement tile or on a discard"),
    ("kong_shot", "self_draw", "杠上炮 is a win on a discard"),
    ("robbed_kong", "self_draw", "抢杠 is a win on another player's kong"),
    ("robbed_kong", "kong_shot", "抢杠 is a win on a kong, not on the discard after one"),
    ("robbed_kong", "kong_flower", "杠上花 is a self-draw"),
)
#: Flags that describe a self-drawn win.
_SELF_DRAWN: tuple[tuple[str, str], ...] = (
    ("heaven", "天胡 is won on the dealer's own tiles"),
    ("earth", "地胡 is won on the first draw"),
    ("kong_flower", "杠上花 is won on the replacement tile drawn"),
)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that no win can have together, in one line naming them."""
    for a, b, why in _EXCLUSIVE:
        if getattr(args, a) and getattr(args, b):
            raise UsageError(f"{_flag(a)} and {_flag(b)} cannot both be given: {why}")
    for name, why in _SELF_DRAWN:
        if getattr(args, name) and not args.self_draw:
            raise UsageError(f"{_flag(name)} needs --self-draw: {why}")


def run(args: argparse.Namespace) -> int:
    check_flags(args)
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
