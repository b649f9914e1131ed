"""A burst of room creations (issue 37, the room floods): the event loop answers a person between two rooms made."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.server.app import create_app
from sichuan_mahjong.server.limits import AddressLimits
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.room import ServerOptions
from sichuan_mahjong.server.store import Store

BOTS = {"1": "master", "2": "master", "3": "master"}


def test_a_burst_of_rooms_is_made_one_per_turn_of_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty rooms asked for at once are made in twenty turns of the event loop, not one: whatever else is
    ready (a person's ping, an answer) runs between two of them."""
    turns = 0
    made_at: list[int] = []
    create = Lobby.create

    def counted(self: Lobby, *args: Any, **kwargs: Any) -> Any:
        made_at.append(turns)
        return create(self, *args, **kwargs)

    monkeypatch.setattr(Lobby, "create", counted)
    app = create_app(tmp_path / "db.sqlite", ServerOptions(bot_delay=0, pause=0), address=AddressLimits(0, 0))

    async def go() -> None:
        nonlocal turns
        stop = asyncio.Event()

        async def tick() -> None:  # one increment per turn of the event loop
            nonlocal turns
            while not stop.is_set():
                turns += 1
                await asyncio.sleep(0)

        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app, client=("127.0.0.9", 1234))
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                ticker = asyncio.create_task(tick())
                body = {"hands": 64, "bots": BOTS}
                answers = await asyncio.gather(*(http.post("/api/rooms", json=body) for _ in range(20)))
                stop.set()
                await ticker
        assert [r.status_code for r in answers] == [201] * 20
        assert len(made_at) == 20
        assert len(set(made_at)) == 20, f"rooms made in the same turn of the event loop: {made_at}"

    asyncio.run(go())


def test_making_a_room_of_master_bots_builds_no_bot_on_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A room's bots are made where they think (the pool's worker, on their first move), never by the room's
    creation: a burst of bot rooms costs the event loop no agent (nor a master's model data)."""
    built: list[str] = []
    init = MasterAgent.__init__

    def counted(self: MasterAgent, *args: Any, **kwargs: Any) -> None:
        built.append(threading.current_thread().name)
        init(self, *args, **kwargs)

    monkeypatch.setattr(MasterAgent, "__init__", counted)

    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ServerOptions(bot_delay=0, pause=0))
        for _ in range(3):
            lobby.create({"hands": 64, "bots": BOTS}, owner="127.0.0.9")
        await asyncio.sleep(0.2)  # whatever the rooms scheduled runs: the host never connected, so no bot moves

    asyncio.run(go())
    assert built == [], f"bots built on the event loop's thread: {built}"
