"""Pure hand analysis: melds, the per-suit tables and the evaluator. No game state here."""

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

__all__ = [
    "NO_WIN",
    "DiscardChoice",
    "HandSizeError",
    "Improvement",
    "Meld",
    "MeldKind",
    "MeldParseError",
    "improvements",
    "is_winning",
    "is_winning_keys",
    "shanten",
    "shanten_batch",
    "shanten_keys",
    "shanten_seven_pairs",
    "shanten_standard",
    "useful_tiles",
    "waits",
    "waits_batch",
    "waits_counts",
]
