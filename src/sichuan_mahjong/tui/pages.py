"""Pages over the table: a page of text (help, the advisor's table) and a yes/no question."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from sichuan_mahjong.text import tr

__all__ = ["ConfirmScreen", "TextScreen", "help_text"]


def help_text(lang: str) -> str:
    if lang == "zh":
        return (
            "←/→、Home/End   移动光标\n"
            "1-9 再按 m/p/s   光标到那张牌（如 5p）\n"
            "回车            打出光标下的牌；换三张时确认\n"
            "空格            换三张时选/不选\n"
            "h 胡  p 碰  k 杠（也是光标下牌的暗杠/补杠）  x 过\n"
            "r              报叫\n"
            "m / p / s       定缺时选缺的花色\n"
            "a              提示：出牌时看建议表，碰、杠、胡时一句话\n"
            "v              回放上一局（一步一步看）\n"
            "t              牌的写法：5p / 五筒 / 图形\n"
            "l              语言：中文 / English\n"
            "o 设置  ? 帮助  q 退出（打到一半会先问你）\n"
            "鼠标：点一张牌选中，再点一次打出；点下面的按钮等于按键。"
        )
    return (
        "←/→, Home/End   move the cursor over your tiles\n"
        "1-9 then m/p/s  put the cursor on that tile (5p)\n"
        "Enter           discard the tile under the cursor; in 换三张, pass the picked three\n"
        "Space           pick or unpick a tile for 换三张\n"
        "h hu  p pung  k kong (also 暗杠/补杠 of the tile under the cursor)  x pass\n"
        "r               declare ready (报叫)\n"
        "m / p / s       in 定缺, the void suit\n"
        "a               the advisor: its table on your discard turn, one line on a claim\n"
        "v               replay the last finished hand, step by step\n"
        "t               tile style: 5p / 五筒 / glyphs\n"
        "l               language: 中文 / English\n"
        "o settings  ? help  q quit (asks first mid-hand)\n"
        "Mouse: click a tile to choose it, click it again to discard; the chips below the hand are keys."
    )


class TextScreen(ModalScreen[None]):
    """A page of text over the table (help, the advisor's table); Esc, Enter or q closes it; the keys of its
    focused scroll box (↑/↓, PgUp/PgDn, Home/End) scroll it."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    #text-box {
        width: 90%; height: auto; max-height: 90%; border: thick $accent; background: $surface; padding: 0 1;
    }
    #text-title { text-style: bold; }
    """

    def __init__(self, title: str, body: str, lang: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="text-box"):
            yield Static(self.title_text, id="text-title", markup=False)
            yield Static(Text(self.body), id="text-body")
            yield Static(tr("close", self.lang), id="text-close", markup=False)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "enter", "q", "a", "question_mark"):
            event.stop()
            self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question over the table: y or Enter says yes, n or Esc no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    #confirm-box {
        width: 72; max-width: 95%; height: auto; border: thick $warning; background: $surface; padding: 0 2;
    }
    #confirm-box Static { width: 100%; height: auto; }
    """

    def __init__(self, question: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(self.question, id="confirm-question", markup=False)
            yield Static(tr("yes_no", self.lang), id="confirm-keys", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("y", "enter"):
            self.dismiss(True)
        elif event.key in ("n", "escape"):
            self.dismiss(False)
