"""Nothing is lost (issue 8, items 4 and 5) against a real ``scmj serve``: a reconnect in the middle of a claim,
the expert bot taking a gone seat after ``--hold`` and the person taking it back, and ``kill -9`` then a
restart on the same database with every token still valid and the room exactly where it was."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from webtable import Message, Peer, Server, autoplay, pick, players

BOTS = {"1": "expert", "2": "expert", "3": "expert"}


def hand_events(peer: Peer) -> list[dict[str, Any]]:
    """The events of the current hand this connection received, in order."""
    events: list[dict[str, Any]] = []
    for m in peer.seen:
        if m["type"] == "view":
            if m["events"] and m["events"][0]["type"] == "deal":
                events = []
            events.extend(m["events"])
    return events


async def play_until(peer: Peer, rng: random.Random, stop: Any, timeout: float = 30) -> Message | None:
    """Answer views until one passes ``stop`` (returned, unanswered) or the match ends (None)."""
    while True:
        m = await peer.recv(timeout)
        if m["type"] == "view" and m["legal"]:
            if stop(m):
                return m
            await peer.send(type="act", action=pick(m["legal"], rng), seq=m["seq"])
        elif m["type"] == "match_over":
            return None


def test_reconnect_in_the_middle_of_a_claim(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:

        async def go() -> None:
            rng = random.Random(5)
            for _ in range(6):  # a person is asked to claim within a hand or two
                room = server.room(hands=4, bots=BOTS)
                peer = await server.connect(room["room"], room["token"])
                claim = await play_until(peer, rng, lambda m: m["view"]["phase"] in ("claim", "rob"))
                if claim is None:
                    continue
                before = hand_events(peer)
                await peer.close()
                again = await server.connect(room["room"], room["token"])
                hello = await again.recv()
                assert hello["type"] == "hello" and hello["seat"] == 0
                view = await again.until("view")
                assert view["seq"] == claim["seq"] and view["legal"] == claim["legal"]
                assert view["view"] == claim["view"]
                assert view["events"] == before  # the whole hand so far, as received before
                assert await autoplay(again, rng, first=view)  # the claim is answered and the match plays to its end
                await again.close()
                return
            raise AssertionError("no claim came to the person in six matches")

        asyncio.run(go())


def test_takeover_after_the_hold_and_reclaim(tmp_path: Path) -> None:
    # The stand-in plays a seat whose person left while another person is at the table (a room with no person
    # connected pauses its bots instead: test_server_abuse_room.py); here the friend at seat 3 is on 托管.
    with Server(tmp_path / "db.sqlite", hold=0.3) as server:
        room = server.room(hands=1, bots={"1": "expert", "2": "expert"})
        code = room["room"]
        status, friend_seat = server.post(f"/api/rooms/{code}/seats", {"name": "friend"})
        assert status == 201
        status, watch = server.post(f"/api/rooms/{code}/spectators")
        assert status == 201

        async def go() -> None:
            spectator = await server.connect(code, watch["token"])
            friend = await server.connect(code, friend_seat["token"])
            await friend.send(type="auto", on=True)
            peer = await server.connect(code, room["token"])
            await peer.until(lambda m: m["type"] == "view" and bool(m["legal"]))
            await peer.close()  # gone while asked
            away = await spectator.until(lambda m: bool((players(m) or [{}])[0].get("away")))
            assert away["room"]["players"][0]["auto"] and not away["room"]["players"][0]["connected"]
            shown = max((m["seq"] for m in spectator.seen if m["type"] == "view"), default=0)  # its own count
            moved = await spectator.until(lambda m: m["type"] == "view" and m["seq"] > shown)
            assert moved["room"]["players"][0]["away"]  # the stand-in bot answered for seat 0
            back = await server.connect(code, room["token"])
            assert (await back.recv())["type"] == "hello"
            mine = await back.until(lambda m: m["type"] == "view")
            assert not mine["room"]["players"][0]["away"] and mine["room"]["players"][0]["connected"]
            over = await autoplay(back, random.Random(2), first=mine)
            assert sum(over["totals"]) == 0
            await back.close()
            await friend.close()
            await spectator.close()

        asyncio.run(go())


def test_kill_9_then_resume_on_the_same_database(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        # Four hands: the person is asked 26 times before the match ends (two hands of quick wins were not always).
        room = server.room(hands=4, bots=BOTS)
        code = room["room"]
        status, watch = server.post(f"/api/rooms/{code}/spectators")
        assert status == 201
        rng = random.Random(8)

        async def first_part() -> Message:
            peer = await server.connect(code, room["token"])
            count = 0

            def stop(m: Message) -> bool:
                nonlocal count
                count += 1
                return count > 25

            last = await play_until(peer, rng, stop)
            assert last is not None
            return last

        last = asyncio.run(first_part())
        server.kill()
        server.start()  # the same database, a new port

        async def second_part() -> None:
            spectator = await server.connect(code, watch["token"])
            assert (await spectator.recv())["role"] == "spectator"
            peer = await server.connect(code, room["token"])
            assert (await peer.recv())["seat"] == 0
            view = await peer.until("view")
            assert view["seq"] == last["seq"] and view["legal"] == last["legal"] and view["view"] == last["view"]
            assert view["room"]["totals"] == last["room"]["totals"]
            assert view["room"]["hand_no"] == last["room"]["hand_no"]
            over = await autoplay(peer, rng, first=view)
            assert sum(over["totals"]) == 0
            await peer.close()
            await spectator.close()

        asyncio.run(second_part())
