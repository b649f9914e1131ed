"""`scmj play` (interim): the scoring prompt keeps going after bad input and quits on an empty line."""

from __future__ import annotations

import io

import pytest

from sichuan_mahjong.cli import main


def test_prompt_scores_and_survives_bad_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "12x\n--bogus-flag\n一一二二二二四四萬五五七七八八筒\n\nnot read\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["play"]) == 0
    out, err = capsys.readouterr()
    assert "'x' at position 2" in err
    assert "龙七对 4番 = 4番 ×16" in out
    assert out.count("hand> ") == 4  # the empty fourth line quits; the fifth is never read
