"""Rooms in-process: an exception closes only its room, the turn timer's defaults, a restore with answers
still waiting for others, and the HTTP API's refusals."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sichuan_mahjong.cli import main
from sichuan_mahjong.game import Game
from sichuan_mahjong.game.view import filter_event
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.app import create_app
from sichuan_mahjong.server.lobby import Lobby, Ticket
from sichuan_mahjong.server.room import Room, RoomSettings, ServerOptions
from sichuan_mahjong.server.store import SeatRow, Store
from sichuan_mahjong.server.wire import ClientMessage, event_json
from webtable import Inbox, pick

OPTIONS = ServerOptions(hold=60, bot_delay=0, pause=0, room_interval=0)
BOTS = {"1": "expert", "2": "efficient", "3": "random"}


def answer(room: Room, inbox: Inbox, conn: object, rng: random.Random) -> None:
    for m in inbox.unread():
        if m["type"] == "view" and m["legal"]:
            room.handle(conn, ClientMessage("act", action=pick(m["legal"], rng), seq=m["seq"]))  # type: ignore[arg-type]


def test_an_exception_in_one_room_closes_it_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    async def go() -> None:
        store = Store(":memory:")
        lobby = Lobby(store, OPTIONS)
        rooms, inboxes, conns = [], [], []
        for _ in range(2):
            room, _ = lobby.create({"hands": 1, "bots": BOTS})
            inbox = Inbox()
            rooms.append(room)
            inboxes.append(inbox)
            conns.append(room.attach(inbox, 0))
        bad, good = rooms
        game = bad.game
        assert game is not None
        steps = 0
        real_step = Game.step

        def broken(self: Game, answers: object) -> None:
            nonlocal steps
            steps += 1
            if self is game and steps > 5:
                raise RuntimeError("boom")
            real_step(self, answers)  # type: ignore[arg-type]

        monkeypatch.setattr(Game, "step", broken)
        rng = random.Random(0)
        for _ in range(5000):
            if good.match is not None and good.match.is_over:
                break
            for room, inbox, conn in zip(rooms, inboxes, conns, strict=True):
                if room.closed is None:
                    answer(room, inbox, conn, rng)
            await asyncio.sleep(0.001)  # bots think on worker threads: give them time
        assert good.match is not None and good.match.is_over and good.closed is None
        assert bad.closed is not None and bad.closed.startswith("failed")
        assert inboxes[0].closed == 1011 and inboxes[0].seen[-1]["code"] == "room_failed"
        assert inboxes[1].closed is None
        assert bad.code not in lobby.rooms and good.code in lobby.rooms
        assert [r.code for r in store.open_rooms()] == [good.code]  # a failed room is not restored

    asyncio.run(go())


def test_the_turn_timer_passes_or_discards_the_drawn_tile() -> None:
    async def go() -> None:
        store = Store(":memory:")
        room = Room("TIME", RoomSettings("seed", Rules.preset("seed"), 1, seed=4, timer=0.02), store, OPTIONS)
        store.add_room(room.code, room.settings.to_json(), [])
        room.place(SeatRow(0, "slow", "t0", None))
        for s, tier in BOTS.items():
            room.place(SeatRow(int(s), tier, None, tier))
        inbox = Inbox()
        room.attach(inbox, 0)  # never answers
        room.start()
        for _ in range(400):
            if room.match is not None and room.match.is_over:
                break
            await asyncio.sleep(0.02)
        assert room.match is not None and room.match.is_over
        game = room.match.games[0]
        mine = [str(e.data["action"]) for e in game.events if e.type == "act" and e.seat == 0]
        # the timer answers twice; then the seat is in 托管 and the stand-in bot plays it (test_server_flow.py)
        assert len(mine) >= 2 and all(a == "pass" or a.startswith("discard ") for a in mine[:2])
        views = [m for m in inbox.seen if m["type"] == "view" and m["legal"]]
        assert all(isinstance(v["room"]["deadline_ms"], int) for v in views)

    asyncio.run(go())


def test_a_restore_keeps_answers_that_wait_for_others() -> None:
    async def go() -> None:
        store = Store(":memory:")
        lobby = Lobby(store, OPTIONS)
        room, host = lobby.create({"hands": 1, "preset": "app"})
        seats = [lobby.join(room.code, {"name": f"p{s}"}) for s in (1, 2, 3)]
        inboxes = [Inbox() for _ in range(4)]
        conns = [room.attach(inbox, s) for s, inbox in enumerate(inboxes)]
        assert room.game is not None and room.game.phase == "exchange" and len(room.pending) == 4
        for s in (0, 2):
            legal = room.pending[s]
            room.handle(conns[s], ClientMessage("act", action=str(legal[0]), seq=room.view_seq(s)))
        assert sorted(room.answers) == [0, 2]
        again = Lobby(store, OPTIONS)
        assert again.restore() == 1
        copy = again.rooms[room.code]
        assert copy.seq == room.seq and copy.answers == room.answers and copy.pending == room.pending
        assert copy.game is not None and copy.game.events == room.game.events
        assert again.ticket(room.code.lower(), str(host.token)) == Ticket(room.code, 0)
        assert [again.ticket(room.code, str(s.token)) for s in seats] == [Ticket(room.code, s) for s in (1, 2, 3)]
        assert again.ticket(room.code, "nope") is None

    asyncio.run(go())


def test_auto_hands_the_seat_to_the_bot_and_back() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 1, "bots": BOTS})
        inbox = Inbox()
        conn = room.attach(inbox, 0)
        await asyncio.sleep(0.01)
        assert room.pending and 0 in room.pending  # 换三张: everyone is asked, the bots have answered
        seq = room.seq
        room.handle(conn, ClientMessage("auto", on=True))
        for _ in range(100):
            if room.seq > seq + 3:
                break
            await asyncio.sleep(0.01)
        assert room.seq > seq + 3  # the stand-in plays seat 0
        assert any(m["type"] == "room" and m["room"]["players"][0]["auto"] for m in inbox.seen)
        room.handle(conn, ClientMessage("auto", on=False))
        assert not room.seats[0].auto  # type: ignore[union-attr]
        for _ in range(200):  # the bots play on until seat 0 is asked again
            if 0 in room.pending and 0 not in room.answers:
                break
            await asyncio.sleep(0.01)
        seq = room.seq
        await asyncio.sleep(0.1)
        assert room.seq == seq and 0 not in room.answers  # and then the game waits for the person

    asyncio.run(go())


def test_idle_rooms_expire() -> None:
    store = Store(":memory:")
    lobby = Lobby(store, ServerOptions(idle=60, unused=60))
    room, host = lobby.create({"hands": 1})
    assert lobby.sweep() == 0
    room.last_active -= 61
    assert lobby.sweep() == 1
    assert room.closed == "expired" and room.code not in lobby.rooms
    assert lobby.ticket(room.code, str(host.token)) is None
    assert store.open_rooms() == []


def test_the_http_api_refuses_bad_requests_with_the_reason(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "db.sqlite", OPTIONS)) as client:
        cases = [
            ({"preset": "nope"}, '"preset" must be one of'),
            ({"options": {"bogus": 1}}, "unknown option 'bogus'"),
            ({"options": {"max_fan": "lots"}}, "max_fan"),
            ({"options": {"mode": "chess"}}, "mode"),
            ({"options": []}, '"options" must be an object'),
            ({"hands": 0}, '"hands" must be an integer 1..64'),
            ({"hands": True}, '"hands"'),
            ({"bots": {"0": "expert"}}, "host sits at seat 0"),
            ({"bots": {"1": "godlike"}}, "unknown tier 'godlike'"),
            ({"name": ""}, '"name" must be a non-empty string'),
            ({"name": "x" * 40}, "at most 24 characters"),
            ({"timer": 1}, '"timer"'),
        ]
        for body, words in cases:
            r = client.post("/api/rooms", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.json())
        r = client.post("/api/rooms", content=b"{not json")
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        assert client.post("/api/rooms/ZZZZ/seats", json={"name": "a"}).status_code == 404
        assert client.get("/api/rooms/ZZZZ").status_code == 404
        full = client.post("/api/rooms", json={"bots": {"1": "random", "2": "random", "3": "random"}}).json()
        assert client.post(f"/api/rooms/{full['room']}/seats", json={"name": "late"}).status_code == 409
        open_room = client.post("/api/rooms", json={"options": {"max_fan": 3, "extra_fans": ["menqing"]}}).json()
        r = client.post(f"/api/rooms/{open_room['room'].lower()}/seats", json={"name": "  小  李 "})
        assert r.status_code == 201 and r.json()["seat"] == 1
        info = client.get(f"/api/rooms/{open_room['room']}").json()["room"]
        assert info["players"][1]["name"] == "小 李" and info["players"][2] is None and not info["started"]
        health = client.get("/healthz").json()
        assert health["ok"] is True and health["rooms"] == 2 and health["handle"] == {"n": 0}
        assert health["gc"] == {
            "every_s": 0.0,
            "runs": 0,
            "last_ms": 0.0,
            "max_ms": 0.0,
            "found": 0,
            "young_every_s": 0.0,
            "young_runs": 0,
            "young_max_ms": 0.0,
        }
        assert client.get("/").status_code == 200
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/ws/{open_room['room']}?token=x") as ws,
        ):
            ws.receive_json()
            ws.receive_json()
        assert closed.value.code == 4401


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--hold", "-1"]) == 2
    assert "--hold cannot be negative" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be 1..65535" in capsys.readouterr().err
    assert main(["serve", "--full-gc", "-5"]) == 2
    assert "--full-gc cannot be negative, got -5" in capsys.readouterr().err
    assert main(["serve", "--bot-workers", "0"]) == 2
    assert "--bot-workers must be at least 1, got 0" in capsys.readouterr().err
    assert main(["serve", "--outbox", "0"]) == 2
    assert "--outbox must be at least 1, got 0" in capsys.readouterr().err
    assert main(["serve", "--review-queue", "0"]) == 2
    assert "--review-queue must be at least 1, got 0" in capsys.readouterr().err
    assert main(["serve", "--room-interval", "-1"]) == 2
    assert "--room-interval cannot be negative" in capsys.readouterr().err


def deal_ready(monkeypatch: pytest.MonkeyPatch, ready: int) -> None:
    """Every hand of the match dealt alike, the dealer seat 2 and seat ``ready`` ready at the deal (waiting on 4p):
    without exchange and 定缺 it is asked 报叫 before anyone plays."""
    hands = ["13579m13579p135s", "13579m2468p2468s", "2233m467p1234567s", "2468m1357p13579s"]
    hands[ready] = "123456789m1234p"

    def scripted(rules: Rules, seed: int, *, dealer: int | None = None, base: int = 1) -> Game:
        return Game.setup(rules, hands, dealer=2, seed=seed, base=base)

    monkeypatch.setattr("sichuan_mahjong.match.Game", scripted)


@pytest.mark.parametrize("ready", [0, 1], ids=["host-decides", "friend-decides"])
def test_a_baojiao_at_the_deal_still_tells_everyone_the_match_began(
    monkeypatch: pytest.MonkeyPatch, ready: int
) -> None:
    # Without exchange and 定缺, a non-dealer whose dealt hand is ready is asked 报叫 before anyone plays; the
    # seats not asked are shown nothing meanwhile (docs/protocol.md). The host waits in the room, the friend
    # joins by code and the match starts: whichever of them is not asked must still hear that it began (a
    # `room` message), or the page stays in the waiting room showing seats that may look free.
    deal_ready(monkeypatch, ready)

    def told(inbox: Inbox) -> bool:
        """The match began, by a view or else by the room's own message."""
        return any(m["type"] == "view" or (m["type"] == "room" and m["room"]["started"]) for m in inbox.seen)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 1, "preset": "bloody", "bots": {"2": "efficient", "3": "efficient"}})
        inboxes = {0: Inbox(), 1: Inbox()}
        conns = {0: room.attach(inboxes[0], 0)}
        lobby.join(room.code, {"name": "friend"})  # the room fills and the match starts
        assert told(inboxes[0]), [m["type"] for m in inboxes[0].seen]  # the host, before the friend connects
        conns[1] = room.attach(inboxes[1], 1)
        assert told(inboxes[1]), [m["type"] for m in inboxes[1].seen]  # the friend, as it connects
        game = room.game
        assert game is not None and game.phase == "declare" and list(room.pending) == [ready]
        waiting = 1 - ready
        assert not any(m["type"] == "view" for m in inboxes[waiting].seen)  # the pause itself stays hidden
        last = [m for m in inboxes[waiting].seen if m["type"] == "room"][-1]["room"]
        assert last["started"] and all(p is not None for p in last["players"])
        asked = [m for m in inboxes[ready].seen if m["type"] == "view"]
        assert asked and asked[-1]["legal"] == ["declare_ready", "pass"]
        inboxes[waiting].unread()
        room.handle(conns[ready], ClientMessage("act", action="pass", seq=room.view_seq(ready)))
        assert any(m["type"] == "view" for m in inboxes[waiting].unread())  # the table, once it is answered

    asyncio.run(go())


