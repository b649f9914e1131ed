"""The discard advisor: for a hand about to discard, what each discard leaves and which one to make, and why.

For every distinct discard of a 14 - 3k hand it gives the shanten left (缺一门 applied), the tiles that would
lower it with how many copies the player has not seen, and, once the hand is ready, the waits with their value
in fan. The recommendation reasons the way the source's narrated hands do: first the fewest tiles from ready;
among ready discards the most live winning tiles, each weighted by what the win is worth (2**fan), so a wait
with more live tiles wins unless the other pays more; then more useful tiles; then a discard that cannot be
konged by someone else in the kong modes (4 copies minus the ones the player can account for >= 3 means some
other seat might hold three).

It sits above ``hand/`` and ``scoring`` and below ``game``: it knows tiles, not tables, and never imports the
engine, so the bots, the command line and a web page can all call it.

The first narrated hand of the source, after the pung of 2s with two 6p already discarded:

>>> a = advise("234s22346888p", [Meld.parse("pung 2s")], seen="6p6p")
>>> [(str(r.discard), [str(w.tile) for w in r.waits]) for r in a.rows if str(r.discard) in ("2p", "6p")]
[('6p', ['2p', '5p']), ('2p', ['6p', '7p'])]
>>> print(a.reason_en)
Discard 6p: ready, waiting on 2p/5p with 6 live tiles (discarding 2p waits on 6p/7p with 5), worth 1 fan.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from sichuan_mahjong.hand.analysis import HandSizeError, useful_tiles
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.scoring import NotWinningError, Score, score_hand
from sichuan_mahjong.tiles import (
    NUM_KINDS,
    SUITS,
    Tile,
    TileLike,
    TooManyCopiesError,
    excerpt,
    format_tiles,
    parse_tiles,
    tile_words,
    to_index,
)

__all__ = ["Advice", "AdviceError", "DiscardAdvice", "Wait", "advise"]


class AdviceError(ValueError):
    """Input the advisor cannot read: a hand of the wrong size, more than four copies of a tile, a bad void."""


@dataclass(frozen=True, slots=True)
class Wait:
    """One winning tile of a ready hand: copies still unseen and the fan of winning on it (on a discard)."""

    tile: Tile
    remaining: int
    fan: int
    patterns: tuple[str, ...]

    @property
    def value(self) -> int:
        """Live copies times the multiplier: the wait's share of the hand's expected win."""
        return self.remaining << self.fan


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """What discarding ``discard`` leaves. ``waits`` is filled once the rest is ready (shanten 0)."""

    discard: Tile
    shanten: int
    useful: tuple[tuple[Tile, int], ...]
    total: int
    waits: tuple[Wait, ...]
    kong_risk: bool  # someone else might hold three of it and kong the discard (kong modes only)

    @property
    def value(self) -> int:
        return sum(w.value for w in self.waits)

    @property
    def best_fan(self) -> int | None:
        return max((w.fan for w in self.waits), default=None)

    def to_dict(self) -> dict[str, object]:
        return {
            "discard": str(self.discard),
            "shanten": self.shanten,
            "useful": [{"tile": str(t), "remaining": n} for t, n in self.useful],
            "total": self.total,
            "waits": [
                {"tile": str(w.tile), "remaining": w.remaining, "fan": w.fan, "patterns": list(w.patterns)}
                for w in self.waits
            ],
            "kong_risk": self.kong_risk,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Rows best first; ``recommended`` is ``rows[0]``; ``win`` is set when the 14 - 3k tiles already win."""

    tiles: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    rows: tuple[DiscardAdvice, ...]
    win: Score | None
    reason_zh: str
    reason_en: str

    @property
    def recommended(self) -> DiscardAdvice:
        return self.rows[0]

    def reason(self, lang: str = "en") -> str:
        return self.reason_zh if lang == "zh" else self.reason_en

    def to_dict(self) -> dict[str, object]:
        return {
            "hand": format_tiles(self.tiles),
            "melds": [str(m) for m in self.melds],
            "win": self.win.to_dict() if self.win is not None else None,
            "discards": [r.to_dict() for r in self.rows],
            "recommendation": {
                "action": "hu" if self.win is not None else f"discard {self.recommended.discard}",
                "discard": str(self.recommended.discard),
                "zh": self.reason_zh,
                "en": self.reason_en,
            },
        }

    def table(self, lang: str = "both", style: str = "compact") -> str:
        """The recommendation, then the rows, one discard a line, in one language (``both``: English rows and
        the recommendation in both). Tiles are written in ``style`` (``compact`` 5p, ``zh`` 五筒, ``glyph``).

        A kong risk is shown only on a discard that leaves the hand ready, where it decides between equal waits;
        before that, almost every single tile could be konged and the mark would say nothing.
        """
        zh = lang == "zh"

        def name(t: Tile) -> str:
            return format_tiles([t], style=_style(style))

        lines = []
        if lang in ("zh", "both"):
            lines.append(f"推荐：{self.reason_zh}")
        if lang in ("en", "both"):
            lines.append(f"Recommendation: {self.reason_en}")
        for r in self.rows:
            if r.waits:
                fan = "番" if zh else " fan"
                body = " ".join(f"{name(w.tile)}×{w.remaining}({w.fan}{fan})" for w in r.waits)
                body = ("听 " if zh else "waits ") + body
            else:
                body = " ".join(f"{name(t)}×{n}" for t, n in r.useful) or "-"
            risk = r.kong_risk and r.shanten == 0
            if zh:
                state = _pad(_shanten_zh(r.shanten), 6)
                lines.append(
                    f"打 {name(r.discard)}  {state} 进张 {r.total:>2} 张  {body}{'  可能被杠' if risk else ''}"
                )
            else:
                state = "ready" if r.shanten == 0 else f"{r.shanten} from ready"
                lines.append(
                    f"discard {name(r.discard)}  {state:<12} {r.total:>3} tiles  {body}{'  kong risk' if risk else ''}"
                )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


