"""The server's edge under abuse, against a real ``scmj serve`` (docs/protocol.md "Limits"): bodies limited while
read, slow and silent sockets closed, limits per client address with 429 and close 1013, room codes, JSON depth
and text checked before anything trusts them, invalid UTF-8 and log floods."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
import select
import socket
import struct
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from sichuan_mahjong.cli import main
from sichuan_mahjong.server.limits import SOURCE, AddressLimits, Buckets, LimitExceededError, SourceLogLimit
from sichuan_mahjong.server.lobby import CODE_ALPHABET, Lobby, RequestError
from sichuan_mahjong.server.room import ServerOptions
from sichuan_mahjong.server.store import Store
from webtable import Peer, Server

MB = 1 << 20


def rss_kb(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def status_of(response: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", response)
    assert match, response[:200]
    return int(match.group(1))


def post_big(port: int, size: int, *, chunked: bool) -> int:
    """POST ``size`` bytes to /api/rooms as fast as the server takes them, watching for its answer; the status."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % size
    sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing + b"\r\n\r\n")
    block = b"[" * MB
    answer = b""
    sent = 0
    try:
        while sent < size and b"\r\n\r\n" not in answer:
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            sent += len(block)
            if select.select([sock], [], [], 0)[0]:
                answer += sock.recv(65536)
        if chunked and sent >= size:
            sock.sendall(b"0\r\n\r\n")
    except OSError:  # the server closed the socket on us after it answered
        pass
    try:
        while b"\r\n\r\n" not in answer:
            got = sock.recv(65536)
            if not got:
                break
            answer += got
    except OSError:
        pass
    sock.close()
    return status_of(answer)


def test_large_bodies_are_refused_while_read_and_memory_stays_bounded(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        assert server.proc is not None
        pid = server.proc.pid
        before = rss_kb(pid)
        statuses: list[int] = []
        peak = [before]
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], rss_kb(pid))
                time.sleep(0.01)

        def send(chunked: bool) -> None:
            statuses.append(post_big(server.port, 48 * MB, chunked=chunked))

        watcher = threading.Thread(target=watch)
        watcher.start()
        senders = [threading.Thread(target=send, args=(i % 2 == 1,)) for i in range(4)]
        start = time.monotonic()
        for t in senders:
            t.start()
        for t in senders:
            t.join(60)
        elapsed = time.monotonic() - start
        done.set()
        watcher.join()
        assert statuses == [413] * 4
        grown = (max(peak[0], rss_kb(pid, "VmRSS")) - before) / 1024
        assert grown < 40, f"the server grew {grown:.0f} MB while refusing 4 x 48 MB bodies"
        assert elapsed < 20
        # an ordinary request on a fresh connection is served as before
        assert httpx.get(f"{server.http}/healthz", timeout=5).status_code == 200


def test_a_content_length_over_the_limit_is_refused_before_the_body_is_sent(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(b"POST /api/rooms/ABCDEF/seats HTTP/1.1\r\nHost: x\r\nContent-Length: 200000000\r\n\r\n")
        answer = b""
        while b"}" not in answer:  # no body byte sent: the answer comes anyway
            answer += sock.recv(65536)
        assert status_of(answer) == 413 and b"at most 8192 bytes" in answer
        sock.close()


def test_slow_and_silent_sockets_are_closed_in_time(tmp_path: Path) -> None:
    timeout = 2.0
    with Server(tmp_path / "db.sqlite", "--request-timeout", str(timeout)) as server:
        slow = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(10)]
        silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
        for i, s in enumerate(slow):  # slowloris: headers (or, for two, a body) a byte at a time, never done
            head = (
                b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"
                if i < 2
                else b"GET / HTTP/1.1\r\n"
            )
            s.sendall(head)
            s.setblocking(False)
        for s in silent:
            s.setblocking(False)
        start = time.monotonic()
        open_ = set(range(15))
        every = slow + silent
        while open_ and time.monotonic() - start < timeout + 3:
            for i in list(open_):
                s = every[i]
                try:
                    if s.recv(4096) == b"":
                        open_.discard(i)
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    open_.discard(i)
                    continue
                if i < 10:
                    try:
                        s.send(b"X" if i < 2 else b"X-a: b\r\n")
                    except OSError:
                        open_.discard(i)
            time.sleep(0.25)
        closed_after = time.monotonic() - start
        for s in every:
            s.close()
        assert not open_, f"{len(open_)} of 15 slow or silent sockets still open after {closed_after:.1f} s"
        assert closed_after < timeout + 3
        # a normal client on a kept-alive connection is unaffected
        with httpx.Client(timeout=5) as client:
            for _ in range(3):
                assert client.get(f"{server.http}/healthz").status_code == 200
                time.sleep(timeout / 2)


