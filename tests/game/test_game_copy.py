"""A copied or pickled Game plays on as the original: the engine's shared Action instances survive copying."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game.actions import NUM_ACTIONS, Action
from sichuan_mahjong.game.sample import reshuffled
from sichuan_mahjong.game.state import Game


def test_copies_of_an_action_are_the_shared_instance() -> None:
    for i in range(NUM_ACTIONS):
        a = Action.from_index(i)
        assert copy.copy(a) is a
        assert copy.deepcopy(a) is a
        assert pickle.loads(pickle.dumps(a)) is a


@pytest.mark.parametrize("preset", ["seed", "app"])
def test_a_deep_copy_mid_hand_plays_on_as_the_original(preset: str) -> None:
    """Copies taken at every claim of a few hands finish with the same payments as the original hand."""
    claims = 0
    for seed in range(6):
        game = Game(sm.Rules.preset(preset), seed=seed)
        bots = [make_agent("expert", seed=s) for s in range(4)]
        copies = []
        while not game.is_over:
            if game.phase == "claim":
                copies.append(copy.deepcopy(game))
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
        for c in copies:
            bots = [make_agent("expert", seed=s) for s in range(4)]
            while not c.is_over:
                c.step({s: bots[s].act(c.view(s), legal) for s, legal in c.to_act().items()})
            assert c.deltas == game.deltas
            assert c.payments == game.payments
        claims += len(copies)
    assert claims >= 6


def test_reshuffled_keeps_every_hand_and_redraws_only_the_wall() -> None:
    game = Game(sm.Rules.preset("seed"), seed=3)
    bots = [make_agent("expert", seed=s) for s in range(4)]
    for _ in range(30):
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    before = [game.view(s) for s in range(4)]
    rest = game._wall[game._head : game._tail]
    a = reshuffled(game, random.Random(1))
    b = reshuffled(game, random.Random(1))
    c = reshuffled(game, random.Random(2))
    assert [a.view(s) for s in range(4)] == before  # every hand, river and meld as it was
    assert a._wall[a._head : a._tail] == b._wall[b._head : b._tail]  # seeded
    assert a._wall[a._head : a._tail] != c._wall[c._head : c._tail]
    assert sorted(a._wall[a._head : a._tail]) == sorted(rest)  # the same tiles, in another order
    assert game._wall[game._head : game._tail] == rest  # the original is untouched
    while not a.is_over:
        a.step({s: bots[s].act(a.view(s), legal) for s, legal in a.to_act().items()})
    assert [game.view(s) for s in range(4)] == before
