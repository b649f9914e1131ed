"""One scripted deal per rule ID (docs/rules.md R2-R12). Seat 0 deals unless a test says otherwise."""

from __future__ import annotations

import pytest

import sichuan_mahjong as sm
from scripted import act, deal, legal, paid, tsumogiri

# ---------------------------------------------------------------------------------------------- R2 set-up


def test_r2_2_first_dealer_by_dice_ties_roll_again() -> None:
    for seed in range(30):
        g = sm.Game(sm.Rules(), seed)
        assert g.dealer_rolls is not None
        last = g.dealer_rolls[-1]
        assert last[g.dealer] == max(last) and last.count(max(last)) == 1
        for earlier in g.dealer_rolls[:-1]:
            assert earlier.count(max(earlier)) > 1


def test_r2_3_r2_4_deal_counts_and_seeded_wall() -> None:
    g = sm.Game(sm.Rules(), 5, dealer=2)
    assert g.dealer == 2 and all(1 <= d <= 6 for d in g.dice)
    assert [len(g.view(s).tiles) for s in range(4)] == [13, 13, 14, 13]
    assert g.view(0).wall_count == 55
    assert g.events[0].data == sm.Game(sm.Rules(), 5, dealer=2).events[0].data


def test_r2_4_replacement_from_far_end_and_draws_from_front() -> None:
    g = deal(
        ["8888p123m456m789m1s", "1112223334445s", "5556667778889s", "1199m1199p22m33p5m"],
        wall="6m",
        replacements="7p",
    )
    act(g, {0: "concealed_kong 8p"})
    assert g.view(0).drawn == sm.Tile.from_str("7p")
    act(g, {0: "discard 7p"})
    assert g.view(1).drawn == sm.Tile.from_str("6m")


def test_r2_setup_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="must be dealt 14"):
        sm.Game.setup(sm.Rules(), ["123m", "1m", "1m", "1m"])
    with pytest.raises(ValueError, match="more than four 1m"):
        deal(["11112223334445m", "1112223334445p", "1112223334445s", "5556667778889s"], wall="1m")


# ------------------------------------------------------------------------------- R4 turns, claims, modes
# Seats 1 and 2 both wait on 5p (tanki); seat 3 and the dealer's other tiles are inert.
MULTI = ["5p4p8p9p9p8s8s3m3m4m4m5m5m6m", "111m234m567m789m5p", "222s333s444s666s5p", "11s55s77s99s123p67p"]


def test_r4_2_one_discard_wins_two_in_standard_mode_and_discarder_deals_next() -> None:
    g = deal(MULTI, rules=sm.Rules.preset("standard").replace(declare_ready=False))
    act(g, {0: "discard 5p"})
    assert legal(g, 1) == ["hu", "pass"] and legal(g, 2) == ["hu", "pass"]
    act(g, {1: "hu", 2: "hu"})
    assert g.is_over and g.result.reason == "win"
    assert paid(g) == [(0, 1, 1, "R8.1"), (0, 2, 2, "R8.1")]  # 平胡 1, 对子胡 2
    assert g.result.deltas == (-3, 1, 2, 0)
    assert g.result.next_dealer == 0  # R2.5: 一炮多响, the discarder deals
    assert set(g.result.scores) == {1, 2}


def test_r4_2_r9_7_one_discard_wins_two_in_bloody_mode_play_goes_on_after_last_winner() -> None:
    g = deal(MULTI, wall="1p")
    act(g, {0: "discard 5p"})
    act(g, {1: "hu", 2: "hu"})
    assert not g.is_over
    assert g.view(0).active == (True, False, False, True)
    assert list(g.to_act()) == [3] and g.view(3).drawn == sm.Tile.from_str("1p")
    tsumogiri(g)
    assert g.result.next_dealer == 0
    assert sum(g.result.deltas) == 0


def test_r4_2_win_beats_pung_and_single_winner_deals_next() -> None:
    hands = ["5p4p8p9p9p8s8s3m3m4m4m5m6m6m", "111m234m567m789m5p", "222s333s444s67s55p", "11s55s77s99s123p67p"]
    g = deal(hands, rules=sm.Rules.preset("standard").replace(declare_ready=False))
    act(g, {0: "discard 5p"})
    assert legal(g, 2) == ["pung", "pass"]
    act(g, {1: "hu", 2: "pung"})
    assert g.is_over and g.result.next_dealer == 1
    assert g.view(2).melds[2] == ()


