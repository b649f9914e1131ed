"""The replay screen (Textual): a saved hand stepped through move by move, every seat's tiles shown.

Opened from the end-of-hand screen (``v``), from the table for the last finished hand (``v``), or directly by
``scmj play --replay FILE``. What it shows comes from :mod:`sichuan_mahjong.tui.replay`, i.e. from the record
replayed by :mod:`sichuan_mahjong.record`, never from the game in play. A record saved for one seat is shown from
that seat ("you"): its own tiles, the others' as backs with their count, their concealed kongs face down.

========================  ==========================================================================
→ / n, ← / p              next / previous step
Home / End                the deal / the end of the hand
PageDown / PageUp         ten steps on / back
] / [                     next / previous hand of a match record
t / l                     tile style / language
Esc, q                    back to the table (``--replay``: quit)
========================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from sichuan_mahjong.game import Observation
from sichuan_mahjong.text import (
    LANGS,
    TILE_STYLES,
    action_text,
    mode_name,
    seat_name,
    tile_text,
    tiles_line,
    tr,
)
from sichuan_mahjong.tui.badges import append_seat_badges, meld_texts, river_line
from sichuan_mahjong.tui.replay import HandReplay, ReplayFrame, frame_lines
from sichuan_mahjong.tui.widgets import KeyChip

__all__ = ["ReplayScreen"]

HUMAN = 0

_WORDS: dict[str, tuple[str, str]] = {
    "title": ("回放 · 第 {} 局{}", "Replay · hand {}{}"),
    "of_match": ("（共 {} 局）", " of {}"),
    "step": ("第 {}/{} 步", "step {}/{}"),
    "this_step": ("这一步：", "This step:"),
    "next": ("接下来：", "Next: "),
    "to_play": ("{} 出牌", "{} to play"),
    "to_answer": ("{} 决定", "{} to answer"),
    "ended": ("本局结束", "the hand is over"),
    "unfinished": ("记录到此为止（本局没有打完）", "the record ends here (the hand was not finished)"),
    "concealed": ("手牌", "tiles"),
    "one_seat": ("只有你（座位 {}）的记录：别家手牌背面朝上", "your record (seat {}): other hands face down"),
    "others": ("别家", "another seat"),
    "keys": (
        "键：→/n 下一步  ←/p 上一步  Home/End 开头/结尾  PgUp/PgDn 十步  [ ] 上一局/下一局  t 牌面  l 语言  Esc 返回",
        "Keys: →/n next  ←/p back  Home/End start/end  PgUp/PgDn ten steps  [ ] hands  t tiles  l language  Esc back",
    ),
    "first": ("已经是第一步", "This is the first step"),
    "last": ("已经是最后一步", "This is the last step"),
    "one_hand": ("记录里只有这一局", "The record holds this hand only"),
}

_CHIPS: tuple[tuple[str, str, tuple[str, str]], ...] = (
    ("home", "rchip-home", ("⏮ 开头", "⏮ start")),
    ("left", "rchip-back", ("◀ 上一步", "◀ back")),
    ("right", "rchip-next", ("下一步 ▶", "next ▶")),
    ("end", "rchip-end", ("结尾 ⏭", "end ⏭")),
    ("escape", "rchip-close", ("Esc 返回", "Esc back")),
)


def _w(key: str, lang: str, *args: object) -> str:
    zh, en = _WORDS[key]
    return (zh if lang == "zh" else en).format(*args)


class StepChip(KeyChip):
    """A clickable label on the replay screen; a click is the same as its key."""

    DEFAULT_CSS = """
    StepChip { width: auto; height: 1; padding: 0 1; margin: 0 1 0 0; background: $success 40%; text-style: bold; }
    """


class ReplayScreen(Screen[None]):
    """Step through the hands of a record; ``hand`` and ``step`` say where, ``frame`` is what is shown."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    #replay-status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    .replay-seat { height: auto; padding: 0 1; }
    .replay-seat.-turn { background: $boost; }
    #replay-step { height: auto; padding: 0 1; text-style: bold; }
    #replay-next { height: auto; padding: 0 1; color: $text-muted; }
    #replay-chips { height: 1; padding: 0 1; }
    #replay-message { height: 1; padding: 0 1; color: $warning; }
    #replay-fill { height: 1fr; }
    #replay-keys { height: auto; padding: 0 1; background: $primary-background; color: $text-muted; }
    """

    def __init__(self, hands: Sequence[HandReplay], lang: str, style: str, *, hand: int = 0, at_end: bool = False):
        super().__init__()
        if not hands:
            raise ValueError("a replay needs at least one hand")
        self.hands = list(hands)
        seats = {hand.seat for hand in self.hands}
        if len(seats) != 1:
            raise ValueError("the hands of one replay come from one record: all full, or all for one seat")
        seat = seats.pop()
        self.human = HUMAN if seat is None else seat  # who is "you": a one-seat record's seat
        self.lang = lang
        self.style = style
        self.hand = max(0, min(hand, len(self.hands) - 1))
        self.step = len(self.replay.frames) - 1 if at_end else 0
        self.message = ""

    @property
    def replay(self) -> HandReplay:
        return self.hands[self.hand]

    @property
    def frame(self) -> ReplayFrame:
        return self.replay.frames[self.step]

    def compose(self) -> ComposeResult:
        yield Static(id="replay-status", markup=False)
        for k in (1, 2, 3, 0):  # "you" at the bottom, the others in turn order above
            seat = (self.human + k) % 4
            yield Static(id=f"replay-seat-{seat}", classes="replay-seat", markup=False)
        yield Static(id="replay-step", markup=False)
        yield Static(id="replay-next", markup=False)
        with Horizontal(id="replay-chips"):
            for key, chip_id, _ in _CHIPS:
                yield StepChip(key, chip_id)
        yield Static(id="replay-message", markup=False)
        yield Static(id="replay-fill")
        yield Static(id="replay-keys", markup=False)

    def on_mount(self) -> None:
        self.refresh_replay()

    # ------------------------------------------------------------------------------------------ keys
    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.press_key(event.key)

    def press_key(self, key: str) -> None:
        self.message = ""
        handler = self._handlers().get(key)
        if handler is None:
            self.message = tr("bad_key", self.lang, key)
        else:
            handler()
        if self.is_attached:
            self.refresh_replay()

    def _handlers(self) -> dict[str, Callable[[], None]]:
        return {
            "right": lambda: self.go(1),
            "n": lambda: self.go(1),
            "space": lambda: self.go(1),
            "left": lambda: self.go(-1),
            "p": lambda: self.go(-1),
            "pagedown": lambda: self.go(10),
            "pageup": lambda: self.go(-10),
            "home": lambda: self.go(-10_000),
            "end": lambda: self.go(10_000),
            "right_square_bracket": lambda: self.go_hand(1),
            "left_square_bracket": lambda: self.go_hand(-1),
            "t": self.cycle_tiles,
            "l": self.cycle_lang,
            "escape": self.close,
            "q": self.close,
        }

    def go(self, delta: int) -> None:
        last = len(self.replay.frames) - 1
        target = max(0, min(last, self.step + delta))
        if target == self.step:
            self.message = _w("first" if delta < 0 else "last", self.lang)
        self.step = target

    def go_hand(self, delta: int) -> None:
        target = max(0, min(len(self.hands) - 1, self.hand + delta))
        if target == self.hand:
            self.message = (
                _w("one_hand", self.lang) if len(self.hands) == 1 else _w("first" if delta < 0 else "last", self.lang)
            )
            return
        self.hand = target
        self.step = 0

    def cycle_tiles(self) -> None:
        self.style = TILE_STYLES[(TILE_STYLES.index(self.style) + 1) % len(TILE_STYLES)]

    def cycle_lang(self) -> None:
        self.lang = LANGS[(LANGS.index(self.lang) + 1) % len(LANGS)]

    def close(self) -> None:
        self.dismiss(None)

    # --------------------------------------------------------------------------------------- drawing
    def refresh_replay(self) -> None:
        lang = self.lang
        replay, frame = self.replay, self.frame
        view = frame.table
        of = _w("of_match", lang, len(self.hands)) if len(self.hands) > 1 else ""
        status = [
            _w("title", lang, replay.number, of),
            mode_name(replay.rules.mode, lang),
            _w("step", lang, self.step + 1, len(replay.frames)),
            tr("wall", lang, view.wall_count),
        ]
        if replay.seat is not None:
            status.append(_w("one_seat", lang, replay.seat))
        self.query_one("#replay-status", Static).update(" · ".join(status))
        for seat in range(4):
            widget = self.query_one(f"#replay-seat-{seat}", Static)
            widget.update(self._seat(seat, frame))
            widget.set_class(seat in frame.asked and view.phase == "play", "-turn")
        step = Text(_w("this_step", lang), style="bold")
        for line in frame_lines(frame, lang, self.style, self.human) or ["-"]:
            step.append(f"\n  {line}", style="not bold")
        self.query_one("#replay-step", Static).update(step)
        self.query_one("#replay-next", Static).update(_w("next", lang) + self._next(frame))
        for _, chip_id, words in _CHIPS:
            self.query_one(f"#{chip_id}", StepChip).update(words[0 if lang == "zh" else 1])
        self.query_one("#replay-message", Static).update(self.message)
        self.query_one("#replay-keys", Static).update(_w("keys", lang))

    def _next(self, frame: ReplayFrame) -> str:
        """Who is asked next; on a claim, what each may answer (the step after shows what he chose)."""
        lang = self.lang
        view = frame.table
        if view.is_over:
            return _w("ended", lang)
        if not frame.asked:  # the end of an unfinished record, or a one-seat record's pause for others' claims
            last = frame is self.replay.frames[-1]
            return _w("unfinished", lang) if last else _w("to_answer", lang, _w("others", lang))
        names = ("、" if lang == "zh" else ", ").join(seat_name(s, lang, self.human) for s in sorted(frame.asked))
        if view.phase == "play":
            return _w("to_play", lang, names)
        if view.phase not in ("claim", "rob", "declare"):
            return _w("to_answer", lang, names)
        parts = []
        for seat in sorted(frame.asked):
            could = ("、" if lang == "zh" else ", ").join(action_text(a, lang, self.style) for a in frame.asked[seat])
            who = seat_name(seat, lang, self.human)
            if not could:  # a one-seat record does not say what its seat could answer
                parts.append(who)
            else:
                parts.append(f"{who}（{could}）" if lang == "zh" else f"{who} ({could})")
        return _w("to_answer", lang, ("；" if lang == "zh" else "; ").join(parts))

    def _seat(self, seat: int, frame: ReplayFrame) -> Text:
        """A seat's rows: from its own view when the record holds it, else from the table, its hand as backs."""
        lang, style = self.lang, self.style
        own = frame.own(seat)
        view: Observation = own or frame.table
        head = Text()
        head.append(seat_name(seat, lang, self.human), style="bold")
        if seat == view.dealer:
            head.append(f" [{tr('dealer', lang)}]", style="bold yellow")
        head.append(f"  {tr('score', lang, view.scores[seat])}")
        append_seat_badges(head, view, seat, lang, style, self.human)
        if seat in frame.asked and not view.is_over:
            head.append(f"  {tr('on_turn' if view.phase == 'play' else 'claiming', lang)}", style="bold reverse")
        hand = Text()
        hand.append(f"{_w('concealed', lang)}: ", style="dim")
        if own is None:  # another seat of a one-seat record: how many, never which
            count = view.concealed_counts[seat]
            hand.append(f"{'▮' * count} ({count})")
        else:
            hand.append(tiles_line(own.hand, style) or "-")
            if own.drawn is not None:
                hand.append("  ")
                hand.append(tile_text(own.drawn, style).strip(), style="bold reverse")
        melds = meld_texts(view, seat, lang, style)
        if melds:
            hand.append(f"   {tr('melds', lang)}: ", style="dim")
            hand.append("  ".join(melds))
        river = river_line(view, seat, lang, style)
        return Text("\n").join([head, hand, river])
