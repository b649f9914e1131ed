"""The end-of-hand screen: every win with its fan, every payment with its reason, 查叫, hands and totals."""

from __future__ import annotations

import dataclasses

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from sichuan_mahjong.record import RecordError
from sichuan_mahjong.text import meld_text, payment_reason, seat_name, tile_text, tiles_line, tr
from sichuan_mahjong.tiles import Tile
from sichuan_mahjong.tui.replay import HandReplay, replays_of_file, replays_of_text
from sichuan_mahjong.tui.replay_screen import ReplayScreen
from sichuan_mahjong.tui.session import HUMAN, HandSummary, Table
from sichuan_mahjong.tui.widgets import scroll_by_key

__all__ = ["HandOverScreen", "replays_of_summary", "settlement_text"]


class HandOverScreen(ModalScreen[str]):
    """The end of a hand: the totals first, then every win with its fan, every payment with its reason, 查叫
    and every hand. The page scrolls with ↑/↓, PgUp/PgDn, Home/End; its keys stay on the last line."""

    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    #over-frame { width: 96%; height: 96%; border: thick $success; background: $surface; }
    #over-box { height: 1fr; padding: 0 1; }
    #over-keys { height: auto; padding: 0 1; text-style: bold reverse; }
    """

    def __init__(self, summary: HandSummary, table: Table) -> None:
        super().__init__()
        self.summary = summary
        self.table = table

    def compose(self) -> ComposeResult:
        lang = self.table.settings.lang
        with Vertical(id="over-frame"):
            with VerticalScroll(id="over-box"):
                yield Static(settlement_text(self.summary, self.table), id="over-text")
            keys = tr("match_over" if self.table.match.is_over else "continue", lang)
            yield Static(keys, id="over-keys", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("enter", "space"):
            self.dismiss("next")
        elif event.key == "q":
            self.dismiss("quit")
        elif event.key == "v":
            self.open_replay()
        else:
            scroll_by_key(self.query_one("#over-box", VerticalScroll), event.key)

    def open_replay(self) -> None:
        """This hand, step by step from its record; closing it comes back here."""
        try:
            hands = replays_of_summary(self.summary)
        except RecordError as exc:  # pragma: no cover - the table wrote the record itself
            self.app.notify(str(exc), severity="error")
            return
        settings = self.table.settings
        self.app.push_screen(ReplayScreen(hands, settings.lang, settings.tiles))

    def on_click(self, event: events.Click) -> None:
        self.dismiss("next")


def replays_of_summary(summary: HandSummary) -> list[HandReplay]:
    """A finished hand's record, ready to step through: the saved file, or the same text when none was saved.

    The record holds this one hand; it is numbered as the match numbers it (the replay of hand 2 says so).
    """
    if summary.record is not None and summary.record.exists():
        hands = replays_of_file(summary.record)
    else:
        hands = replays_of_text(summary.record_text)
    return [dataclasses.replace(hand, number=summary.number) for hand in hands]


def settlement_text(summary: HandSummary, table: Table) -> Text:
    """The end-of-hand page. Shows every hand: the hand is over, so nothing is hidden any more."""
    settings = table.settings
    lang, style = settings.lang, settings.tiles
    s = summary.settlement
    out = Text()

    def name(seat: int) -> str:
        return seat_name(seat, lang, HUMAN)

    out.append(f"{tr('settlement', lang)} — {tr('hand_of', lang, summary.number, settings.hands)}\n", style="bold")
    reason = "reason_drawn" if s.reason == "wall" and not s.wins else f"reason_{s.reason}"
    out.append(tr(reason, lang) + "\n")
    colon = "：" if lang == "zh" else ": "
    out.append(f"{tr('this_hand', lang)}{colon}", style="bold")
    out.append("   ".join(f"{name(seat)} {s.deltas[seat]:+d}" for seat in range(4)) + "\n")
    out.append(f"{tr('totals', lang)}{colon}", style="bold")
    out.append("   ".join(f"{name(seat)} {summary.totals[seat]:+d}" for seat in range(4)) + "\n")
    if summary.save_error is not None:
        out.append(tr("save_failed", lang, summary.save_error) + "\n", style="bold red")
    out.append("\n" + tr("wins", lang) + "\n", style="bold underline")
    if not s.wins:
        out.append("  -\n")
    for win in s.wins:
        tile = tile_text(Tile(win.tile), style).strip()
        how = tr("self_draw", lang) if win.from_seat is None else tr("from", lang, name(win.from_seat))
        if win.robbed_kong:
            how += f" ({tr('robbed', lang)})"
        out.append(f"  {name(win.seat)}: {tile}  {how}\n", style="green")
        out.append(f"    {win.score.describe(lang)}\n")
    out.append("\n" + tr("payments", lang) + "\n", style="bold underline")
    if not s.payments:
        out.append(f"  {tr('no_payments', lang)}\n")
    for p in s.payments:
        out.append(f"  {tr('pays', lang, name(p.payer), name(p.payee), p.amount, payment_reason(p.reason, lang))}\n")
    if s.reason == "wall":
        out.append("\n" + tr("check_ready", lang) + "\n", style="bold underline")
        won = {w.seat for w in s.wins}
        for seat in range(4):
            if seat in won:
                continue
            state = tr("is_ready", lang) if s.ready[seat] else tr("not_ready", lang)
            out.append(f"  {name(seat)}: {state}\n")
    out.append("\n" + tr("hands", lang) + "\n", style="bold underline")
    for seat, view in enumerate(summary.hands):
        melds = "  ".join(meld_text(m, lang, style) for m in view.melds[seat])
        concealed = tiles_line(sorted(view.tiles), style)
        out.append(f"  {name(seat)}: {concealed}" + (f"   | {melds}" if melds else "") + "\n")
    out.append("\n")
    if not table.match.is_over:
        out.append(tr("next_dealer", lang, name(s.next_dealer)) + "\n")
    if summary.record is not None:
        out.append(tr("saved", lang, summary.record) + "\n", style="dim")
    review = table.review_command()
    if table.match.is_over and review is not None:
        out.append(tr("review_hint", lang, review) + "\n", style="bold")
    return out
