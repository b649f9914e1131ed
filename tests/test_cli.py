"""`scmj` as a whole: no command, --version, a subcommand's own usage, a closed pipe, Ctrl-C."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.cli import main
from sichuan_mahjong.sim.runner import play_hand


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: scmj") and "a command is needed" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"scmj {metadata.version('sichuan-mahjong')}\n"


@pytest.mark.parametrize("command", ["score", "advise", "play", "simulate", "replay"])
def test_an_unknown_option_shows_the_commands_usage(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "x", "--bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: scmj {command} ") and f"scmj {command}: error: unrecognized arguments" in err


def _record(tmp_path: Path) -> Path:
    game = sm.Game(sm.Rules(), seed=3)
    play_hand(game, [make_agent("random", seed=s) for s in range(4)])
    path = tmp_path / "hand.jsonl"
    sm.save_hand(game, path)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["advise", "--json", "11123456789995m"],
        ["simulate", "--json", "--hands", "4", "--players", "random,random,random,random"],
        ["replay", "--json", "{record}"],
        ["replay", "{record}"],
    ],
)
def test_a_closed_pipe_ends_quietly(args: list[str], tmp_path: Path) -> None:
    """`scmj ... | head`: the reader goes away before scmj writes; no traceback, the status a Unix tool gives."""
    record = str(_record(tmp_path))
    argv = [sys.executable, "-m", "sichuan_mahjong.cli", *(a.format(record=record) for a in args)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == ""


def test_ctrl_c_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("sichuan_mahjong.cli.simulate.run_tournament", interrupted)
    assert main(["simulate", "--hands", "4"]) == 130
    assert capsys.readouterr().err == "scmj simulate: interrupted\n"
