"""A person's round trip while a flood of bot rooms plays (issue 37, item 2).

Run: ``.venv/bin/python benchmarks/bot_flood.py [--flood 150] [--tier master] [--seconds 20] [--bot-threads]``.
``scmj serve`` runs in a subprocess on 127.0.0.1 with a fresh database. One person plays a table of three
``expert`` bots and times each ``act`` to the server's first answer to it (the next ``view``, or ``answered``):
first alone, then while ``--flood`` rooms of ``--tier`` bots exist. Rooms with no person connected pause their
bots, so the flood is the worst case a client can make: each flood room has its host connected on 托管 (the
stand-in plays seat 0), reading everything. Prints p50/p99/max of the round trip, the server's CPU and memory
for each phase, and the bot pool's queue (``/healthz`` ``bots``). Loopback only; bounded by ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from serverproc import HOST, cpu_seconds, free_port, rss_mb
from websockets.asyncio.client import ClientConnection, connect

BOTS3 = {"1": "expert", "2": "expert", "3": "expert"}


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


async def pinger(ws: ClientConnection, pings: list[float]) -> None:
    while True:
        await asyncio.sleep(0.05)
        pings.append(time.perf_counter())
        await ws.send('{"type":"ping"}')


async def person(ws: ClientConnection, seconds: float) -> tuple[list[float], list[float]]:
    """Play seat 0 for ``seconds``, pinging every 50 ms: each act's time to the first message that answers it,
    and each ping's to its pong."""
    trips: list[float] = []
    pongs: list[float] = []
    pings: list[float] = []
    sent: float | None = None
    deadline = time.monotonic() + seconds
    ping = asyncio.create_task(pinger(ws, pings))
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
        except TimeoutError:
            break
        m: dict[str, Any] = json.loads(raw)
        if m["type"] == "pong" and pings:
            pongs.append(time.perf_counter() - pings.pop(0))
            continue
        if sent is not None and m["type"] in ("view", "answered", "error"):
            trips.append(time.perf_counter() - sent)
            sent = None
        if m["type"] == "view" and m["legal"]:
            legal = m["legal"]
            action = "hu" if "hu" in legal else legal[-1]
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action, "seq": m["seq"]}))
        elif m["type"] == "hand_over":
            await ws.send('{"type":"next"}')
        elif m["type"] == "match_over":
            break
    ping.cancel()
    return trips, pongs


def quantiles(xs: list[float]) -> str:
    if not xs:
        return "none"
    xs = sorted(xs)
    p50, p99 = xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return f"n {len(xs):4d} p50 {p50 * 1e3:6.1f} p99 {p99 * 1e3:6.1f} max {xs[-1] * 1e3:6.1f} ms"


async def drain(ws: ClientConnection) -> None:
    async for _ in ws:
        pass


async def phase(http: httpx.AsyncClient, port: int, pid: int, seconds: float, label: str) -> None:
    room = (await http.post("/api/rooms", json={"hands": 64, "name": "me", "bots": BOTS3})).json()
    ws = await connect(f"ws://{HOST}:{port}/ws/{room['room']}?token={room['token']}", max_size=2**20)
    pids = [pid, *children(pid)]
    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    trips, pongs = await person(ws, seconds)
    wall = time.perf_counter() - t0
    pids = [pid, *children(pid)]
    cpu = (sum(cpu_seconds(p) for p in pids) - cpu0) / wall * 100
    await ws.close()
    bots = (await http.get("/healthz")).json().get("bots", {})
    print(
        f"{label}:\n  act -> answer: {quantiles(trips)}\n  ping -> pong:  {quantiles(pongs)}\n"
        f"  server CPU {cpu:.0f}% (with its bot workers), server MB {rss_mb(pid):.0f}, bots {bots}",
        flush=True,
    )


async def run(args: argparse.Namespace, port: int, pid: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
        await phase(http, port, pid, args.seconds, "alone")
        tasks = []
        bots = {"1": args.tier, "2": args.tier, "3": args.tier}
        for _ in range(args.flood):
            room = (await http.post("/api/rooms", json={"hands": 64, "name": "flood", "bots": bots})).json()
            if args.connect:
                ws = await connect(f"ws://{HOST}:{port}/ws/{room['room']}?token={room['token']}", max_size=2**20)
                await ws.send('{"type":"auto","on":true}')
                tasks.append(asyncio.create_task(drain(ws)))
        await asyncio.sleep(args.warmup)
        how = "connected, on 托管" if args.connect else "nobody connected"
        await phase(http, port, pid, args.seconds, f"{args.flood} {args.tier} rooms ({how})"[:60])
        for t in tasks:
            t.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=150)
    parser.add_argument("--tier", default="master")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--no-connect", dest="connect", action="store_false", help="flood rooms stay unconnected")
    parser.add_argument("--bot-threads", action="store_true", help="pass --bot-threads to scmj serve")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--host", HOST, "--port", str(port)]
        cmd += ["--db", str(Path(tmp) / "db.sqlite"), "--bot-delay", str(args.bot_delay), "--rate", "1000"]
        cmd += ["--log-level", "warning"] + (["--bot-threads"] if args.bot_threads else [])
        server = subprocess.Popen(cmd)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("scmj serve did not start")
                time.sleep(0.2)
            asyncio.run(run(args, port, server.pid))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
