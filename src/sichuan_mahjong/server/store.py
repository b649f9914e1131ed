"""The server's database: rooms, seats, spectators and every accepted answer, in SQLite (WAL).

A room is its settings (rules, hands, match seed, timer), its seats (name, token, bot tier, 托管) and the answers
accepted so far in order; the match is rebuilt from these by replay (``Match``/``Game`` are deterministic), so
nothing else is stored. Each write is one small transaction committed before the server sends its effects;
with WAL and ``synchronous=NORMAL`` a committed write survives the process being killed; a power cut or an
operating-system crash may lose the writes since the last checkpoint (about a second), never the database.

A commit then only appends to the WAL file; the checkpoints that copy it into the database and call fsync run
in a background thread on their own connection (:meth:`Store.start_checkpoints`), never on the event loop:
an automatic checkpoint inside a commit stalled the loop for up to a quarter of a second on a busy disk. The
thread keeps the WAL small: a passive checkpoint each second (writers go on) and a TRUNCATE checkpoint once
nothing was written for a second (the file back to 0 bytes). A passive checkpoint never catches up with
writers that do not pause, so under load the WAL grew without bound (129 MB a minute at 300 rooms; issue
37): a write that finds it larger than ``wal_max`` first checkpoints and truncates it on its own connection,
copying what the last passive checkpoint left (a second's writes) and syncing: the one stall of the event
loop the WAL costs, once per ``wal_max`` bytes written.

The same thread keeps a *mark* beside the database (``server.db.mark``): how many rooms and answers it held,
rewritten (fsync, then rename) when they change; :mod:`~sichuan_mahjong.server.dbcheck` checks the database
against it at start-up (re-exported here).

:class:`RoomStore` is what the server needs of a database; :class:`Store` (SQLite, this module) and
:class:`~sichuan_mahjong.server.pgstore.PgStore` (PostgreSQL, for several server processes on one database)
implement it with the same tables and the same statements, so one test suite holds both
(tests/server/test_store.py). :func:`open_store` picks one from ``scmj serve --db``: a ``postgresql://`` URL or
a file.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sichuan_mahjong.server.dbcheck import StoreError, check_database, check_store, counts, is_postgres, mark_path
from sichuan_mahjong.server.schema import TABLES

__all__ = [
    "DEFAULT_WAL_MAX",
    "PLAYER_SCHEMA",
    "PlayedRoom",
    "RoomRow",
    "RoomStore",
    "SeatRow",
    "Store",
    "StoreError",
    "check_database",
    "check_store",
    "is_postgres",
    "mark_path",
    "open_store",
]

log = logging.getLogger("sichuan_mahjong.server")

#: The WAL's ceiling in bytes (``scmj serve --wal-max``): a write that finds the file larger first truncates it.
DEFAULT_WAL_MAX = 32 << 20


# ---- players (issue 39): identity without accounts. Plain SQL that SQLite and PostgreSQL both run; the only
# schema this feature adds. A player id is a random string the browser keeps (localStorage); ``players`` maps it
# to the last display name it played under, ``player_seats`` to every seat it held (never a spectator's).
# "Forget me" deletes both rows of the id.
PLAYER_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS player_seats (
    player TEXT NOT NULL,
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (player, code, seat)
);
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
    damage: str | None = None  # why the row cannot be read (its settings are not a JSON object): not restored


@dataclass(slots=True)
class PlayedRoom:
    """A room a player held a seat in: its settings, when it was created, the seat, every seat's name and the
    tier of the bot in each seat (None for a person)."""

    code: str
    settings: dict[str, Any]
    created: float
    seat: int
    names: list[str]
    bots: list[str | None]


class RoomStore(ABC):
    """What the server needs of its database. Every write is committed when the method returns (the crash
    guarantee: an answer is stored before anything it causes is sent). Subclasses give a transaction
    (:meth:`_write`) and a query (:meth:`_rows`) in SQL whose parameters are ``?``; the statements are here."""

    @abstractmethod
    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run the statements in one transaction, committed when this returns."""

    @abstractmethod
    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Every row of a query."""

    def start(self) -> None:  # noqa: B027 - most stores need nothing beside them
        """Start what runs beside the server (SQLite: the WAL's checkpoints). Nothing by default."""

    @abstractmethod
    def close(self) -> None: ...

    # ------------------------------------------------------------------------------------------- writes
    def add_room(self, code: str, settings: dict[str, Any], seats: list[SeatRow]) -> None:
        rows: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO rooms (code, settings, created) VALUES (?, ?, ?)", (code, json.dumps(settings), time.time()))
        ]
        rows += [(_ADD_SEAT, (code, s.seat, s.name, s.token, s.bot, int(s.auto))) for s in seats]
        self._write(rows)

    def add_seat(self, code: str, seat: SeatRow) -> None:
        self._write([(_ADD_SEAT, (code, seat.seat, seat.name, seat.token, seat.bot, int(seat.auto)))])

    def add_spectator(self, code: str, token: str) -> None:
        self._write([("INSERT INTO spectators (code, token) VALUES (?, ?)", (code, token))])

    def remove_spectator(self, code: str, token: str) -> None:
        self._write([("DELETE FROM spectators WHERE code = ? AND token = ?", (code, token))])

    def set_auto(self, code: str, seat: int, on: bool) -> None:
        self._write([("UPDATE seats SET auto = ? WHERE code = ? AND seat = ?", (int(on), code, seat))])

    def add_answer(self, code: str, hand: int, seat: int, action: str) -> None:
        """One accepted answer; committed when this returns."""
        self._write([(_ADD_ANSWER, (code, hand, seat, action))])

    def close_room(self, code: str, reason: str) -> None:
        """The room is over (expired, finished or failed): it is not restored again."""
        self._write([("UPDATE rooms SET closed = ? WHERE code = ?", (reason, code))])

    def add_player_seat(self, player: str, name: str, code: str, seat: int) -> None:
        """Player ``player`` (a browser's id) took ``seat`` of room ``code`` under ``name``."""
        self._write(
            [
                ("DELETE FROM players WHERE id = ?", (player,)),
                ("INSERT INTO players (id, name, seen) VALUES (?, ?, ?)", (player, name, time.time())),
                ("DELETE FROM player_seats WHERE player = ? AND code = ? AND seat = ?", (player, code, seat)),
                ("INSERT INTO player_seats (player, code, seat) VALUES (?, ?, ?)", (player, code, seat)),
            ]
        )

    def forget_player(self, player: str) -> int:
        """ "Forget me": every row of ``player``; how many seats it had held."""
        held = self._rows("SELECT count(*) FROM player_seats WHERE player = ?", (player,))[0][0]
        self._write(
            [
                ("DELETE FROM player_seats WHERE player = ?", (player,)),
                ("DELETE FROM players WHERE id = ?", (player,)),
            ]
        )
        return int(held)

    def player_name(self, player: str) -> str | None:
        rows = self._rows("SELECT name FROM players WHERE id = ?", (player,))
        return None if not rows else str(rows[0][0])

    def player_rooms(self, player: str) -> list[PlayedRoom]:
        """Every room ``player`` held a seat in, newest first, with its settings and every seat's name."""
        rows = self._rows(
            "SELECT r.code, r.settings, r.created, p.seat FROM player_seats p JOIN rooms r ON r.code = p.code "
            "WHERE p.player = ? ORDER BY r.created DESC, p.seat",
            (player,),
        )
        out: list[PlayedRoom] = []
        for code, settings, created, seat in rows:
            seats = {
                int(s): (str(n), str(b) if b else None)
                for s, n, b in self._rows("SELECT seat, name, bot FROM seats WHERE code = ?", (code,))
            }
            names = [seats.get(s, ("", None))[0] for s in range(4)]
            bots = [seats.get(s, ("", None))[1] for s in range(4)]
            room = _room_row(code, settings, created)
            out.append(PlayedRoom(code, room.settings, float(created), int(seat), names, bots))
        return out

    # -------------------------------------------------------------------------------------------- reads
    def codes(self) -> set[str]:
        """Every room code ever given out (closed ones too: a code is never reused)."""
        return {row[0] for row in self._rows("SELECT code FROM rooms")}

    def open_rooms(self, codes: Collection[str] | None = None) -> list[RoomRow]:
        """Every room not closed (of ``codes`` only, when given), with its seats, spectators and answers, oldest
        first. A room whose settings cannot be read comes with ``damage`` saying why (one bad row does not stop
        the others)."""
        where = ""
        args: tuple[str, ...] = ()
        if codes is not None:
            args = tuple(sorted(codes))
            where = f" AND code IN ({', '.join('?' * len(args))})" if args else " AND 0 = 1"
        rooms = [
            _room_row(code, settings, created)
            for code, settings, created in self._rows(
                f"SELECT code, settings, created FROM rooms WHERE closed IS NULL{where} ORDER BY created", args
            )
        ]
        by_code = {r.code: r for r in rooms}
        where = where.replace(" AND", " WHERE", 1)
        for code, seat, name, token, bot, auto in self._rows(
            f"SELECT code, seat, name, token, bot, auto FROM seats{where} ORDER BY code, seat", args
        ):
            if code in by_code:
                by_code[code].seats.append(SeatRow(seat, name, token, bot, bool(auto)))
        for code, token in self._rows(f"SELECT code, token FROM spectators{where}", args):
            if code in by_code:
                by_code[code].spectators.append(token)
        for code, hand, seat, action in self._rows(
            f"SELECT code, hand, seat, action FROM answers{where} ORDER BY id", args
        ):
            if code in by_code:
                by_code[code].answers.append((hand, seat, action))
        return rooms


