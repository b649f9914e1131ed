"""The web table's HTTP and websocket endpoints (DESIGN.md "The web protocol", docs/protocol.md), on Starlette.

This module only carries messages: it checks each frame (size, JSON, rate, strikes) and hands it to the
room. Each connection has its own outbox drained by its own task, so a slow client never holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.server.cluster import Cluster, ClusterOptions, Gate
from sichuan_mahjong.server.gcpolicy import FullCollections, scheduled_full_collections
from sichuan_mahjong.server.lobby import Lobby, RequestError
from sichuan_mahjong.server.room import Room, ServerOptions
from sichuan_mahjong.server.store import open_store
from sichuan_mahjong.server.wire import ClientMessage, WireError, dumps, error_message, parse_client

__all__ = ["Limits", "create_app"]

log = logging.getLogger("sichuan_mahjong.server")

STATIC: Final = Path(__file__).parent / "static"
#: Close codes: bad or missing token (also after the authentication timeout) / too many bad frames / too slow.
CLOSE_AUTH: Final = 4401
CLOSE_STRIKES: Final = 4400
CLOSE_SLOW: Final = 4408
MAX_BODY: Final = 8192
_PLACEHOLDER: Final = (
    "<!doctype html><meta charset=utf-8><title>scmj serve</title>"
    "<p>The table's page is not installed; the API is at /api/rooms and /ws/{room}.</p>"
)


@dataclass(frozen=True, slots=True)
class Limits:
    """Per connection: ``rate`` messages a second with bursts of ``burst``; ``strikes`` malformed or refused-
    for-rate frames before it is closed; ``auth_timeout`` seconds to send ``auth`` when the URL has no token;
    ``outbox`` messages queued for a client that does not read before it is dropped."""

    rate: float = 20.0
    burst: float = 40.0
    strikes: int = 5
    auth_timeout: float = 5.0
    outbox: int = 512


class Timings:
    """How long the server took over each client message (reading it to every resulting message queued), for
    ``GET /healthz``: the server's own share of a player's wait, apart from the network and the machine."""

    def __init__(self, keep: int = 20000) -> None:
        self.durations: deque[float] = deque(maxlen=keep)

    def summary(self) -> dict[str, float | int]:
        d = sorted(self.durations)
        if not d:
            return {"n": 0}
        return {
            "n": len(d),
            "p50_ms": round(d[len(d) // 2] * 1e3, 3),
            "p99_ms": round(d[min(len(d) - 1, int(0.99 * len(d)))] * 1e3, 3),
            "max_ms": round(d[-1] * 1e3, 3),
        }


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` spends one or says no."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class WsClient:
    """A websocket as a room's :class:`~sichuan_mahjong.server.room.Client`: messages queue, a task sends."""

    _CLOSE: Final = object()

    def __init__(self, ws: WebSocket, limit: int) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.limit = limit
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def send(self, message: Mapping[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.close(CLOSE_SLOW)
            return
        self.queue.put_nowait(message if isinstance(message, str) else dumps(message))

    def close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait((self._CLOSE, code))

    async def _drain(self) -> None:
        ws = self.ws
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await ws.close(item[1])
                    return
                await ws.send_text(str(item))
        except Exception:  # the peer went away; the receive loop notices and detaches
            self.closed = True


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise RequestError(f"the request body may hold at most {MAX_BODY} bytes", 413)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise RequestError("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def _error(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


def create_app(
    db: str | Path,
    options: ServerOptions | None = None,
    limits: Limits | None = None,
    cluster: ClusterOptions | None = None,
) -> Starlette:
    """The server: ``db`` is the SQLite file or a ``postgresql://`` URL (rooms are restored from it at start-up).
    ``cluster``: one worker of several on one PostgreSQL database (server/cluster.py); it restores only the
    rooms that hash to it, and takes over a dead worker's."""
    options = options or ServerOptions()
    limits = limits or Limits()
    state: dict[str, Lobby] = {}
    workers: list[Cluster] = []
    timings = Timings()
    collections: list[FullCollections] = []

    def lobby() -> Lobby:
        return state["lobby"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(db, wal_max=options.wal_max)
        store.start()
        state["lobby"] = the_lobby = Lobby(store, options)
        tasks = [asyncio.get_running_loop().create_task(_sweep(the_lobby, min(60.0, options.idle / 4)))]
        if cluster is None:
            restored = the_lobby.restore()
            the_lobby.resume()
            log.info("database %s: %d room(s) restored", getattr(store, "path", db), restored)
        else:
            from sichuan_mahjong.server.pgstore import PgStore

            if not isinstance(store, PgStore):
                raise TypeError("several workers need a postgresql:// database")  # checked by scmj serve first
            worker = Cluster(store, the_lobby, cluster)
            worker.beat()  # the lease, then this worker's rooms, before the first request
            workers.append(worker)
            tasks.append(asyncio.get_running_loop().create_task(worker.run()))
            log.info("worker %s: %d room(s) held", cluster.name, len(the_lobby.rooms))
        try:
            async with scheduled_full_collections(options.full_gc) as full:
                collections.append(full)
                yield
        finally:
            for task in tasks:
                task.cancel()
            for worker in workers:
                worker.give_up()
            store.close()

    async def presets(request: Request) -> Response:
        """Every preset's rules, so the page's lobby shows a preset's options before a room exists."""
        return JSONResponse({"presets": {name: rules.to_dict() for name, rules in PRESETS.items()}})

    async def healthz(request: Request) -> Response:
        rooms = lobby().rooms
        out = {
            "ok": True,
            "rooms": len(rooms),
            "connections": sum(r.connections for r in rooms.values()),
            "handle": timings.summary(),
            "gc": collections[-1].summary() if collections else {},
        }
        if workers:
            out["worker"] = workers[0].options.name
        if request.query_params.get("reset"):
            timings.durations.clear()
        return JSONResponse(out)

    async def create_room(request: Request) -> Response:
        try:
            room, host = lobby().create(await _json_body(request))
        except RequestError as exc:
            return _error(exc)
        return JSONResponse({"room": room.code, "seat": host.seat, "token": host.token}, status_code=201)

    async def join(request: Request) -> Response:
        try:
            row = lobby().join(request.path_params["room"], await _json_body(request))
        except RequestError as exc:
            return _error(exc)
        return JSONResponse({"seat": row.seat, "token": row.token}, status_code=201)

    async def spectate(request: Request) -> Response:
        try:
            await _json_body(request)
            token = lobby().spectate(request.path_params["room"])
        except RequestError as exc:
            return _error(exc)
        return JSONResponse({"token": token}, status_code=201)

    async def room_info(request: Request) -> Response:
        room = lobby().rooms.get(str(request.path_params["room"]).upper())
        if room is None:
            return JSONResponse({"error": f"no room {request.path_params['room']!r}"}, status_code=404)
        return JSONResponse({"room": room.room_json()})

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if page.is_file():
            return HTMLResponse(page.read_text(encoding="utf-8"))
        return HTMLResponse(_PLACEHOLDER)

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, lobby(), limits, timings)

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/healthz", healthz),
        Route("/api/presets", presets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/seats", join, methods=["POST"]),
        Route("/api/rooms/{room}/spectators", spectate, methods=["POST"]),
        WebSocketRoute("/ws/{room}", websocket),
        Route("/", index),
    ]
    if STATIC.is_dir():
        routes.append(Mount("/", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(Gate, cluster=lambda: workers[0] if workers else None)] if cluster else []
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)


async def _sweep(lobby: Lobby, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            n = lobby.sweep()
            if n:
                log.info("%d idle room(s) closed", n)
        except Exception as exc:  # pragma: no cover - the sweeper must never stop the server
            log.error("sweep failed: %r", exc, exc_info=exc)


async def _authenticate(ws: WebSocket, lobby: Lobby, limits: Limits) -> tuple[Room, int | None] | None:
    code = str(ws.path_params["room"])
    token = ws.query_params.get("token")
    if token is None:
        try:
            text = await asyncio.wait_for(ws.receive_text(), limits.auth_timeout)
            message = parse_client(text)
        except (TimeoutError, WireError, WebSocketDisconnect, KeyError, RuntimeError):
            return None
        if message.type != "auth":
            return None
        token = message.token
    ticket = lobby.ticket(code, str(token))
    if ticket is None:
        return None
    return lobby.rooms[ticket.room], ticket.seat


async def _serve_socket(ws: WebSocket, lobby: Lobby, limits: Limits, timings: Timings) -> None:
    await ws.accept()
    found = await _authenticate(ws, lobby, limits)
    if found is None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(error_message("auth", "unknown room or token")))
            await ws.close(CLOSE_AUTH)
        return
    room, seat = found
    client = WsClient(ws, limits.outbox)
    conn = room.attach(client, seat)
    bucket = TokenBucket(limits.rate, limits.burst)
    strikes = 0
    try:
        while not client.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            message: ClientMessage | None = None
            if not bucket.take():
                client.send(error_message("rate", f"more than {limits.rate:g} messages a second; slow down"))
            else:
                try:
                    message = parse_client(frame["text"] if frame.get("text") is not None else frame.get("bytes", b""))
                except WireError as exc:
                    client.send(error_message(exc.code, exc.message))
            if message is None:
                strikes += 1
                if strikes >= limits.strikes:
                    client.send(error_message("strikes", f"{strikes} bad messages: closing"))
                    client.close(CLOSE_STRIKES)
                continue
            if message.type != "auth":
                start = time.perf_counter()
                room.handle(conn, message)
                timings.durations.append(time.perf_counter() - start)
    except WebSocketDisconnect:
        pass
    finally:
        room.detach(conn)
        client.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.task, 1.0)
