"""``scmj serve``: the web table's server (rooms, bots, reconnect, spectators), on 127.0.0.1 by default.

Rooms, seats and every accepted answer live in a SQLite database (default beside the records in the user's
data folder) or, with ``--db postgresql://...``, in PostgreSQL (the extra ``postgres``; several server
processes on one database: docs/hosting.md); a restarted server resumes every room where it was. Finished hands
are saved as records in ``records/`` beside the SQLite file, or in ``--records`` (``scmj replay FILE`` reads
them). Needs the optional extra ``web``.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sichuan_mahjong.tui.settings import default_records_dir

if TYPE_CHECKING:
    from sichuan_mahjong.server.cluster import ClusterOptions


def default_db() -> Path:
    """``$XDG_DATA_HOME/sichuan_mahjong/server.db`` (``~/.local/share/...`` when unset), beside ``records/``."""
    return default_records_dir().parent / "server.db"


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve",
        help="serve the web table: rooms for four, people and bots",
        description="Serve the web table at http://HOST:PORT/ (API: docs/protocol.md). Rooms survive a restart.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument(
        "--db",
        default=None,
        help=f"the database: a SQLite file or a postgresql:// URL (default: {default_db()})",
    )
    p.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="where finished hands are saved (default: records/ beside a SQLite file; with PostgreSQL "
        f"{default_records_dir()})",
    )
    p.add_argument(
        "--hold",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a disconnected seat's decisions wait this long, then the expert bot plays it until it is back "
        "(default: 30)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="SECONDS", help="a bot's pause before it plays (default: 0.6)"
    )
    p.add_argument("--pause", type=float, default=8.0, metavar="SECONDS", help="pause between hands (default: 8)")
    p.add_argument(
        "--idle", type=float, default=3600.0, metavar="SECONDS", help="an unused room expires (default: 3600)"
    )
    p.add_argument(
        "--rate", type=float, default=20.0, metavar="N", help="messages a second per connection (default: 20)"
    )
    p.add_argument(
        "--auth-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="a socket opened without ?token= must send auth within this (default: 5)",
    )
    p.add_argument(
        "--full-gc",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="between full garbage collections; 0: Python's own policy, which can stall a busy server for "
        "0.1-0.5 s at a time (default: 300)",
    )
    p.add_argument(
        "--wal-max",
        type=float,
        default=32.0,
        metavar="MB",
        help="the database's write-ahead log is truncated once it passes this many megabytes, even under "
        "load (default: 32)",
    )
    p.add_argument(
        "--worker",
        default=None,
        metavar="K/N",
        help="worker K of N behind a proxy, all on one postgresql:// database: it holds the rooms whose codes "
        "hash to it and takes over a dead worker's (docs/hosting.md)",
    )
    p.add_argument(
        "--ring",
        default=None,
        metavar="HOST:PORT,...",
        help="with --worker: the N workers' addresses as the proxy's upstream block names them, in order "
        "(default: HOST:PORT-K+1 ... on consecutive ports)",
    )
    p.add_argument(
        "--lease",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="with --worker: a worker silent this long is taken over (default: 3)",
    )
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


def run(args: argparse.Namespace) -> int:
    for name in ("hold", "bot_delay", "pause", "idle", "auth_timeout", "full_gc"):
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} cannot be negative, got {getattr(args, name)}")
    if args.rate <= 0:
        raise ValueError(f"--rate must be positive, got {args.rate}")
    if not args.wal_max >= 1:
        raise ValueError(f"--wal-max must be at least 1 (megabyte), got {args.wal_max}")
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1..65535, got {args.port}")
    try:
        import uvicorn

        from sichuan_mahjong.server.app import Limits, create_app
        from sichuan_mahjong.server.pgstore import redact
        from sichuan_mahjong.server.room import ServerOptions
        from sichuan_mahjong.server.store import check_store, is_postgres
    except ImportError as exc:
        raise ValueError(
            f"the web table needs the extra 'web' ({exc.name} is missing): pip install 'sichuan-mahjong[web]'"
        ) from None
    db: str | Path = args.db if args.db and is_postgres(args.db) else Path(args.db or default_db())
    records = args.records or (default_records_dir() if isinstance(db, str) else db.parent / "records")
    options = ServerOptions(
        hold=args.hold,
        bot_delay=args.bot_delay,
        pause=args.pause,
        idle=args.idle,
        records=records,
        full_gc=args.full_gc,
        wal_max=int(args.wal_max * (1 << 20)),
    )
    limits = Limits(rate=args.rate, burst=max(2 * args.rate, 1.0), auth_timeout=args.auth_timeout)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    cluster = _cluster(args, db)
    check_store(db)  # a damaged or unreachable database is refused here, in one line, before anything opens it
    app = create_app(db, options, limits, cluster)
    shown = redact(db) if isinstance(db, str) else db
    print(f"scmj serve: http://{args.host}:{args.port}/  (database {shown})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws="websockets-sansio",
        ws_max_size=16384,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    return 0


def _cluster(args: argparse.Namespace, db: str | Path) -> ClusterOptions | None:
    """``--worker K/N`` with ``--ring`` and ``--lease``, checked, or None for one process."""
    from sichuan_mahjong.server.cluster import ClusterOptions, parse_worker

    if args.worker is None:
        if args.ring is not None:
            raise ValueError("--ring goes with --worker K/N")
        return None
    k, n = parse_worker(args.worker)
    if not isinstance(db, str):
        raise ValueError("--worker needs a database all workers share: --db postgresql://...")
    if not args.lease > 0:
        raise ValueError(f"--lease must be positive, got {args.lease}")
    if args.ring is None:
        ring = [f"{args.host}:{args.port - k + 1 + i}" for i in range(n)]
    else:
        ring = [s.strip() for s in args.ring.split(",") if s.strip()]
    if len(ring) != n or len(set(ring)) != n:
        raise ValueError(f"--ring must name {n} different workers (HOST:PORT,...), got {args.ring!r}")
    return ClusterOptions(k - 1, tuple(ring), lease=args.lease, wait=2 * args.lease)