_ADD_SEAT = "INSERT INTO seats (code, seat, name, token, bot, auto) VALUES (?, ?, ?, ?, ?, ?)"
_ADD_ANSWER = "INSERT INTO answers (code, hand, seat, action) VALUES (?, ?, ?, ?)"


class Store(RoomStore):
    """The SQLite store: one file; ``Store(":memory:")`` for tests that need no file. ``wal_max``: the WAL's ceiling in
    bytes (a write that finds it larger first truncates it)."""

    def __init__(self, path: str | Path, *, wal_max: int = DEFAULT_WAL_MAX) -> None:
        if wal_max <= 0:
            raise ValueError(f"the WAL's ceiling must be positive, got {wal_max} bytes")
        self.path = str(path)
        self.wal_max = wal_max
        self._file = self.path != ":memory:"
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in start_checkpoints' thread
        self._db.execute(f"PRAGMA journal_size_limit={int(wal_max)}")  # a WAL restarted by a writer shrinks to it
        self._db.executescript(TABLES + PLAYER_SCHEMA)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._checkpointing = threading.Lock()  # one checkpoint at a time: the thread's or the writer's
        self._marked: tuple[int, int] | None = None  # (rooms, answers) the mark holds

    @property
    def wal_path(self) -> Path:
        return Path(self.path + "-wal")

    def wal_size(self) -> int:
        """The WAL file's size in bytes (0 when there is none)."""
        try:
            return self.wal_path.stat().st_size
        except FileNotFoundError:
            return 0

    def start_checkpoints(self, every: float = 1.0) -> None:
        """Checkpoint the WAL in a daemon thread with its own connection: passively every ``every`` seconds,
        TRUNCATE once nothing was written since the last one; past ``wal_max`` the next write resets it."""
        if self.path == ":memory:" or self._checkpointer is not None:
            return

        def loop() -> None:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=2.0)
            frames = -1  # the WAL's frames after the last passive checkpoint
            try:
                while not self._stop.wait(every):
                    with self._checkpointing:
                        if self.wal_size() > self.wal_max:
                            continue  # the next write truncates it: a passive checkpoint would only hold it up
                        _, now, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                        if (now and now == frames) or (not now and self.wal_size()):
                            # Nothing written since the last look: all of it is copied, so this only truncates.
                            _, now, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                    frames = now
                    self.write_mark(db)
            except Exception as exc:  # pragma: no cover - a closed or broken file; the server goes on unchecked
                log.error("the WAL checkpoints of %s stopped: %s", self.path, exc)
            finally:
                db.close()

        self._checkpointer = threading.Thread(target=loop, name="scmj-checkpoint", daemon=True)
        self._checkpointer.start()

    def _bound_wal(self) -> None:
        """Before a write: past ``wal_max``, checkpoint what the thread has not copied yet and truncate the WAL,
        on the writer's own connection (a checkpoint from another one must win the write lock from writers
        that may never pause; a passive one never catches up with them), after the thread's checkpoint in
        progress if there is one (SQLite would answer busy). Still busy (another process): the next write."""
        if self._file and self.wal_size() > self.wal_max:
            with self._checkpointing:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    def write_mark(self, db: sqlite3.Connection | None = None) -> None:
        """Record beside the database how many rooms and answers it holds (committed ones), when that changed."""
        if self.path == ":memory:":
            return
        now = counts(db or self._db)
        if now == self._marked:
            return
        mark = mark_path(self.path)
        tmp = mark.with_name(mark.name + ".tmp")
        data = {"rooms": now[0], "answers": now[1], "time": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
        with tmp.open("w", encoding="utf-8") as f:
            json.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, mark)
        self._marked = now

    def start(self) -> None:
        self.start_checkpoints()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        if self.path != ":memory:":
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.write_mark()
        self._db.close()

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._bound_wal()
        db = self._db
        if len(statements) == 1:  # autocommit: one statement is its own transaction
            db.execute(*statements[0])
            return
        db.execute("BEGIN")
        try:
            for sql, args in statements:
                db.execute(sql, args)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._db.execute(sql, args))


def _room_row(code: str, settings: object, created: float) -> RoomRow:
    try:
        parsed = json.loads(settings) if isinstance(settings, str | bytes) else None
    except ValueError as exc:
        return RoomRow(code, {}, created, damage=f"its settings are not JSON ({exc})")
    if not isinstance(parsed, dict):
        return RoomRow(code, {}, created, damage=f"its settings are not a JSON object: {str(settings)[:60]!r}")
    return RoomRow(code, parsed, created)


def open_store(db: str | Path, *, wal_max: int = DEFAULT_WAL_MAX) -> RoomStore:
    """The store for ``scmj serve --db``: PostgreSQL for a URL, otherwise the SQLite file ``db``."""
    if is_postgres(db):
        from sichuan_mahjong.server.pgstore import PgStore

        return PgStore(str(db))
    return Store(db, wal_max=wal_max)
