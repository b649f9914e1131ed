"""What a player can set for a table, from the command line or the settings screen; plain data, no Textual.

Settings that change the game (rules, bots, number of hands, seed) take effect with a new match; the rest
(language, tile style, timer, bot pace) apply at once.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sichuan_mahjong.rules import PRESETS, Rules, RulesError
from sichuan_mahjong.text import LANGS, TILE_STYLES

__all__ = [
    "DEFAULT_BOTS",
    "GAME_FIELDS",
    "PlaySettings",
    "SettingsError",
    "check_records_dir",
    "default_records_dir",
    "parse_options",
]

DEFAULT_BOTS: tuple[str, str, str] = ("expert", "expert", "expert")
#: The fields whose change needs a new match.
GAME_FIELDS = frozenset({"preset", "options", "bots", "hands", "seed"})


class SettingsError(ValueError):
    """A setting that cannot be used: an unknown bot, language or tile style, a bad number."""


def default_records_dir() -> Path:
    """``$XDG_DATA_HOME/sichuan_mahjong/records`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sichuan_mahjong" / "records"


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

    def __post_init__(self) -> None:
        from sichuan_mahjong.agents import agent_names

        if len(self.bots) != 3:
            raise SettingsError(f"three bots are needed (seats 1, 2, 3), got {len(self.bots)}: {','.join(self.bots)}")
        known = agent_names()
        for name in self.bots:
            if name not in known:
                raise SettingsError(f"unknown bot {name!r}; bots: {', '.join(known)}")
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
