"""Several server processes on one PostgreSQL database (``scmj serve --worker K/N``): who holds which room, leases,
takeover and handback (docs/hosting.md, "Several workers").

* **Shares.** Worker K of N is point K of the hash ring (server/ring.py: the proxy's own consistent hash over
  the workers' addresses, ``--ring``). A room belongs to the first worker *alive* in the ring's order for its
  code; a worker creates only codes that belong to it.
* **Leases.** Each worker holds a lease on its slot in the table ``leases``, renewed every ``lease / 6``
  seconds (the heartbeat) by the database's clock; alive = a current lease. A process that restarts gets a
  new holder id and waits for its old lease to run out.
* **Holding a room.** ``room_holders`` says which process has a room in memory. At each heartbeat a worker
  claims the open rooms that belong to it and that nobody alive holds (a dead worker's, once its lease ran
  out), rebuilds them from the database (the same replay as a restart: every token still valid, the match
  exactly where it was) and resumes them; and it lets go of the rooms that belong to another worker alive
  again (a worker that came back): their connections are closed with 1012 (the page reconnects, through the
  proxy, to the new holder), the room stays open in the database and its new owner claims it at its next
  heartbeat. Nobody claims a room that a live process holds, so two processes never play one room.
* **The gate.** A request for an open room this worker does not hold waits (up to ``wait`` seconds) when
  this worker is about to hold it: the room's owner claiming it at its next heartbeat, or the next worker of
  the ring, which the proxy asks when the owner is down and which takes it over once the owner's lease ran
  out. Otherwise, or after the wait, it is answered 403 before anything is done, which the proxy takes as
  "try the next worker of the ring" (nginx ``proxy_next_upstream http_403``; 403 does not count as a failed
  worker). A code that no open room has goes to the app as in one process (404).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sichuan_mahjong.server.ring import Ring

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, MutableMapping

    from sichuan_mahjong.server.lobby import Lobby
    from sichuan_mahjong.server.pgstore import PgStore

    Scope = MutableMapping[str, Any]
    Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
    Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
    ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]

__all__ = ["CLOSE_MOVED", "CLUSTER_SCHEMA", "Cluster", "ClusterOptions", "Gate", "parse_worker"]

log = logging.getLogger("sichuan_mahjong.server")

#: The websocket close code for a room that moved to another worker (1012: service restart; reconnect).
CLOSE_MOVED = 1012

CLUSTER_SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (
    slot INTEGER PRIMARY KEY,
    holder TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS room_holders (
    code TEXT PRIMARY KEY,
    holder TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_open ON rooms (code) WHERE closed IS NULL
"""  # rooms_open: each heartbeat reads the open rooms, a few among every room ever made
_NOW = "extract(epoch from clock_timestamp())"
_ROOM_PATH = re.compile(r"^/(?:api/rooms|ws)/([^/]+)")


