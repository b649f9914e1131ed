"""The PettingZoo AEC env: PettingZoo's api_test, the mask against the engine at every step, rewards, seeding,
the one-after-another asking of simultaneous phases, reset options, errors and render."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import PASS
from sichuan_mahjong.rl import AGENTS, encode, env, raw_env

PRESET_NAMES = sorted(sm.PRESETS)


def _game(e: raw_env) -> sm.Game:
    assert e.game is not None
    return e.game


def _random_action(obs: dict[str, Any], rng: np.random.Generator) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(len(legal))])


# api_test warns of any Dict observation ("not a NumPy array") and of negative planes (the scores) in an
# image-shaped array; neither is an error.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning", "ignore:The observation contains negative:UserWarning")
@pytest.mark.parametrize("rules", ["app", "seed"])
def test_pettingzoo_api_test(rules: str) -> None:
    api_test(env(rules=rules, seed=3), num_cycles=300)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_mask_and_planes_are_the_engines_legal_actions_and_encode_at_every_step(preset: str) -> None:
    e = env(rules=preset, seed=11)
    rng = np.random.default_rng(5)
    steps = 0
    for _hand in range(3):
        e.reset()
        game = _game(e)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated:
                assert game.is_over and not obs["action_mask"].any()
                assert np.array_equal(obs["observation"], encode(game.view(AGENTS.index(agent))))
                e.step(None)
                continue
            seat = AGENTS.index(agent)
            pending = game.to_act()
            assert seat in pending
            assert set(np.flatnonzero(obs["action_mask"])) == {a.index for a in pending[seat]}
            assert np.array_equal(obs["observation"], encode(game.view(seat)))  # the tracked planes are encode's
            for other in AGENTS:  # nobody else's mask is set
                if other != agent:
                    theirs = e.observe(other)
                    assert not theirs["action_mask"].any()
                    assert np.array_equal(theirs["observation"], encode(game.view(AGENTS.index(other))))
            assert reward == 0.0 and not truncated
            e.step(_random_action(obs, rng))
            steps += 1
    assert steps > 100


@pytest.mark.parametrize("preset", ["app", "bloody_kong", "standard"])
def test_rewards_are_the_hands_points_at_the_end_and_sum_to_zero(preset: str) -> None:
    e = env(rules=preset, seed=2, reward_scale=0.5)
    rng = np.random.default_rng(1)
    nonzero = 0
    for _hand in range(30):
        e.reset()
        final: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, _, info = e.last()
            if terminated:
                final[agent] = reward
                assert info["deltas"] == list(_game(e).result.deltas)
                e.step(None)
                continue
            assert reward == 0.0 and all(r == 0.0 for r in e.rewards.values())
            e.step(_random_action(obs, rng))
        deltas = _game(e).result.deltas
        assert final == {a: 0.5 * deltas[s] for s, a in enumerate(AGENTS)}
        assert sum(final.values()) == 0.0
        nonzero += any(final.values())
        assert e.agents == []
    assert nonzero > 0


def _trajectory(e: raw_env, seed: int | None, hands: int) -> list[bytes]:
    rng = np.random.default_rng(0)
    out: list[bytes] = []
    for h in range(hands):
        e.reset(seed=seed if h == 0 else None)
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            out.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            e.step(None if terminated else _random_action(obs, rng))
    return out


def test_seeding_is_deterministic() -> None:
    a = _trajectory(env(seed=5), None, 2)
    assert a == _trajectory(env(seed=5), None, 2)
    assert a == _trajectory(env(), 5, 2)  # reset(seed=5) == env(seed=5)
    assert a != _trajectory(env(seed=6), None, 2)


def test_simultaneous_phases_ask_one_seat_after_another_and_resolve_together() -> None:
    e = env(rules="app", seed=4)
    e.reset()
    game = _game(e)
    assert game.phase == "exchange"
    before = {a: e.observe(a)["observation"].copy() for a in AGENTS}
    events = len(game.events)
    order = []
    rng = np.random.default_rng(0)
    for _ in range(4):
        agent = e.agent_selection
        order.append(agent)
        e.step(_random_action(e.observe(agent), rng))
        if len(order) < 4:
            # nothing moved: no seat's observation shows the answers given so far
            assert len(game.events) == events and game.phase == "exchange"
            for a in AGENTS:
                assert np.array_equal(e.observe(a)["observation"], before[a])
    dealer = game.dealer
    assert order == [AGENTS[(dealer + k) % 4] for k in range(4)]
    assert game.phase == "void"
    assert [ev.type for ev in game.events[events:]].count("act") == 4


def test_claims_by_several_seats_are_asked_in_turn_and_resolved_together() -> None:
    # Seat 0 discards 5p: seat 1 holds a pair of 5p, seats 2 and 3 are ready on it. Three claimants.
    hands = ["1m1m1m2m2m2m3m3m3m4m4m4m5p9s", "5p5p1s1s1s2s3s4s6s7s8s9s9s", "4p6p1p2p3p7p8p9p5m5m5m6m6m"]
    hands.append("3p4p6p6p6p7m7m7m8m8m8m9m9m")
    rules = sm.Rules.preset("bloody_kong").replace(declare_ready=False)
    game = sm.Game.setup(rules, hands=hands, dealer=0, seed=1)
    e = env(rules=rules)
    e.reset(options={"game": game})
    assert e.agent_selection == "player_0"
    e.step(sm.Action.parse("discard 5p").index)
    assert game.phase == "claim" and set(game.to_act()) == {1, 2, 3}
    asked = []
    for _ in range(3):
        agent = e.agent_selection
        asked.append(agent)
        mask = e.observe(agent)["action_mask"]
        assert set(np.flatnonzero(mask)) == {a.index for a in game.to_act()[AGENTS.index(agent)]}
        e.step(PASS.index if agent != "player_2" else sm.Action.parse("hu").index)
    assert asked == ["player_1", "player_2", "player_3"]
    assert [w.seat for w in game.view(0).wins] == [2]  # the win beat the pungs, all answers taken at once


def test_reset_options_and_errors() -> None:
    e = env(seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("player_0")
    e.reset(seed=0, options={"options": 1})  # api_test passes unknown keys: they are ignored
    with pytest.raises(TypeError, match=r"must be a sichuan_mahjong\.Game"):
        e.reset(options={"game": "not a game"})
    over = sm.Game(sm.Rules.preset("seed"), seed=1)
    while not over.is_over:
        over.step({s: legal[0] for s, legal in over.to_act().items()})
    with pytest.raises(ValueError, match="already over"):
        e.reset(options={"game": over})
    e.reset()
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    illegal = next(i for i in range(sm.NUM_ACTIONS) if i not in set(legal))
    with pytest.raises(sm.IllegalActionError, match=rf"player_\d cannot .* \(action {illegal}\) now; legal: "):
        e.step(illegal)
    with pytest.raises(sm.IllegalActionError, match=r"an action is an int 0\.\.583, got 584"):
        e.step(584)
    with pytest.raises(sm.IllegalActionError, match="got 'hu'"):
        e.step("hu")
    e.step(np.int32(legal[0]))  # numpy integers are actions too
    with pytest.raises(ValueError, match="reward_scale must be a positive finite number"):
        env(reward_scale=float("nan"))
    with pytest.raises(ValueError, match="render_mode must be one of human, ansi"):
        env(render_mode="rgb_array")
    with pytest.raises(sm.RulesError, match="unknown preset 'nope'"):
        env(rules="nope")


def test_render_shows_the_table_and_only_the_selected_seats_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(rules="app", seed=9, render_mode="ansi")
    e.reset()
    game = _game(e)
    text = e.render()
    assert isinstance(text, str)
    seat = AGENTS.index(e.agent_selection)
    assert "phase exchange" in text and f"{e.agent_selection} holds" in text
    hand = " ".join(str(t) for t in game.view(seat).hand)
    assert hand in text
    for other in range(4):
        if other != seat and game.view(other).hand != game.view(seat).hand:
            assert " ".join(str(t) for t in game.view(other).hand) not in text
    assert env(seed=1).render() is None  # no render mode: nothing
    loud = env(rules="seed", seed=9, render_mode="human")
    loud.reset()
    loud.step(int(np.flatnonzero(loud.observe(loud.agent_selection)["action_mask"])[0]))
    assert "phase" in capsys.readouterr().out
