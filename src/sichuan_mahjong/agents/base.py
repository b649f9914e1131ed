"""The bot protocol and the registry of bots by name.

A bot sees exactly what a human at that seat would (``game.view(seat)``, docs/rules.md R12) plus the legal answers,
and returns one of those answers. It never touches the game, so a bot is safe to run beside a server or a
record, and a tournament can give it any seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.view import Observation

__all__ = [
    "AGENTS",
    "Agent",
    "UnknownAgentError",
    "agent_names",
    "check_agent",
    "make_agent",
    "mypyc_attr",
    "register",
]

_T = TypeVar("_T")

# The bot classes the compiled build (scripts/compile.py) turns into native classes are marked
# ``@mypyc_attr(allow_interpreted_subclasses=True)``, as other bots derive from them in pure Python, and are
# registered after their bodies: a class under any other decorator would not be a native class.
try:  # pure Python needs no mypy installed
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - mypy_extensions comes with the dev extra

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` and ``act(view, legal) -> one of legal``."""

    name: str

    def act(self, view: Observation, legal: Sequence[Action]) -> Action: ...


class UnknownAgentError(ValueError):
    """A bot name that is not registered."""


AgentFactory = Callable[[int | None], Agent]
#: Bot factories by name; each takes a seed (None: fresh entropy) and returns a new bot.
AGENTS: dict[str, AgentFactory] = {}


def register(name: str) -> Callable[[AgentFactory], AgentFactory]:
    """Add a bot class (or any factory taking a seed) to the registry under ``name``."""

    def add(factory: AgentFactory) -> AgentFactory:
        AGENTS[name] = factory
        return factory

    return add


#: The built-in tiers, weakest first; bots registered later follow in name order.
_TIERS = ("random", "efficient", "expert", "master")


def agent_names() -> list[str]:
    return sorted(AGENTS, key=lambda n: (_TIERS.index(n) if n in _TIERS else len(_TIERS), n))


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A new bot by name (``random``, ``efficient``, ``expert``, ``master``); its own ``random.Random(seed)``.

    ``module:factory`` makes your own: any importable callable returning an Agent (agents/spec.py)."""
    if ":" in name:
        from sichuan_mahjong.agents.spec import make_from_spec

        return make_from_spec(name, seed)
    try:
        factory = AGENTS[name]
    except KeyError:
        raise UnknownAgentError(
            f"unknown bot {name!r}; bots: {', '.join(agent_names())}, or module:factory for your own"
        ) from None
    return factory(seed)


def check_agent(name: str) -> None:
    """Raise UnknownAgentError unless ``name`` is a registered bot or a ``module:factory`` spec that makes one
    (made once here, so that a table fails before its first hand rather than in a worker)."""
    if ":" in name:
        make_agent(name, 0)
    elif name not in AGENTS:
        make_agent(name)  # raises, listing the bots