def test_r4_3_r4_4_pung_while_holding_three_then_discard_without_draw() -> None:
    hands = [
        "5s1p2p3p4p6p7p8p9p1m2m3m4m6m",
        "555s1m2m3m4m6m7m8m9m1p2p",
        "2p3p4p6p7p8p9p2m3m4m6m7m8m",
        "1s2s3s4s6s7s8s9s1s2s3s4s6s",
    ]
    g = deal(hands, wall="7s")
    act(g, {0: "discard 5s"})
    assert legal(g, 1) == ["kong", "pung", "pass"]
    act(g, {1: "pung"})
    view = g.view(1)
    assert view.drawn is None and view.wall_count == 55 and view.melds[1] == (sm.Meld.parse("pung 5s"),)
    assert all(a.startswith("discard") for a in legal(g, 1))
    assert sm.Tile.from_str("5s") in view.hand  # the third 5s is kept
    act(g, {1: "discard 1p"})
    assert list(g.to_act()) == [2] and g.view(2).drawn == sm.Tile.from_str("7s")


def test_r4_no_chow_and_no_kong_in_standard_modes() -> None:
    with pytest.raises(ValueError, match="unknown action 'chow'"):
        sm.Action.parse("chow")
    hands = ["8888p123m456m789m1s", "1112223334445s", "5556667778889s", "1199m1199p22m33p5m"]
    g = deal(hands, rules=sm.Rules.preset("bloody").replace(declare_ready=False))
    assert not any("kong" in a for a in legal(g, 0))
    with pytest.raises(sm.IllegalActionError, match="seat 0 cannot concealed_kong 8p: mode bloody has no kongs"):
        g.step({0: "concealed_kong 8p"})


# ------------------------------------------------------------------------------------------ R6 kongs
KONGS = ["8888p1m2m3m4m6m7m8m9m5s2p", "555s111p222p34p9s1m", "6666s3p4p6p7p9p2m3m4m1s", "6m7m8m9m222s7s8s9s5p1s4s"]


def test_r6_3_r6_1_concealed_and_exposed_kong_payments() -> None:
    g = deal(KONGS, wall="1s", replacements="9p9s")
    act(g, {0: "concealed_kong 8p"})
    act(g, {0: "discard 9p"})
    act(g, {1: "discard 4p"})
    act(g, {2: "discard 9p"})  # nobody claims
    act(g, {3: "discard 1s"})
    act(g, {0: "discard 5s"})
    act(g, {1: "kong"})
    assert g.view(1).drawn == sm.Tile.from_str("9s")
    assert g.deltas == (6 - 2, -2 + 2, -2, -2)
    reasons = [p.reason for p in g.payments]
    assert reasons[:3] == ["R6.3 concealed kong 暗杠"] * 3 and reasons[3] == "R6.1 exposed kong 直杠"


def test_r9_7_no_kong_with_an_empty_wall_and_kong_on_the_last_tile() -> None:
    g = deal(KONGS, replacements="9s")
    tsumogiri(g, lambda g: g.view(0).wall_count == 1 and g.phase == "play" and 2 in g.to_act())
    # seat 2 still holds four 6s: with one tile left he may kong; its replacement is the last tile
    assert "concealed_kong 6s" in legal(g, 2)
    act(g, {2: "concealed_kong 6s"})
    assert g.view(2).wall_count == 0 and g.view(2).drawn == sm.Tile.from_str("9s")
    assert not any("kong" in a for a in legal(g, 2))
    tsumogiri(g)
    assert g.result.reason == "wall"


def test_r9_7_no_kong_declared_when_the_wall_is_empty() -> None:
    g = deal(KONGS, replacements="2s")  # seat 3 draws the last tile, his fourth 2s
    tsumogiri(g, lambda g: g.view(0).wall_count == 0)
    assert g.view(3).tiles.count(sm.Tile.from_str("2s")) == 4 and list(g.to_act()) == [3]
    for s, opts in g.to_act().items():
        assert not any(a.kind in (sm.ActionKind.KONG, sm.ActionKind.CONCEALED_KONG) for a in opts), s


