"""docs/rules.md R13: the source's two narrated hands (seed/chengdu-mahjong-rules.zh.txt, its last section) as scripts.

Every other seat's hand and every draw are chosen so that the story happens exactly and nothing else can:
the other players hold only single tiles of three suits, so they are never ready and can claim nothing the
story does not claim. Each step checks who is asked, what is legal and what changed.
"""

from __future__ import annotations

from collections.abc import Callable

import sichuan_mahjong as sm
from scripted import paid
from sichuan_mahjong.game.actions import HU, PASS

T = sm.Tile.from_str


def step(g: sm.Game, seat: int, action: str, *, asked: dict[int, list[str]] | None = None) -> None:
    """``seat`` answers ``action`` (which must be legal); ``asked`` is the exact to_act() expected, if given."""
    pending = {s: [str(a) for a in opts] for s, opts in g.to_act().items()}
    if asked is not None:
        assert pending == asked
    assert action in pending[seat], f"{action!r} is not legal for seat {seat}: {pending}"
    g.step({s: action if s == seat else "pass" for s in pending})


def turn(g: sm.Game, seat: int, drawn: str, discard: str) -> None:
    """Seat ``seat`` alone is asked, holding the drawn tile, and discards; nobody may claim the discard."""
    assert list(g.to_act()) == [seat]
    assert g.view(seat).drawn == T(drawn)
    step(g, seat, f"discard {discard}")
    assert g.view(0).discards[seat][-1] == T(discard)
    assert seat not in g.to_act()  # no claim on it: play moved on


def waits_of(g: sm.Game, seat: int, without: str | None = None) -> list[str]:
    view = g.view(seat)
    tiles = list(view.tiles)
    if without is not None:
        tiles.remove(T(without))
    return [str(t) for t in sm.waits(tiles, view.melds[seat])]


def patterns(g: sm.Game, seat: int) -> list[tuple[str, int]]:
    return [(p.id, p.fan) for p in g.result.scores[seat].patterns] if g.is_over else []


def play_out(g: sm.Game, until: Callable[[sm.Game], bool] = lambda g: g.is_over) -> None:
    """Everyone left discards what he draws and passes every claim."""
    while not until(g):
        answers: dict[int, sm.Action] = {}
        for s, opts in g.to_act().items():
            if g.phase == "play":
                drawn = g.view(s).drawn
                assert drawn is not None
                answers[s] = sm.Action.discard(drawn)
            else:
                assert HU not in opts
                answers[s] = PASS
        g.step(answers)


# --------------------------------------------------------------------------------------------- hand one
HAND_ONE = [
    "2s2s2s3s2p2p4p6p8p8p8p9p5m5m",  # you, the dealer: the source's fourteen tiles
    "6p2s1p3p7s9s6s2m3m6m8m4s5s",  # discards a 6p, then the 2s you pung
    "6p5p7p9p1s4s6s8s2m3m4m7m9m",  # discards the other 6p of the pool
    "1m1m1m4m5m6m7m8m9m9m1s3s7p",  # draws 9m, then waits on 2s (1s3s) and robs your kong
]
# Draws in order. Round 1: seats 1-3; round 2: 4s for you; round 3: 3p for you, seat 1 draws twice (before
# and after your pung); round 4: 5s for you (the added kong is robbed), 6s for you (useless); then your 8p.
HAND_ONE_WALL = "7m3s2m 4s1s9s3m 3p4p8s1p9m 5s6s2m3p 8p"


