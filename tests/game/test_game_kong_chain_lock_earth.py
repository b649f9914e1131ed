"""Four readings of the source (docs/rules.md R7, R9.1): 杠上花 / 杠上炮 「每杠+1番」 over a chain of kongs, 过水不胡
compares the hand's own fan (a situational bonus does not lift the lock), and 地胡 is spoiled only by a pung or
a kong before it. Seat 0 deals; the others hold single tiles of three suits unless a test says otherwise, so
they are never ready and claim nothing the story does not claim."""

from __future__ import annotations

import pytest

import scripted
import sichuan_mahjong as sm
from scripted import NO_DECLARE, act, legal, paid, pattern_ids
from sichuan_mahjong.game.actions import HU, PASS

GARBAGE = "3m4m5m6m1s2s3s4s1p2p7s8s9s"  # three suits, no pair: never ready, never claims (three copies fit)


def deal(hands: list[str], wall: str = "", replacements: str = "", **opt: object) -> sm.Game:
    return scripted.deal(hands, wall, NO_DECLARE.replace(**opt), replacements, seed=29)


def win_fan(g: sm.Game, seat: int) -> int:
    return next(w.fan for w in g.view(0).wins if w.seat == seat)


# ------------------------------------------------------------------------------- R7 杠上花 每杠+1番
@pytest.mark.parametrize("kong_flower_fan", [1, 2])
def test_r7_kong_flower_counts_each_kong_of_an_unbroken_chain(kong_flower_fan: int) -> None:
    """The dealer kongs 1m, draws 9p from the far end, kongs 2m at once, draws 8p and wins:
    [暗杠 1m][暗杠 2m] 345p 678p 99p = 平胡 0 + 根 2 + 杠上花 2 kongs x kong_flower_fan, self-drawn from the three."""
    g = deal(["1111m2222m345p67p9p", GARBAGE, GARBAGE, GARBAGE], replacements="9p8p", kong_flower_fan=kong_flower_fan)
    act(g, {0: "concealed_kong 1m"})
    assert g.view(0).drawn == sm.Tile.from_str("9p") and "hu" not in legal(g, 0)
    act(g, {0: "concealed_kong 2m"})
    assert g.view(0).drawn == sm.Tile.from_str("8p") and legal(g, 0)[0] == "hu"
    act(g, {0: "hu"})
    fan = 2 + 2 * kong_flower_fan
    assert win_fan(g, 0) == fan
    assert paid(g, 6) == [(s, 0, 1 << fan, "R8.2") for s in (1, 2, 3)]
    ids = [p for e in g.events if e.type == "win" for p in e.data["patterns"]]
    assert ids == ["pinghu", "gen", "gangshanghua"]


def test_r7_a_chain_is_broken_by_a_discard_one_kong_counts() -> None:
    """The dealer kongs 1m, discards the useless replacement 4s; a round later he draws the fourth 2m, kongs it
    and wins on the replacement 8p: 平胡 0 + 根 2 + 杠上花 1 = 3 fan (not 4: the 1m kong is not in this chain)."""
    g = deal(["1111m222m345p67p99p", GARBAGE, GARBAGE, GARBAGE], wall="9m9m9m2m", replacements="4s8p")
    act(g, {0: "concealed_kong 1m"})
    act(g, {0: "discard 4s"})
    for s in (1, 2, 3):
        act(g, {s: "discard 9m"})
    act(g, {0: "concealed_kong 2m"})
    act(g, {0: "hu"})
    assert win_fan(g, 0) == 3


def test_r7_an_exposed_kong_on_a_discard_after_a_kong_starts_its_own_chain() -> None:
    """The dealer kongs 1m and discards the replacement 6s; seat 1 kongs that 6s and wins on his own
    replacement 9p: [杠 6s] 555s 345p 789p 99p = 平胡 0 + 根 1 + 杠上花 1 = 2 fan: the dealer's kong is not his."""
    g = deal(["1111m234m345p67p88p", "666s555s345p789p9p", GARBAGE, GARBAGE], replacements="6s9p")
    act(g, {0: "concealed_kong 1m"})
    act(g, {0: "discard 6s"})
    assert legal(g, 1) == ["kong", "pung", "pass"]
    act(g, {1: "kong"})
    act(g, {1: "hu"})
    assert win_fan(g, 1) == 2


