"""The public facts shown after a seat's name, alike on the live table and in the replay: void, 报叫, wins."""

from __future__ import annotations

from rich.text import Text

from sichuan_mahjong.game import Observation
from sichuan_mahjong.tui.session import HUMAN
from sichuan_mahjong.tui.text import seat_name, suit_name, tile_text, tr


def append_seat_badges(head: Text, view: Observation, seat: int, lang: str, style: str) -> None:
    """Append seat ``seat``'s revealed void, its 报叫 and each of its wins (tile, from whom, fan) to ``head``."""
    void = view.voids[seat]
    if void is not None:
        head.append(f"  {tr('void', lang, suit_name(void, lang))}", style="magenta")
    if view.ready[seat]:
        head.append(f"  {tr('ready', lang)}", style="bold cyan")
    for win in view.wins:
        if win.seat == seat:
            t = tile_text(win.tile, style).strip()
            if win.from_seat is None:
                text = tr("won_self", lang, t)
            else:
                text = tr("won_from", lang, t, seat_name(win.from_seat, lang, HUMAN))
            head.append(f"  {text} {win.fan}{'番' if lang == 'zh' else ' fan'}", style="bold green")
