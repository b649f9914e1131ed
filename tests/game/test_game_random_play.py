"""Random legal play over every preset (seeded): conservation, zero-sum ledger, termination, replay, views."""

from __future__ import annotations

import random

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game.view import filter_event

PRESET_NAMES = sorted(sm.PRESETS)


def _tiles_on_table(g: sm.Game) -> int:
    obs = [g.view(s) for s in range(4)]
    concealed = sum(len(o.tiles) for o in obs)
    melds = sum(m.size for m in obs[0].melds[0]) + sum(sum(m.size for m in obs[s].melds[s]) for s in range(1, 4))
    rivers = sum(len(r) for r in obs[0].discards)
    return concealed + melds + rivers + obs[0].wall_count


def _play(rules: sm.Rules, seed: int, *, checks: bool) -> sm.Game:
    g = sm.Game(rules, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        pending = g.to_act()
        assert pending
        g.step({s: rng.choice(legal) for s, legal in pending.items()})
        steps += 1
        assert steps < 1000
        if checks:
            assert _tiles_on_table(g) == 108
            assert sum(g.deltas) == 0
    assert sum(g.result.deltas) == 0
    assert (
        sum(p.amount for p in g.result.payments if p.payer == 0)
        - sum(p.amount for p in g.result.payments if p.payee == 0)
        == -g.result.deltas[0]
    )
    return g


def _check_r8_4(g: sm.Game) -> None:
    """R8.4: once a seat has won it neither pays nor collects (kong refunds at the end excepted)."""
    won: set[int] = set()
    for e in g.events:
        if e.type == "win":
            if g.rules.bloody:
                assert e.seat not in won
            won.add(e.seat)
        elif e.type == "payment" and not e.data["reason"].startswith("R6.5") and g.rules.bloody:
            assert e.data["payer"] not in won, e
            if not e.data["reason"].startswith(("R8", "R10 kong_shot", "R10 kong_flower")):
                assert e.data["payee"] not in won, e  # a win's own payments go to the winner just recorded


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_play_conserves_tiles_and_money(preset: str) -> None:
    for seed in range(8):
        _play(sm.Rules.preset(preset), seed, checks=True)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_replay_and_json_round_trip_identical(preset: str) -> None:
    for seed in range(20, 30):
        g = _play(sm.Rules.preset(preset), seed, checks=False)
        again = sm.Game.replay(g.events)
        assert again.events == g.events
        assert again.result == g.result
        text = g.to_json()
        assert sm.Game.from_json(text).to_json() == text
        dicts = [e.to_dict() for e in g.events]
        assert sm.Game.replay(dicts).to_json() == text


@pytest.mark.parametrize("preset", ["seed", "app", "standard"])
def test_r12_views_and_events_never_show_other_concealed_tiles(preset: str) -> None:
    for seed in range(40, 46):
        g = sm.Game(sm.Rules.preset(preset), seed)
        rng = random.Random(seed)
        while not g.is_over:
            for k in range(4):
                obs = g.view(k)
                # concealed counts of others are public, the tiles are not: nothing of theirs is in the view
                assert len(obs.tiles) == obs.concealed_counts[k]
                for s in range(4):
                    if s != k:
                        assert all(not m.is_concealed for m in obs.melds[s])
            pending = g.to_act()
            g.step({s: rng.choice(legal) for s, legal in pending.items()})
        for k in range(4):
            for e in g.events:
                f = filter_event(e, k)
                if f is None:
                    assert e.type == "act" and e.seat != k
                    continue
                assert "hands" not in f.data and "wall" not in f.data and "seed" not in f.data
                if f.type in ("draw", "concealed_kong") and f.seat != k:
                    assert f.data["tile"] is None
            assert all(e.type != "act" or e.seat == k for e in g.events_for(k))


def test_same_seed_same_hand_different_seed_differs() -> None:
    a, b, c = (sm.Game(sm.Rules(), s) for s in (3, 3, 4))
    assert a.events == b.events
    assert a.events[0].data["hands"] != c.events[0].data["hands"]


def _greedy(g: sm.Game, seat: int, legal: list[sm.Action], rng: random.Random) -> sm.Action:
    """Wins, claims and kongs often, and discards toward a win: many wins, kongs, robberies and 过水 passes."""
    kinds = {a.kind for a in legal}
    if sm.ActionKind.HU in kinds and (len(legal) == 1 or rng.random() < 0.8):
        return sm.Action.parse("hu")
    if g.phase in ("claim", "rob"):
        for kind in (sm.ActionKind.KONG, sm.ActionKind.PUNG):
            if kind in kinds and rng.random() < 0.6:
                return next(a for a in legal if a.kind is kind)
        return sm.Action.parse("pass")
    if g.phase != "play":
        return rng.choice(legal)
    special = [a for a in legal if a.kind in (sm.ActionKind.CONCEALED_KONG, sm.ActionKind.ADDED_KONG)]
    if special and rng.random() < 0.7:
        return special[0]
    discards = [a for a in legal if a.kind is sm.ActionKind.DISCARD]
    if not discards:
        return rng.choice(legal)
    view = g.view(seat)
    void = view.voids[seat]

    def after(a: sm.Action) -> int:
        tiles = list(view.tiles)
        tiles.remove(sm.Tile(a.tile_index))
        return sm.shanten(tiles, view.melds[seat], void=void)

    best = min(after(a) for a in discards)
    return rng.choice([a for a in discards if after(a) == best])


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_greedy_play_offers_exactly_the_wins_and_keeps_the_invariants(preset: str) -> None:
    """Wins on a discard are offered exactly to the seats whose tiles win, unless 过水 locked them (R9.1);
    money sums to zero and R8.4 holds; tiles add up to 108 plus one per extra winner of one tile."""
    groups_seen = 0
    for seed in range(12):
        g = sm.Game(sm.Rules.preset(preset), 100 + seed)
        rng = random.Random(seed)
        passed: set[int] = set()  # seats that passed a win since their last draw
        seen = len(g.events)
        while not g.is_over:
            pending = g.to_act()
            if g.phase in ("claim", "rob"):
                view = g.view(0)
                t = view.pending_tile
                assert t is not None
                for o in range(4):
                    if o == view.turn or not view.active[o]:
                        continue
                    mine = g.view(o)
                    wins = sm.is_winning([*mine.tiles, t], mine.melds[o], void=mine.voids[o])
                    offered = sm.Action.parse("hu") in pending.get(o, [])
                    assert offered <= wins, (seed, o, t)
                    assert wins <= offered or o in passed, (seed, o, t)
            answers = {s: _greedy(g, s, legal, rng) for s, legal in pending.items()}
            if g.phase in ("claim", "rob"):
                passed |= {
                    s
                    for s, a in answers.items()
                    if a.kind is not sm.ActionKind.HU and sm.Action.parse("hu") in pending[s]
                }
            g.step(answers)
            for e in g.events[seen:]:
                if e.type == "draw":
                    passed.discard(e.seat)
            seen = len(g.events)
            assert sum(g.deltas) == 0
        _check_r8_4(g)
        extra = len(g.result.wins) - len({w.group for w in g.result.wins})
        groups_seen += len({w.group for w in g.result.wins})
        assert _tiles_on_table(g) == 108 + extra
        assert sm.Game.replay(g.events).to_json() == g.to_json()
    assert groups_seen > 0
