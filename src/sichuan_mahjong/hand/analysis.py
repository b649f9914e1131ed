"""Hand analysis: is_winning, shanten, waits and useful tiles, all under 缺一门 (docs/rules.md R3.1).

Two doors onto the same tables (``tables.py``):

* the **tile-list API** (``shanten``, ``is_winning``, ``waits``, ``useful_tiles``, ``improvements``) takes the
  concealed tiles (Tiles, indices, notation strings, or one string like ``"123m456p"``) and the player's melds,
  checks sizes and copies, and answers with :class:`Tile` values;
* the **int API** (``shanten_keys``, ``is_winning_keys``, ``waits_counts``; ``shanten_batch`` and
  ``waits_batch`` over numpy arrays of many hands, in ``batch.py``) takes the three per-suit base-5 keys of the
  concealed tiles (or 27 counts), the number of melds and a bitmask of the suits that hold a meld. It converts
  and checks nothing: the engine and bots keep keys up to date as tiles move, and call it in hot loops.

Every function takes an optional void suit (``void=``: "m"/"p"/"s" or 0/1/2 in the tile-list API, 0..2 or -1
in the int API) for 定缺, when the void is declared rather than chosen by play.

How 缺一门 enters: a hand wins only with all tiles, concealed and melded, in at most two suits. So shanten is the
least over the void suit v (one without a meld; or the declared void under 定缺) of the distance of the two kept
suits to four sets minus melds plus a pair (or, with no melds, seven pairs), the void suit's concealed tiles
counting as dead. shanten = that distance - 1, so -1 is complete and 0 ready. A four of a kind counts as two
pairs (龙七对). Melds in all three suits can never win: shanten :data:`NO_WIN`.

Copies: the tables never plan a fifth copy of a tile within the concealed hand. Copies sitting in melds are
not known to the keys, so ``shanten`` can be 0 while ``waits`` is empty when every wait is held in a pung;
``waits``, ``useful_tiles`` and ``improvements`` do exclude tiles of which the concealed hand and melds hold four.

>>> shanten("123m456m789m123p5p")
0
>>> [str(t) for t in waits("123m456m789m123p5p")]
['5p']
>>> is_winning("1122m3344m5566m77p")
True
>>> is_winning("123m456p789s123m55m")  # three suits: never a win
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import mul
from typing import Final, NoReturn

from sichuan_mahjong.hand import tables as _tables
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.tiles import (
    ALL_TILES,
    KEY_BITS,
    NUM_KINDS,
    SUITS,
    Tile,
    TileLike,
    TooManyCopiesError,
    format_tiles,
    parse_tiles,
    to_index,
)

__all__ = [
    "NO_WIN",
    "DiscardChoice",
    "HandSizeError",
    "Improvement",
    "improvements",
    "is_winning",
    "is_winning_keys",
    "shanten",
    "shanten_keys",
    "shanten_seven_pairs",
    "shanten_standard",
    "useful_tiles",
    "waits",
    "waits_counts",
]

#: Shanten of a hand that can never win (melds in all three suits, or the declared void holds a meld).
NO_WIN: Final = _tables.DISTANCE_CAP - 1

# key -> (row offset, column offset, tiles held); row + column (+ n_melds) indexes the pair tables.
_INFO: Final = _tables.SUIT_INFO
_COMB: Final = _tables.COMBINED
_STD: Final = _tables.STANDARD
_SEVEN: Final = _tables.SEVEN_PAIRS
_CAP: Final = _tables.DISTANCE_CAP
_POW5: Final = tuple(5**r for r in range(9))
# Tile index -> its suit key weight, shifted into a 21-bit field per suit, so one sum packs all three keys. 21
# bits hold any suit key of four copies at most (5**9 - 1 < 2**21), and the packed sum stays under 2**63: a
# machine-size int in the compiled build (no big-int arithmetic per tile). A fifth copy shows as a tile count
# short of the hand's (below); with at most :data:`_PACKED_MOST` tiles that holds even where a suit's sum runs
# over into the next field (checked exhaustively, tests/test_hand_analysis.py); longer lists are counted exactly.
_FIELD: Final = KEY_BITS
_PACKED_MOST: Final = 14
_MASK: Final = (1 << _FIELD) - 1
_WEIGHT: Final = tuple(t.key_weight for t in ALL_TILES)
_WEIGHT_OF_INT: Final = dict(enumerate(_WEIGHT))
# Tiles held in each suit key: a fifth copy carries into the next digit and makes the sum come out short.
_FIELD2: Final = 2 * _FIELD
# Kept suits (a, b) for each void suit v.
_KEPT: Final = _tables.KEPT


class HandSizeError(ValueError):
    """The concealed hand has the wrong number of tiles for its melds (14 - 3k to win, 13 - 3k to wait)."""


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One possible discard of a 14 - 3k hand: the shanten left and the tiles that would then lower it.

    ``useful`` pairs each such tile with how many copies are still unseen by the player; ``total`` sums them.
    """

    discard: Tile
    shanten: int
    useful: tuple[tuple[Tile, int], ...]
    total: int

    def __str__(self) -> str:
        tiles = format_tiles(t for t, _ in self.useful)
        return f"discard {self.discard}: shanten {self.shanten}, {self.total} useful ({tiles or '-'})"


