"""Load on the web table's server: N tables of four websocket players on loopback, for growing N.

Run: ``.venv/bin/python benchmarks/server.py [--tables 50,100,200,500] [--think 1.0] [--seconds 20]``.
``scmj serve`` runs in a subprocess on 127.0.0.1 with a fresh database; this process plays every seat of
every table (people, no bots: each answers after ``think`` seconds, jittered ±50%, 0 for a stress test).
For each level it prints the actions per second the server accepted, the latency from the answer that
completes a step to the first view of the next state at that table (p50, p99, max), the server's CPU
(percent of one core) and memory, and this client's CPU (it shares the machine: two cores here). The run
is bounded: each level lasts ``--seconds`` after a warm-up, and it stops after a level whose p99 passes
``--stop-ms``. Target (issue 8): 500 tables at a 1 s think time with p99 under 100 ms.

This client stands for thousands of phones in one process: its own garbage collections (young ones of up to
~0.1 s, full ones of ~0.3 s with two thousand websockets) would show up as server latency. So it collects only
between measurements (``gc.disable()`` inside each level's window; its garbage there is a few megabytes); the
server collects by its own ``--full-gc`` policy, and each line shows its full collections in the window.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"  # loopback only
#: ``scmj serve`` under cProfile; uvicorn re-raises SIGTERM after its shutdown with the handler found at start,
#: which writes the stats (argv: the stats file, then serve's arguments).
PROFILED = """
import cProfile, os, signal, sys
from sichuan_mahjong.cli import main
out, args = sys.argv[1], sys.argv[2:]
prof = cProfile.Profile()
def dump(*_):
    prof.disable()
    prof.dump_stats(out)
    os._exit(0)
signal.signal(signal.SIGTERM, dump)
prof.enable()
main(["serve", *args])
dump()
"""


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

    def reset(self) -> None:
        self.latencies = []
        self.lags = []
        self.actions = 0
        self.errors = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


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
                if sent is not None and stats.recording:
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


async def open_table(
    http: httpx.AsyncClient, port: int, think: float, stats: Stats, rng: random.Random
) -> list[asyncio.Task[None]]:
    room = await post(http, "/api/rooms", {"preset": "app", "hands": 64, "name": "p0"})
    tokens = [room["token"]]
    for s in (1, 2, 3):
        tokens.append((await post(http, f"/api/rooms/{room['room']}/seats", {"name": f"p{s}"}))["token"])
    table = Table(room["room"])
    tasks = []
    for token in tokens:
        ws = await connect(f"ws://{HOST}:{port}/ws/{table.code}?token={token}", max_size=2**20, open_timeout=60)
        tasks.append(asyncio.create_task(player(ws, table, think, stats, random.Random(rng.random()))))
    return tasks


async def run(args: argparse.Namespace, port: int, server: subprocess.Popen[bytes]) -> None:
    stats = Stats()
    rng = random.Random(1)
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(lag_probe(stats))]
    levels = [int(n) for n in args.tables.split(",")]
    print(f"think {args.think:g} s, {args.seconds:g} s per level, warm-up {args.warmup:g} s (server pid {server.pid})")
    print(
        " tables  actions/s  p50 ms  p99 ms  max ms  server CPU  server MB  client CPU  client lag p99 ms  errors"
        "  server handle p50/p99/max ms  full gc (n, max ms)"
    )
    sem = asyncio.Semaphore(20)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:

        async def one() -> list[asyncio.Task[None]]:
            async with sem:
                return await open_table(http, port, args.think, stats, rng)

        for n in levels:
            opened = await asyncio.gather(*(one() for _ in range(n - (len(tasks) - 1) // 4)))
            tasks += [t for ts in opened for t in ts]
            await asyncio.sleep(args.warmup)
            gc.collect()
            gc.disable()  # collections only between measurements (see the docstring)
            stats.reset()
            runs0 = (await http.get("/healthz", params={"reset": "1"})).json()["gc"].get("runs", 0)
            stats.recording = True
            cpu0, own0, t0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.recording = False
            gc.enable()
            wall = time.perf_counter() - t0
            health = (await http.get("/healthz")).json()
            handle, full = health["handle"], health["gc"]
            full_runs = full.get("runs", 0) - runs0
            server_cpu = (cpu_seconds(server.pid) - cpu0) / wall * 100
            client_cpu = (time.process_time() - own0) / wall * 100
            lat = sorted(stats.latencies) or [float("nan")]
            p50, p99 = lat[len(lat) // 2], lat[min(len(lat) - 1, int(0.99 * len(lat)))]
            lags = sorted(stats.lags) or [float("nan")]
            lag99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))]
            print(
                f"{n:7d}  {stats.actions / wall:9.1f}  {p50 * 1e3:6.1f}  {p99 * 1e3:6.1f}  {lat[-1] * 1e3:6.1f}"
                f"  {server_cpu:9.0f}%  {rss_mb(server.pid):9.0f}  {client_cpu:9.0f}%  {lag99 * 1e3:16.1f}"
                f"  {stats.errors:6d}  {handle.get('p50_ms', 0):.2f}/{handle.get('p99_ms', 0):.2f}"
                f"/{handle.get('max_ms', 0):.1f}  {full_runs} ({full.get('max_ms', 0):.0f})",
                flush=True,
            )
            if p99 * 1e3 > args.stop_ms:
                print(f"p99 over {args.stop_ms:g} ms: stopping here")
                break
    for t in tasks:
        t.cancel()


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
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        launch = ["-m", "sichuan_mahjong", "serve"] if args.profile is None else ["-c", PROFILED, str(args.profile)]
        cmd = [sys.executable, *launch, "--host", HOST, "--port", str(port)]
        cmd += ["--db", str(Path(tmp) / "bench.db"), "--hold", "600", "--bot-delay", "0", "--pause", "0"]
        cmd += ["--rate", "1000", "--full-gc", str(args.full_gc), "--log-level", "warning"]
        # every table is played from this one address: the limits per address are off (0)
        for limit in ("room-rate", "rooms-per-address", "join-rate", "lookup-rate", "connect-rate"):
            cmd += [f"--{limit}", "0"]
        cmd += ["--connections-per-address", "0"]
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            asyncio.run(run(args, port, server))
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
