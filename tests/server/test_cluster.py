"""Several workers behind a real nginx on one real PostgreSQL (scripts/serve_many.py, deploy/nginx.conf.in): the
workers' ring is nginx's own consistent hash (alive and with a worker down), and a worker killed with ``kill -9``
mid-hand has its rooms taken over: people reconnect through the proxy with the same tokens and play on exactly
where they were; when it comes back, its rooms are handed back, never held by two workers at once."""

# ruff: noqa: F811  (the PostgreSQL fixtures imported from pgfixtures are test parameters)
from __future__ import annotations

import asyncio
import importlib.util
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from pgfixtures import any_db, pg_cluster, pg_url  # noqa: F401 - fixtures, used as parameters (F811 below)
from sichuan_mahjong.server.lobby import CODE_ALPHABET
from sichuan_mahjong.server.ring import Ring
from webtable import Message, Peer, autoplay, free_port, pick

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("serve_many", ROOT / "scripts" / "serve_many.py")
assert _spec is not None and _spec.loader is not None
serve_many = importlib.util.module_from_spec(_spec)
sys.modules["serve_many"] = serve_many
_spec.loader.exec_module(serve_many)

needs_nginx = pytest.mark.skipif(
    not Path(serve_many.NGINX).is_file(), reason="nginx is not installed: apt-get install nginx"
)
BOTS = {"1": "expert", "2": "expert", "3": "expert"}


