"""Your own bot at the web table: a room may seat a ``module:factory`` bot only from a module the server was
started with (``scmj serve --allow-bot MODULE``); it is refused otherwise, and a wrong spec is named."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sichuan_mahjong.cli import main
from sichuan_mahjong.server.app import create_app
from sichuan_mahjong.server.botpool import cached_agent
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.room import ServerOptions
from sichuan_mahjong.server.store import Store
from webtable import Inbox

ALLOWED = ServerOptions(hold=60, bot_delay=0, pause=0, allowed_bots=("spec_bots",))
MINE = "spec_bots:make"


def test_an_allowed_module_seats_your_bot_and_it_plays() -> None:
    async def go() -> None:
        lobby = Lobby(Store(":memory:"), ALLOWED)
        room, _ = lobby.create({"hands": 1, "preset": "app", "bots": {"1": MINE, "2": "expert", "3": MINE}})
        room.attach(Inbox(), 0)
        for _ in range(200):  # 换三张: all four are asked; the three bots answer by themselves
            if {1, 2, 3} <= set(room.answers):
                break
            await asyncio.sleep(0.01)
        assert {1, 2, 3} <= set(room.answers)
        bots = [cached_agent(room.code, s) for s in (1, 2, 3)]  # the bots think in the server's pool
        assert [b.name if b is not None else None for b in bots] == ["pinball", "expert", "pinball"]

    asyncio.run(go())


@pytest.mark.parametrize(
    ("options", "bot", "words"),
    [
        (ServerOptions(hold=60, bot_delay=0, pause=0), MINE, "needs the server started with --allow-bot MODULE"),
        (ALLOWED, "spec_bots_broken:make", "not allowed here"),
        (ALLOWED, "spec_bots:nothing", "module 'spec_bots' has no attribute 'nothing'"),
        (ALLOWED, "spec_bots:not_an_agent", "not an Agent"),
    ],
)
def test_a_spec_bot_is_refused_unless_allowed_and_right(
    tmp_path: Path, options: ServerOptions, bot: str, words: str
) -> None:
    with TestClient(create_app(tmp_path / "db.sqlite", options)) as client:
        r = client.post("/api/rooms", json={"bots": {"1": bot}})
        assert r.status_code == 400 and words in r.json()["error"], r.json()


def test_serve_refuses_a_module_it_cannot_import(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    assert main(["serve", "--allow-bot", "no_such_bot_module", "--db", str(tmp_path / "db.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj serve: error:") and "no module named 'no_such_bot_module'" in err
