"""Load on the web table's server: N tables of four websocket players on loopback, for growing N.

Run: ``.venv/bin/python benchmarks/server.py [--tables 50,100,200,500] [--think 1.0] [--seconds 20]``.
``scmj serve`` runs in a subprocess on 127.0.0.1 with a fresh database; this process plays every seat of
every table (people, no bots: each answers after ``think`` seconds, jittered ±50%, 0 for a stress test).
For each level it prints the actions per second the server accepted, the latency from the answer that
completes a step to the first view of the next state at that table (p50, p99, max), the server's CPU
(percent of one core) and memory, and this client's CPU (it shares the machine: two cores here). The run
is bounded: each level lasts ``--seconds`` after a warm-up, and it stops after a level whose p99 passes
``--stop-ms``. Target (issue 8): 500 tables at a 1 s think time with p99 under 100 ms.

Where a tail comes from: ``--profile FILE`` (cProfile of the server) and ``--stalls FILE`` (the server loop's
stack each time it gave no turn for 50 ms: one slow call shows the same stack every time, a long batch of ready
callbacks a different ordinary message each time).

``--many N``: the same load through nginx in front of N ``scmj serve --worker K/N`` processes on a PostgreSQL
cluster of this run's own (scripts/serve_many.py; CPU and memory are the workers' sums); ``--many 1,2`` or
``--many 0,2`` runs one set after the other in the same run (0: one process on SQLite, as above). After the
levels of a set of several workers, ``--takeover`` kills one with ``kill -9`` and times how long until every
one of its rooms answers again through the proxy (the lease, ``--lease`` seconds, runs out first).

This client stands for thousands of phones in one process: its own garbage collections (young ones of up to
~0.1 s, full ones of ~0.3 s with two thousand websockets) would show up as server latency. So it collects only
between measurements (``gc.disable()`` inside each level's window; its garbage there is a few megabytes), lets the
burst of answers that collection held back pass before the window opens, and times only answers sent inside the
window. The server collects by its own ``--full-gc`` policy, and each line shows its full collections in the window.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from serverproc import HOST, PROFILED, STALLS, cpu_seconds, free_port, rss_mb
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Table:
    code: str
    last_answer: dict[int, float] = field(default_factory=dict)  # room seq -> time of the last answer sent at it
    seen: set[int] = field(default_factory=set)  # room seqs (public moments) whose first view has arrived


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # this client's event-loop lag, sampled every 10 ms
    actions: int = 0
    errors: int = 0
    recording: bool = False
    since: float = 0.0  # answers sent before this (the window's start) are not timed

    def reset(self) -> None:
        self.latencies = []
        self.lags = []
        self.actions = 0
        self.errors = 0
        self.since = time.perf_counter()


async def player(ws: ClientConnection, table: Table, think: float, stats: Stats, rng: random.Random) -> None:
    async for raw in ws:
        m: dict[str, Any] = json.loads(raw)
        kind = m["type"]
        if kind == "view":
            # Each seat counts its own views (``seq``); the table's moments are the room's public ``seq``.
            seq, moment = m["seq"], m["room"]["seq"]
            if moment not in table.seen:
                table.seen.add(moment)
                sent = table.last_answer.pop(moment - 1, None)
                if sent is not None and stats.recording and sent >= stats.since:
                    stats.latencies.append(time.perf_counter() - sent)
            legal = m["legal"]
            if legal:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                action = "hu" if "hu" in legal else rng.choice(legal)
                table.last_answer[moment] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
                if stats.recording:
                    stats.actions += 1
        elif kind == "hand_over":
            await ws.send('{"type":"next"}')
        elif kind == "error":
            stats.errors += 1
        elif kind == "match_over":
            return


async def lag_probe(stats: Stats) -> None:
    """How late this process wakes up: latency it adds to every figure (the machine is shared)."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if stats.recording:
            stats.lags.append(time.perf_counter() - t - 0.01)


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST with a few retries: opening hundreds of tables at once on a loaded machine drops a connection now
    and then."""
    for attempt in range(5):
        try:
            r = await http.post(path, json=body)
            r.raise_for_status()
            out: dict[str, Any] = r.json()
            return out
        except httpx.HTTPError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


@dataclass
class Target:
    """What the load goes to: ``port`` (one server, or nginx), the server processes, their own URLs."""

    port: int
    pids: list[int]
    direct: list[str]
    many: Any = None  # scripts/serve_many.py's ServeMany, for --takeover

    def cpu(self) -> float:
        return sum(cpu_seconds(p) for p in self.pids)

    def rss(self) -> float:
        return sum(rss_mb(p) for p in self.pids)


async def open_table(
    http: httpx.AsyncClient, port: int, think: float, stats: Stats, rng: random.Random, codes: list[str]
) -> list[asyncio.Task[None]]:
    room = await post(http, "/api/rooms", {"preset": "app", "hands": 64, "name": "p0"})
    codes.append(room["room"])
    tokens = [room["token"]]
    for s in (1, 2, 3):
        tokens.append((await post(http, f"/api/rooms/{room['room']}/seats", {"name": f"p{s}"}))["token"])
    table = Table(room["room"])
    tasks = []
    for token in tokens:
        ws = await connect(f"ws://{HOST}:{port}/ws/{table.code}?token={token}", max_size=2**20, open_timeout=60)
        tasks.append(asyncio.create_task(player(ws, table, think, stats, random.Random(rng.random()))))
    return tasks


async def health(http: httpx.AsyncClient, target: Target, reset: bool = False) -> dict[str, Any]:
    """Every server process's /healthz, joined: the slowest handle times, full collections summed."""
    params = {"reset": "1"} if reset else {}
    each = [(await http.get(f"{url}/healthz", params=params)).json() for url in target.direct]
    handle = {k: max(h["handle"].get(k, 0) for h in each) for k in ("p50_ms", "p99_ms", "max_ms")}
    gcs = {"runs": sum(h["gc"].get("runs", 0) for h in each), "max_ms": max(h["gc"].get("max_ms", 0) for h in each)}
    return {"handle": handle, "gc": gcs}