def test_a_reconnect_during_a_baojiao_at_a_later_deal_is_shown_that_hand_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every hand is dealt alike: the host is asked 报叫 before anyone plays. At the second hand's deal the friend
    # reconnects while the host decides. The friend was shown nothing of this hand yet: the room says the match
    # goes on (not the first hand's last view), and the first view after the 报叫 carries this hand's events from
    # its start (not cut by the first hand's count).
    deal_ready(monkeypatch, 0)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 2, "preset": "bloody", "bots": {"2": "efficient", "3": "efficient"}})
        inboxes = [Inbox(), Inbox()]
        conns = [room.attach(inboxes[0], 0)]
        lobby.join(room.code, {"name": "friend"})
        conns.append(room.attach(inboxes[1], 1))
        rng = random.Random(3)
        for _ in range(20_000):
            await asyncio.sleep(0.001)
            assert room.match is not None
            if room.match.hand_index == 1:
                break
            for inbox, conn in zip(inboxes, conns, strict=True):
                answer(room, inbox, conn, rng)
        game = room.game
        assert room.match is not None and room.match.hand_index == 1 and game is not None
        assert game.phase == "declare" and list(room.pending) == [0]
        again = Inbox()
        room.attach(again, 1)
        assert [m["type"] for m in again.seen] == ["hello", "room"] and again.seen[-1]["room"]["started"]
        again.unread()
        room.handle(conns[0], ClientMessage("act", action="pass", seq=room.view_seq(0)))
        views = [m for m in again.unread() if m["type"] == "view"]
        assert views, [m["type"] for m in again.seen]
        seat = room.seats[1]
        assert seat is not None and seat.shown is not None
        filtered = (filter_event(e, 1) for e in game.events[: seat.shown.upto])
        assert views[0]["events"] == [event_json(e) for e in filtered if e is not None]

    asyncio.run(go())
