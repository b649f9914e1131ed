"""Tournaments: many hands with any four bots, duplicate deals, and the process-pool and Ray back ends.

A *deal* is one seed: it fixes the shuffle, the dice and so the dealer (docs/rules.md R2). Played once, player i sits
at seat i. Played in duplicate, it is played four times with player i at seat ``(i + r) % 4`` for r = 0..3, so
each player gets each seat's tiles once and the luck of the deal cancels out of the comparison.

Work is cut into chunks of deals; a chunk is a plain picklable task (:func:`run_chunk`), so the same function
runs inline, in a ``ProcessPoolExecutor`` or as a Ray task, and results are identical whatever the back end or
the number of jobs: every deal and every bot is seeded from the tournament seed and the deal's number alone.
"""

from __future__ import annotations

import importlib.util
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from sichuan_mahjong.agents import Agent, check_agent, make_agent
from sichuan_mahjong.game.loop import play
from sichuan_mahjong.game.settlement import Settlement
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.sim.stats import DealResult, PlayerOutcome, Summary

__all__ = [
    "BACKENDS",
    "ChunkTask",
    "SimulationError",
    "check_ray_address",
    "deal_seed",
    "outcomes_of",
    "play_deal",
    "play_hand",
    "run_chunk",
    "run_tournament",
]

BACKENDS = ("process", "ray")
_CHECK_REASON = "R9.5"


class SimulationError(ValueError):
    """A tournament that cannot be run as asked: wrong number of players, bad counts, a missing back end."""


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal number ``deal`` in a tournament seeded ``seed`` (independent of chunking)."""
    return (seed * 0x9E3779B1 + deal * 0x85EBCA77 + 0x165667B1) % (1 << 62)


def _agent_seed(game_seed: int, rotation: int, player: int) -> int:
    return (game_seed * 31 + rotation * 7 + player + 1) % (1 << 62)


def play_hand(game: Game, agents: Sequence[Agent]) -> Settlement:
    """Drive one hand to its end (:func:`~sichuan_mahjong.game.play`), each seat's bot seeing only its own view."""
    play(game, agents)
    return game.result


def outcomes_of(result: Settlement, base: int = 1) -> list[PlayerOutcome]:
    """Per seat: points in units of the base, win, self-draw, deal-in, fan, 查叫 paid / received."""
    won: dict[int, tuple[bool, int]] = {}
    dealt_in: set[int] = set()
    for w in result.wins:
        won.setdefault(w.seat, (w.from_seat is None, w.score.fan))
        if w.from_seat is not None:
            dealt_in.add(w.from_seat)
    paid = {p.payer for p in result.payments if p.reason.startswith(_CHECK_REASON)}
    received = {p.payee for p in result.payments if p.reason.startswith(_CHECK_REASON)}
    out = []
    for s in range(4):
        win = won.get(s)
        out.append(
            PlayerOutcome(
                points=result.deltas[s] / base,
                won=win is not None,
                self_draw=win is not None and win[0],
                dealt_in=s in dealt_in,
                fan=win[1] if win is not None else None,
                check_paid=s in paid,
                check_received=s in received,
            )
        )
    return out


def play_deal(players: Sequence[str], rules: Rules, seed: int, deal: int, duplicate: bool) -> DealResult:
    """One deal, once or in duplicate; outcomes are listed by player, wherever each sat."""
    game_seed = deal_seed(seed, deal)
    hands = []
    for r in range(4 if duplicate else 1):
        seat_of = [(i + r) % 4 for i in range(4)]
        by_seat: list[Agent] = [make_agent("random")] * 4
        for i, name in enumerate(players):
            by_seat[seat_of[i]] = make_agent(name, seed=_agent_seed(game_seed, r, i))
        result = play_hand(Game(rules, seed=game_seed), by_seat)
        per_seat = outcomes_of(result)
        hands.append(tuple(per_seat[seat_of[i]] for i in range(4)))
    return DealResult(game_seed, tuple(hands))


