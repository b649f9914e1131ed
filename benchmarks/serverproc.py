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


#: ``scmj serve`` with a watchdog on its event loop (argv: the log file, then serve's arguments): a task ticks every
#: 2 ms, and a thread writes the loop thread's stack whenever no tick came for ``STALL_MS``: where the latency tail
#: comes from (one slow call, or a long batch of ready callbacks: then each stack is a different ordinary message).
STALL_MS = 50
STALLS = f"""
import asyncio, sys, threading, time, traceback
import uvicorn.server
from sichuan_mahjong.cli import main
out, args = open(sys.argv[1], "w", buffering=1), sys.argv[2:]
tick, loop_thread = [time.perf_counter()], []
startup = uvicorn.server.Server.startup
async def watched(self, sockets=None):
    await startup(self, sockets)
    loop_thread.append(threading.get_ident())
    async def ticks():
        while True:
            tick[0] = time.perf_counter()
            await asyncio.sleep(0.002)
    asyncio.get_running_loop().create_task(ticks())
    threading.Thread(target=watch, daemon=True).start()
def watch():
    written = None
    while True:
        time.sleep(0.01)
        stall = time.perf_counter() - tick[0]
        if stall > {STALL_MS} / 1e3 and written != tick[0]:
            frame = sys._current_frames().get(loop_thread[0])
            stack = "".join(traceback.format_stack(frame)[-8:]) if frame is not None else ""
            out.write(f"stall of {{stall * 1e3:.0f}}+ ms at {{time.time():.2f}}\\n{{stack}}\\n")
            written = tick[0]
uvicorn.server.Server.startup = watched
main(["serve", *args])
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