async def run(args: argparse.Namespace, target: Target) -> list[str]:
    """The levels; returns the codes of the tables opened."""
    port = target.port
    stats = Stats()
    rng = random.Random(1)
    codes: list[str] = []
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(lag_probe(stats))]
    levels = [int(n) for n in args.tables.split(",")]
    print(f"think {args.think:g} s, {args.seconds:g} s per level, warm-up {args.warmup:g} s (pids {target.pids})")
    print(
        " tables  actions/s  p50 ms  p99 ms  max ms  server CPU  server MB  client CPU  client lag p99 ms  errors"
        "  server handle p50/p99/max ms  full gc (n, max ms)"
    )
    sem = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:

        async def one() -> list[asyncio.Task[None]]:
            async with sem:
                return await open_table(http, port, args.think, stats, rng, codes)

        for n in levels:
            opened = await asyncio.gather(*(one() for _ in range(n - (len(tasks) - 1) // 4)))
            tasks += [t for ts in opened for t in ts]
            await asyncio.sleep(args.warmup)
            gc.collect()
            gc.disable()  # collections only between measurements (see the docstring)
            # That collection held this client for up to ~0.1 s: the answers it held back go out in one burst, which
            # the server then takes in one burst. Not timed: the window starts once every think begun meanwhile has
            # ended (the longest is 1.5 think).
            await asyncio.sleep(max(0.5, 1.5 * args.think))
            stats.reset()
            runs0 = (await health(http, target, reset=True))["gc"].get("runs", 0)
            stats.recording = True
            cpu0, own0, t0 = target.cpu(), time.process_time(), time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.recording = False
            gc.enable()
            wall = time.perf_counter() - t0
            healthz = await health(http, target)
            handle, full = healthz["handle"], healthz["gc"]
            full_runs = full.get("runs", 0) - runs0
            server_cpu = (target.cpu() - cpu0) / wall * 100
            client_cpu = (time.process_time() - own0) / wall * 100
            lat = sorted(stats.latencies) or [float("nan")]
            p50, p99 = lat[len(lat) // 2], lat[min(len(lat) - 1, int(0.99 * len(lat)))]
            lags = sorted(stats.lags) or [float("nan")]
            lag99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))]
            print(
                f"{n:7d}  {stats.actions / wall:9.1f}  {p50 * 1e3:6.1f}  {p99 * 1e3:6.1f}  {lat[-1] * 1e3:6.1f}"
                f"  {server_cpu:9.0f}%  {target.rss():9.0f}  {client_cpu:9.0f}%  {lag99 * 1e3:16.1f}"
                f"  {stats.errors:6d}  {handle.get('p50_ms', 0):.2f}/{handle.get('p99_ms', 0):.2f}"
                f"/{handle.get('max_ms', 0):.1f}  {full_runs} ({full.get('max_ms', 0):.0f})",
                flush=True,
            )
            if p99 * 1e3 > args.stop_ms:
                print(f"p99 over {args.stop_ms:g} ms: stopping here")
                break
        if args.takeover and target.many is not None and target.many.n > 1:
            await takeover(http, target, codes, args.lease)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return codes


async def takeover(http: httpx.AsyncClient, target: Target, codes: list[str], lease: float) -> None:
    """kill -9 the first worker; the time until each of its rooms answers through the proxy again."""
    from sichuan_mahjong.server.ring import Ring

    many = target.many
    ring = Ring(many.servers)
    mine = [c for c in codes if ring.owner(c) == 0]
    many.kill(0)
    t0 = time.perf_counter()
    back: dict[str, float] = {}
    while len(back) < len(mine) and time.perf_counter() - t0 < 60:
        for code in [c for c in mine if c not in back]:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(f"/api/rooms/{code}", timeout=5)).status_code == 200:
                    back[code] = time.perf_counter() - t0
        await asyncio.sleep(0.05)
    last = max(back.values(), default=float("nan"))
    print(
        f"takeover: worker 1 of {many.n} killed (kill -9) holding {len(mine)} of {len(codes)} tables; "
        f"{len(back)} answered again through the proxy, the last {last:.2f} s after the kill; its {lease:g} s "
        f"lease, renewed up to {lease / 6:.2f} s before, ran out {max(0.0, last - lease):.2f}-"
        f"{last - lease + lease / 6:.2f} s before that",
        flush=True,
    )


