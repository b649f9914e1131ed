"""报叫, 天胡/地胡, 定缺, 换三张, 点杠花, self-draw bonus, illegal answers (docs/rules.md R3, R7, R9.6, R10, R12)."""

from __future__ import annotations

import pytest

import scripted
import sichuan_mahjong as sm
from scripted import NO_DECLARE, act, legal, pattern_ids


def deal(
    hands: list[str], wall: str = "", rules: sm.Rules = NO_DECLARE, replacements: str = "", **opt: object
) -> sm.Game:
    return scripted.deal(hands, wall, rules.replace(**opt), replacements, seed=3)


MULTI = ["5p4p8p9p9p8s8s3m3m4m4m5m5m6m", "111m234m567m789m5p", "222s333s444s666s5p", "11s55s77s99s123p67p"]


def test_r9_6_declared_non_dealer_must_discard_the_drawn_tile_and_scores_baojiao() -> None:
    g = deal(MULTI, wall="9m", rules=sm.Rules())
    assert g.phase == "declare" and g.to_act() == {
        1: [sm.Action.parse("declare_ready"), sm.Action.parse("pass")],
        2: [sm.Action.parse("declare_ready"), sm.Action.parse("pass")],
    }
    act(g, {1: "declare_ready"})
    assert g.view(3).ready == (False, True, False, False)
    act(g, {0: "discard 8p"})
    assert legal(g, 1) == ["discard 9m"]
    with pytest.raises(sm.IllegalActionError, match="seat 1 cannot discard 5p: he has declared ready"):
        g.step({1: "discard 5p"})
    act(g, {1: "discard 9m"})
    act(g, {2: "discard 5p"})
    assert legal(g, 1) == ["hu", "pass"]
    act(g, {1: "hu"})
    assert "baojiao" in pattern_ids(g, 1)
    assert g.payments[-1].amount == 4  # 平胡 0 + 报叫 2


def test_r9_6_dealer_declares_on_his_first_turn_then_keeps_ready() -> None:
    hands = [
        "111m234m567m789m5p9s",
        "1p3p5p7p9p2s4s6s8s1s3s5s7s",
        "2p4p6p8p1p3p5p7p2s4s6s8s9p",
        "2p4p6p8p9p1s3s5s7s9s2m4m6m",
    ]
    g = deal(hands, rules=sm.Rules())
    assert g.phase == "play" and "declare_ready" in legal(g, 0)
    act(g, {0: "declare_ready"})
    assert legal(g, 0) == ["discard 5p", "discard 9s"]
    act(g, {0: "discard 9s"})
    assert g.view(2).ready[0]
    assert "declare_ready" not in legal(g, 1)


def test_r7_tianhu_dealer_wins_on_his_first_14() -> None:
    g = deal(
        [
            "111m234m567m789m55p",
            "1p3p5p7p9p2s4s6s8s1s3s5s7s",
            "2p4p6p8p1p3p7p2s4s6s8s9p9s",
            "2p4p6p8p9p1s3s5s7s9s2m4m6m",
        ]
    )
    assert legal(g, 0)[0] == "hu"
    act(g, {0: "hu"})
    assert "tianhu" in pattern_ids(g, 0)
    assert g.deltas == (96, -32, -32, -32)


def test_r7_dihu_non_dealer_wins_on_first_draw() -> None:
    hands = [
        "1p3p6p7p9p1s2s3s4s5s6s7s8s9s",
        "111m234m567m789m5p",
        "2p4p8p5p2m4m6m8m3m5m7m9m2s",
        "2p4p8p6p2m4m6m8m3m5m7m9m4s",
    ]
    g = deal(hands, wall="5p")
    act(g, {0: "discard 9s"})
    assert legal(g, 1)[0] == "hu"
    act(g, {1: "hu"})
    assert "dihu" in pattern_ids(g, 1)
    assert g.deltas == (-32, 96, -32, -32)


def test_r3_2_void_is_hidden_until_all_chose_then_void_tiles_go_first_and_cannot_be_punged() -> None:
    hands = [
        "1m2m3m4m6m7m8m9m1p2p3p9s9s5s",
        "5s5s1p2p3p4p6p7p2m3m4m6m7m",
        "8p8p9p9p1m1m2m2m3s4s6s7s8s",
        "5m5m6p8p2s3s4s6s7s1s1s2s3s",
    ]
    g = deal(hands, declare_void=True)
    assert g.phase == "void" and all(legal(g, s) == ["void m", "void p", "void s"] for s in range(4))
    assert g.view(1).voids == (None, None, None, None)
    with pytest.raises(sm.IllegalActionError, match="seat 3 must answer too"):
        g.step({0: "void s", 1: "void s", 2: "void m"})
    act(g, {0: "void s", 1: "void s", 2: "void m", 3: "void p"})
    assert g.view(1).voids == (2, 2, 0, 1)
    assert legal(g, 0) == ["discard 5s", "discard 9s"]
    with pytest.raises(sm.IllegalActionError, match="tiles of his void suit s go first"):
        g.step({0: "discard 1m"})
    act(g, {0: "discard 5s"})
    assert list(g.to_act()) == [1]  # seat 1 holds 5s5s but 5s is his void: no pung
    assert all(a.tile is not None and a.tile.suit == "s" for a in g.to_act()[1])


