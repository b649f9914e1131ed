"""The settings screen (``o``): rules preset and options, bots, hands, seed, language, tiles, timer, pace."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from sichuan_mahjong.agents import agent_names
from sichuan_mahjong.rules import PRESETS
from sichuan_mahjong.text import bot_name, seat_name, tr
from sichuan_mahjong.tui.session import HUMAN
from sichuan_mahjong.tui.settings import PlaySettings, SettingsError, parse_options

__all__ = ["SettingsScreen"]


class SettingsScreen(ModalScreen[PlaySettings | None]):
    """Rules preset and options, each bot's tier, hands, seed, language, tiles, timer, bots' pace."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    #settings-box {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    #fields { layout: grid; grid-size: 2; grid-columns: 1fr 1fr; grid-gutter: 0 1; height: auto; }
    .field { height: 3; }
    .field Label { width: 15; padding: 1 1 0 0; }
    .field Input, .field Select { width: 1fr; }
    #settings-error { color: $error; height: auto; }
    #settings-buttons { height: 3; align: right middle; }
    """

    def __init__(self, settings: PlaySettings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        zh = s.lang == "zh"
        bots = agent_names()

        def field(label: str, widget: Input | Select[str]) -> Horizontal:
            return Horizontal(Label(label), widget, classes="field")

        presets = [(p, p) for p in PRESETS]
        tiers = [(bot_name(b, s.lang), b) for b in bots]
        tiers += [(b, b) for b in dict.fromkeys(s.bots) if b not in bots]  # module:factory bots from --bots
        langs = [("中文", "zh"), ("English", "en")]
        styles = [("5p", "compact"), ("五筒", "zh"), ("🀝 图形" if zh else "🀝 glyph", "glyph")]
        options = ", ".join(f"{k}={v}" for k, v in s.options.items())
        timer = "" if s.timer is None else f"{s.timer:g}"
        note = (
            "改规则、机器人、局数或种子会开始新比赛" if zh else "Changing rules, bots, hands or seed starts a new match"
        )
        with VerticalScroll(id="settings-box"):
            yield Static(tr("settings", s.lang), markup=False)
            with Vertical(id="fields"):
                yield field("规则" if zh else "Rules", Select(presets, value=s.preset, allow_blank=False, id="preset"))
                yield field("选项" if zh else "Options", Input(options, placeholder="max_fan=4, ...", id="options"))
                for i in range(3):
                    label = seat_name(i + 1, s.lang, HUMAN)
                    yield field(label, Select(tiers, value=s.bots[i], allow_blank=False, id=f"bot{i + 1}"))
                yield field("局数" if zh else "Hands", Input(str(s.hands), id="hands", type="integer"))
                yield field("种子" if zh else "Seed", Input(str(s.seed), id="seed", type="integer"))
                yield field("语言" if zh else "Language", Select(langs, value=s.lang, allow_blank=False, id="lang"))
                yield field("牌面" if zh else "Tiles", Select(styles, value=s.tiles, allow_blank=False, id="tiles"))
                yield field("限时秒" if zh else "Claim timer s", Input(timer, placeholder="-", id="timer"))
                yield field("机器人间隔秒" if zh else "Bot pace s", Input(f"{s.delay:g}", id="delay"))
            yield Static(note, markup=False)
            yield Static(id="settings-error", markup=False)
            with Horizontal(id="settings-buttons"):
                yield Button("应用" if zh else "Apply", id="apply", variant="primary")
                yield Button("取消" if zh else "Cancel", id="cancel")

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            event.stop()
            self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        try:
            self.dismiss(self.read())
        except (ValueError, SettingsError) as exc:
            self.query_one("#settings-error", Static).update(str(exc))

    def read(self) -> PlaySettings:
        def text(widget_id: str) -> str:
            return self.query_one(f"#{widget_id}", Input).value.strip()

        def choice(widget_id: str) -> str:
            return str(self.query_one(f"#{widget_id}", Select).value)

        options = parse_options([part for part in text("options").split(",") if part.strip()])
        try:
            hands = int(text("hands"))
            seed = int(text("seed"))
            timer = float(text("timer")) if text("timer") else None
            delay = float(text("delay") or "0")
        except ValueError as exc:
            raise SettingsError(f"not a number: {exc}") from None
        return self.settings.replace(
            preset=choice("preset"),
            options=options,
            bots=(choice("bot1"), choice("bot2"), choice("bot3")),
            hands=hands,
            seed=seed,
            lang=choice("lang"),
            tiles=choice("tiles"),
            timer=timer,
            delay=delay,
        )
