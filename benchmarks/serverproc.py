"""What the server benchmarks (server.py, bot_flood.py, abuse.py) share about the ``scmj serve`` process they run:
a free loopback port, its CPU time and memory from /proc, and the script that runs it under cProfile."""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

HOST = "127.0.0.1"  # loopback only

#: ``scmj serve`` under cProfile; uvicorn re-raises SIGTERM after its shutdown with the handler found at start,
#: which writes the stats (argv: the stats file, then serve's arguments).
PROFILED = """
import cProfile, os, signal, sys
from sichuan_mahjong.cli import main
out, args = sys.argv[1], sys.argv[2:]
prof = cProfile.Profile()
def dump(*_):
    prof.disable()
    prof.dump_stats(out)
    os._exit(0)
signal.signal(signal.SIGTERM, dump)
prof.enable()
main(["serve", *args])
dump()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """The process's resident memory in MB; 0 once it is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