def limits_off() -> list[str]:
    """Every table is played from this one address: the limits per address are off (0)."""
    out: list[str] = []
    for limit in ("room-rate", "rooms-per-address", "join-rate", "lookup-rate", "connect-rate"):
        out += [f"--{limit}", "0"]
    return [*out, "--connections-per-address", "0"]


def one_process(args: argparse.Namespace, tmp: Path) -> tuple[Target, Any]:
    port = free_port()
    launch = ["-m", "sichuan_mahjong", "serve"]
    if args.profile is not None:
        launch = ["-c", PROFILED, str(args.profile)]
    elif args.stalls is not None:
        launch = ["-c", STALLS, str(args.stalls)]
    cmd = [sys.executable, *launch, "--host", HOST, "--port", str(port)]
    cmd += ["--db", str(tmp / "bench.db"), "--hold", "600", "--bot-delay", "0", "--pause", "0"]
    cmd += ["--rate", "1000", "--full-gc", str(args.full_gc), "--log-level", "warning", *limits_off()]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise SystemExit("the server did not start") from None
            time.sleep(0.2)

    def stop() -> None:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()

    return Target(port, [server.pid], [f"http://{HOST}:{port}"]), stop


def many_processes(args: argparse.Namespace, tmp: Path, n: int, pg: Any) -> tuple[Target, Any]:
    spec = importlib.util.spec_from_file_location("serve_many", ROOT / "scripts" / "serve_many.py")
    assert spec is not None and spec.loader is not None
    serve_many = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve_many)
    serve_args = ["--hold", "600", "--bot-delay", "0", "--pause", "0", "--rate", "1000", "--full-gc"]
    serve_args += [str(args.full_gc), "--log-level", "warning", "--lease", str(args.lease), *limits_off()]
    port = free_port()
    many = serve_many.ServeMany(tmp / f"many-{n}", workers=n, port=port, pg=pg, serve_args=serve_args)
    many.db = pg.create_database(f"bench{n}")
    if args.pg_sync:  # every commit waits for PostgreSQL's fsync (the store's default does not: pgstore.py)
        many.db += "?options=-csynchronous_commit%3Don"
    many.start()
    pids = [p.pid for p in many.procs if p is not None]
    return Target(port, pids, [f"http://{s}" for s in many.servers], many), many.stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="50,100,200,300,400,500", help="levels of N, comma-separated")
    parser.add_argument("--think", type=float, default=1.0, help="seconds before each answer (0: stress)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before each measurement")
    parser.add_argument("--stop-ms", type=float, default=1000.0, help="stop after a level whose p99 passes this")
    parser.add_argument(
        "--full-gc", type=float, default=300.0, help="the server's --full-gc (0: Python's own collections)"
    )
    parser.add_argument("--profile", type=Path, default=None, help="run the server under cProfile, stats to FILE")
    parser.add_argument(
        "--stalls", type=Path, default=None, help="write the server loop's stack to FILE at each stall over 50 ms"
    )
    parser.add_argument(
        "--many", default="0", help="0: one process on SQLite; N: N workers behind nginx on PostgreSQL; 0,2: both"
    )
    parser.add_argument("--takeover", action="store_true", help="with --many N>1: kill a worker, time the takeover")
    parser.add_argument("--lease", type=float, default=3.0, help="the workers' --lease (default: 3)")
    parser.add_argument(
        "--pg-sync", action="store_true", help="the workers' commits wait for PostgreSQL's fsync (synchronous_commit)"
    )
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sets = [int(n) for n in args.many.split(",")]
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        pg: Any = None
        for n in sets:
            if n and pg is None:
                sys.path.insert(0, str(ROOT / "tests"))
                from pgcluster import PgCluster

                pg = PgCluster()
                pg.start()
                stack.callback(pg.stop)
            what = "one process, SQLite" if n == 0 else f"{n} worker(s) behind nginx, PostgreSQL"
            print(f"== {what}", flush=True)
            target, stop = one_process(args, Path(tmp)) if n == 0 else many_processes(args, Path(tmp), n, pg)
            try:
                asyncio.run(run(args, target))
            finally:
                stop()


if __name__ == "__main__":
    main()
