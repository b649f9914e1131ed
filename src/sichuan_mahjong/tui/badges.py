"""A seat's public lines, drawn alike on the live table and in the replay: after its name the void, 报叫, wins and
the seat's own 过水不胡 lock when the view is that seat's (the table's human; in the replay, each seat's own
view); its melds (another seat's concealed kongs face down); and its river."""

from __future__ import annotations

from rich.text import Text

from sichuan_mahjong.game import Observation
from sichuan_mahjong.text import meld_text, seat_name, suit_name, tile_text, tr
from sichuan_mahjong.tui.session import HUMAN


def pass_lock_badge(view: Observation, lang: str) -> str | None:
    """The view's own seat's 过水不胡 badge (R9.1), naming the fan a win on a discard must beat; None unlocked."""
    lock = view.pass_lock
    if lock is None or view.is_over or not view.active[view.seat]:
        return None
    return f"过水（胡要>{lock}番）" if lang == "zh" else f"passed a win (needs >{lock} fan)"


def append_seat_badges(head: Text, view: Observation, seat: int, lang: str, style: str, human: int = HUMAN) -> None:
    """Append seat ``seat``'s revealed void, its 报叫, each of its wins (tile, from whom, fan) and, when ``view``
    is its own, its 过水不胡 lock to ``head``; seats are named as ``human`` sees them."""
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
                text = tr("won_from", lang, t, seat_name(win.from_seat, lang, human))
            head.append(f"  {text} {win.fan}{'番' if lang == 'zh' else ' fan'}", style="bold green")
    if seat == view.seat:
        badge = pass_lock_badge(view, lang)
        if badge is not None:
            head.append(f"  {badge}", style="bold red")


def meld_texts(view: Observation, seat: int, lang: str, style: str) -> list[str]:
    """Seat ``seat``'s melds as ``view`` shows them: its own concealed kongs face up, another seat's face down."""
    melds = [meld_text(m, lang, style) for m in view.melds[seat]]
    return melds + [tr("hidden_kong", lang) + " ▮▮▮▮"] * view.hidden_kongs[seat]


def river_line(view: Observation, seat: int, lang: str, style: str) -> Text:
    """Seat ``seat``'s discards in order, the one now waiting for claims highlighted."""
    river = Text()
    river.append(f"{tr('river', lang)}: ", style="dim")
    tiles = view.discards[seat]
    for i, tile in enumerate(tiles):
        pending = i == len(tiles) - 1 and view.pending_tile is not None and view.turn == seat
        river.append(tile_text(tile, style), style="reverse bold" if pending else "")
        if style != "glyph" and i < len(tiles) - 1:
            river.append(" ")
    return river
