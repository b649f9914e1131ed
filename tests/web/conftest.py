"""Fixtures for the page's tests in a real browser: `scmj serve` in a subprocess on 127.0.0.1 with a temporary
database, and Debian's chromium driven by Playwright (never a downloaded browser). The player's taps are in
tests/webpage.py. Without /usr/bin/chromium the browser tests skip with that reason (CI installs it, .ci/run).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from webpage import LAPTOP, TIMEOUT_MS, NewPage

CHROMIUM = Path("/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"scmj serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if json.load(response).get("ok"):
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"scmj serve did not answer /healthz within 30 s:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real `scmj serve` (bots answer at once, the next hand follows quickly)."""
    folder = tmp_path_factory.mktemp("serve")
    port = _free_port()
    log = folder / "serve.log"
    command = [
        sys.executable, "-m", "sichuan_mahjong", "serve",
        "--host", "127.0.0.1", "--port", str(port), "--db", str(folder / "rooms.db"),
        "--bot-delay", "0", "--pause", "1", "--hold", "600", "--rate", "200", "--log-level", "warning",
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; CI installs it)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM))
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def new_page(browser: Browser, server: str) -> Iterator[NewPage]:
    """new_page(viewport=..., lang=...) -> a page in a fresh context (its own localStorage), errors collected."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(viewport: ViewportSize | None = None, **options: Any) -> Page:
        context = browser.new_context(viewport=viewport or LAPTOP, base_url=server, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == [], f"the page threw: {errors}"
