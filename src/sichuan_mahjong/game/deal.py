"""The deal (docs/rules.md R2): rolling for the dealer, dealing from the broken wall, and reading a ``deal`` event back.

Everything chance decides in a hand is in its ``deal`` event (hands, wall in draw order, dice, seed). A replay
or a record starts from that event, so :func:`read_deal` checks it is a deal the engine could have made — dice
of one to six, the dealer's rolls as R2.2 rolls them, 14 and 13 tiles in hand, a wall of 55, four of each tile
— and raises :class:`DealError` naming what is wrong otherwise, before a single tile moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from sichuan_mahjong.game.events import tiles_of_text
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS, Tile, TileLike, TileParseError, format_tiles, parse_tiles, to_index

__all__ = ["WALL_SIZE", "Deal", "DealError", "deal_ring", "read_deal", "roll_dealer", "scripted_deal", "shuffled_deal"]

#: Tiles left in the wall after the deal: 108 - 13 x 4 - the dealer's 14th.
WALL_SIZE: Final = 108 - 13 * 4 - 1


class DealError(ValueError):
    """A ``deal`` event the engine could not have made (impossible dice, a fifth copy of a tile, ...)."""


def roll_dealer(rng: random.Random) -> tuple[int, list[list[int]]]:
    """R2.2: everyone rolls two dice, the highest deals, ties roll again among the tied."""
    rolls: list[list[int]] = []
    contenders = [0, 1, 2, 3]
    while True:
        totals = {s: rng.randint(1, 6) + rng.randint(1, 6) for s in contenders}
        rolls.append([totals.get(s, 0) for s in range(4)])
        best = max(totals.values())
        contenders = [s for s in contenders if totals[s] == best]
        if len(contenders) == 1:
            return contenders[0], rolls


def deal_ring(ring: Sequence[int], dealer: int) -> tuple[list[list[int]], list[int]]:
    """Deal as at the table: three rounds of four tiles from the dealer on, one each, the dealer's 14th (跳牌)."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _ in range(3):
        for k in range(4):
            hands[(dealer + k) % 4].extend(ring[pos : pos + 4])
            pos += 4
    for k in range(4):
        hands[(dealer + k) % 4].append(ring[pos])
        pos += 1
    hands[dealer].append(ring[pos])
    return hands, list(ring[pos + 1 :])


class Deal(NamedTuple):
    """A checked ``deal`` event, in the engine's own terms (tiles as indices)."""

    rules: Rules
    base: int
    seed: int
    dealer: int
    dealer_rolls: list[list[int]] | None
    dice: tuple[int, int]
    hands: list[list[int]]
    wall: list[int]
    exchange_dice: tuple[int, int]


def _int(data: Mapping[str, Any], key: str, low: int | None = None, high: int | None = None) -> int:
    value = data.get(key)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        span = "an integer" if low is None else f"an integer >= {low}" if high is None else f"an integer {low}..{high}"
        raise DealError(f"the deal's {key!r} must be {span}, got {value!r}"[:200])
    return value


def _dice(data: Mapping[str, Any], key: str) -> tuple[int, int]:
    value = data.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)
    ):
        raise DealError(f"the deal's {key!r} must be two dice of 1 to 6, got {value!r}")
    return value[0], value[1]


def _check_rolls(rolls: object, dealer: int) -> list[list[int]] | None:
    """R2.2 as rolled: all four roll first; each roll after a tie is the tied seats' alone; the dealer is the
    one highest of the last roll."""
    if rolls is None:
        return None
    if not isinstance(rolls, list) or not rolls:
        raise DealError(f"the deal's 'dealer_rolls' must be null or a list of rolls, got {rolls!r}")
    rolling = [0, 1, 2, 3]
    for i, roll in enumerate(rolls):
        if (
            not isinstance(roll, list)
            or len(roll) != 4
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in roll)
            or any((2 <= roll[s] <= 12) != (s in rolling) or (s not in rolling and roll[s]) for s in range(4))
        ):
            raise DealError(f"dealer roll {i + 1} {roll!r} is not two dice for each of seats {rolling} (R2.2)")
        best = max(roll)
        rolling = [s for s in range(4) if roll[s] == best]
        if len(rolling) == 1 and i != len(rolls) - 1:
            raise DealError(f"dealer roll {i + 1} has one highest seat, yet the rolls go on (R2.2)")
    if rolling != [dealer]:
        raise DealError(f"the dealer rolls end with seat(s) {rolling} highest, not the dealer {dealer} (R2.2)")
    return rolls


def _tiles(value: object, what: str) -> list[int]:
    if not isinstance(value, str):
        raise DealError(f"the deal's {what} must be tiles written as text, got {type(value).__name__}")
    fast = tiles_of_text(value)
    if fast is not None:
        return fast
    try:
        return [t.index for t in parse_tiles(value)]
    except TileParseError as exc:
        raise DealError(f"the deal's {what}: {exc}") from None


