"""The Gymnasium environment ``SichuanMahjong-v0``: one seat of one hand, the other three played by bots.

``gymnasium.make("SichuanMahjong-v0", rules="app", opponents="expert")`` (after ``import sichuan_mahjong.rl``, or
as ``"sichuan_mahjong.rl:SichuanMahjong-v0"`` without it). Options:

* ``rules``: a :class:`~sichuan_mahjong.Rules` or a preset name (``"app"``, ``"seed"``, ...);
* ``opponents``: one bot name for all three (``"expert"``), or one per seat in play order after ``seat``, as a
  list or a comma-separated string (``"expert,random,efficient"``); any name of
  :func:`~sichuan_mahjong.agents.agent_names`, or an object with ``act(view, legal)``;
* ``seat``: the learner's seat, 0..3 (the dealer is rolled by the dice, so any seat deals as often);
* ``reward_scale``: the reward is the seat's points for the hand × this, at the end, 0 before;
* ``illegal``: what an action outside the mask does: ``"penalty"`` (default: the episode ends with reward
  ``illegal_reward`` × ``reward_scale``, ``info["illegal_action"]`` set, the hand abandoned) or ``"raise"``
  (:class:`~sichuan_mahjong.IllegalActionError`). Gymnasium's own checker steps random unmasked actions, so
  ``"penalty"`` is the default; mask your policy (``obs["action_mask"]`` or ``env.action_masks()``);
* ``render_mode``: ``"ansi"`` (``render()`` returns the table as text) or ``"human"`` (prints it each step);
* ``flatten``: a flat ``Box`` observation, Gymnasium's ``flatten`` of the Dict (the mask's 584 cells, then the
  planes), for wrappers that take a Box only.

The observation is the AEC env's: ``{"observation": float32 (90, 27), "action_mask": int8 (584,)}`` from this
seat's view only. The bots see their own views only and answer before the learner's answer is applied, so
their answers never depend on it. ``reset(seed=...)`` seeds the hands and the bots: a bot given by name is
made anew, a bot given as an object is reseeded (rl/bots.py ``reseed``), so a seed replays the same hand.
``reset(options={"game": g})`` or ``{"deal": {"hands": [...], "wall": ...}}`` plays a scripted hand (other keys
are refused). Once the episode is over the mask holds ``pass`` alone (never all zeros, for vector envs whose
autoreset hands back the final observation). ``clone()``, ``copy.deepcopy`` and ``pickle`` give an independent
env that continues identically. A hand that ends before
the seat is asked anything (a 天胡 in a mode without 换三张, say) is skipped and counted in
``info["skipped_hands"]`` with the seat's points in ``info["skipped_rewards"]``; it is rare.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from sichuan_mahjong.agents import Agent, make_agent
from sichuan_mahjong.game.actions import Action, IllegalActionError
from sichuan_mahjong.game.loop import play
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.bots import reseed
from sichuan_mahjong.rl.render import rendered
from sichuan_mahjong.rl.spaces import (
    RENDER_MODES,
    Obs,
    action_index,
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

__all__ = ["SichuanMahjongEnv"]

_SEED_BOUND: Final = 2**62
ILLEGAL_MODES: Final = ("penalty", "raise")


def _opponent_specs(opponents: str | Sequence[str | Agent]) -> list[str | Agent]:
    if isinstance(opponents, str):
        names: list[str | Agent] = [n.strip() for n in opponents.split(",")]
    else:
        names = list(opponents)
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise ValueError(f"opponents: one bot for all three seats or one per seat (three), got {len(names)}: {names}")
    for n in names:
        if isinstance(n, str):
            make_agent(n, 0)  # an unknown name raises UnknownAgentError listing the bots
        elif not callable(getattr(n, "act", None)):
            raise TypeError(f"opponents: a bot name or an object with act(view, legal), got {n!r}")
    return names


class SichuanMahjongEnv(gymnasium.Env[Any, np.int64]):
    """One seat against three bots; see the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012  # Gymnasium's attribute

    def __init__(
        self,
        rules: Rules | str = "app",
        opponents: str | Sequence[str | Agent] = "expert",
        seat: int = 0,
        reward_scale: float = 1.0,
        illegal: str = "penalty",
        illegal_reward: float = -16.0,
        render_mode: str | None = None,
        flatten: bool = False,
    ) -> None:
        self.rules = as_rules(rules)
        self._specs = _opponent_specs(opponents)
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        self.seat = seat
        self.reward_scale = as_scale(reward_scale)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = check_render_mode(render_mode)
        self.flatten = bool(flatten)
        self._dict_space = observation_space()
        self.observation_space = flat_space(self._dict_space) if self.flatten else self._dict_space
        self.action_space = action_space()
        self._tracker = PlaneTracker()
        self.game: Game | None = None
        self._bots: dict[int, Agent] = {}
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        scripted = game_from_options(options, self.rules)
        skipped: list[float] = []
        while True:
            rng = self.np_random
            game_seed = int(rng.integers(_SEED_BOUND))
            game = self.game = scripted if scripted is not None else Game(self.rules, seed=game_seed)
            self._tracker.reset(game)
            others = [(self.seat + k) % 4 for k in (1, 2, 3)]
            self._bots = {}
            for s, spec in zip(others, self._specs, strict=True):
                bot_seed = int(rng.integers(_SEED_BOUND))
                self._bots[s] = make_agent(spec, bot_seed) if isinstance(spec, str) else reseed(spec, bot_seed)
            self._play_bots()
            if not game.is_over:
                break
            if scripted is not None:
                raise ValueError(f"the scripted hand ends before seat {self.seat} is asked anything")
            skipped.append(game.result.deltas[self.seat] * self.reward_scale)
        self._done = False
        info: dict[str, Any] = {}
        if skipped:
            info = {"skipped_hands": len(skipped), "skipped_rewards": skipped}
        if self.render_mode == "human":
            self.render()
        return self._observe(), info

    def step(self, action: np.int64 | int) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or self._done:
            raise RuntimeError("the episode is over (or never began): call reset()")
        pending = game.to_act()
        who = f"seat {self.seat}"
        index = action_index(action, who)  # not an action at all ("13", 3.0, 584): refused in any mode
        try:
            mine = checked_action(index, pending[self.seat], who)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._done = True
            return self._observe(), self.illegal_reward * self.reward_scale, True, False, {"illegal_action": True}
        self._play_bots({self.seat: mine})
        reward = 0.0
        info: dict[str, Any] = {}
        if game.is_over:
            self._done = True
            result = game.result
            reward = result.deltas[self.seat] * self.reward_scale
            info = {"deltas": list(result.deltas), "reason": result.reason}
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, self._done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now as booleans (the name sb3-contrib's ``MaskablePPO`` looks for); ``pass`` alone
        once the episode is over."""
        if self.game is None or self._done:
            return idle_mask().astype(np.bool_)
        return legal_mask(self.game.view(self.seat).legal).astype(np.bool_)

    def clone(self) -> SichuanMahjongEnv:
        """An independent copy that continues identically (``copy.deepcopy``; ``pickle`` works too)."""
        return copy.deepcopy(self)

    def render(self) -> str | None:
        """``ansi``: the table as text; ``human``: prints it and returns None."""
        if self.game is None:
            return None
        return rendered(self.render_mode, self.game.view(self.seat))

    def _play_bots(self, given: dict[int, Action] | None = None) -> None:
        """Step with the learner's answer (``given``) if any, then let the bots answer until the learner is asked
        (alone or with others) or the hand is over."""
        seat = self.seat
        play(self._game(), self._bots, given=given, until=lambda game, pending: seat in pending)

    def _observe(self) -> Any:
        game = self._game()
        legal = game.to_act().get(self.seat) if not self._done else None
        mask = idle_mask() if legal is None else legal_mask(legal)
        obs: Obs = {"observation": self._tracker.observe(self.seat), "action_mask": mask}
        return flat_obs(self._dict_space, obs) if self.flatten else obs

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game
