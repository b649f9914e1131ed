"""``scmj play``: sit at a table in the terminal against three bots (the Textual app in sichuan_mahjong.tui).

The player is seat 0. ``--seed N`` deals the same match again; each finished hand is saved as a record
(``scmj replay FILE`` prints it, ``scmj play --replay FILE`` steps through it on the replay screen). Textual
is the optional extra ``tui``; without it this command says how to install it and exits with status 2.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from sichuan_mahjong.cli.options import add_rules_arguments
from sichuan_mahjong.text import LANGS, TILE_STYLES
from sichuan_mahjong.tui.settings import (
    PlaySettings,
    SettingsError,
    check_records_dir,
    default_config_path,
    default_records_dir,
    load_saved,
    parse_options,
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "play",
        help="play at a terminal table against three bots",
        description="Play Sichuan mahjong in the terminal: you are seat 0, three bots the others. "
        "Keys: ←/→ choose a tile, Enter discards, h hu, p pung, k kong, x pass, r 报叫, a hint, ? help, q quit. "
        f"Settings changed at the table (o, t, l) are kept in {default_config_path()} and used when their "
        "option is not given; --fresh ignores them.",
    )
    p.add_argument("--seed", type=int, default=None, help="deal the same match again (default: a new random seed)")
    p.add_argument("--hands", type=int, default=None, help="hands in the match (default: 8)")
    add_rules_arguments(p)
    p.set_defaults(rules=None)  # not given: the saved preset, else seed
    p.add_argument(
        "--bots",
        default=None,
        metavar="TIER,TIER,TIER",
        help="the bots of seats 1, 2, 3: random, efficient, expert, master, or module:factory for your own bot "
        "(an importable callable returning an Agent; default: expert,expert,expert)",
    )
    p.add_argument("--lang", choices=LANGS, default=None, help="language of the table (default: zh)")
    p.add_argument(
        "--tiles",
        choices=TILE_STYLES,
        default=None,
        help="tile style: 5p, 五筒 or Unicode glyphs (default: compact)",
    )
    p.add_argument(
        "--timer", type=float, default=None, metavar="SECONDS", help="a claim you do not answer in time passes"
    )
    p.add_argument(
        "--delay", type=float, default=None, metavar="SECONDS", help="pause between the bots' moves (default: 0.3)"
    )
    p.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"where each finished hand is saved (default: {default_records_dir()})",
    )
    p.add_argument("--no-records", action="store_true", help="do not save the hands")
    p.add_argument("--fresh", action="store_true", help="ignore the settings kept from the last run")
    p.add_argument(
        "--replay",
        type=Path,
        default=None,
        metavar="FILE",
        help="step through a saved hand or match on the replay screen instead of playing (←/→, Home/End, Esc); "
        "a record saved for one seat is shown from that seat, the others' tiles face down",
    )


def settings_from_args(args: argparse.Namespace) -> PlaySettings:
    """The table's settings: the command line, then the settings kept from the last run, then the defaults.

    Any bad value raises a ValueError naming it (a saved file that cannot be used too: --fresh skips it).
    """
    config = default_config_path()
    saved = {} if args.fresh else load_saved(config)
    base = PlaySettings()
    bots_text = args.bots if args.bots is not None else ",".join(saved.get("bots", base.bots))
    bots = tuple(b.strip() for b in str(bots_text).split(",") if b.strip())
    if len(bots) == 1:
        bots = bots * 3
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    records = None if args.no_records else (args.records or default_records_dir())

    def pick(given: object, name: str) -> Any:
        return given if given is not None else saved.get(name, getattr(base, name))

    return PlaySettings(
        preset=pick(args.rules, "preset"),
        options=parse_options(args.option) if args.option else pick(None, "options"),
        bots=bots,
        hands=pick(args.hands, "hands"),
        seed=seed,
        lang=pick(args.lang, "lang"),
        tiles=pick(args.tiles, "tiles"),
        timer=args.timer if args.timer is not None else saved.get("timer", base.timer),
        delay=pick(args.delay, "delay"),
        records=records,
        config=config,
    )


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    if settings.records is not None and args.replay is None:
        check_records_dir(settings.records)  # a folder that cannot take a record fails now, not after a hand
    try:
        from sichuan_mahjong.tui.app import MahjongApp
    except ImportError as exc:
        raise SettingsError(
            f"the terminal table needs Textual ({exc.name} is missing): pip install 'sichuan-mahjong[tui]'"
        ) from None
    replay = None
    if args.replay is not None:
        from sichuan_mahjong.tui.replay import replays_of_file

        replay = replays_of_file(args.replay)  # a bad file is a RecordError (exit 2) before the screen opens
    app = MahjongApp(settings, replay=replay)
    app.run()
    for line in app.farewell:  # the match totals and where the record is, once the terminal is back
        print(line)
    return 0
