"""Tiles: the 27 kinds of Sichuan mahjong (docs/rules.md R1) and their notations.

Inside the package a tile is an ``int`` 0..26: characters (m) 0-8, dots (p) 9-17, bamboo (s) 18-26, so
``index // 9`` is the suit and ``index % 9 + 1`` the rank. :class:`Tile` is the small value that users see.

>>> parse_tiles("123m5p")
[Tile.from_str('1m'), Tile.from_str('2m'), Tile.from_str('3m'), Tile.from_str('5p')]
>>> format_tiles(parse_tiles("二三四萬七八九筒"))
'234m789p'
>>> format_tiles(parse_tiles("9s1m 12m"), style="zh")
'一一二萬九條'
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final, Literal, SupportsIndex

__all__ = [
    "KEY_BITS",
    "NUM_KINDS",
    "SUITS",
    "SUIT_WORDS",
    "Tile",
    "TileParseError",
    "TooManyCopiesError",
    "counts_of",
    "excerpt",
    "format_tiles",
    "parse_tiles",
    "suit_keys",
    "tile_words",
    "tiles_of_counts",
]

NUM_KINDS: Final = 27
SUITS: Final = "mps"
COPIES: Final = 4
#: Weight of rank r (0-based) in a suit's base-5 key: the key is sum(count[r] * 5**r).
POW5: Final = tuple(5**r for r in range(9))
#: Bits of each suit's field in a packed key: a tile adds ``Tile.key_weight`` = 5**rank << (KEY_BITS * suit), so the
#: sum over a hand holds its three per-suit base-5 keys (any suit key of four copies a kind is under 2**21).
KEY_BITS: Final = 21

SUIT_NAMES_ZH: Final = ("萬", "筒", "條")
SUIT_NAMES_EN: Final = ("characters", "dots", "bamboo")
_RANK_ZH: Final = "一二三四五六七八九"
#: A suit as a player says it: simplified Chinese (九条) and the short English names (9 Bam) of the web table.
SUIT_WORDS: Final = {"zh": ("万", "筒", "条"), "en": ("Crak", "Dot", "Bam")}
_SUIT_OF_CHAR: Final = {
    "m": 0, "p": 1, "s": 2,
    "萬": 0, "万": 0, "筒": 1, "饼": 1, "餅": 1, "條": 2, "条": 2, "索": 2,
}  # fmt: skip
_SEPARATORS: Final = frozenset(" \t\n,、，")
#: Full-width digits and letters (what Chinese input methods type: ``１２３ｍ``) and the ideographic space,
#: read as their ASCII forms; one character for one, so positions in messages stay right.
_FULL_WIDTH: Final = str.maketrans(
    {chr(0xFF10 + i): chr(0x30 + i) for i in range(10)}
    | {chr(0xFF41 + i): chr(0x61 + i) for i in range(26)}
    | {chr(0xFF21 + i): chr(0x61 + i) for i in range(26)}
    | {"\u3000": " "}
)
#: Messages quote at most this many characters of what was typed.
EXCERPT = 24
# Unicode mahjong glyphs (R1.3): characters U+1F007.., bamboo U+1F010.., dots U+1F019..
_GLYPH_BASE: Final = (0x1F007, 0x1F019, 0x1F010)


class TileParseError(ValueError):
    """Tile notation that cannot be read; the message names the character and its position."""


class TooManyCopiesError(TileParseError):
    """More than four copies of one tile."""


class Tile:
    """One of the 27 tile kinds. Instances are shared: ``Tile.from_str("5p") is Tile(13)``."""

    __slots__ = ("index", "key_weight")
    _cache: ClassVar[list[Tile]] = []
    index: int
    #: What this tile adds to a packed key (:data:`KEY_BITS`): the evaluator sums a hand's keys, builds none.
    key_weight: int

    def __new__(cls, index: SupportsIndex) -> Tile:
        i = index if type(index) is int else operator.index(index)  # a numpy integer too (compiled, int only)
        if cls._cache:
            if not 0 <= i < NUM_KINDS:
                raise ValueError(f"tile index must be 0..26, got {i}")
            return cls._cache[i]
        self = super().__new__(cls)
        object.__setattr__(self, "index", i)
        object.__setattr__(self, "key_weight", POW5[i % 9] << (KEY_BITS * (i // 9)))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int]]:
        return (Tile, (self.index,))

    @classmethod
    def from_str(cls, text: str) -> Tile:
        """Read one tile in any notation parse_tiles accepts (``5p``, ``五筒``, a glyph)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileParseError(f"expected exactly one tile, got {len(tiles)} in {excerpt(text)}")
        return tiles[0]

    @classmethod
    def of(cls, suit: str, rank: int) -> Tile:
        if suit not in SUITS or len(suit) != 1:
            raise ValueError(f"suit must be one of m, p, s, got {suit!r}")
        if not 1 <= rank <= 9:
            raise ValueError(f"rank must be 1..9, got {rank}")
        return Tile(SUITS.index(suit) * 9 + rank - 1)

    @property
    def suit(self) -> str:
        return SUITS[self.index // 9]

    @property
    def suit_index(self) -> int:
        return self.index // 9

    @property
    def rank(self) -> int:
        return self.index % 9 + 1

    @property
    def zh(self) -> str:
        """Chinese name as the source writes it, e.g. ``五筒``."""
        return _RANK_ZH[self.rank - 1] + SUIT_NAMES_ZH[self.suit_index]

    @property
    def glyph(self) -> str:
        return chr(_GLYPH_BASE[self.suit_index] + self.rank - 1)

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile.from_str('{self}')"

    def __int__(self) -> int:
        return self.index

    def __index__(self) -> int:
        return self.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and other.index == self.index

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index


Tile._cache = [Tile(i) for i in range(NUM_KINDS)]
#: All 27 kinds in canonical order (m, p, s; ranks ascending).
ALL_TILES: Final = tuple(Tile._cache)

TileLike = Tile | int | str


def to_index(tile: TileLike) -> int:
    """Accept a Tile, its index or its notation, and return the index."""
    if isinstance(tile, Tile):
        return tile.index
    if isinstance(tile, int):
        if not 0 <= tile < NUM_KINDS:
            raise ValueError(f"tile index must be 0..26, got {tile}")
        return tile
    return Tile.from_str(tile).index


def excerpt(text: str, at: int | None = None) -> str:
    """``text`` quoted for a message: whole when short, else about :data:`EXCERPT` characters around ``at``.

    >>> excerpt("123m")
    "'123m'"
    >>> excerpt("1m" * 100, at=150)
    "'…1m1m1m1m1m1m1m1m1m1m1m1m…' (200 characters)"
    """
    if len(text) <= 2 * EXCERPT:
        return repr(text)
    start = 0 if at is None else max(0, min(at - EXCERPT // 2, len(text) - EXCERPT))
    end = start + EXCERPT
    quoted = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return f"{quoted!r} ({len(text)} characters)"


def parse_tiles(text: str, *, max_copies: int | None = COPIES) -> list[Tile]:
    """Read tiles written compactly (``123m456p``), in Chinese (``二三四萬``) or as Unicode glyphs.

    Ranks are digits or Chinese numerals and wait for the suit letter that follows them, so
    ``12m3m`` and ``二條、二條`` both work. Spaces and commas are ignored. The result keeps the written
    order. More than ``max_copies`` of one tile (default four) raises :class:`TooManyCopiesError`.
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (rank, position) waiting for a suit
    for pos, ch in enumerate(text.translate(_FULL_WIDTH)):
        if ch in _SEPARATORS:
            continue
        if "1" <= ch <= "9":
            pending.append((int(ch), pos))
        elif ch in _RANK_ZH:
            pending.append((_RANK_ZH.index(ch) + 1, pos))
        elif ch in _SUIT_OF_CHAR:
            if not pending:
                raise TileParseError(f"suit {ch!r} at position {pos} has no ranks before it in {excerpt(text, pos)}")
            suit = _SUIT_OF_CHAR[ch]
            tiles.extend(Tile(suit * 9 + rank - 1) for rank, _ in pending)
            pending.clear()
        elif 0x1F007 <= ord(ch) <= 0x1F021:
            if pending:
                raise TileParseError(f"rank at position {pending[0][1]} has no suit in {excerpt(text, pos)}")
            code = ord(ch)
            suit = next(s for s in range(3) if 0 <= code - _GLYPH_BASE[s] < 9)
            tiles.append(Tile(suit * 9 + code - _GLYPH_BASE[suit]))
        elif ch == "0":
            raise TileParseError(f"rank '0' at position {pos} in {excerpt(text, pos)}: ranks are 1-9 (no red fives)")
        else:
            raise TileParseError(f"unexpected character {ch!r} at position {pos} in {excerpt(text, pos)}")
    if pending:
        raise TileParseError(f"rank at position {pending[0][1]} has no suit after it in {excerpt(text, pending[0][1])}")
    if max_copies is not None:
        counts = counts_of(tiles)
        for index, n in enumerate(counts):
            if n > max_copies:
                raise TooManyCopiesError(f"{n} copies of {Tile(index)} in {excerpt(text)}: at most {max_copies}")
    return tiles


def format_tiles(
    tiles: Iterable[TileLike], *, style: Literal["compact", "zh", "glyph"] = "compact", sort: bool = True
) -> str:
    """Write tiles in canonical order (m, p, s) as ``123m45p``, ``一二三萬四五筒`` or glyphs.

    ``sort=False`` keeps the given order, grouping only neighbours of one suit.
    """
    indices = [to_index(t) for t in tiles]
    if sort:
        indices.sort()
    if style == "glyph":
        return "".join(Tile(i).glyph for i in indices)
    ranks = "123456789" if style == "compact" else _RANK_ZH
    suits = SUITS if style == "compact" else "".join(SUIT_NAMES_ZH)
    out: list[str] = []
    for k, index in enumerate(indices):
        out.append(ranks[index % 9])
        if k + 1 == len(indices) or indices[k + 1] // 9 != index // 9:
            out.append(suits[index // 9])
    return "".join(out)


def counts_of(tiles: Iterable[TileLike]) -> list[int]:
    """The 27 counts of a tile collection."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[to_index(t)] += 1
    return counts


def tiles_of_counts(counts: Sequence[int]) -> list[Tile]:
    return [Tile(i) for i, n in enumerate(counts) for _ in range(n)]


def suit_keys(counts: Sequence[int]) -> tuple[int, int, int]:
    """The three per-suit base-5 keys of 27 counts (the evaluator's table index)."""
    return (
        sum(counts[r] * POW5[r] for r in range(9)),
        sum(counts[9 + r] * POW5[r] for r in range(9)),
        sum(counts[18 + r] * POW5[r] for r in range(9)),
    )


def tile_words(tile: Tile, lang: str) -> str:
    """A tile as players say it: ``九条`` in Chinese, ``9 Bam`` in English (the web table's words).

    >>> tile_words(Tile.from_str("9s"), "zh"), tile_words(Tile.from_str("9s"), "en")
    ('九条', '9 Bam')
    """
    suit = SUIT_WORDS["zh" if lang == "zh" else "en"][tile.suit_index]
    return f"{_RANK_ZH[tile.rank - 1]}{suit}" if lang == "zh" else f"{tile.rank} {suit}"
