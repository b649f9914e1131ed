"""Match (docs/rules.md R11): dealer rotation by R2.5, running totals that always sum to zero, seeds, misuse."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import ActionKind
from sichuan_mahjong.match import Match, MatchError, hand_seed

PRESET_NAMES = sorted(sm.PRESETS)
Chooser = Callable[[sm.Observation, Sequence[sm.Action]], sm.Action]


def chooser(seed: int) -> Chooser:
    """Random, except that it always wins when it may and discards towards a ready hand: wins happen often."""
    rng = random.Random(seed)

    def act(view: sm.Observation, legal: Sequence[sm.Action]) -> sm.Action:
        if sm.Action.parse("hu") in legal:
            return sm.Action.parse("hu")
        if all(a.kind is ActionKind.DISCARD for a in legal):
            tiles = list(view.tiles)
            best: list[sm.Action] = []
            best_shanten = 99
            for a in legal:
                assert a.tile is not None
                rest = list(tiles)
                rest.remove(a.tile)
                s = sm.shanten(rest, view.melds[view.seat])
                if s < best_shanten:
                    best, best_shanten = [a], s
                elif s == best_shanten:
                    best.append(a)
            return rng.choice(best)
        return rng.choice(list(legal))

    return act


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda view, legal: rng.choice(list(legal))


def first_win_group(events: Sequence[sm.Event]) -> list[sm.Event]:
    """The first win and the wins on the same discard (一炮多响): consecutive win events, payments between."""
    group: list[sm.Event] = []
    for e in events:
        if e.type == "win":
            group.append(e)
        elif group and e.type != "payment":
            break
    return group


def dealer_by_r25(game: sm.Game) -> int:
    """R2.5 read straight from the events, independently of the engine's own next_dealer."""
    group = first_win_group(game.events)
    if not group:
        return game.dealer if game.rules.dealer_after_draw == "stay" else (game.dealer + 1) % 4
    if len(group) > 1:
        discarder = group[0].data["from_seat"]
        assert discarder is not None and all(e.data["from_seat"] == discarder for e in group)
        return int(discarder)
    return group[0].seat


def check_match(m: Match) -> None:
    """Everything R2.5 and R11 say about a finished (or partly played) match."""
    totals = [0, 0, 0, 0]
    for i, game in enumerate(m.games):
        assert game.seed == hand_seed(m.seed, i)
        assert game.base == m.base
        if i == 0:
            assert game.dealer_rolls is not None  # R2.2: the first dealer comes from dice
        else:
            previous = m.games[i - 1]
            assert game.dealer_rolls is None
            assert game.dealer == previous.result.next_dealer == dealer_by_r25(previous)
        if game.is_over:
            assert sum(game.result.deltas) == 0
            totals = [t + d for t, d in zip(totals, game.result.deltas, strict=True)]
    assert m.totals == totals
    assert sum(m.totals) == 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_match_rotates_dealer_by_r25_and_totals_sum_to_zero(preset: str) -> None:
    kinds: set[str] = set()
    for seed in range(3):
        m = Match(sm.Rules.preset(preset), hands=8, base=2, seed=seed)
        agents = [chooser(seed * 4 + s) for s in range(4)]
        hands_seen = 0

        def after_step(game: sm.Game, m: Match = m) -> None:
            assert game is m.games[-1]
            assert sum(m.totals) == 0

        while not m.is_over:
            game = m.next_game()
            assert m.hand_index == hands_seen and m.game is game and m.dealer == game.dealer
            assert m.next_dealer is None
            while not game.is_over:
                game.step({s: agents[s](game.view(s), legal) for s, legal in game.to_act().items()})
                after_step(game)
            hands_seen += 1
            assert m.next_dealer == game.result.next_dealer
            assert len(m.results) == hands_seen
            check_match(m)  # after every hand
            group = first_win_group(game.events)
            kinds.add("draw" if not group else "multi" if len(group) > 1 else "single")
        assert len(m.games) == 8 and m.is_over
        assert all(p.amount % 2 == 0 for r in m.results for p in r.payments)  # base 2 multiplies everything
    assert "single" in kinds  # wins happen, so R2.5's first-winner rule is exercised under every preset


