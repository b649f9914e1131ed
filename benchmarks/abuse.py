"""The web table's server under abuse: the attacks of issue 37 as a repeatable script, on loopback, each bounded.

Run: ``.venv/bin/python benchmarks/abuse.py [--attacks none,bodies,rooms,...] [--seconds 15] [--server-args "..."]
[--profile FILE]`` (``--profile``: each attack's server under cProfile, its stats in ``FILE-ATTACK.prof``).

For each attack a fresh ``scmj serve`` runs on 127.0.0.1 with a new database (``--bot-delay 0``: bots answer at
once, the harsher case). A normal player on 127.0.0.1 plays a room against three ``expert`` bots and answers every
decision after 0.2 s; the attacker speaks from other loopback addresses (127.0.0.2 and up: on Linux the whole of
127.0.0.0/8 is this machine), so limits kept per client address hold the attacker, not the player. While the
attack runs the script samples the server's memory (RSS) and the size of its write-ahead log, and it prints for
each attack what the server did, the player's round trips (an ``act`` to the first answer, a ``ping`` to its
``pong``: p50 and p99 in ms), the most memory and WAL seen, and the server's log (lines, tracebacks).

The player runs on a thread of its own with its own event loop, so the attackers' work in this process does not
delay its reading (making a client per request had cost up to 2.5 s of the player's p99, none of it the
server's). ``none`` is no attack: the figures of the machine as it is now, to compare each attack with.

Each attack ends ``ok`` or ``MISSED`` with the reasons: what the server should do under it (bodies refused with
413 before all is sent; rooms held by the per-address caps and 429; reconnects bring the player at most one
``room`` message per interval; lookups 429 after the limit; a real spectator still admitted; junk frames answered
or closed, the log bounded; bad input a 4xx; slow HTTP sockets and a client that never reads closed), and for
every attack the targets below, no traceback in the log, the server alive and the player's connection whole.

Targets (issue 37): the player's p99 under 100 ms while any single attack runs, server memory under 300 MB,
WAL under 64 MB. Every request loop is bounded in count and in time, and only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import queue
import random
import resource
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from serverproc import HOST, PROFILED, free_port, rss_mb
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

# HOST (serverproc) serves the server and the normal player; attackers use 127.0.0.2 and up (loopback only)
BOTS3 = {"1": "expert", "2": "expert", "3": "expert"}
# The server's defaults (docs/protocol.md "Limits") that the verdicts check; --server-args may change them
ROOMS_PER_ADDRESS = 20  # --rooms-per-address
ROOM_INTERVAL = 0.25  # --room-interval
CONNECT_RATE = 60  # --connect-rate, per minute
LOOKUP_RATE = 60  # --lookup-rate, per minute
LOG_KB_PER_S = 16  # what a bounded log may grow by under a flood of junk
# A client that never reads should be dropped by then: its pings unanswered (--ws-ping: a ping after 20 s, 20 s for
# its pong, then the socket is reset), or its outbox full (the socket's buffers on loopback first take megabytes)
SLOW_READER_S = 50
#: The server's default --request-timeout (10 s) plus a margin: the slow sockets are watched at least this long,
#: so a close at the deadline itself is not read as a socket kept open.
SLOW_HTTP_S = 15
TCP_CLOSE, TCP_CLOSE_WAIT = 7, 8  # Linux's TCP states (tcp_states.h)
TARGET = {"p99": 100.0, "rss": 300.0, "wal": 64.0}  # ms, MB, MB


def attacker(n: int = 0) -> str:
    """The n-th attacking address, all inside 127.0.0.0/8 (loopback)."""
    return f"127.0.{2 + n // 250}.{2 + n % 250}"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e3 if s else float("nan")


@dataclass
class Server:
    """``scmj serve`` in a subprocess with its own database and log."""

    tmp: Path
    extra: list[str]
    profile: Path | None = None
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def db(self) -> Path:
        return self.tmp / "abuse.db"

    @property
    def log(self) -> Path:
        return self.tmp / "server.log"

    @property
    def http(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> Server:
        launch = ["-m", "sichuan_mahjong", "serve"] if self.profile is None else ["-c", PROFILED, str(self.profile)]
        cmd = [sys.executable, *launch, "--host", HOST, "--port", str(self.port)]
        cmd += ["--db", str(self.db), "--bot-delay", "0", "--pause", "1", *self.extra]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit(f"the server did not start:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def wal_mb(self) -> float:
        wal = self.db.with_name(self.db.name + "-wal")
        return wal.stat().st_size / 2**20 if wal.exists() else 0.0

    def log_summary(self) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return f"log {len(text.splitlines())} lines, {len(text) / 1024:.0f} KB, {text.count('Traceback')} tracebacks"


@dataclass
class Player:
    """A person at a table of three bots, from 127.0.0.1: the round trips the attack must not slow.

    It plays in a process of its own (:meth:`start`), so the attackers' work in this one (making clients,
    parsing answers, the GIL) never delays its reading: the figures are the server's. Its round trips are kept
    with the wall-clock time each began, and :meth:`finish` returns those begun since ``since``."""

    port: int
    room: str
    token: str
    context: Any = field(default_factory=lambda: multiprocessing.get_context("spawn"))
    rooms_seen: Any = None  # a shared count of the room messages the player got
    since: Any = None  # a shared wall-clock time: the round trips that count began after it
    stop: Any = None
    results: Any = None
    process: Any = None

    @staticmethod
    async def create(http: httpx.AsyncClient, port: int) -> Player:
        r = await http.post("/api/rooms", json={"preset": "app", "hands": 64, "name": "player", "bots": BOTS3})
        r.raise_for_status()
        body = r.json()
        return Player(port, str(body["room"]), str(body["token"]))

    @property
    def room_messages(self) -> int:
        return int(self.rooms_seen.value)

    def start(self) -> None:
        self.rooms_seen = self.context.Value("i", 0)
        self.since = self.context.Value("d", time.time() + 3600)
        self.stop = self.context.Event()
        self.results = self.context.Queue()
        table = Table(self.port, self.room, self.token, self.rooms_seen, self.since, self.stop, self.results)
        self.process = self.context.Process(target=table.run, name="player", daemon=True)
        self.process.start()

    def count_from_now(self) -> None:
        self.since.value = time.time()

    def finish(self) -> tuple[list[float], list[float], list[str]]:
        """Stop playing; the act and ping round trips since :meth:`count_from_now`, and how the connection broke."""
        self.stop.set()
        try:
            acts, pings, closed = self.results.get(timeout=30)
        except queue.Empty:
            acts, pings, closed = [], [], ["the player's process gave no figures"]
        self.process.join(10)
        return acts, pings, closed


@dataclass
class Table:
    """The player's side, in its own process."""

    port: int
    room: str
    token: str
    rooms_seen: Any
    since: Any
    stop: Any
    results: Any
    acts: list[tuple[float, float]] = field(default_factory=list)
    pings: list[tuple[float, float]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)

    def run(self) -> None:
        try:
            asyncio.run(self.play(self.token, self.stop))
        except Exception as exc:
            self.closed.append(f"{type(exc).__name__}: {exc}"[:120])
        since = self.since.value
        self.results.put(
            (
                [dt for t, dt in self.acts if t >= since],
                [dt for t, dt in self.pings if t >= since],
                self.closed,
            )
        )

    async def play(self, token: str, stop: Any) -> None:
        self.pinged = asyncio.Event()
        url = f"ws://{HOST}:{self.port}/ws/{self.room}?token={token}"
        sent: list[float] = []  # when the answer now awaiting the server's reply was sent

        async def answer(ws: ClientConnection, seq: int, action: str) -> None:
            await asyncio.sleep(0.2)  # a person's think time; the reading goes on meanwhile
            sent[:] = [time.perf_counter(), time.time()]
            await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))

        async with connect(url, max_size=2**22, open_timeout=30) as ws:
            pinger = asyncio.create_task(self._ping(ws, stop))
            tasks: set[asyncio.Task[None]] = set()
            try:
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue
                    m: dict[str, Any] = json.loads(raw)
                    kind = m["type"]
                    if kind == "room":
                        with self.rooms_seen.get_lock():
                            self.rooms_seen.value += 1
                    if kind == "pong":
                        self.pinged.set()
                        continue
                    if sent and kind in ("view", "answered", "error", "hand_over"):
                        self.acts.append((sent[1], time.perf_counter() - sent[0]))
                        sent.clear()
                    if kind == "view" and m["legal"]:
                        legal = m["legal"]
                        action = "hu" if "hu" in legal else random.choice(legal)
                        task = asyncio.create_task(answer(ws, m["seq"], action))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                    elif kind == "hand_over":
                        await ws.send('{"type": "next"}')
                    elif kind == "match_over":
                        return
            except Exception as exc:  # the player's connection broke: that is a finding, not a crash of this script
                self.closed.append(f"{type(exc).__name__}: {exc}"[:120])
            finally:
                pinger.cancel()
                for task in tasks:
                    task.cancel()

    async def _ping(self, ws: ClientConnection, stop: Any) -> None:
        while not stop.is_set():
            self.pinged.clear()
            t, began = time.perf_counter(), time.time()
            await ws.send('{"type": "ping"}')
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.pinged.wait(), 5)
            self.pings.append((began, time.perf_counter() - t))
            await asyncio.sleep(0.5)


