"""The hand evaluator on tables of tile strings, named by rule (docs/rules.md R3 缺一门, R7 shapes, R9.5 查叫)."""

from __future__ import annotations

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong import HandSizeError, Meld, TooManyCopiesError
from sichuan_mahjong.tiles import TileLike

M = Meld.parse


@pytest.mark.parametrize(
    ("tiles", "melds", "expected"),
    [
        ("123m456m789m123p55p", [], True),  # 平胡 in two suits
        ("11223344556677m", [], True),  # 清七对
        ("1111m223344p5566p", [], True),  # 龙七对: a four of a kind is two pairs
        ("11112222333344m", [], True),  # one suit, fours as sets and pair
        ("123m55p", [M("pung 9m"), M("kong 1p"), M("pung 4p")], True),
        ("5p5p", [M("pung 1m"), M("pung 2m"), M("kong 3m"), M("concealed_kong 4p")], True),  # 金钩钓 shape
        ("22m", [M("pung 1m"), M("pung 2p"), M("kong 3p"), M("added_kong 4p")], True),
        ("11223344556677m", [], True),
        ("123m456m789m12p55p", [], False),  # not yet a set
    ],
)
def test_r7_winning_shapes(tiles: str, melds: list[Meld], expected: bool) -> None:
    tiles14 = sm.parse_tiles(tiles)
    if len(tiles14) == 13 - 3 * len(melds):
        tiles14.append(sm.Tile.from_str("9s"))
    assert sm.is_winning(tiles14, melds) is expected
    assert (sm.shanten(tiles14, melds) == -1) is expected


@pytest.mark.parametrize(
    ("tiles", "melds"),
    [
        ("123m456p789s123m55m", []),  # sets in all three suits
        ("11m22m33m44p55p66s77s", []),  # seven pairs in three suits
        ("123m456m789m55p", [M("pung 1s")]),  # the meld brings the third suit
        ("123m55m", [M("pung 1p"), M("pung 2s"), M("kong 9m")]),
    ],
)
def test_r3_1_three_suits_never_win(tiles: str, melds: list[Meld]) -> None:
    assert not sm.is_winning(tiles, melds)
    assert sm.shanten(tiles, melds) >= 0


def test_r3_1_melds_in_three_suits_can_never_win() -> None:
    melds = [M("pung 1m"), M("pung 1p"), M("pung 1s")]
    assert sm.shanten("1234m", melds) == sm.NO_WIN
    assert sm.shanten_keys((sm.suit_keys(sm.counts_of(sm.parse_tiles("1234m")))), 3, 0b111) == sm.NO_WIN


@pytest.mark.parametrize(
    ("tiles", "melds", "expected"),
    [
        ("123m456m789m123p5p", [], 0),
        ("123m456m789m12p5p9s", [], 1),  # 9s dead: void s leaves 12p and 5p to fix
        ("123m456m789m12p5p9p", [], 1),
        ("159m159p159s1357m", [], 4),  # void s: seven pairs 11m 55m, six singles
        ("1122m3344p5566s7m", [], 4),  # six pairs over three suits: two are dead whichever suit goes
        ("1122m3344m5566p7m", [], 0),  # seven pairs ready
        ("1111m2222m3333m4m", [], 0),
        ("1234m", [M("pung 5p"), M("pung 6p"), M("pung 7p")], 0),
        ("1234s", [M("pung 5p"), M("pung 6p"), M("pung 7m")], 4),  # m and p melds: s is void and dead
    ],
)
def test_r3_shanten_of_thirteen_tile_hands(tiles: str, melds: list[Meld], expected: int) -> None:
    assert sm.shanten(tiles, melds) == expected


def test_r3_2_declared_void_forces_the_dead_suit() -> None:
    hand = "123m456m789m123p5p"
    assert sm.shanten(hand) == 0
    assert sm.shanten(hand, void="s") == 0
    assert sm.shanten(hand, void="p") == 4  # 123456789m left: a set and a pair to draw
    assert sm.waits(hand, void="m") == []
    assert sm.shanten_keys(sm.suit_keys(sm.counts_of(sm.parse_tiles(hand))), 0, 0, 1) == 4


def test_shanten_forms_apart() -> None:
    hand = "1122m3344m5566p7m"
    assert sm.shanten_seven_pairs(hand) == 0
    assert sm.shanten_standard(hand) == 1
    assert sm.shanten_seven_pairs("1234m", [M("pung 5p"), M("pung 6p"), M("pung 7p")]) == sm.NO_WIN


