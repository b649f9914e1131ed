"""The hints any table shows from a seat's view: waits with live copies, ready discards, the advisor's word."""

from __future__ import annotations

import pytest

import sichuan_mahjong as sm
from scripted import act, deal
from sichuan_mahjong.hints import (
    NothingToAdviseError,
    WaitLeft,
    advise_view,
    discard_waits,
    live_counts,
    ready_waits,
)

T = sm.Tile.from_str
#: Seats 2 and 3 hold only bamboo, out of the way of the tiles these stories are about.
S2, S3 = "1111s2222s3333s9s", "4444s5555s6666s7s"


def table(dealer: str, seat1: str) -> sm.Game:
    return deal([dealer, seat1, S2, S3])


def test_ready_waits_count_what_the_seat_cannot_see() -> None:
    g = table("123m456m789m123p6p9s", "112233m456m78p99p")
    assert ready_waits(g.view(1)) == (WaitLeft(T("6p"), 4), WaitLeft(T("9p"), 2))
    act(g, {0: "discard 6p"})  # seat 1 may win on it; a copy is now in the river
    view = g.view(1)
    assert live_counts(view)[T("6p").index] == 3
    assert ready_waits(view) == (WaitLeft(T("6p"), 3), WaitLeft(T("9p"), 2))


def test_discard_waits_name_each_discard_that_stays_ready() -> None:
    g = table("123m456m789m123p5p9s", "112233m456m78p99p")
    # Only dropping 9s leaves two suits and a ready hand (on 5p, of which the dealer holds one).
    assert discard_waits(g.view(0)) == {T("9s"): (WaitLeft(T("5p"), 3),)}
    # The dealer's 14th tile counts as drawn: the standing hand before it is already ready.
    assert g.view(0).drawn == T("9s")
    assert ready_waits(g.view(0)) == (WaitLeft(T("5p"), 3),)
    assert discard_waits(g.view(1)) == {}  # not about to discard


def test_claim_advice_compares_pung_with_pass() -> None:
    g = table("1m1234689p778899s", "11p23m45m678m99m5p7p")
    act(g, {0: "discard 1p"})
    view = g.view(1)
    advice = advise_view(view)
    assert advice.kind == "claim"
    # After the pung the hand holds 11 tiles and no draw: no standing hand to wait with.
    g.step({1: sm.Action.parse("pung")})
    assert ready_waits(g.view(1)) == ()
    by_kind = {o.action.kind: o for o in advice.options}
    assert set(by_kind) == {sm.ActionKind.PUNG, sm.ActionKind.PASS}
    assert by_kind[sm.ActionKind.PASS].shanten == sm.shanten(view.hand)
    pung = by_kind[sm.ActionKind.PUNG]
    assert pung.discard is not None
    rest = list(view.hand)
    for tile in (T("1p"), T("1p"), pung.discard):
        rest.remove(tile)
    assert pung.shanten == sm.shanten(rest, [sm.Meld.parse("pung 1p")])
    first, second = advice.options
    assert (first.shanten, -first.live) <= (second.shanten, -second.live)
    assert advice.to_dict()["recommendation"] == {
        "action": str(first.action),
        "zh": advice.reason_zh,
        "en": advice.reason_en,
    }
    assert "碰" in advice.reason_zh and "Pung" in advice.reason_en


def test_a_win_is_always_advised_first() -> None:
    g = table("5p1m4689p778899s2p3p", "123m456m789m123p5p")
    act(g, {0: "discard 5p"})
    advice = advise_view(g.view(1))
    assert advice.recommended.action.kind is sm.ActionKind.HU
    assert advice.recommended.fan == 0
    assert advice.reason_zh.startswith("胡") and advice.reason_en.startswith("Win")


def test_concealed_kong_is_an_option_on_ones_turn() -> None:
    g = table("1m5m9999m123p456p78p", "112233m456m78p99p")
    advice = advise_view(g.view(0))
    kinds = [o.action.kind for o in advice.options]
    assert sm.ActionKind.CONCEALED_KONG in kinds and sm.ActionKind.DISCARD in kinds
    kong = next(o for o in advice.options if o.action.kind is sm.ActionKind.CONCEALED_KONG)
    assert kong.shanten == sm.shanten("1m5m123p456p78p", [sm.Meld.parse("concealed_kong 9m")])
    assert advice.discards is not None and advice.to_dict()["discards"]


def test_no_decision_no_advice() -> None:
    g = table("123m456m789m123p5p9s", "112233m456m78p99p")
    with pytest.raises(NothingToAdviseError, match="seat 2"):
        advise_view(g.view(2))
