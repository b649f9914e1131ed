"""`scmj play` in a real terminal: tmux runs it at a fixed size; keys discard a tile; `q` quits cleanly.

Polls the pane with timeouts (no fixed sleeps), so a loaded machine only makes it slower. Uses its own tmux
server socket, so it never touches the user's sessions. CI installs tmux (.ci/run); without it the test skips.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
pytest.importorskip("textual")

WIDTH, HEIGHT = 120, 40
TIMEOUT = 90.0  # seconds for any one thing to show on a loaded machine


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-u", "-L", self.socket, *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "play")

    def wait_for(self, what: str, test: Callable[[str], bool]) -> str:
        deadline = time.monotonic() + TIMEOUT
        text = ""
        while time.monotonic() < deadline:
            try:
                text = self.screen()
            except RuntimeError:
                text = ""
            if test(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; the screen was:\n{text}")


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    t = Tmux(f"scmj-test-{uuid.uuid4().hex[:8]}")
    try:
        yield t
    finally:
        subprocess.run(["tmux", "-L", t.socket, "kill-server"], capture_output=True, timeout=30, check=False)


def hand_of(screen: str) -> tuple[list[str], str | None]:
    """The player's concealed tiles in order and the drawn tile set apart (two spaces before its box)."""
    (line,) = [ln for ln in screen.splitlines() if re.match(r"\s*Hand\s+\S[1-9][mps]\S", ln)]
    tiles = re.findall(r"(\s*)\S([1-9][mps])\S", line.split("Hand", 1)[1])
    drawn = tiles[-1][1] if tiles and len(tiles[-1][0]) >= 2 and len(tiles) > 1 else None
    concealed = [t for _, t in (tiles[:-1] if drawn else tiles)]
    return concealed, drawn


def test_play_in_a_real_terminal(tmux: Tmux, tmp_path: Path) -> None:
    status = tmp_path / "status"
    play = [sys.executable, "-m", "sichuan_mahjong.cli", "play", "--seed", "1", "--lang", "en", "--tiles", "compact"]
    play += ["--delay", "0", "--hands", "1", "--records", str(tmp_path / "records")]
    command = f"{shlex.join(play)}; echo $? > {shlex.quote(str(status))}"
    tmux("new-session", "-d", "-s", "play", "-x", str(WIDTH), "-y", str(HEIGHT), command)

    screen = tmux.wait_for("the table on my turn", lambda s: "Your turn" in s and "Keys:" in s)
    assert "Hand 1/1" in screen and "seed 1" in screen
    before, drawn = hand_of(screen)
    assert drawn is not None and len(before) == 13, screen  # seed 1: the player deals, 14 tiles

    tmux("send-keys", "-t", "play", "z")  # a key the table does not know: a message, nothing else
    tmux.wait_for("the refusal", lambda s: "does nothing" in s)
    assert hand_of(tmux.screen()) == (before, drawn)

    gone = before[-1]
    tmux("send-keys", "-t", "play", "Left", "Enter")  # the tile left of the drawn one
    screen = tmux.wait_for("my discard in the log", lambda s: f"You discard {gone}" in s)
    expected = sorted([*before[:-1], drawn], key=lambda t: ("mps".index(t[1]), t[0]))
    screen = tmux.wait_for(
        "my hand without the discard",
        lambda s: "Your turn" in s or "Settlement" in s or ("discards" in s and hand_of(s)[0] == expected),
    )
    if "Settlement" not in screen:
        assert hand_of(screen)[0] == expected, screen

    tmux("send-keys", "-t", "play", "q")
    if "Settlement" not in screen:  # mid-hand, q asks first
        tmux.wait_for("the question before quitting", lambda s: "quit now?" in s)
        tmux("send-keys", "-t", "play", "y")
    deadline = time.monotonic() + TIMEOUT
    while not status.exists() or not status.read_text().strip():
        assert time.monotonic() < deadline, f"scmj play did not quit; the screen was:\n{tmux.screen()}"
        time.sleep(0.1)
    assert status.read_text().strip() == "0"
    if "Settlement" not in screen:
        assert [p.name.endswith("-unfinished.jsonl") for p in (tmp_path / "records").glob("*-hand1*")] == [True]


def test_an_80x24_terminal_shows_the_whole_table_and_quitting_says_where_the_record_is(
    tmux: Tmux, tmp_path: Path
) -> None:
    """The smallest common terminal, in Chinese: every seat, the hand, the key line; q asks, y quits and the
    shell shows the totals and the saved record."""
    status = tmp_path / "status"
    play = [sys.executable, "-m", "sichuan_mahjong.cli", "play", "--seed", "1", "--lang", "zh", "--tiles", "zh"]
    play += ["--delay", "0", "--hands", "2", "--fresh", "--records", str(tmp_path / "records")]
    command = f"{shlex.join(play)}; echo $? > {shlex.quote(str(status))}; sleep 30"
    tmux("new-session", "-d", "-s", "play", "-x", "80", "-y", "24", command)
    screen = tmux.wait_for("the table on my turn", lambda s: "轮到你了" in s and "键：" in s)
    lines = screen.splitlines()
    assert len(lines) <= 24 and "第 1/2 局" in lines[0] and "规则 默认（血战下雨）" in lines[0], screen
    for seat in ("下家(1)", "对家(2)", "上家(3)", "你 "):
        assert seat in screen, screen
    assert re.search(r"手牌\s+[一二三四五六七八九][萬筒條]", screen), screen  # the hand, drawn flat
    assert not re.search(r"[A-Za-z]{4,}", screen), screen  # no English words, the bots' tiers included
    tmux("send-keys", "-t", "play", "q")
    tmux.wait_for("the question before quitting", lambda s: "现在退出吗" in s)
    tmux("send-keys", "-t", "play", "y")
    shell = tmux.wait_for("the farewell", lambda s: "未打完的这一局已保存" in s)
    assert "累计：你 +0" in shell and "-hand1-unfinished.jsonl" in shell.replace("\n", ""), shell
    deadline = time.monotonic() + TIMEOUT
    while not status.exists() or not status.read_text().strip():
        assert time.monotonic() < deadline, "scmj play did not exit"
        time.sleep(0.1)
    assert status.read_text().strip() == "0"
