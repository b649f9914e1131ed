"""What one seat may see (docs/rules.md R12): the only door from the engine to bots, tables, servers and RL.

An :class:`Observation` holds the seat's own tiles and the public table, nothing more: never another seat's
concealed tiles, a concealed kong's tile, a void choice before all are revealed, or the wall order.
:func:`filter_event` applies the same rule to every event that goes out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS, Tile

__all__ = [
    "PHASES",
    "Observation",
    "WinView",
    "filter_event",
    "let_pass",
    "public_event",
    "public_view",
    "visible_counts",
]

#: The phases of a hand, in order (docs/engine.md): 换三张, 定缺, 报叫 of the non-dealers, play, then over.
#: ``claim`` is the moment after a discard, ``rob`` the moment after an added kong (抢杠).
PHASES = ("exchange", "void", "declare", "play", "claim", "rob", "over")


@dataclass(frozen=True, slots=True)
class WinView:
    """A win everybody sees: who, on which tile, from whom (``None`` for a self-draw), and its fan.

    ``shared`` marks a win on the tile the win before it took: the second (or third) winner of one discard or
    robbed added kong (一炮多响). Every winner holds a copy in its hand, but it is one tile on the table: count it
    once (:func:`visible_counts`).
    """

    seat: int
    tile: Tile
    from_seat: int | None
    robbed_kong: bool
    fan: int
    shared: bool = False


class Observation(NamedTuple):
    """One seat's view of the hand. Tuples indexed by seat hold everyone's public facts.

    ``melds[s]`` lists seat s's pungs, exposed and added kongs, and its concealed kongs only when s is
    this seat; other seats' concealed kongs are counted in ``hidden_kongs[s]`` without their tile.
    ``hand`` is this seat's concealed tiles without the tile just drawn, which is ``drawn``.
    ``pass_lock`` is this seat's own 过水不胡 (R9.1): the hand's own fan (shape + roots + 报叫, capped; no
    抢杠 or 杠上炮) of the best win it passed since its last draw, which the hand's own fan on a later discard or
    robbed kong must strictly exceed, or None when it is not locked. Only its own: another seat's lock would
    tell that it could have won, so no view carries it.

    Immutable, read by attribute. A named tuple rather than a frozen dataclass: a bot asks for a view at
    every decision, and a tuple is built several times faster.
    """

    seat: int
    dealer: int
    rules: Rules
    base: int
    phase: str
    turn: int  # the seat on turn, or whose discard / added kong is pending
    pending_tile: Tile | None  # the discard being claimed or the added-kong tile that may be robbed
    hand: tuple[Tile, ...]
    drawn: Tile | None
    melds: tuple[tuple[Meld, ...], ...]
    hidden_kongs: tuple[int, ...]
    concealed_counts: tuple[int, ...]  # how many concealed tiles each seat holds (public)
    discards: tuple[tuple[Tile, ...], ...]  # each seat's river in order (claimed tiles leave it)
    wall_count: int
    scores: tuple[int, ...]  # running deltas of this hand
    wins: tuple[WinView, ...]
    voids: tuple[int | None, ...]  # suit index per seat once revealed; this seat's own choice at once
    ready: tuple[bool, ...]  # 报叫 flags
    active: tuple[bool, ...]  # still in the hand (not yet won, bloody modes)
    legal: tuple[Action, ...]  # this seat's legal answers now; empty when it is not asked
    exchanged: tuple[tuple[Tile, ...], tuple[Tile, ...]] | None  # (given, received) after 换三张
    is_over: bool
    pass_lock: int | None = None  # last, with a default, so positional and keyword constructors keep working

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """All concealed tiles including the drawn one."""
        return self.hand if self.drawn is None else (*self.hand, self.drawn)


def visible_counts(view: Observation) -> list[int]:
    """Copies of each kind (27 counts) the seat sees outside its own concealed tiles and melds: every river,
    the other seats' pungs (3) and kongs (4; a concealed kong shows no tile), and each tile won by another seat,
    once: one discard won by several seats (``WinView.shared``) is one tile, and a tile this seat won on is among
    its own tiles already. With its own tiles and melds, never more than four of a kind; a spectator's view
    (:func:`public_view`) counts every win.

    The one count of what a seat can see: the bots' unseen tiles, the sampler's pool and the hints read it.

    >>> from sichuan_mahjong import Game, Rules
    >>> sum(visible_counts(Game(Rules.preset("seed"), seed=1).view(0)))
    0
    """
    seat = view.seat
    seen = [0] * NUM_KINDS
    for s, river in enumerate(view.discards):
        for tile in river:
            seen[tile.index] += 1
        if s != seat:
            for m in view.melds[s]:
                # A pung later made an added kong shows four; a robbed added-kong tile went to the winner.
                seen[m.tile_index] += 3 if m.kind is MeldKind.PUNG else 4
    wins = view.wins
    n = len(wins)
    i = 0
    while i < n:  # a group: one win, and the wins that shared its tile
        kind = wins[i].tile.index
        mine = wins[i].seat == seat
        i += 1
        while i < n and wins[i].shared:
            mine = mine or wins[i].seat == seat
            i += 1
        if not mine:
            seen[kind] += 1
    return seen


_PRIVATE_TILE_EVENTS = frozenset({"draw", "concealed_kong"})


def let_pass(view: Observation, o: int, *, pending: bool = False) -> set[int]:
    """Kinds discarded after seat o's last turn that o let pass (过水不胡 keeps him from winning on them), read
    from the order of turns: the last discard of each seat after o up to the one on turn now (a claim that
    skipped seats is not seen); nothing for the seat on turn, whose hand has changed since. The discard pending
    now (the claim phase) counts only with ``pending``: o has not answered it yet, which is what a picture of now
    needs; a price of what follows one's own answer to it counts it.

    >>> from sichuan_mahjong import Game, Rules
    >>> let_pass(Game(Rules.preset("seed"), seed=1).view(0), 1)
    set()
    """
    out: set[int] = set()
    if o == view.turn:
        return out  # on turn now: its hand has changed since anything it let pass (过水 ends with one's turn)
    for k in range(1, 4):
        x = (o + k) % 4
        if x == view.turn:  # on turn now: its last discard is the pending one (claim), else from before o's turn
            if pending and view.phase == "claim" and view.discards[x]:
                out.add(view.discards[x][-1].index)
            break
        river = view.discards[x]
        if river and view.active[x]:
            out.add(river[-1].index)
    return out


def filter_event(event: Event, seat: int) -> Event | None:
    """The event as seat ``seat`` may receive it, or None when it must not see it at all.

    ``deal`` keeps only the seat's hand and the wall's size; ``act`` (a seat's raw answer, even a pass that
    would reveal a possible claim) and a private choice reach only their own seat; a drawn tile or a concealed
    kong's tile is blanked for everyone else; ``exchange`` keeps only the seat's own tiles.
    """
    kind = event.type
    if kind == "deal":
        data: dict[str, Any] = dict(event.data)
        hands = data.pop("hands")
        wall = data.pop("wall")
        data.pop("seed", None)
        data.pop("exchange_dice", None)
        data["hand"] = hands[seat]
        data["wall_count"] = len(wall) // 2
        return Event(kind, event.seat, data)
    if kind == "act":
        return event if event.seat == seat else None
    if kind == "exchange":
        data = {
            "direction": event.data["direction"],
            "given": event.data["given"][seat],
            "received": event.data["received"][seat],
        }
        return Event(kind, event.seat, data)
    if kind in _PRIVATE_TILE_EVENTS and event.seat != seat:
        data = dict(event.data)
        data["tile"] = None
        return Event(kind, event.seat, data)
    return event


def public_view(view: Observation) -> Observation:
    """What anyone may see, built from any seat's view: a spectator's view (``seat == -1``).

    Drops the seat's own secrets: its concealed tiles and drawn tile, its concealed kongs' tiles (counted in
    ``hidden_kongs`` as for everyone else), its legal answers, the tiles it exchanged and its 过水 lock. Voids
    are already public in every view (shown only once all four chose).
    """
    me = view.seat
    own = view.melds[me]
    hidden = [m for m in own if m.kind is MeldKind.CONCEALED_KONG]
    melds = list(view.melds)
    melds[me] = tuple(m for m in own if m.kind is not MeldKind.CONCEALED_KONG)
    counts = list(view.hidden_kongs)
    counts[me] += len(hidden)
    return view._replace(
        seat=-1,
        hand=(),
        drawn=None,
        melds=tuple(melds),
        hidden_kongs=tuple(counts),
        legal=(),
        exchanged=None,
        pass_lock=None,
    )


def public_event(event: Event) -> Event | None:
    """The event as a spectator may receive it: what every seat receives, nobody's own tiles.

    ``deal`` keeps the dealer, dice and wall size but no hand; ``exchange`` only its direction; ``act`` nothing;
    a drawn tile or a concealed kong's tile is blanked whoever drew it.
    """
    kind = event.type
    if kind == "act":
        return None
    if kind == "deal":
        shown = filter_event(event, 0)
        assert shown is not None
        data = {k: v for k, v in shown.data.items() if k != "hand"}
        return Event(kind, event.seat, data)
    if kind == "exchange":
        return Event(kind, event.seat, {"direction": event.data["direction"]})
    if kind in _PRIVATE_TILE_EVENTS:
        return Event(kind, event.seat, {**event.data, "tile": None})
    return event
