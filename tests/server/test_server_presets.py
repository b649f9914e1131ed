"""GET /api/presets: every preset's rules as the lobby shows them before a room is opened."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.server.app import create_app
from sichuan_mahjong.server.room import ServerOptions


def test_presets_lists_every_preset_with_its_options(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "db.sqlite", ServerOptions(hold=60, bot_delay=0, pause=0))) as client:
        r = client.get("/api/presets")
        assert r.status_code == 200
        presets = r.json()["presets"]
        assert list(presets) == list(PRESETS)
        for name, rules in PRESETS.items():
            assert presets[name] == rules.to_dict()
        assert presets["app"]["exchange_three"] is True and presets["seed"]["exchange_three"] is False
