"""Abuse and faults against a real ``scmj serve``: bad tokens, the authentication timeout, illegal, stale and
garbage messages, strikes, the rate limit, two rooms kept apart."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from webtable import Peer, Server, autoplay


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "db.sqlite", "--auth-timeout", "0.5") as srv:
        yield srv


async def closed_with(peer: Peer, timeout: float = 5) -> int | None:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            await peer.recv(timeout)
    except ConnectionClosed:
        pass
    assert peer.ws.close_code is not None
    return peer.ws.close_code


def test_bad_tokens_and_the_authentication_timeout(server: Server) -> None:
    room = server.room(bots={"1": "expert", "2": "expert", "3": "expert"})
    other = server.room(bots={"1": "expert", "2": "expert", "3": "expert"})

    async def go() -> None:
        for code, token in [(room["room"], "nope"), (room["room"], other["token"]), ("ZZZZ", room["token"])]:
            peer = await server.connect(code, token)
            assert await closed_with(peer) == 4401
            assert peer.seen[0]["code"] == "auth"
        silent = await server.connect(room["room"], None)
        assert await closed_with(silent) == 4401  # said nothing within --auth-timeout
        late = await server.connect(room["room"], None)
        await late.send(type="auth", token=room["token"])
        assert (await late.recv())["type"] == "hello"
        await late.close()

    asyncio.run(go())


def test_illegal_stale_and_garbage_change_nothing_then_strikes_close(server: Server) -> None:
    room = server.room(bots={"1": "expert", "2": "expert", "3": "expert"})

    async def go() -> None:
        peer = await server.connect(room["room"], room["token"])
        view = await peer.until(lambda m: m["type"] == "view" and bool(m["legal"]))
        seq = view["seq"]
        await peer.send(type="act", action="pung", seq=seq)
        illegal = await peer.until("error")
        assert illegal["code"] == "illegal" and illegal["words"]["zh"] and illegal["words"]["en"]
        await peer.send(type="act", action=view["legal"][0], seq=seq - 1)
        stale = await peer.until("error")
        assert stale["code"] == "stale" and stale["seq"] == seq
        await peer.send(type="act", action="chow 5p", seq=seq)  # no such action: a message error, no strike
        assert (await peer.until("error"))["code"] == "malformed"
        garbage: list[str | bytes] = [
            "not json",
            json.dumps({"type": "act", "action": "pass", "seq": "x"}),
            b"\x00\x01",
            json.dumps({"type": "act", "action": "x" * 3000, "seq": seq}),
        ]
        for frame in garbage:
            await peer.ws.send(frame)
            assert (await peer.until("error"))["code"] in ("malformed", "too_big")
        await peer.send(type="ping")
        await peer.until("pong")
        assert not [m for m in peer.seen if m["type"] == "view" and m["seq"] != seq][1:], "the game moved"
        await peer.send(type="act", action=view["legal"][0], seq=seq)
        moved = await peer.until(lambda m: m["type"] in ("view", "answered"))
        assert moved["seq"] > seq or moved["type"] == "answered"
        await peer.ws.send("{")  # the fifth strike
        assert await closed_with(peer) == 4400
        assert any(m.get("code") == "strikes" for m in peer.seen)

    asyncio.run(go())


def test_the_rate_limit_refuses_a_flood(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--rate", "2") as srv:  # the later --rate wins over the helper's
        room = srv.room()

        async def go() -> None:
            peer = await srv.connect(room["room"], room["token"])
            await peer.until("room")
            for _ in range(12):
                await peer.send(type="ping")
            assert await closed_with(peer) == 4400
            assert sum(m["type"] == "pong" for m in peer.seen) <= 5  # a burst of 4, then 2 a second
            assert any(m.get("code") == "rate" for m in peer.seen)

        asyncio.run(go())


def test_two_rooms_play_apart(server: Server) -> None:
    rooms = [server.room(hands=1, bots={"1": "efficient", "2": "random", "3": "expert"}) for _ in range(2)]

    async def go() -> None:
        peers = [await server.connect(r["room"], r["token"]) for r in rooms]
        results = await asyncio.gather(*(autoplay(p, random.Random(i)) for i, p in enumerate(peers)))
        for r, p, over in zip(rooms, peers, results, strict=True):
            assert over["room"]["code"] == r["room"]
            codes = {m["room"]["code"] if isinstance(m.get("room"), dict) else m.get("room") for m in p.seen}
            assert codes - {None} == {r["room"]}
            await p.close()

    asyncio.run(go())
