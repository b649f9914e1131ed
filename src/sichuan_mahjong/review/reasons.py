"""A costly decision in words, the advisor's words: steps from ready, waits and live tiles, fan, danger.

The numbers come from the play-outs; the words say what in the seat's view they come from, read from that view
alone (:func:`~sichuan_mahjong.hints.advise_view`: what each answer leaves the hand, and who has declared 报叫).
"""

from __future__ import annotations

from sichuan_mahjong.advisor import DiscardAdvice
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hints import ChoiceAdvice, NothingToAdviseError, Option, advise_view
from sichuan_mahjong.text import action_text, seat_place
from sichuan_mahjong.tiles import Tile, tile_words

__all__ = ["reason"]


def _tiles(tiles: list[Tile], lang: str) -> str:
    return "/".join(tile_words(t, lang) for t in tiles)


def _advice(view: Observation) -> ChoiceAdvice | None:
    try:
        return advise_view(view)
    except (NothingToAdviseError, ValueError):
        return None


def _row_en(r: DiscardAdvice) -> str:
    if r.shanten == 0 and r.waits:
        waits = _tiles([w.tile for w in r.waits], "en")
        live = sum(w.remaining for w in r.waits)
        fan = max(w.fan for w in r.waits)
        return f"ready on {waits} with {live} live tiles, " + (f"up to {fan} fan" if fan else "a plain win (0 fan)")
    if r.shanten == 0:
        return "ready but with no live winning tile"
    return f"{r.shanten} from ready with {r.total} live useful tiles"


def _row_zh(r: DiscardAdvice) -> str:
    if r.shanten == 0 and r.waits:
        waits = _tiles([w.tile for w in r.waits], "zh")
        live = sum(w.remaining for w in r.waits)
        fan = max(w.fan for w in r.waits)
        return f"听{waits}，还剩{live}张，" + (f"最多{fan}番" if fan else "平胡")
    if r.shanten == 0:
        return "听牌但没有活张"
    return f"{r.shanten}向听，进张{r.total}张"


def _option_en(o: Option) -> str:
    if o.shanten < 0:
        return "a win"
    state = "ready" if o.shanten == 0 else f"{o.shanten} from ready"
    return f"{state} with {o.live} live useful tiles"


def _option_zh(o: Option) -> str:
    if o.shanten < 0:
        return "胡牌"
    state = "听牌" if o.shanten == 0 else f"{o.shanten}向听"
    return f"{state}，进张{o.live}张"


def _danger(view: Observation, action: Action) -> tuple[str, str]:
    """Who has declared 报叫 and might win on this discard (not void in its suit, still in the hand)."""
    if action.kind is not ActionKind.DISCARD:
        return "", ""
    suit = action.tile_index // 9
    seats = [o for o in range(4) if o != view.seat and view.active[o] and view.ready[o] and view.voids[o] != suit]
    if not seats:
        return "", ""
    assert action.tile is not None
    who_en = " and ".join(seat_place(o, "en", view.seat) for o in seats)
    who_zh = "、".join(seat_place(o, "zh", view.seat) for o in seats)
    return (
        f"; {tile_words(action.tile, 'en')} could win for {who_en}, who declared ready",
        f"；{tile_words(action.tile, 'zh')}可能点炮给报叫的{who_zh}",
    )


def _text(action: Action, zh: bool) -> str:
    """The action as the page says it: 打三万 / discard 3 Crak, 定缺條 / void bamboo, 碰 / pung (in Chinese the verb
    runs into its tile, as the page's ``act_*`` words do; 换三张's tiles stay apart)."""
    text = action_text(action, "zh" if zh else "en", "words")
    return text.replace(" ", "", 1) if zh and action.kind is not ActionKind.EXCHANGE else text


def reason(view: Observation, chosen: Action, best: Action, gain: float) -> tuple[str, str]:
    """Why ``best`` beats ``chosen`` here, in English and in Chinese (a line each)."""
    tail_en = f" ({gain:.1f} points better in play-outs)"
    tail_zh = f"（推演多得{gain:.1f}分）"
    advice = _advice(view)
    if best.kind is ActionKind.HU and chosen.kind is not ActionKind.HU:
        fan = None
        if advice is not None:
            fan = next((o.fan for o in advice.options if o.action.kind is ActionKind.HU), None)
        worth_en = f" worth {fan} fan" if fan is not None else ""
        worth_zh = f"{fan}番的" if fan is not None else ""
        return (
            f"Passed a win{worth_en} with {view.wall_count} tiles left in the wall{tail_en}.",
            f"放弃了{worth_zh}胡牌，牌墙还剩{view.wall_count}张{tail_zh}。",
        )
    danger_en, danger_zh = _danger(view, chosen)
    head_en = f"{_cap(_text(best, False))} rather than {_text(chosen, False)}"
    head_zh = f"应{_text(best, True)}而不是{_text(chosen, True)}"
    if advice is not None and advice.discards is not None and chosen.kind is best.kind is ActionKind.DISCARD:
        rows = {r.discard.index: r for r in advice.discards.rows}
        b, c = rows.get(best.tile_index), rows.get(chosen.tile_index)
        if b is not None and c is not None:
            return (
                f"{head_en}: {_tile(best, 'en')} leaves the hand {_row_en(b)}, {_tile(chosen, 'en')} {_row_en(c)}"
                f"{danger_en}{tail_en}.",
                f"{head_zh}：打{_tile(best, 'zh')}{_row_zh(b)}，打{_tile(chosen, 'zh')}{_row_zh(c)}"
                f"{danger_zh}{tail_zh}。",
            )
    if advice is not None:
        opts = {o.action: o for o in advice.options}
        ob, oc = opts.get(best), opts.get(chosen)
        if ob is not None and oc is not None:
            return (
                f"{head_en}: {_option_en(ob)} against {_option_en(oc)}{danger_en}{tail_en}.",
                f"{head_zh}：{_option_zh(ob)}，对比{_option_zh(oc)}{danger_zh}{tail_zh}。",
            )
    return f"{head_en}{danger_en}{tail_en}.", f"{head_zh}{danger_zh}{tail_zh}。"


def _tile(action: Action, lang: str) -> str:
    assert action.tile is not None
    return tile_words(action.tile, lang)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
