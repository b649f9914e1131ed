"""The table's logic without Textual: a match against bots through the same door, records, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from sichuan_mahjong.game import Action, ActionKind, IllegalActionError
from sichuan_mahjong.record import load_hand
from sichuan_mahjong.text import describe_event, payment_reason, seat_name, tile_text, tiles_line, tr
from sichuan_mahjong.tiles import Tile
from sichuan_mahjong.tui.session import HUMAN, NotAskedError, Table
from sichuan_mahjong.tui.settings import PlaySettings, SettingsError, default_records_dir


def simple_answer(table: Table) -> Action:
    """Win when possible, pass a claim, else discard the drawn tile (or the first legal discard)."""
    legal = table.legal
    kinds = {a.kind for a in legal}
    if ActionKind.HU in kinds:
        return Action.parse("hu")
    if ActionKind.PASS in kinds:
        return Action.parse("pass")
    view = table.view()
    if view.drawn is not None and Action.discard(view.drawn) in legal:
        return Action.discard(view.drawn)
    return legal[0]


def finish_hand(table: Table, meddle: bool = False) -> None:
    for _ in range(2000):
        if table.game.is_over:
            return
        if table.step_bots():
            continue
        if meddle:
            before = len(table.game.events)
            with pytest.raises(IllegalActionError):
                table.answer("kong" if Action.parse("kong") not in table.legal else "declare_ready")
            assert len(table.game.events) == before
        table.answer(simple_answer(table))
    raise AssertionError("the hand did not end")


def test_a_match_is_played_saved_and_passed_on(tmp_path: Path) -> None:
    table = Table(PlaySettings(seed=3, hands=2, delay=0, records=tmp_path, bots=("random", "efficient", "expert")))
    finish_hand(table)
    first = table.finish()
    assert table.finish() is first  # saved once
    assert first.record is not None and first.record.exists()
    assert [e.to_dict() for e in load_hand(first.record).events] == [e.to_dict() for e in table.game.events]
    assert sum(first.totals) == 0 and first.totals == tuple(first.settlement.deltas)
    assert len(list(tmp_path.glob("*-match.jsonl"))) == 1
    table.next_hand()
    assert table.number == 2 and table.game.dealer == first.settlement.next_dealer
    assert table.totals_before == first.totals
    finish_hand(table)
    second = table.finish()
    assert table.match_over
    assert second.totals == tuple(a + b for a, b in zip(first.totals, second.settlement.deltas, strict=True))
    with pytest.raises(RuntimeError):
        table.next_hand()


def test_refused_answers_change_nothing_and_the_game_stays_the_seeds() -> None:
    plain = Table(PlaySettings(seed=7, hands=1, delay=0, records=None))
    finish_hand(plain)
    meddled = Table(PlaySettings(seed=7, hands=1, delay=0, records=None))
    finish_hand(meddled, meddle=True)
    assert [e.to_dict() for e in plain.game.events] == [e.to_dict() for e in meddled.game.events]


def test_answer_when_not_asked() -> None:
    table = Table(PlaySettings(seed=2, delay=0, records=None))  # seat 3 deals: the bots move first
    assert table.bots_to_move
    with pytest.raises(NotAskedError):
        table.answer("pass")


def test_the_log_sees_only_what_seat_0_may() -> None:
    table = Table(PlaySettings(seed=5, hands=1, delay=0, records=None))
    seen = []
    while not table.game.is_over:
        if not table.step_bots():
            table.answer(simple_answer(table))
        seen += table.new_events()
    assert seen and table.new_events() == []
    for e in seen:
        if e.type == "draw" and e.seat != HUMAN:
            assert e.data["tile"] is None
        assert e.type != "act" or e.seat == HUMAN
        assert "hands" not in e.data and "wall" not in e.data


def test_bad_settings_are_refused() -> None:
    with pytest.raises(SettingsError, match="unknown bot 'nobody'"):
        PlaySettings(bots=("expert", "nobody", "expert"))
    with pytest.raises(SettingsError, match="three bots"):
        PlaySettings(bots=("expert",))
    with pytest.raises(SettingsError, match="language"):
        PlaySettings(lang="fr")
    with pytest.raises(SettingsError, match="tile style"):
        PlaySettings(tiles="big")
    with pytest.raises(SettingsError, match="timer"):
        PlaySettings(timer=0)
    with pytest.raises(ValueError, match="bogus"):
        PlaySettings(options={"bogus": "1"})
    assert not PlaySettings().needs_new_match(PlaySettings(lang="en", tiles="glyph", timer=5))
    assert PlaySettings().needs_new_match(PlaySettings(seed=9))


def test_default_records_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_records_dir() == tmp_path / "sichuan_mahjong" / "records"


@pytest.mark.parametrize("style", ["compact", "zh", "glyph"])
def test_every_tile_of_a_style_has_one_width(style: str) -> None:
    from rich.cells import cell_len

    widths = {cell_len(tile_text(Tile(i), style)) for i in range(27)}
    assert len(widths) == 1


def test_words_in_both_languages() -> None:
    assert tiles_line([Tile.from_str("5p"), Tile.from_str("1m")], "zh") == "五筒 一萬"
    assert payment_reason("R6.1 exposed kong 直杠", "zh") == "直杠"  # no rule IDs for players
    assert payment_reason("R6.1 exposed kong 直杠", "en") == "exposed kong"
    assert payment_reason("R9.5 查叫", "en") == "ready check: not ready pays the ready"  # no Chinese in English
    assert payment_reason("R10 flower_pig 查花猪", "en", rule=True) == "R10 flower pig: holding all three suits"
    assert payment_reason("R99 new_thing 新东西", "en") == "new thing" and payment_reason("R99 x 新", "zh") == "新"
    assert tr("hand_of", "zh", 1, 8) == "第 1/8 局"
    from sichuan_mahjong.game import Event

    win = Event("win", 0, {"tile": "5p", "from_seat": 2, "fan": 3})
    assert describe_event(win, "en", "compact") == "You win on 5p from Across (2), 3 fan"
    assert describe_event(win, "zh", "zh") == "你 胡 五筒（对家(2)点炮），3番"
    assert describe_event(Event("draw", 1, {"tile": None}), "en", "compact") is None
    assert describe_event(Event("draw", 0, {"tile": "5p"}), "en", "compact") is None  # the table's log: no draws
    assert describe_event(Event("draw", 0, {"tile": "5p"}), "zh", "zh", draws=True) == "你 摸 五筒"


@pytest.mark.parametrize(
    ("seat", "zh", "en"),
    [(0, "你", "You"), (1, "下家(1)", "Right (1)"), (2, "对家(2)", "Across (2)"), (3, "上家(3)", "Left (3)")],
)
def test_seats_are_named_from_the_player(seat: int, zh: str, en: str) -> None:
    """Play goes 0 → 1 → 2 → 3: the next seat (下家) sits on the player's right, the one before (上家) on his left."""
    assert seat_name(seat, "zh") == zh and seat_name(seat, "en") == en