def test_r13_hand_one_void_by_play_pung_holding_three_waits_concealed_kong_kong_flower() -> None:
    """Source hand (1) in mode ``seed`` (bloody_kong), corrected where its tiles do not add up.

    The source has you pung a discarded 二條 while holding three, then *draw* a 二條 and add it to the pung:
    a fifth 二條. Corrected minimally: the tile drawn there is 五條, and the 二條 added to the pung is the third
    one you kept when you punged (R4.1: the fourth tile of an added kong may be one held from before). The
    hand keeps its wait either way (345條 instead of 234條). "你摸上來的牌無用，棄之" then reads as your next
    draw: a robbed kong gets no replacement (R9.3), and since the robber sits just before you, play goes on
    with your own draw (R9.7), a useless 六條 you discard. The unnamed players: seat 1 discards the 二條, seats 1
    and 2 put the two 六筒 in the pool, seat 3 robs the kong with 123條 (1s3s waiting on 2s).

    Settlement, base 1 (R6, R8, R9.4):
      抢杠 (R8.3, R6.4): seat 3's 123s 111m 456m 789m 99m = 平胡 0 fan, x1: 抢杠 adds no fan in the source's
        presets (R7 robbing_kong_fan 0); you pay 1 as the discarder, and the robbed kong pays nothing.
      暗杠 8p (R6.3): 2 x base from each player still in: seats 1 and 2 pay 2 each; seat 3 has won (R8.4).
      杠上花: [pung 2s][暗杠 8p] 345s 22p 345p on 5p = 平胡 0 + 根 1 (the 8p kong) + 杠上花 1 = 2 fan, x4,
        a self-draw paid by the players still in: seats 1 and 2 pay 4 each.
      Seats 1 and 2 then play out the wall, never ready (three suits): 查叫 moves nothing, no kong to refund.
      You: -1 + 2 + 2 + 4 + 4 = +11; seat 1: -6; seat 2: -6; seat 3: +1. Seat 3 won first, alone: he deals next.
    """
    rules = sm.Rules.preset("seed")
    g = sm.Game.setup(rules, hands=HAND_ONE, wall=HAND_ONE_WALL, dealer=0, seed=13, replacements="5p")
    assert g.phase == "play" and list(g.to_act()) == [0]  # nobody is ready after the deal: no 报叫

    # 缺一门 by play: the pair of 5m goes, one per turn.
    step(g, 0, "discard 5m")
    turn(g, 1, "7m", "6p")
    turn(g, 2, "3s", "6p")
    turn(g, 3, "2m", "2m")
    turn(g, 0, "4s", "5m")
    assert all(t.suit != "m" for t in g.view(0).tiles)
    turn(g, 1, "1s", "1s")
    turn(g, 2, "9s", "9s")
    turn(g, 3, "3m", "3m")
    # 3p drawn: the bamboo are settled, so 9p goes rather than playing for one suit in dots.
    turn(g, 0, "3p", "9p")
    assert g.view(0).tiles == tuple(sm.parse_tiles("2p2p3p4p6p8p8p8p2s2s2s3s4s"))

    # Someone discards 2s: you hold three and pung it (R4.4), keeping the third.
    assert g.view(1).drawn == T("4p")
    step(g, 1, "discard 2s")
    assert g.to_act() == {0: [sm.Action.parse(a) for a in ("kong", "pung", "pass")]}
    wall_before = g.view(0).wall_count
    step(g, 0, "pung")
    me = g.view(0)
    assert me.melds[0] == (sm.Meld.parse("pung 2s"),) and me.drawn is None and me.wall_count == wall_before
    assert me.tiles.count(T("2s")) == 1 and g.view(0).discards[1] == (T("6p"), T("1s"))  # the 2s left his river
    assert all(a.kind is sm.ActionKind.DISCARD for a in g.to_act()[0])  # R4.3: discard, no draw, no kong

    # The choice of discard by its waits: 2p leaves 六七筒, 6p leaves 二五筒. The pool has two 6p, no 2p.
    pool = [t for river in me.discards for t in river]
    assert pool.count(T("6p")) == 2 and pool.count(T("2p")) == 0
    assert waits_of(g, 0, without="2p") == ["6p", "7p"]
    assert waits_of(g, 0, without="6p") == ["2p", "5p"]
    assert me.tiles.count(T("8p")) == 3  # either way an 8p from anyone could be konged
    step(g, 0, "discard 6p")
    assert waits_of(g, 0) == ["2p", "5p"]

    turn(g, 1, "8s", "8s")
    turn(g, 2, "1p", "1p")
    turn(g, 3, "9m", "7p")
    assert waits_of(g, 3) == ["2s"]

    # You draw (the corrected 5s) and add the 2s you kept to your pung: seat 3 robs it (R9.3).
    assert list(g.to_act()) == [0] and g.view(0).drawn == T("5s")
    assert "added_kong 2s" in [str(a) for a in g.to_act()[0]]
    step(g, 0, "added_kong 2s")
    assert g.phase == "rob" and g.to_act() == {3: [HU, PASS]}
    step(g, 3, "hu")
    assert paid(g) == [(0, 3, 1, "R8.3")]  # the robbed kong pays as a discard; no kong money (R6.4)
    assert [(w.seat, w.tile, w.from_seat, w.robbed_kong) for w in g.view(0).wins] == [(3, T("2s"), 0, True)]
    me = g.view(0)
    assert me.melds[0] == (sm.Meld.parse("pung 2s"),) and T("2s") not in me.tiles  # the pung stays a pung
    assert me.active == (True, True, True, False)
    # Play goes on after the robber, i.e. with you (R9.7): the tile you draw is useless. With the 5s kept
    # (345s), you still wait on 二五筒.
    assert list(g.to_act()) == [0] and me.drawn == T("6s")
    assert waits_of(g, 0, without="6s") == ["2p", "5p"]
    turn(g, 0, "6s", "6s")
    turn(g, 1, "2m", "2m")
    turn(g, 2, "3p", "3p")

    # The fourth 8p: concealed kong (R6.3; seat 3 has won and pays nothing, R8.4), then 5p from the far end.
    assert list(g.to_act()) == [0] and g.view(0).drawn == T("8p")
    step(g, 0, "concealed_kong 8p")
    assert paid(g, 1) == [(1, 0, 2, "R6.3"), (2, 0, 2, "R6.3")]
    me = g.view(0)
    assert me.drawn == T("5p") and me.melds[0][-1] == sm.Meld.parse("concealed_kong 8p")
    assert g.view(1).melds[0] == (sm.Meld.parse("pung 2s"),) and g.view(1).hidden_kongs[0] == 1
    assert g.to_act()[0][0] is HU
    step(g, 0, "hu")  # 杠上花
    assert paid(g, 3) == [(1, 0, 4, "R8.2"), (2, 0, 4, "R8.2")]
    assert g.view(0).wins[-1].fan == 2 and not g.is_over  # bloody: seats 1 and 2 play on

    play_out(g)
    assert g.result.reason == "wall" and g.result.ready == (False, False, False, False)
    assert len(g.result.payments) == 5  # nothing at the wall's end: neither is ready, neither konged
    assert patterns(g, 0) == [("pinghu", 0), ("gen", 1), ("gangshanghua", 1)]
    assert patterns(g, 3) == [("pinghu", 0)]  # R7: no 抢杠 fan in the source's presets
    assert g.result.deltas == (11, -6, -6, 1)
    assert g.result.next_dealer == 3


