"""Bots behind one protocol, ``act(view, legal) -> action``, selectable by name or ``module:factory`` (your own).

>>> from sichuan_mahjong.agents import make_agent, agent_names
>>> agent_names()
['random', 'efficient', 'expert', 'master', 'neural']
>>> make_agent("efficient", seed=1).name
'efficient'
"""

from sichuan_mahjong.agents.base import (
    AGENTS,
    Agent,
    UnknownAgentError,
    agent_names,
    check_agent,
    make_agent,
    register,
)
from sichuan_mahjong.agents.efficient import EfficientAgent
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.agents.neural import NeuralAgent
from sichuan_mahjong.agents.random_agent import RandomAgent

__all__ = [
    "AGENTS",
    "Agent",
    "EfficientAgent",
    "ExpertAgent",
    "MasterAgent",
    "NeuralAgent",
    "RandomAgent",
    "UnknownAgentError",
    "agent_names",
    "check_agent",
    "make_agent",
    "register",
]
