"""Fixtures for the page's tests in a real browser: `scmj serve` in a subprocess on 127.0.0.1 with a temporary
database, and Debian's chromium driven by Playwright (never a downloaded browser). The player's taps are in
tests/webpage.py. Without /usr/bin/chromium the browser tests skip with that reason (CI installs it, .ci/run).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from webpage import LAPTOP, TIMEOUT_MS, NewPage
from webtable import Server

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real `scmj serve` (bots answer at once, the next hand follows at once)."""
    # Every page of the session comes from 127.0.0.1: the per-address limits (docs/protocol.md "Limits", meant
    # for strangers on a network) are off, or the suite's rooms would run into --rooms-per-address.
    no_limits = [f"--{flag}=0" for flag in ("room-rate", "rooms-per-address", "join-rate", "lookup-rate")]
    no_limits += ["--connect-rate=0", "--connections-per-address=0"]
    db = tmp_path_factory.mktemp("serve") / "rooms.db"
    # 复盘 with 2 play-outs per option (the library default, 24, takes minutes on this machine).
    running = Server(db, "--log-level", "warning", "--review-samples", "2", *no_limits, hold=600).start()
    try:
        yield running.http
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one module at a time: Playwright's sync API keeps an event loop running while it is open,
    and a test that runs its own (``asyncio.run``, the server's tests) after it in the same worker would fail."""
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