def client(source: str, timeout: float = 10) -> httpx.AsyncClient:
    """An attacker's client from ``source``; plain HTTP, so no certificates are loaded (that took the CPU of the
    attacking process, not the server's)."""
    transport = httpx.AsyncHTTPTransport(local_address=source, verify=False)
    return httpx.AsyncClient(base_url="", transport=transport, timeout=timeout, verify=False)


@dataclass
class Outcome:
    """What the server did under one attack, and each way that falls short of what it should do."""

    what: str
    missed: list[str] = field(default_factory=list)

    def expect(self, holds: bool, reason: str) -> Outcome:
        if not holds:
            self.missed.append(reason)
        return self


Attack = Callable[[Server, Player, float], Awaitable[Outcome]]


async def none(server: Server, player: Player, seconds: float) -> Outcome:
    """No attack: the player's round trips on this machine as it is now, to compare each attack with."""
    await asyncio.sleep(seconds)
    return Outcome("nothing")


async def bodies(server: Server, player: Player, seconds: float) -> Outcome:
    """Three concurrent 200 MB bodies to POST /api/rooms (two with Content-Length, one chunked)."""
    size, chunk = 200 * 2**20, b" " * 2**20

    async def one(n: int, chunked: bool) -> tuple[str, bool]:
        sent = 0

        async def stream() -> Any:
            nonlocal sent
            while sent < size:
                sent += len(chunk)
                yield chunk

        headers = {"content-type": "application/json"}
        if not chunked:
            headers["content-length"] = str(size)
        try:
            async with client(attacker(n), timeout=seconds) as http:
                r = await http.post(f"{server.http}/api/rooms", content=stream(), headers=headers)
                return f"{r.status_code} after {sent >> 20} MB sent", r.status_code == 413
        except httpx.HTTPError as exc:  # the server closed the socket mid-body: refused too
            return f"{type(exc).__name__} after {sent >> 20} MB sent", True

    out = await asyncio.gather(one(0, False), one(1, False), one(2, True))
    return Outcome("; ".join(text for text, _ in out)).expect(
        all(refused for _, refused in out), "a body was not refused (413) (its memory: the RSS target)"
    )


