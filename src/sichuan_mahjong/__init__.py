"""Sichuan (Chengdu) mahjong: tiles, hands, scoring, the rules engine and everything built on it.

The public names below are a contract (docs/DESIGN in shared): users and acceptance tests call them.
"""

# First: refuses a compiled module whose source changed since `make compiled` (before any is imported).
import sichuan_mahjong.compiled  # noqa: F401
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
from sichuan_mahjong.hand.analysis import (
    NO_WIN,
    DiscardChoice,
    HandSizeError,
    Improvement,
    improvements,
    is_winning,
    is_winning_keys,
    shanten,
    shanten_keys,
    shanten_seven_pairs,
    shanten_standard,
    useful_tiles,
    waits,
    waits_counts,
)
from sichuan_mahjong.hand.batch import shanten_batch, waits_batch
from sichuan_mahjong.hand.melds import Meld, MeldKind, MeldParseError
from sichuan_mahjong.match import Match
from sichuan_mahjong.record import RecordError, load_hand, load_match, save_hand, save_match
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
    "NO_WIN",
    "NUM_ACTIONS",
    "PRESETS",
    "Action",
    "ActionKind",
    "DiscardChoice",
    "Event",
    "Game",
    "HandSizeError",
    "IllegalActionError",
    "Improvement",
    "Match",
    "Meld",
    "MeldKind",
    "MeldParseError",
    "NotWinningError",
    "Observation",
    "Pattern",
    "Payment",
    "RecordError",
    "Rules",
    "RulesError",
    "Score",
    "Settlement",
    "Tile",
    "TileParseError",
    "TooManyCopiesError",
    "counts_of",
    "format_tiles",
    "improvements",
    "is_winning",
    "is_winning_keys",
    "load_hand",
    "load_match",
    "parse_tiles",
    "save_hand",
    "save_match",
    "score_hand",
    "shanten",
    "shanten_batch",
    "shanten_keys",
    "shanten_seven_pairs",
    "shanten_standard",
    "suit_keys",
    "useful_tiles",
    "value_of_ready_hand",
    "waits",
    "waits_batch",
    "waits_counts",
]
