"""Why the table will not send a choice, in the player's words and language; plain Python, no Textual.

The engine refuses an illegal answer with an :class:`~sichuan_mahjong.game.IllegalActionError` in English
written for programs (``seat 0 cannot pung 5p: holds one 5p``). The table checks the legal answers first
(``view.legal``, what the engine offers) and, when the choice is not among them, says why from what the
player can see (docs/rules.md R12: his view, nothing else). Only a refusal this module has no words for falls back
to the engine's message.

>>> from sichuan_mahjong.game import Game
>>> game = Game(seed=1)  # seat 3 deals and is on turn
>>> refusal(Action.parse("pung"), game.view(3), "zh", "compact")
'没有可以碰的牌：碰要等别家刚打出的牌'
>>> refusal(Action.parse("pass"), game.view(3), "en", "compact")
'It is your turn to discard, there is nothing to pass: choose a tile and press Enter'
>>> refusal(Action.parse("discard 5p"), game.view(0), "zh", "compact")
'还没轮到你：上家(3)正在出牌'
"""

from __future__ import annotations

from collections.abc import Callable

from sichuan_mahjong.game import Action, ActionKind, Observation
from sichuan_mahjong.hand.analysis import is_winning
from sichuan_mahjong.text import action_text, mode_name, seat_name, seat_place, suit_name, tile_text
from sichuan_mahjong.tiles import SUIT_WORDS, Tile, tile_words

__all__ = ["refusal"]

_TileText = Callable[[Tile | None], str]
_Options = Callable[[], str]
_Verb = Callable[[ActionKind], str]

#: Each refusal: (Chinese, English); ``{}`` fields are filled in order.
_WHY: dict[str, tuple[str, str]] = {
    "over": ("本局已经结束", "The hand is over"),
    "won": ("你已经胡了，等其他人打完", "You have won; the others play on"),
    "not_your_turn": ("还没轮到你：{}正在出牌", "It is not your turn: {} is to play"),
    "others_decide": ("等别家决定要不要{}打出的 {}", "Waiting for the others to answer {}'s {}"),
    "nothing_asked": ("现在不用你操作", "Nothing for you to do now"),
    "must_win": (
        "后4张必胡：牌墙只剩 {} 张，你听的牌来了，只能胡（h）",
        "后4张必胡 (R9.2): {} tiles left in the wall and your winning tile is here: you must win (h)",
    ),
    "answer_claim": ("现在不是出牌的时候：{}打出 {}，请选 {}", "Not time to discard: {} discarded {}; answer {}"),
    "answer_rob": ("现在不是出牌的时候：{}补杠 {}，请选 {}", "Not time to discard: {} adds a kong of {}; answer {}"),
    "phase_exchange": ("先换三张：空格选同一花色的三张，回车确认", "First exchange three: Space picks three of a suit"),
    "phase_void": ("先定缺：按 m、p 或 s 选缺哪门", "First choose your void suit: m, p or s"),
    "phase_declare": ("先决定报不报叫：r 报叫，x 不报", "First say whether you declare ready: r yes, x no"),
    "not_held": ("你手里没有 {}", "You hold no {}"),
    "ready_discard": ("报叫后只能打摸到的牌 {}", "After declaring ready you may only discard the tile you drew, {}"),
    "void_first": (
        "要先打完缺的那门（{}），才能打别的牌",
        "Tiles of your void suit ({}) go first: discard them before any other",
    ),
    "no_discard_to_claim": (
        "没有可以{}的牌：{}要等别家刚打出的牌",
        "There is no discard to {}: you {} another's discard",
    ),
    "claim_ready": ("报叫后只能胡，不能{}", "After declaring ready you may only win, not {}"),
    "claim_void": ("{} 是你缺的那门，不能{}", "{} is of your void suit: you cannot {} it"),
    "no_kongs_mode": (
        "{}没有杠：四张相同只算一个根",
        "The mode {} has no kongs: four of a kind counts only as a root (根)",
    ),
    "wall_empty": ("牌墙已经摸完，不能{}", "The wall is empty: no {} now"),
    "too_few": ("你只有 {} 张 {}，{}要 {} 张", "You hold {} × {}: a {} needs {}"),
    "passed_win": (
        "过水不胡：你放过了一次 {} 番的胡，自己再摸牌之前，胡别人打的牌要超过 {} 番",
        "过水不胡 (R9.1): you passed a {}-fan win; until your next draw a win on a discard must beat {} fan",
    ),
    "not_winning_tile": ("{} 胡不了你的牌", "{} does not complete your hand"),
    "three_suits": ("三门都有，不能胡：要缺一门", "You hold all three suits: a winning hand has at most two"),
    "after_pung": ("碰牌后要先打出一张", "After a pung you must discard first"),
    "not_winning": ("你的牌还没胡", "Your tiles do not make a winning hand yet"),
    "kong_ready": ("报叫后不能杠", "After declaring ready you may not kong"),
    "no_kong": (
        "没有可以杠的牌：暗杠要四张相同，补杠要碰过的牌再摸到第四张",
        "No kong to make: a concealed kong needs four alike, an added kong a pung and its fourth tile",
    ),
    "ready_off": ("这套规则不能报叫", "These rules have no declaring ready (报叫)"),
    "already_ready": ("你已经报叫了", "You have already declared ready"),
    "ready_when": (
        "报叫只在开局：庄家第一次出牌前、闲家发牌后，而且要已经听牌",
        "报叫 is only at the start, when ready: the dealer before his first discard, the others after the deal",
    ),
    "no_pass": (
        "轮到你出牌，没有可以过的：选一张牌回车打出",
        "It is your turn to discard, there is nothing to pass: choose a tile and press Enter",
    ),
}

