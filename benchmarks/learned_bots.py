"""Registers ``learned`` (:mod:`sichuan_mahjong.agents.learned`, the expert imitated by a network) for the
benchmarks: ``strength.py --import learned_bots --agent learned ...``. It is not among the players' bots: it
loses 1.3 to 1.6 points a hand to ``efficient`` (``docs/bots.md``)."""

from sichuan_mahjong.agents import register
from sichuan_mahjong.agents.learned import LearnedAgent

register("learned")(LearnedAgent)
