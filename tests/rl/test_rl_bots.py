"""Bots in the envs, both ways: any Agent seated at any seat of the AEC or parallel env from what that seat may
see (rl.bot_action), checked by the information-flow harness; and a policy over the env's observation as an
Agent (rl.ObservationAgent) that plays in the engine, the Gym env's opponents and the simulator."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import Agent, make_agent
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rl import AGENTS, ObservationAgent, SichuanMahjongEnv, bot_action, env, parallel_env, raw_env
from sichuan_mahjong.sim.runner import play_hand
from twin_deals import compare


def test_any_bot_plays_any_seat_of_the_aec_env() -> None:
    e = env(rules="app", seed=3)
    e.reset()
    bots: dict[str, Agent] = {
        "player_0": make_agent("expert", 1),
        "player_2": make_agent("efficient", 2),
        "player_3": make_agent("random", 3),
    }
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _, terminated, _, info = e.last()
        if terminated:
            e.step(None)
        elif agent in bots:
            e.step(bot_action(e, agent, bots[agent]))
        else:  # player_1: a learner of yours
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(info["deltas"]) == 0


def test_bots_answer_together_in_the_parallel_env() -> None:
    p = parallel_env(rules="seed", seed=2)
    p.reset()
    bots = [make_agent("expert", s) for s in range(4)]
    while p.agents:
        _, rewards, *_ = p.step({a: bot_action(p, a, bots[s]) for s, a in enumerate(AGENTS)})
    assert sum(rewards.values()) == 0


class _Recorder:
    """A bot that records what it is given."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[tuple[Observation, tuple[sm.Action, ...]]] = []

    def act(self, view: Observation, legal: Any) -> sm.Action:
        self.seen.append((view, tuple(legal)))
        return legal[0]  # type: ignore[no-any-return]


def test_the_adapter_gives_the_bot_the_seats_view_and_legal_actions_only() -> None:
    e = env(rules="app", seed=5)
    e.reset()
    rec = _Recorder()
    for agent in e.agent_iter():
        _, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        seat = AGENTS.index(agent)
        assert e.game is not None
        e.step(bot_action(e, agent, rec))
        view, legal = rec.seen[-1]
        assert view.seat == seat and legal == tuple(view.legal)
    assert len(rec.seen) > 20


def _bot_observer(name: str) -> Any:
    """An observer for the information-flow harness: the action a fresh bot of ``name`` picks at that point."""
    bots: dict[int, Agent] = {}

    def observe(e: raw_env, agent: str) -> dict[str, Any]:
        bot = bots.setdefault(id(e), make_agent(name, 11))
        obs: dict[str, Any] = e.observe(agent)
        if not e.legal_actions(agent):  # the end of the hand: nothing to ask
            return obs
        return {**obs, "observation": np.array([bot_action(e, agent, bot)])}

    return observe


@pytest.mark.parametrize("name", ["efficient", "expert"])
def test_a_seated_bot_sees_nothing_hidden(name: str) -> None:
    """The same public history for seat 0 with other hidden tiles gives the bot's same actions."""
    rules = sm.Rules.preset("app")
    total = 0
    for seed in range(6):
        compared, differed = compare(rules, seed, _bot_observer(name))
        assert not differed, f"seed {seed}: the bot acted differently while seat 0's view was the same"
        total += compared
    assert total >= 60


def test_a_bot_that_reads_the_game_is_caught() -> None:
    """Negative control: a bot handed seat 1's tiles as well acts differently once they differ."""

    def leaky(e: raw_env, agent: str) -> dict[str, Any]:
        obs: dict[str, Any] = e.observe(agent)
        assert e.game is not None
        hidden = sum(t.index for t in e.game.view(1).tiles)
        return {**obs, "observation": np.array([hidden])}

    rules = sm.Rules.preset("app")
    assert all(compare(rules, seed, leaky)[1] for seed in range(3))


def _greedy(obs: dict[str, Any]) -> int:
    """A policy over the env's observation: the last legal action."""
    return int(np.flatnonzero(obs["action_mask"])[-1])


def test_a_policy_over_observations_is_an_agent_everywhere() -> None:
    agent = ObservationAgent(_greedy, name="greedy")
    assert isinstance(agent, Agent)
    game = sm.Game(sm.Rules.preset("app"), seed=1)
    play_hand(game, [agent, make_agent("random", 1), make_agent("random", 2), make_agent("random", 3)])
    assert game.is_over
    # it picks in the engine what it picks in the env from the same seat's observation
    e = env(rules="app", seed=4)
    e.reset()
    for a in e.agent_iter():
        obs, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        assert bot_action(e, a, agent) == _greedy(obs)
        e.step(_greedy(obs))
    flat = ObservationAgent(lambda x: int(np.flatnonzero(x[:584])[0]), flatten=True)
    gym = SichuanMahjongEnv(rules="app", opponents=[flat, agent, "expert"])
    gym.reset(seed=0)


def test_a_policy_outside_the_mask_is_refused() -> None:
    agent = ObservationAgent(lambda obs: int(np.flatnonzero(obs["action_mask"] == 0)[0]), name="wild")
    game = sm.Game(sm.Rules.preset("app"), seed=1)
    with pytest.raises(sm.IllegalActionError, match="wild cannot"):
        play_hand(game, [agent] * 4)
