"""What a seat's own view tells it about its hand, for any table (terminal or web): waits with live copies,
the discards that keep it ready, and the advisor's word on a discard, a kong or a claim.

Everything here reads one :class:`~sichuan_mahjong.game.Observation` and nothing else (docs/rules.md R12), so a
server may send it to that seat. "Left" is what :func:`~sichuan_mahjong.agents.hand.read_view` calls unseen:
four copies minus the seat's own and every copy it can see (rivers, others' melds, tiles others won on).

>>> from sichuan_mahjong.game import Game
>>> game = Game(seed=1)
>>> view = game.view(3)                       # seat 3 deals: 14 tiles, about to discard
>>> advice = advise_view(view)
>>> advice.kind, advice.recommended.action.kind.value
('discard', 'discard')
>>> sorted(advice.to_dict())
['discards', 'kind', 'options', 'recommendation']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sichuan_mahjong.advisor import Advice, advise
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.game import Action, ActionKind, Observation
from sichuan_mahjong.hand.analysis import shanten, useful_tiles, waits
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.scoring import NotWinningError, score_hand
from sichuan_mahjong.tiles import NUM_KINDS, Tile, tile_words

__all__ = [
    "ChoiceAdvice",
    "NothingToAdviseError",
    "Option",
    "WaitLeft",
    "advise_view",
    "discard_waits",
    "live_counts",
    "ready_waits",
]


@dataclass(frozen=True, slots=True)
class WaitLeft:
    """A winning tile and how many copies of it the seat has not seen (听 3m ×2)."""

    tile: Tile
    left: int

    def to_dict(self) -> dict[str, object]:
        return {"tile": str(self.tile), "left": self.left}


def live_counts(view: Observation) -> list[int]:
    """Copies of each of the 27 kinds this seat cannot account for (may still be drawn or discarded)."""
    return read_view(view).unseen


def _void(view: Observation) -> int | None:
    return view.voids[view.seat] if view.rules.declare_void else None


def _waits_left(
    tiles: Sequence[Tile], melds: Sequence[Meld], live: Sequence[int], void: int | None
) -> tuple[WaitLeft, ...]:
    return tuple(WaitLeft(t, live[t.index]) for t in waits(tiles, melds, void=void))


def ready_waits(view: Observation) -> tuple[WaitLeft, ...]:
    """The waits of the seat's standing hand (13 - 3k tiles; before the drawn tile when it holds one).

    Empty when that hand is not ready, or when the seat holds 14 - 3k tiles without a draw (after a pung).
    """
    melds = view.melds[view.seat]
    if len(view.hand) != 13 - 3 * len(melds):
        return ()
    void = _void(view)
    if shanten(view.hand, melds, void=void) != 0:
        return ()
    return _waits_left(view.hand, melds, live_counts(view), void)


def discard_waits(view: Observation) -> dict[Tile, tuple[WaitLeft, ...]]:
    """For a seat about to discard (14 - 3k tiles): each legal discard that leaves it ready, with its waits."""
    melds = view.melds[view.seat]
    tiles = list(view.tiles)
    if len(tiles) != 14 - 3 * len(melds):
        return {}
    void = _void(view)
    live: list[int] | None = None  # read only when some discard stays ready: a server asks at every turn
    out: dict[Tile, tuple[WaitLeft, ...]] = {}
    for index in sorted({a.tile.index for a in view.legal if a.kind is ActionKind.DISCARD and a.tile is not None}):
        tile = Tile(index)
        rest = list(tiles)
        rest.remove(tile)
        if shanten(rest, melds, void=void) == 0:
            live = live_counts(view) if live is None else live
            out[tile] = _waits_left(rest, melds, live, void)
    return out


@dataclass(frozen=True, slots=True)
class Option:
    """One answer and where it leaves the hand: steps from ready and live tiles that would bring it closer.

    ``discard`` is the best discard that follows (after a pung, or the discard itself); ``fan`` is set for a win.
    """

    action: Action
    shanten: int
    live: int
    discard: Tile | None = None
    fan: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "action": str(self.action),
            "shanten": self.shanten,
            "live": self.live,
            "discard": str(self.discard) if self.discard is not None else None,
            "fan": self.fan,
        }


@dataclass(frozen=True, slots=True)
class ChoiceAdvice:
    """The advisor's word on the seat's decision now: ``options`` best first, with a reason in zh and en.

    ``kind`` is ``discard`` on the seat's own turn (``discards`` is then the discard advisor's table) or
    ``claim`` when it may claim a discard or rob a kong.
    """

    kind: str
    options: tuple[Option, ...]
    reason_zh: str
    reason_en: str
    discards: Advice | None = None

    @property
    def recommended(self) -> Option:
        return self.options[0]

    def reason(self, lang: str = "en") -> str:
        return self.reason_zh if lang == "zh" else self.reason_en

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "options": [o.to_dict() for o in self.options],
            "recommendation": {"action": str(self.recommended.action), "zh": self.reason_zh, "en": self.reason_en},
            "discards": self.discards.to_dict()["discards"] if self.discards is not None else None,
        }


class NothingToAdviseError(ValueError):
    """The seat has no decision now (not its turn, nothing to claim)."""


def _seen_tiles(seen: Sequence[int]) -> list[Tile]:
    """Copies the seat sees outside its own hand and melds (counts per kind), as the advisor wants them."""
    return [Tile(t) for t, n in enumerate(seen) for _ in range(n)]


def _standing(tiles: Sequence[Tile], melds: Sequence[Meld], live: Sequence[int], void: int | None) -> tuple[int, int]:
    """Shanten of a 13 - 3k hand and the live copies of every tile that would lower it."""
    now = shanten(tiles, melds, void=void)
    if now < 0:
        return now, 0
    total = 0
    for t in range(NUM_KINDS):
        if live[t] and shanten([*tiles, Tile(t)], melds, void=void) < now:
            total += live[t]
    return now, total


def _after_discard(
    tiles: Sequence[Tile], melds: Sequence[Meld], seen: Sequence[Tile], void: int | None
) -> tuple[int, int, Tile]:
    """The best discard of a 14 - 3k hand by (shanten, live useful tiles): what it leaves and which tile."""
    choices = useful_tiles(tiles, melds, seen, void=void)
    if void is not None and any(t.suit_index == void for t in tiles):
        choices = [c for c in choices if c.discard.suit_index == void]
    best = min(choices, key=lambda c: (c.shanten, -sum(n for _, n in c.useful), c.discard.index))
    return best.shanten, sum(n for _, n in best.useful), best.discard


def _without(tiles: Sequence[Tile], tile: Tile, n: int) -> list[Tile]:
    rest = list(tiles)
    for _ in range(n):
        rest.remove(tile)
    return rest


def _win_fan(tiles: Sequence[Tile], tile: Tile, melds: Sequence[Meld], view: Observation, self_draw: bool) -> int:
    try:
        return score_hand(
            tiles, tile, melds, self_draw=self_draw, declared_ready=view.ready[view.seat], rules=view.rules
        ).fan
    except NotWinningError:  # pragma: no cover - the engine offered hu
        return 0


def advise_view(view: Observation, *, style: str = "compact") -> ChoiceAdvice:
    """The advisor for the seat's decision now, from its view alone; raises NothingToAdviseError otherwise.

    Options are ranked by steps from ready, then live useful tiles; a win is always first. A kong is preferred
    to the alternative it does not set back (it pays in the kong modes and draws a tile); a pung only when it
    brings the hand closer, or as close with more live tiles. Plans for a bigger hand (清一色, 对子胡) are the
    bots' business, not this table's hint. ``style`` writes the tiles of the reasons (``words``: as players say
    them in each language, 九条 / 9 Bam, for the web table).
    """
    legal = view.legal
    kinds = {a.kind for a in legal}
    melds = view.melds[view.seat]
    void = _void(view)
    state = read_view(view)  # once: live counts and seen tiles both come from it
    live, seen = state.unseen, _seen_tiles(state.seen)
    options: list[Option] = []
    if ActionKind.DISCARD in kinds:
        tiles = list(view.tiles)
        discards = advise(tiles, melds, seen, view.rules, void=void, style=style)
        best = discards.recommended
        for a in legal:
            if a.kind is ActionKind.HU and view.drawn is not None:
                options.append(Option(a, -1, 0, fan=_win_fan(tiles, view.drawn, melds, view, True)))
            elif a.kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG) and a.tile is not None:
                if a.kind is ActionKind.CONCEALED_KONG:
                    rest, kong = _without(tiles, a.tile, 4), [*melds, Meld.of(MeldKind.CONCEALED_KONG, a.tile)]
                else:
                    grown = [Meld.of(MeldKind.ADDED_KONG, a.tile) if m.tile == a.tile else m for m in melds]
                    rest, kong = _without(tiles, a.tile, 1), grown
                s, n = _standing(rest, kong, live, void)
                options.append(Option(a, s, n))
        options.append(Option(Action.discard(best.discard), best.shanten, best.total, best.discard))
        options.sort(key=_rank)
        zh, en = _words(options, discards, style)
        return ChoiceAdvice("discard", tuple(options), zh, en, discards)
    tile = view.pending_tile
    if tile is None or not kinds & {ActionKind.HU, ActionKind.PUNG, ActionKind.KONG}:
        raise NothingToAdviseError(f"seat {view.seat} has no discard or claim to decide now")
    hand = list(view.hand)
    for a in legal:
        if a.kind is ActionKind.HU:
            options.append(Option(a, -1, 0, fan=_win_fan([*hand, tile], tile, melds, view, False)))
        elif a.kind is ActionKind.PASS:
            s, n = _standing(hand, melds, live, void)
            options.append(Option(a, s, n))
        elif a.kind is ActionKind.KONG:
            s, n = _standing(_without(hand, tile, 3), [*melds, Meld.of(MeldKind.KONG, tile)], live, void)
            options.append(Option(a, s, n))
        elif a.kind is ActionKind.PUNG:
            pung = [*melds, Meld.of(MeldKind.PUNG, tile)]
            s, n, d = _after_discard(_without(hand, tile, 2), pung, [*seen, tile], void)
            options.append(Option(a, s, n, d))
    options.sort(key=_rank)
    zh, en = _words(options, None, style)
    return ChoiceAdvice("claim", tuple(options), zh, en)


_KONGS = frozenset({ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG})


def _rank(o: Option) -> tuple[int, int, int, int]:
    """A win first; then fewer steps from ready; a kong before what it does not set back (it pays in the kong
    modes and draws a tile); then more live tiles; at a tie, a pass or a discard before a pung."""
    kind = o.action.kind
    if kind is ActionKind.HU:
        return (-2, 0, 0, 0)
    return (o.shanten, 0 if kind in _KONGS else 1, -o.live, 1 if kind is ActionKind.PUNG else 0)


def _state_zh(o: Option) -> str:
    return "听牌" if o.shanten == 0 else f"{o.shanten}向听"


def _state_en(o: Option) -> str:
    return "ready" if o.shanten == 0 else f"{o.shanten} from ready"


def _verb(o: Option, style: str) -> tuple[str, str]:
    kind, tile = o.action.kind, o.action.tile

    def name(t: Tile | None, lang: str) -> str:
        return tile_words(t, lang) if style == "words" and t is not None else str(t)

    if kind is ActionKind.PUNG:
        return f"碰（再打{name(o.discard, 'zh')}）", f"Pung (then discard {name(o.discard, 'en')})"
    if kind is ActionKind.KONG:
        return "杠", "Kong"
    if kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        return f"杠{name(tile, 'zh')}", f"Kong {name(tile, 'en')}"
    if kind is ActionKind.PASS:
        return "过", "Pass"
    return f"打{name(tile, 'zh')}", f"Discard {name(tile, 'en')}"


def _words(options: Sequence[Option], discards: Advice | None, style: str) -> tuple[str, str]:
    best = options[0]
    if best.action.kind is ActionKind.HU:
        return f"胡！{best.fan}番", f"Win: hu, {best.fan} fan."
    if best.action.kind is ActionKind.DISCARD and discards is not None and len(options) == 1:
        return discards.reason_zh, discards.reason_en
    zh_verb, en_verb = _verb(best, style)
    zh = f"{zh_verb}：{_state_zh(best)}，进张{best.live}张"
    en = f"{en_verb}: {_state_en(best)}, {best.live} live useful tiles"
    other = next((o for o in options[1:] if o.action.kind is not ActionKind.HU), None)
    if other is not None:
        o_zh, o_en = _verb(other, style)
        zh += f"（{o_zh}：{_state_zh(other)}，进张{other.live}张）"
        en += f" ({o_en}: {_state_en(other)}, {other.live})"
    return zh, en + "."
