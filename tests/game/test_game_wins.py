"""Several winners on one tile, who deals next, and what a winner no longer pays (docs/rules.md R2.5, R4.2, R7,
R8, R9.3, R9.4, R9.7). Seat 0 deals unless a test says otherwise."""

from __future__ import annotations

import pytest

import scripted
import sichuan_mahjong as sm
from scripted import act, legal, paid, pattern_ids, tsumogiri
from sichuan_mahjong.game.actions import HU, PASS


def deal(
    hands: list[str], mode: str, wall: str = "", replacements: str = "", dealer: int = 0, **opt: object
) -> sm.Game:
    rules = sm.Rules.preset(mode).replace(declare_ready=False, **opt)
    return scripted.deal(hands, wall, rules, replacements, dealer, seed=17)


# ------------------------------------------------------------------------------ R7 地胡, R8.4 in bloody modes
LATER = [
    "3s3s3s3s5p6p2p5m6m8s9s1s7s8m",  # the dealer: never ready (three suits); discards 5p first
    "111m234m567m789m5p",  # wins on the dealer's 5p at once
    "6s6s6s6s1p2p3p7p8p9p2s2s4s",  # concealed kong of 6s, then ready on 3s (all four 3s are the dealer's)
    "2m3m789m111p999p44p",  # ready from the deal on 1m/4m; self-draws 4m on his first draw
]


def test_r7_dihu_needs_no_claim_before_it_and_a_win_on_a_discard_is_a_claim() -> None:
    g = deal(LATER, "bloody_kong", wall="9s4m", replacements="5s")
    act(g, {0: "discard 5p"})
    act(g, {1: "hu"})  # R4.2: a win is a claim of the discard
    act(g, {2: "concealed_kong 6s"})
    act(g, {2: "discard 9s"})
    assert g.view(3).drawn == sm.Tile.from_str("4m") and legal(g, 3)[0] == "hu"
    act(g, {3: "hu"})
    assert pattern_ids(g, 3) == ["pinghu"]


def test_r8_4_r9_4_a_winner_neither_pays_nor_collects_for_a_later_kong_self_draw_or_check_ready() -> None:
    """Seat 1 wins first; then a concealed kong, a self-draw and 查叫 are settled among the others alone.

    Seat 1: 111m 234m 567m 789m 55p on the dealer's 5p = 平胡 0 fan, x1: the dealer pays 1.
    Seat 2's 暗杠 6s: the dealer and seat 3 pay 2 each (R6.3), not seat 1.
    Seat 3 self-draws 4m: 234m 789m 111p 999p 44p = 平胡 0 (no 地胡: seat 1 claimed a discard before), x1
    from the dealer and seat 2 only.
    The wall runs out with the dealer and seat 2 in: seat 2 waits on 3s (123p 789p 22s 45s; 6s is all in his
    kong) = 平胡 0 + 根 1 = 1 fan: the dealer, not ready, pays him 2 (R9.5); seat 2 is ready, so no refund.
    Deltas: dealer -1 -2 -1 -2 = -6; seat 1 +1; seat 2 +4 -1 +2 = +5; seat 3 -2 +2 = 0.
    """
    g = deal(LATER, "bloody_kong", wall="9s4m", replacements="5s")
    act(g, {0: "discard 5p"})
    assert legal(g, 1) == ["hu", "pass"]
    act(g, {1: "hu"})
    assert paid(g) == [(0, 1, 1, "R8.1")]
    assert g.view(0).active == (True, False, True, True) and list(g.to_act()) == [2]
    act(g, {2: "concealed_kong 6s"})
    assert paid(g, 1) == [(3, 2, 2, "R6.3"), (0, 2, 2, "R6.3")]  # in play order from the kong-er
    act(g, {2: "discard 9s"})
    act(g, {3: "hu"})
    assert paid(g, 3) == [(0, 3, 1, "R8.2"), (2, 3, 1, "R8.2")]
    assert g.view(0).active == (True, False, True, False) and list(g.to_act()) == [0]
    assert [str(t) for t in sm.waits(g.view(2).tiles, g.view(2).melds[2])] == ["3s"]
    tsumogiri(g)
    assert g.result.reason == "wall" and g.result.ready == (False, False, True, False)
    assert paid(g, 5) == [(0, 2, 2, "R9.5")]
    assert all(1 not in (p.payer, p.payee) for p in g.result.payments[1:])
    assert g.result.deltas == (-6, 1, 5, 0)
    assert g.result.next_dealer == 1


