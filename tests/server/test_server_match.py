"""Whole matches against a real ``scmj serve`` subprocess: one person and three bots, four people and a
spectator; the records it writes load back as the same match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from sichuan_mahjong.record import load_hand, load_match
from webtable import Server, autoplay


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "db.sqlite") as srv:
        yield srv


def test_one_person_and_three_bots_play_a_whole_match(server: Server) -> None:
    room = server.room(hands=2, bots={"1": "expert", "2": "efficient", "3": "random"})

    async def play() -> None:
        peer = await server.connect(room["room"], room["token"])
        over = await autoplay(peer, random.Random(1))
        hello = peer.seen[0]
        assert hello == {"type": "hello", "room": room["room"], "seat": 0, "role": "player"}
        ends = [m for m in peer.seen if m["type"] == "hand_over"]
        assert [m["hand_no"] for m in ends] == [1, 2]
        assert over["totals"] == [sum(m["result"]["deltas"][s] for m in ends) for s in range(4)]
        assert sum(over["totals"]) == 0
        views = [m for m in peer.seen if m["type"] == "view"]
        assert all(v["view"]["seat"] == 0 for v in views)
        assert [v["seq"] for v in views] == sorted(v["seq"] for v in views)
        assert views[0]["events"][0]["type"] == "deal"
        await peer.close()

    asyncio.run(play())
    assert httpx.get(f"{server.http}/healthz").json()["gc"]["every_s"] == 300  # scmj serve's own policy
    records = server.log.parent / "records"
    (record,) = [f for f in records.glob("*.jsonl") if "-hand" not in f.name]
    match = load_match(record)
    assert match.is_over and len(match.games) == 2
    hands = sorted(records.glob("*-hand*.jsonl"))
    assert [h.name[-12:] for h in hands] == ["hand01.jsonl", "hand02.jsonl"]
    assert [load_hand(h).events for h in hands] == [g.events for g in match.games]


def test_four_people_and_a_spectator(server: Server) -> None:
    room = server.room(hands=1)
    code = room["room"]
    tokens = [room["token"]]
    for s in (1, 2, 3):
        status, seat = server.post(f"/api/rooms/{code}/seats", {"name": f"p{s}"})
        assert status == 201 and seat["seat"] == s
        tokens.append(seat["token"])
    assert server.post(f"/api/rooms/{code}/seats", {"name": "late"})[0] == 409
    status, watch = server.post(f"/api/rooms/{code}/spectators")
    assert status == 201

    async def play() -> None:
        spectator = await server.connect(code, watch["token"])
        peers = [await server.connect(code, t) for t in tokens]
        results = await asyncio.gather(*(autoplay(p, random.Random(s)) for s, p in enumerate(peers)))
        assert len({tuple(r["totals"]) for r in results}) == 1
        over = await spectator.until("match_over")
        assert over["totals"] == results[0]["totals"]
        views = [m for m in spectator.seen if m["type"] == "view"]
        assert views and all(v["view"]["hand"] == [] and v["legal"] == [] and v["view"]["seat"] is None for v in views)
        for p in [spectator, *peers]:
            await p.close()

    asyncio.run(play())
