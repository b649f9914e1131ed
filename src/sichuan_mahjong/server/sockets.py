"""The websocket side of the server: each connection's outbox (:class:`WsClient`, what a room sees as its
:class:`~sichuan_mahjong.server.seats.Client`), authentication by token, and the loop that reads a connection's
frames (size, JSON, rate, strikes) and hands each checked message to its room.

Each connection has its own outbox drained by its own task, so a slow client never holds up a room; a message
the room encoded once (JSON text) is queued as it is, for every connection it goes to.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from sichuan_mahjong.server.limits import TokenBucket
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.room import Room
from sichuan_mahjong.server.wire import ClientMessage, WireError, dumps, error_message, parse_client

__all__ = [
    "CLOSE_AUTH",
    "CLOSE_SLOW",
    "CLOSE_STRIKES",
    "CLOSE_TRY_LATER",
    "Limits",
    "Timings",
    "WsClient",
    "authenticate",
    "serve_socket",
]

#: Close codes: bad or missing token (also after the authentication timeout) / too many bad frames / too slow /
#: over a limit of the client's address (1013 "try again later": the page reconnects, backing off).
CLOSE_AUTH: Final = 4401
CLOSE_STRIKES: Final = 4400
CLOSE_SLOW: Final = 4408
CLOSE_TRY_LATER: Final = 1013


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


async def authenticate(ws: WebSocket, lobby: Lobby, limits: Limits) -> tuple[Room, int | None, str] | None:
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


async def serve_socket(ws: WebSocket, lobby: Lobby, limits: Limits, timings: Timings) -> None:
    await ws.accept()
    found = await authenticate(ws, lobby, limits)
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
