"""``python -m sichuan_mahjong.cli`` is ``scmj``."""

from sichuan_mahjong.cli import entry

entry()
