"""Bots and policies across the env's boundary, both ways, and reseeding a bot object.

* A bot at a seat of the AEC or parallel env: :func:`bot_action` asks any :class:`~sichuan_mahjong.agents.Agent`
  (built in or yours) for that seat's answer from what the seat may see — ``env.view(agent)``, the seat's
  ``game.view(seat)`` (docs/rules.md R12), and ``env.legal_actions(agent)`` — and returns the action's index for
  ``env.step``. It never reads the game itself, so the bot cannot see hidden tiles
  (``tests/rl/test_rl_bots.py`` checks it: the same view gives the same action whatever the hidden tiles).
* A policy as a bot: :class:`ObservationAgent` wraps any function from the env's observation (the planes and
  the mask; flat with ``flatten=True``) to an action index into an ``Agent``, so it plays wherever a bot does:
  ``scmj simulate --players mymod:factory,...``, the Gymnasium env's ``opponents``, a bot seat.
* :func:`reseed`: what ``reset(seed)`` does to a bot passed as an object.

>>> from sichuan_mahjong import rl
>>> from sichuan_mahjong.agents import make_agent
>>> e = rl.env(seed=0)
>>> e.reset()
>>> expert = make_agent("expert", seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated else rl.bot_action(e, agent, expert))
>>> sum(info["deltas"])
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from sichuan_mahjong.agents.features import Encoder
from sichuan_mahjong.game.actions import PASS, Action
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.rl.spaces import checked_action, flat_obs, legal_mask, observation_space

__all__ = ["ObservationAgent", "SeatEnv", "bot_action", "reseed"]

_B = TypeVar("_B")
#: Attribute names a bot's random generator is looked for under when it has no ``seed`` method.
_RNG_NAMES = ("rng", "_rng", "random", "_random")


class SeatEnv(Protocol):
    """What :func:`bot_action` needs of an env: the AEC env (``rl.env``) and the parallel env have both."""

    def view(self, agent: str) -> Observation: ...

    def legal_actions(self, agent: str) -> Sequence[Action]: ...


def bot_action(env: SeatEnv, agent: str, bot: Any) -> int:
    """The index of ``bot.act(view, legal)`` for ``agent``'s seat: its view and its legal actions, nothing else.

    ``env`` is the AEC or parallel env (``.unwrapped`` of a wrapped one). An agent with nothing to do now (not
    asked in the parallel env, or with ``turns="cycle"``) gets ``pass``, its one allowed answer, without asking
    the bot."""
    legal = env.legal_actions(agent)
    if not legal:
        return PASS.index
    action = bot.act(env.view(agent), legal)
    if not isinstance(action, Action):
        raise TypeError(f"the bot at {agent} answered {action!r}, not an Action from its legal list")
    return checked_action(action.index, legal, f"the bot at {agent}").index


class ObservationAgent:
    """An :class:`~sichuan_mahjong.agents.Agent` from a policy over the env's observation.

    ``policy(obs) -> action index``, where ``obs`` is what the envs give a seat: ``{"observation": planes,
    "action_mask": mask}``, or the flat vector with ``flatten=True``. The planes are ``encode(view)``, equal to
    the env's. An index outside the mask raises :class:`~sichuan_mahjong.IllegalActionError` naming it.
    """

    def __init__(
        self, policy: Callable[[Any], Any], name: str = "policy", *, flatten: bool = False, seed: int | None = None
    ) -> None:
        self.policy = policy
        self.name = name
        self.flatten = flatten
        self.rng = random.Random(seed)  # for a policy that samples: reseeded as any bot's is
        self._encode = Encoder()
        self._space = observation_space()

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        obs: dict[str, Any] = {"observation": self._encode(view), "action_mask": legal_mask(legal)}
        choice = self.policy(flat_obs(self._space, obs) if self.flatten else obs)
        return checked_action(choice, legal, self.name)


def reseed(bot: _B, seed: int) -> _B:
    """Reseed a bot object in place and return it: ``bot.seed(seed)`` if it has that method, else every
    ``random.Random`` / ``numpy.random.Generator`` among its attributes (``rng`` as the built-in bots keep it,
    or any other). A bot with neither keeps its state: it is deterministic, or its randomness is beyond reach."""
    hook = getattr(bot, "seed", None)
    if callable(hook):
        hook(seed)
        return bot
    names = list(_RNG_NAMES)
    names += [n for n in getattr(bot, "__dict__", {}) if n not in names]
    for k, name in enumerate(names):
        value = getattr(bot, name, None)
        if isinstance(value, random.Random):
            value.seed(seed * 31 + k)
        elif isinstance(value, np.random.Generator):
            setattr(bot, name, np.random.default_rng(seed * 31 + k))
    return bot
