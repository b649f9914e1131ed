"""R7 fan table, R10 extras and R9.5 查叫 values, as tables of tile strings."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sichuan_mahjong as sm
from sichuan_mahjong.scoring import NotWinningError, score_hand, value_of_ready_hand

P = sm.parse_tiles


def ids(score: sm.Score) -> list[str]:
    return [p.id for p in score.patterns]


# Every example hand of the source's fan table (§ 番数), with what the table says it is worth.
SOURCE_TABLE = [
    ("二三四四五六七七萬三四五七八九筒", 0, ["pinghu"]),  # 1 基本胡
    ("一二三三三三萬四五五六六七九九條", 1, ["pinghu", "gen"]),  # 2 带根
    ("一一一三三三四四四萬六六六七七筒", 1, ["duiduihu"]),  # 3 对子胡
    ("一一二二三三四五六七八九九九萬", 2, ["qingyise"]),  # 4 清一色
    ("二二二四四四五五五七七七九九萬", 3, ["qingdui"]),  # 5 清对
    ("二二二五五五八八八萬五五五八八筒", 3, ["jiangdui"]),  # 6 将对
    ("一一三三四四六六萬五五七七九九筒", 2, ["qidui"]),  # 7 七对
    ("一一三三四四六六七七八八九九萬", 4, ["qingqidui"]),  # 8 清七对
    ("一一二二二二四四萬五五七七八八筒", 4, ["longqidui"]),  # 9 龙七对: its quad is no extra root
    ("一一二二四四四四五五七七九九萬", 5, ["qinglongqidui"]),  # 10 清龙七对
    ("一一一二二二三三三萬七八九九九筒", 2, ["yaojiu"]),  # 11 幺九: needs 123m three times, not pungs
    ("一一一二三七七七八八八九九九萬", 4, ["qingyaojiu"]),  # 12 清幺九
]


@pytest.mark.parametrize(("hand", "fan", "patterns"), SOURCE_TABLE)
def test_r7_source_fan_table(hand: str, fan: int, patterns: list[str]) -> None:
    tiles = P(hand)
    score = score_hand(tiles, tiles[-1])
    assert (score.fan, ids(score)) == (fan, patterns)
    assert score.multiplier == 2**fan


CASES = [
    # (hand, melds, flags, options, fan, patterns)
    # R7 shapes and the best reading
    ("111222333m78999p", (), {}, {}, 2, ["yaojiu"]),  # runs beat pungs for 幺九 (9p pung + 78 9)
    ("111222333m44455p", (), {}, {}, 1, ["duiduihu"]),  # pungs beat runs here
    ("11122233344455m", (), {}, {}, 3, ["qingdui"]),  # 清对 > 清一色
    ("22255588m", ("pung 5p", "kong 8p"), {}, {}, 4, ["jiangdui", "gen"]),  # melds count for 将对, kong is a root
    ("22m", ("pung 5p", "pung 2p", "pung 8m", "pung 5m"), {}, {}, 3, ["jiangdui"]),
    ("123m123m11p", ("pung 9p", "pung 9m"), {}, {}, 2, ["yaojiu"]),
    ("1122334455667m7m", (), {}, {}, 4, ["qingqidui"]),  # seven pairs beats 清一色 runs reading
    ("11112222m334455p", (), {}, {}, 5, ["longqidui", "gen"]),  # second quad is a root
    # R7 roots: a pung plus the 4th in hand counts; four in hand counts
    ("234m567m11p", ("pung 2m", "pung 9p"), {}, {}, 1, ["pinghu", "gen"]),
    ("11p", ("kong 2m", "concealed_kong 3m", "added_kong 4m", "pung 9p"), {}, {}, 4, ["duiduihu", "gen"]),
    # R7 bonuses
    ("123m456m789m123p55p", (), {"self_draw": True}, {}, 0, ["pinghu"]),
    ("123m456m789m123p55p", (), {"kong_flower": True}, {}, 1, ["pinghu", "gangshanghua"]),
    ("123m456m789m123p55p", (), {"kong_flower": True}, {"kong_flower_fan": 2}, 2, ["pinghu", "gangshanghua"]),
    ("123m456m789m123p55p", (), {"kong_shot": True}, {}, 1, ["pinghu", "gangshangpao"]),
    # R7 每杠+1番: a chain of kongs before the win counts each kong (True is one)
    ("123m456m789m123p55p", (), {"kong_flower": 2}, {}, 2, ["pinghu", "gangshanghua"]),
    ("123m456m789m123p55p", (), {"kong_flower": 3}, {"kong_flower_fan": 2}, 6, ["pinghu", "gangshanghua"]),
    ("123m456m789m123p55p", (), {"kong_shot": 2}, {}, 2, ["pinghu", "gangshangpao"]),
    ("123m456m789m123p55p", (), {"kong_flower": 0}, {}, 0, ["pinghu"]),
    # R7 抢杠: no fan in the source's presets (robbing_kong_fan 0), 1 in app
    ("123m456m789m123p55p", (), {"robbed_kong": True}, {}, 0, ["pinghu"]),
    ("123m456m789m123p55p", (), {"robbed_kong": True}, {"robbing_kong_fan": 1}, 1, ["pinghu", "qiangganghu"]),
    ("123m456m789m123p55p", (), {"declared_ready": True}, {}, 2, ["pinghu", "baojiao"]),
    ("12345678999m123p", (), {"heaven": True}, {}, 5, ["pinghu", "tianhu"]),
    ("11223344556699m", (), {"earth": True}, {}, 9, ["qingqidui", "dihu"]),
    ("123m456m789m123p55p", (), {"self_draw": True}, {"self_draw_bonus": "fan"}, 1, ["pinghu", "zimo"]),
    # R7 cap (封顶)
    ("11112222m334455p", (), {}, {"max_fan": 4}, 4, ["longqidui", "gen"]),
    ("11223344556699m", (), {"earth": True}, {"max_fan": 3}, 3, ["qingqidui", "dihu"]),
    # R10 extras, each only when listed
    (
        "55p",
        ("pung 1m", "pung 2m", "kong 3m", "pung 9p"),
        {},
        {"extra_fans": "jingoudiao"},
        3,
        ["duiduihu", "gen", "jingoudiao"],
    ),
    (
        "123m456m789m123p55p",
        (),
        {"self_draw": True, "last_tile": True},
        {"extra_fans": "haidilaoyue"},
        1,
        ["pinghu", "haidilaoyue"],
    ),
    ("123m456m789m123p55p", (), {"last_tile": True}, {"extra_fans": "haidipao,haidilaoyue"}, 1, ["pinghu", "haidipao"]),
    ("123m456m789m123p55p", (), {}, {"extra_fans": "menqing"}, 1, ["pinghu", "menqing"]),
    ("456m789m55p", ("pung 2m", "pung 3p"), {}, {"extra_fans": "menqing"}, 0, ["pinghu"]),
    ("234m456m678m234p55p", (), {}, {"extra_fans": "zhongzhang"}, 1, ["pinghu", "zhongzhang"]),
    (
        "55p",
        ("kong 1m", "kong 2m", "concealed_kong 3m", "added_kong 9p"),
        {},
        {"extra_fans": "shibaluohan"},
        7,
        ["duiduihu", "gen", "shibaluohan"],
    ),
]


@pytest.mark.parametrize(("hand", "melds", "flags", "options", "fan", "patterns"), CASES)
def test_r7_r10_cases(
    hand: str, melds: tuple[str, ...], flags: dict[str, bool], options: dict[str, object], fan: int, patterns: list[str]
) -> None:
    rules = sm.Rules().with_options({k: str(v) for k, v in options.items()})
    tiles = P(hand)
    score = score_hand(tiles, tiles[-1], [sm.Meld.parse(m) for m in melds], rules=rules, **flags)
    assert (score.fan, ids(score)) == (fan, patterns)


def test_r7_heaven_with_one_suit_is_seven_before_cap() -> None:
    tiles = P("11223345556789m")
    score = score_hand(tiles, tiles[-1], heaven=True)
    assert (score.fan, ids(score)) == (7, ["qingyise", "tianhu"])
    capped = score_hand(tiles, tiles[-1], heaven=True, rules=sm.Rules(max_fan=4))
    assert (capped.fan, capped.raw_fan, capped.multiplier, capped.capped) == (4, 7, 16, True)


@pytest.mark.parametrize(
    ("hand", "melds", "message"),
    [
        ("123m456p789s11s234s", (), "three suits"),  # R3.1
        ("123m456m789m12p55p5p", (), "not a complete hand"),
        ("123m456m789m12p55p", (), "14 concealed tiles, got 13"),
        ("123m456m11p", ("pung 5s", "pung 5m"), "three suits"),
    ],
)
def test_r3_1_not_winning_says_why(hand: str, melds: tuple[str, ...], message: str) -> None:
    tiles = P(hand)
    with pytest.raises(NotWinningError, match=message):
        score_hand(tiles, tiles[-1], [sm.Meld.parse(m) for m in melds])


def test_bad_calls_are_value_errors() -> None:
    tiles = P("123m456m789m123p55p")
    with pytest.raises(ValueError, match="winning tile 9s is not among"):
        score_hand(tiles, "9s")
    with pytest.raises(ValueError, match="cannot also be"):
        score_hand(tiles, "5p", self_draw=True, kong_shot=True)
    with pytest.raises(ValueError, match="cannot also be"):
        score_hand(tiles, "5p", kong_flower=2, kong_shot=1)
    for bad in (-1, 5, 1.5, "2"):
        with pytest.raises(ValueError, match=r"kong_flower counts the kongs in a row before the win: True or 0\.\.4"):
            score_hand(tiles, "5p", kong_flower=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="kong_shot counts the kongs"):
            score_hand(tiles, "5p", kong_shot=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="5 copies of 5p"):
        score_hand(P("123m456m789m55p"), "5p", [sm.Meld.parse("pung 5p")])


def test_score_prints_in_chinese_and_english_and_json() -> None:
    tiles = P("11223344556677m")
    score = score_hand(tiles, tiles[-1], self_draw=True)
    assert str(score).splitlines() == ["清七对 4番 = 4番 ×16", "One-suit seven pairs 4 = 4 fan ×16"]
    assert score.to_dict() == {
        "fan": 4,
        "multiplier": 16,
        "patterns": [{"id": "qingqidui", "zh": "清七对", "en": "One-suit seven pairs", "fan": 4}],
    }


# R9.5 查叫: lowest wait (查小叫) or highest (查大叫), shape + roots + 报叫, as a discard win.
THREE_PUNGS = ("pung 5p", "pung 7p", "pung 9p")


@pytest.mark.parametrize(
    ("hand", "melds", "highest", "declared", "fan"),
    [
        ("1112m", THREE_PUNGS, False, False, 0),  # 3m makes 11 + 123m: 平胡
        ("1112m", THREE_PUNGS, True, False, 1),  # 2m makes 111 + 22m: 对子胡 (查大叫)
        ("1112m", THREE_PUNGS, False, True, 2),  # 报叫 counts
        ("1111m", THREE_PUNGS, False, False, None),  # the only wait is a tile it holds all four of
        ("123m456p789p11p22s", (), False, False, None),  # three suits is never ready
    ],
)
def test_r9_5_value_of_ready_hand(
    hand: str, melds: tuple[str, ...], highest: bool, declared: bool, fan: int | None
) -> None:
    score = value_of_ready_hand(P(hand), [sm.Meld.parse(m) for m in melds], highest=highest, declared_ready=declared)
    assert (None if score is None else score.fan) == fan


def test_r9_5_value_is_capped_and_ignores_extras() -> None:
    rules = sm.Rules(max_fan=2, extra_fans=frozenset({"menqing"}), self_draw_bonus="fan")
    score = value_of_ready_hand(P("1122334455667m"), rules=rules, highest=True)  # 清七对 on 7m
    assert score is not None and (score.fan, score.raw_fan) == (2, 4)
    with pytest.raises(ValueError, match="13 concealed tiles"):
        value_of_ready_hand(P("11223344556677m"))


def _winning_hand(rng: random.Random) -> list[int]:
    """A random complete hand in at most two suits: four sets and a pair, or seven pairs."""
    suits = rng.sample(range(3), 2)
    counts = [0] * 27
    while True:
        counts = [0] * 27
        if rng.random() < 0.2:
            for _ in range(7):
                counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        else:
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
            for _ in range(4):
                base = rng.choice(suits) * 9
                if rng.random() < 0.5:
                    counts[base + rng.randrange(9)] += 3
                else:
                    r = rng.randrange(7)
                    for k in range(3):
                        counts[base + r + k] += 1
        if max(counts) <= 4:
            return [i for i, n in enumerate(counts) for _ in range(n)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_r9_5_the_waits_scored_are_exactly_the_winning_tiles(seed: int) -> None:
    """value_of_ready_hand scores the evaluator's waits: every one must score, and no other tile may win."""
    rng = random.Random(seed)
    hand = _winning_hand(rng)
    hand.pop(rng.randrange(len(hand)))
    counts = sm.counts_of(hand)
    winners = set()
    for t in range(27):
        if counts[t] < 4:
            with contextlib.suppress(NotWinningError):
                score_hand([*hand, t], t)
                winners.add(t)
    assert {w.index for w in sm.waits(hand)} == winners
    assert (value_of_ready_hand(hand) is None) == (not winners)
