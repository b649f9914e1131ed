"""Helpers for the web table's tests: ``scmj serve`` in a subprocess on a free loopback port, and websocket
players (the ``websockets`` library's asyncio client) that record every message they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

Message = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``scmj serve`` on 127.0.0.1 with its own database (a SQLite file, or a ``postgresql://`` URL with ``log``
    naming the log file); ``kill()`` is ``kill -9``, ``start()`` again resumes."""

    def __init__(self, db: Path | str, *args: str, hold: float = 30.0, log: Path | None = None) -> None:
        self.db = db
        self.args = ["--hold", str(hold), "--bot-delay", "0", "--pause", "0", "--rate", "1000", *args]
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log or Path(db).parent / "server.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.port = free_port()
        cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--port", str(self.port), "--db", str(self.db)]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([*cmd, *self.args], stdout=log, stderr=log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"scmj serve exited with {self.proc.returncode}: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"scmj serve did not answer /healthz: {self.log.read_text()}")

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def kill(self) -> None:
        """``kill -9``: no clean-up of any kind."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: Any = None) -> tuple[int, Message]:
        r = httpx.post(f"{self.http}{path}", json=body, timeout=10)
        return r.status_code, r.json()

    def room(self, **body: Any) -> Message:
        status, out = self.post("/api/rooms", {"preset": "app", "hands": 1, "name": "host", **body})
        assert status == 201, out
        return out

    async def connect(self, room: str, token: str | None) -> Peer:
        query = "" if token is None else f"?token={token}"
        ws = await connect(f"ws://127.0.0.1:{self.port}/ws/{room}{query}", open_timeout=10)
        return Peer(ws)


class Peer:
    """One websocket; ``seen`` keeps every message received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[Message] = []

    async def recv(self, timeout: float = 10) -> Message:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        message: Message = json.loads(raw)
        self.seen.append(message)
        return message

    async def until(self, test: str | Callable[[Message], bool], timeout: float = 10) -> Message:
        """The next message of that type (or passing that test), keeping the ones before it in ``seen``."""
        deadline = time.monotonic() + timeout
        while True:
            m = await self.recv(max(0.01, deadline - time.monotonic()))
            if (m["type"] == test) if isinstance(test, str) else test(m):
                return m

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        """Close, reading what is still queued meanwhile (an unread client would stall the close handshake)."""

        async def drain() -> None:
            with contextlib.suppress(Exception):
                async for _ in self.ws:
                    pass

        reader = asyncio.ensure_future(drain())
        await self.ws.close()
        reader.cancel()

    def last_view(self) -> Message:
        return next(m for m in reversed(self.seen) if m["type"] == "view")


def players(m: Message) -> list[Any] | None:
    """The seats of a message that carries the room object (not ``hello``, whose ``room`` is the code)."""
    room = m.get("room")
    return room["players"] if isinstance(room, dict) else None


def pick(legal: Sequence[str], rng: random.Random) -> str:
    """A random legal answer that keeps hands short: a win when offered, otherwise any."""
    return "hu" if "hu" in legal else rng.choice(list(legal))


async def autoplay(peer: Peer, rng: random.Random, timeout: float = 60, first: Message | None = None) -> Message:
    """Answer every view that asks something (``first`` too, a message already read) until ``match_over``."""
    deadline = time.monotonic() + timeout
    while True:
        m = first if first is not None else await peer.recv(max(0.01, deadline - time.monotonic()))
        first = None
        if m["type"] == "view" and m["legal"]:
            await peer.send(type="act", action=pick(m["legal"], rng), seq=m["seq"])
        elif m["type"] == "hand_over":
            await peer.send(type="next")
        elif m["type"] == "match_over":
            return m
        elif m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")


async def until(test: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait on the running loop (its tasks and clocks go on meanwhile) until ``test()`` holds; fail after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.005)


def answer_unread(room: Any, box: Any, conn: Any, rng: random.Random) -> None:
    """In-process: ``conn`` (whose connection keeps its messages in ``box``, an :class:`Inbox` or alike) answers
    every view it has not read that asks something, with :func:`pick`, and asks for the next hand after one."""
    from sichuan_mahjong.server.wire import ClientMessage

    for m in box.unread():
        if m["type"] == "view" and m["legal"]:
            room.handle(conn, ClientMessage("act", action=pick(m["legal"], rng), seq=m["seq"]))
        elif m["type"] == "hand_over":
            room.handle(conn, ClientMessage("next"))


class Inbox:
    """An in-process connection for a :class:`~sichuan_mahjong.server.room.Room`: keeps what it is sent."""

    def __init__(self) -> None:
        self.seen: list[Message] = []
        self.closed: int | None = None
        self.read = 0

    def send(self, message: Any) -> None:
        self.seen.append(json.loads(message if isinstance(message, str) else json.dumps(message)))

    def close(self, code: int) -> None:
        self.closed = code

    def unread(self) -> list[Message]:
        new, self.read = self.seen[self.read :], len(self.seen)
        return new
