"""A room under abuse, in-process (issue 37): bots pause without people and rooms expire on people's clock, an
advisor that raises never closes a room, connects and disconnects are coalesced, a seat's ``seq`` says nothing of
other seats' claims, and an answer that waits for others is acknowledged with ``answered``."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from sichuan_mahjong.agents.efficient import EfficientAgent
from sichuan_mahjong.game import Game, Observation
from sichuan_mahjong.server import room as room_module
from sichuan_mahjong.server.botpool import BotPool
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.room import PAUSE_PHASES, Room, ServerOptions
from sichuan_mahjong.server.store import Store
from sichuan_mahjong.server.wire import ClientMessage
from sichuan_mahjong.tiles import TooManyCopiesError
from webtable import Inbox, Server, answer_unread, pick, until

OPTIONS = ServerOptions(hold=60, bot_delay=0, pause=0, room_interval=0.05)
BOTS = {"1": "expert", "2": "expert", "3": "expert"}


def test_bots_pause_while_no_person_is_connected() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(hold=0.02, bot_delay=0, pause=0))
        room, _ = lobby.create({"hands": 64, "bots": BOTS})  # the host never connects: four bots, in effect
        await asyncio.sleep(0.3)
        assert room.seats[0] is not None and room.seats[0].away  # the hold ran out
        assert room.game is not None and room.game.phase == "exchange", "the bots played with nobody there"
        inbox = Inbox()
        conn = room.attach(inbox, 0)  # a person is here: the bots play (the stand-in too, on 托管)
        room.handle(conn, ClientMessage("auto", on=True))
        seq = room.seq
        await until(lambda: room.seq > seq + 5)
        room.detach(conn)  # the person leaves: within one bot's answer, everything stops
        await asyncio.sleep(0.05)
        seq = room.seq
        await asyncio.sleep(0.3)
        assert room.seq == seq, "a room without people played on"
        spectator = Inbox()
        room.attach(spectator, None)  # a spectator alone does not wake the bots
        await asyncio.sleep(0.2)
        assert room.seq == seq

    asyncio.run(go())


def test_rooms_expire_on_the_clock_of_people_not_bots_or_spectators() -> None:
    async def go() -> None:
        store = Store(":memory:")
        lobby = Lobby(store, ServerOptions(hold=60, bot_delay=0, pause=0, idle=60, unused=30))
        never, _ = lobby.create({"hands": 1, "bots": BOTS})  # nobody ever connects
        watched, _ = lobby.create({"hands": 1, "bots": BOTS})
        left, _ = lobby.create({"hands": 1, "bots": BOTS})
        room_conn = left.attach(Inbox(), 0)
        watched.attach(Inbox(), None)  # a spectator: not a person of the room
        watched.attach(Inbox(), None)
        assert lobby.sweep() == 0
        for room in (never, watched, left):
            room.last_active -= 31
        assert lobby.sweep() == 2  # never used (30 s) and watched only by spectators (never used either)
        assert never.closed == "expired" and watched.closed == "expired" and left.closed is None
        left.detach(room_conn)
        left.last_active -= 59
        assert lobby.sweep() == 0
        left.last_active -= 2
        assert lobby.sweep() == 1 and left.closed == "expired"
        assert store.open_rooms() == []

    asyncio.run(go())


@pytest.mark.parametrize("error", [TooManyCopiesError("5 copies of 3m"), RuntimeError("boom")])
def test_an_advisor_that_raises_never_closes_the_room(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: Exception
) -> None:
    def broken(view: Observation, **_: object) -> None:
        raise error

    monkeypatch.setattr(room_module, "advise_view", broken)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 1, "bots": BOTS})
        inbox = Inbox()
        conn = room.attach(inbox, 0)
        spectator = Inbox()
        room.attach(spectator, None)
        rng = random.Random(3)
        asked = 0
        while room.match is not None and not room.match.is_over:
            for m in inbox.unread():
                if m["type"] == "view" and m["legal"]:
                    room.handle(conn, ClientMessage("advise", seq=m["seq"]))
                    asked += 1
                    room.handle(conn, ClientMessage("act", action=pick(m["legal"], rng), seq=m["seq"]))
            assert room.closed is None
            await asyncio.sleep(0.002)
        assert asked > 3 and room.closed is None and inbox.closed is None
        errors = [m for m in inbox.seen if m["type"] == "error"]
        assert len(errors) == asked and {m["code"] for m in errors} == {"advice_failed"}
        assert any(m["type"] == "match_over" for m in spectator.seen)  # the others played on
        lines = [r for r in caplog.records if "advice" in r.getMessage()]
        assert len(lines) == asked and all(r.exc_info is None for r in lines)

    asyncio.run(go())


def test_connects_and_disconnects_are_coalesced() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(hold=60, bot_delay=5, pause=0, room_interval=0.1))
        room, _ = lobby.create({"hands": 1, "bots": BOTS})
        token = room.add_spectator()
        assert token
        player = Inbox()
        room.attach(player, 0)
        await asyncio.sleep(0.15)
        player.unread()
        start = time.monotonic()
        cycles = 0
        while time.monotonic() - start < 0.5:  # a reconnect loop on a spectator token
            for _ in range(50):
                room.detach(room.attach(Inbox(), None))
                cycles += 1
            await asyncio.sleep(0)
        room.attach(Inbox(), None)  # and one stays
        await asyncio.sleep(0.15)
        rooms = [m for m in player.unread() if m["type"] == "room"]
        assert cycles > 500
        assert 1 <= len(rooms) <= 0.5 / 0.1 + 3, f"{len(rooms)} room messages for {cycles} reconnects"
        assert rooms[-1]["room"]["spectators"] == 1  # the room as it is now

    asyncio.run(go())


def seqs(inbox: Inbox) -> list[int]:
    return [m["seq"] for m in inbox.seen if m["type"] == "view"]


def test_a_seats_seq_and_the_public_one_say_nothing_of_others_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    others_asked = 0
    remember = Room._remember

    def counting(self: Room) -> None:
        nonlocal others_asked
        remember(self)
        game = self.game
        if game is not None and game.phase in PAUSE_PHASES and 0 not in self.pending:
            others_asked += 1

    monkeypatch.setattr(Room, "_remember", counting)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 3, "bots": BOTS, "preset": "seed"})
        player, spectator = Inbox(), Inbox()
        conn = room.attach(player, 0)
        room.attach(spectator, None)
        rng = random.Random(5)
        while room.match is not None and not room.match.is_over:
            answer_unread(room, player, conn, rng)
            await asyncio.sleep(0.002)
        assert others_asked > 3, "no claim by another seat to hide"
        for inbox in (player, spectator):
            got = seqs(inbox)
            assert got == list(range(got[0], got[0] + len(got))), "gaps in seq"
            rooms = [m["room"]["seq"] for m in inbox.seen if isinstance(m.get("room"), dict)]
            assert all(b - a in (0, 1) for a, b in itertools.pairwise(rooms)), "gaps in the room's seq"
        assert room.room_json()["seq"] == seqs(spectator)[-1]  # GET /api/rooms/{code}: the public count

    asyncio.run(go())


def test_an_answer_that_waits_for_others_is_acknowledged() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 1})
        for s in (1, 2, 3):
            lobby.join(room.code, {"name": f"p{s}"})
        inboxes = [Inbox() for _ in range(4)]
        conns = [room.attach(inbox, s) for s, inbox in enumerate(inboxes)]
        view = [m for m in inboxes[0].seen if m["type"] == "view"][-1]
        assert view["legal"] and view["view"]["phase"] == "exchange"  # all four are asked
        room.handle(conns[0], ClientMessage("act", action=view["legal"][0], seq=view["seq"]))
        assert inboxes[0].seen[-1] == {"type": "answered", "seq": view["seq"], "action": view["legal"][0]}

    asyncio.run(go())


# ------------------------------------------------------------------------------------ through a real server


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def connected(server: Server, code: str, seat: int = 0) -> bool:
    room = httpx.get(f"{server.http}/api/rooms/{code}", timeout=10).json()["room"]
    return bool(room["players"][seat]["connected"])


async def never_reading(server: Server, code: str, token: str) -> ClientConnection:
    """A client that reads nothing: a small socket buffer, and the library buffers one message at most."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    sock.setblocking(False)
    return await connect(f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}", sock=sock, max_queue=1)