@pytest.mark.parametrize(
    ("tiles", "melds", "expected"),
    [
        ("1112345678999m", [], "123456789m"),  # 九莲宝灯 shape waits on all nine
        ("123m456m789m123p5p", [], "5p"),
        ("1122m3344m5566p7m", [], "7m"),  # seven pairs single wait
        ("1122m3344m5566p77m", [], None),  # size error: 14 tiles
        ("1111m234p567p789p", [], ""),  # R9.5: the only wait is a fifth 1m
        ("11m234p567p789p99p", [], "1m69p"),  # 6p: 234 567 678 999
        ("1112m", [M("pung 5p"), M("pung 6p"), M("pung 7p")], "23m"),
        ("2m", [M("pung 2p"), M("pung 6p"), M("pung 7p"), M("kong 8p")], "2m"),
        ("5p", [M("pung 5p"), M("pung 6p"), M("pung 7p"), M("kong 8p")], ""),  # the fifth 5p is in no wall
        ("3m", [M("pung 1p"), M("pung 2s"), M("pung 7p"), M("kong 8p")], ""),  # three suits
    ],
)
def test_r9_5_waits(tiles: str, melds: list[Meld], expected: str | None) -> None:
    if expected is None:
        with pytest.raises(HandSizeError, match="waits needs 13 concealed tiles with 0 melds, got 14"):
            sm.waits(tiles, melds)
        return
    assert sm.format_tiles(sm.waits(tiles, melds)) == expected


def test_r9_5_wait_held_in_a_pung_keeps_shanten_zero_but_no_wait() -> None:
    """The keys do not see meld copies: structurally ready, but the wait is the fifth 5p (documented)."""
    melds = [M("pung 5p"), M("pung 6p"), M("pung 7p"), M("kong 8p")]
    assert sm.shanten("5p", melds) == 0
    assert sm.waits("5p", melds) == []
    assert sm.improvements("5p", melds).useful == ()


@pytest.mark.parametrize(
    ("call", "tiles", "melds", "message"),
    [
        (sm.is_winning, "123m456m789m123p5p", [], "is_winning needs 14 concealed tiles with 0 melds, got 13"),
        (sm.is_winning, "123m55p", [M("pung 1m")], "is_winning needs 11 concealed tiles with 1 meld, got 5"),
        (sm.shanten, "123m", [], "shanten needs 13 or 14 concealed tiles with 0 melds, got 3"),
        (sm.useful_tiles, "123m", [], "useful_tiles needs 14 concealed tiles"),
        (sm.improvements, "1234m", [], "improvements needs 13 concealed tiles"),
    ],
)
def test_hand_size_errors_name_the_counts(call: object, tiles: str, melds: list[Meld], message: str) -> None:
    assert callable(call)
    with pytest.raises(HandSizeError, match=message):
        call(tiles, melds)


def test_fifth_copies_raise() -> None:
    with pytest.raises(TooManyCopiesError):
        sm.shanten(["1m"] * 5 + ["2m"] * 8)
    with pytest.raises(TooManyCopiesError, match="5p: 3 in melds and 2 concealed"):
        sm.shanten("55p123m456m", [M("pung 5p")])


@pytest.mark.parametrize(
    "tiles",
    [
        "999999m1234567p",  # the m key's sum runs over its 21-bit field into the p field
        "888888999999m1p",
        "1234567p999999s",  # ... and the top field past the table
        "99999999m123456p",
        "9999999p1234567s",
    ],
)
def test_fifth_copies_raise_where_a_suit_sum_runs_over_its_field(tiles: str) -> None:
    # The same hands as lists of Tiles too (read with no copy limit; the functions read notation with one): a list
    # of 13 Tiles takes shanten's shortest path, which must hand a carried or overflowing key on to the checks.
    listed = sm.parse_tiles(tiles, max_copies=None)
    for call in (sm.shanten, sm.is_winning, sm.waits, sm.shanten_standard):
        for hand in (tiles, listed):
            with pytest.raises(TooManyCopiesError):
                call(hand)


@pytest.mark.parametrize("size", [12, 13, 14])
def test_a_list_of_any_tile_likes_reads_as_its_tiles(size: int) -> None:
    """The tile-list door sums Tiles' key weights (13 unrolled); a list with an index or a notation in it reads
    the same, and a fifth copy is named whichever way it came in."""
    tiles = sm.parse_tiles("1112345678999m5p")[:size]
    want = sm.shanten(tiles) if size != 12 else None
    last_an_index: list[TileLike] = [*tiles[:-1], tiles[-1].index]
    first_a_notation: list[TileLike] = [str(tiles[0]), *tiles[1:]]
    for mixed in (last_an_index, first_a_notation, [t.index for t in tiles]):
        if want is None:
            with pytest.raises(HandSizeError):
                sm.shanten(mixed)
        else:
            assert sm.shanten(mixed) == want
            if size == 14:
                assert sm.is_winning(mixed) == sm.is_winning(tiles)
    fifth = [*tiles[: size - 5], *[sm.Tile(0)] * 5]
    with pytest.raises(TooManyCopiesError):
        sm.shanten(fifth)
    with pytest.raises(TooManyCopiesError):
        sm.shanten([*fifth[:-1], 0])


def test_long_lists_are_counted_exactly() -> None:
    with pytest.raises(TooManyCopiesError):
        sm.shanten("99999m" + "1234567p" + "123s")
    with pytest.raises(HandSizeError):
        sm.shanten("123456789m123456p")
    with pytest.raises(HandSizeError):
        sm.is_winning("11122233344455m5p")


