"""The table's own words for a refused choice (refusals.py), zh and en, from scripted hands.

Each refusal a player can hit is checked against a real game state where the engine refuses the same choice;
the hard-to-reach ones (后4张必胡) take a real view with only the legal answers and wall changed.
"""

from __future__ import annotations

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game import Action, Game, IllegalActionError, Observation
from sichuan_mahjong.refusals import refusal

A = Action.parse
NO_READY = sm.Rules(declare_ready=False)
#: Seat 3 deals and discards 5p first; seat 0 holds two 5p (three suits), seat 1 one 5p.
CLAIM_HANDS = [
    "1m1m5p5p7p8p9p1s2s3s4s5s6s",
    "2m5m8m5p1s4s7s9s1p3p6m9p2s",
    "2p3p4p6p7p8p9p9p3s3s7s7s7s",
    "5p1m1m2m3m4m5m6m7m8m9m9m9m4p",
]


def both(action: Action, view: Observation) -> tuple[str | None, str | None]:
    return refusal(action, view, "zh", "compact"), refusal(action, view, "en", "compact")


def engine_refuses(game: Game, seat: int, action: Action) -> None:
    """The engine refuses it too (and the table's words are what a player reads instead)."""
    answers = {s: legal[-1] for s, legal in game.to_act().items() if s != seat}
    answers[seat] = action
    before = len(game.events)
    with pytest.raises(IllegalActionError):
        game.step(answers)
    assert len(game.events) == before


def claim_game(rules: sm.Rules = NO_READY, hands: list[str] = CLAIM_HANDS) -> Game:
    game = Game.setup(rules, hands, dealer=3, seed=1)
    game.step({3: A("discard 5p")})
    assert game.view(0).phase == "claim" and game.view(0).pending_tile == sm.Tile.from_str("5p")
    return game


def test_a_legal_choice_is_not_refused() -> None:
    game = claim_game()
    assert refusal(A("pung"), game.view(0), "zh", "compact") is None
    assert refusal(A("pass"), game.view(0), "en", "compact") is None


def test_not_your_turn() -> None:
    game = Game(seed=1)  # seat 3 deals
    zh, en = both(A("discard 5p"), game.view(0))
    assert zh == "还没轮到你：上家(3)正在出牌"
    assert en == "It is not your turn: Left (3) is to play"
    engine_refuses(game, 0, A("discard 5p"))


def test_a_tile_not_in_your_hand() -> None:
    game = Game.setup(NO_READY, CLAIM_HANDS, dealer=3, seed=1)
    view = game.view(3)
    assert both(A("discard 9s"), view) == ("你手里没有 9s", "You hold no 9s")
    engine_refuses(game, 3, A("discard 9s"))


def test_a_claim_must_be_answered_before_a_discard() -> None:
    game = claim_game()
    zh, en = both(A("discard 1m"), game.view(0))
    assert zh == "现在不是出牌的时候：上家(3)打出 5p，请选 p 碰、x 过"
    assert en == "Not time to discard: Left (3) discarded 5p; answer p pung / x pass"


def test_cannot_pung_or_kong_with_too_few() -> None:
    game = claim_game()
    assert both(A("kong"), game.view(0)) == ("你只有 2 张 5p，杠要 3 张", "You hold 2 × 5p: a kong needs 3")
    engine_refuses(game, 0, A("kong"))
    # seat 1 holds one 5p: it is not even asked, and a pung is refused with the count
    assert both(A("pung"), game.view(1)) == ("你只有 1 张 5p，碰要 2 张", "You hold 1 × 5p: a pung needs 2")


def test_cannot_pung_without_a_discard() -> None:
    game = Game.setup(NO_READY, CLAIM_HANDS, dealer=3, seed=1)
    zh, en = both(A("pung"), game.view(3))
    assert zh == "没有可以碰的牌：碰要等别家刚打出的牌"
    assert en == "There is no discard to pung: you pung another's discard"


