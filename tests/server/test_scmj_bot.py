"""``scmj bot``: a bot from outside takes a room's free seat over the web protocol and plays a whole hand with two
expert bots and a person (a test client), through a real ``scmj serve``; its connection, cut mid-hand, comes back
with the same token and the hand goes on (the seat's hold is far longer than the test, so no 托管 covers for it).
The view it plays from is read back from the protocol's JSON exactly (``observation_from_json``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.cli import main
from sichuan_mahjong.server.wire import WireError, observation_from_json, observation_json
from webtable import Server, free_port, pick

pytest.importorskip("websockets")


class Proxy:
    """A TCP relay on a loopback port to the server's; ``cut()`` drops every connection through it at once (a
    network failure as the bot sees one: the socket just closes)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.live: list[socket.socket] = []
        self.accepted = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.accepted += 1
                self.live += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            for s in self.live:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.live.clear()

    def close(self) -> None:
        self.listener.close()
        self.cut()


def test_a_bot_from_outside_plays_a_hand_and_reconnects_after_a_drop(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", hold=600) as server:
        proxy = Proxy(server.port)
        room = server.room(bots={"1": "expert", "2": "expert"})  # the host (a person) at 0; seat 3 is free
        code = room["room"]
        out = (tmp_path / "bot.out").open("w")
        cmd = [sys.executable, "-m", "sichuan_mahjong", "bot", "--url", f"http://127.0.0.1:{proxy.port}"]
        bot = subprocess.Popen(
            [*cmd, "--room", code, "--agent", "efficient", "--name", "robo", "--seed", "3"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            asyncio.run(_person(server, code, room["token"], proxy))
            assert bot.wait(60) == 0
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait(10)
            proxy.close()
        text = (tmp_path / "bot.out").read_text()
    assert "seat 3 of room" in text and "as efficient" in text, text
    assert "connection lost" in text and "reconnected (connection 2)" in text, text
    assert "hand 1 over:" in text and "match over: totals" in text, text
    assert proxy.accepted >= 3  # the join, the first websocket, the second


async def _person(server: Server, code: str, token: str, proxy: Proxy) -> None:
    rng = random.Random(5)
    peer = await server.connect(code, token)
    cut = False
    bot_discards = 0
    bot_seen: list[bool] = []  # seat 3's players entry: connected or not, as the room messages say
    deadline = time.monotonic() + 120
    while True:
        m = await peer.recv(max(0.01, deadline - time.monotonic()))
        room = m.get("room")
        if isinstance(room, dict) and room["players"][3] is not None:
            seat3 = room["players"][3]
            assert not seat3["bot"] and seat3["name"] == "robo"  # a person's seat as the server sees it
            bot_seen.append(bool(seat3["connected"]))
        if m["type"] == "view":
            # The bot's discards as events (its river would lose a tile that is claimed): after its first, cut
            # its connection mid-hand. Not later: a random deal may end the hand for seat 3 early (a win).
            bot_discards += sum(1 for e in m["events"] if e["type"] == "discard" and e["seat"] == 3)
            if not cut and bot_discards >= 1:
                proxy.cut()
                cut = True
            if m["legal"]:
                await peer.send(type="act", action=pick(m["legal"], rng), seq=m["seq"])
        elif m["type"] == "hand_over":
            assert cut, "the hand ended before the bot discarded"
            await peer.send(type="next")
        elif m["type"] == "match_over":
            break
        elif m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
    await peer.close()
    # seat 3 went away and came back (the room told the others both)
    assert True in bot_seen and False in bot_seen[bot_seen.index(True) :], bot_seen


def test_a_view_read_back_from_the_protocol_is_the_seats_observation() -> None:
    n = 0
    for seed in range(6):
        game = sm.Game(sm.Rules.preset("app" if seed % 2 else "seed"), seed=seed)
        bots = [make_agent("efficient", seed=i) for i in range(4)]
        while not game.is_over:
            for s in range(4):
                view = game.view(s)
                wire = json.loads(json.dumps(observation_json(view)))
                assert observation_from_json(wire, [str(a) for a in view.legal]) == view
                n += 1
            game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    assert n > 500
    with pytest.raises(WireError, match="a view needs the field 'dealer'"):
        observation_from_json({"seat": 0, "exchanged": None})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--url", "ftp://x", "--room", "ABCDEF"], "--url must be http://HOST:PORT or https://HOST, got 'ftp://x'"),
        (["--room", "ABCDEF", "--agent", "nobody"], "unknown bot 'nobody'"),
    ],
)
def test_bad_arguments_end_with_status_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj bot: error: ") and message in err


def test_an_unknown_room_or_no_server_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    assert main(["bot", "--url", f"http://127.0.0.1:{port}", "--room", "ABCDEF"]) == 2
    assert "cannot reach http://127.0.0.1:" in capsys.readouterr().err
    with Server(tmp_path / "db.sqlite") as server:
        assert main(["bot", "--url", server.http, "--room", "QQQQQQ"]) == 2
        assert "joining room 'QQQQQQ': HTTP 404 no room 'QQQQQQ'" in capsys.readouterr().err
        room = server.room(bots={"1": "expert", "2": "expert", "3": "expert"})
        assert main(["bot", "--url", server.http, "--room", room["room"]]) == 2
        assert f"room {room['room']!r} has no free seat" in capsys.readouterr().err