def test_the_packed_tile_count_catches_every_fifth_copy() -> None:
    """Exhaustive, by suit: the tile-list door packs the three suit keys into one sum (21 bits a field) and
    checks the keys' tile counts against the list's. For every hand of at most 14 tiles (any copies), that
    check passes exactly when no kind has a fifth copy, or a key falls past the table (also refused). Suits
    interact only by what one carries into the next field, so per suit (tiles, digit sum read, carry out, legal)
    is all that matters."""
    from sichuan_mahjong.hand import analysis

    field, most, size = analysis._FIELD, analysis._PACKED_MOST, len(analysis._INFO)
    mask = (1 << field) - 1

    def digits(x: int) -> int:
        total = 0
        while x:
            x, d = divmod(x, 5)
            total += d
        return total

    suits: list[tuple[int, int, bool]] = []  # (tiles, raw sum, no fifth copy) of every multiset of <= most tiles

    def walk(rank: int, left: int, raw: int, n: int, legal: bool) -> None:
        if rank == 9:
            suits.append((n, raw, legal))
            return
        for m in range(left + 1):
            walk(rank + 1, left - m, raw + m * 5**rank, n + m, legal and m <= 4)

    walk(0, most, 0, 0, True)

    def read(carry_in: int, top: bool) -> set[tuple[int, int, int, bool]]:
        out = set()
        for n, raw, legal in suits:
            v = raw + carry_in
            key, carry = (v, 0) if top else (v & mask, v >> field)
            if key < size:
                out.add((n, digits(key), carry, legal))
        return out

    first, middle, top = read(0, False), {c: read(c, False) for c in range(3)}, {c: read(c, True) for c in range(3)}
    assert all(c < 3 for _, _, c, _ in first)
    for n0, d0, c0, l0 in first:
        for n1, d1, c1, l1 in middle[c0]:
            for n2, d2, _, l2 in top[c1]:
                if n0 + n1 + n2 <= most:
                    assert (d0 + d1 + d2 == n0 + n1 + n2) == (l0 and l1 and l2)


def test_tile_like_inputs_agree() -> None:
    text = "123m456m789m123p5p"
    tiles = sm.parse_tiles(text)
    assert sm.shanten(text) == sm.shanten(tiles) == sm.shanten([t.index for t in tiles])
    assert sm.shanten([str(t) for t in tiles]) == sm.shanten(iter(tiles)) == 0
    assert sm.shanten([*tiles[:-1], 13]) == 0


def test_useful_tiles_ranks_discards() -> None:
    choices = sm.useful_tiles("123m456m789m12p5p9s9s")
    best = choices[0]
    assert str(best) == "discard 9s: shanten 1, 7 useful (35p)"
    assert best.useful == ((sm.Tile.from_str("3p"), 4), (sm.Tile.from_str("5p"), 3))
    assert [c.shanten for c in choices] == sorted(c.shanten for c in choices)
    assert len({c.discard for c in choices}) == len(choices) == 13


def test_useful_tiles_counts_seen_and_melds() -> None:
    melds = [M("pung 3p")]
    seen = sm.parse_tiles("5p5p5p3p")
    choices = sm.useful_tiles("123m456m12p5p9s9s", melds, seen)
    nine_s = next(c for c in choices if str(c.discard) == "9s")
    # 3p: four copies minus three in the pung minus one seen = 0; 5p: 4 - 1 own - 3 seen = 0
    assert nine_s.useful == ((sm.Tile.from_str("3p"), 0), (sm.Tile.from_str("5p"), 0))
    assert nine_s.total == 0


def test_improvements_of_a_ready_hand_are_its_waits() -> None:
    imp = sm.improvements("1112345678999m", seen=["5m", "5m"])
    assert imp.shanten == 0
    assert [t for t, _ in imp.useful] == sm.waits("1112345678999m")
    assert {str(t): n for t, n in imp.useful}["5m"] == 1
    assert str(imp).startswith("shanten 0, ")


def test_waits_counts_and_batch_int_api() -> None:
    counts = sm.counts_of(sm.parse_tiles("1112m"))
    meld_counts = [0] * 27
    for t in (13, 14, 15):
        meld_counts[t] = 3
    assert sm.waits_counts(counts, 3, 0b010, -1, meld_counts) == [1, 2]
    assert sm.waits_counts(counts, 3, 0b010, 2, meld_counts) == [1, 2]
    assert sm.waits_counts(counts, 3, 0b010, 1, meld_counts) == []
    keys = [sm.suit_keys(sm.counts_of(sm.parse_tiles(h))) for h in ("123m456m789m123p55p", "123m456p789s123m55m")]
    assert sm.shanten_batch(keys).tolist() == [-1, 2]
    assert sm.shanten_batch(keys, [0, 0], [0b001, 0]).tolist() == [-1, 2]
    assert sm.is_winning_keys(keys[0], 0) and not sm.is_winning_keys(keys[1], 0)
    with pytest.raises(ValueError, match="shape"):
        sm.shanten_batch([1, 2, 3])