async def rooms(server: Server, player: Player, seconds: float, sources: int = 1, tier: str = "expert") -> Outcome:
    """Rooms of three bots and 64 hands, as fast as the server takes them, from ``sources`` addresses."""
    statuses: Counter[int | str] = Counter()
    end = time.monotonic() + seconds
    body = {"preset": "app", "hands": 64, "name": "x", "bots": {"1": tier, "2": tier, "3": tier}}

    async def flood(n: int) -> None:
        async with client(attacker(n)) as http:
            while time.monotonic() < end and statuses[201] < 5000:
                try:
                    r = await http.post(f"{server.http}/api/rooms", json=body)
                    statuses[r.status_code] += 1
                    if r.status_code == 429:
                        await asyncio.sleep(0.05)
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1

    await asyncio.gather(*(flood(n % sources) for n in range(max(4, sources))))
    out = Outcome("rooms " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    cap = ROOMS_PER_ADDRESS * sources
    out.expect(statuses[201] <= cap, f"{statuses[201]} rooms made, over {ROOMS_PER_ADDRESS} per address ({cap})")
    return out.expect(statuses[429] > 0 or statuses[201] < cap, "no 429 once the addresses held their rooms")


async def many_rooms(server: Server, player: Player, seconds: float) -> Outcome:
    """The same flood from 50 addresses (each under its own cap): the bound must be the bots' shared pool."""
    return await rooms(server, player, seconds, sources=50)


async def master_rooms(server: Server, player: Player, seconds: float) -> Outcome:
    """Up to 150 rooms of three ``master`` bots from 50 addresses."""
    statuses: Counter[int | str] = Counter()
    body = {"preset": "seed", "hands": 64, "name": "x", "bots": {"1": "master", "2": "master", "3": "master"}}
    sem = asyncio.Semaphore(8)

    async def one(n: int) -> None:
        async with sem, client(attacker(n % 50)) as http:
            try:
                statuses[(await http.post(f"{server.http}/api/rooms", json=body)).status_code] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1

    await asyncio.gather(*(one(n) for n in range(150)))
    await asyncio.sleep(seconds)
    out = Outcome("rooms " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str)))
    return out.expect(statuses[201] == 150, "not every room was made (three per address is under every limit)")


