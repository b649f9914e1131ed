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

from sichuan_mahjong.server.limits import AddressLimits
from sichuan_mahjong.tui.settings import default_records_dir

if TYPE_CHECKING:
    from sichuan_mahjong.server.cluster import ClusterOptions


def default_db() -> Path:
    """``$XDG_DATA_HOME/sichuan_mahjong/server.db`` (``~/.local/share/...`` when unset), beside ``records/``."""
    return default_records_dir().parent / "server.db"


#: ``scmj serve`` flag and meaning of each field of AddressLimits (the field is the flag with ``_`` for ``-``).
_ADDRESS_LIMITS = (
    ("room-rate", "rooms created a minute"),
    ("rooms-per-address", "rooms created and not yet closed"),
    ("join-rate", "seats and spectator tokens taken a minute"),
    ("lookup-rate", "GET /api/rooms/{code} and /api/players/... (战绩, replays, 复盘) a minute"),
    ("connect-rate", "websockets opened a minute"),
    ("connections-per-address", "websockets open at once"),
    ("spectators", "spectator tokens one room holds (per room, not per address)"),
)


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
        "--idle",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="a room whose people have all been gone this long expires; bots and spectators keep no room alive "
        "(default: 3600)",
    )
    p.add_argument(
        "--unused",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="a room no person ever connected to expires after this (default: 600)",
    )
    p.add_argument(
        "--room-interval",
        type=float,
        default=0.25,
        metavar="SECONDS",
        help="at most one room message (connects, disconnects) per room this often (default: 0.25)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=1,
        metavar="N",
        help="bots thinking at once in the whole server, each in a worker process (default: 1)",
    )
    p.add_argument(
        "--review-samples",
        type=int,
        default=24,
        metavar="K",
        help="play-outs per option of a 复盘 asked from the page (default 24, the review's default; fewer: faster)",
    )
    p.add_argument(
        "--review-queue",
        type=int,
        default=4,
        metavar="N",
        help="复盘 reviews waiting or running at once in the whole server; one more is refused with 503 (default: 4)",
    )
    p.add_argument("--bot-threads", action="store_true", help="the bots think on threads of the server process instead")
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
        help="between full garbage collections (young ones run every 0.05 s); 0: Python's own policy, which can "
        "stall a busy server for 0.1-0.5 s at a time (default: 300)",
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
    p.add_argument(
        "--allow-bot",
        action="append",
        default=[],
        metavar="MODULE",
        help="let rooms seat module:factory bots from MODULE (or a module inside it): your own bot at the web "
        "table (repeatable; imported at start; none by default)",
    )
    p.add_argument(
        "--outbox",
        type=int,
        default=512,
        metavar="N",
        help="a client with this many messages it has not read is dropped, close 4408 (default: 512)",
    )
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    limits = p.add_argument_group(
        'limits per client address (docs/protocol.md "Limits"; 0 turns one off; rates are per minute)'
    )
    defaults = AddressLimits()
    for flag, what in _ADDRESS_LIMITS:
        default = getattr(defaults, flag.replace("-", "_"))
        limits.add_argument(
            f"--{flag}", type=float, default=default, metavar="N", help=f"{what} (default: {default:g})"
        )
    limits.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's headers and body must arrive within this, or the socket is closed (default: 10)",
    )
    limits.add_argument(
        "--ws-ping",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="a websocket is pinged after this long without a ping, and reset when it has not answered this long "
        "after (a peer gone, or one that reads nothing) (default: 20)",
    )
    limits.add_argument(
        "--log-rate",
        type=float,
        default=20.0,
        metavar="N",
        help="log lines a second from one client address; more are counted and summed up in one line; 0: no limit "
        "(default: 20)",
    )
    limits.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="proxies whose X-Forwarded-For names the client (comma-separated; '*' any; default: 127.0.0.1)",
    )


def run(args: argparse.Namespace) -> int:
    names = [
        "hold",
        "bot_delay",
        "pause",
        "idle",
        "unused",
        "room_interval",
        "auth_timeout",
        "full_gc",
        "request_timeout",
        "log_rate",
    ]
    fields = [flag.replace("-", "_") for flag, _ in _ADDRESS_LIMITS]
    for name in names + fields:
        if getattr(args, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} cannot be negative, got {getattr(args, name)}")
    for name in ("bot_workers", "outbox", "review_queue"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    if args.rate <= 0:
        raise ValueError(f"--rate must be positive, got {args.rate}")
    if not args.wal_max >= 1:
        raise ValueError(f"--wal-max must be at least 1 (megabyte), got {args.wal_max}")
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1..65535, got {args.port}")
    if args.request_timeout == 0:
        raise ValueError("--request-timeout must be positive")
    if not args.ws_ping > 0:
        raise ValueError(f"--ws-ping must be positive, got {args.ws_ping}")
    try:
        import uvicorn

        from sichuan_mahjong.server.app import Limits, create_app
        from sichuan_mahjong.server.httpguard import GuardedWebSocketsProtocol, guarded_h11
        from sichuan_mahjong.server.limits import SourceLogLimit
        from sichuan_mahjong.server.pgstore import redact
        from sichuan_mahjong.server.room import ServerOptions
        from sichuan_mahjong.server.store import check_store, is_postgres
    except ImportError as exc:
        raise ValueError(
            f"the web table needs the extra 'web' ({exc.name} is missing): pip install 'sichuan-mahjong[web]'"
        ) from None
    allowed = tuple(m.strip() for m in args.allow_bot)
    for module in allowed:  # a module that cannot be imported fails now, not when a room asks for it
        from sichuan_mahjong.agents.spec import import_module

        import_module(module)
    if args.review_samples < 1:
        raise ValueError(f"--review-samples must be at least 1, got {args.review_samples}")
    db: str | Path = args.db if args.db and is_postgres(args.db) else Path(args.db or default_db())
    records = args.records or (default_records_dir() if isinstance(db, str) else db.parent / "records")
    options = ServerOptions(
        hold=args.hold,
        bot_delay=args.bot_delay,
        pause=args.pause,
        idle=args.idle,
        records=records,
        full_gc=args.full_gc,
        unused=args.unused,
        room_interval=args.room_interval,
        bot_workers=args.bot_workers,
        bot_processes=not args.bot_threads,
        wal_max=int(args.wal_max * (1 << 20)),
        allowed_bots=allowed,
        review_samples=args.review_samples,
        review_queue=args.review_queue,
    )
    limits = Limits(rate=args.rate, burst=max(2 * args.rate, 1.0), auth_timeout=args.auth_timeout, outbox=args.outbox)
    address = AddressLimits(**{f: type(getattr(AddressLimits(), f))(getattr(args, f)) for f in fields})
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log_limit = SourceLogLimit(args.log_rate)
    for handler in logging.getLogger().handlers:
        handler.addFilter(log_limit)
    cluster = _cluster(args, db)
    check_store(db)  # a damaged or unreachable database is refused here, in one line, before anything opens it
    app = create_app(db, options, limits, address, log_limit, cluster)
    shown = redact(db) if isinstance(db, str) else db
    print(f"scmj serve: http://{args.host}:{args.port}/  (database {shown})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        http=guarded_h11(args.request_timeout),
        ws=GuardedWebSocketsProtocol,
        ws_max_size=16384,
        ws_ping_interval=args.ws_ping,
        ws_ping_timeout=args.ws_ping,
        ws_per_message_deflate=False,
        log_level="warning",
        log_config=None,  # uvicorn's lines go through the handler above, and its per-source filter
        forwarded_allow_ips=args.forwarded_allow_ips,
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