def test_no_kongs_in_the_standard_mode() -> None:
    hands = ["5p5p5p1m1m7p8p9p1s2s3s4s5s", "2m5m8m6p1s4s7s9s1p3p6m9p2s", *CLAIM_HANDS[2:]]
    game = claim_game(sm.Rules.preset("standard").replace(declare_ready=False), hands)
    zh, en = both(A("kong"), game.view(0))
    assert zh == "标准打法没有杠：四张相同只算一个根"
    assert en == "The mode standard has no kongs: four of a kind counts only as a root (根)"
    engine_refuses(game, 0, A("kong"))


def test_hu_on_a_tile_that_does_not_win_or_with_three_suits() -> None:
    game = claim_game()
    assert both(A("hu"), game.view(0)) == (
        "三门都有，不能胡：要缺一门",
        "You hold all three suits: a winning hand has at most two",
    )
    hands = ["1m1m5p5p7p8p9p1p2p3p4p6p6m", *CLAIM_HANDS[1:]]  # two suits, not winning on 5p
    game = claim_game(NO_READY, hands)
    assert both(A("hu"), game.view(0)) == ("5p 胡不了你的牌", "5p does not complete your hand")
    engine_refuses(game, 0, A("hu"))


def test_after_a_pung_you_discard_first() -> None:
    game = claim_game()
    game.step({0: A("pung")})
    view = game.view(0)
    assert view.phase == "play" and view.turn == 0
    assert both(A("hu"), view) == ("碰牌后要先打出一张", "After a pung you must discard first")
    zh, en = both(A("pass"), view)
    assert zh is not None and zh.startswith("轮到你出牌") and en is not None and "nothing to pass" in en


def test_the_void_suit_goes_first() -> None:
    rules = sm.Rules(declare_void=True, declare_ready=False)
    game = Game.setup(rules, [CLAIM_HANDS[3], *CLAIM_HANDS[:3]], dealer=0, seed=1)
    assert game.view(0).phase == "void"
    assert both(A("discard 5p"), game.view(0)) == (
        "先定缺：按 m、p 或 s 选缺哪门",
        "First choose your void suit: m, p or s",
    )
    game.step({0: A("void p"), 1: A("void m"), 2: A("void m"), 3: A("void m")})
    zh, en = both(A("discard 1m"), game.view(0))
    assert zh == "要先打完缺的那门（筒），才能打别的牌"
    assert en == "Tiles of your void suit (dots) go first: discard them before any other"
    engine_refuses(game, 0, A("discard 1m"))


def test_declared_ready_discards_the_drawn_tile_and_claims_nothing() -> None:
    # seat 0 is ready after the deal (waits 6p 9p) and declares 报叫; seat 3 deals and discards 8s, which
    # seat 2 may pung; seat 0 then draws 3s
    hands = [
        "1m1m2m3m4m5m6m7m2p3p4p7p8p",
        "2m5m8m5p1s4s7s9s1p3p6m9p2s",
        "2p3p4p6p7p8p9p9p3s3s8s8s7s",
        "8s5p2m3m4m5m6m7m8m9m9m9m4p1s",
    ]
    game = Game.setup(sm.Rules(), hands, wall="3s", dealer=3, seed=1)
    asked = game.to_act()
    assert A("declare_ready") in asked[0]
    game.step({s: A("declare_ready") if s == 0 else A("pass") for s in asked})
    game.step({3: A("discard 8s")})
    view = game.view(0)
    assert view.phase == "claim" and view.ready[0]
    assert both(A("pung"), view) == ("报叫后只能胡，不能碰", "After declaring ready you may only win, not pung")
    game.step({2: A("pass")})
    view = game.view(0)
    assert view.turn == 0 and view.drawn == sm.Tile.from_str("3s")
    zh, en = both(A("discard 1m"), view)
    assert zh == "报叫后只能打摸到的牌 3s"
    assert en == "After declaring ready you may only discard the tile you drew, 3s"
    engine_refuses(game, 0, A("discard 1m"))
    assert both(A("kong"), view)[0] == "报叫后不能杠"
    assert both(A("declare_ready"), view) == ("你已经报叫了", "You have already declared ready")


