"""`scmj score`: output, JSON shape, and one clear line with status 2 for every bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sichuan_mahjong.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123m456m789m123p55p", "--self-draw", "--json")
    assert code == 0
    assert json.loads(out) == {
        "fan": 0,
        "multiplier": 1,
        "patterns": [{"id": "pinghu", "zh": "平胡", "en": "Basic hand", "fan": 0}],
    }


def test_melds_flags_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "11122m", "--meld", "pung 5m", "--meld", "kong 8m", "--meld", "concealed_kong 9m",
        "--win", "2m", "--kong-flower", "--self-draw", "--rules", "app", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0
    # 清对 3 + two roots + 杠上花 1 = 6, capped at the app preset's 4
    assert (data["fan"], data["multiplier"]) == (4, 16)
    assert [p["id"] for p in data["patterns"]] == ["qingdui", "gen", "gangshanghua"]


def test_chinese_input_and_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "一一二二二二四四萬五五七七八八筒", "--option", "max_fan=3")
    assert code == 0
    assert out.splitlines() == [
        "龙七对 4番 = 3番（封顶，原4番） ×8",
        "Seven pairs with a four of a kind 4 = 3 fan (capped from 4) ×8",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["123m456p789s11s234s"], "three suits"),
        (["123m456m789m12p55p"], "14 concealed tiles, got 13"),
        (["123m456m789m12p55p5p"], "not a complete hand"),
        (["12x"], "'x' at position 2"),
        (["123m456m789m123p55p", "--win", "9s"], "winning tile 9s"),
        (["123m456m789m123p55p", "--option", "foo=1"], "unknown option 'foo'"),
        (["123m456m789m123p55p", "--option", "max_fan"], "expected KEY=VALUE"),
        (["123m456m789m123p55p", "--rules", "riichi"], "unknown preset 'riichi'"),
        (["1m", "--meld", "chow 123m"], "unknown meld kind 'chow'"),
        (["11111m"], "5 copies of 1m"),
        ([""], "empty"),
    ],
)
def test_bad_input_is_one_line_status_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert err.startswith("scmj score: error: ")


def test_console_script_never_tracebacks() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sichuan_mahjong.cli", "score", "123m456p789s11s234s"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "缺一门" in proc.stderr


@pytest.mark.parametrize(("flag", "pattern"), [("--kong-flower", "gangshanghua"), ("--kong-shot", "gangshangpao")])
def test_r7_kong_flags_take_the_number_of_kongs_in_a_row(
    capsys: pytest.CaptureFixture[str], flag: str, pattern: str
) -> None:
    how = ["--self-draw"] if flag == "--kong-flower" else []  # 杠上花 is a self-draw, 杠上炮 a win on a discard
    for argv, fan in (([flag], 1), ([flag, "2"], 2), ([flag, "4"], 4)):
        code, out, _ = run(capsys, "123m456m789m123p55p", *argv, *how, "--json")
        last = json.loads(out)["patterns"][-1]
        assert code == 0 and (last["id"], last["fan"]) == (pattern, fan)
    for bad in ("0", "5", "x"):
        with pytest.raises(SystemExit) as exit_info:  # an argparse usage error
            run(capsys, "123m456m789m123p55p", flag, bad)
        _, err = capsys.readouterr()
        assert exit_info.value.code == 2 and "N counts the kongs in a row, 1 to 4" in err