@dataclass(frozen=True, slots=True)
class Improvement:
    """A 13 - 3k hand's shanten and the tiles that would lower it, with unseen copies (ukeire)."""

    shanten: int
    useful: tuple[tuple[Tile, int], ...]
    total: int

    def __str__(self) -> str:
        tiles = format_tiles(t for t, _ in self.useful)
        return f"shanten {self.shanten}, {self.total} useful ({tiles or '-'})"


# ---------------------------------------------------------------------------------------------------------------
# Int API: keys in, ints out, no checks.


def _distance(table: bytes, k0: int, k1: int, k2: int, n_melds: int, meld_suits: int, void: int) -> int:
    """Least distance over the void choices allowed by ``meld_suits`` and ``void``."""
    keys = (k0, k1, k2)
    best = _CAP
    for v in range(3):
        if meld_suits >> v & 1 or (void >= 0 and v != void):
            continue
        a, b = _KEPT[v]
        d = table[_INFO[keys[a]][0] + _INFO[keys[b]][1] + n_melds]
        best = min(best, d)
    return best


def shanten_keys(keys: Sequence[int], n_melds: int, meld_suits: int = 0, void: int = -1) -> int:
    """Shanten of the concealed suit keys with ``n_melds`` melds; standard form and seven pairs, 缺一门.

    ``meld_suits`` has bit ``1 << s`` set for each suit s holding a meld (such a suit cannot be the void);
    ``void`` forces the void suit (定缺) or is -1 to take the best choice.
    """
    k0, k1, k2 = keys
    if not meld_suits and void < 0:
        r0 = _INFO[k0][0]
        r1, c1, _ = _INFO[k1]
        c2 = _INFO[k2][1]
        # Comparisons, not min(): a builtin call costs more than the three lookups together.
        x = _COMB[r0 + c1 + n_melds]
        y = _COMB[r0 + c2 + n_melds]
        if y < x:  # noqa: PLR1730
            x = y
        y = _COMB[r1 + c2 + n_melds]
        if y < x:  # noqa: PLR1730
            x = y
        return x - 1
    return _distance(_COMB, k0, k1, k2, n_melds, meld_suits, void) - 1


def is_winning_keys(keys: Sequence[int], n_melds: int, meld_suits: int = 0, void: int = -1) -> bool:
    """Whether the concealed suit keys (14 - 3 * n_melds tiles) with the melds form a winning hand."""
    k0, k1, k2 = keys
    if not meld_suits and void < 0:
        r0 = _INFO[k0][0]
        r1, c1, _ = _INFO[k1]
        c2 = _INFO[k2][1]
        return not (_COMB[r0 + c1 + n_melds] and _COMB[r0 + c2 + n_melds] and _COMB[r1 + c2 + n_melds])
    return _distance(_COMB, k0, k1, k2, n_melds, meld_suits, void) == 0