#: Seat 1 deals and discards 9p, which seat 0 (waiting on 6p 9p) may win on; seat 2 draws 9p next.
PASS_HANDS = [
    "1m1m2m3m4m5m6m7m2p3p4p7p8p",
    "9p5m8m5p1s4s7s9s1p3p6m2s2m1s",
    "2p3p4p6p7p8p3s3s8s8s7s5s6s",
    "1m2m3m4m5m6m7m8m9m9p9p4p1s",
]


def passed_win_game() -> Game:
    """Seat 0 passed a win on seat 1's 9p; seat 2 discards 9p too, which seat 3 could pung: seat 0 is locked."""
    game = Game.setup(NO_READY, PASS_HANDS, wall="9p", dealer=1, seed=1)
    game.step({1: A("discard 9p")})
    assert A("hu") in game.to_act()[0]
    game.step({s: A("pass") for s in game.to_act()})
    game.step({2: A("discard 9p")})
    return game


def test_a_passed_win_locks_discards_until_the_next_draw() -> None:
    game = passed_win_game()
    view = game.view(0)
    assert view.phase == "claim" and A("hu") not in view.legal
    assert view.pass_lock == 0  # the engine's lock, in seat 0's own view: a 0-fan (平胡) win was passed
    zh, en = both(A("hu"), view)
    assert zh == "过水不胡：你放过了一次 0 番的胡，自己再摸牌之前，胡别人打的牌要超过 0 番"
    assert en == "过水不胡 (R9.1): you passed a 0-fan win; until your next draw a win on a discard must beat 0 fan"
    engine_refuses(game, 0, A("hu"))
    # the words name the lock the view carries, whatever its fan
    assert both(A("hu"), view._replace(pass_lock=2))[1] == (
        "过水不胡 (R9.1): you passed a 2-fan win; until your next draw a win on a discard must beat 2 fan"
    )


def test_a_refused_win_is_not_blamed_on_a_pass_without_the_lock() -> None:
    # the same moment with the lock taken out of the view: the tiles would win, but the table does not guess
    # 过水不胡 from them any more; with no words of its own it leaves the engine's reason
    game = passed_win_game()
    view = game.view(0)._replace(pass_lock=None)
    assert both(A("hu"), view) == (None, None)
    # and a tile that does not win is still "does not complete", lock or not
    locked = game.view(0)
    assert locked.pending_tile is not None
    other = locked._replace(pending_tile=sm.Tile.from_str("5m"))
    assert both(A("hu"), other)[1] == "5m does not complete your hand"


def test_must_win_with_four_tiles_left() -> None:
    game = claim_game()
    view = game.view(0)._replace(legal=(A("hu"),), wall_count=3)
    zh, en = both(A("pass"), view)
    assert zh == "后4张必胡：牌墙只剩 3 张，你听的牌来了，只能胡（h）"
    assert en is not None and en.startswith("后4张必胡 (R9.2): 3 tiles left")


def test_declare_ready_only_at_the_start() -> None:
    game = Game(seed=1)
    zh, en = both(A("declare_ready"), game.view(3))
    assert zh is not None and zh.startswith("报叫只在开局") and en is not None and en.startswith("报叫 is only")
    off = Game(seed=1, rules=NO_READY)
    assert both(A("declare_ready"), off.view(3)) == ("这套规则不能报叫", "These rules have no declaring ready (报叫)")


def test_anything_else_falls_back_to_the_engine() -> None:
    game = Game(seed=1)
    assert refusal(A("void m"), game.view(3), "zh", "compact") is None
    engine_refuses(game, 3, A("void m"))