# ----------------------------------------------------------------------------- R9.3 robbing, R6.4, R8.3
ROB = [
    "5s4p5p6p7p8p4p5p6p7p8p1s2s3s",
    "55s4p5p6p7p8p2m5m6m7m8m9m",
    "111p222p333p99p46s",
    "123m456m789m11m46s",
]


@pytest.mark.parametrize("mode", ["standard_kong", "bloody_kong"])
def test_r9_3_several_players_rob_one_added_kong(mode: str) -> None:
    g = deal(ROB, wall="9s8s7s5s", rules=sm.Rules.preset(mode).replace(declare_ready=False))
    act(g, {0: "discard 5s"})
    assert legal(g, 1) == ["pung", "pass"] and legal(g, 2) == ["hu", "pass"] and legal(g, 3) == ["hu", "pass"]
    act(g, {1: "pung"})  # seats 2 and 3 pass their win: 过水 until their next draw
    act(g, {1: "discard 2m"})
    act(g, {2: "discard 9s"})
    act(g, {3: "discard 8s"})
    act(g, {0: "discard 7s"})
    assert "added_kong 5s" in legal(g, 1)
    act(g, {1: "added_kong 5s"})
    assert g.phase == "rob" and legal(g, 2) == ["hu", "pass"] and legal(g, 3) == ["hu", "pass"]
    act(g, {2: "hu", 3: "hu"})
    # 平胡 0 fan each (抢杠 adds no fan in the source's presets, R7), x1: seat 1 pays each as a discarder (R8.3)
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [
        (1, 2, 1),
        (1, 3, 1),
    ]
    assert g.view(0).melds[1] == (sm.Meld.parse("pung 5s"),)  # R9.3: the pung stays a pung, no kong money
    assert [w.robbed_kong for w in g.view(0).wins] == [True, True]
    if mode == "standard_kong":
        assert g.is_over and g.result.next_dealer == 1
    else:
        assert list(g.to_act()) == [0]  # after the last robber (seat 3) in order from the kong


def test_r9_3_added_kong_completes_when_robbers_pass_and_concealed_kong_cannot_be_robbed() -> None:
    g = deal(ROB, wall="9s8s7s5s")
    act(g, {0: "discard 5s"})
    act(g, {1: "pung"})
    act(g, {1: "discard 2m"})
    act(g, {2: "discard 9s"})
    act(g, {3: "discard 8s"})
    act(g, {0: "discard 7s"})
    act(g, {1: "added_kong 5s"})
    act(g, {})  # both may rob; both pass
    assert g.view(0).melds[1] == (sm.Meld.parse("added_kong 5s"),)
    assert g.deltas == (-1, 3, -1, -1)  # R6.2
    assert g.view(1).drawn is not None


# -------------------------------------------------------------------------------------------- R9.1 过水
PASS_HANDS = [
    "123456789s1m5p7p8p9p",
    "23m444m567m999p55p",  # waits 1m and 5p (平胡, 0 fan) and 4m (+根, 1 fan)
    "123456789s4m1m1p3p",
    "123456789s1m2p4p6p",
]


def test_r9_1_pass_locks_other_and_same_wait_until_own_draw() -> None:
    g = deal(PASS_HANDS, wall="1s2s3s4s5s6s")
    act(g, {0: "discard 8p"})
    act(g, {1: "discard 1s"})
    act(g, {2: "discard 4m"})
    assert legal(g, 1) == ["hu", "kong", "pung", "pass"]
    act(g, {})  # seat 1 passes a 1-fan win
    act(g, {3: "discard 1m"})  # a different wait, lower fan: not offered
    assert list(g.to_act()) == [0]
    act(g, {0: "discard 1m"})  # the same again from another seat: not offered
    assert list(g.to_act()) == [1]
    act(g, {1: "discard 5s"})  # his own draw released the lock
    act(g, {2: "discard 1m"})
    assert legal(g, 1) == ["hu", "pass"]
    with pytest.raises(sm.IllegalActionError, match="seat 3 cannot hu"):
        g.step({1: "hu", 3: "hu"})


