"""``make serve-many``: N ``scmj serve --worker K/N`` processes behind nginx, on one PostgreSQL, all on loopback.

Run: ``.venv/bin/python scripts/serve_many.py [--workers 2] [--port 8000] [--run build/serve-many]
[--db postgresql://...] [-- more scmj serve options]``. Without ``--db`` it starts its own PostgreSQL cluster
in ``RUN/pg`` (initdb the first time, kept between runs: the rooms survive a restart of the whole set). The
workers listen on PORT+1 ... PORT+N, nginx on PORT with deploy/nginx.conf.in filled in (``RUN/nginx.conf``),
in the foreground, never as a system service. Ctrl-C stops everything. Logs: ``RUN/worker-K.log``,
``RUN/nginx-error.log``, ``RUN/pg/postgres.log``. The tests drive the same :class:`ServeMany`
(tests/server/test_cluster.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from pgcluster import PgCluster, missing_reason  # noqa: E402  (tests/pgcluster.py: the throwaway cluster)

TEMPLATE = ROOT / "deploy" / "nginx.conf.in"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(listen: str, servers: list[str], run: Path) -> str:
    """deploy/nginx.conf.in for these workers (in ring order), listening on ``listen``, files under ``run``."""
    upstreams = "\n".join(f"        server {s} max_fails=1 fail_timeout=2s;" for s in servers)
    text = TEMPLATE.read_text(encoding="utf-8")
    return text.replace("@UPSTREAMS@", upstreams).replace("@LISTEN@", listen).replace("@RUN@", str(run))


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"{proc.args!r} exited with {proc.returncode}: {log.read_text(errors='replace')[-2000:]}"
            )
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer: {log.read_text(errors='replace')[-2000:]}")


class ServeMany:
    """The set: ``start()``, then ``url`` (nginx); ``kill(k)`` is ``kill -9`` of worker k (0-based), ``start_worker(k)``
    brings it back; ``stop()`` ends every process it started (and its own PostgreSQL)."""

    def __init__(
        self,
        run: Path,
        *,
        workers: int = 2,
        port: int = 8000,
        db: str | None = None,
        serve_args: list[str] | None = None,
        pg: PgCluster | None = None,
    ) -> None:
        self.run = run.resolve()
        self.n = workers
        self.port = port
        self.db = db
        self.serve_args = serve_args or []
        self.pg = pg
        self._own_pg = False
        self.servers = [f"127.0.0.1:{port + 1 + k}" for k in range(workers)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServeMany:
        self.run.mkdir(parents=True, exist_ok=True)
        if self.db is None:
            if self.pg is None:
                reason = missing_reason()
                if reason is not None:
                    raise RuntimeError(reason)
                self.pg = PgCluster(self.run / "pg", port=self.port + 1000)
                self.pg.start()
                self._own_pg = True
            import psycopg

            with psycopg.connect(self.pg.url(), autocommit=True) as conn:
                if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'scmj'").fetchone():
                    conn.execute("CREATE DATABASE scmj")
            self.db = self.pg.url("scmj")
        for k in range(self.n):
            self.start_worker(k)
        conf = self.run / "nginx.conf"
        conf.write_text(nginx_config(f"127.0.0.1:{self.port}", self.servers, self.run), encoding="utf-8")
        log = self.run / "nginx.log"
        with log.open("ab") as out:
            self.nginx = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(self.run)], stdout=out, stderr=out)
        _wait_http(f"{self.url}/healthz", self.nginx, self.run / "nginx-error.log")
        return self

    def start_worker(self, k: int) -> None:
        assert self.db is not None
        host, port = self.servers[k].rsplit(":", 1)
        cmd = [sys.executable, "-m", "sichuan_mahjong", "serve", "--host", host, "--port", port, "--db", self.db]
        cmd += ["--worker", f"{k + 1}/{self.n}", "--ring", ",".join(self.servers)]
        cmd += ["--records", str(self.run / "records"), *self.serve_args]
        log = self.run / f"worker-{k + 1}.log"
        with log.open("ab") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=out)
        self.procs[k] = proc
        _wait_http(f"http://{self.servers[k]}/healthz", proc, log)

    def kill(self, k: int) -> None:
        """``kill -9`` worker k: no clean-up of any kind; its lease runs out."""
        proc = self.procs[k]
        assert proc is not None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        self.procs[k] = None

    def stop(self) -> None:
        for proc in [self.nginx, *self.procs]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
        self.nginx = None
        self.procs = [None] * self.n
        if self._own_pg and self.pg is not None:
            self.pg.stop()

    def __enter__(self) -> ServeMany:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--workers", type=int, default=2, help="how many scmj serve processes (default: 2)")
    p.add_argument("--port", type=int, default=8000, help="nginx's port; the workers take the next N (default: 8000)")
    p.add_argument("--run", type=Path, default=ROOT / "build" / "serve-many", help="config, logs, PostgreSQL")
    p.add_argument("--db", default=None, help="a postgresql:// database (default: a cluster in RUN/pg)")
    p.add_argument("serve_args", nargs="*", help="more scmj serve options, after --")
    args = p.parse_args(argv)
    if args.workers < 1:
        p.error(f"--workers must be at least 1, got {args.workers}")
    many = ServeMany(args.run, workers=args.workers, port=args.port, db=args.db, serve_args=args.serve_args)
    try:
        many.start()
        print(f"the web table on {args.workers} workers: open {many.url}/ (Ctrl-C stops it; logs in {args.run})")
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while True:
            time.sleep(1)
            for k, proc in enumerate(many.procs):
                if proc is not None and proc.poll() is not None:
                    print(f"worker {k + 1} exited ({proc.returncode}); the others take its rooms over", flush=True)
                    many.procs[k] = None
    except KeyboardInterrupt:
        return 0
    except RuntimeError as exc:
        print(f"serve_many: {exc}", file=sys.stderr)
        return 1
    finally:
        many.stop()


if __name__ == "__main__":
    sys.exit(main())
