"""`scmj simulate` at its edges: output paths checked before any hand, results before the plot, Ctrl-C with
worker processes, and a --address where something other than Ray listens."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sichuan_mahjong.cli import main
from sichuan_mahjong.sim import SimulationError, plot, runner

pytest.importorskip("matplotlib")

FAST = ["simulate", "--hands", "4", "--players", "random,random,random,random", "--no-progress"]


@pytest.fixture
def no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any hand played is a failure: the checks must come first."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("hands were played before the output path was checked")

    monkeypatch.setattr("sichuan_mahjong.cli.simulate.run_tournament", refuse)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("/proc/nope/x.png", "--plot /proc/nope/x.png: cannot write there"),
        ("out", "--plot out: the file name must end in .png, .svg, .pdf"),
        ("out.jpeg", "must end in .png"),
        ("{tmp}/d.png", "is a folder"),
    ],
)
def test_a_plot_that_cannot_be_written_fails_before_any_hand(
    name: str, message: str, no_play: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d.png").mkdir()
    assert main([*FAST, "--plot", name.format(tmp=tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message.format(tmp=tmp_path) in err, err


def test_the_results_are_printed_before_the_plot_is_drawn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object) -> Path:
        raise SimulationError("the disk filled up")

    monkeypatch.setattr(plot, "plot_summary", broken)
    assert main([*FAST, "--plot", str(tmp_path / "p.svg")]) == 2
    out, err = capsys.readouterr()
    assert "random" in out and "disk filled up" in err


def test_the_plot_is_written_where_it_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "sub" / "p.svg"
    assert main([*FAST, "--plot", str(target)]) == 0
    assert capsys.readouterr().out.endswith(f"plot written to {target}\n")
    assert target.read_text().lstrip().startswith("<?xml") and list(target.parent.iterdir()) == [target]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "sichuan_mahjong.cli", *args]


def test_ctrl_c_stops_worker_processes_at_once() -> None:
    """Ctrl-C in a terminal goes to the whole process group: scmj and its workers."""
    # As from a terminal: a shell that starts a job in the background (make test under CI, nohup) leaves SIGINT
    # ignored, and an ignored SIGINT is inherited, so Python would never see the Ctrl-C. The first Python puts
    # SIGINT back to its default and becomes scmj (same pid).
    cli = _cli("simulate", "--hands", "100000", "--jobs", "2", "--no-progress")
    restore = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", restore, *cli],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2:  # the workers are up and playing
            assert time.monotonic() < deadline and proc.poll() is None, "no workers started"
            time.sleep(0.1)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        start = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert took < 5.0, f"took {took:.1f}s to stop"
    assert proc.returncode == 130 and out == "" and err == "scmj simulate: interrupted\n", err


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.fixture
def plain_listener() -> Iterator[str]:
    """A TCP server on loopback that accepts and says nothing, as a wrong port often does."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                held.append(conn)
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


def test_an_address_where_ray_does_not_listen_fails_fast(plain_listener: str) -> None:
    start = time.monotonic()
    done = subprocess.run(
        _cli(*FAST[:2], "4", "--backend", "ray", "--address", plain_listener),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    took = time.monotonic() - start
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    # Ray would hang for minutes; the bound leaves room for Python's start on a loaded machine
    assert f"not a Ray cluster at {plain_listener}" in done.stderr and took < 30, (took, done.stderr)


def test_the_address_check_tells_ray_from_other_servers(plain_listener: str) -> None:
    start = time.monotonic()
    with pytest.raises(SimulationError, match="not a Ray cluster"):
        runner.check_ray_address(plain_listener)
    assert time.monotonic() - start < runner.REPLY_TIMEOUT + 2  # the silence is waited for two seconds, no more