def test_claims_say_whose_tile_and_payments_say_why() -> None:
    from sichuan_mahjong.game import Event

    pung = Event("pung", 1, {"tile": "6m", "from_seat": 0})
    assert describe_event(pung, "zh", "compact") == "下家(1) 碰 你的 6m"
    assert describe_event(pung, "en", "compact") == "Right (1) pungs 6m from you"
    kong = Event("kong", 0, {"tile": "3m", "from_seat": 3})
    assert describe_event(kong, "en", "compact") == "You kong 3m from Left (3)"
    paid = Event("payment", -1, {"payer": 0, "payee": 1, "amount": 2, "reason": "R6.1 exposed kong 直杠"})
    assert describe_event(paid, "zh", "compact") == "    你 付给 下家(1) 2（直杠）"
    assert describe_event(paid, "en", "compact") == "    You pay Right (1) 2 (exposed kong)"


def test_an_unfinished_hand_is_saved_on_request(tmp_path: Path) -> None:
    table = Table(PlaySettings(seed=1, hands=1, delay=0, records=tmp_path))
    table.answer(simple_answer(table))
    path = table.save_unfinished()
    assert path is not None and path.name.endswith("-hand1-unfinished.jsonl")
    assert [e.to_dict() for e in load_hand(path).events] == [e.to_dict() for e in table.game.events]
    assert Table(PlaySettings(seed=1, records=None)).save_unfinished() is None
