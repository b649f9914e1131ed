"""Bots named by spec: a registered name (``expert``) or ``module:factory``, any importable callable returning an
:class:`~sichuan_mahjong.agents.Agent` — your own bot, wherever the built-in names go (``scmj simulate --players``,
``scmj play --bots``, the RL envs' ``opponents``, :func:`~sichuan_mahjong.agents.make_agent`).

The factory is called with the seed the table gives that seat (an ``int``, or None for fresh entropy), like the
registered factories; a factory that takes no argument is called without it. ``module`` is imported as Python
imports it (on ``sys.path``, e.g. ``PYTHONPATH``), and from the current directory when it is not found there, as
``python -m`` would. ``factory`` may be a dotted path inside the module (``mymod:Bots.strong``). What is wrong is
named: a module not found, an attribute missing, a factory that raised or returned something that is not an Agent
(every error an :class:`~sichuan_mahjong.agents.UnknownAgentError`, a ``ValueError``).

>>> from sichuan_mahjong.agents import make_agent
>>> make_agent("sichuan_mahjong.agents.random_agent:RandomAgent", seed=1).name
'random'
>>> make_agent("sichuan_mahjong.agents:nothing")
Traceback (most recent call last):
...
sichuan_mahjong.agents.base.UnknownAgentError: bot 'sichuan_mahjong.agents:nothing': module ... attribute 'nothing'
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from sichuan_mahjong.agents.base import Agent, UnknownAgentError

__all__ = ["import_module", "is_spec", "make_from_spec", "resolve_factory"]


def is_spec(name: str) -> bool:
    """Whether ``name`` is a ``module:factory`` spec rather than a registered bot name."""
    return ":" in name


def _import(spec: str, module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if not (module_name == missing or module_name.startswith(missing + ".")):
            raise UnknownAgentError(f"bot {spec!r}: importing {module_name!r} failed: {exc}") from None
        here = os.getcwd()
        if here not in sys.path and "" not in sys.path:  # as `python -m` would find it
            sys.path.insert(0, here)
            importlib.invalidate_caches()
            return _import(spec, module_name)
        raise UnknownAgentError(
            f"bot {spec!r}: no module named {missing!r} (on sys.path or in the current directory {here})"
        ) from None
    except Exception as exc:  # the module itself fails: say so in one line
        raise UnknownAgentError(f"bot {spec!r}: importing {module_name!r} raised {type(exc).__name__}: {exc}") from None


def import_module(module_name: str) -> ModuleType:
    """Import a bot module as a spec would (from the current directory too), or an UnknownAgentError naming it."""
    if not module_name.strip():
        raise UnknownAgentError("a bot module name is empty")
    return _import(module_name, module_name.strip())


def resolve_factory(spec: str) -> Callable[..., Any]:
    """The callable a ``module:factory`` spec names, imported, or an UnknownAgentError saying what is wrong."""
    module_name, _, attr = spec.partition(":")
    module_name, attr = module_name.strip(), attr.strip()
    if not module_name or not attr:
        raise UnknownAgentError(f"bot {spec!r}: a spec is module:factory, e.g. mypkg.mybot:make")
    obj: Any = _import(spec, module_name)
    where = module_name
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UnknownAgentError(f"bot {spec!r}: module {where!r} has no attribute {part!r}")
        obj = getattr(obj, part)
        where = f"{where}.{part}"
    if not callable(obj):
        raise UnknownAgentError(f"bot {spec!r}: {where} is a {type(obj).__name__}, not a factory to call")
    return obj  # type: ignore[no-any-return]


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature to read: call it as the registry does
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params)


def make_from_spec(spec: str, seed: int | None = None) -> Agent:
    """A new bot from a ``module:factory`` spec, seeded ``seed``; checked to be an :class:`Agent`."""
    factory = resolve_factory(spec)
    call = spec.partition(":")[2].strip()
    try:
        agent = factory(seed) if _takes_seed(factory) else factory()
    except Exception as exc:
        raise UnknownAgentError(f"bot {spec!r}: {call}(seed) raised {type(exc).__name__}: {exc}") from None
    if not isinstance(agent, Agent):
        raise UnknownAgentError(
            f"bot {spec!r}: {call}(seed) returned {type(agent).__name__}, not an Agent "
            "(a bot needs a name and act(view, legal) returning one of legal)"
        )
    return agent
