"""A throwaway PostgreSQL cluster for tests and ``make serve-many``: ``initdb`` into a folder, ``postgres`` on a
free loopback port with its unix socket in that folder, stopped and removed after. Never a system service.

PostgreSQL refuses to run as root: as root (CI, containers) the cluster's programs run as the ``postgres`` user
that Debian's ``postgresql`` package creates (``runuser -u postgres``), and the folder is given to it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

__all__ = ["PgCluster", "find_pg_bin", "missing_reason"]


def find_pg_bin() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``: ``$SCMJ_PG_BIN``, Debian's newest /usr/lib/postgresql/N/bin, or PATH."""
    env = os.environ.get("SCMJ_PG_BIN")
    candidates = [Path(env)] if env else []
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name), reverse=True)
    candidates += debian
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).parent)
    for c in candidates:
        if (c / "initdb").is_file() and (c / "pg_ctl").is_file():
            return c
    return None


def missing_reason() -> str | None:
    """Why no cluster can start here, or None."""
    if find_pg_bin() is None:
        return "PostgreSQL's server programs (initdb, pg_ctl) are not installed: apt-get install postgresql"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root, and runuser is missing to start PostgreSQL as the postgres user"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """``with PgCluster() as pg: pg.create_database("t1")`` gives a ``postgresql://`` URL on 127.0.0.1.

    ``root``: the folder (a new temporary one by default, removed on stop; a given one is kept, and a cluster
    already initialised in it is started again). ``durable=False`` turns off fsync (tests that kill the server
    processes, never PostgreSQL, lose nothing by it)."""

    def __init__(self, root: Path | None = None, *, port: int | None = None, durable: bool = True) -> None:
        bin_dir = find_pg_bin()
        if bin_dir is None:
            raise RuntimeError(missing_reason() or "no PostgreSQL")
        self.bin = bin_dir
        self.keep = root is not None
        self.root = root if root is not None else Path(tempfile.mkdtemp(prefix="scmj-pg-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.data = self.root / "data"
        self.port = port or _free_port()
        self.durable = durable
        self.user = "scmj"
        self._as: list[str] = []
        if os.geteuid() == 0:  # postgres will not run as root
            self._as = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres")
            os.chmod(self.root, 0o700)

    def _run(self, *cmd: str) -> None:
        done = subprocess.run([*self._as, *cmd], capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd[:2])} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> PgCluster:
        if not (self.data / "PG_VERSION").exists():
            args = ["-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8", "--no-sync"]
            self._run(str(self.bin / "initdb"), *args)
        options = f"-k {self.root} -p {self.port} -c listen_addresses=127.0.0.1"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off"
        log = self.root / "postgres.log"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(log), "-w", "start")
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg
        import psycopg.sql

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        if not self.keep:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