_ZH_NUM: Final = "零一二三四五六七八"


def _pad(text: str, cells: int) -> str:
    """``text`` padded to ``cells`` terminal cells (a Chinese character takes two)."""
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, cells - width)


def _style(style: str) -> Literal["compact", "zh", "glyph"]:
    if style == "zh":
        return "zh"
    if style == "glyph":
        return "glyph"
    return "compact"


def _shanten_zh(n: int) -> str:
    return "听牌" if n == 0 else f"{_ZH_NUM[n] if n < len(_ZH_NUM) else n}向听"


def _counts(tiles: Iterable[int]) -> list[int]:
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t] += 1
    return out


def _as_indices(tiles: Iterable[TileLike] | str) -> list[int]:
    if isinstance(tiles, str):
        return [t.index for t in parse_tiles(tiles, max_copies=None)]
    return [to_index(t) for t in tiles]


def _void_index(void: int | str | None) -> int | None:
    if void is None:
        return None
    if isinstance(void, str):
        if len(void) != 1 or void not in SUITS:
            raise AdviceError(f"void must be one of m, p, s, got {void!r}")
        return SUITS.index(void)
    if void not in (0, 1, 2):
        raise AdviceError(f"void must be 0, 1 or 2 (m, p, s), got {void}")
    return void


