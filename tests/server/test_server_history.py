"""After the hand (issue 39) through a real ``scmj serve``: player ids on create and join, "forget me", the
history of a player's matches, the replay of a finished hand as the seat saw it (never another seat's
concealed tiles before the end), and 复盘 queued, run off the event loop and cached."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sichuan_mahjong.record import load_hand
from sichuan_mahjong.server.reviews import mark
from webtable import Server, autoplay

ALICE = "alice-0123456789abcdef"
BOB = "bob_0123456789abcdefXYZ"
CAROL = "carol-0123456789abcdef"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, dict[int, list[dict[str, Any]]]]]:
    """One hand: Alice hosts, Bob joins, two bots; Carol watches (with an id, which is not recorded)."""
    db = tmp_path_factory.mktemp("history") / "db.sqlite"
    with Server(db, "--review-samples", "2") as server:
        room = server.room(hands=1, player_id=ALICE, name="Alice", bots={"2": "expert", "3": "efficient"})
        code = room["room"]
        status, bob = server.post(f"/api/rooms/{code}/seats", {"name": "Bob", "player_id": BOB})
        assert status == 201, bob
        status, watch = server.post(f"/api/rooms/{code}/spectators", {"player_id": CAROL})
        assert status == 201, watch
        live: dict[int, list[dict[str, Any]]] = {}

        async def play() -> None:
            peers = [await server.connect(code, room["token"]), await server.connect(code, bob["token"])]
            await asyncio.gather(*(autoplay(p, random.Random(s)) for s, p in enumerate(peers)))
            for s, p in enumerate(peers):
                live[s] = [m["view"] for m in p.seen if m["type"] == "view"]
                await p.close()

        asyncio.run(play())
        yield server, code, live


def get(server: Server, path: str) -> tuple[int, Any]:
    r = httpx.get(f"{server.http}{path}", timeout=30)
    return r.status_code, r.json()


def test_bad_player_ids_are_refused_with_a_clear_400(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite") as server:
        for bad in ("short", "x" * 65, "has space in it 0123456", "ünïcode-0123456789abc", 12345678901234567):
            status, out = server.post("/api/rooms", {"preset": "app", "hands": 1, "player_id": bad})
            assert status == 400 and '"player_id"' in out["error"], (bad, out)
        status, out = get(server, "/api/players/not-an-id/matches")
        assert status == 400 and "player id" in out["error"]
        code = server.room(player_id=ALICE)["room"]
        status, out = server.post(f"/api/rooms/{code}/seats", {"name": "b", "player_id": "b!" * 10})
        assert status == 400 and '"player_id"' in out["error"]


def test_history_lists_the_match_for_each_player_and_never_a_spectator(played: Any) -> None:
    server, code, _ = played
    status, alice = get(server, f"/api/players/{ALICE}/matches")
    assert status == 200
    assert alice["name"] == "Alice"
    (match,) = alice["matches"]
    assert match["room"] == code and match["seat"] == 0 and match["names"][:2] == ["Alice", "Bob"]
    assert match["bots"] == [None, None, "expert", "efficient"]  # the page names them 电脑·高手 / Bot · expert
    assert match["preset"] == "app" and match["over"] and len(match["hands"]) == 1
    hand = match["hands"][0]
    record = server.db.parent / "records" / hand["record"]
    game = load_hand(record)
    assert hand["deltas"] == list(game.result.deltas) == match["totals"]
    assert match["place"] == 1 + sum(t > match["totals"][0] for t in match["totals"])
    status, bob = get(server, f"/api/players/{BOB}/matches")
    assert status == 200 and [m["seat"] for m in bob["matches"]] == [1]
    status, carol = get(server, f"/api/players/{CAROL}/matches")
    assert status == 200 and carol == {"player": CAROL, "name": None, "matches": []}


def test_replay_shows_only_the_seats_own_view_until_the_end(played: Any) -> None:
    server, code, live = played
    for player, seat in ((ALICE, 0), (BOB, 1)):
        status, out = get(server, f"/api/players/{player}/matches/{code}/hands/1")
        assert status == 200, out
        steps = out["steps"]
        assert out["seat"] == seat and len(steps) > 10
        assert out["bots"] == [None, None, "expert", "efficient"]
        for step in steps[:-1]:
            view = step["view"]
            assert view["seat"] == seat and not view["is_over"]
            # Everything the replay shows mid-hand is a view the live table sent that seat (test_server_leak
            # checks each of those against the full state): nothing hidden from the seat then is in it now.
            if view not in live[seat]:
                near = min(live[seat], key=lambda v: sum(v.get(k) != view.get(k) for k in set(v) | set(view)))
                diff = {k: (view.get(k), near.get(k)) for k in set(near) | set(view) if near.get(k) != view.get(k)}
                raise AssertionError((step["at"], step["legal"], diff))
            for e in step["events"]:
                if e["type"] == "draw" and e["seat"] != seat:
                    assert "tile" not in e or e["tile"] is None
                assert "hands" not in e and "wall" not in e
        assert steps[-1]["view"]["is_over"]
        assert [len(h) for h in out["hand_over"]["result"]["hands"]] != [0, 0, 0, 0]  # laid open at the end
        answered = [s for s in steps if s["answer"] is not None]
        assert answered and all(s["answer"] in s["legal"] for s in answered)
    # Another id, or a hand that does not exist: 404.
    assert get(server, f"/api/players/{CAROL}/matches/{code}/hands/1")[0] == 404
    assert get(server, f"/api/players/{ALICE}/matches/{code}/hands/2")[0] == 404


def test_review_is_queued_then_cached(played: Any) -> None:
    server, code, _ = played
    path = f"/api/players/{ALICE}/matches/{code}/hands/1/review"
    status, first = server.post(path)
    assert status == 202 and first["status"] in ("queued", "running") and first["samples"] == 2
    # The tables do not wait: the server answers health checks while the review runs.
    t0 = time.monotonic()
    assert httpx.get(f"{server.http}/healthz", timeout=5).status_code == 200
    assert time.monotonic() - t0 < 2
    deadline = time.monotonic() + 240
    while True:
        status, out = server.post(path)
        if status == 200 or time.monotonic() > deadline:
            break
        assert status == 202
        time.sleep(0.5)
    assert status == 200 and out["status"] == "done", out
    review = out["review"]
    assert review["seat"] == 0 and review["summary"]["hands"] == 1
    for d in review["decisions"]:
        assert set(d["reason"]) == {"zh", "en"} and d["options"] and d["master"]
        agreed = "agreed" if d["chosen"] == d["master"] else "unclear"
        assert d["mark"] == (agreed if d["loss"] == 0 else "small" if d["loss"] < 1 else "costly")
    share = round(100 * review["summary"]["agreement"])
    assert review["line"]["zh"] == f"与大师一致 {share}%，每局损失 {review['summary']['loss_per_hand']:.1f} 分"
    cached = list((server.db.parent / "records").glob("*.review-seat0-k2.json"))
    assert len(cached) == 1
    t0 = time.monotonic()
    assert server.post(path)[1] == out  # from the cache, at once
    assert time.monotonic() - t0 < 1


def test_a_full_review_queue_answers_503_with_a_clear_message(played: Any, tmp_path: Path) -> None:
    """``scmj serve --review-queue 1``: while one review waits or runs, a review of another hand or seat is refused
    with 503 and says why; the queue's own review still comes."""
    server, code, _ = played
    db = tmp_path / "db.sqlite"  # a copy of the played match: its database (consistent while in use) and records
    with sqlite3.connect(server.db) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    shutil.copytree(server.db.parent / "records", tmp_path / "records", ignore=shutil.ignore_patterns("*.review-*"))
    with Server(db, "--review-queue", "1", "--review-samples", "16") as small:
        status, first = small.post(f"/api/players/{ALICE}/matches/{code}/hands/1/review")
        assert status == 202, first
        status, second = small.post(f"/api/players/{BOB}/matches/{code}/hands/1/review")
        assert status == 503, second
        assert second["error"] == "1 review is waiting already; ask again in a minute"
        assert small.post(f"/api/players/{ALICE}/matches/{code}/hands/1/review")[0] == 202  # its own: no refusal
    assert (
        "--review-queue N"
        in subprocess.run(
            [sys.executable, "-m", "sichuan_mahjong", "serve", "--help"], capture_output=True, text=True, check=True
        ).stdout
    )


