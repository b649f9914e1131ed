"""game/sample.py: a mid-hand Game drawn from one seat's view agrees with that view and plays on legally."""

from __future__ import annotations

import copy
import random

import pytest

import sichuan_mahjong as sm
from played import decision_views
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game.events import TILE_TEXT
from sichuan_mahjong.game.sample import (
    SHED,
    SampleError,
    _implied_void,
    empty_suit,
    sample_game,
    seat_streams,
    unseen_pool,
)
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import let_pass
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.tiles import POW5

#: Every field of a view that the sample must reproduce (all but ``rules``, ``base`` and ``exchanged``).
PUBLIC = (
    "seat",
    "dealer",
    "phase",
    "turn",
    "pending_tile",
    "hand",
    "drawn",
    "melds",
    "hidden_kongs",
    "concealed_counts",
    "discards",
    "wall_count",
    "scores",
    "wins",
    "voids",
    "ready",
    "active",
    "legal",
    "pass_lock",
)


def tile_counts(game: Game) -> list[int]:
    """Copies of each kind anywhere in a game: hands, melds, rivers, wall (a tile won on counted once)."""
    used = [0] * 27
    for s in range(4):
        for t, n in enumerate(game._counts[s]):
            used[t] += n
        for m in game._melds[s]:
            used[m.tile_index] += m.size
        for t in game._rivers[s]:
            used[t] += 1
    for t in game._wall[game._head : game._tail]:
        used[t] += 1
    return used


@pytest.mark.parametrize("preset", ["seed", "app", "bloody", "standard_kong"])
@pytest.mark.parametrize("inferred", [False, True])
def test_sample_agrees_with_the_view_and_plays_on(preset: str, inferred: bool) -> None:
    rng = random.Random(1)
    checked = played = 0
    for _, view in decision_views(preset, range(3)):
        game = sample_game(view, rng, implied_voids=inferred, shaped=30 if inferred else 0)
        again = game.view(view.seat)
        for name in PUBLIC:
            assert getattr(again, name) == getattr(view, name), name
        # Every kind has at most four copies; wins on one discard by several seats share one tile.
        used = tile_counts(game)
        extra = len(view.wins)
        assert max(used) <= 4 + extra and sum(used) <= 108 + extra
        checked += 1
        if checked % 7 == 0:
            bots = [make_agent("efficient", seed=s) for s in range(4)]
            while not game.is_over:
                game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
            assert sum(game.result.deltas) == 0
            played += 1
    assert checked > 100 and played > 10


@pytest.mark.parametrize("shaped", [0, 30])
def test_sample_draws_only_from_the_unseen_tiles(shaped: int) -> None:
    """The others' hands and the wall together are exactly the tiles this seat cannot account for."""
    rng = random.Random(2)
    n = 0
    for _, view in decision_views("seed", range(2)):
        if view.wins or any(view.hidden_kongs):
            continue
        game = sample_game(view, rng, implied_voids=True, shaped=shaped)
        hidden = [0] * 27
        for s in range(4):
            if s != view.seat:
                for t, c in enumerate(game._counts[s]):
                    hidden[t] += c
        for t in game._wall[game._head : game._tail]:
            hidden[t] += 1
        assert hidden == unseen_pool(view)
        n += 1
    assert n > 50


def test_sample_varies_the_hidden_tiles_but_is_seeded() -> None:
    _, view = next(v for v in decision_views("seed", range(1)) if v[1].wall_count < 40)
    a = sample_game(view, random.Random(5))
    b = sample_game(view, random.Random(5))
    c = sample_game(view, random.Random(6))
    others = [s for s in range(4) if s != view.seat]
    assert [a._counts[s] for s in others] == [b._counts[s] for s in others] and a._wall == b._wall
    assert [a._counts[s] for s in others] != [c._counts[s] for s in others] or a._wall != c._wall


def test_void_and_ready_are_respected() -> None:
    """定缺: a seat whose last discard is off its void holds none of it; 报叫: a declared seat is ready."""
    rng = random.Random(3)
    voids = ready = 0
    for _, view in decision_views("app", range(6)):
        game = sample_game(view, rng)
        for s in range(4):
            if s == view.seat or not view.active[s]:
                continue
            v = view.voids[s]
            river = view.discards[s]
            if v is not None and river and river[-1].index // 9 != v and not view.wins:
                assert not any(game._counts[s][v * 9 : v * 9 + 9]), (s, v)
                voids += 1
            if view.ready[s]:
                keys = [sum(game._counts[s][u * 9 + r] * POW5[r] for r in range(9)) for u in range(3)]
                melds = game._melds[s]
                assert shanten_keys(keys, len(melds), game._meld_suits[s], game._voids[s]) == 0
                ready += 1
    assert voids > 50


