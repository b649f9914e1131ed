"""`scmj simulate --backend ray --address`: joining a Ray cluster started on its own, as a user would.

The cluster is a separate `ray start --head --block` process on loopback only, with its own temp dir, port and
token, so it touches nothing another Ray instance on the machine uses. Its processes share one process group
(the `ray start` process leads it), so stopping it never needs the machine-wide `ray stop`.

Ray is a dev dependency: when it is missing these tests fail, they do not skip.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest
import ray  # noqa: F401  (fails loudly when Ray is not installed)

from sichuan_mahjong.cli import main

BIN = Path(sys.executable).parent
PLAYERS = "efficient,random,random,random"
#: Generous for a loaded 2-core machine: a head usually starts in 3-5 s there, a run of 16 hands in 5-10 s.
START_TIMEOUT = 40.0
RUN_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


def _ray_env(token: str) -> dict[str, str]:
    """The environment of the cluster and of its client: loopback, a private token, no usage reports.

    Ray turns a loopback address into the machine's network address unless it is told this is a one-machine
    cluster (RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 is that switch on every platform), and it enables token
    authentication on new clusters, reading the token from ~/.ray unless RAY_AUTH_TOKEN gives it.
    """
    env = dict(os.environ)
    for key in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH"):
        env.pop(key, None)
    env.update(
        RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=token,
        RAY_USAGE_STATS_ENABLED="0",
    )
    return env


def _processes_under(path: str) -> list[int]:
    """Pids of live processes whose command line names ``path`` (every Ray process is told its temp dir)."""
    pids: list[int] = []
    if not Path("/proc").is_dir():
        return pids
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if path.encode() in cmdline and state != "Z":
            pids.append(int(entry.name))
    return pids


def _stop(head: subprocess.Popen[bytes], temp_dir: str) -> None:
    """Stop this cluster only: SIGTERM to `ray start` (it shuts its node down), then SIGKILL whatever is left."""
    if head.poll() is None:
        head.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            head.wait(timeout=STOP_TIMEOUT)
    with suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGKILL)  # the group `ray start` leads: gcs_server, raylet, agents, workers
    head.wait(timeout=STOP_TIMEOUT)
    deadline = time.monotonic() + STOP_TIMEOUT
    while (left := _processes_under(temp_dir)) and time.monotonic() < deadline:
        for pid in left:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
    assert not _processes_under(temp_dir), "Ray processes of the test cluster outlived it"


@dataclass(frozen=True)
class Cluster:
    address: str
    temp_dir: Path
    token: str

    def tasks_run(self, name: str) -> int:
        """Tasks named ``name`` its workers ran (each worker's stdout log gets a line per task it starts)."""
        logs = self.temp_dir.glob("session_*/logs/worker-*.out")
        return sum(f.read_text(errors="replace").count(f":task_name:{name}\n") for f in logs)


@contextmanager
def ray_cluster() -> Iterator[Cluster]:
    """A one-node Ray cluster with 2 CPUs on 127.0.0.1 in its own process group, stopped however the test ends."""
    ray_cli = BIN / "ray"
    if not ray_cli.exists():
        pytest.fail(f"the `ray` command is missing next to {sys.executable}: pip install -e '.[dev]'")
    token = secrets.token_hex(32)
    # A short temp dir: Ray puts Unix sockets under it, and their paths must stay under 108 bytes.
    temp_dir = tempfile.mkdtemp(prefix="scmj-ray-", dir="/tmp")
    port = _free_port()
    log_path = Path(temp_dir) / "ray-start.log"
    with log_path.open("wb") as log:
        head = subprocess.Popen(
            [str(ray_cli), "start", "--head", "--block", "--port", str(port), "--node-ip-address", "127.0.0.1",
             "--num-cpus", "2", "--include-dashboard=false", "--disable-usage-stats", "--temp-dir", temp_dir],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=_ray_env(token),
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not (_listening(port) and b"Ray runtime started" in log_path.read_bytes()):
            if head.poll() is not None:
                pytest.fail(f"`ray start` exited with {head.returncode}:\n{log_path.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not start in {START_TIMEOUT:.0f} s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.25)
        yield Cluster(f"127.0.0.1:{port}", Path(temp_dir), token)
    finally:
        _stop(head, temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)


def _scmj(
    *args: str, env: dict[str, str] | None = None, timeout: float = RUN_TIMEOUT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "scmj"), "simulate", *args],
        capture_output=True, text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip


def _strip(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ("seconds", "hands_per_second")}


RUN = ("--hands", "16", "--duplicate", "--players", PLAYERS, "--seed", "11", "--rules", "bloody", "--json")


def test_address_joins_a_separate_cluster_and_matches_the_process_backend(capsys: pytest.CaptureFixture[str]) -> None:
    with ray_cluster() as cluster:
        done = _scmj(*RUN, "--backend", "ray", "--address", cluster.address, env=_ray_env(cluster.token))
        assert done.returncode == 0, done.stderr[-3000:]
        # The work ran on that cluster's workers, not on a Ray instance of its own, with the package scmj shipped.
        assert cluster.tasks_run("run_chunk") >= 1
        assert list(cluster.temp_dir.glob("session_*/runtime_resources/**/sichuan_mahjong/sim/runner.py"))
    on_ray = json.loads(done.stdout)
    assert main(["simulate", *RUN, "--backend", "process", "--jobs", "2"]) == 0
    on_processes = json.loads(capsys.readouterr().out)
    assert on_ray["hands"] == 16 and on_ray["rules"]["mode"] == "bloody"
    assert _strip(on_ray) == _strip(on_processes)


def test_address_where_nothing_listens_fails_in_one_line() -> None:
    port = _free_port()  # bound and released: nothing listens there now
    started = time.monotonic()
    done = _scmj("--hands", "4", "--backend", "ray", "--address", f"127.0.0.1:{port}", timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in done.stderr
    assert "ray start --head" in done.stderr