async def reconnects(server: Server, player: Player, seconds: float) -> Outcome:
    """A spectator token of the player's room, connected and dropped in a loop: what reaches the player."""
    before = player.room_messages
    async with client(attacker(0)) as http:
        r = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
    if r.status_code != 201:
        return Outcome(f"spectator refused: {r.status_code}", ["a first spectator token was refused"])
    url = f"ws://{HOST}:{server.port}/ws/{player.room}?token={r.json()['token']}"
    done: Counter[str] = Counter()
    end = time.monotonic() + seconds

    async def loop(n: int) -> None:
        while time.monotonic() < end and done["connected"] < 50000:
            try:
                async with connect(url, open_timeout=5, local_addr=(attacker(n), 0)) as ws:
                    try:  # over --connect-rate the server accepts, says why (an error) and closes (1013)
                        first = json.loads(await asyncio.wait_for(ws.recv(), 1))
                        done["refused" if first["type"] == "error" else "connected"] += 1
                    except ConnectionClosed as exc:
                        done[f"closed {exc.rcvd.code if exc.rcvd else None}"] += 1
            except Exception as exc:
                done[type(exc).__name__] += 1
                await asyncio.sleep(0.01)

    sources = 4
    await asyncio.gather(*(loop(n) for n in range(sources)))
    got = player.room_messages - before
    most = int(seconds / ROOM_INTERVAL) + 2  # at most one room message per room per interval
    out = Outcome(f"{dict(done)}; the player got {got} room messages meanwhile (at most {most} allowed)")
    out.expect(got <= most, f"{got} room messages reached the player, over one per {ROOM_INTERVAL:g} s")
    allowed = sources * CONNECT_RATE * (1 + seconds / 60)  # a minute's burst, then the rate, per address
    out.expect(done["connected"] <= allowed, f"{done['connected']} connections, over --connect-rate ({allowed:.0f})")
    return out.expect(done["refused"] > 0, "no connection refused over --connect-rate")


async def lookups(server: Server, player: Player, seconds: float) -> Outcome:
    """GET /api/rooms/{code} for random codes as fast as the server answers: the enumeration rate."""
    statuses: Counter[int | str] = Counter()
    alphabet = "ACDEFGHJKMNPQRTUVWXY34679"
    length = max(4, len(player.room))
    end = time.monotonic() + seconds
    rng = random.Random(1)

    async def loop(n: int) -> None:
        async with client(attacker(n)) as http:
            while time.monotonic() < end and sum(statuses.values()) < 200000:
                code = "".join(rng.choice(alphabet) for _ in range(length))
                try:
                    statuses[(await http.get(f"{server.http}/api/rooms/{code}")).status_code] += 1
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1

    await asyncio.gather(*(loop(0) for _ in range(4)))
    looked = statuses[404] + statuses[200]
    space = len(alphabet) ** length
    rate = looked / seconds
    days = space / rate / 86400 if rate else float("inf")
    out = Outcome(f"{dict(statuses)}; {rate:.1f} codes/s looked up: all {space:,} codes would take {days:,.2f} days")
    most = LOOKUP_RATE * (1 + seconds / 60)  # a minute's burst, then the rate
    out.expect(looked <= most, f"{looked} lookups answered, over --lookup-rate ({most:.0f})")
    return out.expect(statuses[429] > 0, "no 429 after the limit")