# ------------------------------------------------------------------------- R4.2 一炮多响 with three winners
# The dealer's 5s wins all three others. Values, base 1: seat 1 55s 123p 456p 789p 789p = 平胡 0, x1;
# seat 2 456s 111s 789s 234s 99s = 清一色 2, x4; seat 3 345s 789m 789m 456m 66m = 平胡 0, x1.
THREE_ON_ONE = [
    "5s1m1m1m2m2m2m3m3m3m9m9p4s6s",  # the dealer: not winning, never ready (three suits)
    "5s123p456p789p789p",
    "4s6s111s789s234s99s",
    "3s4s789m789m456m66m",
]


@pytest.mark.parametrize(("mode", "reason"), [("standard", "win"), ("bloody", "one_left")])
def test_r4_2_r2_5_one_discard_wins_three_players_and_the_discarder_deals_next(mode: str, reason: str) -> None:
    g = deal(THREE_ON_ONE, mode)
    act(g, {0: "discard 5s"})
    assert g.to_act() == {s: [HU, PASS] for s in (1, 2, 3)}
    act(g, {1: "hu", 2: "hu", 3: "hu"})
    assert paid(g) == [(0, 1, 1, "R8.1"), (0, 2, 4, "R8.1"), (0, 3, 1, "R8.1")]
    assert g.is_over and g.result.reason == reason  # bloody: only the discarder is left
    assert g.result.deltas == (-6, 1, 4, 1)
    assert [(w.seat, w.from_seat, w.group) for w in g.result.wins] == [(1, 0, 1), (2, 0, 1), (3, 0, 1)]
    assert g.result.next_dealer == 0  # R2.5: 一炮多响, the discarder deals
    assert g.view(1).discards[0] == ()  # the tile left the river; each winner's hand shows it
    assert all(len(g.view(s).tiles) == 14 for s in (1, 2, 3))


# ------------------------------------------------------------------------------- R9.3 three robbers at once
# Seat 1 pungs the dealer's 5s while seats 2 and 3 pass their win on it (过水 until their draw); the dealer
# draws 9m and waits on 5s too. Seat 1 draws the fourth 5s and adds it: all three rob it.
# Values, base 1: seat 2 清一色 2, x4; seat 3 平胡 0, x1; the dealer 456s 111m 222m 333m 99m = 平胡 0, x1 (the
# source's presets: 抢杠 adds no fan, R7). With robbing_kong_fan 1 (app): 3 fan x8, 1 fan x2, 1 fan x2.
# Seat 1 pays each as a discarder (R8.3), in order from him.
THREE_ROBBERS = [
    "5s1m1m1m2m2m2m3m3m3m9m9p4s6s",
    "5s5s2p3p3p5p6p7p8p4m5m7m8m",
    "4s6s111s789s234s99s",
    "3s4s789m789m456m66m",
]


@pytest.mark.parametrize(("mode", "reason"), [("standard_kong", "win"), ("bloody_kong", "one_left")])
@pytest.mark.parametrize(("robbing_fan", "amounts"), [(0, (4, 1, 1)), (1, (8, 2, 2))])
def test_r9_3_r2_5_three_players_rob_one_added_kong_and_the_kong_er_deals_next(
    mode: str, reason: str, robbing_fan: int, amounts: tuple[int, int, int]
) -> None:
    g = deal(THREE_ROBBERS, mode, wall="6p4p9m5s", robbing_kong_fan=robbing_fan)
    act(g, {0: "discard 5s"})
    assert g.to_act() == {1: [sm.Action.parse("pung"), PASS], 2: [HU, PASS], 3: [HU, PASS]}
    act(g, {1: "pung"})
    act(g, {1: "discard 2p"})
    act(g, {2: "discard 6p"})
    act(g, {3: "discard 4p"})
    act(g, {0: "discard 9p"})
    assert [str(t) for t in sm.waits(g.view(0).tiles)] == ["5s"]
    assert g.view(1).drawn == sm.Tile.from_str("5s") and "added_kong 5s" in legal(g, 1)
    act(g, {1: "added_kong 5s"})
    assert g.phase == "rob" and g.to_act() == {s: [HU, PASS] for s in (2, 3, 0)}
    act(g, {2: "hu", 3: "hu", 0: "hu"})
    two, three, zero = amounts
    assert paid(g) == [(1, 2, two, "R8.3"), (1, 3, three, "R8.3"), (1, 0, zero, "R8.3")]  # no kong money (R6.4)
    assert all(("qiangganghu" in pattern_ids(g, s)) is bool(robbing_fan) for s in (0, 2, 3))
    assert g.view(1).melds[1] == (sm.Meld.parse("pung 5s"),) and sm.Tile.from_str("5s") not in g.view(1).tiles
    assert g.is_over and g.result.reason == reason
    assert g.result.deltas == (zero, -sum(amounts), two, three)
    assert g.result.next_dealer == 1  # several robbers of one kong: the kong-er deals


