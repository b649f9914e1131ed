"""The web table's HTTP and websocket endpoints (docs/protocol.md), on Starlette.

This module only carries messages: it routes each request (checked by :mod:`~sichuan_mahjong.server.requests`,
within the limits per client address of :mod:`~sichuan_mahjong.server.limits`) to the lobby, and each
websocket to :mod:`~sichuan_mahjong.server.sockets`, which hands its frames to the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.server import botpool
from sichuan_mahjong.server.botpool import pool_for
from sichuan_mahjong.server.cluster import Cluster, ClusterOptions, Gate
from sichuan_mahjong.server.gcpolicy import Collections, scheduled_collections
from sichuan_mahjong.server.history import history_routes
from sichuan_mahjong.server.limits import AddressGate, AddressLimits, LimitExceededError, SourceLogLimit
from sichuan_mahjong.server.lobby import Lobby, RequestError
from sichuan_mahjong.server.requests import (
    SourceMiddleware,
    client_address,
    error_response,
    json_body,
    limited_response,
)
from sichuan_mahjong.server.reviews import Reviews
from sichuan_mahjong.server.room import ServerOptions
from sichuan_mahjong.server.sockets import CLOSE_TRY_LATER, Limits, Timings, serve_socket
from sichuan_mahjong.server.store import open_store
from sichuan_mahjong.server.wire import dumps, error_message

__all__ = ["Limits", "create_app"]

log = logging.getLogger("sichuan_mahjong.server")

STATIC: Final = Path(__file__).parent / "static"
_PLACEHOLDER: Final = (
    "<!doctype html><meta charset=utf-8><title>scmj serve</title>"
    "<p>The table's page is not installed; the API is at /api/rooms and /ws/{room}.</p>"
)


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
    collections: list[Collections] = []
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
            async with scheduled_collections(options.full_gc) as full:
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
            key = client_address(request)
            gate.rooms.take(key)
            body = await json_body(request)
            async with making:
                room, host = lobby().create(body, owner=key)
                await asyncio.sleep(0)  # held over one turn: the next room is made in a later one
        except RequestError as exc:
            return error_response(exc)
        except LimitExceededError as exc:
            return limited_response(exc)
        return JSONResponse({"room": room.code, "seat": host.seat, "token": host.token}, status_code=201)

    async def join(request: Request) -> Response:
        try:
            gate.joins.take(client_address(request))
            row = lobby().join(request.path_params["room"], await json_body(request))
        except RequestError as exc:
            return error_response(exc)
        except LimitExceededError as exc:
            return limited_response(exc)
        return JSONResponse({"seat": row.seat, "token": row.token}, status_code=201)

    async def spectate(request: Request) -> Response:
        try:
            gate.joins.take(client_address(request))
            await json_body(request)
            token = lobby().spectate(request.path_params["room"])
        except RequestError as exc:
            return error_response(exc)
        except LimitExceededError as exc:
            return limited_response(exc)
        return JSONResponse({"token": token}, status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            gate.lookups.take(client_address(request))
        except LimitExceededError as exc:
            return limited_response(exc)
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
        key = client_address(ws)
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
            await serve_socket(ws, lobby(), limits, timings)
        finally:
            gate.disconnect(key)

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/healthz", healthz),
        Route("/api/presets", presets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/seats", join, methods=["POST"]),
        Route("/api/rooms/{room}/spectators", spectate, methods=["POST"]),
        *history_routes(lobby, gate, client_address, error_response, limited_response, reviews),
        WebSocketRoute("/ws/{room}", websocket),
        Route("/", index),
    ]
    if STATIC.is_dir():
        routes.append(Mount("/", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(SourceMiddleware)]
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