def waits_counts(
    counts: Sequence[int],
    n_melds: int,
    meld_suits: int = 0,
    void: int = -1,
    meld_counts: Sequence[int] | None = None,
) -> list[int]:
    """Tile indices that complete the 13 - 3k concealed ``counts``, ascending.

    A tile of which the concealed hand plus ``meld_counts`` (tiles in melds) already hold four is never a wait.
    Only tiles within two ranks of a held tile of their suit are tried: a winning tile joins a pair, a pung or
    a chow with tiles already held.
    """
    keys = (
        sum(map(mul, counts[0:9], _POW5)),
        sum(map(mul, counts[9:18], _POW5)),
        sum(map(mul, counts[18:27], _POW5)),
    )
    return _waits(keys, counts, n_melds, meld_suits, void, meld_counts)


def _waits(
    keys: tuple[int, int, int],
    counts: Sequence[int],
    n_melds: int,
    meld_suits: int,
    void: int,
    meld_counts: Sequence[int] | None,
) -> list[int]:
    """waits_counts with the keys known. A tile of suit s can only win with another suit void, so per suit the
    other kept suit's half of the table index is fixed and each candidate costs one or two lookups."""
    allowed = [v for v in range(3) if not meld_suits >> v & 1 and (void < 0 or v == void)]
    out: list[int] = []
    for suit in range(3):
        base = 9 * suit
        near = 0
        for r in range(9):
            if counts[base + r]:
                near |= 0b11111 << r  # ranks r - 2 .. r + 2, shifted up by 2
        halves = [
            (0 if suit < other else 1, _INFO[keys[other]][1 if suit < other else 0] + n_melds)
            for v in allowed
            if v != suit
            for other in (3 - suit - v,)
        ]
        if not near or not halves:
            continue
        key = keys[suit]
        for r in range(9):
            tile = base + r
            if not near >> (r + 2) & 1:
                continue
            if counts[tile] + (meld_counts[tile] if meld_counts is not None else 0) >= 4:
                continue
            info = _INFO[key + _POW5[r]]
            for part, half in halves:
                if not _COMB[info[part] + half]:
                    out.append(tile)
                    break
    return out


# ---------------------------------------------------------------------------------------------------------------
# Tile-list API: conversion and checks at the edge.


def _as_sequence(tiles: Iterable[TileLike] | str) -> list[TileLike]:
    if isinstance(tiles, str):
        return list(parse_tiles(tiles))
    return list(tiles)


def _packed(tiles: Sequence[TileLike]) -> int:
    """The three suit keys packed in 21-bit fields, for any mix of Tiles, indices and notation."""
    packed = 0
    try:
        for t in tiles:
            packed += _WEIGHT_OF_INT[t]  # type: ignore[index]
    except (KeyError, TypeError):
        packed = 0
        for t in tiles:
            packed += _WEIGHT[to_index(t)]
    return packed