def test_r9_1_strictly_higher_fan_overrides_equal_does_not() -> None:
    hands = ["123456789s4m5p7p8p9p", "23m444m567m999p55p", "123456789s1m1p3p6p", "123456789s1m2p4p7p"]
    g = deal(hands, wall="1s2s3s4s")
    act(g, {0: "discard 8p"})
    act(g, {1: "discard 1s"})
    act(g, {2: "discard 1m"})
    assert legal(g, 1) == ["hu", "pass"]
    act(g, {})  # passes a 0-fan win
    act(g, {3: "discard 1m"})  # equal fan: not offered
    assert list(g.to_act()) == [0]
    act(g, {0: "discard 4m"})  # 1 fan > 0: offered
    assert "hu" in legal(g, 1)
    act(g, {1: "hu"})
    assert g.result.scores[1].fan == 1 if g.is_over else g.view(0).wins[0].fan == 1


# ------------------------------------------------------------------------------------------- R9.2 后4张
FORCED = [
    "123456789s1m5p7p8p9p",
    "23m444m567m999p55p",
    "123456789s1m1p3p6p",
    "123456789s1m2p4p4m",
]


def test_r9_2_last_four_forced_win_on_a_discard_refuses_a_pass() -> None:
    g = deal(FORCED, replacements="1m")  # the wall's last tile is 1m, drawn by seat 3
    tsumogiri(g, lambda g: g.phase == "claim" and g.view(0).wall_count == 0)
    assert g.view(1).wall_count == 0 and legal(g, 1) == ["hu"]
    with pytest.raises(sm.IllegalActionError, match="seat 1 cannot pass: 后4张必胡"):
        g.step({1: "pass"})
    before = g.to_json()
    assert g.to_json() == before
    act(g, {1: "hu"})
    assert "haidipao" not in [p.id for p in g.result.scores[1].patterns]  # house extra off by default


def test_r9_2_last_four_forced_self_draw() -> None:
    g = deal(FORCED, replacements="1s2s1m")  # 1m is the third tile from the end: seat 1 draws it
    tsumogiri(g, lambda g: 1 in g.to_act() and g.view(1).drawn == sm.Tile.from_str("1m"))
    assert g.view(1).wall_count == 2 and legal(g, 1) == ["hu"]


# The boundary: seat 1 (ready on 1m, 4m and 5p; every other one of them is held) meets the only free 1m, placed k
# tiles from the wall's end. The others hold three suits and discard what they draw: they can never win.
JUNK = {0: "123456789s1m5p8p9p", 2: "123456789s1m1p3p5p", 3: "123456789s1m2p4p4m"}


def _last_tiles(k: int, dealer: int) -> sm.Game:
    hands = [JUNK.get(s, "23m444m567m999p55p") + ("9s" if s == dealer else "") for s in range(4)]
    g = deal(hands, replacements="1s2s3s4s5s6s"[: 2 * (k - 1)] + "1m", dealer=dealer)
    act(g, {dealer: "discard 9s"})  # the dealer's extra tile
    tsumogiri(g, lambda g: "hu" in legal(g, 1))
    return g


@pytest.mark.parametrize(("k", "forced"), [(5, False), (4, True)])
def test_r9_2_forced_self_draw_only_on_the_last_four_tiles(k: int, forced: bool) -> None:
    g = _last_tiles(k, dealer=(1 + k) % 4)  # seat 1 draws the k-th tile from the end
    assert g.phase == "play" and g.view(1).drawn == sm.Tile.from_str("1m") and g.view(1).wall_count == k - 1
    assert (legal(g, 1) == ["hu"]) is forced


@pytest.mark.parametrize(("k", "forced"), [(6, False), (5, True)])
def test_r9_2_forced_win_on_a_discard_while_the_wall_holds_four_or_fewer(k: int, forced: bool) -> None:
    g = _last_tiles(k, dealer=0)  # seat (-k) % 4, not seat 1, draws it and discards it
    assert g.phase == "claim" and g.view(1).pending_tile == sm.Tile.from_str("1m")
    assert g.view(1).wall_count == k - 1
    assert legal(g, 1) == (["hu"] if forced else ["hu", "pass"])


