"""Your bot everywhere: ``module:factory`` (any importable callable returning an Agent) wherever a bot name goes —
make_agent, a tournament of any size, duplicate, worker processes, ``scmj simulate --players``, ``scmj play
--bots`` — and every way a spec can be wrong named in one line."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents import UnknownAgentError, make_agent
from sichuan_mahjong.cli import main
from sichuan_mahjong.sim.runner import play_hand, run_tournament

TESTS = Path(__file__).resolve().parents[1]
SRC = TESTS.parent / "src"
MINE = "spec_bots:make"


def test_make_agent_builds_your_bot_seeded() -> None:
    a, b = make_agent(MINE, 3), make_agent(MINE, 3)
    assert a.name == "pinball" and type(a).__module__ == "spec_bots"
    games = [sm.Game(sm.Rules.preset("app"), seed=8) for _ in range(2)]
    for game, bot in zip(games, (a, b), strict=True):
        play_hand(game, [bot, make_agent("random", 1), make_agent("random", 2), make_agent("random", 3)])
    assert games[0].result.deltas == games[1].result.deltas
    assert make_agent("spec_bots:unseeded").name == "pinball"  # a factory without a seed parameter


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_bot_module:make", "no module named 'no_such_bot_module'"),
        ("spec_bots:nothing", "module 'spec_bots' has no attribute 'nothing'"),
        ("spec_bots:NOT_CALLABLE", "spec_bots.NOT_CALLABLE is a int, not a factory"),
        ("spec_bots:not_an_agent", r"not_an_agent\(seed\) returned int, not an Agent"),
        ("spec_bots:broken", r"broken\(seed\) raised RuntimeError: no weights file"),
        ("spec_bots_broken:make", "importing 'spec_bots_broken' failed: No module named 'a_dependency_nobody"),
        ("spec_bots:", "a spec is module:factory"),
    ],
)
def test_a_wrong_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(UnknownAgentError, match=f"bot '{spec}': {message}"):
        make_agent(spec, 0)


def test_a_tournament_with_your_bot_is_the_same_inline_and_on_workers() -> None:
    players = [MINE, "expert", "efficient", "random"]
    inline = run_tournament(players, 8, sm.Rules.preset("app"), seed=2, duplicate=True)
    pooled = run_tournament(players, 8, sm.Rules.preset("app"), seed=2, duplicate=True, jobs=2)
    assert inline.to_dict()["mean"] == pooled.to_dict()["mean"] and inline.to_dict()["hands"] == 8
    assert inline.to_dict()["players"] == players


def _scmj(tmp_path: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``scmj`` as its console script runs: a script file (so the current directory is not on sys.path)."""
    script = tmp_path / "scmj.py"
    script.write_text("import sys\nfrom sichuan_mahjong.cli import main\nsys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, str(script), *args]
    return subprocess.run(command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_scmj_simulate_plays_your_bot_from_the_current_directory(tmp_path: Path) -> None:
    args = ["simulate", "--players", f"{MINE},expert,expert,expert", "--hands", "8", "--duplicate", "--json"]
    args += ["--rules", "app", "--jobs", "2"]
    done = _scmj(tmp_path, args, cwd=TESTS)  # spec_bots.py sits in the current directory, as yours would
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["players"] == [MINE, "expert", "expert", "expert"] and data["hands"] == 8
    assert len(data["ci95"]) == 4
    gone = _scmj(tmp_path, ["simulate", "--players", f"{MINE},expert,expert,expert", "--hands", "4"], cwd=tmp_path)
    assert gone.returncode == 2 and gone.stdout == ""
    assert gone.stderr.startswith("scmj simulate: error: bot 'spec_bots:make': no module named 'spec_bots'")
    assert gone.stderr.count("\n") == 1


def test_scmj_simulate_names_a_bad_spec_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "4", "--players", "spec_bots:not_an_agent,expert,expert,expert"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj simulate: error: bot 'spec_bots:not_an_agent'") and err.count("\n") == 1


def test_scmj_play_seats_your_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    from sichuan_mahjong.tui import app
    from sichuan_mahjong.tui.session import Table

    started: list[Table] = []
    monkeypatch.setattr(app.MahjongApp, "run", lambda self: started.append(Table(self.settings)))
    assert main(["play", "--bots", f"{MINE},expert,{MINE}", "--no-records", "--seed", "1"]) == 0
    (table,) = started
    assert [table.bots[s].name for s in (1, 2, 3)] == ["pinball", "expert", "pinball"]


def test_scmj_play_names_a_bad_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "spec_bots:nothing,expert,expert", "--no-records", "--fresh"]) == 2
    err = capsys.readouterr().err
    assert "scmj play: error: bot 'spec_bots:nothing': module 'spec_bots' has no attribute 'nothing'" in err


def test_the_table_settings_screen_shows_your_bot(tmp_path: Path) -> None:
    """The settings page (key o) lists a module:factory bot of the match beside the built-in tiers."""
    pytest.importorskip("textual")
    from textual.widgets import Select

    from sichuan_mahjong.tui.app import MahjongApp, SettingsScreen
    from sichuan_mahjong.tui.settings import PlaySettings

    async def go() -> None:
        bots = (MINE, "expert", "expert")
        app = MahjongApp(PlaySettings(bots=bots, seed=1, delay=0, records=None, config=tmp_path / "c.json"))
        async with app.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            await pilot.press("o")
            assert isinstance(app.screen, SettingsScreen)
            assert app.screen.query_one("#bot1", Select).value == MINE
            await pilot.press("escape", "q")

    asyncio.run(go())
