"""Registers ``learned`` (``learned.py``, the expert imitated by a network) for the
benchmarks: ``strength.py --import learned_bots --agent learned ...``. It is not among the players' bots: it
loses 1.3 to 1.6 points a hand to ``efficient`` (``docs/experiments.md``)."""

from learned import LearnedAgent

from sichuan_mahjong.agents import register

register("learned")(LearnedAgent)