def test_one_discard_winning_several_makes_the_discarder_deal_scripted() -> None:
    """一炮多响 (R2.5): seat 1's 4p wins seats 2 and 3; seat 1 (neither the dealer nor a winner) deals next."""
    rules = sm.Rules.preset("standard").replace(declare_ready=False)
    game = sm.Game.setup(
        rules,
        [
            "2m3m5m6m7m6p7p8p9p2s2s5s6s9s",  # dealer 0: three suits, discards 9p
            "4p4m7m8m9m1s3s4s7s8s6p7p8p",  # seat 1 draws 5m, discards 4p
            "1m2m3m4m5m6m7m8m9m1p1p2p3p",  # seat 2 waits 1p/4p
            "1s2s3s4s5s6s7s8s9s5p5p2p3p",  # seat 3 waits 1p/4p
        ],
        wall="5m",
        dealer=0,
    )
    game.step({0: "discard 9p"})
    game.step({1: "discard 4p"})
    assert set(game.to_act()) == {2, 3}
    game.step({2: "hu", 3: "hu"})
    assert game.is_over
    assert [e.seat for e in first_win_group(game.events)] == [2, 3]
    assert dealer_by_r25(game) == game.result.next_dealer == 1
    m = Match(rules, hands=2)
    m.games.append(game)  # a scripted first hand: next_game must follow its result
    assert m.next_dealer == 1
    assert m.next_game().dealer == 1
    assert m.totals == list(game.result.deltas)


@pytest.mark.parametrize("preset", ["standard", "app"])
def test_one_discard_winning_several_in_seeded_matches(preset: str) -> None:
    """The same over seeded play: the first 一炮多响 found in a few matches makes its discarder deal."""
    for seed in range(40):
        m = Match(sm.Rules.preset(preset), hands=8, seed=seed)
        m.play([chooser(seed * 4 + s) for s in range(4)])
        check_match(m)
        for i, game in enumerate(m.games[:-1]):
            group = first_win_group(game.events)
            if len(group) > 1:
                assert m.games[i + 1].dealer == group[0].data["from_seat"]
                assert m.games[i + 1].dealer not in {e.seat for e in group}
                return
    pytest.fail(f"no 一炮多响 in 40 seeded {preset} matches: pick a wider range")


def test_drawn_hand_follows_dealer_after_draw_option() -> None:
    for option in ("stay", "next"):
        rules = sm.Rules.preset("standard").replace(dealer_after_draw=option)
        seen = 0
        for seed in range(6):
            m = Match(rules, hands=4, seed=seed)
            m.play([random_chooser(seed * 4 + s) for s in range(4)])  # random play: many drawn hands
            check_match(m)
            for before, after in zip(m.games, m.games[1:], strict=False):
                if before.result.reason == "wall" and not before.result.wins:
                    shift = 0 if option == "stay" else 1
                    assert after.dealer == (before.dealer + shift) % 4
                    seen += 1
        assert seen > 0


def test_play_accepts_bots_and_functions_and_resumes_a_hand_in_play() -> None:
    class Bot:
        name = "first"

        def act(self, view: sm.Observation, legal: Sequence[sm.Action]) -> sm.Action:
            return legal[-1]  # pass rather than claim; the last discard option otherwise

    m = Match(sm.Rules.preset("bloody_kong"), hands=3, seed=9)
    game = m.next_game()
    game.step({s: legal[0] for s, legal in game.to_act().items()})
    steps: list[int] = []
    totals = m.play([Bot(), chooser(1), Bot(), chooser(2)], on_step=lambda g: steps.append(len(g.events)))
    assert m.is_over and m.games[0] is game and len(m.games) == 3
    assert totals == m.totals and sum(totals) == 0
    assert len(steps) > 3 * 4  # on_step ran after every step of every hand
    assert m.play([Bot()] * 4) == totals  # nothing left to play


def test_same_seed_same_match_and_hand_seeds_distinct() -> None:
    def run(seed: int) -> list[list[sm.Event]]:
        m = Match(sm.Rules(), hands=3, seed=seed)
        m.play([chooser(s) for s in range(4)])
        return [g.events for g in m.games]

    assert run(4) == run(4)
    assert run(4)[0] != run(5)[0]
    seeds = {hand_seed(ms, i) for ms in range(50) for i in range(8)}
    assert len(seeds) == 400  # neighbouring match seeds never share a hand
    assert all(0 <= s < 2**63 for s in seeds)
    assert hand_seed(0, 0) == hand_seed(0, 0)


def test_misuse_raises() -> None:
    m = Match(sm.Rules(), hands=1)
    assert m.hand_index == -1 and m.dealer is None and m.game is None and m.totals == [0, 0, 0, 0]
    game = m.next_game()
    with pytest.raises(MatchError, match="still in play"):
        m.next_game()
    m.play([chooser(0)] * 4)
    assert game.is_over
    with pytest.raises(MatchError, match="match is over"):
        m.next_game()
    for bad in ({"hands": 0}, {"base": 0}, {"hands": True}):
        with pytest.raises(ValueError):
            Match(sm.Rules(), **bad)
    with pytest.raises(ValueError, match="four agents"):
        Match(sm.Rules()).play([chooser(0)] * 3)