def _exact_keys(tiles: Sequence[TileLike]) -> tuple[int, int, int]:
    """The three suit keys counted tile by tile, raising on a fifth copy (for lists too long for the packed sum)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[to_index(t)] += 1
    if max(counts) > 4:
        _raise_copies(tiles)
    return (
        sum(map(mul, counts[0:9], _POW5)),
        sum(map(mul, counts[9:18], _POW5)),
        sum(map(mul, counts[18:27], _POW5)),
    )


def _raise_copies(tiles: Sequence[TileLike]) -> NoReturn:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[to_index(t)] += 1
    over = [Tile(i) for i, c in enumerate(counts) if c > 4]
    raise TooManyCopiesError(f"more than four copies of {format_tiles(over)} in the concealed hand")


def _pack(tiles: Iterable[TileLike] | str) -> tuple[int, int, int, int]:
    """The three suit keys and the tile count, raising on bad tiles or a fifth copy.

    The hot functions (shanten, is_winning) inline this; keep them in step.
    """
    if type(tiles) is not list:
        tiles = _as_sequence(tiles)
    hand: list[Tile] = tiles  # type: ignore[assignment]
    packed = 0
    try:
        for t in hand:
            packed += t.key_weight
    except (AttributeError, TypeError):  # not all Tiles (compiled, TypeError)
        packed = _packed(tiles)
    n = len(tiles)
    if n > _PACKED_MOST:
        k0, k1, k2 = _exact_keys(tiles)
        return k0, k1, k2, n
    k0 = packed & _MASK
    k1 = (packed >> _FIELD) & _MASK
    k2 = packed >> _FIELD2
    try:
        held = _INFO[k0][2] + _INFO[k1][2] + _INFO[k2][2]
    except IndexError:  # a key past the table: a fifth copy carried out of the suit
        _raise_copies(tiles)
    if held != n:  # a carry between ranks: a fifth copy
        _raise_copies(tiles)
    return k0, k1, k2, n


def _meld_info(melds: Sequence[Meld], keys: tuple[int, int, int]) -> tuple[int, list[int] | None]:
    """Bitmask of suits with melds and the 27 meld counts; checks copies against the concealed keys."""
    if not melds:
        return 0, None
    if len(melds) > 4:
        raise HandSizeError(f"at most four melds, got {len(melds)}")
    suits = 0
    counts = [0] * NUM_KINDS
    for meld in melds:
        counts[meld.tile_index] += meld.size
        suits |= 1 << (meld.tile_index // 9)
    for tile, c in enumerate(counts):
        if c:
            held = keys[tile // 9] // _POW5[tile % 9] % 5
            if c + held > 4:
                raise TooManyCopiesError(f"{Tile(tile)}: {c} in melds and {held} concealed, more than four copies")
    return suits, counts


def _void_index(void: int | str | None) -> int:
    if void is None:
        return -1
    if isinstance(void, str):
        if void not in SUITS or len(void) != 1:
            raise ValueError(f"void must be one of m, p, s, got {void!r}")
        return SUITS.index(void)
    if void not in (0, 1, 2):
        raise ValueError(f"void must be 0, 1 or 2 (m, p, s), got {void}")
    return void


def _check_size(what: str, n: int, n_melds: int, allowed: tuple[int, ...]) -> None:
    if n + 3 * n_melds in allowed and n_melds <= 4:
        return
    want = " or ".join(str(a - 3 * n_melds) for a in allowed)
    raise HandSizeError(
        f"{what} needs {want} concealed tiles with {n_melds} meld{'s' if n_melds != 1 else ''}, got {n}"
    )


def _prepare(
    what: str, tiles: Iterable[TileLike] | str, melds: Sequence[Meld], allowed: tuple[int, ...]
) -> tuple[tuple[int, int, int], int, list[int] | None]:
    k0, k1, k2, n = _pack(tiles)
    keys = (k0, k1, k2)
    meld_suits, meld_counts = _meld_info(melds, keys)
    _check_size(what, n, len(melds), allowed)
    return keys, meld_suits, meld_counts


def shanten(tiles: Iterable[TileLike] | str, melds: Sequence[Meld] = (), *, void: int | str | None = None) -> int:
    """Shanten of a 13 - 3k or 14 - 3k concealed hand with k melds: -1 complete, 0 ready, ... (缺一门 applied).

    The least of the standard form and (without melds) seven pairs. ``void`` forces the void suit (定缺).
    """
    # _pack and shanten_keys inlined, constants written out: the per-call path held to 100x `mahjong` (evaluator.py).
    # Each tile adds its precomputed key_weight; 13 tiles (a hand between draws) are summed unrolled, a fifth less
    # time than the loop in pure Python. Anything but Tiles (AttributeError; compiled, TypeError) takes _packed.
    if type(tiles) is not list:
        tiles = _as_sequence(tiles)
    n = len(tiles)
    hand: list[Tile] = tiles  # type: ignore[assignment]
    try:
        if n == 13:
            t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12 = hand
            packed = t0.key_weight + t1.key_weight + t2.key_weight + t3.key_weight + t4.key_weight + t5.key_weight
            packed += t6.key_weight + t7.key_weight + t8.key_weight + t9.key_weight + t10.key_weight + t11.key_weight
            packed += t12.key_weight
        else:
            packed = 0
            for t in hand:
                packed += t.key_weight
    except (AttributeError, TypeError):
        packed = _packed(tiles)
    if n > 14:  # _PACKED_MOST: never a hand; a fifth copy is named first, as for any list
        _exact_keys(tiles)
        _check_size("shanten", n, len(melds), (13, 14))
    try:
        r0, _, d0 = _INFO[packed & 0x1FFFFF]
        r1, c1, d1 = _INFO[packed >> 21 & 0x1FFFFF]
        _, c2, d2 = _INFO[packed >> 42]
    except IndexError:  # a key past the table: a fifth copy carried out of the suit
        _raise_copies(tiles)
    if d0 + d1 + d2 != n:  # a carry between ranks: a fifth copy
        _raise_copies(tiles)
    if melds or void is not None:
        keys = (packed & 0x1FFFFF, packed >> 21 & 0x1FFFFF, packed >> 42)
        meld_suits, _ = _meld_info(melds, keys)
        _check_size("shanten", n, len(melds), (13, 14))
        return _distance(_COMB, *keys, len(melds), meld_suits, _void_index(void)) - 1
    if (n - 13) & -2:  # n is neither 13 nor 14
        _check_size("shanten", n, 0, (13, 14))
    x = _COMB[r0 + c1]
    y = _COMB[r0 + c2]
    if y < x:  # noqa: PLR1730
        x = y
    y = _COMB[r1 + c2]
    if y < x:  # noqa: PLR1730
        x = y
    return x - 1


def shanten_standard(
    tiles: Iterable[TileLike] | str, melds: Sequence[Meld] = (), *, void: int | str | None = None
) -> int:
    """Shanten towards four sets and a pair only (melds count as sets)."""
    keys, meld_suits, _ = _prepare("shanten_standard", tiles, melds, (13, 14))
    return _distance(_STD, *keys, len(melds), meld_suits, _void_index(void)) - 1


def shanten_seven_pairs(
    tiles: Iterable[TileLike] | str, melds: Sequence[Meld] = (), *, void: int | str | None = None
) -> int:
    """Shanten towards seven pairs (a four of a kind is two pairs); :data:`NO_WIN` once there is any meld."""
    keys, meld_suits, _ = _prepare("shanten_seven_pairs", tiles, melds, (13, 14))
    if melds:
        return NO_WIN
    return _distance(_SEVEN, *keys, 0, meld_suits, _void_index(void)) - 1


def is_winning(tiles: Iterable[TileLike] | str, melds: Sequence[Meld] = (), *, void: int | str | None = None) -> bool:
    """Whether 14 - 3k concealed tiles and k melds win: four sets and a pair or seven pairs, at most two suits."""
    k0, k1, k2, n = _pack(tiles)
    if melds or void is not None:
        meld_suits, _ = _meld_info(melds, (k0, k1, k2))
        _check_size("is_winning", n, len(melds), (14,))
        return _distance(_COMB, k0, k1, k2, len(melds), meld_suits, _void_index(void)) == 0
    if n != 14:
        _check_size("is_winning", n, 0, (14,))
    r0 = _INFO[k0][0]
    r1, c1, _ = _INFO[k1]
    c2 = _INFO[k2][1]
    return not (_COMB[r0 + c1] and _COMB[r0 + c2] and _COMB[r1 + c2])


def waits(tiles: Iterable[TileLike] | str, melds: Sequence[Meld] = (), *, void: int | str | None = None) -> list[Tile]:
    """The tiles that complete a 13 - 3k concealed hand, ascending; never one the player holds all four of."""
    keys, meld_suits, meld_counts = _prepare("waits", tiles, melds, (13,))
    counts = _counts_of_keys(keys)
    return [ALL_TILES[i] for i in _waits(keys, counts, len(melds), meld_suits, _void_index(void), meld_counts)]


def _counts_of_keys(keys: tuple[int, int, int]) -> list[int]:
    counts: list[int] = []
    for key in keys:
        rest = key
        for _ in range(9):
            rest, c = divmod(rest, 5)
            counts.append(c)
    return counts


def _useful(
    keys: list[int],
    counts: list[int],
    n_melds: int,
    meld_suits: int,
    void: int,
    meld_counts: list[int] | None,
    seen: list[int],
) -> tuple[int, tuple[tuple[Tile, int], ...], int]:
    """Shanten of a 13 - 3k hand and each drawable tile that lowers it, with its unseen copies.

    A drawn tile changes one suit's key only, so per suit the other kept suit's half of the table index is
    fixed, and the void choice that drops this suit keeps its distance: one or two lookups per tile.
    """
    allowed = [v for v in range(3) if not meld_suits >> v & 1 and (void < 0 or v == void)]
    dist = {v: _COMB[_INFO[keys[_KEPT[v][0]]][0] + _INFO[keys[_KEPT[v][1]]][1] + n_melds] for v in allowed}
    current = min(dist.values(), default=_CAP)
    useful: list[tuple[Tile, int]] = []
    total = 0
    for suit in range(3):
        unchanged = dist.get(suit, _CAP)
        # (this suit first in the table index?, the other kept suit's half of the index + n_melds)
        halves = [
            (suit < other, _INFO[keys[other]][1 if suit < other else 0] + n_melds)
            for v in allowed
            if v != suit
            for other in (3 - suit - v,)
        ]
        key = keys[suit]
        for r in range(9):
            tile = 9 * suit + r
            own = counts[tile] + (meld_counts[tile] if meld_counts is not None else 0)
            if own >= 4:
                continue
            grown = key + _POW5[r]
            best = unchanged
            for first, half in halves:
                d = _COMB[_INFO[grown][0 if first else 1] + half]
                if d < best:  # noqa: PLR1730
                    best = d
            if best < current:
                left = max(0, 4 - own - seen[tile])
                useful.append((ALL_TILES[tile], left))
                total += left
    return current - 1, tuple(useful), total


def useful_tiles(
    tiles: Iterable[TileLike] | str,
    melds: Sequence[Meld] = (),
    seen: Iterable[TileLike] = (),
    *,
    void: int | str | None = None,
) -> list[DiscardChoice]:
    """For each distinct discard of a 14 - 3k hand: the shanten left and the tiles that would lower it (ukeire).

    The count beside each tile is how many copies the player has not seen: 4 minus his own concealed copies
    (after the discard), those in his melds and those in ``seen`` (discards and others' melds), at least 0.
    Best first: lowest shanten, then most useful tiles, then the lower tile.
    """
    keys_t, meld_suits, meld_counts = _prepare("useful_tiles", tiles, melds, (14,))
    seen_counts = _seen_counts(seen)
    v = _void_index(void)
    counts = _counts_of_keys(keys_t)
    keys = list(keys_t)
    choices: list[DiscardChoice] = []
    for discard in range(NUM_KINDS):
        if not counts[discard]:
            continue
        suit = discard // 9
        keys[suit] -= _POW5[discard % 9]
        counts[discard] -= 1
        sh, useful, total = _useful(keys, counts, len(melds), meld_suits, v, meld_counts, seen_counts)
        choices.append(DiscardChoice(ALL_TILES[discard], sh, useful, total))
        counts[discard] += 1
        keys[suit] += _POW5[discard % 9]
    choices.sort(key=lambda c: (c.shanten, -c.total, c.discard.index))
    return choices


def improvements(
    tiles: Iterable[TileLike] | str,
    melds: Sequence[Meld] = (),
    seen: Iterable[TileLike] = (),
    *,
    void: int | str | None = None,
) -> Improvement:
    """Shanten of a 13 - 3k hand and the tiles that would lower it, with unseen copies as in useful_tiles."""
    keys_t, meld_suits, meld_counts = _prepare("improvements", tiles, melds, (13,))
    counts = _counts_of_keys(keys_t)
    sh, useful, total = _useful(
        list(keys_t), counts, len(melds), meld_suits, _void_index(void), meld_counts, _seen_counts(seen)
    )
    return Improvement(sh, useful, total)


def _seen_counts(seen: Iterable[TileLike]) -> list[int]:
    if isinstance(seen, str):
        seen = parse_tiles(seen, max_copies=None)
    counts = [0] * NUM_KINDS
    for t in seen:
        counts[to_index(t)] += 1
    return counts
