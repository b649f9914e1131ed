"""What a player can set for a table, from the command line or the settings screen; plain data, no Textual.

Settings that change the game (rules, bots, number of hands, seed) take effect with a new match; the rest
(language, tile style, timer, bot pace) apply at once.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sichuan_mahjong.rules import PRESETS, Rules, RulesError
from sichuan_mahjong.text import LANGS, TILE_STYLES

__all__ = [
    "DEFAULT_BOTS",
    "GAME_FIELDS",
    "PlaySettings",
    "SettingsError",
    "check_records_dir",
    "default_config_path",
    "default_records_dir",
    "load_saved",
    "parse_options",
    "save_settings",
]

DEFAULT_BOTS: tuple[str, str, str] = ("expert", "expert", "expert")
#: The fields whose change needs a new match.
GAME_FIELDS = frozenset({"preset", "options", "bots", "hands", "seed"})
#: The fields kept between runs (the settings screen and the t / l keys change them); a seed is a match's own.
SAVED_FIELDS = ("preset", "options", "bots", "hands", "lang", "tiles", "timer", "delay")


class SettingsError(ValueError):
    """A setting that cannot be used: an unknown bot, language or tile style, a bad number."""


def default_records_dir() -> Path:
    """``$XDG_DATA_HOME/sichuan_mahjong/records`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sichuan_mahjong" / "records"


def default_config_path() -> Path:
    """``$XDG_CONFIG_HOME/sichuan_mahjong/play.json`` (``~/.config/...`` when unset): the settings kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sichuan_mahjong" / "play.json"


def load_saved(path: Path) -> dict[str, Any]:
    """The settings saved at ``path`` ({} when there are none); a file that cannot be used is a SettingsError."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise SettingsError(f"saved settings {path}: cannot be read ({exc}); --fresh ignores them") from None
    if not isinstance(raw, dict):
        raise SettingsError(f"saved settings {path}: expected a JSON object; --fresh ignores them")
    saved = {k: v for k, v in raw.items() if k in SAVED_FIELDS}
    try:
        PlaySettings().replace(**{k: tuple(v) if k == "bots" else v for k, v in saved.items()})
    except (TypeError, ValueError) as exc:
        raise SettingsError(f"saved settings {path}: {exc}; --fresh ignores them") from None
    return saved


def save_settings(settings: PlaySettings) -> None:
    """Keep the settings at ``settings.config`` for the next run (nothing when it is None); OSError says why not."""
    path = settings.config
    if path is None:
        return
    data = {k: getattr(settings, k) for k in SAVED_FIELDS}
    data["options"], data["bots"] = dict(settings.options), list(settings.bots)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)


def check_records_dir(folder: Path) -> None:
    """Make sure finished hands can be saved in ``folder`` (created if missing) before a hand is played."""
    if folder.exists() and not folder.is_dir():
        raise SettingsError(f"--records {folder}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SettingsError(f"--records {folder}: cannot create the folder ({exc.strerror or exc})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SettingsError(f"--records {folder}: the folder is not writable")


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """``["max_fan=4", "flower_pig=on"]`` -> a dict, each KEY=VALUE checked for its ``=``."""
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"option {item!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """One table's settings. The human sits at seat 0; ``bots`` are the tiers of seats 1, 2 and 3."""

    preset: str = "seed"
    options: Mapping[str, str] = field(default_factory=dict)
    bots: tuple[str, ...] = DEFAULT_BOTS
    hands: int = 8
    seed: int = 0
    lang: str = "zh"
    tiles: str = "compact"
    timer: float | None = None  # seconds before a claim passes by itself; None: wait for the player
    delay: float = 0.3  # seconds between the bots' moves, so a person can follow them
    records: Path | None = None  # where each hand is saved; None: not saved
    config: Path | None = None  # where changed settings are kept for the next run; None: not kept

    def __post_init__(self) -> None:
        from sichuan_mahjong.agents import UnknownAgentError, check_agent

        if len(self.bots) != 3:
            raise SettingsError(f"three bots are needed (seats 1, 2, 3), got {len(self.bots)}: {','.join(self.bots)}")
        for name in self.bots:
            try:
                check_agent(name)  # a registered name, or module:factory (your own bot)
            except UnknownAgentError as exc:
                raise SettingsError(str(exc)) from None
        if self.lang not in LANGS:
            raise SettingsError(f"language must be one of {', '.join(LANGS)}, got {self.lang!r}")
        if self.tiles not in TILE_STYLES:
            raise SettingsError(f"tile style must be one of {', '.join(TILE_STYLES)}, got {self.tiles!r}")
        if self.hands < 1:
            raise SettingsError(f"a match needs at least one hand, got {self.hands}")
        if self.timer is not None and self.timer <= 0:
            raise SettingsError(f"the timer must be a positive number of seconds, got {self.timer}")
        if self.delay < 0:
            raise SettingsError(f"the bots' delay cannot be negative, got {self.delay}")
        if self.preset not in PRESETS:
            raise SettingsError(f"unknown preset {self.preset!r}; presets: {', '.join(PRESETS)}")
        self.rules  # noqa: B018 - an unknown option or a bad value raises RulesError now, not mid-game

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset).with_options(self.options)

    def replace(self, **changes: object) -> PlaySettings:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def needs_new_match(self, other: PlaySettings) -> bool:
        return any(getattr(self, f) != getattr(other, f) for f in GAME_FIELDS)
