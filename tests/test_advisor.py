"""The discard advisor: the source's first narrated hand (R13), rows, values, reasons, errors, and `scmj advise`."""

from __future__ import annotations

import json

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.advisor import AdviceError, advise
from sichuan_mahjong.cli import main

# R13, first narrated hand: after the pung of 2s the dealer holds 2s3s4s 2p2p3p4p6p8p8p8p (11 tiles).
NARRATED = "234s22346888p"
PUNG_2S = [sm.Meld.parse("pung 2s")]


def _row(advice: object, tile: str) -> sm.advisor.DiscardAdvice:
    assert isinstance(advice, sm.advisor.Advice)
    return next(r for r in advice.rows if str(r.discard) == tile)


def test_narrated_hand_waits_of_each_discard() -> None:
    a = advise(NARRATED, PUNG_2S)
    assert [str(w.tile) for w in _row(a, "2p").waits] == ["6p", "7p"]
    assert [str(w.tile) for w in _row(a, "6p").waits] == ["2p", "5p"]
    assert _row(a, "2p").shanten == _row(a, "6p").shanten == 0


def test_narrated_hand_choice_follows_the_river() -> None:
    # Nothing seen: 6p/7p has 3 + 4 live tiles against 2 + 4 for 2p/5p, so 2p goes.
    assert str(advise(NARRATED, PUNG_2S).recommended.discard) == "2p"
    # "牌池中已打出的牌尚无二筒，六筒卻有兩個": with two 6p in the river the source discards 6p.
    a = advise(NARRATED, PUNG_2S, seen="6p6p")
    assert str(a.recommended.discard) == "6p"
    assert {str(w.tile): w.remaining for w in a.recommended.waits} == {"2p": 2, "5p": 4}
    assert {str(w.tile): w.remaining for w in _row(a, "2p").waits} == {"6p": 1, "7p": 4}
    assert "2p/5p" in a.reason_en and "6p/7p" in a.reason_en
    assert a.reason_zh.startswith("打6p：听2p/5p，剩6张")


def test_wait_fan_counts_the_root_of_the_pung_and_fourth() -> None:
    # The fourth 2s is concealed beside the pung of 2s: a root (根), so every wait is worth 1 fan.
    a = advise(NARRATED, PUNG_2S)
    assert all(w.fan == 1 and "gen" in w.patterns for w in _row(a, "6p").waits)


def test_value_weighs_fan_against_live_tiles() -> None:
    # Discarding 4m waits on 7p/8p (4 live, 平胡 0 fan); discarding 2m waits on 3m for 七对 (3 live, 2 fan).
    # 3 x 2**2 = 12 beats 4 x 1: the pricier wait is preferred although it has fewer live tiles.
    a = advise("2344m3344557788p")
    four = _row(a, "4m")
    assert (four.total, four.value) == (4, 4)
    assert a.recommended.discard in (sm.Tile.from_str("2m"), sm.Tile.from_str("3m"))
    assert (a.recommended.total, a.recommended.best_fan, a.recommended.value) == (3, 2, 12)
    ready = [r.value for r in a.rows if r.shanten == 0]
    assert ready == sorted(ready, reverse=True)


def test_discarded_copy_is_not_live() -> None:
    # 1112m + 456p...: discarding a tile that is also a wait leaves one copy fewer to draw.
    a = advise("11123m456p789p55p5p")
    for row in a.rows:
        for tile, n in row.useful:
            if tile == row.discard:
                own = sum(1 for t in sm.parse_tiles("11123m456p789p55p5p") if t == tile)
                assert n == 4 - own


def test_third_suit_goes_first_on_a_tie() -> None:
    a = advise("22234s22346889p5m")
    assert str(a.recommended.discard) == "5m"


def test_kong_risk_only_in_kong_modes() -> None:
    a = advise(NARRATED, PUNG_2S, rules=sm.Rules.preset("bloody"))
    assert not any(r.kong_risk for r in a.rows)
    b = advise(NARRATED, PUNG_2S)
    assert _row(b, "3p").kong_risk and not _row(b, "2p").kong_risk


def test_complete_hand_says_hu() -> None:
    a = advise("11223344556677m")
    assert a.win is not None and a.win.fan == 4
    assert a.to_dict()["recommendation"]["action"] == "hu"  # type: ignore[index]
    assert "hu" in a.reason_en and "胡" in a.reason_zh


def test_void_is_respected() -> None:
    # Without 定缺 the lone 1p goes and the hand waits on 2s/5s; with s declared void only s tiles may go.
    hand = "123m456m789m1p3499s"
    assert str(advise(hand).recommended.discard) == "1p"
    a = advise(hand, void="s")
    assert {r.discard.suit for r in a.rows} == {"s"}


@pytest.mark.parametrize(
    ("tiles", "melds", "seen", "message"),
    [
        ("123m456m789m12p", [], "", "14 concealed tiles"),
        ("234s22346888p", [], "", "14 concealed tiles with 0 meld"),
        ("234s22346888p", PUNG_2S, "2s", "5 copies of 2s"),
        ("1111m23m456p789p55p", [], "1m", "5 copies of 1m"),
    ],
)
def test_bad_input_raises_value_error(tiles: str, melds: list[sm.Meld], seen: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        advise(tiles, melds, seen)


def test_bad_void() -> None:
    with pytest.raises(AdviceError, match="void"):
        advise("123m456m789m1p3499s", void="x")


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["advise", NARRATED, "--meld", "pung 2s", "--seen", "6p6p", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["recommendation"]["discard"] == "6p"
    rows = {r["discard"]: r for r in data["discards"]}
    assert [w["tile"] for w in rows["2p"]["waits"]] == ["6p", "7p"]
    assert [w["tile"] for w in rows["6p"]["waits"]] == ["2p", "5p"]
    assert rows["6p"]["total"] == 6 and rows["2p"]["total"] == 5
    assert set(data["recommendation"]) == {"action", "discard", "zh", "en"}


def test_cli_text_and_chinese_input(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["advise", "二三四條二二三四六八八八筒", "--meld", "碰 二條", "--seen", "六筒六筒", "--lang", "zh"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "推荐：打6p" in out and "Recommendation" not in out


def test_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "123m"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "scmj advise: error:" in err
    assert main(["advise", NARRATED, "--meld", "pung 2s", "--seen", "2x"]) == 2
    _, err = capsys.readouterr()
    assert "'x'" in err