@pytest.mark.parametrize(("second_kong", "fan"), [(True, 2), (False, 1)])
def test_r7_kong_shot_counts_each_kong_of_the_discarders_chain(second_kong: bool, fan: int) -> None:
    """The dealer kongs 1m (and, in a row, 2m), then discards the replacement 5s: seat 1 wins on it with
    345m 678m 999m 345s 66s = 平胡 0 + 杠上炮 1 per kong, paid by the dealer (R8.1)."""
    dealer = "1111m2222m345p67p9p" if second_kong else "1111m222m3p345p67p9p"
    g = deal([dealer, "345m678m999m34s66s", GARBAGE, GARBAGE], replacements="1s5s" if second_kong else "5s")
    act(g, {0: "concealed_kong 1m"})
    if second_kong:
        act(g, {0: "concealed_kong 2m"})
    act(g, {0: "discard 5s"})
    assert g.to_act() == {1: [HU, PASS]}
    act(g, {1: "hu"})
    assert win_fan(g, 1) == fan
    assert paid(g)[-1] == (0, 1, 1 << fan, "R8.1")


def test_r7_score_hand_takes_a_count_of_kongs() -> None:
    tiles = sm.parse_tiles("345p678p99p")
    melds = [sm.Meld.parse("concealed_kong 1m"), sm.Meld.parse("concealed_kong 2m")]
    assert sm.score_hand(tiles, "8p", melds, kong_flower=2).fan == 4
    assert sm.score_hand(tiles, "8p", melds, kong_flower=True).fan == 3


# ------------------------------------------------------------------------- R9.1 过水不胡: the hand's own fan
# Seat 1 waits on 1m and 4m, 平胡 0 fan either way.
LOCKED = "23m567m345p999p55p"


@pytest.mark.parametrize("locked", [True, False])
def test_r9_1_a_kong_shot_does_not_lift_a_lock(locked: bool) -> None:
    """Seat 2 discards 1m and seat 1 passes it (0 fan: locked until his draw). Seat 3 kongs 7s and discards the
    replacement, the last 1m: as 杠上炮 it would be worth 1 fan, but the hand's own fan is still 0, not more:
    seat 1 is not asked. Unlocked (seat 2 discards another tile) he is asked, and wins 0 + 杠上炮 1."""
    hands = [
        "1s2s3s4s5s6s8s9s1p2p3p4p6p8m",
        LOCKED,
        "1m3s4s5s6s7p8p9p2s2p3p4p5s",
        "7s7s7s7s2p5m6m9m1p3p6p8p9s",
    ]
    g = deal(hands, wall="9s8s8p", replacements="1m")
    act(g, {0: "discard 8s"})
    act(g, {1: "discard 9s"})
    act(g, {2: "discard 1m" if locked else "discard 8s"})
    if locked:
        assert g.to_act() == {1: [HU, PASS]}
        act(g, {1: "pass"})
        assert g.view(1).pass_lock == 0
    act(g, {3: "concealed_kong 7s"})
    act(g, {3: "discard 1m"})
    if locked:
        assert list(g.to_act()) == [0] and g.view(1).wins == ()
    else:
        assert g.to_act() == {1: [HU, PASS]}
        act(g, {1: "hu"})
        assert win_fan(g, 1) == 1 and "gangshangpao" in pattern_ids(g, 1)


