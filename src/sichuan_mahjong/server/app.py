"""The web table's HTTP and websocket endpoints (docs/protocol.md), on Starlette.

This module only carries messages: it checks each request and frame (size, JSON, rate, strikes, the limits
per client address of :mod:`sichuan_mahjong.server.limits`) and hands it to the lobby or the room. Each
connection has its own outbox drained by its own task, so a slow client never holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.server import botpool
from sichuan_mahjong.server.botpool import pool_for
from sichuan_mahjong.server.cluster import Cluster, ClusterOptions, Gate
from sichuan_mahjong.server.gcpolicy import FullCollections, scheduled_full_collections
from sichuan_mahjong.server.history import history_routes
from sichuan_mahjong.server.limits import (
    SOURCE,
    AddressGate,
    AddressLimits,
    LimitExceededError,
    SourceLogLimit,
    TokenBucket,
    client_key,
    depth_error,
    text_error,
)
from sichuan_mahjong.server.lobby import Lobby, RequestError
from sichuan_mahjong.server.reviews import Reviews
from sichuan_mahjong.server.room import Room, ServerOptions
from sichuan_mahjong.server.store import open_store
from sichuan_mahjong.server.wire import ClientMessage, WireError, dumps, error_message, parse_client

__all__ = ["Limits", "create_app"]

log = logging.getLogger("sichuan_mahjong.server")

STATIC: Final = Path(__file__).parent / "static"
#: Close codes: bad or missing token (also after the authentication timeout) / too many bad frames / too slow /
#: over a limit of the client's address (1013 "try again later": the page reconnects, backing off).
CLOSE_AUTH: Final = 4401
CLOSE_STRIKES: Final = 4400
CLOSE_SLOW: Final = 4408
CLOSE_TRY_LATER: Final = 1013
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


class WsClient:
    """A websocket as a room's :class:`~sichuan_mahjong.server.room.Client`: messages queue, a task sends.

    The queue is bounded: a client that lets ``limit`` messages pile up (it does not read, so the socket's
    buffers are full and the sender waits) is dropped: what it has not been sent is forgotten, ``on_drop``
    frees its seat at once, and the close 4408 is sent as soon as the socket takes it (a client that reads
    nothing at all loses the connection to the server's keepalive instead). Memory per connection is bounded
    by the queue plus the socket's buffers."""

    _CLOSE: Final = object()

    def __init__(self, ws: WebSocket, limit: int, on_drop: Callable[[], None] | None = None) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.limit = limit
        self.closed = False
        self.dropped = False
        self.on_drop = on_drop
        self.task = asyncio.get_running_loop().create_task(self._drain())

    def send(self, message: Mapping[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.drop(CLOSE_SLOW)
            return
        self.queue.put_nowait(message if isinstance(message, str) else dumps(message))

    def drop(self, code: int) -> None:
        """Too slow: stop sending, forget the queue, close with ``code`` once the socket can take a frame."""
        if self.dropped:
            return
        self.closed = self.dropped = True
        self.task.cancel()  # it waits for the socket to drain; the frame it was sending is out or never began
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait((self._CLOSE, code))
        self.task = asyncio.get_running_loop().create_task(self._drain())
        if self.on_drop is not None:
            self.on_drop()

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
    """The body as a JSON object, read no further than :data:`MAX_BODY` bytes (a longer ``Content-Length`` is
    refused before a byte is read); nesting and text are checked before anything reads them."""
    too_big = RequestError(f"the request body may hold at most {MAX_BODY} bytes", 413)
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > MAX_BODY:
        raise too_big
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise too_big
    except ClientDisconnect:
        raise RequestError("the request body did not arrive") from None
    if not raw.strip():
        return {}
    problem = depth_error(bytes(raw))
    if problem is not None:
        raise RequestError(f"the request body is {problem}")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise RequestError("the request body is not JSON (UTF-8)") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    _check_text(body, "")
    return body


def _check_text(value: object, path: str) -> None:
    """Every string of a parsed body, keys too, must be text that can be stored and shown (names the field)."""
    if isinstance(value, str):
        problem = text_error(value)
        if problem is not None:
            raise RequestError(f'"{path or "body"}" {problem}')
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = text_error(key)
            if problem is not None:
                raise RequestError(f'a key of "{path or "body"}" {problem}')
            _check_text(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_text(item, f"{path}[{i}]")


def _error(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


def _limited(exc: LimitExceededError) -> JSONResponse:
    """429 naming the limit (its ``scmj serve`` flag) with ``Retry-After``."""
    return JSONResponse(
        {"error": str(exc), "limit": exc.limit, "retry_after": exc.retry_after},
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )


def _address(conn: HTTPConnection) -> str:
    return client_key(conn.client.host if conn.client else None)


class _Source:
    """ASGI middleware: lines logged while serving a request or socket name its client (:data:`SOURCE`), the
    address after ``--forwarded-allow-ips`` applied a proxy's ``X-Forwarded-For``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client:
            SOURCE.set(client_key(client[0]))
        await self.app(scope, receive, send)


def create_app(
    db: str | Path,
    options: ServerOptions | None = None,
    limits: Limits | None = None,
    address: AddressLimits | None = None,
    log_limit: SourceLogLimit | None = None,
    cluster: ClusterOptions | None = None,
) -> Starlette:
    """The server: ``db`` is the SQLite file or a ``postgresql://`` URL (rooms are restored from it at start-up);
    ``address`` the limits per client address; ``log_limit`` a log filter whose summaries of dropped lines are
    written every few seconds; ``cluster``: one worker of several on one PostgreSQL database (server/cluster.py),
    which holds only the rooms that hash to it and takes over a dead worker's."""
    options = options or ServerOptions()
    limits = limits or Limits()
    address = address or AddressLimits()
    gate = AddressGate(address)
    state: dict[str, Lobby] = {}
    workers: list[Cluster] = []
    timings = Timings()
    collections: list[FullCollections] = []
    # Rooms are made one per turn of the event loop: a burst of POST /api/rooms (many addresses, each under its
    # own limits) then takes turns with whatever else is ready (a person's ping or answer) instead of running
    # back to back in one turn while every table waits.
    making = asyncio.Lock()
    reviews = Reviews(options.review_samples, options.review_queue)

    def lobby() -> Lobby:
        return state["lobby"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(db, wal_max=options.wal_max)
        store.start()
        state["lobby"] = the_lobby = Lobby(store, options, address)
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(_sweep(the_lobby, min(60.0, options.idle / 4)))]
        if log_limit is not None:
            tasks.append(loop.create_task(_flush_logs(log_limit, 5.0)))
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
            tasks.append(loop.create_task(worker.run()))
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
            botpool.shutdown()
            reviews.shutdown()
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
            "bots": pool_for(options.bot_workers, options.bot_processes).summary(),
        }
        if workers:
            out["worker"] = workers[0].options.name
        if request.query_params.get("reset"):
            timings.durations.clear()
        return JSONResponse(out)

    async def create_room(request: Request) -> Response:
        try:
            key = _address(request)
            gate.rooms.take(key)
            body = await _json_body(request)
            async with making:
                room, host = lobby().create(body, owner=key)
                await asyncio.sleep(0)  # held over one turn: the next room is made in a later one
        except RequestError as exc:
            return _error(exc)
        except LimitExceededError as exc:
            return _limited(exc)
        return JSONResponse({"room": room.code, "seat": host.seat, "token": host.token}, status_code=201)

    async def join(request: Request) -> Response:
        try:
            gate.joins.take(_address(request))
            row = lobby().join(request.path_params["room"], await _json_body(request))
        except RequestError as exc:
            return _error(exc)
        except LimitExceededError as exc:
            return _limited(exc)
        return JSONResponse({"seat": row.seat, "token": row.token}, status_code=201)

    async def spectate(request: Request) -> Response:
        try:
            gate.joins.take(_address(request))
            await _json_body(request)
            token = lobby().spectate(request.path_params["room"])
        except RequestError as exc:
            return _error(exc)
        except LimitExceededError as exc:
            return _limited(exc)
        return JSONResponse({"token": token}, status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            gate.lookups.take(_address(request))
        except LimitExceededError as exc:
            return _limited(exc)
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
        key = _address(ws)
        try:
            gate.connect(key)
        except LimitExceededError as exc:
            await ws.accept()
            with contextlib.suppress(Exception):
                refusal = error_message("limit", str(exc))
                await ws.send_text(dumps({**refusal, "limit": exc.limit, "retry_after": exc.retry_after}))
                await ws.close(CLOSE_TRY_LATER, f"{exc.limit}: retry in {exc.retry_after} s")
            return
        try:
            await _serve_socket(ws, lobby(), limits, timings)
        finally:
            gate.disconnect(key)

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/healthz", healthz),
        Route("/api/presets", presets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/seats", join, methods=["POST"]),
        Route("/api/rooms/{room}/spectators", spectate, methods=["POST"]),
        *history_routes(lobby, gate, _address, _error, _limited, reviews),
        WebSocketRoute("/ws/{room}", websocket),
        Route("/", index),
    ]
    if STATIC.is_dir():
        routes.append(Mount("/", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(_Source)]
    if cluster is not None:
        middleware.append(Middleware(Gate, cluster=lambda: workers[0] if workers else None))
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


async def _flush_logs(log_limit: SourceLogLimit, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        log_limit.flush()


async def _authenticate(ws: WebSocket, lobby: Lobby, limits: Limits) -> tuple[Room, int | None, str] | None:
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
    return lobby.rooms[ticket.room], ticket.seat, str(token)


async def _serve_socket(ws: WebSocket, lobby: Lobby, limits: Limits, timings: Timings) -> None:
    await ws.accept()
    found = await _authenticate(ws, lobby, limits)
    if found is None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(error_message("auth", "unknown room or token")))
            await ws.close(CLOSE_AUTH)
        return
    room, seat, token = found
    client = WsClient(ws, limits.outbox)
    conn = room.attach(client, seat)
    client.on_drop = lambda: room.detach(conn)
    if seat is None:
        lobby.watch(token, 1)
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
        if seat is None:
            lobby.watch(token, -1)
        room.detach(conn)
        client.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.task, 1.0)