async def spectators(server: Server, player: Player, seconds: float) -> Outcome:
    """64+ spectator POSTs for the player's room from one address, then a real spectator from another."""
    statuses: Counter[int | str] = Counter()
    async with client(attacker(0)) as http:
        for _ in range(200):
            r = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
            statuses[r.status_code] += 1
    async with client(attacker(7)) as http:
        real = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
    out = Outcome(f"attacker {dict(statuses)}; a real spectator then got {real.status_code}")
    out.expect(statuses[429] > 0, "the attacker's spectator POSTs were never limited (429)")
    return out.expect(real.status_code == 201, f"a real spectator was locked out ({real.status_code})")


async def frames(server: Server, player: Player, seconds: float) -> Outcome:
    """Frames of 1,000 '[' (and other junk) over spectator connections, reconnecting when closed."""
    async with client(attacker(0)) as http:
        tokens = [
            (await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})).json().get("token")
            for _ in range(2)
        ]
    log0 = server.log.stat().st_size
    seen: Counter[str] = Counter()
    end = time.monotonic() + seconds
    junk = ["[" * 1000, "{" * 1000, '{"type": "act", "action": ' + "[" * 500, "\x00" * 100, '{"type": 1}']

    async def loop(token: str | None) -> None:
        url = f"ws://{HOST}:{server.port}/ws/{player.room}?token={token}"
        while time.monotonic() < end and seen["sent"] < 100000:
            try:
                async with connect(url, open_timeout=5, local_addr=(attacker(1), 0)) as ws:
                    while time.monotonic() < end:
                        await ws.send(random.choice(junk))
                        seen["sent"] += 1
                        with contextlib.suppress(TimeoutError):
                            m = json.loads(await asyncio.wait_for(ws.recv(), 0.01))
                            seen[m.get("code") or m["type"]] += 1
            except Exception as exc:
                seen[type(exc).__name__] += 1
                await asyncio.sleep(0.01)

    await asyncio.gather(*(loop(t) for t in tokens if t))
    grown = (server.log.stat().st_size - log0) / 1024
    out = Outcome(f"{dict(seen)}; the log grew {grown:.0f} KB")
    out.expect(grown < LOG_KB_PER_S * seconds, f"the log grew over {LOG_KB_PER_S} KB/s")
    answered = sum(n for key, n in seen.items() if key != "sent")  # errors by code, and closes
    return out.expect(answered > 0, "junk got no error and no close")


async def status(http: httpx.AsyncClient, url: str, body: str) -> str:
    try:
        r = await http.post(url, content=body.encode(), headers={"content-type": "application/json"})
        return str(r.status_code)
    except httpx.HTTPError as exc:
        return type(exc).__name__


async def bad_input(server: Server, player: Player, seconds: float) -> Outcome:
    """Deep JSON bodies, lone surrogates in names, invalid UTF-8 before auth: each answer's status."""
    out: list[str] = []
    async with client(attacker(0)) as http:
        deep = "[" * 2000
        for path in ("/api/rooms", f"/api/rooms/{player.room}/spectators", f"/api/rooms/{player.room}/seats"):
            out.append(f"deep {path.rsplit('/', 1)[-1]}: {await status(http, server.http + path, deep)}")
        surrogate = '{"name": "\\ud800"}'  # a lone surrogate, escaped as JSON allows
        out.append(f"surrogate name: {await status(http, server.http + '/api/rooms', surrogate)}")
    for _ in range(20):
        with contextlib.suppress(Exception):
            async with connect(f"ws://{HOST}:{server.port}/ws/{player.room}", local_addr=(attacker(1), 0)) as ws:
                await ws.send(b"\xff\xfe\xfd")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 1)
    out.append("20 sockets sent invalid UTF-8 before auth")
    bad = [o for o in out[:-1] if not o.rsplit(": ", 1)[-1].startswith("4")]
    return Outcome("; ".join(out)).expect(not bad, f"not refused with a 4xx: {', '.join(bad)}")