#: The web table's own words where the terminal's name its keys (style ``words``: it is tapped, not typed).
_TAPPED: dict[str, tuple[str, str]] = {
    "must_win": (
        "后4张必胡：牌墙只剩 {} 张，你听的牌来了，只能胡",
        "后4张必胡: {} tiles left in the wall and your winning tile is here: you must win",
    ),
    "phase_exchange": ("先换三张：点选同一花色的三张，再按“换牌”", "First exchange three: tap three tiles of one suit"),
    "phase_void": ("先定缺：选缺哪一门", "First choose your void suit"),
    "phase_declare": ("先决定报不报叫", "First say whether you declare ready"),
    "no_pass": ("轮到你出牌，没有可以过的：点一张牌打出", "It is your turn to discard, there is nothing to pass"),
}

_VERB: dict[ActionKind, tuple[str, str]] = {
    ActionKind.PUNG: ("碰", "pung"),
    ActionKind.KONG: ("杠", "kong"),
    ActionKind.HU: ("胡", "win"),
}
_KEYS: dict[ActionKind, str] = {
    ActionKind.HU: "h",
    ActionKind.PUNG: "p",
    ActionKind.KONG: "k",
    ActionKind.PASS: "x",
}


def _say(key: str, lang: str, *args: object, tapped: bool = False) -> str:
    zh, en = _TAPPED[key] if tapped and key in _TAPPED else _WHY[key]
    return (zh if lang == "zh" else en).format(*args)


def refusal(action: Action, view: Observation, lang: str, style: str) -> str | None:
    """Why ``action`` is not the player's to make now, or None when it is legal or the table has no words for it.

    ``view`` is the player's own view (its ``legal`` answers are the engine's); nothing outside it is used.
    ``style`` writes tiles as the terminal does (``compact`` 5p, ``zh`` 五筒, ``glyph``), or ``words`` for the web
    table: tiles as players say them in ``lang`` (五筒 / 5 Dot), seats by their place only (上家 / Left: every
    seat is drawn in its place), no keys.
    """
    if style == "words":
        return _refusal(action, view, lang, style, seat_place, tapped=True)
    return _refusal(action, view, lang, style, seat_name, tapped=False)