# ---------------------------------------------------------------------------------- R9.5 查叫, R6.5, R10 花猪
CHECK = [
    "8888p1m1m1m4m2p4p7p3s6s8s",  # seat 0: a concealed kong, not ready
    "23m444m567m111s55s",  # seat 1: ready, waits 1m (0 fan) and 4m (+根 1 fan)
    "6666p123s789s999s",  # seat 2: its only wait 6p is all in his hand: not ready
    "1m5m6m8m9m1p3p5p9p2s4s7s8s",  # seat 3: not ready
]


@pytest.mark.parametrize(("check_max", "value"), [(False, 1), (True, 2)])
def test_r9_5_r6_5_check_ready_both_ways_with_kong_refund(check_max: bool, value: int) -> None:
    g = deal(CHECK, check_max=check_max)
    act(g, {0: "concealed_kong 8p"})
    tsumogiri(g)
    assert g.result.reason == "wall" and g.result.ready == (False, True, False, False)
    end = [p for p in paid(g) if p[3] in ("R9.5", "R6.5")]
    assert end == [
        (0, 1, value, "R9.5"),
        (2, 1, value, "R9.5"),
        (3, 1, value, "R9.5"),
        (0, 1, 2, "R6.5"),
        (0, 2, 2, "R6.5"),
        (0, 3, 2, "R6.5"),
    ]
    assert g.result.deltas == (-value, 3 * value, -value, -value)
    assert g.result.next_dealer == 0


def test_r10_flower_pig_pays_the_cap_and_no_check_ready() -> None:
    g = deal(CHECK, flower_pig=True)
    act(g, {0: "concealed_kong 8p"})
    tsumogiri(g)
    end = [p for p in paid(g) if p[3] in ("R9.5", "R6.5", "R10")]
    assert end == [
        (2, 1, 1, "R9.5"),
        (0, 1, 16, "R10"),
        (0, 2, 16, "R10"),
        (3, 1, 16, "R10"),
        (3, 2, 16, "R10"),
        (0, 1, 2, "R6.5"),
        (0, 2, 2, "R6.5"),
        (0, 3, 2, "R6.5"),
    ]
    assert g.result.deltas == (-32, 33, 31, -32)
    capped = deal(CHECK, flower_pig=True, max_fan=3)
    tsumogiri(capped)
    assert (0, 1, 8, "R10") in paid(capped)


# --------------------------------------------------------------------------------------- R10 呼叫转移
SHOT = ["8888p5p1s3s5s7s9s2p4p6p9m", "111m234m567m789m5p", "222s333s444s666s5p", "1p3p7p1s2s4m6m8m9m5m1m2m3m"]


def test_r10_kong_shot_transfer_with_two_winners() -> None:
    g = deal(SHOT, replacements="9p", kong_shot_transfer=True)
    act(g, {0: "concealed_kong 8p"})
    act(g, {0: "discard 5p"})
    act(g, {1: "hu", 2: "hu"})
    assert [(q.payer, q.payee, q.amount, q.reason.split()[0]) for q in g.payments] == [
        (1, 0, 2, "R6.3"),
        (2, 0, 2, "R6.3"),
        (3, 0, 2, "R6.3"),
        (0, 1, 2, "R8.1"),  # 平胡 + 杠上炮
        (0, 2, 4, "R8.1"),  # 对子胡 + 杠上炮
        (0, 1, 3, "R10"),
        (0, 2, 3, "R10"),
    ]
    assert g.deltas == (-6, 3, 5, -2)
    assert "gangshangpao" in [p for w in g.events if w.type == "win" for p in w.data["patterns"]]


def test_r10_no_transfer_without_the_option() -> None:
    g = deal(SHOT, replacements="9p")
    act(g, {0: "concealed_kong 8p"})
    act(g, {0: "discard 5p"})
    act(g, {1: "hu", 2: "hu"})
    assert g.deltas == (6 - 6, -2 + 2, -2 + 4, -2)