@pytest.mark.parametrize(
    ("direction", "shift"), [("clockwise", 3), ("counterclockwise", 1), ("across", 2), ("dice", None)]
)
def test_r10_exchange_three_directions(direction: str, shift: int | None) -> None:
    g = sm.Game(sm.Rules(exchange_three=True, exchange_direction=direction), 9)
    assert g.phase == "exchange" and g.view(0).exchanged is None
    choice = {s: g.to_act()[s][0] for s in range(4)}
    assert all(len({t // 9 for t in a.exchange}) == 1 for a in choice.values())
    g.step(choice)
    if shift is None:
        shift = {0: 2, 1: 1, 2: 3}[sum(g.exchange_dice) % 3]
    for s in range(4):
        _given, received = g.view((s + shift) % 4).exchanged or ((), ())
        assert tuple(t.index for t in received) == choice[s].exchange
        assert g.view(s).exchanged is not None
        assert len(g.view(s).tiles) == (14 if s == g.dealer else 13)


KONG_FLOWER = [
    "5m1p3p6p7p2s4s6s8s2m4m6m8m9m",
    "555m111m234m678p9p",
    "1p3p6p7p2s4s6s8s3m7m9m1s5s",
    "2p2p4p4p8p8p1s3s7s9s3s7s9s",
]


def test_r10_kong_flower_paid_by_the_feeder_alone() -> None:
    g = deal(KONG_FLOWER, replacements="9p", kong_flower_payer="discarder")
    act(g, {0: "discard 5m"})
    act(g, {1: "kong"})
    assert legal(g, 1)[0] == "hu"
    act(g, {1: "hu"})
    assert "gangshanghua" in pattern_ids(g, 1)
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [(0, 1, 2), (0, 1, 4)]


def test_r7_r8_2_kong_flower_default_everyone_pays_with_self_draw_base_bonus() -> None:
    g = deal(KONG_FLOWER, replacements="9p", self_draw_bonus="base")
    act(g, {0: "discard 5m"})
    act(g, {1: "kong"})
    act(g, {1: "hu"})
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [(0, 1, 2), (2, 1, 5), (3, 1, 5), (0, 1, 5)]


def test_illegal_answers_name_seat_action_reason_and_change_nothing() -> None:
    hands = [
        "5p1p2p3p4p6p7p8p9p1m2m3m4m6m",
        "5p9p1m2m3m4m6m7m8m9m1s2s3s",
        "1s2s3s4s6s7s8s9s2m3m4m6m7m",
        "55p77s1s2s3s4s6s7s8s9s8m",
    ]
    g = deal(hands)
    act(g, {0: "discard 5p"})
    assert g.to_act() == {3: [sm.Action.parse("pung"), sm.Action.parse("pass")]}
    before = g.to_json()
    with pytest.raises(sm.IllegalActionError, match="seat 1 cannot pung 5p: holds one 5p"):
        g.step({1: "pung", 3: "pass"})
    with pytest.raises(sm.IllegalActionError, match="seat 3 cannot kong 5p: holds two 5p"):
        g.step({3: "kong"})
    with pytest.raises(sm.IllegalActionError, match="seat 0 cannot discard 1m: it is not asked now"):
        g.step({3: "pass", 0: "discard 1m"})
    with pytest.raises(sm.IllegalActionError, match="seat 3 must answer too"):
        g.step({})
    with pytest.raises(ValueError, match="unknown action"):
        g.step({3: "chow"})
    assert g.to_json() == before and g.to_act() == {3: [sm.Action.parse("pung"), sm.Action.parse("pass")]}
    act(g, {3: "pung"})
    assert g.view(0).melds[3] == (sm.Meld.parse("pung 5p"),)


def test_step_takes_an_equal_action_built_by_hand_as_the_legal_one() -> None:
    """Action is a public dataclass: an answer equal to a legal action must act as that action."""
    g = deal(MULTI, rules=sm.Rules.preset("standard").replace(declare_ready=False))
    g.step({0: sm.Action(sm.ActionKind.DISCARD, sm.Tile.from_str("5p").index)})
    assert legal(g, 1) == ["hu", "pass"] and legal(g, 2) == ["hu", "pass"]
    g.step({1: sm.Action(sm.ActionKind.HU), 2: sm.Action(sm.ActionKind.PASS)})
    assert g.is_over and [w.seat for w in g.result.wins] == [1]
