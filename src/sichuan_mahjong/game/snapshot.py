"""A position of a hand in play, every hidden tile in it, and the checks it must pass to become a :class:`Game`.

:meth:`Game.snapshot` takes one from a game; :meth:`Game.from_position` builds a game at it, which plays on as
any other (``to_act`` / ``step``). The search bots build theirs from a seat's view with its hidden tiles drawn at
random (``game/sample.py``); a test or a puzzle writes one by hand. Tiles are indices 0..26 (``Tile.index``).

A snapshot is checked before anything is built, and :class:`PositionError` names the first thing that is wrong:

* the phase is one of the hand in progress: ``play`` (seat ``turn`` to play), ``claim`` (its discard may be
  claimed) or ``rob`` (its added kong may be robbed); set-up phases are reached by playing from a deal;
* the 108 tiles are all there, no kind more than four times: concealed hands, melds, rivers and the wall (a tile
  won by several seats at once, 一炮多响, is a copy in each winner's hand: one more tile per shared win);
* each seat holds 13 - 3k concealed tiles for its k melds, 14 - 3k when it is to play or has won (血战: its hand
  keeps the tile it won on), and the owner of an added kong that may be robbed still holds its tile;
* a drawn tile is in its seat's hand, and only the seat on turn in play or one that won by self-draw (its
  winning tile stays its drawn tile) has one; the pending tile (claim and rob only) is the last
  of its river (claim) or the tile of one of its pungs (rob);
* seats are 0..3, voids 0..2 or None, the scores sum to zero, the seats that won are out of the hand.

What a snapshot leaves out is history that matters only at the edges, and a view does not show: it is counted
from the rest when not given (``draws``, ``discarded``), or starts empty (``kongs``, ``payments``, ``win_records``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sichuan_mahjong.game.settlement import KongRecord, Payment, WinRecord
from sichuan_mahjong.game.view import WinView
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS, Tile

__all__ = ["PHASES", "PositionError", "Snapshot", "check_snapshot"]

#: The phases a hand can be built at.
PHASES = ("play", "claim", "rob")
_SEATS = range(4)


class PositionError(ValueError):
    """A snapshot no hand can be at: a tile too many or missing, a hand of the wrong size, a phase it cannot be in."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a hand in play is: per seat its concealed tiles (the drawn one included) and drawn tile, melds
    (concealed kongs too), river in order, 定缺 void, 报叫, whether it is still in, its score so far and its
    过水不胡 lock; the wall in draw order (kong replacements come from its far end); whose turn it is and, in
    ``claim`` / ``rob``, the tile others may take; the wins so far (as every seat sees them) and each seat's 换三张.

    ``after_pung``: the seat on turn has just punged (it must discard). ``kong_chain``: kongs in a row the seat
    on turn made this turn (杠上开花 / 杠上炮). ``draws`` and ``discarded`` (per seat, all the hand) default to its
    melds plus its river and to its river. ``ready_at_deal`` (for 地胡), ``kongs``, ``payments`` and
    ``win_records`` (the settlement's history) default to none.
    """

    rules: Rules
    dealer: int
    phase: str
    turn: int
    hands: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    rivers: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    drawn: tuple[int | None, ...] = (None, None, None, None)
    pending_tile: int | None = None
    voids: tuple[int | None, ...] = (None, None, None, None)
    declared: tuple[bool, ...] = (False, False, False, False)
    active: tuple[bool, ...] = (True, True, True, True)
    wins: tuple[WinView, ...] = ()
    scores: tuple[int, ...] = (0, 0, 0, 0)
    locks: tuple[int | None, ...] = (None, None, None, None)
    exchanged: tuple[tuple[tuple[Tile, ...], tuple[Tile, ...]], ...] | None = None
    after_pung: bool = False
    kong_chain: int = 0
    draws: tuple[int, ...] | None = None
    discarded: tuple[int, ...] | None = None
    ready_at_deal: tuple[bool, ...] = (False, False, False, False)
    kongs: tuple[KongRecord, ...] = ()
    payments: tuple[Payment, ...] = ()
    win_records: tuple[WinRecord, ...] = ()
    base: int = 1
    seed: int = 0


def _four(value: object, what: str) -> Sequence[object]:
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise PositionError(f"{what} must hold one entry per seat (four), got {value!r}"[:200])
    return value


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in _SEATS:
        raise PositionError(f"{what} must be a seat 0..3, got {value!r}")
    return value


def _tiles(value: object, what: str) -> list[int]:
    if not isinstance(value, (tuple, list)):
        raise PositionError(f"{what} must be tile indices 0..26, got {value!r}"[:200])
    for t in value:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < NUM_KINDS:
            raise PositionError(f"{what} holds {t!r}, not a tile index 0..26")
    return list(value)


def check_snapshot(p: Snapshot) -> None:
    """Raise :class:`PositionError` naming the first thing no hand in play can be (see the module doc)."""
    if not isinstance(p.rules, Rules):
        raise PositionError(f"rules must be a Rules, got {type(p.rules).__name__}")
    if p.phase not in PHASES:
        raise PositionError(f"a position is built in {', '.join(PHASES)}, not in phase {p.phase!r}")
    _seat(p.dealer, "dealer")
    turn = _seat(p.turn, "turn")
    hands = [_tiles(h, f"seat {s}'s hand") for s, h in enumerate(_four(p.hands, "hands"))]
    rivers = [_tiles(r, f"seat {s}'s river") for s, r in enumerate(_four(p.rivers, "rivers"))]
    wall = _tiles(p.wall, "the wall")
    _four(p.melds, "melds")
    melds = p.melds
    for name in ("drawn", "voids", "declared", "active", "scores", "locks", "ready_at_deal"):
        _four(getattr(p, name), name)
    for s in _SEATS:
        v = p.voids[s]
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 3):
            raise PositionError(f"seat {s}'s void must be a suit 0..2 or None, got {v!r}")
    if sum(p.scores) != 0:
        raise PositionError(f"the scores must sum to zero (every payment has a payer), got {list(p.scores)}")
    counts = [0] * NUM_KINDS
    for s in _SEATS:
        for t in (*hands[s], *rivers[s]):
            counts[t] += 1
        for m in melds[s]:
            if not isinstance(m, Meld):
                raise PositionError(f"seat {s}'s melds must be Meld values, got {m!r}")
            counts[m.tile_index] += m.size
    for t in wall:
        counts[t] += 1
    shared = [0] * NUM_KINDS
    won = set()
    for w in p.wins:
        won.add(w.seat)
        shared[w.tile.index] += w.shared
        if p.active[w.seat]:
            raise PositionError(f"seat {w.seat} won but is still in the hand (active)")
    for t in range(NUM_KINDS):
        if counts[t] > 4 + shared[t]:
            raise PositionError(f"{counts[t]} copies of {Tile(t)}: a kind has four")
    total = sum(counts) - sum(shared)
    if total != 108:
        raise PositionError(f"the position holds {total} tiles, not 108 (hands, melds, rivers and the wall)")
    for s in _SEATS:
        k = len(melds[s])
        full = (s == turn and p.phase in ("play", "rob")) or s in won
        want = (14 if full else 13) - 3 * k
        if len(hands[s]) != want:
            state = "to play" if full and s == turn else "after its win" if full else "waiting"
            raise PositionError(
                f"seat {s} holds {len(hands[s])} concealed tiles with {k} melds {state}: it should hold {want}"
            )
    for s, d in enumerate(p.drawn):
        if d is None:
            continue
        if d not in hands[s]:
            raise PositionError(f"seat {s}'s drawn tile {d!r} is not in its hand")
        if s in won:
            continue
        if p.phase != "play" or s != turn or p.after_pung:
            raise PositionError(f"seat {s} has a drawn tile but is not on turn in play after a draw")
    if p.phase == "play":
        if p.pending_tile is not None:
            raise PositionError("a pending tile is for claim and rob; in play there is none")
    else:
        pending = p.pending_tile
        if pending is None or isinstance(pending, bool) or not isinstance(pending, int) or not 0 <= pending < NUM_KINDS:
            raise PositionError(f"a {p.phase} position needs the pending tile (0..26), got {pending!r}")
        t = pending
        if p.after_pung:
            raise PositionError(f"in {p.phase} no seat has just punged")
        if p.phase == "claim" and (not rivers[turn] or rivers[turn][-1] != t):
            raise PositionError(f"seat {turn}'s discard {Tile(t)} is not the last tile of its river")
        if p.phase == "rob" and (
            t not in hands[turn] or not any(m.kind is MeldKind.PUNG and m.tile_index == t for m in melds[turn])
        ):
            raise PositionError(f"seat {turn} cannot add {Tile(t)} to a pung: it holds no such tile and pung")
    if not p.active[turn]:
        raise PositionError(f"seat {turn} is on turn but out of the hand")