def test_limits_per_address_answer_429_and_close_1013(tmp_path: Path) -> None:
    args = ["--lookup-rate", "5", "--room-rate", "3", "--rooms-per-address", "2", "--join-rate", "4"]
    args += ["--connect-rate", "5", "--connections-per-address", "3"]
    with Server(tmp_path / "db.sqlite", *args) as server:

        def refused(r: httpx.Response, limit: str) -> None:
            assert r.status_code == 429, r.text
            assert r.json()["limit"] == limit and "your address" in r.json()["error"]
            assert int(r.headers["Retry-After"]) >= 1 and r.json()["retry_after"] >= 1

        for _ in range(5):
            assert httpx.get(f"{server.http}/api/rooms/ZZZZZZ").status_code == 404
        refused(httpx.get(f"{server.http}/api/rooms/ZZZZZZ"), "lookup-rate")

        rooms = [server.room() for _ in range(2)]
        refused(httpx.post(f"{server.http}/api/rooms", json={}), "rooms-per-address")
        refused(httpx.post(f"{server.http}/api/rooms", json={}), "room-rate")

        code = rooms[0]["room"]
        tokens = [server.post(f"/api/rooms/{code}/spectators")[1]["token"] for _ in range(4)]
        refused(httpx.post(f"{server.http}/api/rooms/{code}/spectators", json={}), "join-rate")

        async def go() -> None:
            peers = [await server.connect(code, t) for t in tokens[:3]]
            for p in peers:
                assert (await p.recv())["type"] == "hello"
            over = await server.connect(code, tokens[3])
            refusal = await over.recv()
            assert refusal["type"] == "error" and refusal["code"] == "limit"
            assert refusal["limit"] == "connections-per-address"
            assert await closed_with(over) == 1013
            await peers[0].close()
            await asyncio.sleep(0.2)
            again = await server.connect(code, tokens[0])  # the fifth connect of the minute
            assert (await again.recv())["type"] == "hello"
            await again.close()
            await asyncio.sleep(0.2)
            flood = await server.connect(code, tokens[0])
            assert (await flood.recv())["limit"] == "connect-rate"
            assert await closed_with(flood) == 1013
            for p in peers[1:]:
                await p.close()

        asyncio.run(go())
        assert "Traceback" not in server.log.read_text()


async def closed_with(peer: Peer, timeout: float = 5) -> int | None:
    try:
        while True:
            await peer.recv(timeout)
    except ConnectionClosed:
        pass
    return peer.ws.close_code


