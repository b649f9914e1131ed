"""Pure hand analysis: melds, the per-suit tables and the evaluator. No game state here."""

from sichuan_mahjong.hand.melds import Meld, MeldKind, MeldParseError

__all__ = ["Meld", "MeldKind", "MeldParseError"]