async def slow_http(server: Server, player: Player, seconds: float) -> Outcome:
    """10 slowloris sockets (a header byte a second) and 5 silent ones: how many are still open at the end."""
    seconds = max(seconds, SLOW_HTTP_S)

    async def slowloris(n: int) -> bool:
        reader, writer = await asyncio.open_connection(HOST, server.port, local_addr=(attacker(n), 0))
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                writer.write(b"X")
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(1024), 1) == b"":
                        return False
            return True
        except (ConnectionError, OSError):
            return False
        finally:
            writer.close()

    async def silent(n: int) -> bool:
        reader, writer = await asyncio.open_connection(HOST, server.port, local_addr=(attacker(n), 0))
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(reader.read(1024), seconds)
                return False
            return True
        except (ConnectionError, OSError):
            return False
        finally:
            writer.close()

    open_ = await asyncio.gather(*(slowloris(n) for n in range(10)), *(silent(10 + n) for n in range(5)))
    out = Outcome(
        f"after {seconds:g} s: {sum(open_[:10])}/10 slowloris and {sum(open_[10:])}/5 silent sockets still open"
    )
    return out.expect(not any(open_), "sockets that never finished their headers were kept open")


async def slow_reader(server: Server, player: Player, seconds: float) -> Outcome:
    """A spectator that never reads while the player's table runs on: is it dropped, and does memory hold?"""
    async with client(attacker(0)) as http:
        token = (await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})).json()["token"]
    _reader, writer = await asyncio.open_connection(HOST, server.port, local_addr=(attacker(0), 0))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    writer.write(
        f"GET /ws/{player.room}?token={token} HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    transport = writer.transport
    assert isinstance(transport, asyncio.Transport)
    transport.pause_reading()  # never read: the server's messages pile up on its side
    sock = writer.get_extra_info("socket")
    began = time.monotonic()
    wait = max(seconds, SLOW_READER_S)
    closed, state = False, 0
    while not closed and time.monotonic() - began < wait:
        await asyncio.sleep(0.5)
        # Not reading, this side never sees the close: the kernel's TCP state says whether the server closed
        state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]
        closed = state in (TCP_CLOSE, TCP_CLOSE_WAIT)
    writer.close()
    took = time.monotonic() - began
    still = "was closed after" if closed else "is still open after"
    out = Outcome(f"the non-reading socket {still} {took:.0f} s (TCP state {state})")
    return out.expect(closed, f"a client that never reads was kept {wait:g} s")


ATTACKS: dict[str, Attack] = {
    "none": none,
    "bodies": bodies,
    "rooms": rooms,
    "many-rooms": many_rooms,
    "master-rooms": master_rooms,
    "reconnects": reconnects,
    "lookups": lookups,
    "spectators": spectators,
    "frames": frames,
    "bad-input": bad_input,
    "slow-http": slow_http,
    "slow-reader": slow_reader,
}


