"""The server's database in PostgreSQL (``scmj serve --db postgresql://...``): the tables and statements of the
SQLite store (:class:`~sichuan_mahjong.server.store.RoomStore`), for several server processes sharing one
database (docs/hosting.md). Needs the optional extra ``postgres`` (psycopg 3).

Every write is one transaction committed before the method returns: an answer is stored before anything it
causes is sent. The connection is synchronous, like SQLite's: a write waits for its commit on the event loop
(a round trip), which is what keeps the order "stored, then sent" without a queue. So the session runs with
``synchronous_commit = off``, SQLite's guarantee (``synchronous=NORMAL``): a commit is in PostgreSQL's hands
(visible to every other connection, kept if this process dies) when it returns, and reaches the disk within
PostgreSQL's WAL writer delay (3 x 200 ms at most), so a crash of PostgreSQL or the machine may lose about the
last half second, never the database. Waiting for the fsync at every answer instead put it on the event loop:
p99 2.1 s against 0.1 s at 200 tables on a loaded machine (docs/hosting.md). A URL that sets
``synchronous_commit`` itself (``?options=-csynchronous_commit%3Don``) keeps its own choice.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sichuan_mahjong.server.schema import TABLES
from sichuan_mahjong.server.store import PLAYER_SCHEMA, RoomStore, StoreError

if TYPE_CHECKING:
    import psycopg

__all__ = ["PG_SCHEMA", "PgStore", "check_postgres", "redact"]

#: SQLite's tables in PostgreSQL's words: a 64-bit serial for the answers' order, double precision for times
#: (PostgreSQL's ``REAL`` is 4 bytes and would round a room's creation time to minutes).
#: The players' tables (``PLAYER_SCHEMA``) are plain SQL that both run.
PG_SCHEMA = (
    TABLES.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY").replace("REAL", "DOUBLE PRECISION")
    + PLAYER_SCHEMA
)
_SCHEMA_LOCK = 0x5C4D4A  # an advisory lock: processes starting together create the tables one at a time


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("a postgresql:// database needs psycopg 3: pip install 'sichuan-mahjong[postgres]'") from None
    return psycopg


def _connect(url: str, timeout: float = 10.0) -> psycopg.Connection[Any]:
    pg = _psycopg()
    try:
        conn: psycopg.Connection[Any] = pg.connect(url, autocommit=True, connect_timeout=max(1, int(timeout)))
    except pg.Error as exc:
        detail = " ".join(str(exc).split())
        raise StoreError(
            f"cannot connect to the PostgreSQL database {redact(url)} ({detail}): check that it runs and the URL"
        ) from None
    return conn


class PgStore(RoomStore):
    """One connection to a PostgreSQL database (created tables if missing); the URL as libpq reads it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.path = redact(url)  # what logs name
        self._db = _connect(url)
        self._session()
        self.create(PG_SCHEMA)

    def _session(self) -> None:
        if "synchronous_commit" not in self.url:
            self._db.execute("SET synchronous_commit = off")

    def create(self, schema: str) -> None:
        """Create the tables of ``schema`` (``;``-separated, ``IF NOT EXISTS``), one process at a time."""
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in filter(str.strip, schema.split(";")):
                self._db.execute(_pg(statement))

    def _conn(self) -> psycopg.Connection[Any]:
        """The connection, opened again if the last one broke (PostgreSQL restarted): the write that found it
        broken failed; the next one goes through."""
        if self._db.closed or self._db.broken:
            self._db = _connect(self.url)
            self._session()
        return self._db

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        db = self._conn()
        if len(statements) == 1:  # autocommit: one statement is its own transaction
            sql, args = statements[0]
            db.execute(_pg(sql), args)
            return
        with db.transaction():
            for sql, args in statements:
                db.execute(_pg(sql), args)

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._conn().execute(_pg(sql), args).fetchall())

    def close(self) -> None:
        self._db.close()


def _pg(sql: str) -> Any:
    """The store's ``?`` parameters as psycopg's ``%s`` (the statements hold no other ``?`` or ``%``)."""
    return sql.replace("?", "%s")


def check_postgres(url: str) -> None:
    """The start-up check for PostgreSQL: it answers (a StoreError in one line otherwise)."""
    conn = _connect(url)
    try:
        conn.execute("SELECT 1")
    finally:
        conn.close()
