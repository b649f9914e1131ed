"""``python -m sichuan_mahjong`` is ``scmj``."""

from sichuan_mahjong.cli import entry

entry()
