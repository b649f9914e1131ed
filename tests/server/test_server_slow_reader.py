"""A websocket whose peer reads nothing is let go when it does not answer the keepalive ping (issue 37, item 10).

uvicorn closes such a socket after its ping timeout, but a close waits for buffers the peer never drains: what
the server sent beyond the peer's receive window stays in the kernel and the FIN waits behind it, so the peer
stayed connected for good (seen as ESTABLISHED after 120 s under ``benchmarks/abuse.py``'s slow reader). The
server resets it instead (``server/httpguard.py``). Through a real ``scmj serve`` with ``--ws-ping 1``.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from webtable import Server

TCP_ESTABLISHED = 1


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "rooms.db", "--ws-ping", "1").start()
    try:
        yield running
    finally:
        running.stop()


def test_a_spectator_that_reads_nothing_is_reset_after_the_ping_timeout(server: Server) -> None:
    bots = {"1": "expert", "2": "expert", "3": "expert"}
    room = httpx.post(f"{server.http}/api/rooms", json={"preset": "app", "hands": 1, "name": "p", "bots": bots}).json()
    token = httpx.post(f"{server.http}/api/rooms/{room['room']}/spectators", json={}).json()["token"]
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # a small window: the server's messages overflow it
    sock.connect(("127.0.0.1", server.port))
    try:
        sock.sendall(
            f"GET /ws/{room['room']}?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        state = TCP_ESTABLISHED
        deadline = time.monotonic() + 30  # ping after 1 s, reset 1 s later: 30 s is room for a loaded machine
        while state == TCP_ESTABLISHED and time.monotonic() < deadline:
            time.sleep(0.25)
            state = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]  # never read: only the kernel knows
        assert state != TCP_ESTABLISHED, "the server still holds a connection whose peer reads nothing"
    finally:
        sock.close()


def test_serve_refuses_a_ping_interval_that_is_not_positive(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="--ws-ping must be positive"):
        Server(tmp_path / "rooms.db", "--ws-ping", "0").start()
