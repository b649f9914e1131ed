"""Per-player tournament statistics: mean points per hand with a 95% confidence interval, rates, 查叫.

The sampling unit is a *deal*, not a hand: with duplicate deals one deal is played four times with the seats
rotated, and those four hands share their luck, so treating them as independent would make the interval too
narrow. Each deal contributes one number per player (his mean over its hands) and the interval is taken over
deals. Without duplicate deals a deal is one hand and this is the ordinary interval.

Everything here is plain data so that worker processes (or Ray tasks) can send results back cheaply, and
accumulators merge so a long run can be summed in any order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["DealResult", "PlayerOutcome", "PlayerStats", "Summary", "summarize", "t_quantile_975"]


@dataclass(frozen=True, slots=True)
class PlayerOutcome:
    """What one hand did for one player (wherever he sat). Points are in units of the base."""

    points: float
    won: bool = False
    self_draw: bool = False
    dealt_in: bool = False  # paid for a win on his discard (点炮) or a kong robbed from him
    fan: int | None = None  # fan of his win, when he won
    check_paid: bool = False  # paid in 查叫 (not ready when the wall ran out)
    check_received: bool = False  # was paid in 查叫 (ready when the wall ran out)


@dataclass(frozen=True, slots=True)
class DealResult:
    """The hands played from one deal: one hand, or four with the seats rotated (duplicate).

    ``hands[h][i]`` is the outcome of the i-th player (in the tournament's player order) in hand h.
    """

    seed: int
    hands: tuple[tuple[PlayerOutcome, ...], ...]


# Two-sided 95% quantiles of Student's t for small numbers of deals; 1.96 beyond.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)  # fmt: skip


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of t with ``df`` degrees of freedom (so a short run is not overconfident)."""
    if df < 1:
        return math.inf
    return _T975[df - 1] if df <= len(_T975) else 1.96


@dataclass(slots=True)
class PlayerStats:
    """Running sums for one player; :meth:`merge` adds another's."""

    hands: int = 0
    deals: int = 0
    points: float = 0.0
    deal_sum: float = 0.0  # sum over deals of the deal's mean points per hand
    deal_sumsq: float = 0.0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    fan_sum: int = 0
    check_paid: int = 0
    check_received: int = 0

    def add_deal(self, outcomes: Sequence[PlayerOutcome]) -> None:
        if not outcomes:
            return
        mean = sum(o.points for o in outcomes) / len(outcomes)
        self.deals += 1
        self.deal_sum += mean
        self.deal_sumsq += mean * mean
        for o in outcomes:
            self.hands += 1
            self.points += o.points
            self.wins += o.won
            self.self_draws += o.self_draw
            self.deal_ins += o.dealt_in
            self.fan_sum += o.fan or 0
            self.check_paid += o.check_paid
            self.check_received += o.check_received

    def merge(self, other: PlayerStats) -> None:
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def mean(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Interval over deals (see the module docstring); infinite with fewer than two deals."""
        n = self.deals
        if n < 2:
            return (-math.inf, math.inf)
        mean = self.deal_sum / n
        var = max(0.0, (self.deal_sumsq - n * mean * mean) / (n - 1))
        half = t_quantile_975(n - 1) * math.sqrt(var / n)
        return (self.mean - half, self.mean + half)

    def rate(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0

    @property
    def average_fan(self) -> float | None:
        return self.fan_sum / self.wins if self.wins else None


@dataclass(slots=True)
class Summary:
    """A tournament's result: statistics per player, in the order the players were named."""

    players: list[str]
    stats: list[PlayerStats] = field(default_factory=list)
    duplicate: bool = False
    rules: dict[str, object] = field(default_factory=dict)
    seed: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if not self.stats:
            self.stats = [PlayerStats() for _ in self.players]

    def add(self, deal: DealResult) -> None:
        for i, st in enumerate(self.stats):
            st.add_deal([hand[i] for hand in deal.hands])

    @property
    def hands(self) -> int:
        return self.stats[0].hands if self.stats else 0

    def to_dict(self) -> dict[str, object]:
        """The JSON of ``scmj simulate --json``: entry i of each list belongs to the i-th player named."""

        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            "hands": self.hands,
            "deals": self.stats[0].deals if self.stats else 0,
            "players": list(self.players),
            "mean": [s.mean for s in self.stats],
            "ci95": [[finite(s.ci95[0]), finite(s.ci95[1])] for s in self.stats],
            "win_rate": [s.rate(s.wins) for s in self.stats],
            "self_draw_rate": [s.rate(s.self_draws) for s in self.stats],
            "deal_in_rate": [s.rate(s.deal_ins) for s in self.stats],
            "average_fan": [s.average_fan for s in self.stats],
            "check_paid_rate": [s.rate(s.check_paid) for s in self.stats],
            "check_received_rate": [s.rate(s.check_received) for s in self.stats],
            "duplicate": self.duplicate,
            "seed": self.seed,
            "rules": self.rules,
            "seconds": self.seconds,
            "hands_per_second": self.hands / self.seconds if self.seconds > 0 else None,
        }

    def table(self) -> str:
        """A plain text table for the terminal."""
        head = f"{'player':<14}{'pts/hand':>10}{'95% CI':>22}{'win':>7}{'tsumo':>7}{'deal-in':>8}{'fan':>6}" + (
            f"{'查叫-':>7}{'查叫+':>7}"
        )
        lines = [head]
        for name, s in zip(self.players, self.stats, strict=True):
            lo, hi = s.ci95
            fan = f"{s.average_fan:.2f}" if s.average_fan is not None else "-"
            lines.append(
                f"{name:<14}{s.mean:>10.3f}{f'[{lo:+.3f}, {hi:+.3f}]':>22}{s.rate(s.wins):>7.1%}"
                f"{s.rate(s.self_draws):>7.1%}{s.rate(s.deal_ins):>8.1%}{fan:>6}"
                f"{s.rate(s.check_paid):>8.1%}{s.rate(s.check_received):>8.1%}"
            )
        rate = f", {self.hands / self.seconds:.0f} hands/s" if self.seconds > 0 else ""
        dup = " (duplicate deals)" if self.duplicate else ""
        lines.append(f"{self.hands} hands{dup} in {self.seconds:.1f} s{rate}")
        return "\n".join(lines)


def summarize(players: Sequence[str], deals: Iterable[DealResult], *, duplicate: bool = False) -> Summary:
    summary = Summary(list(players), duplicate=duplicate)
    for deal in deals:
        summary.add(deal)
    return summary
