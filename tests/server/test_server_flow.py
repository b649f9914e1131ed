"""A room's pace and small talk, in-process: quick phrases (a fixed list, paced, never from spectators), the
turn timer seen by every seat and spectator and its second strike (托管 until the person taps again), and the
结算 a seat missed while the bot finished the hand for it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.phrases import PHRASES, Phrases
from sichuan_mahjong.server.room import Room, RoomSettings, ServerOptions
from sichuan_mahjong.server.store import SeatRow, Store
from sichuan_mahjong.server.wire import ClientMessage, WireError, parse_client
from webtable import Inbox, until

BOTS = {"1": "expert", "2": "efficient", "3": "random"}


def test_a_phrase_reaches_every_connection_paced_and_never_from_a_spectator() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(hold=60, bot_delay=0.5, pause=0))
        room, _ = lobby.create({"hands": 1, "bots": {"2": "expert", "3": "expert"}})
        now = [100.0]
        room.phrases = Phrases(clock=lambda: now[0])
        host, friend, watcher = Inbox(), Inbox(), Inbox()
        friend_row = lobby.join(room.code, {"name": "小红"})
        c_host = room.attach(host, 0)
        c_friend = room.attach(friend, friend_row.seat)
        c_watch = room.attach(watcher, None)
        for inbox in (host, friend, watcher):
            inbox.unread()
        room.handle(c_host, ClientMessage("say", phrase="hurry"))
        said = {"type": "said", "seat": 0, "phrase": "hurry"}
        assert said in host.unread() and said in friend.unread() and said in watcher.unread()
        # a second phrase within 2 s is refused to the sender alone
        now[0] += 1.5
        room.handle(c_host, ClientMessage("say", phrase="thanks"))
        refused = host.unread()
        assert [m["code"] for m in refused if m["type"] == "error"] == ["too_soon"]
        assert not any(m["type"] == "said" for m in friend.unread() + watcher.unread())
        # another seat is not held back by it, and after 2 s the host may speak again
        room.handle(c_friend, ClientMessage("say", phrase="sorry"))
        assert {"type": "said", "seat": 1, "phrase": "sorry"} in watcher.unread()
        now[0] += 0.6
        room.handle(c_host, ClientMessage("say", phrase="thumbs"))
        assert {"type": "said", "seat": 0, "phrase": "thumbs"} in friend.unread()
        host.unread()
        # a spectator says nothing
        room.handle(c_watch, ClientMessage("say", phrase="hurry"))
        assert [m["code"] for m in watcher.unread() if m["type"] == "error"] == ["spectator"]
        assert not any(m["type"] == "said" for m in host.unread() + friend.unread())
        room.close("test")

    asyncio.run(go())


def test_a_phrase_is_an_id_from_the_list_never_free_text() -> None:
    assert parse_client('{"type": "say", "phrase": "hurry"}') == ClientMessage("say", phrase="hurry")
    assert set(PHRASES) >= {"hurry", "sorry", "thumbs"}
    for bad in ('{"type": "say", "phrase": "你好 everyone"}', '{"type": "say"}', '{"type": "say", "phrase": 3}'):
        with pytest.raises(WireError, match="'say' needs \"phrase\""):
            parse_client(bad)


def timer_room(store: Store, timer: float) -> Room:
    settings = RoomSettings("app", Rules.preset("app"), 1, seed=4, timer=timer)
    room = Room("TIME", settings, store, ServerOptions(hold=60, bot_delay=0, pause=0))
    store.add_room(room.code, room.settings.to_json(), [])
    room.place(SeatRow(0, "slow", "t0", None))
    for s, tier in BOTS.items():
        room.place(SeatRow(int(s), tier, None, tier))
    return room


def players(m: dict[str, Any]) -> list[dict[str, Any]] | None:
    room = m.get("room")
    return room["players"] if isinstance(room, dict) else None


def test_two_timeouts_in_a_row_put_the_seat_in_tuoguan_until_it_taps() -> None:
    async def go() -> None:
        store = Store(":memory:")
        room = timer_room(store, 0.05)
        me, watcher = Inbox(), Inbox()
        conn = room.attach(me, 0)  # never answers
        room.attach(watcher, None)
        room.start()
        await until(lambda: room.seats[0] is not None and room.seats[0].auto)
        asked = 0
        benched: dict[str, Any] | None = None
        for m in me.seen:
            if m["type"] == "view" and m["legal"]:
                asked += 1
            p = players(m)
            if p and p[0]["timed_out"]:
                benched = p[0]
                break
        assert asked == 2, f"托管 after {asked} timeouts"
        assert benched is not None and benched["auto"] is True
        # everyone sees the countdown: the spectator's views carry the deadline too
        assert any(m["type"] == "view" and isinstance(m["room"]["deadline_ms"], int) for m in watcher.seen)
        seen_by_watcher = [p[0]["timed_out"] for m in watcher.seen if (p := players(m))]
        assert any(seen_by_watcher)
        # the person taps 取消托管: the seat is his again, and the flag goes
        me.unread()
        room.handle(conn, ClientMessage("auto", on=False))
        await asyncio.sleep(room.options.room_interval + 0.05)  # room messages are coalesced
        back = [p[0] for m in me.unread() if (p := players(m))]  # (the timer may bench it again meanwhile)
        assert back and back[0]["auto"] is False and back[0]["timed_out"] is False
        room.close("test")

    asyncio.run(go())


def test_a_seat_that_answers_in_time_is_never_benched() -> None:
    async def go() -> None:
        store = Store(":memory:")
        room = timer_room(store, 0.05)
        me = Inbox()
        conn = room.attach(me, 0)
        room.start()
        # the first decision times out, the second is answered: the count starts again
        await until(lambda: room.strikes.count.get(0) == 1)
        await until(lambda: 0 in room.pending and 0 not in room.answers)
        legal = room.pending[0]
        room.handle(conn, ClientMessage("act", action=str(legal[-1]), seq=room.seq))
        assert room.strikes.count[0] == 0
        room.close("test")

    asyncio.run(go())


def test_a_seat_back_after_the_bot_finished_its_hand_gets_that_settlement() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(hold=0.01, bot_delay=0, pause=0))
        room, _ = lobby.create({"hands": 2, "bots": {"2": "expert", "3": "efficient"}})
        friend = lobby.join(room.code, {"name": "friend"})
        room.handle(room.attach(Inbox(), friend.seat), ClientMessage("auto", on=True))  # a person stays, on 托管
        first = Inbox()
        conn = room.attach(first, 0)
        room.detach(conn)  # the phone drops; after the hold the stand-in bot plays the seat
        await until(lambda: room.match is not None and room.match.hand_index == 1)
        assert room.game is not None and not room.game.is_over
        again = Inbox()
        room.attach(again, 0)
        missed = [m for m in again.seen if m["type"] == "hand_over"]
        assert len(missed) == 1, [m["type"] for m in again.seen]
        over = missed[0]
        assert over["hand_no"] == 1 and over["missed"] is True
        assert [m["type"] for m in again.seen].index("view") < [m["type"] for m in again.seen].index("hand_over")
        result = over["result"]
        assert sum(result["deltas"]) == 0
        for win in result["wins"]:  # a winner is no longer playing at the end (no 有叫/无叫 for it)
            assert result["active"][win["seat"]] is False
        # once: a reconnect later in the hand does not show it again
        room.detach(room.seats[0].conn)  # type: ignore[union-attr,arg-type]
        third = Inbox()
        room.attach(third, 0)
        assert not any(m["type"] == "hand_over" for m in third.seen)
        room.close("test")

    asyncio.run(go())


def test_a_seat_connected_at_the_end_is_not_shown_the_settlement_twice() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(hold=60, bot_delay=0, pause=0))
        room, _ = lobby.create({"hands": 2, "bots": BOTS})
        me = Inbox()
        conn = room.attach(me, 0)
        room.handle(conn, ClientMessage("auto", on=True))  # the bot plays, the person watches
        await until(lambda: room.match is not None and room.match.hand_index == 1)
        room.detach(conn)
        again = Inbox()
        room.attach(again, 0)
        assert sum(m["type"] == "hand_over" for m in me.seen) == 1
        assert not any(m["type"] == "hand_over" for m in again.seen)
        room.close("test")

    asyncio.run(go())
