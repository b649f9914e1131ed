"""The server's database: rooms, seats, spectators and every accepted answer, in SQLite (WAL).

A room is its settings (rules, hands, match seed, timer), its seats (name, token, bot tier, 托管) and the answers
accepted so far in order; the match is rebuilt from these by replay (``Match``/``Game`` are deterministic), so
nothing else is stored. Each write is one small transaction committed before the server sends its effects;
with WAL and ``synchronous=NORMAL`` a committed write survives the process being killed (not a power cut).

A commit then only appends to the WAL file; the checkpoints that copy it into the database and call fsync run
in a background thread on their own connection (:meth:`Store.start_checkpoints`), never on the event loop:
an automatic checkpoint inside a commit stalled the loop for up to a quarter of a second on a busy disk.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["RoomRow", "SeatRow", "Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    closed TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT,
    bot TEXT,
    auto INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS spectators (
    code TEXT NOT NULL,
    token TEXT NOT NULL PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_room ON answers (code, id);
"""


@dataclass(slots=True)
class SeatRow:
    seat: int
    name: str
    token: str | None  # None for a bot
    bot: str | None
    auto: bool = False


@dataclass(slots=True)
class RoomRow:
    """A room as stored: its settings, seats and answers (``(hand, seat, action)`` in the order accepted)."""

    code: str
    settings: dict[str, Any]
    created: float
    seats: list[SeatRow] = field(default_factory=list)
    spectators: list[str] = field(default_factory=list)
    answers: list[tuple[int, int, str]] = field(default_factory=list)


class Store:
    """One SQLite file; ``Store(":memory:")`` for tests that need no file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in start_checkpoints' thread
        self._db.executescript(_SCHEMA)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None

    def start_checkpoints(self, every: float = 1.0) -> None:
        """Checkpoint the WAL every ``every`` seconds in a daemon thread with its own connection."""
        if self.path == ":memory:" or self._checkpointer is not None:
            return

        def loop() -> None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                while not self._stop.wait(every):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                db.close()

        self._checkpointer = threading.Thread(target=loop, name="scmj-checkpoint", daemon=True)
        self._checkpointer.start()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        if self.path != ":memory:":
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        db = self._db
        db.execute("BEGIN")
        try:
            for sql, args in statements:
                db.execute(sql, args)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # ------------------------------------------------------------------------------------------- writes
    def add_room(self, code: str, settings: dict[str, Any], seats: list[SeatRow]) -> None:
        rows: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO rooms (code, settings, created) VALUES (?, ?, ?)", (code, json.dumps(settings), time.time()))
        ]
        rows += [
            (
                "INSERT INTO seats (code, seat, name, token, bot, auto) VALUES (?, ?, ?, ?, ?, ?)",
                (code, s.seat, s.name, s.token, s.bot, int(s.auto)),
            )
            for s in seats
        ]
        self._tx(rows)

    def add_seat(self, code: str, seat: SeatRow) -> None:
        self._tx(
            [
                (
                    "INSERT INTO seats (code, seat, name, token, bot, auto) VALUES (?, ?, ?, ?, ?, ?)",
                    (code, seat.seat, seat.name, seat.token, seat.bot, int(seat.auto)),
                )
            ]
        )

    def add_spectator(self, code: str, token: str) -> None:
        self._tx([("INSERT INTO spectators (code, token) VALUES (?, ?)", (code, token))])

    def remove_spectator(self, code: str, token: str) -> None:
        self._tx([("DELETE FROM spectators WHERE code = ? AND token = ?", (code, token))])

    def set_auto(self, code: str, seat: int, on: bool) -> None:
        self._tx([("UPDATE seats SET auto = ? WHERE code = ? AND seat = ?", (int(on), code, seat))])

    def add_answer(self, code: str, hand: int, seat: int, action: str) -> None:
        """One accepted answer; committed when this returns."""
        self._db.execute(
            "INSERT INTO answers (code, hand, seat, action) VALUES (?, ?, ?, ?)", (code, hand, seat, action)
        )

    def close_room(self, code: str, reason: str) -> None:
        """The room is over (expired, finished or failed): it is not restored again."""
        self._tx([("UPDATE rooms SET closed = ? WHERE code = ?", (reason, code))])

    # -------------------------------------------------------------------------------------------- reads
    def codes(self) -> set[str]:
        """Every room code ever given out (closed ones too: a code is never reused)."""
        return {row[0] for row in self._db.execute("SELECT code FROM rooms")}

    def open_rooms(self) -> list[RoomRow]:
        """Every room not closed, with its seats, spectators and answers, oldest first."""
        db = self._db
        rooms = [
            RoomRow(code, json.loads(settings), created)
            for code, settings, created in db.execute(
                "SELECT code, settings, created FROM rooms WHERE closed IS NULL ORDER BY created"
            )
        ]
        by_code = {r.code: r for r in rooms}
        for code, seat, name, token, bot, auto in db.execute(
            "SELECT code, seat, name, token, bot, auto FROM seats ORDER BY code, seat"
        ):
            if code in by_code:
                by_code[code].seats.append(SeatRow(seat, name, token, bot, bool(auto)))
        for code, token in db.execute("SELECT code, token FROM spectators"):
            if code in by_code:
                by_code[code].spectators.append(token)
        for code, hand, seat, action in db.execute("SELECT code, hand, seat, action FROM answers ORDER BY id"):
            if code in by_code:
                by_code[code].answers.append((hand, seat, action))
        return rooms