def parse_worker(text: str) -> tuple[int, int]:
    """``--worker K/N``: (K, N) with 1 <= K <= N, or a ValueError naming what is wrong."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"--worker must be K/N with 1 <= K <= N (worker 2 of 3: 2/3), got {text!r}")
    return int(m[1]), int(m[2])


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """Worker ``index`` (0-based) of the ring ``servers``; the lease's length and the gate's wait, in seconds."""

    index: int
    servers: tuple[str, ...]
    lease: float = 3.0
    wait: float = 6.0

    @property
    def name(self) -> str:
        return f"{self.index + 1}/{len(self.servers)}"


class Cluster:
    """This worker's part: its lease, the rooms it holds, the heartbeat that claims and lets go of rooms."""

    def __init__(self, store: PgStore, lobby: Lobby, options: ClusterOptions) -> None:
        self.store = store
        self.lobby = lobby
        self.options = options
        self.ring = Ring(options.servers)
        self.me = options.index
        self.holder = f"{options.name}:{uuid.uuid4().hex[:12]}"
        self.alive: dict[int, str] = {}  # slot -> holder id, the leases current at the last heartbeat
        self.leased = False
        self.open: dict[str, str | None] = {}  # open rooms in the database -> who holds each (None: nobody)
        self.claimed_at: dict[str, float] = {}  # code -> time.monotonic() it was restored here (takeover timing)
        store.create(CLUSTER_SCHEMA)
        lobby.owns = self.owns

    # ------------------------------------------------------------------------------------------ who owns
    def owner(self, code: str) -> int | None:
        """The worker a room belongs to now: the first alive in the ring's order for its code."""
        return self.ring.owner(code.upper(), self.alive.keys())

    def owns(self, code: str) -> bool:
        """A new code this worker may give out: it is ours while we are alive."""
        return self.owner(code) == self.me

    # ----------------------------------------------------------------------------------------- heartbeat
    def beat(self) -> None:
        """Renew the lease, then claim and let go of rooms (the database's answers decide; nothing is assumed)."""
        s = self.store
        ttl = self.options.lease
        got = s._rows(
            f"INSERT INTO leases (slot, holder, expires) VALUES (?, ?, {_NOW} + ?) ON CONFLICT (slot) DO UPDATE "
            f"SET holder = excluded.holder, expires = excluded.expires "
            f"WHERE leases.holder = excluded.holder OR leases.expires < {_NOW} RETURNING slot",
            (self.me, self.holder, ttl),
        )
        if not got and self.leased:
            log.error("worker %s lost its lease (paused too long?): it lets go of every room", self.options.name)
        self.leased = bool(got)
        self.alive = {
            int(slot): str(h) for slot, h in s._rows(f"SELECT slot, holder FROM leases WHERE expires > {_NOW}")
        }
        if not self.leased:
            self.alive.pop(self.me, None)
        self.open = {
            str(code): (None if h is None else str(h))
            for code, h in s._rows(
                "SELECT r.code, h.holder FROM rooms r LEFT JOIN room_holders h ON h.code = r.code "
                "WHERE r.closed IS NULL"
            )
        }
        for code in list(self.lobby.rooms):
            held_by = self.open.get(code)
            if not self.leased or self.owner(code) != self.me or held_by not in (None, self.holder):
                self.release(code)
            elif held_by is None:  # a room created here since the last heartbeat: say who holds it
                s._write(
                    [
                        (
                            "INSERT INTO room_holders (code, holder) VALUES (?, ?) ON CONFLICT DO NOTHING",
                            (code, self.holder),
                        )
                    ]
                )
        if self.leased:
            live = set(self.alive.values())
            wanted = [
                c for c, h in self.open.items()
                if c not in self.lobby.rooms and (h is None or h not in live) and self.owner(c) == self.me
            ]  # fmt: skip
            if wanted:
                self.claim(wanted)

    def claim(self, codes: list[str]) -> None:
        """Take the rooms nobody alive holds (a dead worker's) and rebuild them here from the database."""
        claimed: list[str] = []
        for code in codes:
            row = self.store._rows(
                "INSERT INTO room_holders (code, holder) VALUES (?, ?) ON CONFLICT (code) DO UPDATE "
                "SET holder = excluded.holder WHERE room_holders.holder NOT IN "
                f"(SELECT holder FROM leases WHERE expires > {_NOW}) RETURNING code",
                (code, self.holder),
            )
            if row:
                claimed.append(code)
        if not claimed:
            return
        start = time.perf_counter()
        restored = self.lobby.restore(self.store.open_rooms(claimed))
        for code in claimed:
            room = self.lobby.rooms.get(code)
            if room is not None and room.match is not None:
                room.guard(room.resume)
            self.claimed_at[code] = time.monotonic()
        log.info(
            "worker %s took over %d room(s) in %.3f s: %s",
            self.options.name, restored, time.perf_counter() - start, " ".join(sorted(claimed)[:20]),
        )  # fmt: skip

    def release(self, code: str) -> None:
        """Let another worker have the room: its connections close (1012, reconnect), it stays open in the store."""
        room = self.lobby.rooms.get(code)
        if room is not None:
            room.close("moved", None, CLOSE_MOVED, stored=False)  # the page reconnects on its own
        with contextlib.suppress(Exception):
            self.store._write([("DELETE FROM room_holders WHERE code = ? AND holder = ?", (code, self.holder))])
        log.info("worker %s let go of room %s (its owner is back)", self.options.name, code)

    def give_up(self) -> None:
        """A clean stop: the lease ends now, so another worker takes the rooms at its next heartbeat."""
        with contextlib.suppress(Exception):
            self.store._write([("DELETE FROM leases WHERE slot = ? AND holder = ?", (self.me, self.holder))])

    async def run(self) -> None:
        every = self.options.lease / 6
        while True:
            try:
                self.beat()
            except Exception as exc:  # the database is away: hold on; the lease runs out if this lasts
                log.error("worker %s heartbeat failed: %r", self.options.name, exc)
            await asyncio.sleep(every)

    async def ready(self, code: str) -> bool:
        """Whether this worker holds the room (or it is no open room at all: the app answers as one process)."""
        deadline = time.monotonic() + self.options.wait
        while code not in self.lobby.rooms:
            if code not in self.open:
                return True
            if not self._next_holder(code) or time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    def _next_holder(self, code: str) -> bool:
        """Whether this worker is about to hold the room: its owner (claiming it at the next heartbeat), or the
        next one in the ring's order, which takes it over if the owner is down (the proxy asks it then)."""
        alive = set(self.alive)
        first = self.ring.owner(code, alive)
        return first == self.me or self.ring.owner(code, alive - {first}) == self.me


class Gate:
    """ASGI middleware: a request for a room this worker does not hold waits while this worker is about to
    hold it (a takeover or handback in progress, at most ``wait`` seconds), else is answered 403 before
    anything is done (the proxy tries the next worker). ``cluster()`` is this worker's :class:`Cluster` once
    the app has started."""

    def __init__(self, app: ASGI, cluster: Callable[[], Cluster | None]) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = self.cluster()
        if cluster is not None and scope["type"] in ("http", "websocket"):
            m = _ROOM_PATH.match(scope.get("path", ""))
            if m is not None and not await cluster.ready(m[1].upper()):
                await _refuse(scope, send, m[1].upper())
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, code: str) -> None:
    body = json.dumps({"error": f"room {code} is held by another worker; try again"}).encode()
    headers = [(b"content-type", b"application/json"), (b"retry-after", b"1"), (b"content-length", b"%d" % len(body))]
    prefix = "websocket.http." if scope["type"] == "websocket" else "http."
    await send({"type": prefix + "response.start", "status": 403, "headers": headers})
    await send({"type": prefix + "response.body", "body": body})