async def run_one(name: str, attack: Attack, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        profile = None if args.profile is None else args.profile.with_name(f"{args.profile.stem}-{name}.prof")
        server = Server(Path(tmp), shlex.split(args.server_args), profile).start()
        assert server.proc is not None
        pid = server.proc.pid
        peak = {"rss": rss_mb(pid), "wal": 0.0}
        stop = threading.Event()

        async def sample() -> None:
            while not stop.is_set():
                peak["rss"] = max(peak["rss"], rss_mb(pid))
                peak["wal"] = max(peak["wal"], server.wal_mb())
                await asyncio.sleep(0.25)

        try:
            async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
                player = await Player.create(http, server.port)
            sampler = asyncio.create_task(sample())
            player.start()
            await asyncio.sleep(3)  # the player's table is under way before the attack
            player.count_from_now()
            began = time.monotonic()
            try:
                seen = await asyncio.wait_for(attack(server, player, args.seconds), args.seconds + SLOW_READER_S + 30)
            except TimeoutError:
                seen = Outcome("the attack did not finish in time", ["the attack did not finish in time"])
            except Exception as exc:
                what = f"the attack broke: {type(exc).__name__}: {exc}"[:200]
                seen = Outcome(what, [what])
            # A short attack (bad input, spectators) is measured with its aftermath, --seconds in all
            await asyncio.sleep(max(0.0, began + args.seconds - time.monotonic()))
            alive = server.proc.poll() is None
            acts, pings, closed = await asyncio.to_thread(player.finish)
            stop.set()
            await sampler
            row = {
                "attack": name,
                "what": seen.what,
                "act_p50": pct(acts, 0.5),
                "act_p99": pct(acts, 0.99),
                "acts": len(acts),
                "ping_p50": pct(pings, 0.5),
                "ping_p99": pct(pings, 0.99),
                "rss": peak["rss"],
                "wal": peak["wal"],
                "alive": alive,
                "player": "; ".join(closed) or "played on",
                "log": server.log_summary(),
                "tracebacks": server.log.read_text(errors="replace").count("Traceback"),
            }
            row["missed"] = seen.missed + judge(row)
        finally:
            server.stop()
    return row


def judge(row: dict[str, Any]) -> list[str]:
    """What every attack must leave: the player's round trips, the server's memory and WAL, a clean log."""
    out = []
    for key in ("act_p99", "ping_p99"):
        if not row[key] < TARGET["p99"]:
            out.append(f"player {key.replace('_', ' ')} {row[key]:.0f} ms over {TARGET['p99']:g}")
    if not row["rss"] < TARGET["rss"]:
        out.append(f"RSS {row['rss']:.0f} MB over {TARGET['rss']:g}")
    if not row["wal"] < TARGET["wal"]:
        out.append(f"WAL {row['wal']:.0f} MB over {TARGET['wal']:g}")
    if not row["alive"]:
        out.append("the server died")
    if row["tracebacks"]:
        out.append(f"{row['tracebacks']} tracebacks in the log")
    if row["player"] != "played on":
        out.append("the player's connection broke")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attacks", default=",".join(ATTACKS), help=f"comma-separated, of: {', '.join(ATTACKS)}")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each attack runs (bounded)")
    parser.add_argument("--server-args", default="", help="more arguments for scmj serve, quoted")
    parser.add_argument(
        "--profile", type=Path, default=None, help="run each server under cProfile, stats to FILE-ATTACK.prof"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the rows to this file")
    args = parser.parse_args()
    names = [n.strip() for n in args.attacks.split(",") if n.strip()]
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        parser.error(f"unknown attack(s) {', '.join(unknown)}; known: {', '.join(ATTACKS)}")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"{len(names)} attacks, {args.seconds:g} s each; targets: player p99 < 100 ms, RSS < 300 MB, WAL < 64 MB")
    rows = []
    for name in names:
        row = asyncio.run(run_one(name, ATTACKS[name], args))
        rows.append(row)
        verdict = "ok" if not row["missed"] else "MISSED: " + "; ".join(row["missed"])
        print(
            f"\n== {name}: {verdict}\n   server: {row['what']}\n"
            f"   player: act p50/p99 {row['act_p50']:.1f}/{row['act_p99']:.1f} ms over {row['acts']}, ping p50/p99"
            f" {row['ping_p50']:.1f}/{row['ping_p99']:.1f} ms; {row['player']}\n"
            f"   server RSS max {row['rss']:.0f} MB, WAL max {row['wal']:.1f} MB, "
            f"{'alive' if row['alive'] else 'DEAD'}; {row['log']}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print(f"\n{sum(1 for r in rows if r['alive'])}/{len(rows)} attacks left the server alive")
    print(f"{sum(1 for r in rows if not r['missed'])}/{len(rows)} ok")
    print("\n| attack | act p50/p99 ms | ping p50/p99 ms | RSS MB | WAL MB | verdict |\n|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['attack']} | {r['act_p50']:.0f} / {r['act_p99']:.0f} | {r['ping_p50']:.0f} / {r['ping_p99']:.0f}"
            f" | {r['rss']:.0f} | {r['wal']:.1f} | {'ok' if not r['missed'] else 'MISSED: ' + '; '.join(r['missed'])} |"
        )


if __name__ == "__main__":
    main()