# --------------------------------------------------------------------------------- R2.5 a hand nobody won
# Everyone holds three suits and discards what he draws: nobody is ever ready, nobody can win.
NOBODY = [
    "1m4m7m1p4p7p1s4s7s2m5m8m2p5p",
    "2m5m8m2p5p8p2s5s8s3m6m9m3p",
    "3m6m9m3p6p9p3s6s9s1m4m7m1p",
    "1m4m7m1p4p7p1s4s7s2m5m8m2s",
]


@pytest.mark.parametrize("mode", ["standard", "bloody_kong"])
@pytest.mark.parametrize(("option", "dealer", "next_dealer"), [("stay", 2, 2), ("next", 2, 3), ("next", 3, 0)])
def test_r2_5_next_dealer_after_a_hand_nobody_won(mode: str, option: str, dealer: int, next_dealer: int) -> None:
    hands = NOBODY[-dealer:] + NOBODY[:-dealer]  # the 14-tile hand goes to the dealer
    g = deal(hands, mode, dealer=dealer, dealer_after_draw=option)
    tsumogiri(g)
    assert g.result.reason == "wall" and g.result.wins == () and g.result.deltas == (0, 0, 0, 0)
    assert g.result.next_dealer == next_dealer


def test_r9_3_r6_3_a_concealed_kong_cannot_be_robbed() -> None:
    """Seats 2 and 3 wait on 5s; seat 1 draws his fourth 5s and declares a concealed kong: nobody is asked."""
    hands = ["1m1m1m2m2m2m3m3m3m9m9p4s6s8p", "5s5s5s2p3p3p5p6p7p8p4m5m7m", THREE_ROBBERS[2], THREE_ROBBERS[3]]
    g = deal(hands, "bloody_kong", wall="5s", replacements="9s")
    act(g, {0: "discard 8p"})
    assert "concealed_kong 5s" in legal(g, 1)
    act(g, {1: "concealed_kong 5s"})
    assert g.phase == "play" and list(g.to_act()) == [1] and g.view(1).drawn == sm.Tile.from_str("9s")
    assert paid(g) == [(2, 1, 2, "R6.3"), (3, 1, 2, "R6.3"), (0, 1, 2, "R6.3")]
    assert g.view(0).hidden_kongs[1] == 1 and g.view(0).wins == ()


# ----------------------------------------------------------------------------------------- R7 杠上炮
# Seat 1 kongs the dealer's 5m and draws 1p from the far end; seat 2 waits on 1p alone (11p 222s 333s 444s
# 666s = 对子胡 1 fan).
SHOT_AFTER_EXPOSED = [
    "5m2m7m8m9m2p3p5p1s3s5s7s8s9s",
    "555m111m234m678p9p",
    "1p222s333s444s666s",
    "4m6m3p4p7p2s6p9p3m6m1s4p7s",
]


@pytest.mark.parametrize("at_once", [True, False])
def test_r7_kong_shot_only_on_the_discard_right_after_the_kong(at_once: bool) -> None:
    """杠上炮 (+1): seat 1's exposed kong, its replacement, then at once the 1p: 对子胡 1 + 1 = 2 fan, x4. Kept one
    round and discarded after a plain draw, the same 1p is a plain 点炮: 1 fan, x2."""
    g = deal(SHOT_AFTER_EXPOSED, "bloody_kong", wall="9m9s8s7p", replacements="1p")
    act(g, {0: "discard 5m"})
    act(g, {1: "kong"})
    assert paid(g) == [(0, 1, 2, "R6.1")] and g.view(1).drawn == sm.Tile.from_str("1p")
    if not at_once:
        act(g, {1: "discard 9p"})
        tsumogiri(g, lambda g: list(g.to_act()) == [1])
        assert g.view(1).drawn == sm.Tile.from_str("7p")
    act(g, {1: "discard 1p"})
    assert g.to_act() == {2: [HU, PASS]}
    act(g, {2: "hu"})
    fan = 2 if at_once else 1
    assert paid(g, 1) == [(1, 2, 1 << fan, "R8.1")]
    assert ("gangshangpao" in pattern_ids(g, 2)) is at_once
