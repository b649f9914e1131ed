"""What a person types: full-width digits, contradictory flags, and errors that quote a short excerpt."""

from __future__ import annotations

import pytest

from sichuan_mahjong.cli import main
from sichuan_mahjong.tiles import Tile, TileParseError, TooManyCopiesError, parse_tiles


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("１２３ｍ４５６ｐ", "123m456p"),  # what a Chinese input method types
        ("１２３Ｍ　４５６Ｐ", "123m456p"),
        ("一二三萬，７８９ｓ", "123m789s"),
    ],
)
def test_full_width_digits_and_letters_are_read(typed: str, plain: str) -> None:
    assert parse_tiles(typed) == parse_tiles(plain)


def test_full_width_tile_and_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert Tile.from_str("５ｐ") == Tile.from_str("5p")
    assert main(["score", "１２３ｍ４５６ｍ７８９ｍ１２３ｐ５５ｐ", "--lang", "en"]) == 0
    assert "fan" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "error", "where"),
    [
        ("1m" * 5000, TooManyCopiesError, "5000 copies of 1m"),
        ("1m" * 5000 + "x", TileParseError, "position 10000"),
        ("x" + "1m" * 5000, TileParseError, "position 0"),
    ],
)
def test_errors_quote_a_short_excerpt(text: str, error: type[Exception], where: str) -> None:
    with pytest.raises(error) as caught:
        parse_tiles(text)
    message = str(caught.value)
    assert where in message and len(message) < 160 and f"({len(text)} characters)" in message, message


def test_cli_error_of_a_huge_hand_is_one_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["score", "1m" * 5000], ["advise", "1m" * 5000], ["advise", "123m", "--seen", "9z" * 3000]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) < 200, err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--heaven", "--earth", "--self-draw"], "--heaven and --earth"),
        (["--last-tile", "--heaven", "--self-draw"], "--last-tile and --heaven"),
        (["--last-tile", "--earth", "--self-draw"], "--last-tile and --earth"),
        (["--heaven"], "--heaven needs --self-draw"),
        (["--earth"], "--earth needs --self-draw"),
        (["--kong-flower"], "--kong-flower needs --self-draw"),
        (["--kong-shot", "--self-draw"], "--kong-shot and --self-draw"),
        (["--robbed-kong", "--self-draw"], "--robbed-kong and --self-draw"),
        (["--kong-flower", "--kong-shot", "--self-draw"], "--kong-flower and --kong-shot"),
        (["--robbed-kong", "--kong-shot"], "--robbed-kong and --kong-shot"),
    ],
)
def test_contradictory_score_flags_are_refused(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "123m456m789m123p55p", *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj score: error: ") and message in err and err.count("\n") == 1, err
