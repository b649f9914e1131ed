"""The web table's server under abuse: the attacks of issue 37 as a repeatable script, on loopback, each bounded.

Run: ``.venv/bin/python benchmarks/abuse.py [--attacks bodies,rooms,...] [--seconds 15] [--server-args "..."]``.

For each attack a fresh ``scmj serve`` runs on 127.0.0.1 with a new database (``--bot-delay 0``: bots answer at
once, the harsher case). A normal player on 127.0.0.1 plays a room against three ``expert`` bots and answers every
decision after 0.2 s; the attacker speaks from other loopback addresses (127.0.0.2 and up: on Linux the whole of
127.0.0.0/8 is this machine), so limits kept per client address hold the attacker, not the player. While the
attack runs the script samples the server's memory (RSS) and the size of its write-ahead log, and it prints for
each attack what the server did, the player's round trips (an ``act`` to the first answer, a ``ping`` to its
``pong``: p50 and p99 in ms), the most memory and WAL seen, and the server's log (lines, tracebacks).

Targets (issue 37): the player's p99 under 100 ms while any single attack runs, server memory under 300 MB,
WAL under 64 MB. Every request loop is bounded in count and in time, and only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"  # the server and the normal player; attackers use 127.0.0.2 and up (loopback only)
BOTS3 = {"1": "expert", "2": "expert", "3": "expert"}


def attacker(n: int = 0) -> str:
    """The n-th attacking address, all inside 127.0.0.0/8 (loopback)."""
    return f"127.0.{2 + n // 250}.{2 + n % 250}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1e3 if s else float("nan")


@dataclass
class Server:
    """``scmj serve`` in a subprocess with its own database and log."""

    tmp: Path
    extra: list[str]
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
        cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--host", HOST, "--port", str(self.port)]
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
    """A person at a table of three bots, from 127.0.0.1: the round trips the attack must not slow."""

    server: Server
    acts: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    messages: Counter[str] = field(default_factory=Counter)
    room: str = ""
    closed: list[str] = field(default_factory=list)
    pinged: asyncio.Event = field(default_factory=asyncio.Event)

    async def create(self, http: httpx.AsyncClient) -> str:
        r = await http.post("/api/rooms", json={"preset": "app", "hands": 64, "name": "player", "bots": BOTS3})
        r.raise_for_status()
        body = r.json()
        self.room = body["room"]
        return str(body["token"])

    async def play(self, token: str, stop: asyncio.Event) -> None:
        url = f"ws://{HOST}:{self.server.port}/ws/{self.room}?token={token}"
        sent: list[float] = []  # when the answer now awaiting the server's reply was sent

        async def answer(ws: ClientConnection, seq: int, action: str) -> None:
            await asyncio.sleep(0.2)  # a person's think time; the reading goes on meanwhile
            sent[:] = [time.perf_counter()]
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
                    self.messages[kind] += 1
                    if kind == "pong":
                        self.pinged.set()
                        continue
                    if sent and kind in ("view", "answered", "error", "hand_over"):
                        self.acts.append(time.perf_counter() - sent.pop())
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

    async def _ping(self, ws: ClientConnection, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.pinged.clear()
            t = time.perf_counter()
            await ws.send('{"type": "ping"}')
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.pinged.wait(), 5)
            self.pings.append(time.perf_counter() - t)
            await asyncio.sleep(0.5)


def client(source: str, timeout: float = 10) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url="", transport=transport, timeout=timeout)


Attack = Callable[[Server, Player, float], Awaitable[str]]


async def bodies(server: Server, player: Player, seconds: float) -> str:
    """Three concurrent 200 MB bodies to POST /api/rooms (two with Content-Length, one chunked)."""
    size, chunk = 200 * 2**20, b" " * 2**20

    async def one(n: int, chunked: bool) -> str:
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
                return f"{r.status_code} after {sent >> 20} MB sent"
        except httpx.HTTPError as exc:
            return f"{type(exc).__name__} after {sent >> 20} MB sent"

    out = await asyncio.gather(one(0, False), one(1, False), one(2, True))
    return "; ".join(out)


async def rooms(server: Server, player: Player, seconds: float, sources: int = 1, tier: str = "expert") -> str:
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
    return "rooms " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))


async def many_rooms(server: Server, player: Player, seconds: float) -> str:
    """The same flood from 50 addresses (each under its own cap): the bound must be the bots' shared pool."""
    return await rooms(server, player, seconds, sources=50)


async def master_rooms(server: Server, player: Player, seconds: float) -> str:
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
    return "rooms " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))


async def reconnects(server: Server, player: Player, seconds: float) -> str:
    """A spectator token of the player's room, connected and dropped in a loop: what reaches the player."""
    before = player.messages["room"]
    async with client(attacker(0)) as http:
        r = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
    if r.status_code != 201:
        return f"spectator refused: {r.status_code}"
    url = f"ws://{HOST}:{server.port}/ws/{player.room}?token={r.json()['token']}"
    done: Counter[str] = Counter()
    end = time.monotonic() + seconds

    async def loop(n: int) -> None:
        while time.monotonic() < end and done["connected"] < 50000:
            try:
                async with connect(url, open_timeout=5, local_addr=(attacker(n), 0)):
                    done["connected"] += 1
            except Exception as exc:
                done[type(exc).__name__] += 1
                await asyncio.sleep(0.01)

    await asyncio.gather(*(loop(n) for n in range(4)))
    return f"{dict(done)}; the player got {player.messages['room'] - before} room messages meanwhile"


