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

Observations hold what the seat may see only (docs/rules.md R12): ``{"observation": float32 (90, 27),
"action_mask": int8 (584,)}``, the planes exactly ``encode(game.view(seat))``, kept up to date from the hand's
events by a :class:`~sichuan_mahjong.rl.tracker.PlaneTracker` rather than rebuilt; the mask is all zeros
except for the selected agent. Rewards are each seat's
points for the hand × ``reward_scale``, given when the hand ends (every agent is then terminated) and zero
before; they sum to zero. An action that is not legal raises :class:`~sichuan_mahjong.IllegalActionError`
naming it and the legal ones (wrap the env in ``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` to end
the episode instead).

``reset(seed=...)`` seeds the sequence of hands (``env(seed=...)`` too); ``reset(options={"game": g})`` plays
a hand you built, e.g. ``Game.setup(...)``, and ``reset(options={"deal": {"hands": [...], "wall": ...}})``
scripts one under the env's rules (other keys are refused, but for the ``"options"`` key PettingZoo's api tests
send). ``env.unwrapped.game`` is the engine's :class:`~sichuan_mahjong.Game` — for tests and tools; an agent
that reads it sees hidden tiles. ``view(agent)`` is what that seat may see (for a bot: rl/bots.py).

``turns="cycle"`` selects all four agents in order every round (an agent that is not asked has the mask of
``pass`` alone and must answer it; every agent's mask is its mask for the round, selected or not), which is
what PettingZoo's ``aec_to_parallel`` expects: its metadata then says ``is_parallelizable``. ``flatten=True``
gives a flat ``Box`` observation (spaces.flat_space). ``clone()``, ``copy.deepcopy`` and ``pickle`` give an
independent env that continues identically.

>>> e = env(seed=1)
>>> e.reset()
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated else int(obs["action_mask"].argmax()))
>>> sum(e.unwrapped.game.result.deltas)
0
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, Final

from pettingzoo import AECEnv

from sichuan_mahjong.game.actions import PASS, Action
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
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

__all__ = ["AGENTS", "TURNS", "env", "raw_env"]

AGENTS: Final = ("player_0", "player_1", "player_2", "player_3")
TURNS: Final = ("asked", "cycle")
_IDLE: Final = (PASS,)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801  # PettingZoo's name; pettingzoo ships no types
    """The unwrapped environment (PettingZoo's naming); see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's attribute; is_parallelizable set per instance
        "render_modes": ["human", "ansi"],
        "name": "sichuan_mahjong_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "app",
        seed: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        *,
        turns: str = "asked",
        flatten: bool = False,
    ) -> None:
        super().__init__()
        if turns not in TURNS:
            raise ValueError(f"turns must be one of {', '.join(TURNS)}, got {turns!r}")
        self.turns = turns
        self.flatten = bool(flatten)
        self.metadata = {**self.metadata, "is_parallelizable": turns == "cycle"}
        self.rules = as_rules(rules)
        self.reward_scale = as_scale(reward_scale)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = list(AGENTS)
        self._seat = {a: s for s, a in enumerate(AGENTS)}
        self._dict_space = observation_space()
        obs_space: Any = self._dict_space
        act_space = action_space()
        if self.flatten:
            obs_space = flat_space(obs_space)
        self.observation_spaces = dict.fromkeys(AGENTS, obs_space)
        self.action_spaces = dict.fromkeys(AGENTS, act_space)
        self._hand_seeds = random.Random(seed)
        self._tracker = PlaneTracker()
        self.game: Game | None = None
        self._pending: dict[int, list[Action]] = {}
        self._queue: list[int] = []
        self._at = 0  # the selected agent's place in the queue
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
        given = game_from_options(options, self.rules, ignored=("options",))
        if given is not None:
            self.game = given
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

    def observe(self, agent: str) -> Any:
        seat = self._seat[agent]
        if self.game is None:
            raise RuntimeError("call reset() before observing or rendering")
        if not self._queue or (agent != self.agent_selection and self.turns == "asked"):
            mask = legal_mask(())
        else:  # turns="cycle": every seat's mask for this round, pass alone for a seat not asked
            legal = self._pending.get(seat)
            mask = idle_mask() if legal is None else legal_mask(legal)
        obs: Obs = {"observation": self._tracker.observe(seat), "action_mask": mask}
        return flat_obs(self._dict_space, obs) if self.flatten else obs

    def view(self, agent: str) -> Observation:
        """What ``agent``'s seat may see now (``game.view(seat)``, docs/rules.md R12): the input of a bot's ``act``."""
        return self._game().view(self._seat[agent])

    def legal_actions(self, agent: str) -> Sequence[Action]:
        """The actions ``agent`` may take now: empty unless it is selected and asked (a bot's ``legal``)."""
        if agent != self.agent_selection:
            return ()
        return self._pending.get(self._seat[agent], ())

    def clone(self) -> raw_env:
        """An independent copy that continues identically (``copy.deepcopy``; ``pickle`` works too)."""
        return copy.deepcopy(self)

    def step(self, action: Any) -> None:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        answers = self._answers
        legal = self._pending.get(seat)
        if legal is None:  # turns="cycle": a seat not asked answers pass, which is not passed on
            checked_action(action, _IDLE, f"{agent} (not asked now)")
        else:
            answers[seat] = checked_action(action, legal, agent)
        self._cumulative_rewards[agent] = 0.0
        queue = self._queue
        self._at += 1
        if self._at < len(queue):
            self.agent_selection = AGENTS[queue[self._at]]
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
        return rendered(self.render_mode, self._game().view(self._seat[self.agent_selection]), AGENTS)

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
        self._at = 0
        if self.turns == "cycle":
            self._queue = [0, 1, 2, 3]
        elif len(pending) == 1:
            self._queue = list(pending)
        else:
            turn = self._game().turn
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
    *,
    turns: str = "asked",
    flatten: bool = False,
) -> raw_env:
    """The AEC environment (see the module docstring); call ``reset()`` before anything else."""
    return raw_env(rules, seed, reward_scale, render_mode, turns=turns, flatten=flatten)
