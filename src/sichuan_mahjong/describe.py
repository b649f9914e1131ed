"""One line of Chinese or English for an engine event, shared by ``scmj replay`` and the terminal table.

The two differ in how they name a seat, which a :class:`SeatNames` supplies: ``scmj replay`` numbers every seat
(:class:`SeatNumbers`: ``seat 2`` / ``2号``, always the third person), the table names them from the player's chair
(``下家(1)``, and the player as ``you``, so the verb agrees: ``You discard``, ``Right (1) discards``). Tiles are
written in a style (``compact`` ``5p``, ``zh`` ``五筒``, ``glyph`` the Unicode tile and a space). Plain strings,
no Textual.

>>> describe_event(Event("pung", 1, {"tile": "9s", "from_seat": 0}), "en", SeatNumbers("en"))
'seat 1 pungs 9s from seat 0'
>>> describe_event(Event("pung", 1, {"tile": "9s", "from_seat": 0}), "zh", SeatNumbers("zh"), style="zh")
'1号 碰 0号的 九條'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Protocol

from sichuan_mahjong.game.events import Event
from sichuan_mahjong.tiles import SUIT_NAMES_EN, SUIT_NAMES_ZH, SUITS, Tile

__all__ = [
    "END_REASONS",
    "PAYMENT_WORDS",
    "SeatNames",
    "SeatNumbers",
    "describe_event",
    "payment_reason",
    "tile_text",
    "tiles_line",
]

#: Why a hand ended, by the ``end`` event's reason: (Chinese, English).
END_REASONS: Final[Mapping[str, tuple[str, str]]] = {
    "win": ("有人胡牌，本局结束", "A win ended the hand"),
    "one_left": ("只剩一家，本局结束", "One player left: the hand ended"),
    "wall": ("牌墙摸完，本局结束", "The wall ran out: the hand is over"),
}


#: Which way 换三张 passes the tiles, by the event's ``direction``: (Chinese, English).
EXCHANGE_DIRECTIONS: Final[Mapping[str, tuple[str, str]]] = {
    "clockwise": ("顺时针，给上家", "clockwise, to the left"),
    "counterclockwise": ("逆时针，给下家", "counterclockwise, to the right"),
    "across": ("对换，给对家", "across"),
}


class SeatNames(Protocol):
    """How a line names a seat."""

    def subject(self, seat: int) -> str:
        """The seat opening a sentence: ``seat 2``, ``You``, ``下家(1)``."""
        ...

    def object(self, seat: int) -> str:
        """The seat inside a sentence: ``seat 2``, ``you``."""
        ...

    def addressed(self, seat: int) -> bool:
        """Whether the line speaks to this seat: English verbs then drop the -s (``you discard``)."""
        ...


@dataclass(frozen=True, slots=True)
class SeatNumbers:
    """Every seat by its number, in the third person: ``seat 2`` / ``2号``."""

    lang: str

    def subject(self, seat: int) -> str:
        return f"{seat}号" if self.lang == "zh" else f"seat {seat}"

    def object(self, seat: int) -> str:
        return self.subject(seat)

    def addressed(self, seat: int) -> bool:
        return False


def tile_text(tile: Tile, style: str) -> str:
    if style == "zh":
        return tile.zh
    if style == "glyph":
        return f"{tile.glyph} "
    return str(tile)


def tiles_line(tiles: Iterable[Tile], style: str) -> str:
    """Tiles in the given order, one space apart (no space needed after glyphs: they carry one)."""
    sep = "" if style == "glyph" else " "
    return sep.join(tile_text(t, style) for t in tiles)


#: A payment's reason in a player's words, by the Chinese term the engine writes (``R6.1 exposed kong 直杠``).
PAYMENT_WORDS: Final[Mapping[str, tuple[str, str]]] = {
    "直杠": ("直杠", "exposed kong"),
    "暗杠": ("暗杠", "concealed kong"),
    "补杠": ("补杠", "added kong"),
    "点炮": ("点炮", "won on a discard"),
    "自摸": ("自摸", "self-draw"),
    "抢杠": ("抢杠胡", "won by robbing a kong"),
    "查叫": ("查叫：没听牌赔听牌的", "ready check: not ready pays the ready"),
    "查花猪": ("查花猪：三门都有赔没花猪的", "flower pig: holding all three suits"),
    "下雨取消": ("没听牌，退还杠钱", "kong money returned: not ready at the end"),
    "呼叫转移": ("呼叫转移：杠上炮的杠钱转给胡家", "kong money passed on to the winner of a kong-shot"),
    "点杠花": ("点杠花：放杠的人付", "kong flower paid by the one who fed the kong"),
}
_CJK = ("\u3400", "\u9fff")  # the CJK ideographs: the engine's Chinese terms


def _is_cjk(word: str) -> bool:
    return any(_CJK[0] <= ch <= _CJK[1] for ch in word)


def payment_reason(reason: str, lang: str, *, rule: bool = False, term: bool = False) -> str:
    """A payment's reason as a player reads it, in one language and without the rule ID.

    The engine writes the rule ID, English words, then the Chinese term (``R6.1 exposed kong 直杠``); ``rule=True``
    keeps the ID in front (for docs and record readers who look the rule up); ``term=True`` adds the Chinese term
    to English words (``scmj replay``). A reason this table does not know keeps the engine's words of that language.

    >>> payment_reason("R6.1 exposed kong 直杠", "zh"), payment_reason("R9.5 查叫", "en")
    ('直杠', 'ready check: not ready pays the ready')
    >>> payment_reason("R8.2 self-draw 自摸", "en", rule=True)
    'R8.2 self-draw'
    """
    parts = reason.split()
    if not parts:
        return reason
    rule_id, rest = (parts[0], parts[1:]) if parts[0][:1] == "R" and parts[0][1:2].isdigit() else ("", parts)
    cjk = [w for w in rest if _is_cjk(w)]
    latin = [w.replace("_", " ") for w in rest if not _is_cjk(w)]
    known = next((PAYMENT_WORDS[w] for w in cjk if w in PAYMENT_WORDS), None)
    if known is not None:
        words = known[0 if lang == "zh" else 1]
    else:
        words = " ".join(cjk if lang == "zh" and cjk else latin if latin else rest)
    if term and lang != "zh" and cjk and cjk[0] not in words:
        words += f" {cjk[0]}"
    return f"{rule_id} {words}" if rule and rule_id else words


def describe_event(
    event: Event,
    lang: str,
    names: SeatNames,
    *,
    style: str = "compact",
    draws: bool = True,
    terms: bool = False,
    score: str | None = None,
) -> str | None:
    """One line for an event, or None for one this describer leaves to its caller (``deal``, ``act``).

    ``draws=False`` leaves draws out (the table's log: the drawn tile stands apart in the hand). ``terms`` adds the
    Chinese term to English lines (``(补杠)``) and keeps a payment's reason as the engine wrote it (``scmj
    replay``); otherwise the reason is shortened to ``lang``. ``score`` replaces a win's fan count (``3 fan``)
    with a breakdown. A payment belongs under the move that caused it: the caller indents it.
    """
    kind = event.type
    d = event.data
    zh = lang == "zh"
    seat = event.seat
    who = names.subject(seat) if seat >= 0 else ""

    def v(third: str, plain: str) -> str:
        return plain if names.addressed(seat) else third

    def term(word: str) -> str:
        return f" ({word})" if terms and not zh else ""

    def poss(s: int) -> str:
        """``seat 1's`` / ``your`` / ``0号的``, inside a sentence."""
        if zh:
            return f"{names.object(s)}的"
        return "your" if names.addressed(s) else f"{names.object(s)}'s"

    def tile(raw: object) -> str:
        return tile_text(Tile.from_str(str(raw)), style).strip()

    def tiles(raw: object) -> str:
        text = str(raw)
        return tiles_line((Tile.from_str(text[i : i + 2]) for i in range(0, len(text) - 1, 2)), style).strip()

    t = tile(d["tile"]) if d.get("tile") else ""
    frm = d.get("from_seat")
    if kind == "draw":
        if not draws:
            return None
        if not t:
            return f"{who} 摸牌" if zh else f"{who} {v('draws', 'draw')} a tile"
        if d.get("replacement"):
            return f"{who} 杠后补牌 {t}" if zh else f"{who} {v('draws', 'draw')} {t} (kong replacement)"
        return f"{who} 摸 {t}" if zh else f"{who} {v('draws', 'draw')} {t}"
    if kind == "discard":
        return f"{who} 打出 {t}" if zh else f"{who} {v('discards', 'discard')} {t}"
    if kind in ("pung", "kong"):
        word = "碰" if kind == "pung" else "直杠"
        src = "" if frm is None else (f"{names.object(frm)}的 " if zh else f" from {names.object(frm)}")
        if zh:
            return f"{who} {word} {src}{t}"
        verb = v("pungs", "pung") if kind == "pung" else v("kongs", "kong")
        return f"{who} {verb} {t}{src}" + ("" if kind == "pung" else term("exposed kong 直杠"))
    if kind == "concealed_kong":
        if zh:
            return f"{who} 暗杠 {t}".rstrip()
        return f"{who} {v('declares', 'declare')} a concealed kong{f' of {t}' if t else ''}{term('暗杠')}"
    if kind == "added_kong":
        return f"{who} 补杠 {t}" if zh else f"{who} {v('adds', 'add')} a kong of {t}{term('补杠')}"
    if kind == "robbed":
        by = ("、" if zh else ", ").join(names.object(s) for s in d.get("by", []))
        if zh:
            return f"{who}的补杠 {t} 被{f' {by} ' if by else ''}抢杠"
        owner = "Your" if names.addressed(seat) else f"{who}'s"
        return f"{owner} added kong of {t} is robbed{f' by {by}' if by else ''}{term('抢杠')}"
    if kind == "ready":
        return f"{who} 报叫" if zh else f"{who} {v('declares', 'declare')} ready{term('报叫')}"
    if kind == "win":
        if frm is None:
            head = f"{who} 自摸 {t}" if zh else f"{who} {v('wins', 'win')} by self-draw on {t}"
        elif d.get("robbed_kong"):
            head = (
                f"{who} 抢 {poss(frm)}杠胡 {t}" if zh else f"{who} {v('wins', 'win')} on {t} robbing {poss(frm)} kong"
            )
        else:
            head = (
                f"{who} 胡 {t}（{names.object(frm)}点炮）"
                if zh
                else f"{who} {v('wins', 'win')} on {t} from {names.object(frm)}"
            )
        if score is not None:
            return f"{head}：{score}" if zh else f"{head}: {score}"
        fan = int(d.get("fan", 0))
        return f"{head}，{fan}番" if zh else f"{head}, {fan} fan"
    if kind == "payment":
        payer, payee = int(d["payer"]), int(d["payee"])
        reason = str(d.get("reason", ""))
        why = payment_reason(reason, lang, term=terms)
        amount = d.get("amount", 0)
        if zh:
            return f"{names.subject(payer)} 付给 {names.object(payee)} {amount}（{why}）"
        pays = "pay" if names.addressed(payer) else "pays"
        return f"{names.subject(payer)} {pays} {names.object(payee)} {amount} ({why})"
    if kind == "voids":
        suits = [SUITS.index(str(x)) for x in d.get("voids", [])]
        if zh:
            return "定缺：" + "，".join(f"{names.object(s)} 缺{SUIT_NAMES_ZH[x]}" for s, x in enumerate(suits))
        return f"Voids{term('定缺')}: " + ", ".join(
            f"{names.object(s)} {SUIT_NAMES_EN[x]}" for s, x in enumerate(suits)
        )
    if kind == "exchange":
        given, received = d.get("given") or "", d.get("received") or ""
        direction = str(d.get("direction") or "")
        named = EXCHANGE_DIRECTIONS.get(direction, (direction, direction))[0 if zh else 1]
        way = "" if not direction else f"（{named}）" if zh else f" ({named})"
        head = f"换三张{way}：" if zh else f"Exchange{way}: "
        if isinstance(given, list) and isinstance(received, list):  # a full record: every seat's tiles
            parts = [
                f"{names.object(s)} {tiles(g)} → {tiles(r)}"
                for s, (g, r) in enumerate(zip(given, received, strict=True))
            ]
            return head + ("；" if zh else "; ").join(parts)
        return head + (
            f"给出 {tiles(given)}，换来 {tiles(received)}" if zh else f"gave {tiles(given)}, received {tiles(received)}"
        )
    if kind == "end":
        words = END_REASONS.get(str(d.get("reason")))
        return str(d.get("reason")) if words is None else words[0 if zh else 1]
    return None