async def lookups(server: Server, player: Player, seconds: float) -> str:
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
    return f"{dict(statuses)}; {rate:.1f} codes/s looked up: all {space:,} codes would take {days:,.2f} days"


async def spectators(server: Server, player: Player, seconds: float) -> str:
    """64+ spectator POSTs for the player's room from one address, then a real spectator from another."""
    statuses: Counter[int | str] = Counter()
    async with client(attacker(0)) as http:
        for _ in range(200):
            r = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
            statuses[r.status_code] += 1
    async with client(attacker(7)) as http:
        real = await http.post(f"{server.http}/api/rooms/{player.room}/spectators", json={})
    return f"attacker {dict(statuses)}; a real spectator then got {real.status_code}"


async def frames(server: Server, player: Player, seconds: float) -> str:
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
    return f"{dict(seen)}; the log grew {grown:.0f} KB"


async def status(http: httpx.AsyncClient, url: str, body: str) -> str:
    try:
        r = await http.post(url, content=body.encode(), headers={"content-type": "application/json"})
        return str(r.status_code)
    except httpx.HTTPError as exc:
        return type(exc).__name__


async def bad_input(server: Server, player: Player, seconds: float) -> str:
    """Deep JSON bodies, lone surrogates in names, invalid UTF-8 before auth: each answer's status."""
    out = []
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
    return "; ".join(out)


async def slow_http(server: Server, player: Player, seconds: float) -> str:
    """10 slowloris sockets (a header byte a second) and 5 silent ones: how many are still open at the end."""

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
    return f"after {seconds:g} s: {sum(open_[:10])}/10 slowloris and {sum(open_[10:])}/5 silent sockets still open"


async def slow_reader(server: Server, player: Player, seconds: float) -> str:
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
    await asyncio.sleep(seconds)
    closed = writer.transport.is_closing()
    writer.close()
    return f"the non-reading socket {'was closed' if closed else 'is still open'} after {seconds:g} s"


ATTACKS: dict[str, Attack] = {
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
        server = Server(Path(tmp), shlex.split(args.server_args)).start()
        assert server.proc is not None
        pid = server.proc.pid
        peak = {"rss": rss_mb(pid), "wal": 0.0}
        stop = asyncio.Event()

        async def sample() -> None:
            while not stop.is_set():
                peak["rss"] = max(peak["rss"], rss_mb(pid))
                peak["wal"] = max(peak["wal"], server.wal_mb())
                await asyncio.sleep(0.25)

        try:
            player = Player(server)
            async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
                token = await player.create(http)
            sampler = asyncio.create_task(sample())
            playing = asyncio.create_task(player.play(token, stop))
            await asyncio.sleep(2)  # the player's table is under way before the attack
            player.acts.clear()
            player.pings.clear()
            try:
                what = await asyncio.wait_for(attack(server, player, args.seconds), args.seconds + 60)
            except TimeoutError:
                what = "the attack did not finish in time"
            except Exception as exc:
                what = f"the attack broke: {type(exc).__name__}: {exc}"[:200]
            alive = server.proc.poll() is None
            stop.set()
            await asyncio.gather(sampler, playing, return_exceptions=True)
            row = {
                "attack": name,
                "what": what,
                "act_p50": pct(player.acts, 0.5),
                "act_p99": pct(player.acts, 0.99),
                "acts": len(player.acts),
                "ping_p50": pct(player.pings, 0.5),
                "ping_p99": pct(player.pings, 0.99),
                "rss": peak["rss"],
                "wal": peak["wal"],
                "alive": alive,
                "player": "; ".join(player.closed) or "played on",
                "log": server.log_summary(),
                "tracebacks": server.log.read_text(errors="replace").count("Traceback"),
            }
        finally:
            server.stop()
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attacks", default=",".join(ATTACKS), help=f"comma-separated, of: {', '.join(ATTACKS)}")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long each attack runs (bounded)")
    parser.add_argument("--server-args", default="", help="more arguments for scmj serve, quoted")
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
        ok = row["act_p99"] < 100 and row["ping_p99"] < 100 and row["rss"] < 300 and row["wal"] < 64 and row["alive"]
        ok = ok and row["tracebacks"] == 0
        print(
            f"\n== {name}: {'ok' if ok else 'MISSED'}\n   server: {row['what']}\n"
            f"   player: act p50/p99 {row['act_p50']:.1f}/{row['act_p99']:.1f} ms over {row['acts']}, ping p50/p99"
            f" {row['ping_p50']:.1f}/{row['ping_p99']:.1f} ms; {row['player']}\n"
            f"   server RSS max {row['rss']:.0f} MB, WAL max {row['wal']:.1f} MB, "
            f"{'alive' if row['alive'] else 'DEAD'}; {row['log']}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print(f"\n{sum(1 for r in rows if r['alive'])}/{len(rows)} attacks left the server alive")


if __name__ == "__main__":
    main()
