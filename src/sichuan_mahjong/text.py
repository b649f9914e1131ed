"""Words and tiles as the table shows them, in Chinese or English; plain strings, no Textual.

Tiles are written in one of three styles chosen by a setting: ``compact`` (``5p``, two cells in any terminal),
``zh`` (``五筒``, two double-width characters) or ``glyph`` (the Unicode mahjong tiles, which many fonts draw
at odd widths, so each is followed by a space). Every tile of a style takes the same width, so rows line up.

>>> tile_text(Tile.from_str("5p"), "zh")
'五筒'
>>> tiles_line([Tile.from_str("1m"), Tile.from_str("9s")], "compact")
'1m 9s'
>>> describe_event(Event("discard", 2, {"tile": "5p"}), "en", "compact")
'Across (2) discards 5p'
>>> describe_event(Event("pung", 1, {"tile": "5p", "from_seat": 0}), "zh", "zh")
'下家(1) 碰 你的 五筒'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sichuan_mahjong import describe
from sichuan_mahjong.describe import END_REASONS, payment_reason, tile_text, tiles_line
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import SUIT_NAMES_EN, SUIT_NAMES_ZH, Tile, tile_words

__all__ = [
    "LANGS",
    "TILE_STYLES",
    "TableNames",
    "action_text",
    "bot_name",
    "describe_event",
    "meld_text",
    "mode_name",
    "payment_reason",
    "rules_name",
    "seat_name",
    "seat_object",
    "seat_place",
    "suit_name",
    "tile_text",
    "tiles_line",
    "tr",
]

LANGS: Final = ("zh", "en")
TILE_STYLES: Final = ("compact", "zh", "glyph")

#: Every word the table shows, by key: (Chinese, English). ``{}`` fields are filled by :func:`tr`.
_WORDS: Final[dict[str, tuple[str, str]]] = {
    "you": ("你", "You"),
    "seat": ("{}号", "Seat {}"),
    "seat_1": ("下家({})", "Right ({})"),
    "seat_2": ("对家({})", "Across ({})"),
    "seat_3": ("上家({})", "Left ({})"),
    "place_1": ("下家", "Right"),
    "place_2": ("对家", "Across"),
    "place_3": ("上家", "Left"),
    "mode_standard": ("标准打法", "standard"),
    "mode_standard_kong": ("标准下雨", "standard + kongs"),
    "mode_bloody": ("标准血战", "bloody"),
    "mode_bloody_kong": ("血战下雨", "bloody + kongs"),
    "dealer": ("庄", "dealer"),
    "wall": ("牌墙 {}", "wall {}"),
    "hand_of": ("第 {}/{} 局", "Hand {}/{}"),
    "seed": ("种子 {}", "seed {}"),
    "rules": ("规则 {}（{}）", "rules {} ({})"),
    "rules_mode": ("规则 {}", "rules {}"),
    "preset_seed": ("默认", "seed"),
    "bot_random": ("随机", "random"),
    "bot_efficient": ("效率", "efficient"),
    "bot_expert": ("高手", "expert"),
    "bot_master": ("大师", "master"),
    "preset_app": ("手游", "app"),
    "score": ("本局 {:+d}", "this hand {:+d}"),
    "total": ("总分 {:+d}", "total {:+d}"),
    "on_turn": ("▶ 出牌中", "▶ on turn"),
    "claiming": ("▶ 考虑中", "▶ deciding"),
    "won": ("已胡 {}", "won on {}"),
    "won_from": ("已胡 {}（{}点炮）", "won on {} from {}"),
    "won_self": ("已胡 {}（自摸）", "won on {} (self-draw)"),
    "void": ("缺{}", "void {}"),
    "ready": ("报叫", "declared ready"),
    "melds": ("副露", "melds"),
    "river": ("牌河", "river"),
    "hidden_kong": ("暗杠", "concealed kong"),
    "your_hand": ("手牌", "Hand"),
    "drawn": ("摸", "drew"),
    "your_turn": (
        "轮到你了：选一张牌出（←/→ 或键入如 5p），回车打出",
        "Your turn: choose a tile (←/→ or type e.g. 5p), Enter discards",
    ),
    "your_claim": ("{}打出 {}：", "{} discards {}:"),
    "your_rob": ("{}补杠 {}：可以抢杠", "{} adds a kong of {}: you may rob it"),
    "exchange_prompt": (
        "换三张：选同一花色的三张（空格选择），回车确认",
        "Exchange three: pick three tiles of one suit (Space), Enter to pass them",
    ),
    "void_prompt": ("定缺：按 m 萬、p 筒、s 條", "Choose your void suit: m characters, p dots, s bamboo"),
    "declare_prompt": ("你已听牌，可以报叫（r）或不报（x）", "You are ready: declare ready (r) or not (x)"),
    "waiting": ("等待其他玩家…", "Waiting for the others…"),
    "you_won": ("你已胡牌，其他人继续", "You have won; the others play on"),
    "hand_over": ("本局结束，回车看结算", "The hand is over: Enter for the settlement"),
    "keys": (
        "键：←/→ 选牌  回车 出牌  h 胡  p 碰  k 杠  x 过  r 报叫  a 提示  v 回放  o 设置  ? 帮助  q 退出",
        "Keys: ←/→ choose  Enter discard  h hu  p pung  k kong  x pass  r ready  a hint  v replay  o settings  ? help"
        "  q quit",
    ),
    "keys_exchange": (
        "键：←/→ 选牌  空格 选/不选  回车 换出三张  ? 帮助  q 退出",
        "Keys: ←/→ choose  Space pick  Enter pass the three  ? help  q quit",
    ),
    "timer": ("{} 秒后自动过", "auto-pass in {}s"),
    "bad_key": ("按键 {} 没有作用（? 看帮助）", "The key {} does nothing here (? for help)"),
    "not_asked": ("现在不用你操作", "Nothing for you to do now"),
    "cannot": ("不能{}：{}", "You cannot {}: {}"),
    "no_tile": ("手里没有 {}", "You hold no {}"),
    "pick_kong": ("选中要杠的牌再按 k（可杠：{}）", "Select the tile to kong, then k (kongs: {})"),
    "pick_three": ("要选同一花色的三张，已选 {}", "Pick three tiles of one suit; picked {}"),
    "hint_only_turn": ("提示在轮到你出牌、或可以胡碰杠时可用", "A hint is for your discard turn or a claim"),
    "claim_hint": ("提示：{}", "Hint: {}"),
    "advice": ("推荐：", "Recommendation: "),
    "waits_now": ("听 {}（共剩 {} 张）", "Waiting on {} ({} left)"),
    "waits_if": ("打 {} 就听 {}（共剩 {} 张）", "Discard {} to wait on {} ({} left)"),
    "hint_title": ("出牌建议", "Discard advice"),
    "close": ("Esc 关闭", "Esc closes"),
    "settlement": ("结算", "Settlement"),
    "wins": ("胡牌", "Wins"),
    "payments": ("支付", "Payments"),
    "no_payments": ("没有支付", "No payments"),
    "check_ready": ("查叫", "Ready check (查叫)"),
    "is_ready": ("有叫", "ready"),
    "not_ready": ("无叫", "not ready"),
    "hands": ("各家手牌", "Every hand"),
    "this_hand": ("本局", "This hand"),
    "totals": ("累计", "Match totals"),
    "next_dealer": ("下一局庄家：{}", "Next dealer: {}"),
    "saved": ("记录已保存：{}", "Record saved: {}"),
    "review_hint": ("复盘（逐手对比大师）：{}", "Review your play against the master: {}"),
    "save_failed": ("记录没能保存（{}），游戏继续", "The record could not be saved ({}); the game goes on"),
    "continue": (
        "回车 下一局   ↑/↓ PgUp/PgDn 翻看   v 回放这一局   q 退出",
        "Enter next hand   ↑/↓ PgUp/PgDn scroll   v replay this hand   q quit",
    ),
    "match_over": (
        "比赛结束：回车 开始新比赛   ↑/↓ 翻看   v 回放这一局   q 退出",
        "The match is over: Enter starts a new one   ↑/↓ scroll   v replay this hand   q quit",
    ),
    "reason_drawn": ("牌墙摸完，流局（没有人胡）", "The wall ran out with no win: a drawn hand"),
    "no_replay": ("还没有打完的一局可以回放", "No finished hand to replay yet"),
    **{f"reason_{reason}": words for reason, words in END_REASONS.items()},
    "from": ("{} 点炮", "from {}"),
    "self_draw": ("自摸", "self-draw"),
    "robbed": ("抢杠", "robbing a kong"),
    "pays": ("{} → {}  {}  {}", "{} → {}  {}  {}"),
    "settings": ("设置", "Settings"),
    "help": ("帮助", "Help"),
    "new_match": ("设置已生效：开始新比赛", "Settings applied: a new match starts"),
    "display_applied": ("显示设置已生效", "Display settings applied"),
    "settings_not_kept": ("设置没能保存到下次（{}）", "The settings could not be kept for next time ({})"),
    "quit": ("退出", "Quit"),
    "quit_confirm": (
        "这一局还没打完：现在退出吗？（这一局存为未完成的记录）",
        "The hand is not over: quit now? (it is saved as an unfinished record)",
    ),
    "yes_no": ("y / 回车 退出    n / Esc 继续打", "y / Enter quits    n / Esc plays on"),
    "how_to_quit": ("按 q 退出（会先问你）", "Press q to quit (you will be asked first)"),
    "saved_unfinished": ("未打完的这一局已保存：{}", "The unfinished hand is saved: {}"),
}


def tr(key: str, lang: str, *args: object) -> str:
    """The word ``key`` in ``lang`` (``zh`` or ``en``) with ``args`` filled in."""
    zh, en = _WORDS[key]
    return (zh if lang == "zh" else en).format(*args)


def suit_name(suit: int, lang: str) -> str:
    return SUIT_NAMES_ZH[suit] if lang == "zh" else SUIT_NAMES_EN[suit]


def seat_name(seat: int, lang: str, human: int = 0) -> str:
    """``你`` / ``You`` for the player, else where the seat sits from him and its number: ``下家(1)`` / ``Right (1)``.

    Play goes 0 → 1 → 2 → 3, so the seat after the player (下家) sits on his right, the one before (上家) on
    his left, as players name them at a real table.
    """
    if seat == human:
        return tr("you", lang)
    return tr(f"seat_{(seat - human) % 4}", lang, seat)


def seat_place(seat: int, lang: str, human: int = 0) -> str:
    """Where a seat sits from the player, without its number: ``你`` / ``下家`` / ``对家`` / ``上家`` (the web table,
    where every seat is drawn in its place)."""
    if seat == human:
        return tr("you", lang)
    return tr(f"place_{(seat - human) % 4}", lang)


def seat_object(seat: int, lang: str, human: int = 0) -> str:
    """A seat inside a sentence: as :func:`seat_name`, but ``you`` in lower case in English."""
    name = seat_name(seat, lang, human)
    return "you" if seat == human and lang == "en" else name


def rules_name(preset: str, mode: str, lang: str) -> str:
    """A preset with its mode as the status line shows it (``规则 默认（血战下雨）``); a preset named after its
    mode is said once (``规则 血战``).

    >>> rules_name("seed", "bloody_kong", "zh"), rules_name("bloody", "bloody", "zh")
    ('规则 默认（血战下雨）', '规则 标准血战')
    """
    if preset == mode:
        return tr("rules_mode", lang, mode_name(mode, lang))
    key = f"preset_{preset}"
    name = tr(key, lang) if key in _WORDS else preset
    return tr("rules", lang, name, mode_name(mode, lang))


def bot_name(tier: str, lang: str) -> str:
    """A bot's tier as the table names it (``高手`` / ``expert``); an unknown tier as written."""
    key = f"bot_{tier}"
    return tr(key, lang) if key in _WORDS else tier


