"""R1: tiles and their notations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sichuan_mahjong as sm
from sichuan_mahjong.tiles import KEY_BITS, TileParseError, TooManyCopiesError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("123m456p789s", "123m456p789s"),
        ("12m3m", "123m"),
        ("9s1m", "1m9s"),
        ("二三四四五六七七萬三四五七八九筒", "23445677m345789p"),  # R7 basic hand, source spelling
        ("二三四四五六七七万三四五七八九筒", "23445677m345789p"),  # simplified 万
        ("二條、二條、二條、三條", "2223s"),  # the narrated hand's separators (R13)
        ("一二三三三三萬四五五六六七九九条", "123333m45566799s"),
        ("🀇🀙🀐", "1m1p1s"),  # R1.3 glyphs
        ("1m 2m,3m", "123m"),
    ],
)
def test_parse_then_format(text: str, canonical: str) -> None:
    assert sm.format_tiles(sm.parse_tiles(text)) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("12x", "'x' at position 2"),
        ("123", "position 0 has no suit"),
        ("m12m", "'m' at position 0"),
        ("0m", "'0' at position 0"),
        ("1m🀇", ""),  # two 1m are fine: this must parse
    ],
)
def test_bad_notation_names_character_and_position(text: str, fragment: str) -> None:
    if not fragment:
        assert len(sm.parse_tiles(text)) == 2
        return
    with pytest.raises(TileParseError, match=fragment):
        sm.parse_tiles(text)


def test_five_copies_is_an_error() -> None:
    with pytest.raises(TooManyCopiesError, match="5 copies of 1m"):
        sm.parse_tiles("11111m")
    assert isinstance(TooManyCopiesError("x"), ValueError)


def test_tile_values() -> None:
    t = sm.Tile.from_str("5p")
    assert (t.suit, t.rank, t.index, str(t), t.zh) == ("p", 5, 13, "5p", "五筒")
    assert t is sm.Tile(13)
    assert eval(repr(t), {"Tile": sm.Tile}) is t
    assert sm.Tile.of("s", 9).glyph == "\U0001f018"
    assert [x.glyph for x in (sm.Tile.from_str("1m"), sm.Tile.from_str("1p"))] == ["\U0001f007", "\U0001f019"]
    with pytest.raises(ValueError, match=r"0\.\.26"):
        sm.Tile(27)


def test_format_styles() -> None:
    tiles = sm.parse_tiles("1m2m9p5s")
    assert sm.format_tiles(tiles, style="zh") == "一二萬九筒五條"
    assert sm.parse_tiles(sm.format_tiles(tiles, style="glyph")) == tiles
    assert sm.format_tiles(sm.parse_tiles("5s1m"), sort=False) == "5s1m"


def test_suit_keys_are_base_five() -> None:
    counts = sm.counts_of(sm.parse_tiles("119m2p"))
    assert sm.suit_keys(counts) == (2 + 5**8, 5, 0)


hands = st.lists(st.integers(0, 26), max_size=14).filter(lambda xs: all(xs.count(x) <= 4 for x in xs))


@given(hands)
def test_key_weights_sum_to_the_packed_suit_keys(indices: list[int]) -> None:
    """A hand's packed key (the evaluator's tile-list door) is the sum of its tiles' key_weight, a field a suit."""
    packed = sum(sm.Tile(i).key_weight for i in indices)
    mask = (1 << KEY_BITS) - 1
    fields = tuple(packed >> (KEY_BITS * s) & mask for s in range(3))
    assert fields == sm.suit_keys(sm.counts_of(indices))


@given(hands, st.sampled_from(["compact", "zh", "glyph"]))
def test_format_after_parse_is_identity(indices: list[int], style: str) -> None:
    text = sm.format_tiles(indices, style=style)  # type: ignore[arg-type]
    assert sm.format_tiles(sm.parse_tiles(text), style=style) == text  # type: ignore[arg-type]
    assert sorted(t.index for t in sm.parse_tiles(text)) == sorted(indices)
