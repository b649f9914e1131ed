"""When the server's Python collects cyclic garbage: every generation on a clock, none by Python's heuristic.

CPython's automatic full collection walks every tracked object in the process. With hundreds of tables (two
thousand sockets, their games and views) that is a few hundred thousand objects, and on this machine a walk of
that size holds the event loop for 0.1–0.5 s; every message that arrives meanwhile waits, so one full
collection inside a ten-second window was enough to push the latency p99 past 100 ms at 500 tables
(benchmarks/server.py). Almost nothing the server makes is cyclic garbage that lives long: full collections at
500 tables found 15–75 objects each.

Its automatic young collections are no better under that load. Python starts one when allocations minus
deallocations pass a threshold (700), but a deallocation of an *old* object counts too, and a server frees old
objects all the time (the view a new moment replaces, a finished hand). So the young generation grew to
76,000–88,000 objects before a collection came, and that one held the loop for 60–80 ms (gc callbacks at 500
tables, 2026-12-05). So while the server runs:

  * the objects made at start-up (modules, classes, the restored rooms) are frozen out of every collection;
  * Python's automatic collections are off (threshold 0);
  * generations 0 and 1 are collected together every ``young`` seconds (default :data:`YOUNG_EVERY`): each
    young object is walked once, and one collection holds what 50 ms of play made (a few thousand objects,
    5-12 ms at 500 tables) instead of what seconds made;
  * the full collection runs every ``every`` seconds; the counts and durations of both appear in ``/healthz``
    (``gc``).

``every = 0`` leaves Python's own policy. Leaving the context restores the thresholds and unfreezes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

__all__ = ["YOUNG_EVERY", "Collections", "scheduled_collections"]

log = logging.getLogger("sichuan_mahjong.server")

#: Seconds between the young collections (generations 0 and 1) while the server runs.
YOUNG_EVERY = 0.05


@dataclass
class Collections:
    """What the scheduled collections did (for ``/healthz``): full ones (``runs``...) and young ones."""

    every: float
    young: float = YOUNG_EVERY
    runs: int = 0
    last_ms: float = 0.0
    max_ms: float = 0.0
    found: int = 0
    young_runs: int = 0
    young_max_ms: float = 0.0

    def collect(self) -> None:
        """A full collection."""
        start = time.perf_counter()
        self.found += gc.collect()
        ms = (time.perf_counter() - start) * 1e3
        self.runs += 1
        self.last_ms, self.max_ms = ms, max(self.max_ms, ms)
        log.debug("full garbage collection: %.1f ms", ms)

    def collect_young(self) -> None:
        """Generations 0 and 1 together."""
        start = time.perf_counter()
        gc.collect(1)
        self.young_runs += 1
        self.young_max_ms = max(self.young_max_ms, (time.perf_counter() - start) * 1e3)

    def summary(self) -> dict[str, float | int]:
        return {
            "every_s": self.every,
            "runs": self.runs,
            "last_ms": round(self.last_ms, 1),
            "max_ms": round(self.max_ms, 1),
            "found": self.found,
            "young_every_s": self.young,
            "young_runs": self.young_runs,
            "young_max_ms": round(self.young_max_ms, 1),
        }


@contextlib.asynccontextmanager
async def scheduled_collections(every: float, young: float = YOUNG_EVERY) -> AsyncIterator[Collections]:
    """Run the server's body with full collections every ``every`` seconds and young ones every ``young``
    (``every = 0``: Python's own policy)."""
    if every < 0:
        raise ValueError(f"the full garbage collection interval cannot be negative, got {every}")
    if young <= 0:
        raise ValueError(f"the young garbage collection interval must be positive, got {young}")
    state = Collections(every, young if every else 0.0)
    if every == 0:
        yield state
        return
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(0)

    async def clock(interval: float, collect: Callable[[], None]) -> None:
        while True:
            await asyncio.sleep(interval)
            collect()

    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(clock(every, state.collect)), loop.create_task(clock(young, state.collect_young))]
    try:
        yield state
    finally:
        for task in tasks:
            task.cancel()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
