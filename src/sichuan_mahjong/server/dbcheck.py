"""The start-up check of ``scmj serve``'s database (docs/protocol.md, "Crash safety"): a SQLite file against
the *mark* :class:`~sichuan_mahjong.server.store.Store` keeps beside it, or a PostgreSQL URL's connection.

The store's checkpoint thread keeps a *mark* beside the database (``server.db.mark``): how many rooms and
answers it held, rewritten (fsync, then rename) when they change. At start-up :func:`check_database` compares
the database with it, so a WAL cut or damaged by hand, or a power cut, that lost accepted answers is reported
instead of passing in silence, and a database found empty or missing where the mark says rooms were is refused.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

__all__ = ["StoreError", "check_database", "check_store", "counts", "is_postgres", "mark_path"]

log = logging.getLogger("sichuan_mahjong.server")


class StoreError(ValueError):
    """The database cannot be served: the message says what is wrong and what to do."""


def mark_path(db: str | Path) -> Path:
    """The mark kept beside database ``db``: ``server.db.mark`` for ``server.db``."""
    p = Path(db)
    return p.with_name(p.name + ".mark")


def counts(db: sqlite3.Connection) -> tuple[int, int]:
    """(rooms, answers) ever stored: the highest row ids (rows are never deleted)."""
    rooms = db.execute("SELECT coalesce(max(rowid), 0) FROM rooms").fetchone()[0]
    answers = db.execute("SELECT coalesce(max(id), 0) FROM answers").fetchone()[0]
    return int(rooms), int(answers)


def _read_mark(db: Path) -> dict[str, Any] | None:
    mark = mark_path(db)
    try:
        data = json.loads(mark.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("%s cannot be read (%s): the start-up check goes on without it", mark, exc)
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), int) for k in ("rooms", "answers")):
        log.warning("%s is not a mark this server wrote: the start-up check goes on without it", mark)
        return None
    return data


def check_database(path: str | Path) -> None:
    """The start-up check of ``scmj serve`` (docs/protocol.md, "Crash safety"): a StoreError saying what is wrong
    and what to do when the database cannot be served, a warning in the log when it lost accepted answers.

    * missing or empty (0 bytes): a new database, said in the log, unless its mark says it held rooms: refused;
    * damaged (SQLite's ``quick_check``, or a table that cannot be read): refused;
    * fewer rooms or answers than its mark recorded (a WAL cut or damaged by hand, a power cut): a warning, and
      the rooms resume from what is left. A room whose own row is damaged is closed when rooms are restored.
    """
    db = Path(path)
    mark = _read_mark(db)
    mark_file = mark_path(db)
    size = db.stat().st_size if db.exists() else None
    if not size:
        what = "does not exist" if size is None else "is an empty file (0 bytes)"
        if mark is not None and (mark["rooms"] or mark["answers"]):
            raise StoreError(
                f"the database {db} {what}, but it held {mark['rooms']} room(s) and {mark['answers']} answer(s) "
                f"at {mark.get('time', '?')} ({mark_file}): restore it from a backup, or move {mark_file} aside "
                "to start with no rooms"
            )
        if size == 0:
            log.warning("the database %s is an empty file (0 bytes): it starts as a new database, no rooms", db)
        return
    try:  # read-only: closing it does not checkpoint a WAL into a file that may be damaged
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"the database {db} cannot be opened ({exc}): check its permissions") from None
    try:
        rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check(5)")]
        if rows != ["ok"]:
            raise _damaged(db, "; ".join(rows))
        for table in ("rooms", "seats", "spectators", "answers"):  # every row the restore reads
            for _ in conn.execute(f"SELECT * FROM {table}"):
                pass
        rooms, answers = counts(conn)
    except sqlite3.DatabaseError as exc:
        raise _damaged(db, str(exc)) from None
    finally:
        conn.close()
    if mark is not None and (rooms < mark["rooms"] or answers < mark["answers"]):
        log.warning(
            "the database %s holds %d room(s) and %d answer(s), but %s recorded %d and %d at %s: %d accepted "
            "answer(s) and %d room(s) are lost (its WAL %s-wal was cut or damaged, or the machine lost power "
            "before a checkpoint); the rooms resume from what is left",
            db, rooms, answers, mark_file, mark["rooms"], mark["answers"], mark.get("time", "?"),
            max(0, mark["answers"] - answers), max(0, mark["rooms"] - rooms), db,
        )  # fmt: skip


def _damaged(db: Path, detail: str) -> StoreError:
    return StoreError(
        f"the database {db} is damaged ({detail}); the server does not start on it. Stop any server using it, "
        f"then restore {db} from a backup, or move {db} and any {db.name}-wal, {db.name}-shm and "
        f"{mark_path(db).name} beside it aside to start with no rooms (`sqlite3 {db} .recover` may save what is "
        "still readable)"
    )


def is_postgres(db: str | Path) -> bool:
    """``scmj serve --db``: a ``postgresql://`` (or ``postgres://``) URL names a PostgreSQL database."""
    return str(db).startswith(("postgresql://", "postgres://"))


def check_store(db: str | Path) -> None:
    """The start-up check for either kind: :func:`check_database` for a file, a connection for PostgreSQL."""
    if is_postgres(db):
        from sichuan_mahjong.server.pgstore import check_postgres

        check_postgres(str(db))
    else:
        check_database(db)
