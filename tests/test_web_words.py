"""The web table's words (style ``words``): tiles as players say them (九条 / 9 Bam, never ``9s``) and seats by
where they sit (上家 / Left, never ``上家(3)``), in the hint and in a refusal, in both languages."""

from __future__ import annotations

import re

import pytest

import sichuan_mahjong as sm
from scripted import act, deal
from sichuan_mahjong.game import Action, Game
from sichuan_mahjong.hints import advise_view
from sichuan_mahjong.refusals import refusal
from sichuan_mahjong.text import seat_place
from sichuan_mahjong.tiles import tile_words

A = Action.parse
#: A tile in the engine's notation (5p, 9s) or a seat with its number (上家(3), Left (3)).
CODE = re.compile(r"\b[1-9][mps]\b|[1-9][mps](?![a-z])|\(\d\)")
S2, S3 = "1111s2222s3333s9s", "4444s5555s6666s7s"


def test_tile_words_in_both_languages() -> None:
    assert tile_words(sm.Tile.from_str("9s"), "zh") == "九条"
    assert tile_words(sm.Tile.from_str("5p"), "zh") == "五筒"
    assert tile_words(sm.Tile.from_str("1m"), "zh") == "一万"
    assert tile_words(sm.Tile.from_str("9s"), "en") == "9 Bam"
    assert tile_words(sm.Tile.from_str("5p"), "en") == "5 Dot"
    assert tile_words(sm.Tile.from_str("1m"), "en") == "1 Crak"


def test_seat_places_have_no_numbers() -> None:
    assert [seat_place(s, "zh", 0) for s in range(4)] == ["你", "下家", "对家", "上家"]
    assert [seat_place(s, "en", 2) for s in range(4)] == ["Across", "Left", "You", "Right"]


def test_a_refusal_names_the_seat_by_its_place() -> None:
    game = Game(seed=1)  # seat 3 deals
    view = game.view(0)
    assert refusal(A("discard 5p"), view, "zh", "words") == "还没轮到你：上家正在出牌"
    assert refusal(A("discard 5p"), view, "en", "words") == "It is not your turn: Left is to play"


def test_a_refusal_names_tiles_in_words_and_no_keys() -> None:
    hands = [
        "1m1m5p5p7p8p9p1s2s3s4s5s6s",
        "2m5m8m5p1s4s7s9s1p3p6m9p2s",
        "2p3p4p6p7p8p9p9p3s3s7s7s7s",
        "5p1m1m2m3m4m5m6m7m8m9m9m9m4p",
    ]
    game = Game.setup(sm.Rules(declare_ready=False), hands, dealer=3, seed=1)
    game.step({3: A("discard 5p")})
    zh = refusal(A("discard 1m"), game.view(0), "zh", "words")
    en = refusal(A("discard 1m"), game.view(0), "en", "words")
    assert zh == "现在不是出牌的时候：上家打出 五筒，请选 碰、过"
    assert en == "Not time to discard: Left discarded 5 Dot; answer pung / pass"
    assert refusal(A("kong"), game.view(0), "en", "words") == "You hold 2 × 5 Dot: a kong needs 3"
    # the terminal table keeps its own words (seat numbers and keys)
    terminal = refusal(A("discard 1m"), game.view(0), "zh", "compact")
    assert terminal == "现在不是出牌的时候：上家(3)打出 5p，请选 p 碰、x 过"


@pytest.mark.parametrize(
    ("dealer", "seat1", "play"),
    [
        ("123m456m789m123p5p9s", "112233m456m78p99p", None),  # a discard: ready
        ("1m1234689p778899s", "11p23m45m678m99m5p7p", None),  # a discard: not ready yet
        ("1m1234689p778899s", "11p23m45m678m99m5p7p", "discard 1p"),  # a claim: pung or pass
    ],
)
def test_the_hint_says_tiles_in_words(dealer: str, seat1: str, play: str | None) -> None:
    g = deal([dealer, seat1, S2, S3])
    seat = 0
    if play is not None:
        act(g, {0: play})
        seat = 1
    advice = advise_view(g.view(seat), style="words")
    zh, en = advice.reason_zh, advice.reason_en
    assert CODE.search(zh) is None, zh
    assert CODE.search(en) is None, en
    assert re.search("[一二三四五六七八九][万筒条]", zh), zh
    assert re.search(r"\d (Crak|Dot|Bam)", en), en
    # the same advice in the terminal's compact notation still names tiles its way
    assert CODE.search(advise_view(g.view(seat)).reason_en)
