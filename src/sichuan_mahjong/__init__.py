"""Sichuan (Chengdu) mahjong: tiles, hands, scoring, the rules engine and everything built on it.

The public names below are a contract (docs/DESIGN in shared): users and acceptance tests call them.
"""

from sichuan_mahjong.game import (
    NUM_ACTIONS,
    Action,
    ActionKind,
    Event,
    Game,
    IllegalActionError,
    Observation,
    Payment,
    Settlement,
)
from sichuan_mahjong.hand.melds import Meld, MeldKind, MeldParseError
from sichuan_mahjong.rules import PRESETS, Rules, RulesError
from sichuan_mahjong.scoring import NotWinningError, Pattern, Score, score_hand, value_of_ready_hand
from sichuan_mahjong.tiles import (
    ALL_TILES,
    Tile,
    TileParseError,
    TooManyCopiesError,
    counts_of,
    format_tiles,
    parse_tiles,
    suit_keys,
)

__all__ = [
    "ALL_TILES",
    "NUM_ACTIONS",
    "PRESETS",
    "Action",
    "ActionKind",
    "Event",
    "Game",
    "IllegalActionError",
    "Meld",
    "MeldKind",
    "MeldParseError",
    "NotWinningError",
    "Observation",
    "Pattern",
    "Payment",
    "Rules",
    "RulesError",
    "Score",
    "Settlement",
    "Tile",
    "TileParseError",
    "TooManyCopiesError",
    "counts_of",
    "format_tiles",
    "parse_tiles",
    "score_hand",
    "suit_keys",
    "value_of_ready_hand",
]