def mode_name(mode: str, lang: str) -> str:
    """A rule mode as players call it (``血战下雨``); an unknown mode as written."""
    key = f"mode_{mode}"
    return tr(key, lang) if key in _WORDS else mode


_MELD_WORDS: Final = {
    MeldKind.PUNG: ("碰", "pung"),
    MeldKind.KONG: ("明杠", "kong"),
    MeldKind.ADDED_KONG: ("补杠", "added kong"),
    MeldKind.CONCEALED_KONG: ("暗杠", "concealed kong"),
}


def meld_text(meld: Meld, lang: str, style: str) -> str:
    zh, en = _MELD_WORDS[meld.kind]
    return f"{zh if lang == 'zh' else en} {tiles_line([meld.tile] * meld.size, style)}"


_ACTION_WORDS: Final = {
    ActionKind.DISCARD: ("打", "discard"),
    ActionKind.CONCEALED_KONG: ("暗杠", "concealed kong"),
    ActionKind.ADDED_KONG: ("补杠", "added kong"),
    ActionKind.HU: ("胡", "hu"),
    ActionKind.PASS: ("过", "pass"),
    ActionKind.PUNG: ("碰", "pung"),
    ActionKind.KONG: ("杠", "kong"),
    ActionKind.DECLARE_READY: ("报叫", "declare ready"),
    ActionKind.VOID: ("定缺", "void"),
    ActionKind.EXCHANGE: ("换三张", "exchange"),
}


