"""The expert with the table read by ``agents/reader.py``: the variants screened in docs/experiments.md.

Import it into ``benchmarks/strength.py`` to name them, e.g.
``.venv/bin/python benchmarks/strength.py --import reader_variants --agent live_ready --baseline-agent expert
--field expert --hands 4000 --jobs 2 --seed 43`` (run from ``benchmarks/``, or with it on ``PYTHONPATH``).

* ``read_danger_X``: the expert whose danger is the learned P(deal-in) x his win's cost, weighed X against the
  hand's value (the expert weighs its own, flat danger 0.05);
* ``live``: the expert counting each unseen kind by how many copies will reach it (``reader.live_counts``)
  instead of all unseen copies alike, everywhere; ``live_ready`` only for a ready hand's waits, ``live_far``
  only before it is ready.
"""

from __future__ import annotations

from collections.abc import Callable

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.expert import ExpertAgent, TableRead, feared_loss
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.agents.reader import deal_in, live_counts
from sichuan_mahjong.game.view import Observation

DANGER_WEIGHTS = (0.3, 1.0, 3.0, 6.0)


class ReadTable(TableRead):
    """The expert's table read with its danger learned: for each tile this seat holds, the sum over the others
    of P(it deals in to him) x what his win would cost (2**fan, feared bigger after 报叫 or one-suit melds)."""

    __slots__ = ()

    def __init__(self, view: Observation, h: HandState) -> None:
        super().__init__(view, h)
        danger = [0.0] * len(self.danger)
        held = [t for t, n in enumerate(h.counts) if n]
        for t, risks in deal_in(view, h, held).items():
            danger[t] = sum(p * feared_loss(view, o) for o, p in risks)
        self.danger = danger


def _read_danger(weight: float) -> type[ExpertAgent]:
    class ReadDanger(ExpertAgent):
        name = f"read_danger_{weight}"

        def __init__(self, seed: int | None = None) -> None:
            super().__init__(seed, danger_scale=weight)

        def read_table(self, view: Observation, h: HandState) -> TableRead:
            return ReadTable(view, h)

    return ReadDanger


class _Live(ExpertAgent):
    """Live counts where ``scope`` says: ``all``, ``ready`` (a ready hand's waits), ``far`` (before ready)."""

    live_scope = "all"

    def _hand(self, view: Observation) -> HandState:
        h = read_view(view)
        self._raw = h.unseen
        self._live = live_counts(view, h.unseen)
        if self.live_scope == "all":
            h.unseen = self._live  # type: ignore[assignment]
        return h

    def hand_value(
        self, view: Observation, h: HandState, read: TableRead, s: int, declared: bool, std: bool = True
    ) -> float:
        if self.live_scope == "all" or (s == 0) != (self.live_scope == "ready"):
            return super().hand_value(view, h, read, s, declared, std)
        raw = h.unseen
        h.unseen = self._live  # type: ignore[assignment]
        try:
            return super().hand_value(view, h, read, s, declared, std)
        finally:
            h.unseen = raw


def _live(scope: str) -> type[ExpertAgent]:
    return type(f"Live_{scope}", (_Live,), {"name": "live" if scope == "all" else f"live_{scope}", "live_scope": scope})


def _factory(cls: type[ExpertAgent]) -> Callable[[int | None], ExpertAgent]:
    def make(seed: int | None = None) -> ExpertAgent:
        return cls(seed)

    return make


for _cls in (*(_read_danger(w) for w in DANGER_WEIGHTS), *(_live(s) for s in ("all", "ready", "far"))):
    register(_cls.name)(_factory(_cls))
