"""When the server's Python collects cyclic garbage: young generations as usual, full collections on a clock.

CPython's automatic full collection walks every tracked object in the process. With hundreds of tables (two
thousand sockets, their games and views) that is a few hundred thousand objects, and on this machine a walk of
that size holds the event loop for 0.1–0.5 s; every message that arrives meanwhile waits, so one full
collection inside a ten-second window was enough to push the latency p99 past 100 ms at 500 tables
(benchmarks/server.py). Almost nothing the server makes is cyclic garbage that lives long: full collections at
500 tables found 15–75 objects each. So while the server runs:

  * the objects made at start-up (modules, classes, the restored rooms) are frozen out of every collection;
  * the young generations (0 and 1) are collected as Python would, which frees short-lived cycles;
  * the full collection runs every ``every`` seconds instead of whenever Python's heuristic asks; the run's
    count and duration appear in ``/healthz`` (``gc``).

``every = 0`` leaves Python's own policy. Leaving the context restores the thresholds and unfreezes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

__all__ = ["FullCollections", "scheduled_full_collections"]

log = logging.getLogger("sichuan_mahjong.server")

#: ``gc`` counts gen-1 collections towards a full one; past this many it would never come in a server's life.
_NEVER = 1 << 30


@dataclass
class FullCollections:
    """What the scheduled full collections did (for ``/healthz``)."""

    every: float
    runs: int = 0
    last_ms: float = 0.0
    max_ms: float = 0.0
    found: int = 0

    def collect(self) -> None:
        start = time.perf_counter()
        self.found += gc.collect()
        ms = (time.perf_counter() - start) * 1e3
        self.runs += 1
        self.last_ms, self.max_ms = ms, max(self.max_ms, ms)
        log.debug("full garbage collection: %.1f ms", ms)

    def summary(self) -> dict[str, float | int]:
        return {
            "every_s": self.every,
            "runs": self.runs,
            "last_ms": round(self.last_ms, 1),
            "max_ms": round(self.max_ms, 1),
            "found": self.found,
        }


@contextlib.asynccontextmanager
async def scheduled_full_collections(every: float) -> AsyncIterator[FullCollections]:
    """Run the server's body with full collections every ``every`` seconds (0: Python's own policy)."""
    if every < 0:
        raise ValueError(f"the full garbage collection interval cannot be negative, got {every}")
    state = FullCollections(every)
    if every == 0:
        yield state
        return
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(thresholds[0], thresholds[1], _NEVER)

    async def clock() -> None:
        while True:
            await asyncio.sleep(every)
            state.collect()

    task = asyncio.get_running_loop().create_task(clock())
    try:
        yield state
    finally:
        task.cancel()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