def test_a_client_that_never_reads_is_dropped_with_4408(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        room = server.room(hands=64, bots=BOTS)
        assert server.proc is not None
        before = rss_mb(server.proc.pid)

        async def go() -> None:
            ws = await never_reading(server, room["room"], room["token"])
            await ws.send(json.dumps({"type": "auto", "on": True}))  # the bots play every seat, views pile up
            start = time.monotonic()
            while connected(server, room["room"]):
                assert time.monotonic() - start < 25, "a client that reads nothing is still seated"
                await asyncio.sleep(0.2)
            assert server.proc is not None and rss_mb(server.proc.pid) < before + 100
            seen = 0
            with contextlib.suppress(ConnectionClosed):
                async for _ in ws:  # what it had not read, then the close
                    seen += 1
            assert ws.close_code == 4408, (ws.close_code, seen)

        asyncio.run(go())


def test_a_reconnect_loop_on_a_spectator_token_cannot_flood_a_slow_player(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        room = server.room(hands=1, bots=BOTS)
        code = room["room"]
        status, watch = server.post(f"/api/rooms/{code}/spectators")
        assert status == 201

        async def go() -> None:
            player = await server.connect(code, room["token"])
            await player.until(lambda m: m["type"] == "view" and bool(m["legal"]))  # then it reads nothing
            start, cycles = time.monotonic(), 0
            while time.monotonic() - start < 4:
                spectator = await server.connect(code, watch["token"])
                await spectator.ws.close()
                cycles += 1
            seconds = time.monotonic() - start
            await player.send(type="ping")
            await player.until("pong")
            rooms = [m for m in player.seen if m["type"] == "room"]
            assert cycles > 40
            assert len(rooms) <= seconds / 0.25 + 3, f"{len(rooms)} room messages for {cycles} reconnects"
            await player.close()

        asyncio.run(go())


def test_the_bot_pool_serves_rooms_in_turn_and_a_persons_table_first() -> None:
    game = Game(seed=2)
    s, legal = next(iter(game.to_act().items()))
    view = game.view(s)

    async def go() -> list[str]:
        pool = BotPool(ThreadPoolExecutor(1), workers=1)
        order: list[str] = []
        finished = asyncio.Event()

        def job(name: str, playing: bool) -> None:
            def done(answer: object) -> None:
                assert not isinstance(answer, BaseException)
                order.append(name)
                if len(order) == 6:
                    finished.set()

            pool.submit(name[0], 1, "random", 1, view, legal, lambda: name != "A4", done, playing=playing)

        for name in ("A1", "A2", "A3", "A4", "B1"):  # A1 starts at once; A4 is stale by its turn
            job(name, playing=False)
        job("P1", playing=True)
        job("C1", playing=False)
        assert pool.busy == 1 and pool.queued == 6
        await asyncio.wait_for(finished.wait(), 10)
        assert pool.dropped == 1 and pool.busy == 0 and pool.queued == 0
        return order

    assert asyncio.run(go()) == ["A1", "P1", "A2", "B1", "C1", "A3"]


def test_bot_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    server = Server(tmp_path / "db.sqlite").start()
    try:
        room = server.room(hands=1, bots=BOTS)
        assert server.proc is not None

        async def go() -> None:
            peer = await server.connect(room["room"], room["token"])
            await peer.until(lambda m: m["type"] == "view" and bool(m["legal"]))
            await peer.close()

        asyncio.run(go())  # the bots have thought: the worker is up
        pid = server.proc.pid
        family = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert family, "no bot worker process"
        server.kill()
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{p}").exists() and "zombie" not in status(p) for p in family):
            assert time.monotonic() < deadline, "a bot worker outlived the server"
            time.sleep(0.1)
    finally:
        server.stop()


def status(pid: str) -> str:
    try:
        return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State"))
    except (FileNotFoundError, StopIteration):
        return "zombie"


def test_a_bot_that_raises_plays_a_safe_answer_and_the_room_plays_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: object, view: Observation, legal: object) -> None:
        raise TooManyCopiesError("5 copies of 3m")

    monkeypatch.setattr(EfficientAgent, "act", broken)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 1, "bots": {"1": "efficient", "2": "expert", "3": "expert"}})
        inbox = Inbox()
        conn = room.attach(inbox, 0)
        rng = random.Random(4)
        deadline = time.monotonic() + 60
        while room.match is not None and not room.match.is_over and room.closed is None:
            assert time.monotonic() < deadline
            answer_unread(room, inbox, conn, rng)
            await asyncio.sleep(0.002)
        assert room.closed is None and inbox.closed is None
        assert any(m["type"] == "match_over" for m in inbox.seen)
        assert any("bot of seat 1 failed" in r.getMessage() for r in caplog.records)

    asyncio.run(go())