@dataclass(frozen=True, slots=True)
class ChunkTask:
    """A picklable slice of a tournament: deals ``start`` to ``stop - 1``."""

    players: tuple[str, ...]
    rules: dict[str, object]
    seed: int
    start: int
    stop: int
    duplicate: bool


def run_chunk(task: ChunkTask) -> list[DealResult]:
    """Play one chunk of deals (in this process, a worker process, or a Ray task)."""
    rules = Rules.from_dict(task.rules)
    return [play_deal(task.players, rules, task.seed, d, task.duplicate) for d in range(task.start, task.stop)]


def _chunks(players: Sequence[str], rules: Rules, seed: int, deals: int, duplicate: bool, jobs: int) -> list[ChunkTask]:
    # Small enough for a smooth progress bar and load balance, big enough that task overhead does not show.
    size = max(1, min(25, deals // max(1, jobs * 8)))
    rd = rules.to_dict()
    return [
        ChunkTask(tuple(players), rd, seed, start, min(deals, start + size), duplicate)
        for start in range(0, deals, size)
    ]


class Progress:
    """A one-line progress bar on a terminal: hands done, rate, time left."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.perf_counter()

    def update(self, hands: int) -> None:
        self.done += hands
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        filled = int(self.width * self.done / self.total) if self.total else self.width
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} hands  {rate:,.0f}/s  {left:,.0f}s left ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _run_inline(tasks: list[ChunkTask]) -> Iterator[list[DealResult]]:
    for task in tasks:
        yield run_chunk(task)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_processes(tasks: list[ChunkTask], jobs: int) -> Iterator[list[DealResult]]:
    """Chunks on worker processes. Ctrl-C reaches the workers too (one process group): they ignore it, and this
    process, on its KeyboardInterrupt (or any error, or a caller that stops early), terminates them at once
    instead of waiting for the chunks in play."""
    import multiprocessing

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None  # workers are born ignoring it
    try:
        pool = multiprocessing.Pool(jobs, initializer=_ignore_interrupts)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    with pool:  # leaving the block terminates the workers
        yield from pool.imap_unordered(run_chunk, tasks)


#: Seconds to wait for a TCP answer from a cluster address before saying nothing listens there.
CONNECT_TIMEOUT = 5.0
#: Seconds to wait, once connected, for the server's first HTTP/2 frame (a gRPC server sends it at once).
REPLY_TIMEOUT = 2.0
#: The HTTP/2 client preface and an empty SETTINGS frame: what a gRPC client (Ray's, too) says first.
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_H2_SETTINGS = 4


def check_ray_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail at once, in one line, when no Ray cluster answers at a ``host:port`` (or ``ray://host:port``) address.

    Without this, ``ray.init`` retries an address where nothing listens for many minutes (about forty seconds
    per attempt, twenty attempts), printing C++ warnings all the while, and hangs as long on a port where some
    other server listens. Ray's head (and its client server) speak gRPC, so a server that does not answer the
    HTTP/2 preface with a SETTINGS frame is not Ray. Other forms (``auto``) are left to Ray.
    """
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as conn:
            conn.settimeout(min(timeout, REPLY_TIMEOUT))
            answer = _first_frame(conn)
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise SimulationError(
            f"no Ray cluster answers at {address} ({why}); start one with `ray start --head --port {port}` "
            "or give the address that `ray start` printed"
        ) from None
    if answer is None or answer[3] != _H2_SETTINGS or answer[5:9] != bytes(4):
        raise SimulationError(
            f"not a Ray cluster at {address}: something else listens on port {port} (it does not speak gRPC); "
            "give the address that `ray start` printed"
        )


def _first_frame(conn: socket.socket) -> bytes | None:
    """The 9-byte header of the first HTTP/2 frame the server sends after the client preface; None if silent."""
    conn.sendall(_H2_PREFACE)
    header = b""
    try:
        while len(header) < 9:
            chunk = conn.recv(9 - len(header))
            if not chunk:
                return None
            header += chunk
    except TimeoutError:
        return None
    return header


def _join_error(address: str, exc: BaseException) -> SimulationError:
    """One line for a failed ``ray.init(address=...)``: Ray's own words, and the fix for token authentication."""
    chain: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and len(chain) < 8:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if any("auth" in type(e).__name__.lower() or "InvalidAuthToken" in str(e) for e in chain):
        return SimulationError(
            f"the Ray cluster at {address} refused this client's token: set RAY_AUTH_MODE=token and give the "
            "cluster's token in RAY_AUTH_TOKEN (or ~/.ray/auth_token)"
        )
    words = " ".join(str(exc).split()) or type(exc).__name__
    return SimulationError(f"cannot join the Ray cluster at {address}: {words}")


def _ray_installed() -> bool:
    try:
        return importlib.util.find_spec("ray") is not None
    except ValueError:  # a module already in sys.modules without a spec (None when an import was blocked)
        return sys.modules.get("ray") is not None


def _run_ray(tasks: list[ChunkTask], jobs: int, address: str | None) -> Iterator[list[DealResult]]:
    if address and _ray_installed():
        check_ray_address(address)  # before importing Ray, which alone takes seconds
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "the ray back end needs Ray: pip install 'sichuan-mahjong[ray]' (or pip install ray)"
        ) from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            # Ship this very package to the cluster's workers (Ray uploads it once and caches it by content), so
            # a cluster needs only Ray and numpy, and runs exactly the code the results would have locally.
            import sichuan_mahjong

            kwargs["runtime_env"] = {"py_modules": [sichuan_mahjong]}
            try:
                ray.init(address=address, **kwargs)
            except Exception as exc:  # ConnectionError, Ray's AuthenticationError, ValueError for a bad address
                raise _join_error(address, exc) from None
        else:
            ray.init(num_cpus=jobs, **kwargs)
        started = True
    try:
        remote_chunk = ray.remote(run_chunk)
        pending = [remote_chunk.remote(t) for t in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def run_tournament(
    players: Sequence[str],
    hands: int,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    duplicate: bool = False,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: bool | TextIO = False,
) -> Summary:
    """Play ``hands`` hands with the four named bots and return per-player statistics.

    With ``duplicate`` the hands come in fours from one deal each (so ``hands`` must be a multiple of 4).
    ``jobs`` > 1 uses that many worker processes (``backend="process"``) or Ray workers (``"ray"``; ``address``
    joins a running cluster instead of starting a local one, and ships this package to its workers; a Ray
    connection the caller opened is used as it is). ``progress`` draws a bar on stderr (or the stream given).
    """
    rules = rules or Rules()
    if len(players) != 4:
        raise SimulationError(f"a table needs four players, got {len(players)}: {', '.join(players) or 'none'}")
    for name in players:
        check_agent(name)  # a registered name, or module:factory made once here
    if hands < 1:
        raise SimulationError(f"the number of hands must be at least 1, got {hands}")
    if duplicate and hands % 4:
        raise SimulationError(f"with duplicate deals the hands come in fours (one deal, four seatings); got {hands}")
    if jobs < 1:
        raise SimulationError(f"jobs must be at least 1, got {jobs}")
    if backend not in BACKENDS:
        raise SimulationError(f"unknown back end {backend!r}; back ends: {', '.join(BACKENDS)}")
    deals = hands // 4 if duplicate else hands
    tasks = _chunks(players, rules, seed, deals, duplicate, jobs)
    if backend == "ray":
        results = _run_ray(tasks, jobs, address)
    elif jobs == 1:
        results = _run_inline(tasks)
    else:
        results = _run_processes(tasks, min(jobs, len(tasks)))
    summary = Summary(list(players), duplicate=duplicate, rules=rules.to_dict(), seed=seed)
    bar = None
    if progress:
        bar = Progress(hands, progress if not isinstance(progress, bool) else None)
    start = time.perf_counter()
    collected: list[DealResult] = []
    for chunk in results:
        collected.extend(chunk)
        if bar is not None:
            bar.update(sum(len(d.hands) for d in chunk))
    if bar is not None:
        bar.close()
    # Add deals in deal order so the floating-point sums do not depend on which worker finished first.
    collected.sort(key=lambda d: d.seed)
    for deal in collected:
        summary.add(deal)
    summary.seconds = time.perf_counter() - start
    return summary