def action_text(action: Action, lang: str, style: str) -> str:
    """``hu`` -> 胡 / hu; ``discard 5p`` -> 打 五筒 / discard 5p; ``void m`` -> 定缺 萬.

    Style ``words`` (the web table) writes tiles as players say them in ``lang`` (打 五筒 / discard 5 Dot).
    """
    zh, en = _ACTION_WORDS[action.kind]
    word = zh if lang == "zh" else en

    def tile(t: Tile) -> str:
        return tile_words(t, lang) if style == "words" else tile_text(t, style).strip()

    if action.tile is not None:
        return f"{word} {tile(action.tile)}"
    if action.kind is ActionKind.VOID:
        return f"{word} {suit_name(action.suit_index, lang)}"
    if action.kind is ActionKind.EXCHANGE:
        exchange = [Tile(t) for t in action.exchange]
        return f"{word} {' '.join(map(tile, exchange)) if style == 'words' else tiles_line(exchange, style)}"
    return word


_REASONS_EN: Final = {
    "R6.1": "exposed kong",
    "R6.2": "added kong",
    "R6.3": "concealed kong",
    "R6.5": "kong refund",
    "R8.1": "discard win",
    "R8.2": "self-draw",
    "R8.3": "robbed kong",
    "R9.5": "ready check 查叫",
    "R10": "house rule",
}


@dataclass(frozen=True, slots=True)
class TableNames:
    """Seats named from the player's chair (:func:`seat_name`); the player is spoken to (``You discard``)."""

    lang: str
    human: int = 0

    def subject(self, seat: int) -> str:
        return seat_name(seat, self.lang, self.human)

    def object(self, seat: int) -> str:
        return seat_object(seat, self.lang, self.human)

    def addressed(self, seat: int) -> bool:
        return seat == self.human


def describe_event(event: Event, lang: str, style: str, human: int = 0, *, draws: bool = False) -> str | None:
    """One line for the table's log, or None for events the log leaves out (the deal, answers).

    ``draws`` adds a line for each draw (the replay screen; the table's own log leaves draws out: the drawn tile
    stands apart in the hand). A payment is an indented line under the move that caused it, so a score that
    changes on a kong (下雨) says why. The words are :func:`sichuan_mahjong.describe.describe_event`'s.
    """
    line = describe.describe_event(event, lang, TableNames(lang, human), style=style, draws=draws)
    return f"    {line}" if line is not None and event.type == "payment" else line