# --------------------------------------------------------------------------------------------- hand two
HAND_TWO = [
    "4m9m1p2p3p4p7p8p9p1s2s3s7s9s",  # the dealer: discards the 4m you pung
    "1m1m2m4m5m7m8m5p6p4s4s5s5s",  # you: the source's thirteen tiles
    "4s6m9m1p2p5p7p8p1s2s6s8s9s",  # discards the 4s you decline
    "1m7m3p4p6p9p3s5s6s7s8s2m6m",  # discards the 1m you pung
]
# Your draws: 4m, 8m, 6m, 1m, and last 3m; the others draw tiles nobody can use.
HAND_TWO_WALL = "4m5m7m 9m8m2m5m 1p6m3s2p 3p1m6p9s 7p8p6s 9p1s2s3m"


def test_r13_hand_two_declined_pung_two_pungs_one_suit_with_root_edge_wait_self_draw() -> None:
    """Source hand (2): you are seat 1, not the dealer; mode ``standard``, where the hand ends at your win.

    Its tiles add up as told: your two 4s, a third discarded and declined, the fourth never seen; 1m: two
    dealt, one drawn, one punged. The unnamed players: seat 2 discards the 4s, seat 3 the 1m, the dealer the 4m.

    Settlement, base 1: [pung 1m][pung 4m] 1m2m3m 5m6m7m 8m8m on a self-drawn 3m (边三万) =
    清一色 2 + 根 1 (the 1m pung and the fourth 1m in hand) = 3 fan, x8; a self-draw: the three others pay
    8 each (R8.2). Deltas: you +24, the others -8. You won, alone: you deal next (R2.5).
    """
    g = sm.Game.setup(sm.Rules.preset("standard"), hands=HAND_TWO, wall=HAND_TWO_WALL, dealer=0, seed=13)
    assert g.phase == "play"

    # 缺一门 by play: 5p, then 6p; 4m and 8m come in: five pairs.
    step(g, 0, "discard 9m")
    turn(g, 1, "4m", "5p")
    turn(g, 2, "5m", "5m")
    turn(g, 3, "7m", "7m")
    turn(g, 0, "9m", "9m")
    turn(g, 1, "8m", "6p")
    mine = g.view(1).tiles
    assert all(t.suit != "p" for t in mine) and sum(mine.count(t) == 2 for t in set(mine)) == 5
    turn(g, 2, "2m", "2m")
    turn(g, 3, "5m", "5m")

    # 6m drawn: playing for one suit in characters, a 5s goes.
    turn(g, 0, "1p", "1p")
    turn(g, 1, "6m", "5s")
    # A 4s comes out: you decline the pung.
    assert g.view(2).drawn == T("3s")
    step(g, 2, "discard 4s")
    assert g.to_act() == {1: [sm.Action.parse("pung"), PASS]}
    step(g, 1, "pass")
    assert g.view(1).melds[1] == () and g.view(1).discards[2][-1] == T("4s")
    turn(g, 3, "2p", "2p")

    # You draw your third 1m; the other 5s goes.
    turn(g, 0, "3p", "3p")
    turn(g, 1, "1m", "5s")
    turn(g, 2, "6p", "6p")
    # A 1m comes out: pung (holding three; no kong in mode standard), then a 4s.
    assert g.view(3).drawn == T("9s")
    step(g, 3, "discard 1m")
    assert g.to_act() == {1: [sm.Action.parse("pung"), PASS]}
    step(g, 1, "pung")
    assert g.view(1).melds[1] == (sm.Meld.parse("pung 1m"),) and g.view(1).tiles.count(T("1m")) == 1
    step(g, 1, "discard 4s")
    turn(g, 2, "7p", "7p")
    turn(g, 3, "8p", "8p")

    # A 4m comes out: pung, then the last 4s. Ready on 边三万 (12m) alone.
    assert g.view(0).drawn == T("6s")
    step(g, 0, "discard 4m")
    assert g.to_act() == {1: [sm.Action.parse("pung"), PASS]}
    step(g, 1, "pung")
    step(g, 1, "discard 4s")
    assert g.view(1).melds[1] == (sm.Meld.parse("pung 1m"), sm.Meld.parse("pung 4m"))
    assert waits_of(g, 1) == ["3m"]
    assert all(t.suit == "m" for t in g.view(1).tiles)
    turn(g, 2, "9p", "9p")
    turn(g, 3, "1s", "1s")
    turn(g, 0, "2s", "2s")

    # 自摸 the 3m.
    assert g.view(1).drawn == T("3m") and g.to_act()[1][0] is HU
    step(g, 1, "hu")
    assert g.is_over and g.result.reason == "win"
    assert patterns(g, 1) == [("qingyise", 2), ("gen", 1)]
    assert paid(g) == [(2, 1, 8, "R8.2"), (3, 1, 8, "R8.2"), (0, 1, 8, "R8.2")]
    assert g.result.deltas == (-8, 24, -8, -8)
    assert g.result.next_dealer == 1