def test_only_decisions_of_the_hand_in_play_are_sampled() -> None:
    game = Game(sm.Rules.preset("app"), seed=1)
    with pytest.raises(SampleError, match="only a view in play, claim or rob"):
        sample_game(game.view(0), random.Random(0))
    game = Game(sm.Rules(), seed=1)
    idle = next(s for s in range(4) if s not in game.to_act())
    with pytest.raises(SampleError, match=f"seat {idle} is not asked"):
        sample_game(game.view(idle), random.Random(0))


def test_waits_make_a_ready_hand_win_on_the_tile_drawn() -> None:
    """With ``waits``, a seat drawn ready waits on a kind drawn with those odds: given all the odds on one kind,
    most ready samples win on it (the rest could not be built in ``WAIT_STEPS`` turns) and the tiles still add
    up; without, few do."""
    rng = random.Random(7)
    n = on_it = by_chance = 0
    for _, view in decision_views("app", range(3)):
        if view.phase != "play" or len(view.discards[view.seat]) < 3 or view.wins or any(view.hidden_kongs):
            continue
        waits = [[0.0] * 27 for _ in range(4)]
        targets = [rng.choice([t for t in range(27) if t // 9 != view.voids[s]]) for s in range(4)]
        for s, t in enumerate(targets):
            waits[s][t] = 1.0
        shaped = sample_game(view, rng, ready_odds=[1.0] * 4, waits=waits)
        plain = sample_game(view, rng, ready_odds=[1.0] * 4)
        assert tile_counts(shaped) == [4] * 27
        for s in range(4):
            if s != view.seat and view.active[s]:
                n += 1
                on_it += shaped._counts[s][targets[s]] < 4 and shaped._wins_with(s, targets[s])
                by_chance += plain._counts[s][targets[s]] < 4 and plain._wins_with(s, targets[s])
    assert n > 60
    assert on_it / n > 0.7 and by_chance / n < 0.2


def _room(game: Game, view: sm.Observation, o: int, k: int) -> int:
    """The copies of kind k seat o can hold in a sample: the unseen ones no other sampled hand holds, at most
    its concealed count."""
    left = unseen_pool(view)[k] - sum(game._counts[s][k] for s in range(4) if s not in (o, view.seat))
    return min(left, view.concealed_counts[o])


def test_holding_weights_deal_what_they_favour() -> None:
    """``holding`` weighs each seat's deal: a kind weighted a million times over goes to that seat whole (every
    unseen copy the seats dealt before it left, as many as its hand has room for), one weighted a millionth not
    at all; the tiles still add up. At even weights a seat gets all of them far less often."""
    rng = random.Random(3)
    n = whole = none = by_chance = 0
    for _, view in decision_views("app", range(3)):
        if view.phase != "play" or view.wins or any(view.hidden_kongs):
            continue
        pool = unseen_pool(view)
        for o in range(4):
            if o == view.seat or not view.active[o]:
                continue
            kinds = [t for t in range(27) if pool[t] >= 2 and t // 9 != empty_suit(view, o)]
            if not kinds:
                continue
            k = rng.choice(kinds)
            holding = [[1.0] * 27 for _ in range(4)]
            holding[o][k] = 1e6
            favoured = sample_game(view, rng, holding=holding)
            holding[o][k] = 1e-6
            shunned = sample_game(view, rng, holding=holding)
            even = sample_game(view, rng, holding=[[1.0] * 27 for _ in range(4)])
            assert tile_counts(favoured) == tile_counts(shunned) == [4] * 27
            n += 1
            whole += favoured._counts[o][k] == _room(favoured, view, o, k)
            none += shunned._counts[o][k] == 0
            by_chance += even._counts[o][k] == _room(even, view, o, k)
    assert n > 100
    assert whole == n and none == n and by_chance < 0.3 * n


def _shanten_of(game: Game, s: int) -> int:
    keys = [sum(game._counts[s][u * 9 + r] * POW5[r] for r in range(9)) for u in range(3)]
    return shanten_keys(keys, len(game._melds[s]), game._meld_suits[s], game._voids[s])


def test_a_suit_shed_by_play_is_held_by_no_one_who_shed_it() -> None:
    """No 定缺 (seed rules): a seat that discarded a suit early and not lately is sampled without it."""
    rng = random.Random(4)
    shed = plain_holds = 0
    for _, view in decision_views("seed", range(8)):
        for s in range(4):
            v = _implied_void(view, s)
            if s == view.seat or v is None or not view.active[s] or view.wins:
                continue
            inferred = sample_game(view, rng, implied_voids=True)
            assert not any(inferred._counts[s][v * 9 : v * 9 + 9]), (s, v)
            plain = sample_game(view, rng)
            plain_holds += any(plain._counts[s][v * 9 : v * 9 + 9])
            shed += 1
    assert shed > 40 and plain_holds > shed // 2


def test_implied_void_reads_the_river() -> None:
    """Shed early (at least SHED of the first eight discards), not melded, none of it lately; 定缺 overrides."""
    found = 0
    for _, view in decision_views("seed", range(2)):
        for s in range(4):
            v = _implied_void(view, s)
            river = view.discards[s]
            if v is None:
                continue
            assert sum(tile.index // 9 == v for tile in river[:8]) >= SHED
            assert all(tile.index // 9 != v for tile in river[-SHED:])
            assert all(m.tile_index // 9 != v for m in view.melds[s])
            shed = next(tile for tile in river if tile.index // 9 == v)
            again = view._replace(discards=tuple((*d, shed) if o == s else d for o, d in enumerate(view.discards)))
            assert _implied_void(again, s) is None  # discarded again just now: still shedding it
            declared = view._replace(voids=tuple((v + 1) % 3 if o == s else x for o, x in enumerate(view.voids)))
            assert _implied_void(declared, s) is None  # 定缺 speaks for itself
            found += 1
    assert found > 20


def test_shaped_hands_are_as_near_ready_as_played_ones() -> None:
    """A random deal of the unseen tiles is far from ready; shaped samples come near the real hands."""
    rng = random.Random(5)
    real = plain = shaped = n = 0
    for game, view in decision_views("seed", range(4)):
        if view.phase != "play" or len(view.discards[view.seat]) < 6:
            continue
        a = sample_game(view, rng, implied_voids=True)
        b = sample_game(view, rng, implied_voids=True, shaped=30)
        for s in range(4):
            if s != view.seat and view.active[s] and not view.ready[s]:
                real += _shanten_of(game, s)
                plain += _shanten_of(a, s)
                shaped += _shanten_of(b, s)
                n += 1
    assert n > 100
    assert plain / n > real / n + 1.0  # the plain samples lag the real hands by more than a step
    assert abs(shaped - real) / n < 0.5


def test_ready_odds_make_that_share_of_hands_ready() -> None:
    """A seat drawn ready (``ready_odds``) is played on until it is; odds of 0 leave random, unready hands."""
    rng = random.Random(6)
    n = ready_all = ready_none = 0
    for _, view in decision_views("app", range(3)):
        if view.phase != "play" or len(view.discards[view.seat]) < 3:
            continue
        sure = sample_game(view, rng, ready_odds=[1.0] * 4)
        never = sample_game(view, rng, ready_odds=[0.0] * 4)
        again = sure.view(view.seat)
        assert all(getattr(again, name) == getattr(view, name) for name in PUBLIC)
        for s in range(4):
            if s != view.seat and view.active[s]:
                ready_all += _shanten_of(sure, s) == 0
                ready_none += _shanten_of(never, s) == 0
                n += 1
    assert n > 100
    assert ready_all / n > 0.9 and ready_none / n < 0.15


def _wins_on_any(game: Game, s: int, kinds: set[int]) -> bool:
    return any(game._counts[s][t] < 4 and game._wins_with(s, t) for t in kinds)


def test_the_tiles_a_seat_let_pass_are_not_its_wins() -> None:
    """Expert players take every win offered, so a tile discarded since a seat's last turn (``let_pass``) is
    almost never one its real hand wins on (a claim that skipped a turn is not seen); in samples drawn ready
    it is in about one case in twenty, and with ``passed`` as rarely as in the real hands, the tiles still
    adding up."""
    rng = random.Random(8)
    n = real = plain = kept = 0
    for game, view in decision_views("app", range(4)):
        if view.phase not in ("play", "claim"):
            continue
        plain_game = sample_game(view, rng, ready_odds=[1.0] * 4)
        passed = sample_game(view, rng, ready_odds=[1.0] * 4, passed=True)
        assert tile_counts(passed) == [4] * 27
        assert all(getattr(passed.view(view.seat), name) == getattr(view, name) for name in PUBLIC)
        for s in range(4):
            let = let_pass(view, s)
            if s == view.seat or not view.active[s] or not let:
                continue
            n += 1
            real += _wins_on_any(game, s, let)
            plain += _wins_on_any(plain_game, s, let)
            kept += _wins_on_any(passed, s, let)
    assert n > 200
    assert real / n < 0.01 and kept / n < 0.01 and plain / n > 0.03


def test_the_seat_on_turn_has_let_nothing_pass() -> None:
    """过水 ends with one's own turn: the seat that just discarded (the claim) or is adding a kong (the rob) holds a
    hand changed since anything it let go by, and may win on any of it again."""
    cases = 0
    for _game, view in decision_views("seed", range(6)):
        if view.phase in ("claim", "rob") and view.seat != view.turn:
            cases += 1
            assert let_pass(view, view.turn) == set() == let_pass(view, view.turn, pending=True)
    assert cases > 0


def test_let_pass_skips_the_discard_pending() -> None:
    """In a claim, the tile pending has not been answered yet: a seat whose real hand wins on it (it is about to)
    does not count it among the tiles it let pass."""
    cases = 0
    for game, view in decision_views("app", range(12)):
        if view.phase != "claim" or view.pending_tile is None:
            continue
        t = view.pending_tile.index
        for s in range(4):
            if s not in (view.seat, view.turn) and view.active[s] and game._wins_with(s, t):
                cases += 1
                others = {view.discards[x][-1].index for x in range(4) if x not in (s, view.turn) and view.discards[x]}
                assert t not in let_pass(view, s) or t in others
                # a price of what follows the viewer's own answer to it (the expert's) counts it as let pass
                assert t in let_pass(view, s, pending=True)
    assert cases > 0


def _draws_to_the_end(game: Game, bots: list[str], seed: int) -> list[list[str]]:
    """Each seat's draws as ``game`` is played to its end by the named bots (in place)."""
    agents = [make_agent(b, seed=seed + s) for s, b in enumerate(bots)]
    start = len(game.events)
    while not game.is_over:
        game.step({s: agents[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
        if game._streams is not None:  # the wall holds exactly the tiles the streams have still to give
            assert sorted(game._wall[game._head : game._tail]) == sorted(t for q in game._streams for t in q)
    draws: list[list[str]] = [[], [], [], []]
    for e in game.events[start:]:
        if e.type == "draw":
            draws[e.seat].append(e.data["tile"])
    return draws


def test_seat_streams_keep_each_seats_draws_whatever_is_played() -> None:
    """Played on two ways (experts, or random bots at the other seats), each seat's first draws are its own
    stream's in both; on the shared wall the two differ."""
    views = [v for g, v in decision_views("seed", range(3)) if v.phase == "play" and 24 <= v.wall_count <= 44]
    shifted = 0
    for k, view in enumerate(views[::6]):
        ways = (["expert"] * 4, ["random" if s != view.seat else "expert" for s in range(4)])
        plain = sample_game(view, random.Random(k))
        streamed = seat_streams(copy.deepcopy(plain))
        assert streamed._streams is not None
        own = [[TILE_TEXT[t] for t in reversed(q)] for q in streamed._streams]
        on_streams = [_draws_to_the_end(copy.deepcopy(streamed), bots, k) for bots in ways]
        on_wall = [_draws_to_the_end(copy.deepcopy(plain), bots, k) for bots in ways]
        for s in range(4):
            for draws in on_streams:
                n = min(len(draws[s]), 4)
                assert draws[s][:n] == own[s][:n]
            n = min(len(on_wall[0][s]), len(on_wall[1][s]), 4)
            shifted += on_wall[0][s][:n] != on_wall[1][s][:n]
    assert len(views[::6]) >= 5 and shifted > 0
