"""The server's garbage-collection policy (server/gcpolicy.py): no automatic full collections while it runs,
a full one on its clock that still frees cycles, Python's own policy restored afterwards."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from sichuan_mahjong.server.gcpolicy import scheduled_full_collections


class Node:
    def __init__(self) -> None:
        self.me = self


def test_cycles_wait_for_the_clock_and_python_s_policy_comes_back() -> None:
    before = gc.get_threshold()

    async def body() -> None:
        async with scheduled_full_collections(0.2) as full:
            assert gc.get_threshold()[:2] == before[:2] and gc.get_threshold()[2] > 10**6
            assert gc.get_freeze_count() > 0
            node = Node()
            gc.collect(1)  # survives the young generations: now in the oldest one
            ref = weakref.ref(node)
            del node
            for _ in range(200):  # young collections as usual: none reaches a cycle in the oldest generation
                [Node() for _ in range(100)]
            gc.collect(1)
            assert ref() is not None and full.runs == 0
            await asyncio.sleep(0.5)
            assert ref() is None and full.runs >= 1 and full.found >= 1
            assert full.summary()["runs"] == full.runs and full.summary()["every_s"] == 0.2

    asyncio.run(body())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_zero_keeps_python_s_policy_and_a_negative_interval_is_refused() -> None:
    before = gc.get_threshold()

    async def body() -> None:
        async with scheduled_full_collections(0) as full:
            assert gc.get_threshold() == before and gc.get_freeze_count() == 0 and full.runs == 0
        with pytest.raises(ValueError, match="cannot be negative, got -1"):
            async with scheduled_full_collections(-1):
                pass

    asyncio.run(body())
