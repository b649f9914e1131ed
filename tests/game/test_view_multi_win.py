"""A tile won by several seats at once (一炮多响) is one tile in every seat's view (issue 37, item 3).

The engine gives each winner of one discard (or robbed added kong) a copy of it, and the view lists one win per
winner; the readers of the view's visible tiles (the bots' unseen counts, the sampler's pool, the hints and the
advisor behind them, a one-seat log) must count that tile once. The truth they are held to comes from the engine's
own state: what seat s cannot see is the wall, the other seats' concealed tiles but the ones they won on (public),
and the other seats' concealed kongs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.game.sample import unseen_pool
from sichuan_mahjong.game.view import Observation, WinView, public_view, visible_counts
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.hints import NothingToAdviseError, advise_view
from sichuan_mahjong.rules import MODES
from sichuan_mahjong.seat_log import SeatLog
from sichuan_mahjong.tiles import NUM_KINDS

PRESETS = [*MODES, "seed", "app"]
MULTI_WINS_WANTED = 2  # per preset: games played on until this many hands had a tile won by several seats
MAX_GAMES = 400


def _multi_win(view: Observation) -> bool:
    return any(w.shared for w in view.wins)


def _own(view: Observation) -> list[int]:
    own = [0] * NUM_KINDS
    for t in view.tiles:
        own[t.index] += 1
    for m in view.melds[view.seat]:
        own[m.tile_index] += m.size
    return own


def _truly_unseen(game: sm.Game, seat: int) -> list[int]:
    """Copies of each kind hidden from ``seat``, from the engine's state (the wall, others' hands and kongs)."""
    out = [0] * NUM_KINDS
    for t in game._wall[game._head : game._tail]:
        out[t] += 1
    for o in range(4):
        if o == seat:
            continue
        theirs = game.view(o)
        for tile in theirs.tiles:
            out[tile.index] += 1
        for w in theirs.wins:
            if w.seat == o:
                out[w.tile.index] -= 1  # the tile it won on is on the table for all to see
        for m in theirs.melds[o]:
            if m.kind is MeldKind.CONCEALED_KONG:
                out[m.tile_index] += 4
    return out


def _check_seat(game: sm.Game, view: Observation) -> None:
    seat = view.seat
    own = _own(view)
    state = read_view(view)
    where = f"seat {seat}, wins {view.wins}"
    for t in range(NUM_KINDS):
        assert own[t] + state.seen[t] <= 4, f"{own[t] + state.seen[t]} copies of {sm.Tile(t)} seen by {where}"
    truth = _truly_unseen(game, seat)
    assert state.unseen == truth, where
    assert unseen_pool(view) == truth, where
    spectator = read_view(public_view(view))
    for t in range(NUM_KINDS):
        assert spectator.seen[t] <= 4, f"{spectator.seen[t]} copies of {sm.Tile(t)} seen by a spectator"
    with contextlib.suppress(NothingToAdviseError):  # asked or not, any other error fails the test
        advise_view(view)


def _games(preset: str) -> Iterator[sm.Game]:
    """Hands of bots that take every win they are offered, checked for every seat at every step (the advice
    too, whether the seat is asked or not: the server asks only for a seat with a decision)."""
    rules = sm.Rules.preset(preset)
    for seed in range(MAX_GAMES):
        game = sm.Game(rules, seed)
        bots = [make_agent("efficient", seed=seed * 4 + s) for s in range(4)]
        while not game.is_over:
            pending = game.to_act()
            for s in range(4):
                _check_seat(game, game.view(s))
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in pending.items()})
        for s in range(4):
            _check_seat(game, game.view(s))
        yield game


@pytest.mark.parametrize("preset", PRESETS)
def test_no_view_counts_a_tile_won_by_several_seats_twice(preset: str) -> None:
    multi = 0
    for game in _games(preset):
        if _multi_win(game.view(0)):
            multi += 1
            for s in range(4):
                log = SeatLog(s)
                for event in game.events_for(s):
                    log.apply(event)
                assert log.view().wins == game.view(s).wins
            if multi >= MULTI_WINS_WANTED:
                return
    pytest.fail(f"only {multi} hands of {MAX_GAMES} had a tile won by several seats")


def test_the_advice_after_a_double_win_on_3s() -> None:
    """The reproduction: seats 0 and 1 both won seat 3's 3s; seat 2 holds three 3s and was advised 5 copies."""
    game = sm.Game(sm.Rules.preset("app"), 459)
    bots = [make_agent("efficient", seed=459 * 4 + s) for s in range(4)]
    for _ in range(44):
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    view = game.view(2)
    assert [(w.seat, str(w.tile), w.from_seat, w.shared) for w in view.wins] == [
        (0, "3s", 3, False),
        (1, "3s", 3, True),
    ]
    assert [str(t) for t in view.tiles].count("3s") == 3
    assert read_view(view).seen[sm.Tile.from_str("3s").index] == 1
    advice = advise_view(view)
    assert advice.options


def test_two_wins_on_one_kind_from_one_seat_are_one_tile_only_when_shared() -> None:
    """Back to back, the same kind from the same discarder: one discard won twice (shared), or two discards of
    that kind won one after the other (血战: seat 3 discarded a second 5m later). Only the view's flag tells."""
    view = sm.Game(sm.Rules.preset("seed"), seed=1).view(2)
    five = sm.Tile.from_str("5m")
    first = WinView(0, five, 3, False, 1)
    for shared, seen_by_2, seen_by_0 in ((True, 1, 0), (False, 2, 1)):
        wins = (first, WinView(1, five, 3, False, 1, shared))
        assert visible_counts(view._replace(wins=wins))[five.index] == seen_by_2
        assert visible_counts(view._replace(seat=0, wins=wins))[five.index] == seen_by_0
        assert visible_counts(public_view(view._replace(wins=wins)))[five.index] == seen_by_2