def test_a_decision_without_a_clear_loss_is_not_marked_agreed() -> None:
    """Another answer than the master's whose loss does not clear its noise is 无明显损失 (no clear loss), not
    "agreed": agreement is the master's answer, as the summary counts it."""
    d = {"chosen": "discard 3m", "master": "discard 5p", "loss": 0.0}
    assert mark(d) == "unclear"
    assert mark({**d, "master": "discard 3m"}) == "agreed"
    assert mark({**d, "loss": 0.4}) == "small" and mark({**d, "loss": 2.5}) == "costly"


def test_forget_me_deletes_the_ids_rows(played: Any) -> None:
    server, code, _ = played
    r = httpx.delete(f"{server.http}/api/players/{BOB}", timeout=10)
    assert r.status_code == 200 and r.json() == {"player": BOB, "forgotten_seats": 1}
    assert get(server, f"/api/players/{BOB}/matches")[1]["matches"] == []
    assert get(server, f"/api/players/{BOB}/matches/{code}/hands/1")[0] == 404
    assert get(server, f"/api/players/{ALICE}/matches")[1]["matches"]  # only Bob's rows


def test_history_lookups_are_rate_limited_per_address(tmp_path: Path) -> None:
    with Server(tmp_path / "db.sqlite", "--lookup-rate", "3") as server:
        answers = [get(server, f"/api/players/{ALICE}/matches") for _ in range(6)]
        assert [s for s, _ in answers[:3]] == [200, 200, 200]
        status, out = answers[-1]
        assert status == 429 and out["limit"] == "lookup-rate", out