def advise(
    tiles: Iterable[TileLike] | str,
    melds: Sequence[Meld] = (),
    seen: Iterable[TileLike] | str = (),
    rules: Rules | None = None,
    *,
    void: int | str | None = None,
    style: str = "compact",
) -> Advice:
    """Advise the discard of a 14 - 3k concealed hand with k melds.

    ``seen`` lists the tiles the player can see elsewhere (every river and the other players' melds); copies
    in his own hand and melds are counted already. ``void`` is the declared void suit when 定缺 is played:
    while the hand holds tiles of it, only those are discards (R3.2). ``style`` writes the tiles of the
    reasons (``compact`` 5p, ``zh`` 五筒, ``glyph``); ``to_dict`` always uses the compact notation.
    """
    rules = rules or Rules()
    hand = _as_indices(tiles)
    seen_idx = _as_indices(seen)
    melds = tuple(melds)
    need = 14 - 3 * len(melds)
    if len(melds) > 4:
        raise AdviceError(f"a hand has at most four melds, got {len(melds)}")
    if len(hand) != need:
        raise HandSizeError(
            f"the advisor needs a hand about to discard: {need} concealed tiles with {len(melds)} meld(s), "
            f"got {len(hand)}: {excerpt(format_tiles(hand)) if hand else 'none'}"
        )
    own = _counts(hand)
    for m in melds:
        own[m.tile_index] += m.size
    seen_counts = _counts(seen_idx)
    for t in range(NUM_KINDS):
        if own[t] + seen_counts[t] > 4:
            where = "the hand and melds" if not seen_counts[t] else "the hand, melds and seen tiles"
            raise TooManyCopiesError(f"{own[t] + seen_counts[t]} copies of {Tile(t)} between {where}: at most 4")
    void_index = _void_index(void)
    if void_index is not None and any(m.tile_index // 9 == void_index for m in melds):
        raise AdviceError(f"the void suit {SUITS[void_index]} holds a meld")
    choices = useful_tiles(hand, melds, seen_idx, void=void_index)
    if void_index is not None and any(t // 9 == void_index for t in hand):
        # R3.2: while the hand holds tiles of the declared void, only they may be discarded.
        choices = [c for c in choices if c.discard.suit_index == void_index]
    rows = []
    for c in choices:
        d = c.discard.index
        # The discarded copy goes to the river: it is no longer drawable even if it is a useful tile.
        useful = tuple((t, max(0, n - 1) if t.index == d else n) for t, n in c.useful)
        total = sum(n for _, n in useful)
        waits: tuple[Wait, ...] = ()
        if c.shanten == 0:
            rest = list(hand)
            rest.remove(d)
            waits = tuple(_wait(rest, t, n, melds, rules) for t, n in useful)
        unseen = 4 - own[d] - seen_counts[d]
        kong_risk = rules.kongs_pay and unseen >= 3
        rows.append(DiscardAdvice(c.discard, c.shanten, useful, total, waits, kong_risk))
    rows.sort(key=_rank_key(hand))
    win = _win_of(hand, melds, rules)
    zh, en = _reasons(rows, win, style)
    return Advice(tuple(Tile(t) for t in sorted(hand)), melds, tuple(rows), win, zh, en)


def _wait(rest: list[int], tile: Tile, remaining: int, melds: Sequence[Meld], rules: Rules) -> Wait:
    try:
        score = score_hand([*rest, tile.index], tile, melds, rules=rules)
    except NotWinningError:  # pragma: no cover - the evaluator said it wins
        return Wait(tile, remaining, 0, ())
    return Wait(tile, remaining, score.fan, tuple(p.id for p in score.patterns))


def _win_of(hand: list[int], melds: Sequence[Meld], rules: Rules) -> Score | None:
    """The best score of the 14 - 3k tiles as they stand, if they already win (self-drawn: the last tile)."""
    best: Score | None = None
    for t in sorted(set(hand)):
        try:
            s = score_hand(hand, t, melds, self_draw=True, rules=rules)
        except (NotWinningError, ValueError):
            return None
        if best is None or s.fan > best.fan:
            best = s
    return best


def _rank_key(hand: Sequence[int]) -> Callable[[DiscardAdvice], tuple[int, int, int, bool, int, int, int]]:
    """Fewest steps from ready; then (ready) most value-weighted live waits; then most useful tiles.

    Ties: once ready, a discard nobody can kong; before that, a tile of the suit the hand holds least of (the
    suit being voided by play), then the one nearest a terminal, which connects to fewest others.
    """
    per_suit = [0, 0, 0]
    for t in hand:
        per_suit[t // 9] += 1

    def key(r: DiscardAdvice) -> tuple[int, int, int, bool, int, int, int]:
        t = r.discard.index
        centrality = min(t % 9, 8 - t % 9)
        return (r.shanten, -r.value, -r.total, r.kong_risk and r.shanten == 0, per_suit[t // 9], centrality, t)

    return key


def _reasons(rows: list[DiscardAdvice], win: Score | None, style: str) -> tuple[str, str]:
    """The best discard's reason in zh and en; style ``words`` (the web table) names tiles as players say them
    in each language (九条 / 9 Bam), any other style as :func:`format_tiles` writes it in both."""

    def namer(lang: str) -> Callable[[Tile], str]:
        if style == "words":
            return lambda t: tile_words(t, lang)
        fixed = _style(style)
        return lambda t: format_tiles([t], style=fixed)

    nz, ne = namer("zh"), namer("en")

    def waits_text(r: DiscardAdvice, name: Callable[[Tile], str]) -> str:
        return "/".join(name(w.tile) for w in r.waits) or "-"

    best = rows[0]
    other = next((r for r in rows[1:] if r.shanten == best.shanten), None)
    if best.shanten == 0:
        fan = best.best_fan or 0
        low = min(w.fan for w in best.waits) if best.waits else 0
        fans_zh = f"{low}番" if low == fan else f"{low}-{fan}番"
        fans_en = f"{low} fan" if low == fan else f"{low}-{fan} fan"
        if not best.waits:
            zh = f"打{nz(best.discard)}：听牌，但叫牌已无剩余"
            en = f"Discard {ne(best.discard)}: ready, but no winning tile is left unseen."
        else:
            zh = f"打{nz(best.discard)}：听{waits_text(best, nz)}，剩{best.total}张，{fans_zh}"
            en = f"Discard {ne(best.discard)}: ready, waiting on {waits_text(best, ne)} with {best.total} live tiles"
            if other is not None and other.waits:
                zh += f"（打{nz(other.discard)}听{waits_text(other, nz)}只剩{other.total}张）"
                en += f" (discarding {ne(other.discard)} waits on {waits_text(other, ne)} with {other.total})"
            en += "." if fan == 0 else f", worth {fans_en}."
    else:
        zh = f"打{nz(best.discard)}：{_shanten_zh(best.shanten)}，进张{len(best.useful)}种{best.total}张"
        kinds = len(best.useful)
        plural = "s" if kinds != 1 else ""
        en = f"Discard {ne(best.discard)}: {best.shanten} from ready, {best.total} useful tiles ({kinds} kind{plural})"
        if other is not None and other.total < best.total:
            zh += f"（比打{nz(other.discard)}多{best.total - other.total}张）"
            en += f", {best.total - other.total} more than discarding {ne(other.discard)}"
        en += "."
    if best.kong_risk is False and other is not None and other.kong_risk and best.value == other.value:
        zh += "；不给别人开杠"
        en = en[:-1] + "; it cannot be konged."
    if win is not None:
        zh = f"已和牌，胡！{win.describe('zh')}"
        en = f"The hand already wins: declare hu ({win.describe('en')})."
    return zh, en
