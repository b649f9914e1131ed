"""The PettingZoo ``ParallelEnv``: one hand of four seats, every seat the engine asks answering in one step.

``parallel_env(rules="app", seed=None, reward_scale=1.0, render_mode=None, flatten=False)``. Each step is one
step of the engine: whatever it asks at once — all four seats in 换三张 and 定缺, the ready non-dealers in 报叫,
every seat that may claim a discard or rob an added kong, the one seat on turn in play — answers together in
one ``step(actions)``, and the engine resolves the answers as the rules say (win before kong before pung). A
seat that is not asked sees the mask of ``pass`` alone (never all zeros, so masked sampling always has a
choice); its action may be ``pass``, ``None`` or left out, and is not passed on. Observations, rewards
(the hand's points × ``reward_scale`` at the end, zero-sum), ``reset`` options and errors are the AEC env's
(rl/aec.py); when the hand ends every agent is terminated and ``agents`` is empty. ``clone()``,
``copy.deepcopy`` and ``pickle`` give an independent env that continues identically.

``pettingzoo.utils.parallel_to_aec(parallel_env())`` is an AEC env that selects all four seats each round, and
``aec_to_parallel`` of that gives this env back; ``aec_to_parallel(env(turns="cycle"))`` also works.

>>> from sichuan_mahjong import rl
>>> p = rl.parallel_env(seed=0)
>>> obs, infos = p.reset()
>>> while p.agents:
...     actions = {a: int(obs[a]["action_mask"].argmax()) for a in p.agents}
...     obs, rewards, terminations, truncations, infos = p.step(actions)
>>> sum(rewards.values())
0.0
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

from pettingzoo import ParallelEnv

from sichuan_mahjong.game.actions import PASS, Action
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rl.aec import AGENTS
from sichuan_mahjong.rl.render import rendered
from sichuan_mahjong.rl.spaces import (
    Obs,
    action_space,
    as_rules,
    as_scale,
    check_render_mode,
    checked_action,
    flat_obs,
    flat_space,
    game_from_options,
    idle_mask,
    legal_mask,
    observation_space,
)
from sichuan_mahjong.rl.tracker import PlaneTracker
from sichuan_mahjong.rules import Rules

__all__ = ["SichuanMahjongParallelEnv", "parallel_env"]

_IDLE = (PASS,)


class SichuanMahjongParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """The parallel environment; see the module docstring."""

    metadata = {"render_modes": ["human", "ansi"], "name": "sichuan_mahjong_v0", "is_parallelizable": True}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "app",
        seed: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        *,
        flatten: bool = False,
    ) -> None:
        self.rules = as_rules(rules)
        self.reward_scale = as_scale(reward_scale)
        self.render_mode = check_render_mode(render_mode)
        self.flatten = bool(flatten)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._dict_space = observation_space()
        obs_space = flat_space(self._dict_space) if self.flatten else self._dict_space
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, action_space())
        self._hand_seeds = random.Random(seed)
        self._tracker = PlaneTracker()
        self.game: Game | None = None
        self._pending: dict[int, list[Action]] = {}

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._hand_seeds = random.Random(seed)
        given = game_from_options(options, self.rules, ignored=("options",))
        self.game = given if given is not None else Game(self.rules, seed=self._hand_seeds.getrandbits(63))
        self._tracker.reset(self.game)
        self._pending = self.game.to_act()
        self.agents = list(AGENTS)
        if self.render_mode == "human":
            self.render()
        return self._observe_all(), {a: {} for a in AGENTS}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        game = self.game
        if game is None or not self.agents:
            raise RuntimeError("the hand is over (or never began): call reset()")
        answers: dict[int, Action] = {}
        for seat, legal in self._pending.items():
            agent = AGENTS[seat]
            if agent not in actions:
                raise ValueError(f"{agent} is asked now and needs an action (its mask holds {len(legal)})")
            answers[seat] = checked_action(actions[agent], legal, agent)
        for agent, action in actions.items():
            seat = AGENTS.index(agent) if agent in AGENTS else -1
            if seat < 0:
                raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}")
            if seat not in self._pending and action is not None:
                checked_action(action, _IDLE, f"{agent} (not asked now)")
        game.step(answers)
        agents = self.agents
        if game.is_over:
            result = game.result
            rewards = {a: result.deltas[s] * self.reward_scale for s, a in enumerate(AGENTS)}
            infos: dict[str, dict[str, Any]] = {
                a: {"deltas": list(result.deltas), "reason": result.reason, "seat": s} for s, a in enumerate(AGENTS)
            }
            self._pending = {}
            obs = self._observe_all()
            self.agents = []
            done = True
        else:
            self._pending = game.to_act()
            rewards = dict.fromkeys(agents, 0.0)
            infos = {a: {} for a in agents}
            obs = self._observe_all()
            done = False
        if self.render_mode == "human":
            self.render()
        return obs, rewards, dict.fromkeys(agents, done), dict.fromkeys(agents, False), infos

    def view(self, agent: str) -> Observation:
        """What ``agent``'s seat may see now (``game.view(seat)``, docs/rules.md R12): the input of a bot's ``act``."""
        return self._game().view(AGENTS.index(agent))

    def legal_actions(self, agent: str) -> Sequence[Action]:
        """The actions ``agent`` may take now: empty when the engine does not ask it (a bot's ``legal``)."""
        return self._pending.get(AGENTS.index(agent), ())

    def clone(self) -> SichuanMahjongParallelEnv:
        """An independent copy that continues identically (``copy.deepcopy``; ``pickle`` works too)."""
        return copy.deepcopy(self)

    def render(self) -> str | None:
        """The table as the first seat asked sees it (seat 0 once the hand is over)."""
        if self.render_mode is None:
            return None
        return rendered(self.render_mode, self._game().view(min(self._pending, default=0)), AGENTS)

    def close(self) -> None:
        pass

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _observe_all(self) -> dict[str, Any]:
        tracker, pending = self._tracker, self._pending
        out: dict[str, Any] = {}
        for seat, agent in enumerate(AGENTS):
            legal = pending.get(seat)
            obs: Obs = {
                "observation": tracker.observe(seat),
                "action_mask": idle_mask() if legal is None else legal_mask(legal),
            }
            out[agent] = flat_obs(self._dict_space, obs) if self.flatten else obs
        return out


def parallel_env(
    rules: Rules | str = "app",
    seed: int | None = None,
    reward_scale: float = 1.0,
    render_mode: str | None = None,
    *,
    flatten: bool = False,
) -> SichuanMahjongParallelEnv:
    """The parallel environment (see the module docstring); call ``reset()`` before anything else."""
    return SichuanMahjongParallelEnv(rules, seed, reward_scale, render_mode, flatten=flatten)
