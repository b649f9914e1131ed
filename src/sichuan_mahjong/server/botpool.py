"""Where every room's bots think: one bounded pool for the whole server, fair across rooms.

A searching bot (``master``) thinks for up to a few hundred milliseconds. Were each room to think on its own
thread, a flood of bot rooms would take the machine (and, through the GIL, the event loop that serves every
person's table). So all rooms share one :class:`BotPool`: ``workers`` thinkers at most (worker processes by
default under ``scmj serve``, so the bots never hold the event loop's GIL; threads in-process, the library's
default), fed round-robin from one queue per room, so a room with three bots waiting gets no more turns than a
room with one. A job still queued when its room moved on (or closed) is dropped without thinking. Rooms where a
person is playing (connected, not on 托管) come first: a flood of rooms that only bots play (their people on
托管) then slows those rooms, never a person's table.

The workers watch the server process: when it is gone (even ``kill -9``), they exit.

The bots live in the worker that runs them (a bounded cache by room and seat), so the event loop only sends a
seat's view and legal answers (a few hundred bytes pickled) and gets an :class:`~sichuan_mahjong.game.Action`
back. A bot that raises comes back as the exception: the room plays a safe answer and logs it.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from sichuan_mahjong.agents import Agent, make_agent
from sichuan_mahjong.game import Action, ActionKind, Observation

__all__ = ["BotPool", "cached_agent", "passive_answer", "pool_for", "safe_answer", "shutdown", "think"]

#: Bots a worker keeps (room, seat) between moves; the oldest go first (a bot keeps only its random state).
MAX_AGENTS: Final = 4096
_agents: OrderedDict[tuple[str, int], tuple[str, Agent]] = OrderedDict()


def think(key: tuple[str, int], tier: str, seed: int, view: Observation, legal: Sequence[Action]) -> Action:
    """In a worker: the bot of ``key`` (made on first use, and again when the seat's tier changes) answers."""
    kept = _agents.get(key)
    if kept is None or kept[0] != tier:
        agent = make_agent(tier, seed=seed)
        _agents[key] = (tier, agent)
        while len(_agents) > MAX_AGENTS:
            _agents.popitem(last=False)
    else:
        agent = kept[1]
        _agents.move_to_end(key)
    return agent.act(view, legal)


def cached_agent(room: str, seat: int) -> Agent | None:
    """The bot this process keeps for a room's seat (the thread pool's; a worker process keeps its own)."""
    kept = _agents.get((room, seat))
    return None if kept is None else kept[1]


@dataclass(slots=True)
class _Job:
    key: tuple[str, int]
    tier: str
    seed: int
    view: Observation
    legal: Sequence[Action]
    due: Callable[[], bool]
    done: Callable[[Action | BaseException], None]


class BotPool:
    """At most ``workers`` bots think at once; rooms take turns (one queue per room, served round-robin)."""

    def __init__(self, executor: Executor, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"the bot pool needs at least one worker, got {workers}")
        self.executor = executor
        self.workers = workers
        self.busy = 0
        self.thought = 0
        self.dropped = 0
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()  # rooms where a person plays: first
        self._later: OrderedDict[str, deque[_Job]] = OrderedDict()  # rooms only bots play

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self._queues.values()) + sum(len(q) for q in self._later.values())

    def submit(
        self,
        room: str,
        seat: int,
        tier: str,
        seed: int,
        view: Observation,
        legal: Sequence[Action],
        due: Callable[[], bool],
        done: Callable[[Action | BaseException], None],
        *,
        playing: bool = True,
    ) -> None:
        """Queue one bot's decision; ``done`` gets its answer (or exception) unless ``due()`` is false by then.
        ``playing``: a person plays in this room (not on 托管); such rooms are served first."""
        queues = self._queues if playing else self._later
        queues.setdefault(room, deque()).append(_Job((room, seat), tier, seed, view, legal, due, done))
        self._pump()

    def _next(self) -> _Job | None:
        for queues in (self._queues, self._later):
            while queues:
                room, queue = queues.popitem(last=False)
                job = queue.popleft()
                if queue:
                    queues[room] = queue  # back of the line
                if job.due():
                    return job
                self.dropped += 1
        return None

    def _pump(self) -> None:
        while self.busy < self.workers:
            job = self._next()
            if job is None:
                return
            self.busy += 1
            loop = asyncio.get_running_loop()
            try:
                future = loop.run_in_executor(self.executor, think, job.key, job.tier, job.seed, job.view, job.legal)
            except RuntimeError as exc:  # the executor is shut down: the server is stopping
                self.busy -= 1
                job.done(exc)
                continue
            future.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, future: asyncio.Future[Action]) -> None:
        self.busy -= 1
        self.thought += 1
        try:
            if not future.cancelled() and job.due():
                exc = future.exception()
                job.done(exc if exc is not None else future.result())
        finally:
            self._pump()

    def summary(self) -> dict[str, int]:
        return {
            "workers": self.workers,
            "busy": self.busy,
            "queued": self.queued,
            "thought": self.thought,
            "dropped": self.dropped,
        }


def _watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server process is gone (a worker holds both ends of its
    queue's pipe, so it would never notice otherwise)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


_executors: dict[tuple[int, bool], Executor] = {}
_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[int, bool], BotPool]] = (
    weakref.WeakKeyDictionary()
)


def _executor(workers: int, processes: bool) -> Executor:
    key = (workers, processes)
    executor = _executors.get(key)
    if executor is None:
        if processes:  # spawn: a fork of a process running an event loop and threads is not safe
            context = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(
                workers, mp_context=context, initializer=_watch_parent, initargs=(os.getpid(),)
            )
        else:
            executor = ThreadPoolExecutor(workers, thread_name_prefix="bots")
        _executors[key] = executor
    return executor


def shutdown() -> None:
    """Stop every worker (the server is stopping); a later :func:`pool_for` starts new ones."""
    for executor in _executors.values():
        executor.shutdown(wait=True, cancel_futures=True)
    _executors.clear()


def pool_for(workers: int, processes: bool) -> BotPool:
    """The running event loop's pool of that size and kind (one per loop; the workers are shared)."""
    loop = asyncio.get_running_loop()
    pools = _pools.setdefault(loop, {})
    pool = pools.get((workers, processes))
    if pool is None:
        pool = pools[(workers, processes)] = BotPool(_executor(workers, processes), workers)
    return pool


def passive_answer(view: Observation, legal: list[Action]) -> Action | None:
    """The answer that changes least: pass, else discard the drawn tile; None when neither is legal."""
    pick = next((a for a in legal if a.kind is ActionKind.PASS), None)
    if pick is None and view.drawn is not None:
        drawn = Action.discard(view.drawn)
        pick = drawn if drawn in legal else None
    return pick


def safe_answer(view: Observation, legal: list[Action]) -> Action:
    """An answer that needs no bot: :func:`passive_answer`, else the first legal one."""
    return passive_answer(view, legal) or legal[0]