def test_the_default_limits_let_a_friends_game_be(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        for _ in range(3):  # three rooms, each looked up, joined by three and watched by ten
            room = server.room()
            code = room["room"]
            assert httpx.get(f"{server.http}/api/rooms/{code}").status_code == 200
            for name in ("b", "c", "d"):
                assert server.post(f"/api/rooms/{code}/seats", {"name": name})[0] == 201
            for _ in range(6):
                assert server.post(f"/api/rooms/{code}/spectators", {})[0] == 201


def test_room_codes_are_six_characters_of_the_alphabet(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        code = server.room()["room"]
        assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
        assert httpx.get(f"{server.http}/api/rooms/{code.lower()}").status_code == 200


def test_a_flood_of_spectator_tokens_does_not_lock_real_spectators_out(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--join-rate", "0") as server:
        code = server.room()["room"]
        with httpx.Client(timeout=10) as client:
            for _ in range(64):
                assert client.post(f"{server.http}/api/rooms/{code}/spectators", json={}).status_code == 201
        status, out = server.post(f"/api/rooms/{code}/spectators", {})
        assert status == 201, out

        async def go() -> None:
            peer = await server.connect(code, out["token"])
            assert (await peer.recv())["role"] == "spectator"
            await peer.close()

        asyncio.run(go())


def test_spectators_beyond_the_cap_take_the_place_of_idle_tokens_only() -> None:
    lobby = Lobby(Store(":memory:"), ServerOptions(), AddressLimits(spectators=2))
    room, _ = lobby.create({"hands": 1})
    first, second = lobby.spectate(room.code), lobby.spectate(room.code)
    lobby.watch(first, 1)
    third = lobby.spectate(room.code)  # the idle second one gives way
    assert lobby.ticket(room.code, second) is None and lobby.ticket(room.code, first) is not None
    assert second not in room.spectator_tokens and lobby.store.open_rooms()[0].spectators == [first, third]
    lobby.watch(third, 1)
    with pytest.raises(RequestError, match="2 spectators watching") as full:
        lobby.spectate(room.code)
    assert full.value.status == 409
    lobby.watch(first, -1)
    lobby.spectate(room.code)
    assert lobby.ticket(room.code, first) is None


def test_the_rooms_one_address_holds_open_are_capped_until_one_closes() -> None:
    lobby = Lobby(Store(":memory:"), ServerOptions(), AddressLimits(rooms_per_address=2))
    first, _ = lobby.create({}, owner="10.0.0.1")
    lobby.create({}, owner="10.0.0.1")
    with pytest.raises(LimitExceededError, match="2 open rooms") as over:
        lobby.create({}, owner="10.0.0.1")
    assert over.value.limit == "rooms-per-address"
    lobby.create({}, owner="10.0.0.2")  # another address is not counted with it
    first.close("expired")
    lobby.create({}, owner="10.0.0.1")


def test_the_buckets_stay_bounded_whatever_the_number_of_addresses() -> None:
    buckets = Buckets("lookup-rate", "room lookups", 1, size=100)
    for i in range(10_000):
        buckets.take(f"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}")
    assert len(buckets.buckets) == 100
    with pytest.raises(LimitExceededError) as over:
        buckets.take("10.0.39.15")  # the last address spent its one token
    assert over.value.limit == "lookup-rate" and over.value.retry_after >= 1


def ws_frame(payload: bytes, opcode: int = 1) -> bytes:
    mask = os.urandom(4)
    n = len(payload)
    size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack("!H", n)
    return bytes([0x80 | opcode]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_ws(port: int, path: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert sock.recv(4096).startswith(b"HTTP/1.1 101")
    return sock


def test_deep_json_bad_names_and_invalid_utf8_get_clear_errors_and_no_traceback(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--rate", "1000") as server:
        room = server.room()
        code = room["room"]
        deep = b"[" * 2000
        for path in ("/api/rooms", f"/api/rooms/{code}/spectators", f"/api/rooms/{code}/seats"):
            r = httpx.post(f"{server.http}{path}", content=deep, timeout=5)
            assert r.status_code == 400 and "nested deeper than 32 levels" in r.json()["error"], r.text
        for body, words in [
            (b'{"name": "\\ud800"}', '"name" holds a lone surrogate (U+D800)'),
            (b'{"name": "a\\u0007b"}', '"name" holds a control character (U+0007)'),
            (b'{"name": "\\u202eevil"}', '"name" holds a control character (U+202E)'),
            (b'{"options": {"\\udfff": 1}}', 'a key of "options" holds a lone surrogate'),
            (b'{"name": "ok", "bots": {"1": "\\ud83d"}}', '"bots.1" holds a lone surrogate'),
            (b'{"name": "\xff\xfe"}', "not JSON (UTF-8)"),
        ]:
            r = httpx.post(f"{server.http}/api/rooms", content=body, timeout=5)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        r = httpx.post(f"{server.http}/api/rooms/{code}/seats", content=b'{"name": "\\udc00"}', timeout=5)
        assert r.status_code == 400 and '"name" holds a lone surrogate' in r.json()["error"]

        async def go() -> None:
            peer = await server.connect(code, room["token"])
            assert (await peer.recv())["type"] == "hello"
            for _ in range(4):
                await peer.ws.send("[" * 1000)
                error = await peer.until("error")
                assert error["code"] == "malformed" and "nested deeper" in error["message"]
            await peer.ws.send("[" * 1000)  # the fifth strike closes
            assert await closed_with(peer) == 4400
            before_auth = await server.connect(code, None)
            await before_auth.ws.send("[" * 1000)
            assert await closed_with(before_auth) == 4401

        asyncio.run(go())
        for _ in range(3):  # invalid UTF-8 in a text frame before auth: closed with 1007, one line each
            sock = raw_ws(server.port, f"/ws/{code}")
            sock.sendall(ws_frame(b"\xff\xfe\x80"))
            closing = sock.recv(4096)
            assert closing[:1] == b"\x88" and struct.unpack("!H", closing[2:4])[0] == 1007
            sock.close()
        time.sleep(0.3)
        log = server.log.read_text()
        assert "Traceback" not in log and "RecursionError" not in log
        assert log.count("not UTF-8") == 3


def test_log_lines_are_limited_per_source_with_a_summary(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--log-rate", "1", "--connect-rate", "0") as server:
        for _ in range(30):
            sock = raw_ws(server.port, "/ws/ABCDEF")
            sock.sendall(ws_frame(b"\xc3\x28"))
            sock.recv(4096)
            sock.close()
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline and "dropped" not in server.log.read_text():
            time.sleep(0.2)
        log = server.log.read_text()
        lines = log.count("not UTF-8")
        assert 1 <= lines <= 20, log  # one a second, after a burst of one
        dropped = [int(n) for n in re.findall(r"(\d+) log line\(s\) from 127\.0\.0\.1 dropped", log)]
        assert dropped and lines + sum(dropped) == 30, log


def test_serve_refuses_negative_limits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--lookup-rate", "-1"]) == 2
    assert "--lookup-rate cannot be negative" in capsys.readouterr().err
    assert main(["serve", "--request-timeout", "0"]) == 2


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--lookup-rate", "2") as server:  # 127.0.0.1 is trusted by default

        def lookup(client: str) -> int:
            r = httpx.get(f"{server.http}/api/rooms/ZZZZZZ", headers={"X-Forwarded-For": client}, timeout=5)
            return r.status_code

        assert [lookup("203.0.113.5") for _ in range(3)] == [404, 404, 429]
        assert lookup("203.0.113.6") == 404
        assert [lookup("2001:db8:1:2::7"), lookup("2001:db8:1:2::8"), lookup("2001:db8:1:2::9")] == [404, 404, 429]


def test_the_log_filter_drops_counts_and_sums_up_per_source() -> None:
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    limit = SourceLogLimit(0.5)  # under one a second still lets the first line through
    handler.addFilter(limit)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        log = logging.getLogger("sichuan_mahjong.test")
        token = SOURCE.set("198.51.100.7")
        for i in range(5):
            log.warning("line %d", i)
        SOURCE.reset(token)
        log.warning("the server's own line")
        limit.flush()
    finally:
        root.removeHandler(handler)
    summary = "4 log line(s) from 198.51.100.7 dropped (more than 0.5 a second)"
    assert seen == ["line 0", "the server's own line", summary]
