"""The one play loop: ask every seat the hand waits for, with its own view and legal answers, and step.

Every driver of a hand goes through it: a match (``match.py``), a tournament (``sim/runner.py``), the Gym env's
opponents (``rl/gym_env.py``), the master's play-outs (``agents/master.py``), the review's set-up samples
(``review/value.py``) and, one decision at a time, the terminal table (``tui/session.py``, through :func:`ask`).
An agent is anything with ``act(view, legal)`` or a bare function of that shape, asked exactly when
:meth:`Game.to_act` names its seat, with ``game.view(seat)`` and nothing else (RULES.md R12).

>>> import random
>>> game, rng = Game(seed=5), random.Random(0)
>>> steps = play(game, [lambda view, legal: rng.choice(legal)] * 4)
>>> game.is_over, steps > 0
(True, True)
>>> game = Game(seed=5)
>>> play(game, [lambda view, legal: legal[-1]] * 4, max_steps=3)
3
>>> steps = play(game, [lambda view, legal: legal[-1]] * 4, until=lambda game, pending: 2 in pending)
>>> 2 in game.to_act(), game.is_over
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation

__all__ = ["ActFunction", "AgentLike", "Agents", "Pending", "ask", "play"]


@runtime_checkable
class _HasAct(Protocol):
    def act(self, view: Observation, legal: Sequence[Action]) -> Action: ...


ActFunction = Callable[[Observation, Sequence[Action]], Action]
#: A bot of ``sichuan_mahjong.agents`` (anything with ``act(view, legal)``) or a bare function of the same shape.
AgentLike = _HasAct | ActFunction
#: One agent per seat: a sequence of four, or a mapping of the seats that may be asked.
Agents = Sequence[AgentLike] | Mapping[int, AgentLike]
#: What :meth:`Game.to_act` returns: every seat asked now, with its legal answers.
Pending = dict[int, list[Action]]


def _acts(agents: Agents) -> dict[int, ActFunction]:
    pairs = agents.items() if isinstance(agents, Mapping) else enumerate(agents)
    return {s: a.act if isinstance(a, _HasAct) else a for s, a in pairs}


def ask(
    game: Game, agents: Agents, pending: Pending | None = None, given: Mapping[int, Action] | None = None
) -> dict[int, Action]:
    """The answers of every seat asked now (``pending``, by default ``game.to_act()``): those in ``given`` as
    they are, every other one from its agent, asked in the order of ``pending``."""
    return _ask(game, _acts(agents), game.to_act() if pending is None else pending, given or {})


def _ask(game: Game, acts: dict[int, ActFunction], pending: Pending, given: Mapping[int, Action]) -> dict[int, Action]:
    return {s: given[s] if s in given else acts[s](game.view(s), legal) for s, legal in pending.items()}


def play(
    game: Game,
    agents: Agents,
    *,
    given: Mapping[int, Action] | None = None,
    until: Callable[[Game, Pending], bool] | None = None,
    on_step: Callable[[Game], None] | None = None,
    max_steps: int | None = None,
) -> int:
    """Play ``game`` on in place until it is over, and return the number of steps taken.

    ``given`` answers for its seats at the first step (always taken; the others asked then answer as their
    agents say). Before every later step ``until(game, pending)`` may stop the loop (``pending`` is what
    ``game.to_act()`` returned). ``on_step(game)`` runs after every step; ``max_steps`` stops after that many.
    An illegal answer raises ``IllegalActionError`` from the engine.
    """
    acts = _acts(agents)
    steps = 0
    if given is not None and not game.is_over:
        game.step(_ask(game, acts, game.to_act(), given))
        steps = 1
        if on_step is not None:
            on_step(game)
    while not game.is_over and (max_steps is None or steps < max_steps):
        pending = game.to_act()
        if until is not None and until(game, pending):
            break
        game.step({s: acts[s](game.view(s), legal) for s, legal in pending.items()})
        steps += 1
        if on_step is not None:
            on_step(game)
    return steps
