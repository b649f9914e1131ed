"""`scmj replay`: a scripted hand printed move by move, one seat's view, a match's totals, bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import scripted
import sichuan_mahjong as sm
from sichuan_mahjong.cli import main
from sichuan_mahjong.match import Match
from sichuan_mahjong.tiles import format_tiles

# standard_kong: the hand ends at the first win and kongs pay. Dealer 0 discards 9s, seat 1 pungs it; seat 2
# gets ready on 9p; seat 3 kongs seat 0's 5s (seat 0 pays 2) and draws 6m from the far end; seat 0's 9p wins
# seat 2 a 平胡 (seat 0 pays 1).
HANDS = [
    "1m1m1m2m3m4m5p6p7p8p8p9p9s5s",
    "9s9s2m2m5m6m7m3p4p6p7s8s1s",
    "2p3p4p5p6p7p4s4s4s6s7s8s9m",
    "5s5s5s1p1p3m4m7m8m9m2p6p3s",
]
SCRIPT = [
    {0: "discard 9s"},
    {1: "pung"},
    {1: "discard 1s"},
    {2: "discard 9m"},
    {3: "discard 2s"},
    {0: "discard 5s"},
    {3: "kong"},
    {3: "discard 6m"},
    {0: "discard 9p"},
    {2: "hu"},
]


def scripted_game() -> sm.Game:
    game = sm.Game.setup(sm.Rules.preset("standard_kong"), HANDS, wall="9p2s7m8m", replacements="6m", dealer=0, seed=1)
    for answers in SCRIPT:
        game.step(answers)
    assert game.is_over
    return game


@pytest.fixture
def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "hand.jsonl"
    sm.save_hand(scripted_game(), path)
    return path


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def move(lines: list[str], n: int) -> list[str]:
    """The lines of move n: its numbered line and everything up to the next numbered line."""
    start = next(i for i, x in enumerate(lines) if x.startswith(f"{n:4d}. "))
    end = next((i for i in range(start + 1, len(lines)) if lines[i][:6].strip().endswith(".")), len(lines))
    return lines[start:end]


def test_full_record_move_by_move(hand_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = replay(capsys, str(hand_file))
    assert code == 0 and err == ""
    assert lines[0] == "Hand 1 · standard_kong · base 1 · dealer seat 0"
    assert move(lines, 0) == [
        "   0. deal: dealer seat 0, dice 2+5, 55 tiles in the wall",
        "          seat 0: 111234m567889p9s +5s",
        "          seat 1: 22567m346p17899s",
        "          seat 2: 9m234567p444678s",
        "          seat 3: 34789m1126p3555s",
    ]
    assert move(lines, 2) == [
        "   2. seat 1 pungs 9s from seat 0",
        "          seat 0: 111234m567889p5s",
        "          seat 1: 22567m346p178s  [pung 9s]",
        "          seat 2: 9m234567p444678s",
        "          seat 3: 34789m1126p3555s",
    ]
    assert move(lines, 4)[:2] == ["   4. seat 2 discards 9m", "      seat 3 draws 2s"]
    assert "          seat 2: 2345679p444678s" in move(lines, 4)
    assert move(lines, 7) == [
        "   7. seat 3 kongs 5s from seat 0 (exposed kong 直杠)",
        "        seat 0 pays seat 3 2 (exposed kong 直杠)",
        "      seat 3 draws 6m (kong replacement)",
        "          seat 0: 1112347m567889p",
        "          seat 1: 22567m346p78s  [pung 9s]",
        "          seat 2: 2345679p444678s",
        "          seat 3: 34789m1126p3s +6m  [kong 5s]",
    ]
    assert move(lines, 10)[:3] == [
        "  10. seat 2 wins on 9p from seat 0: Basic hand 0 = 0 fan ×1",
        "        seat 0 pays seat 2 1 (won on a discard 点炮)",
        "          seat 0: 11123478m56788p",
    ]
    assert "          seat 2: 23456799p444678s  (won)" in move(lines, 10)
    tail = lines[lines.index("Settlement (a win ends the hand):") :]
    assert tail == [
        "Settlement (a win ends the hand):",
        "  seat 2 wins on 9p (from seat 0): Basic hand 0 = 0 fan ×1",
        "  seat 0 -> seat 3 2 (exposed kong 直杠)",
        "  seat 0 -> seat 2 1 (won on a discard 点炮)",
        "  deltas: seat 0 -3, seat 1 +0, seat 2 +1, seat 3 +2",
        "  next dealer: seat 2",
    ]
    assert "  11. end: a win ends the hand; next dealer seat 2" in lines


def test_one_seat_view_and_chinese(hand_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = replay(capsys, str(hand_file), "--seat", "1")
    assert code == 0
    assert lines[0].endswith("· seat 1's view")
    assert not any(x.lstrip().startswith(("seat 0:", "seat 2:", "seat 3:")) for x in lines)  # only own tiles
    assert "      seat 2 draws a tile" in lines and "seat 2 draws 9p" not in "\n".join(lines)
    assert "          seat 1: 22567m346p178s  [pung 9s]" in lines
    seat_file = tmp_path / "seat1.jsonl"
    sm.save_hand(scripted_game(), seat_file, seat=1)
    code, seat_lines, _ = replay(capsys, str(seat_file))
    assert code == 0 and seat_lines == lines  # the one-seat record shows exactly the same
    assert "  10. seat 2 wins on 9p from seat 0: Basic hand = 0 fan ×1" in lines  # what a seat's log holds
    code, zh, _ = replay(capsys, str(hand_file), "--lang", "zh")
    assert zh[0] == "第1局 · 标准下雨 · 底金 1 · 庄家 0号"
    assert "   2. 1号 碰 0号的 九條" in zh
    assert "          1号: 二二五六七萬三四六筒一七八條  [碰九條]" in zh
    assert "  10. 2号 胡 九筒（0号点炮）：平胡 0番 = 0番 ×1" in zh
    assert "  输赢：0号 -3, 1号 +0, 2号 +1, 3号 +2" in zh
    code, _, err = replay(capsys, str(seat_file), "--seat", "2")
    assert code == 2 and "seat 1's view only" in err


def test_json_output(hand_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(hand_file), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["kind"] == "hand" and data["seat"] is None
    (hand,) = data["hands"]
    assert hand["hand"] == 1 and hand["dealer"] == 0
    assert hand["settlement"]["deltas"] == [-3, 0, 1, 2]
    assert hand["settlement"]["wins"][0]["breakdown"] == "Basic hand 0 = 0 fan ×1"
    kong = hand["moves"][7]
    assert [e["type"] for e in kong["events"]] == ["kong", "payment", "draw", "act"]  # + the answer to it
    assert kong["tiles"][3] == {"seat": 3, "hand": "34789m1126p3s", "drawn": "6m", "melds": ["kong 5s"], "won": False}
    events = [e for m in hand["moves"] for e in m["events"]]
    assert events == [e.to_dict() for e in scripted_game().events]


def test_match_file_totals_and_hand_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = Match(sm.Rules.preset("bloody_kong"), hands=3, seed=4)
    rng = random.Random(4)
    m.play([lambda view, legal: rng.choice(list(legal))] * 4)
    path = tmp_path / "match.jsonl"
    sm.save_match(m, path)
    code, lines, _ = replay(capsys, str(path))
    assert code == 0
    running = [0, 0, 0, 0]
    for i, result in enumerate(m.results, start=1):
        running = [a + b for a, b in zip(running, result.deltas, strict=True)]
        want = f"Totals after hand {i}: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(running))
        assert want in lines
        assert any(x.startswith(f"Hand {i}/3 · bloody_kong") for x in lines)
    passes = [x for x in lines if " passes (could: " in x]
    assert passes and all(x.endswith(")") for x in passes)  # a declined claim says what was declined
    code, seat_lines, _ = replay(capsys, str(path), "--seat", "3")
    assert all(x.strip().startswith("seat 3 passes") for x in seat_lines if " passes" in x)
    code, only, _ = replay(capsys, str(path), "--hand", "2")
    assert code == 0 and only[0].startswith("Hand 2/3") and not any(x.startswith("Hand 1/") for x in only)
    code, _, err = replay(capsys, str(path), "--hand", "4")
    assert code == 2 and "hands 1..3" in err


def test_bad_files_exit_2_with_file_and_line(
    hand_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = hand_file.read_text(encoding="utf-8").splitlines()
    lines = list(good)
    lines[2] = lines[2][:-5]
    hand_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = replay(capsys, str(hand_file))
    assert code == 2 and out == []
    assert err.startswith(f"scmj replay: error: {hand_file}:3: not valid JSON") and err.count("\n") == 1
    other = tmp_path / "other.jsonl"
    other.write_text('{"format": "chess.pgn", "version": 1}\n', encoding="utf-8")
    code, _, err = replay(capsys, str(other))
    assert code == 2 and f"{other}:1: unknown format 'chess.pgn'" in err
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(good[:10]) + "\n", encoding="utf-8")
    code, _, err = replay(capsys, str(cut))
    assert code == 2 and f"{cut}:10: truncated" in err
    code, _, err = replay(capsys, str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err and "Traceback" not in err


def robbed_kong_game(*, rob: bool = True) -> sm.Game:
    """Seat 1 pungs 4m (seat 2 passes a win on it), draws the fourth 4m and adds it: seat 2 robs it (抢杠)."""
    game, script = scripted.robbed_kong_deal()
    for answers in script:
        game.step(answers)
    assert game.phase == "rob"
    if rob:
        game.step({2: "hu"})
    return game


def test_robbed_kong_and_a_passed_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rob.jsonl"
    sm.save_hand(robbed_kong_game(), path)
    code, lines, _ = replay(capsys, str(path))
    assert code == 0
    assert move(lines, 1)[:2] == ["   1. seat 0 discards 4m", "      seat 2 passes (could: hu)"]
    assert move(lines, 7)[:5] == [
        "   7. seat 1 adds a kong of 4m (补杠)",
        "      seat 1's added kong of 4m is robbed by seat 2 (抢杠)",
        "      seat 2 wins on 4m robbing seat 1's kong: Basic hand 0 + Robbing a kong 1 = 1 fan ×2",
        "        seat 1 pays seat 2 2 (won by robbing a kong 抢杠)",
        "          seat 0: 15679p12356799s",
    ]
    assert "          seat 1: 119m789p3468s  [pung 4m]" in move(lines, 7)  # the tile is gone, the pung stays
    assert "  seat 2 wins on 4m (robbing seat 1's kong): Basic hand 0 + Robbing a kong 1 = 1 fan ×2" in lines
    path = tmp_path / "waiting.jsonl"  # a record that ends while the kong waits to be robbed: still a pung
    game = robbed_kong_game(rob=False)
    sm.save_hand(game, path)
    code, lines, _ = replay(capsys, str(path), "--json")
    waiting = json.loads(lines[0])["hands"][0]["moves"][-1]
    assert code == 0 and waiting["lines"] == ["seat 1 adds a kong of 4m (补杠)"]
    view = game.view(1)
    assert [str(m) for m in view.melds[1]] == waiting["tiles"][1]["melds"] == ["pung 4m"]
    assert (waiting["tiles"][1]["hand"], waiting["tiles"][1]["drawn"]) == (format_tiles(view.hand), "4m")
