"""The database under abuse (issue 37, items 4 and 7): a WAL that stays bounded under sustained writes and is
truncated when idle; a start-up check that reports lost answers, refuses a damaged or vanished database in one
line that says what to do, and closes (and lists) only the rooms whose own rows are damaged.

The start-up cases run a real ``scmj serve`` on a database written by a real server, then damaged by hand.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from sichuan_mahjong.server.store import SeatRow, Store, StoreError, check_database, mark_path
from webtable import Server, free_port

MB = 1 << 20
BOTS = {"1": "expert", "2": "expert", "3": "expert"}


def _rooms(store: Store, n: int) -> list[str]:
    codes = [f"R{i:04d}" for i in range(n)]
    for code in codes:
        store.add_room(code, {"preset": "app"}, [SeatRow(0, "host", f"token-{code}", None)])
    return codes


# ------------------------------------------------------------------------------------------------ the WAL


def test_sustained_writes_keep_the_wal_under_its_ceiling(tmp_path: Path) -> None:
    """Writes that never pause: a passive checkpoint never catches up, and the WAL grew by hundreds of MB."""
    store = Store(tmp_path / "db.sqlite", wal_max=1 * MB)
    store.start_checkpoints(1.0)
    try:
        codes = _rooms(store, 20)
        peak, n = 0, 0
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline and n < 3000:
            store.add_answer(codes[n % 20], 0, n % 4, "discard 5m")
            n += 1
            peak = max(peak, store.wal_size())
        assert n >= 400  # at about 12 KB of WAL an answer: past the ceiling several times over
        assert peak <= 1 * MB + 64 * 1024, f"the WAL reached {peak / MB:.1f} MB with a 1 MB ceiling"
        assert store.open_rooms()[0].code == codes[0]
        assert sum(len(r.answers) for r in store.open_rooms()) == n  # nothing lost on the way
    finally:
        store.close()


def test_an_idle_wal_is_truncated(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    store.start_checkpoints(0.2)
    try:
        codes = _rooms(store, 5)
        for i in range(300):
            store.add_answer(codes[i % 5], 0, 0, "pass")
        assert store.wal_size() > 0
        deadline = time.monotonic() + 5
        while store.wal_size() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.wal_size() == 0
        assert mark_path(store.path).exists()  # the mark follows: 5 rooms, 300 answers
    finally:
        store.close()


def test_a_wal_cut_in_half_is_reported_at_start_up(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Accepted answers still only in the WAL, the WAL cut in half by hand: the check says how many are lost."""
    live = tmp_path / "live"
    store = Store(live / "db.sqlite", wal_max=512 * MB)  # no checkpoint: every answer is in the WAL only
    codes = _rooms(store, 4)
    for i in range(2000):
        store.add_answer(codes[i % 4], 0, i % 4, "discard 5m")
    store.write_mark()
    cut = tmp_path / "cut"
    cut.mkdir()
    for name in ("db.sqlite", "db.sqlite-wal", "db.sqlite.mark"):  # the files as `kill -9` leaves them
        shutil.copy(live / name, cut / name)
    store.close()
    wal = cut / "db.sqlite-wal"
    with wal.open("r+b") as f:
        f.truncate(wal.stat().st_size // 2)
    with caplog.at_level(logging.WARNING, logger="sichuan_mahjong.server"):
        check_database(cut / "db.sqlite")
    lost = [r.getMessage() for r in caplog.records if "lost" in r.getMessage()]
    assert len(lost) == 1, caplog.text
    left = Store(cut / "db.sqlite")
    try:
        kept = sum(len(r.answers) for r in left.open_rooms())
    finally:
        left.close()
    assert 0 < kept < 2000
    assert f"{2000 - kept} accepted answer(s)" in lost[0] and "-wal was cut or damaged" in lost[0]


# ------------------------------------------------------------------------------------ start-up, for real


def _server_with_rooms(tmp_path: Path, n: int = 3) -> tuple[Path, list[str]]:
    """A database written by a real server: ``n`` rooms of one person and three bots, then a clean stop."""
    db = tmp_path / "db.sqlite"
    with Server(db) as server:
        codes = [server.room(bots=BOTS)["room"] for _ in range(n)]
    return db, codes


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    """``scmj serve`` on ``db`` that is expected to refuse: it must exit by itself."""
    cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--port", str(free_port()), "--db", str(db)]
    return subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=30)


def test_a_room_with_unreadable_settings_is_closed_and_listed_the_others_resume(tmp_path: Path) -> None:
    db, codes = _server_with_rooms(tmp_path)
    bad = codes[1]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET settings = ? WHERE code = ?", ('{"preset": "app", "rul', bad))
    server = Server(db)
    log_before = server.log.read_text()
    with server:
        for code in codes:
            r = httpx.get(f"{server.http}/api/rooms/{code}", timeout=10)
            assert r.status_code == (404 if code == bad else 200), (code, r.text)
    log = server.log.read_text()[len(log_before) :]
    listed = [line for line in log.splitlines() if "closed at start-up" in line]
    assert len(listed) == 1 and bad in listed[0] and "settings are not JSON" in listed[0], log
    assert "Traceback" not in log, log
    with sqlite3.connect(db) as conn:  # closed for good: not tried again at the next start
        (closed,) = conn.execute("SELECT closed FROM rooms WHERE code = ?", (bad,)).fetchone()
    assert closed.startswith("restore failed")


def test_flipped_bytes_in_a_page_refuse_to_start_in_one_line(tmp_path: Path) -> None:
    db, _ = _server_with_rooms(tmp_path)
    with sqlite3.connect(db) as conn:
        (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'rooms'").fetchone()
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    data = bytearray(db.read_bytes())
    at = (root - 1) * page_size
    for i in range(at, at + 12):  # the b-tree page's header: its type, cell count, content offset
        data[i] ^= 0xFF
    db.write_bytes(bytes(data))
    done = _serve(db)
    assert done.returncode == 2, done
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    assert f"the database {db} is damaged" in out and "restore" in out and "from a backup" in out, out
    assert "move" in out and "aside" in out


def test_a_database_emptied_where_rooms_were_is_refused(tmp_path: Path) -> None:
    db, _ = _server_with_rooms(tmp_path)
    assert mark_path(db).exists()
    db.write_bytes(b"")
    done = _serve(db)
    assert done.returncode == 2, done
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    assert f"the database {db} is an empty file (0 bytes), but it held 3 room(s)" in out, out
    assert "restore it from a backup" in out and f"move {mark_path(db)} aside" in out, out
    with pytest.raises(StoreError, match="does not exist"):
        db.unlink()
        check_database(db)


def test_an_empty_file_with_no_mark_starts_as_a_new_database_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite"
    db.write_bytes(b"")
    with Server(db) as server:
        assert httpx.get(f"{server.http}/healthz", timeout=10).json()["rooms"] == 0
    assert "is an empty file (0 bytes): it starts as a new database" in server.log.read_text()
