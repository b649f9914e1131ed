"""One test suite for both stores (SQLite and PostgreSQL, sichuan_mahjong.server.store.RoomStore): what is written
comes back the same, a room is written whole or not at all, a write is committed when the call returns (a
process killed with ``kill -9`` right after loses nothing it had answered), closed and damaged rooms."""

# ruff: noqa: F811  (the PostgreSQL fixtures imported from pgfixtures are test parameters)
from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pgfixtures import any_db, pg_cluster, pg_url  # noqa: F401 - fixtures, used as parameters (F811 below)
from sichuan_mahjong.server.store import RoomStore, SeatRow, open_store


@pytest.fixture
def db(any_db: str) -> str:
    return any_db


@pytest.fixture
def store(db: str) -> Iterator[RoomStore]:
    s = open_store(db)
    yield s
    s.close()


SEATS = [
    SeatRow(0, "host", "tok-0", None),
    SeatRow(1, "expert bot", None, "expert", auto=False),
    SeatRow(2, "李", "tok-2", None, auto=True),
]


def test_what_is_written_comes_back(db: str, store: RoomStore) -> None:
    store.add_room("ABCD", {"preset": "app", "hands": 4, "seed": 1 << 61}, SEATS)
    store.add_room("EFGH", {"preset": "seed"}, [SeatRow(0, "h", "tok-e", None)])
    store.add_seat("ABCD", SeatRow(3, "guest", "tok-3", None))
    store.add_spectator("ABCD", "watch-1")
    store.set_auto("ABCD", 2, False)
    answers = [(0, 0, "discard 5m"), (0, 1, "pass"), (0, 2, "peng"), (1, 3, "hu"), (1, 0, "discard 9s")]
    for hand, seat, action in answers:
        store.add_answer("ABCD", hand, seat, action)
    store.add_answer("EFGH", 0, 0, "swap 1m 2m 3m")
    again = open_store(db)  # another connection: everything is committed
    try:
        rooms = again.open_rooms()
        assert [r.code for r in rooms] == ["ABCD", "EFGH"]  # oldest first
        a = rooms[0]
        assert a.settings == {"preset": "app", "hands": 4, "seed": 1 << 61}
        assert [(s.seat, s.name, s.token, s.bot, s.auto) for s in a.seats] == [
            (0, "host", "tok-0", None, False),
            (1, "expert bot", None, "expert", False),
            (2, "李", "tok-2", None, False),
            (3, "guest", "tok-3", None, False),
        ]
        assert a.spectators == ["watch-1"]
        assert a.answers == answers
        assert rooms[1].answers == [(0, 0, "swap 1m 2m 3m")]
        assert a.damage is None and a.created <= rooms[1].created
    finally:
        again.close()


def test_closed_rooms_are_not_restored_but_their_codes_stay_taken(store: RoomStore) -> None:
    for code in ("AAAA", "BBBB", "CCCC"):
        store.add_room(code, {"preset": "app"}, [])
    store.close_room("BBBB", "finished")
    assert [r.code for r in store.open_rooms()] == ["AAAA", "CCCC"]
    assert store.codes() == {"AAAA", "BBBB", "CCCC"}


def test_a_players_seats_come_back_newest_first_and_forget_me_removes_them(store: RoomStore) -> None:
    store.add_room("AAAA", {"preset": "app"}, SEATS)
    store.add_room("BBBB", {"preset": "seed"}, [SeatRow(0, "x", "t", None), SeatRow(3, "阿明", "u", None)])
    store.add_player_seat("p" * 16, "host", "AAAA", 0)
    store.add_player_seat("p" * 16, "阿明", "BBBB", 3)
    store.add_player_seat("p" * 16, "阿明", "BBBB", 3)  # a second join of the same seat is one row
    assert store.player_name("p" * 16) == "阿明"
    played = store.player_rooms("p" * 16)
    assert [(r.code, r.seat) for r in played] == [("BBBB", 3), ("AAAA", 0)]
    assert played[1].names == ["host", "expert bot", "李", ""]
    assert played[0].settings == {"preset": "seed"}
    assert store.forget_player("p" * 16) == 2
    assert store.player_rooms("p" * 16) == [] and store.player_name("p" * 16) is None
    assert store.forget_player("p" * 16) == 0


def test_a_room_is_written_whole_or_not_at_all(store: RoomStore) -> None:
    two_at_seat_1 = [SeatRow(0, "h", "t0", None), SeatRow(1, "a", "t1", None), SeatRow(1, "b", "t2", None)]
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.add_room("DUPE", {"preset": "app"}, two_at_seat_1)
    assert store.codes() == set() and store.open_rooms() == []
    store.add_room("DUPE", {"preset": "app"}, two_at_seat_1[:2])  # the store still works, the code is free
    assert [len(r.seats) for r in store.open_rooms()] == [2]
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        store.add_room("DUPE", {"preset": "app"}, [])  # a code is given once


def test_a_room_whose_settings_cannot_be_read_is_reported_and_the_others_come_back(store: RoomStore) -> None:
    store.add_room("GOOD", {"preset": "app"}, [])
    store._write([("INSERT INTO rooms (code, settings, created) VALUES (?, ?, ?)", ("BAD1", "{not json", 1.0))])
    store._write([("INSERT INTO rooms (code, settings, created) VALUES (?, ?, ?)", ("BAD2", "[1, 2]", 2.0))])
    rooms = {r.code: r for r in store.open_rooms()}
    assert rooms["GOOD"].damage is None
    assert "not JSON" in str(rooms["BAD1"].damage)
    assert "not a JSON object" in str(rooms["BAD2"].damage)


WRITER = """
import sys
from sichuan_mahjong.server.store import SeatRow, open_store
store = open_store(sys.argv[1])
store.add_room("KILL", {"preset": "app"}, [SeatRow(0, "h", "t", None)])
n = 0
while True:
    store.add_answer("KILL", n // 50, n % 4, f"discard {n}")
    print(n, flush=True)  # "sent": only after the call returned
    n += 1
"""


def test_an_answer_is_committed_before_the_call_returns(db: str) -> None:
    """A process that wrote answers and said so is killed with SIGKILL: every answer it said is stored."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, db], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    said = -1
    for line in proc.stdout:
        said = int(line)
        if said >= 200:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    store = open_store(db)
    try:
        [room] = store.open_rooms()
        assert len(room.answers) >= said + 1
        assert room.answers[: said + 1] == [(n // 50, n % 4, f"discard {n}") for n in range(said + 1)]
    finally:
        store.close()


def test_scmj_serve_refuses_a_postgresql_it_cannot_reach_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("psycopg", reason="psycopg 3 is not installed: pip install -e '.[postgres]'")
    from webtable import free_port

    url = f"postgresql://someone:secret@127.0.0.1:{free_port()}/rooms"  # nothing listens there
    cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--db", url, "--port", str(free_port())]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot connect to the PostgreSQL database" in lines[0], done.stderr
    assert "secret" not in lines[0] and "someone:***@127.0.0.1" in lines[0]


def test_postgresql_commits_as_sqlite_does_unless_the_url_says_otherwise(pg_url: str) -> None:
    """SQLite's guarantee (a commit not waiting for the disk's fsync, which would stall the event loop at every
    answer); a URL that names synchronous_commit keeps its own."""
    from sichuan_mahjong.server.pgstore import PgStore

    for url, expected in ((pg_url, "off"), (pg_url + "?options=-csynchronous_commit%3Don", "on")):
        store = PgStore(url)
        try:
            assert store._rows("SHOW synchronous_commit") == [(expected,)]
        finally:
            store.close()
