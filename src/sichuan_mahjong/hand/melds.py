"""Melds a player has put down: pungs and the three kinds of kong (docs/rules.md R4, R6).

>>> Meld.parse("pung 2s")
Meld.parse('pung 2s')
>>> str(Meld.parse("concealed_kong 八筒"))
'concealed_kong 8p'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sichuan_mahjong.tiles import Tile, TileLike, TileParseError, excerpt, to_index


class MeldKind(Enum):
    PUNG = "pung"  # 碰: three of a kind claimed from a discard
    KONG = "kong"  # 直杠 / 明杠: an exposed kong claimed from a discard
    ADDED_KONG = "added_kong"  # 补杠 / 弯杠: a fourth tile added to one's own pung
    CONCEALED_KONG = "concealed_kong"  # 暗杠: four of a kind from one's own hand

    @property
    def size(self) -> int:
        return 3 if self is MeldKind.PUNG else 4

    @property
    def is_kong(self) -> bool:
        return self is not MeldKind.PUNG


class MeldParseError(TileParseError):
    """A meld written wrongly, e.g. an unknown kind."""


_KIND_ALIASES = {
    "pung": MeldKind.PUNG, "peng": MeldKind.PUNG, "碰": MeldKind.PUNG,
    "kong": MeldKind.KONG, "exposed_kong": MeldKind.KONG, "gang": MeldKind.KONG, "直杠": MeldKind.KONG,
    "明杠": MeldKind.KONG,
    "added_kong": MeldKind.ADDED_KONG, "补杠": MeldKind.ADDED_KONG, "補槓": MeldKind.ADDED_KONG,
    "concealed_kong": MeldKind.CONCEALED_KONG, "暗杠": MeldKind.CONCEALED_KONG, "暗槓": MeldKind.CONCEALED_KONG,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Meld:
    """A pung or kong of one tile kind. ``tile`` is the kind's index 0..26."""

    kind: MeldKind
    tile_index: int

    @classmethod
    def of(cls, kind: MeldKind | str, tile: TileLike) -> Meld:
        k = kind if isinstance(kind, MeldKind) else _kind_of(kind)
        return cls(k, to_index(tile))

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read ``"pung 2s"``, ``"kong 8p"``, ``"added_kong 2s"``, ``"concealed_kong 8p"`` (or 碰/直杠/补杠/暗杠)."""
        parts = text.split()
        if len(parts) != 2:
            raise MeldParseError(f"a meld is written 'KIND TILE', e.g. 'pung 2s'; got {excerpt(text)}")
        return cls.of(_kind_of(parts[0]), Tile.from_str(parts[1]))

    @property
    def tile(self) -> Tile:
        return Tile(self.tile_index)

    @property
    def size(self) -> int:
        return self.kind.size

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    def __str__(self) -> str:
        return f"{self.kind.value} {self.tile}"

    def __repr__(self) -> str:
        return f"Meld.parse('{self}')"


def _kind_of(word: str) -> MeldKind:
    try:
        return _KIND_ALIASES[word.lower()]
    except KeyError:
        known = ", ".join(k.value for k in MeldKind)
        raise MeldParseError(f"unknown meld kind {word!r}: expected one of {known}") from None
