"""Tournaments of bots: duplicate deals, statistics with confidence intervals, process and Ray back ends."""

from sichuan_mahjong.sim.runner import BACKENDS, SimulationError, play_deal, play_hand, run_tournament
from sichuan_mahjong.sim.stats import DealResult, PlayerOutcome, PlayerStats, Summary

__all__ = [
    "BACKENDS",
    "DealResult",
    "PlayerOutcome",
    "PlayerStats",
    "SimulationError",
    "Summary",
    "play_deal",
    "play_hand",
    "run_tournament",
]