def _refusal(
    action: Action, view: Observation, lang: str, style: str, seat_name: Callable[[int, str, int], str], *, tapped: bool
) -> str | None:
    legal = view.legal
    if action in legal:
        return None
    me = view.seat
    kind = action.kind
    zh = lang == "zh"

    def tile(t: Tile | None) -> str:
        if t is None:
            return "?"
        return tile_words(t, lang) if tapped else tile_text(t, style).strip()

    def verb(k: ActionKind) -> str:
        pair = _VERB.get(k)
        return action_text(action, lang, style) if pair is None else pair[0 if zh else 1]

    def options() -> str:
        sep = "、" if zh else " / "
        if tapped:
            return sep.join(action_text(a, lang, style) for a in legal)
        return sep.join(f"{_KEYS.get(a.kind, '')} {action_text(a, lang, style)}".strip() for a in legal)

    def say(key: str, *args: object) -> str:
        return _say(key, lang, *args, tapped=tapped)

    if view.is_over:
        return say("over")
    if not view.active[me]:
        return say("won")
    claimable = kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.HU) and view.phase in ("claim", "rob")
    if not legal and not claimable:
        if view.phase == "play" and view.turn != me:
            return say("not_your_turn", seat_name(view.turn, lang, me))
        if view.phase in ("claim", "rob"):
            return say("others_decide", seat_name(view.turn, lang, me), tile(view.pending_tile))
        return say("nothing_asked")
    if legal and all(a.kind is ActionKind.HU for a in legal):
        return say("must_win", view.wall_count)
    answers_phase = kind in (ActionKind.EXCHANGE, ActionKind.VOID) or (
        view.phase == "declare" and kind in (ActionKind.DECLARE_READY, ActionKind.PASS)
    )
    if view.phase in ("exchange", "void", "declare") and not answers_phase:
        return say(f"phase_{view.phase}")
    if kind is ActionKind.DISCARD:
        return _discard(action, view, lang, tile, options, seat_name, tapped)
    if kind in (ActionKind.PUNG, ActionKind.KONG) and view.phase in ("claim", "rob"):
        return _claim(kind, view, lang, tile, verb)
    if kind is ActionKind.PUNG:
        return say("no_discard_to_claim", verb(kind), verb(kind))
    if kind in (ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        if not view.rules.kongs_pay:
            return say("no_kongs_mode", mode_name(view.rules.mode, lang))
        if view.wall_count == 0:
            return say("wall_empty", verb(ActionKind.KONG))
        if view.ready[me]:
            return say("kong_ready")
        return say("no_kong")
    if kind is ActionKind.HU:
        return _hu(view, lang, tile)
    if kind is ActionKind.DECLARE_READY:
        if not view.rules.declare_ready:
            return say("ready_off")
        if view.ready[me]:
            return say("already_ready")
        return say("ready_when")
    if kind is ActionKind.PASS and view.phase == "play":
        return say("no_pass")
    return None


def _discard(
    action: Action,
    view: Observation,
    lang: str,
    tile: _TileText,
    options: _Options,
    seat_name: Callable[[int, str, int], str],
    tapped: bool,
) -> str | None:
    me = view.seat
    if view.phase in ("claim", "rob"):
        key = "answer_claim" if view.phase == "claim" else "answer_rob"
        return _say(key, lang, seat_name(view.turn, lang, me), tile(view.pending_tile), options())
    if view.phase != "play":
        return None
    t = action.tile
    if t is None or t not in view.tiles:
        return _say("not_held", lang, tile(t))
    if view.ready[me] and view.drawn is not None and t != view.drawn:
        return _say("ready_discard", lang, tile(view.drawn))
    void = view.voids[me]
    if void is not None and t.suit_index != void and any(x.suit_index == void for x in view.tiles):
        suit = SUIT_WORDS["zh" if lang == "zh" else "en"][void] if tapped else suit_name(void, lang)
        return _say("void_first", lang, suit)
    return None


def _claim(kind: ActionKind, view: Observation, lang: str, tile: _TileText, verb: _Verb) -> str | None:
    me = view.seat
    t = view.pending_tile
    if view.phase == "rob" or t is None:
        return _say("no_discard_to_claim", lang, verb(kind), verb(kind))
    if view.ready[me]:
        return _say("claim_ready", lang, verb(kind))
    if view.voids[me] == t.suit_index:
        return _say("claim_void", lang, tile(t), verb(kind))
    if kind is ActionKind.KONG and not view.rules.kongs_pay:
        return _say("no_kongs_mode", lang, mode_name(view.rules.mode, lang))
    if view.wall_count == 0:
        return _say("wall_empty", lang, verb(kind))
    need = 2 if kind is ActionKind.PUNG else 3
    held = view.tiles.count(t)
    if held < need:
        return _say("too_few", lang, held, tile(t), verb(kind), need)
    return None


def _hu(view: Observation, lang: str, tile: _TileText) -> str | None:
    me = view.seat
    melds = view.melds[me]
    void = view.voids[me]
    if view.phase in ("claim", "rob") and view.pending_tile is not None:
        tiles = [*view.tiles, view.pending_tile]
        if len({t.suit for t in tiles} | {m.tile.suit for m in melds}) == 3:
            return _say("three_suits", lang)
        if not is_winning(tiles, melds, void=void):
            return _say("not_winning_tile", lang, tile(view.pending_tile))
        if view.pass_lock is not None:  # the engine's own 过水不胡 (R9.1), not a guess from the tiles
            return _say("passed_win", lang, view.pass_lock, view.pass_lock)
        return None
    if view.phase == "play" and view.turn == me:
        if view.drawn is None and len(view.tiles) % 3 == 2:  # 14 - 3k tiles without a draw: just punged
            return _say("after_pung", lang)
        if len({t.suit for t in view.tiles} | {m.tile.suit for m in melds}) == 3:
            return _say("three_suits", lang)
        return _say("not_winning", lang)
    return None