@needs_nginx
def test_the_workers_ring_is_nginx_consistent_hash(tmp_path: Path) -> None:
    """The shipped config in front of three upstreams, the second one down: nginx asks for each code the worker
    Ring.owner names with all three alive, and, where that is the one down, the one Ring.owner names without it."""
    ports = [free_port() for _ in range(4)]
    servers = [f"127.0.0.1:{p}" for p in ports[1:]]
    conf = serve_many.nginx_config(f"127.0.0.1:{ports[0]}", servers, tmp_path)
    answer = f"    server {{ listen {servers[0]}; listen {servers[2]}; location / {{ return 200 $server_port; }} }}\n"
    conf = conf[: conf.rindex("}")] + answer + "}\n"
    (tmp_path / "nginx.conf").write_text(conf)
    nginx = subprocess.Popen(
        [serve_many.NGINX, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        ring = Ring(servers)
        rng = random.Random(3)
        codes = ["".join(rng.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(300)]
        with httpx.Client(base_url=f"http://127.0.0.1:{ports[0]}", timeout=5) as client:
            deadline = time.monotonic() + 10
            while True:
                try:
                    client.get("/healthz")
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline, (tmp_path / "nginx-error.log").read_text()
                    time.sleep(0.1)
            for n, code in enumerate(codes):
                path = f"/api/rooms/{code}/seats" if n % 2 else f"/ws/{code}"
                r = client.get(path)
                tried = [a.strip() for a in r.headers["x-upstream"].split(",")]
                first, alive = ring.owner(code), ring.owner(code, {0, 2})
                assert first is not None and alive is not None
                if first != 1:  # nginx asks the ring's owner first
                    assert tried == [servers[first]]
                else:  # the down one (asked first until nginx marks it failed), then the next in the ring
                    assert tried in ([servers[1], servers[alive]], [servers[alive]])
                assert r.text == str(ports[1 + alive])
        owners = {ring.owner(c) for c in codes}
        assert owners == {0, 1, 2}  # every worker has codes
    finally:
        nginx.terminate()
        nginx.wait(10)


async def _connect(url: str, code: str, token: str, timeout: float = 20) -> tuple[Peer, float]:
    """Through the proxy, retrying until a worker holds the room (a takeover in progress): the peer and the wait."""
    start = time.monotonic()
    while True:
        try:
            ws = await connect(f"{url.replace('http', 'ws')}/ws/{code}?token={token}", open_timeout=10)
            peer = Peer(ws)
            hello = await peer.recv()
            assert hello["type"] == "hello", hello
            return peer, time.monotonic() - start
        except Exception as exc:  # refused (403: nobody holds it yet), dropped, or a first message not hello
            if time.monotonic() - start > timeout:
                raise AssertionError(f"no worker took room {code} within {timeout} s: {exc!r}") from exc
            await asyncio.sleep(0.2)


async def _play(peer: Peer, rng: random.Random, answers: int) -> Message:
    """Answer ``answers`` views, then return the next view that asks something, unanswered."""
    while True:
        m = await peer.recv(30)
        if m["type"] == "view" and m["legal"]:
            if answers == 0:
                return m
            answers -= 1
            await peer.send(type="act", action=pick(m["legal"], rng), seq=m["seq"])
        elif m["type"] == "hand_over":
            await peer.send(type="next")
        assert m["type"] != "match_over", "the match ended before the kill"


def _holder(url: str, code: str) -> str:
    return httpx.get(f"{url}/api/rooms/{code}", timeout=10).headers["x-upstream"].split(",")[-1].strip()


@needs_nginx
def test_kill_9_a_worker_mid_hand_through_the_proxy(tmp_path: Path, pg_url: str) -> None:
    args = ["--hold", "30", "--bot-delay", "0", "--pause", "0", "--rate", "1000", "--lease", "2"]
    many = serve_many.ServeMany(tmp_path / "run", workers=2, port=free_port(), db=pg_url, serve_args=args)
    with many:
        url = many.url
        rooms: list[dict[str, Any]] = []
        while len(rooms) < 2:  # two rooms on one worker: one played through the kill, one left alone
            r = httpx.post(f"{url}/api/rooms", json={"preset": "app", "hands": 4, "bots": BOTS}, timeout=10)
            assert r.status_code == 201, r.text
            room = r.json()
            room["holder"] = _holder(url, room["room"])
            if not rooms or room["holder"] == rooms[0]["holder"]:
                rooms.append(room)
        played, alone = rooms
        victim = many.servers.index(played["holder"])
        rng = random.Random(4)

        async def go() -> None:
            peer, _ = await _connect(url, played["room"], played["token"])
            other, _ = await _connect(url, alone["room"], alone["token"])
            last = await _play(peer, rng, 12)
            left = await _play(other, rng, 3)
            many.kill(victim)  # kill -9, the people still connected
            with pytest.raises(Exception):  # noqa: B017 - their connections drop, whatever the exception
                while True:
                    await peer.recv(10)
            again, waited = await _connect(url, played["room"], played["token"])
            view = await again.until("view")
            assert view["seq"] == last["seq"] and view["legal"] == last["legal"] and view["view"] == last["view"]
            assert view["room"]["totals"] == last["room"]["totals"]
            assert _holder(url, played["room"]) != played["holder"]
            assert waited < 2 + 8, f"the room came back {waited:.1f} s after the kill"  # lease 2 s (+ a loaded CI)
            over = await autoplay(again, rng, first=view)
            assert sum(over["totals"]) == 0
            await again.close()

            many.start_worker(victim)  # it comes back: the survivor hands its rooms back, one holder at a time
            moved, _ = await _connect(url, alone["room"], alone["token"])
            mine = await moved.until("view")
            assert mine["seq"] == left["seq"] and mine["view"] == left["view"]
            deadline = time.monotonic() + 10
            while _holder(url, alone["room"]) != alone["holder"]:
                assert time.monotonic() < deadline, "the room was not handed back"
                await asyncio.sleep(0.2)
            direct = [httpx.get(f"http://{s}/api/rooms/{alone['room']}", timeout=20) for s in many.servers]
            assert [r.status_code for r in direct] == [200 if k == victim else 403 for k in range(2)]
            again2, _ = await _connect(url, alone["room"], alone["token"])
            view2 = await again2.until("view")
            assert view2["seq"] == left["seq"]
            over = await autoplay(again2, rng, first=view2)
            assert sum(over["totals"]) == 0
            await again2.close()

        asyncio.run(go())


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--worker", "3/2"], "--worker must be K/N with 1 <= K <= N"),
        (["--worker", "two"], "--worker must be K/N"),
        (["--worker", "1/2"], "--worker needs a database all workers share: --db postgresql://"),
        (["--worker", "1/2", "--db", "postgresql://x@127.0.0.1:1/db", "--ring", "a:1"], "--ring must name 2"),
        (["--ring", "a:1,b:2"], "--ring goes with --worker"),
    ],
)
def test_scmj_serve_refuses_a_bad_worker_setting_in_one_line(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("uvicorn")
    from sichuan_mahjong.cli import main

    db = ["--db", str(tmp_path / "db.sqlite")] if "--db" not in args else []
    assert main(["serve", *db, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj serve: error:") and said in err and "Traceback" not in err
    assert not (tmp_path / "db.sqlite").exists()  # refused before anything was opened


def test_a_worker_that_owns_no_code_refuses_to_create_a_room_instead_of_hanging() -> None:
    """A worker whose lease is not yet taken (restarted before its old one ran out) owns no code: a POST
    /api/rooms to it is refused with 403 at once (nginx asks the next worker), not a search that never ends."""
    from sichuan_mahjong.server.lobby import Lobby, RequestError
    from sichuan_mahjong.server.room import ServerOptions
    from sichuan_mahjong.server.store import Store

    lobby = Lobby(Store(":memory:"), ServerOptions())
    lobby.owns = lambda code: False
    with pytest.raises(RequestError) as refused:
        lobby.create({"preset": "app"})
    assert refused.value.status == 403 and "no room codes" in str(refused.value)
    assert lobby.store.codes() == set()
    lobby.owns = lambda code: code[0] in "ACD"  # a share of the codes: found quickly
    room, _ = lobby.create({"preset": "app"})
    assert room.code[0] in "ACD"
