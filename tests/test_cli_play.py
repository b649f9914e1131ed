"""`scmj play`: the command line builds the table's settings; bad input exits 2 with one line; no Textual needed
to import the package or read --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sichuan_mahjong.cli import main
from sichuan_mahjong.tui.settings import PlaySettings, default_config_path


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> list[PlaySettings]:
    """Catch the app instead of running it in the test's terminal (with a config folder of its own)."""
    pytest.importorskip("textual")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    from sichuan_mahjong.tui import app

    calls: list[PlaySettings] = []

    def fake_run(self: app.MahjongApp) -> None:
        calls.append(self.settings)

    monkeypatch.setattr(app.MahjongApp, "run", fake_run)
    return calls


def test_options_reach_the_table(started: list[PlaySettings], tmp_path: Path) -> None:
    argv = ["play", "--seed", "4", "--hands", "2", "--rules", "app", "--option", "max_fan=3", "--bots", "random"]
    argv += ["--lang", "en", "--tiles", "zh", "--timer", "5", "--delay", "0", "--records", str(tmp_path)]
    assert main(argv) == 0
    (s,) = started
    assert (s.seed, s.hands, s.preset, s.lang, s.tiles, s.timer, s.delay) == (4, 2, "app", "en", "zh", 5.0, 0.0)
    assert s.bots == ("random", "random", "random") and s.rules.max_fan == 3 and s.records == tmp_path


def test_defaults(started: list[PlaySettings], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["play"]) == 0
    assert main(["play", "--no-records"]) == 0
    a, b = started
    assert a.bots == ("expert", "expert", "expert") and a.preset == "seed" and a.hands == 8 and a.timer is None
    assert a.records == tmp_path / "sichuan_mahjong" / "records" and b.records is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "expert,nobody,expert"], "unknown bot 'nobody'"),
        (["--bots", "expert,expert"], "three bots"),
        (["--option", "bogus=1"], "unknown option 'bogus'"),
        (["--option", "max_fan"], "expected KEY=VALUE"),
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--hands", "0"], "at least one hand"),
        (["--timer", "-1"], "timer"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj play: error:") and message in err and err.count("\n") == 1


def test_without_textual_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "sichuan_mahjong.tui.app", None)  # import fails as if Textual were missing
    assert main(["play", "--no-records"]) == 2
    assert "pip install 'sichuan-mahjong[tui]'" in capsys.readouterr().err


def test_the_package_and_help_do_not_import_textual() -> None:
    code = (
        "import sys, contextlib, io\n"
        "import sichuan_mahjong, sichuan_mahjong.tui.session\n"
        "import sichuan_mahjong.refusals, sichuan_mahjong.tui.replay\n"
        "from sichuan_mahjong.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    main(['play', '--help'])\n"
        "assert '--seed' in out.getvalue(), out.getvalue()\n"
        "assert 'textual' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_replay_option_opens_the_replay_screen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from sichuan_mahjong.game import Game
    from sichuan_mahjong.record import save_hand
    from sichuan_mahjong.tui import app

    game = Game(seed=3)
    while not game.is_over:
        game.step({s: legal[0] for s, legal in game.to_act().items()})
    path = tmp_path / "hand.jsonl"
    save_hand(game, path)
    opened: list[object] = []
    monkeypatch.setattr(app.MahjongApp, "run", lambda self: opened.append(self.replay))
    assert main(["play", "--replay", str(path), "--lang", "en"]) == 0
    (hands,) = opened
    assert isinstance(hands, list) and len(hands) == 1 and hands[0].frames[-1].views[0] == game.view(0)


@pytest.mark.parametrize("content", [None, "not json\n"])
def test_replay_of_a_bad_file_exits_2(
    content: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("textual")
    from sichuan_mahjong.tui import app

    monkeypatch.setattr(app.MahjongApp, "run", lambda self: pytest.fail("the app must not start"))
    path = tmp_path / "hand.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["play", "--replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj play: error:") and str(path) in err and err.count("\n") == 1


@pytest.mark.parametrize("where", ["file", "proc"])
def test_a_records_folder_that_cannot_be_written_is_refused_before_play(
    where: str, started: list[PlaySettings], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "a-file" if where == "file" else Path("/proc/nope")
    if where == "file":
        target.write_text("x")
    assert main(["play", "--records", str(target)]) == 2
    err = capsys.readouterr().err
    assert started == [] and err.startswith("scmj play: error: --records") and err.count("\n") == 1, err


def test_settings_kept_from_the_last_run_are_used_unless_given(
    started: list[PlaySettings], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = default_config_path()
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"lang": "en", "hands": 3, "bots": ["random"] * 3, "tiles": "zh", "seed": 9}))
    assert main(["play", "--no-records"]) == 0
    assert main(["play", "--no-records", "--lang", "zh", "--hands", "2"]) == 0
    assert main(["play", "--no-records", "--fresh"]) == 0
    kept, given, fresh = started
    assert (kept.lang, kept.hands, kept.bots, kept.tiles, kept.config) == ("en", 3, ("random",) * 3, "zh", config)
    assert kept.seed != 9  # a seed is not kept
    assert (given.lang, given.hands, given.tiles) == ("zh", 2, "zh")
    assert (fresh.lang, fresh.hands, fresh.tiles) == ("zh", 8, "compact")
    config.write_text(json.dumps({"hands": 0}))
    assert main(["play", "--no-records"]) == 2
    err = capsys.readouterr().err
    assert "saved settings" in err and "--fresh ignores them" in err and err.count("\n") == 1
