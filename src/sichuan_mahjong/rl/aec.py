"""The PettingZoo ``AECEnv``: one hand of four seats, ``player_0`` .. ``player_3``, every phase of the rules.

``env(rules="app", seed=None, reward_scale=1.0, render_mode=None)`` returns the environment (``raw_env`` is its
class, PettingZoo's naming); it checks its own call order — stepping or observing before ``reset()`` raises —
so it needs no ``OrderEnforcingWrapper`` (which would cost a tenth of its speed). One episode is one hand (局).

Turn order. Whenever the engine asks several seats at once (换三张 and 定缺: all four; 报叫: the ready
non-dealers; a discard or an added kong that several seats can claim or rob), they are asked one after
another — from the seat after the one on turn (the dealer first in the set-up phases) — and their answers are
kept until the last one is in; then the engine resolves them together (win before kong before pung, R4.2).
Nothing changes in between, so no seat's observation shows another's answer, and a seat the engine does not
ask (it can do nothing with the discard) is never selected. Drawing is automatic.

Observations hold what the seat may see only (RULES.md R12): ``{"observation": float32 (90, 27),
"action_mask": int8 (584,)}``, the planes exactly ``encode(game.view(seat))``, kept up to date from the hand's
events by a :class:`~sichuan_mahjong.rl.tracker.PlaneTracker` rather than rebuilt; the mask is all zeros
except for the selected agent. Rewards are each seat's
points for the hand × ``reward_scale``, given when the hand ends (every agent is then terminated) and zero
before; they sum to zero. An action that is not legal raises :class:`~sichuan_mahjong.IllegalActionError`
naming it and the legal ones (wrap the env in ``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` to end
the episode instead).

``reset(seed=...)`` seeds the sequence of hands (``env(seed=...)`` too); ``reset(options={"game": g})`` plays
a hand you built, e.g. ``Game.setup(...)`` (other option keys are ignored). ``env.unwrapped.game`` is the
engine's :class:`~sichuan_mahjong.Game` — for tests and tools; an agent that reads it sees hidden tiles.

>>> e = env(seed=1)
>>> e.reset()
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated else int(obs["action_mask"].argmax()))
>>> sum(e.unwrapped.game.result.deltas)
0
"""

from __future__ import annotations

import random
from typing import Any, Final

from pettingzoo import AECEnv

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.render import table_text
from sichuan_mahjong.rl.spaces import (
    Obs,
    action_space,
    as_rules,
    as_scale,
    check_game,
    check_render_mode,
    checked_action,
    legal_mask,
    observation_space,
)
from sichuan_mahjong.rl.tracker import PlaneTracker
from sichuan_mahjong.rules import Rules

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  # PettingZoo's name; pettingzoo ships no types
    """The unwrapped environment (PettingZoo's naming); see the module docstring."""

    metadata: Final = {"render_modes": ["human", "ansi"], "name": "sichuan_mahjong_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: Rules | str = "app",
        seed: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = as_rules(rules)
        self.reward_scale = as_scale(reward_scale)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = list(AGENTS)
        self._seat = {a: s for s, a in enumerate(AGENTS)}
        obs_space, act_space = observation_space(), action_space()
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, act_space)
        self._hand_seeds = random.Random(seed)
        self._tracker = PlaneTracker()
        self.game: Game | None = None
        self._pending: dict[int, list[Action]] = {}
        self._queue: list[int] = []
        self._answers: dict[int, Action] = {}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]

    # ---------------------------------------------------------------------------------- PettingZoo API
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._hand_seeds = random.Random(seed)
        given = options.get("game") if options else None
        if given is not None:
            self.game = check_game(given)
        else:
            self.game = Game(self.rules, seed=self._hand_seeds.getrandbits(63))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self._answers = {}
        self._tracker.reset(self.game)
        self._ask()

    def observe(self, agent: str) -> Obs:
        seat = self._seat[agent]
        if self.game is None:
            raise RuntimeError("call reset() before observing or rendering")
        legal = self._pending.get(seat) if agent == self.agent_selection else None
        return {"observation": self._tracker.observe(seat), "action_mask": legal_mask(legal or ())}

    def step(self, action: Any) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        answers = self._answers
        answers[seat] = checked_action(action, self._pending[seat], agent)
        self._cumulative_rewards[agent] = 0.0
        queue = self._queue
        if len(answers) < len(queue):
            self.agent_selection = AGENTS[queue[len(answers)]]
        else:
            game = self.game
            game.step(answers)
            self._answers = {}
            if game.is_over:
                self._finish(game)
            else:
                self._ask()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as the selected agent sees it: ``ansi`` returns the text, ``human`` prints it."""
        if self.render_mode is None:
            return None
        text = table_text(self._game().view(self._seat[self.agent_selection]), AGENTS)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------------------------------ inside
    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before observing or rendering")
        return self.game

    def _ask(self) -> None:
        """Queue the seats the engine asks now, in play order from the seat on turn (the dealer in set-up)."""
        pending = self._pending = self._game().to_act()
        if len(pending) == 1:
            self._queue = list(pending)
        else:
            turn = self._tracker.sync().turn
            self._queue = sorted(pending, key=lambda s: (s - turn) % 4)
        self.agent_selection = AGENTS[self._queue[0]]

    def _finish(self, game: Game) -> None:
        result = game.result
        scale = self.reward_scale
        self._pending = {}
        self._queue = []
        self.rewards = {a: result.deltas[s] * scale for s, a in enumerate(AGENTS)}
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()
        for s, a in enumerate(AGENTS):
            self.infos[a] = {"deltas": list(result.deltas), "reason": result.reason, "seat": s}
        self.agent_selection = AGENTS[0]


def env(
    rules: Rules | str = "app",
    seed: int | None = None,
    reward_scale: float = 1.0,
    render_mode: str | None = None,
) -> raw_env:
    """The AEC environment (see the module docstring); call ``reset()`` before anything else."""
    return raw_env(rules, seed, reward_scale, render_mode)