def read_deal(data: Mapping[str, Any]) -> Deal:
    """The ``deal`` event's data checked and read; :class:`DealError` says what is impossible about it."""
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, Mapping):
        raise DealError(f"the deal's 'rules' must be an object of options, got {raw_rules!r}")
    try:
        rules = Rules.from_dict(raw_rules)
    except (ValueError, TypeError) as exc:
        raise DealError(f"the deal's rules: {exc}") from None
    dealer = _int(data, "dealer", 0, 3)
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != 4:
        raise DealError(f"the deal's 'hands' must be four hands, got {hands_raw!r}"[:200])
    hands = [_tiles(h, f"hand of seat {s}") for s, h in enumerate(hands_raw)]
    for s, hand in enumerate(hands):
        if len(hand) != (14 if s == dealer else 13):
            raise DealError(f"seat {s} is dealt {len(hand)} tiles; the dealer gets 14, the others 13 (R2.4)")
    wall = _tiles(data.get("wall"), "wall")
    if len(wall) != WALL_SIZE:
        raise DealError(f"the wall holds {len(wall)} tiles after the deal, not {WALL_SIZE}")
    counts = [0] * NUM_KINDS
    for t in (*wall, *(t for h in hands for t in h)):
        counts[t] += 1
    for t, n in enumerate(counts):
        if n != 4:
            raise DealError(f"the deal holds {n} copies of {Tile(t)}, not 4 (R1.1)")
    return Deal(
        rules,
        _int(data, "base", 1),
        _int(data, "seed"),
        dealer,
        _check_rolls(data.get("dealer_rolls"), dealer),
        _dice(data, "dice"),
        hands,
        wall,
        _dice(data, "exchange_dice"),
    )


def shuffled_deal(rules: Rules, seed: int, dealer: int | None, base: int) -> Deal:
    """A shuffled hand's deal (``Game(rules, seed)``): ``dealer=None`` rolls for the first dealer (R2.2)."""
    rng = random.Random(seed)
    rolls: list[list[int]] | None = None
    if dealer is None:
        dealer, rolls = roll_dealer(rng)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
    rng.shuffle(tiles)
    total = dice[0] + dice[1]
    # R2.3: the wall in front of seat (dealer + total - 1) is broken ``total`` stacks (two tiles) in.
    start = (((dealer + total - 1) % 4) * 27 + 2 * total) % 108
    ring = tiles[start:] + tiles[:start]
    hands, wall = deal_ring(ring, dealer)
    exchange_dice = (rng.randint(1, 6), rng.randint(1, 6))
    return Deal(rules, base, seed, dealer, rolls, dice, hands, wall, exchange_dice)


def scripted_deal(
    rules: Rules,
    hands: Sequence[str | Iterable[TileLike]],
    wall: str | Iterable[TileLike],
    dealer: int,
    seed: int,
    replacements: str | Iterable[TileLike],
    base: int,
) -> Deal:
    """The deal of ``Game.setup``: given hands, the wall's first draws and kong replacements, the rest shuffled."""
    if len(hands) != 4:
        raise ValueError(f"setup needs four hands, got {len(hands)}")
    if not 0 <= dealer < 4:
        raise ValueError(f"dealer must be a seat 0..3, got {dealer}")
    dealt = [_tiles_arg(h) for h in hands]
    for s, h in enumerate(dealt):
        need = 14 if s == dealer else 13
        if len(h) != need:
            raise ValueError(f"seat {s} must be dealt {need} tiles, got {len(h)}: {format_tiles(h)}")
    draws = _tiles_arg(wall)
    tail = _tiles_arg(replacements)
    used = [0] * NUM_KINDS
    for t in (*[t for h in dealt for t in h], *draws, *tail):
        used[t] += 1
        if used[t] > 4:
            raise ValueError(f"more than four {Tile(t)} among the hands, wall and replacements")
    if len(draws) + len(tail) > WALL_SIZE:
        raise ValueError(f"the wall holds {WALL_SIZE} tiles, got {len(draws) + len(tail)}")
    rng = random.Random(seed)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    filler = [t for t in range(NUM_KINDS) for _ in range(4 - used[t])]
    rng.shuffle(filler)
    exchange_dice = (rng.randint(1, 6), rng.randint(1, 6))
    return Deal(rules, base, seed, dealer, None, dice, dealt, draws + filler + tail[::-1], exchange_dice)


def _tiles_arg(tiles: str | Iterable[TileLike]) -> list[int]:
    if isinstance(tiles, str):
        fast = tiles_of_text(tiles)  # a deal event's own form, one tile after another
        return fast if fast is not None else [t.index for t in parse_tiles(tiles)]
    return [to_index(t) for t in tiles]
