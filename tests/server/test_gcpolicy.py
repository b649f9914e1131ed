"""The server's garbage-collection policy (server/gcpolicy.py): no automatic collections while it runs, young
ones on their clock, a full one on its own that still frees old cycles, Python's own policy restored afterwards."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from sichuan_mahjong.server.gcpolicy import scheduled_collections
from webtable import until


class Node:
    def __init__(self) -> None:
        self.me = self


def test_old_cycles_wait_for_the_full_clock_and_python_s_policy_comes_back() -> None:
    before = gc.get_threshold()

    async def body() -> None:
        async with scheduled_collections(0.6, young=0.02) as full:
            assert gc.get_threshold()[0] == 0  # no automatic collection of any generation
            assert gc.get_freeze_count() > 0
            node = Node()
            gc.collect(1)  # survives the young generations: now in the oldest one
            ref = weakref.ref(node)
            del node
            await asyncio.sleep(0.1)  # young collections ran meanwhile: none reaches the oldest generation
            assert ref() is not None and full.runs == 0 and full.young_runs >= 2
            await until(lambda: ref() is None, seconds=5)
            assert full.runs >= 1 and full.found >= 1
            summary = full.summary()
            assert summary["runs"] == full.runs and summary["every_s"] == 0.6 and summary["young_every_s"] == 0.02

    asyncio.run(body())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_young_cycles_are_freed_by_the_young_clock_not_by_allocation() -> None:
    async def body() -> None:
        async with scheduled_collections(60, young=0.05) as collections:
            gc.collect(1)
            runs = collections.young_runs
            refs = []
            for _ in range(5_000):  # far past Python's threshold of 700: no collection comes by allocation
                node = Node()
                refs.append(weakref.ref(node))
                del node
            assert all(r() is not None for r in refs) and gc.get_count()[0] >= 5_000
            await until(lambda: all(r() is None for r in refs), seconds=5)
            assert collections.young_runs > runs and collections.runs == 0
            assert collections.summary()["young_max_ms"] >= 0

    asyncio.run(body())


def test_zero_keeps_python_s_policy_and_bad_intervals_are_refused() -> None:
    before = gc.get_threshold()

    async def body() -> None:
        async with scheduled_collections(0) as full:
            assert gc.get_threshold() == before and gc.get_freeze_count() == 0 and full.runs == 0
        with pytest.raises(ValueError, match="cannot be negative, got -1"):
            async with scheduled_collections(-1):
                pass
        with pytest.raises(ValueError, match="young garbage collection interval must be positive, got 0"):
            async with scheduled_collections(300, young=0):
                pass

    asyncio.run(body())
