"""Game.snapshot / Game.from_position: a real mid-hand position rebuilt is the same hand; impossible ones refused."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game import play
from sichuan_mahjong.game.snapshot import PositionError, Snapshot
from sichuan_mahjong.hand.melds import Meld, MeldKind


def _bots(seed: int) -> list[sm.agents.Agent]:
    return [make_agent("expert" if s % 2 else "efficient", seed=seed * 4 + s) for s in range(4)]


def _positions(preset: str, seed: int, every: int) -> Iterator[tuple[sm.Game, int]]:
    """(game, number of its events) at every ``every``-th decision of a hand played by bots, in play, claim, rob."""
    game = sm.Game(sm.Rules.preset(preset), seed=seed)
    bots = _bots(seed)
    n = 0
    while not game.is_over:
        if game.phase in ("play", "claim", "rob") and n % every == 0:
            yield game, len(game.events)
        n += 1
        pending = game.to_act()
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in pending.items()})


@pytest.mark.parametrize("preset", ["app", "seed", "bloody"])
def test_round_trip_same_views_legal_and_continuation(preset: str) -> None:
    checked = claims = 0
    for seed in range(6):
        for game, _ in _positions(preset, seed, 5):
            rebuilt = sm.Game.from_position(game.snapshot())
            assert rebuilt.to_act() == game.to_act()
            assert rebuilt.turn == game.turn
            for s in range(4):
                assert rebuilt.view(s) == game.view(s), (seed, s, game.phase)
            assert rebuilt.snapshot() == game.snapshot()
            # The same bots, seeded alike, play both on: the same events from here and the same settlement.
            original = sm.Game.replay(game.events)
            at = len(original.events)
            play(original, _bots(seed + 100))
            play(rebuilt, _bots(seed + 100))
            assert rebuilt.events == original.events[at:]
            assert rebuilt.result == original.result
            checked += 1
            claims += game.phase != "play"
    assert checked > 50 and claims > 5


def test_turn_is_the_views_turn() -> None:
    game = sm.Game(sm.Rules.preset("app"), seed=3)
    rng = random.Random(3)
    while not game.is_over:
        assert all(game.view(s).turn == game.turn for s in range(4))
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    assert game.turn == game.view(0).turn


def _snap(**changes: object) -> Snapshot:
    game = sm.Game(sm.Rules.preset("app"), seed=1)
    rng = random.Random(1)
    while game.phase != "play" or len(game.events) < 12:
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    return dataclasses.replace(game.snapshot(), **changes)  # type: ignore[arg-type]


def _claim_snap() -> Snapshot:
    game = sm.Game(sm.Rules.preset("app"), seed=2)
    rng = random.Random(2)
    while game.phase != "claim":
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    return game.snapshot()


def test_a_plain_position_builds() -> None:
    snap = _snap()
    assert sm.Game.from_position(snap).snapshot() == snap


def _without_one(snap: Snapshot) -> Snapshot:
    return dataclasses.replace(snap, wall=snap.wall[1:])


def _moved_tile() -> Snapshot:
    """A tile moved from one hand to another: 108 tiles still, but two hands of the wrong size."""
    snap = _snap()
    waiting = (snap.turn + 1) % 4
    hands = list(snap.hands)
    hands[waiting] = (*hands[waiting], hands[snap.turn][0])
    hands[snap.turn] = hands[snap.turn][1:]
    return dataclasses.replace(snap, hands=tuple(hands), drawn=(None,) * 4)


def _drawn(snap: Snapshot, tile: int, seat: int | None = None) -> tuple[int | None, ...]:
    seat = snap.turn if seat is None else seat
    return tuple(tile if s == seat else None for s in range(4))


def _off_turn_draw() -> Snapshot:
    snap = _snap()
    other = (snap.turn + 1) % 4
    return dataclasses.replace(snap, drawn=_drawn(snap, snap.hands[other][0], other))


def _missing(snap: Snapshot) -> int:
    return next(t for t in range(27) if t not in snap.hands[snap.turn])


def _wrong_pending() -> Snapshot:
    snap = _claim_snap()
    river = snap.rivers[snap.turn]
    return dataclasses.replace(snap, pending_tile=next(t for t in range(27) if t != river[-1]))


def _claim_nobody() -> Snapshot:
    """A claim where no hand holds a pair of the discard nor wins on it: the engine would not have asked."""
    snap = _claim_snap()
    t = snap.rivers[snap.turn][-1]
    hands = [list(h) for h in snap.hands]
    wall = list(snap.wall)
    for s in range(4):
        if s == snap.turn:
            continue
        while hands[s].count(t) >= 1:  # swap each copy of t for a wall tile of another kind
            j = next(i for i, x in enumerate(wall) if x != t)
            hands[s][hands[s].index(t)], wall[j] = wall[j], t
    return dataclasses.replace(snap, hands=tuple(map(tuple, hands)), wall=tuple(wall), declared=(False,) * 4)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: _snap(phase="void"), "not in phase 'void'"),
        (lambda: _snap(phase="over"), "not in phase 'over'"),
        (lambda: _without_one(_snap()), "107 tiles, not 108"),
        (lambda: _snap(wall=(*_snap().wall, 0)), "copies of 1m"),
        (lambda: _snap(turn=4), "turn must be a seat 0..3"),
        (lambda: _snap(dealer=True), "dealer must be a seat 0..3"),
        (lambda: _snap(hands=_snap().hands[:3]), "hands must hold one entry per seat"),
        (lambda: _snap(wall=(*_snap().wall[:-1], 27)), "not a tile index"),
        (lambda: _snap(voids=(3, None, None, None)), "seat 0's void must be a suit"),
        (lambda: _snap(scores=(1, 0, 0, 0)), "sum to zero"),
        (lambda: _snap(pending_tile=0), "in play there is none"),
        (lambda: _snap(active=(False, False, False, False)), "out of the hand"),
        (_moved_tile, "concealed tiles"),
        (lambda: _snap(drawn=_drawn(_snap(), _missing(_snap()))), "drawn tile .* is not in its hand"),
        (_off_turn_draw, "not on turn"),
        (lambda: dataclasses.replace(_claim_snap(), pending_tile=None), "needs the pending tile"),
        (_wrong_pending, "not the last tile of its river"),
        (_claim_nobody, "no seat can take"),
    ],
)
def test_refusals_name_what_is_wrong(make: object, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        snap = make()  # type: ignore[operator]
        sm.Game.from_position(snap)


def test_rob_needs_the_pung_and_the_tile() -> None:
    snap = _snap()
    assert not any(m.kind is MeldKind.PUNG for m in snap.melds[snap.turn])
    with pytest.raises(PositionError, match="cannot add"):
        sm.Game.from_position(
            dataclasses.replace(snap, phase="rob", pending_tile=snap.hands[snap.turn][0], drawn=(None,) * 4)
        )
    assert Meld(MeldKind.PUNG, 0).size == 3
