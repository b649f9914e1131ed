"""The spectator's view and events (``public_view``, ``public_event`` in game/view.py): nobody's concealed tile."""

from __future__ import annotations

import random

from scripted import deal
from sichuan_mahjong.game import Game
from sichuan_mahjong.game.view import filter_event, public_event, public_view
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.rules import Rules


def _play(game: Game, rng: random.Random, prefer: tuple[str, ...] = ()) -> None:
    """Play to the end, taking a preferred kind of answer when offered, checking views as it goes."""
    while not game.is_over:
        answers = {}
        for s, legal in game.to_act().items():
            preferred = [a for a in legal if a.kind.value in prefer]
            answers[s] = preferred[0] if preferred else rng.choice(legal)
        game.step(answers)
        _check(game)


def _check(game: Game) -> None:
    views = [public_view(game.view(s)) for s in range(4)]
    assert all(v == views[0] for v in views), "the public view depends on the seat it was built from"
    v = views[0]
    assert v.seat == -1 and v.hand == () and v.drawn is None and v.legal == ()
    assert v.exchanged is None and v.pass_lock is None
    assert all(m.kind is not MeldKind.CONCEALED_KONG for melds in v.melds for m in melds)
    for s in range(4):
        own = game.view(s)
        kongs = sum(m.kind is MeldKind.CONCEALED_KONG for m in own.melds[s])
        assert v.hidden_kongs[s] == kongs
        assert v.discards == own.discards and v.wins == own.wins and v.scores == own.scores


def test_public_view_is_the_same_from_every_seat_and_hides_every_concealed_tile() -> None:
    for seed in range(6):
        game = Game(Rules.preset("app" if seed % 2 else "seed"), seed=seed)
        _check(game)
        _play(game, random.Random(seed))


def test_a_concealed_kong_is_counted_not_shown() -> None:
    # Seat 0 deals holding four 1m: it may declare a concealed kong at once.
    game = deal(["1111m234567m99p55s", "123456789s1234p", "123456789p5678s", "222333444m678s9p"])
    _play(game, random.Random(0), prefer=("concealed_kong",))
    kongs = [m for m in game.view(0).melds[0] if m.kind is MeldKind.CONCEALED_KONG]
    assert kongs and kongs[0].tile.index == 0  # 1m
    shown = public_view(game.view(0))
    assert shown.hidden_kongs[0] == len(kongs) and not shown.melds[0]


def test_public_events_carry_no_private_tile() -> None:
    game = Game(Rules.preset("app"), seed=3)
    _play(game, random.Random(3))
    for event in game.events:
        shown = public_event(event)
        if event.type == "act":
            assert shown is None
            continue
        assert shown is not None
        if event.type == "deal":
            assert "hand" not in shown.data and "hands" not in shown.data and "wall" not in shown.data
            assert shown.data["wall_count"] == filter_event(event, 1).data["wall_count"]  # type: ignore[union-attr]
        elif event.type == "exchange":
            assert dict(shown.data) == {"direction": event.data["direction"]}
        elif event.type in ("draw", "concealed_kong"):
            assert shown.data["tile"] is None
        else:
            assert shown == event