@pytest.mark.parametrize("locked", [True, False])
def test_r9_1_robbing_a_kong_does_not_lift_a_lock_even_when_it_pays_a_fan(locked: bool) -> None:
    """robbing_kong_fan 1 (as in app). Seat 3 pungs the dealer's 1m (seat 1 passes that win; his draw clears
    it). Seat 2 discards 4m and seat 1 passes it: locked at 0. Seat 3 draws the last 1m and adds it: robbing would
    be 0 + 抢杠 1, but the hand's own fan is 0: seat 1 is not asked, and the kong stands. Unlocked (seat 2
    discards the 5m he drew), seat 1 is asked to rob."""
    hands = [
        "1m9m1s2s3s4s6s8s9s1p2p6p7p8p",
        "23m567m345p999p55p",
        "4m8m1s2s3s4s6s8s9s1p2p6p7p",
        "1m1m6m7m8m5s6s7s7s4p8p3s9s",
    ]
    g = deal(hands, wall="7m8m5m1m", robbing_kong_fan=1)
    act(g, {0: "discard 1m"})
    assert g.to_act() == {1: [HU, PASS], 3: [sm.Action.parse("pung"), PASS]}
    act(g, {3: "pung"})
    act(g, {3: "discard 9s"})
    act(g, {0: "discard 7m"})
    act(g, {1: "discard 8m"})
    assert g.view(1).pass_lock is None  # his draw cleared the first lock
    act(g, {2: "discard 4m" if locked else "discard 5m"})
    if locked:
        act(g, {1: "pass"})
        assert g.view(1).pass_lock == 0
    act(g, {3: "added_kong 1m"})
    if locked:
        assert g.phase == "play" and list(g.to_act()) == [3]
        assert g.view(0).melds[3] == (sm.Meld.parse("added_kong 1m"),)
    else:
        assert g.phase == "rob" and g.to_act() == {1: [HU, PASS]}
        act(g, {1: "hu"})
        assert win_fan(g, 1) == 1 and "qiangganghu" in pattern_ids(g, 1)


# ------------------------------------------------------------------------- R7 地胡: spoiled by pungs and kongs only
LATER = [
    "3s3s3s3s5p6p2p5m6m8s9s1s7s8m",  # the dealer: never ready (three suits); discards 5p first
    "111m234m567m789m5p",  # wins on the dealer's 5p at once
    "6s6s6s6s1p2p3p7p8p9p2s2s4s",  # a concealed kong of 6s, or not
    "2m3m789m111p999p44p",  # ready from the deal on 1m/4m; self-draws 4m on his first draw
]


@pytest.mark.parametrize("kong", [False, True])
def test_r7_dihu_survives_another_players_win_and_not_a_kong(kong: bool) -> None:
    """Seat 1 wins on the dealer's first discard; then seat 2 discards (or kongs 6s first); seat 3 self-draws
    his first tile 4m: 234m 789m 111p 999p 44p = 平胡 0 + 地胡 5 = 5 fan, x32 from the dealer and seat 2; a kong
    before it (by anyone) spoils 地胡: 0 fan, x1."""
    g = deal(LATER, wall="9s4m", replacements="5s")
    act(g, {0: "discard 5p"})
    act(g, {1: "hu"})
    if kong:
        act(g, {2: "concealed_kong 6s"})
        act(g, {2: "discard 5s"})
    else:
        act(g, {2: "discard 9s"})
    assert g.view(3).drawn == sm.Tile.from_str("4m") and legal(g, 3)[0] == "hu"
    act(g, {3: "hu"})
    assert pattern_ids(g, 3) == (["pinghu"] if kong else ["pinghu", "dihu"])
    amount = 1 if kong else 32
    assert paid(g)[-2:] == [(0, 3, amount, "R8.2"), (2, 3, amount, "R8.2")]


def test_r7_dihu_is_spoiled_by_a_pung_before_it() -> None:
    """Seat 2 pungs the dealer's 5p (seat 1 skips his turn); seat 3's first draw 4m wins without 地胡."""
    hands = list(LATER)
    hands[1] = "1m4m7m2p4p7p1s2s5s8s9m3p4s"  # never ready, claims nothing
    hands[2] = "5p5p6s6s1p2p3p7p8p9p2s2s4s"
    g = deal(hands, wall="4m")
    act(g, {0: "discard 5p"})
    act(g, {2: "pung"})
    act(g, {2: "discard 4s"})
    assert g.view(3).drawn == sm.Tile.from_str("4m")
    act(g, {3: "hu"})
    assert pattern_ids(g, 3) == ["pinghu"]
