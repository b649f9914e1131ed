"""One seat's log read back: the hand as that seat saw it, rebuilt from its filtered events alone.

A one-seat record (``save_hand(game, path, seat=k)``, docs/records.md) holds ``game.events_for(k)``: seat k's own
tiles and everyone's public moves. :class:`SeatLog` follows those events and gives, after any of them, the
:class:`~sichuan_mahjong.game.Observation` seat k had then, built from nothing else: its own concealed tiles, every
seat's public melds and river, other seats' concealed kongs face down (``hidden_kongs``), how many concealed tiles
each seat holds, the wall count, the scores, wins, voids, 报叫 and the phase. An event seat k could not have received
(another seat's tiles or answer, the wall, the seed) is refused, so nothing hidden can enter a view.

The view equals ``game.view(k)`` at every decision of the hand (tests/test_seat_log.py) but for what only the
engine knows: ``legal`` is empty, ``pass_lock`` None, and the 报叫 round after the deal shows as ``play`` unless
the log tells of it. :func:`seat_steps` cuts the log into steps, as ``record.replay_steps`` does a full hand's.

>>> import random
>>> from sichuan_mahjong.game import Game
>>> game, rng = Game(seed=5), random.Random(5)
>>> while not game.is_over:
...     game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
>>> log = SeatLog(1)
>>> for event in game.events_for(1):
...     log.apply(event)
>>> log.view() == game.view(1)._replace(legal=(), pass_lock=None)
True
>>> log.apply(game.events[0])  # the full deal: every hand and the wall  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: seat 1 could not see this 'deal' event: it holds every hand (a full record's)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from sichuan_mahjong.game import Action, Event, Observation, WinView
from sichuan_mahjong.game.actions import DECLARE_READY, PASS
from sichuan_mahjong.game.events import tiles_of_text
from sichuan_mahjong.game.view import filter_event
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.record import HandRecord, RecordError
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS, SUITS, Tile

__all__ = ["SeatLog", "SeatStep", "seat_steps"]

_NO_ANSWER: tuple[Action, ...] = ()


def _tiles(value: object, what: str) -> list[int]:
    tiles = tiles_of_text(value) if isinstance(value, str) else None
    if tiles is None:
        raise ValueError(f"{what} must be tiles written one by one ('1m1m5p'), got {value!r}")
    return tiles


def _seat_of(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
        raise ValueError(f"{what} must be a seat 0..3, got {value!r}")
    return value


class SeatLog:
    """Seat ``seat``'s view of a hand, followed event by event from what that seat received.

    Feed it the seat's events in order (:meth:`apply`, the ``deal`` first); :meth:`view` is the seat's view now.
    A tile that leaves a hand it is not in, a meld that is not there, or an event the seat could not have seen is a
    ValueError naming it. An added kong (补杠) stands only once it is not robbed (the next event tells), as in the
    engine.
    """

    def __init__(self, seat: int) -> None:
        self.seat = _seat_of(seat, "seat")
        self.dealt = False
        self.rules = Rules()
        self.base = 1
        self.dealer = 0
        self.phase = "play"
        self.turn = 0
        self.pending: int | None = None  # the discard (or added-kong tile) others may claim
        self.counts = [0] * NUM_KINDS  # this seat's concealed tiles, drawn one included
        self.drawn = -1
        self.concealed = [13, 13, 13, 13]  # how many concealed tiles each seat holds
        self.melds: list[list[Meld]] = [[], [], [], []]  # concealed kongs only for this seat
        self.hidden_kongs = [0, 0, 0, 0]
        self.rivers: list[list[int]] = [[], [], [], []]
        self.wall = 0
        self.scores = [0, 0, 0, 0]
        self.wins: list[WinView] = []
        self.voids: tuple[int | None, ...] = (None, None, None, None)
        self.ready = [False] * 4
        self.active = [True] * 4
        self.exchanged: tuple[tuple[Tile, ...], tuple[Tile, ...]] | None = None
        self.over = False
        self._adding: tuple[int, int] | None = None  # (seat, tile) of an added kong that may still be robbed
        self._won: tuple[int, int] | None = None  # (from_seat, tile) of the win just read, until another event

    # ------------------------------------------------------------------------------------------ reading
    def apply(self, event: Event) -> None:
        """Take the next event of the seat's log (ValueError for one it could not see or that does not fit)."""
        self._check_seen(event)
        kind, d = event.type, event.data
        if not self.dealt:
            if kind != "deal":
                raise ValueError(f"a hand starts with its 'deal' event, found {kind!r}")
            self._deal(d)
            return
        if kind == "deal":
            raise ValueError("a second 'deal' event: a hand has one")
        if self._adding is not None and kind not in ("act", "robbed"):
            self._stand_added_kong()  # nobody robbed it: the engine puts the kong down now
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise ValueError(f"an event of unknown type {kind!r}")
        if kind not in ("win", "payment"):
            self._won = None  # the wins on one discard come in a row, with only their payments between
        handler(self, event.seat, d)

    def _check_seen(self, event: Event) -> None:
        """Refuse what this seat could not have received (docs/rules.md R12): the log must be its filtered one."""
        kind, d, me = event.type, event.data, self.seat
        why = None
        if kind == "deal":
            if "hands" in d or "wall" in d:
                why = "it holds every hand (a full record's)"
            elif "seed" in d or "exchange_dice" in d:
                why = "it holds the seed or the exchange dice"
        elif kind == "exchange":
            if not isinstance(d.get("given"), str) or not isinstance(d.get("received"), str):
                why = "it holds every seat's exchanged tiles"
        elif filter_event(event, me) != event:
            why = "another seat's answer" if kind == "act" else "another seat's concealed tile"
            why = f"it holds {why}"
        if why is not None:
            raise ValueError(f"seat {me} could not see this {kind!r} event: {why}")

    def _deal(self, d: Mapping[str, Any]) -> None:
        try:
            self.rules = Rules.from_dict(d["rules"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the deal's rules cannot be read: {exc}") from None
        self.base = int(d.get("base", 1))
        self.dealer = _seat_of(d.get("dealer"), "the deal's dealer")
        hand = _tiles(d.get("hand"), "the deal's hand")
        want = 14 if self.seat == self.dealer else 13
        if len(hand) != want:
            raise ValueError(f"seat {self.seat} is dealt {len(hand)} tiles, not {want}")
        for t in hand:
            self.counts[t] += 1
        self.drawn = hand[-1] if self.seat == self.dealer else -1
        self.concealed[self.dealer] = 14
        wall = d.get("wall_count")
        if isinstance(wall, bool) or not isinstance(wall, int) or wall < 0:
            raise ValueError(f"the deal's wall_count must be a count of tiles, got {wall!r}")
        self.wall = wall
        self.turn = self.dealer
        self.phase = "exchange" if self.rules.exchange_three else "void" if self.rules.declare_void else "play"
        self.dealt = True

    # ---------------------------------------------------------------------------------------- tile moves
    def _take(self, seat: int, tile: int | None, n: int = 1) -> None:
        """n of ``tile`` leave seat's concealed tiles (only this seat's are known by kind)."""
        if seat == self.seat:
            if tile is None:
                raise ValueError(f"seat {seat}'s own tile is missing")
            if self.counts[tile] < n:
                raise ValueError(f"seat {seat} gives up {n} × {Tile(tile)} but holds {self.counts[tile]}")
            self.counts[tile] -= n
        if self.concealed[seat] < n:
            raise ValueError(f"seat {seat} gives up {n} tiles but holds {self.concealed[seat]}")
        self.concealed[seat] -= n

    def _give(self, seat: int, tile: int | None) -> None:
        if seat == self.seat:
            if tile is None:
                raise ValueError(f"seat {seat}'s own tile is missing")
            self.counts[tile] += 1
        self.concealed[seat] += 1

    def _meld_index(self, seat: int, kind: MeldKind, tile: int) -> int:
        for i, m in enumerate(self.melds[seat]):
            if m.kind is kind and m.tile_index == tile:
                return i
        raise ValueError(f"seat {seat} has no {kind.value} of {Tile(tile)}")

    def _claimed(self, seat: int, from_seat: object) -> None:
        """The pending discard leaves its river (once, however many seats win on it)."""
        src = _seat_of(from_seat, "from_seat")
        if self.pending is None or self.phase != "claim" or self.turn != src:
            raise ValueError(f"seat {seat} claims a discard of seat {src}, who has none waiting")
        self.rivers[src].pop()
        self.pending = None

    def _stand_added_kong(self) -> None:
        assert self._adding is not None
        seat, tile = self._adding
        self._adding = None
        self._take(seat, tile)
        self.melds[seat][self._meld_index(seat, MeldKind.PUNG, tile)] = Meld(MeldKind.ADDED_KONG, tile)
        if seat == self.seat:
            self.drawn = -1
        self.phase, self.pending = "play", None

    # ------------------------------------------------------------------------------------------- events
    def _act(self, seat: int, d: Mapping[str, Any]) -> None:
        pass  # this seat's own answer: what it causes follows as events

    def _exchange(self, seat: int, d: Mapping[str, Any]) -> None:
        given, received = _tiles(d["given"], "the tiles given"), _tiles(d["received"], "the tiles received")
        for t in given:
            self._take(self.seat, t)
        for t in received:
            self._give(self.seat, t)
        if self.drawn in given:  # the dealer's 14th tile went in the exchange
            self.drawn = -1
        self.exchanged = (tuple(map(Tile, given)), tuple(map(Tile, received)))
        self.phase = "void" if self.rules.declare_void else "play"

    def _voids(self, seat: int, d: Mapping[str, Any]) -> None:
        voids = d.get("voids")
        if not isinstance(voids, list) or len(voids) != 4 or any(v not in SUITS for v in voids):
            raise ValueError(f"'voids' must name four suits (m, p or s), got {voids!r}")
        self.voids = tuple(SUITS.index(v) for v in voids)
        self.phase = "play"

    def _ready(self, seat: int, d: Mapping[str, Any]) -> None:
        self.ready[_seat_of(seat, "the ready seat")] = True
        self.phase, self.turn = "play", self.dealer

    def _draw(self, seat: int, d: Mapping[str, Any]) -> None:
        seat = _seat_of(seat, "the drawing seat")
        if self.wall <= 0:
            raise ValueError(f"seat {seat} draws from an empty wall")
        tile = None if seat != self.seat else _tiles(d.get("tile"), "the drawn tile")[0]
        self._give(seat, tile)
        if tile is not None:
            self.drawn = tile
        self.wall -= 1
        self.phase, self.turn, self.pending = "play", seat, None

    def _discard(self, seat: int, d: Mapping[str, Any]) -> None:
        seat = _seat_of(seat, "the discarding seat")
        (tile,) = _tiles(d.get("tile"), "the discard")
        self._take(seat, tile)
        if seat == self.seat:
            self.drawn = -1
        self.rivers[seat].append(tile)
        self.phase, self.turn, self.pending = "claim", seat, tile

    def _pung(self, seat: int, d: Mapping[str, Any], kind: MeldKind = MeldKind.PUNG) -> None:
        seat = _seat_of(seat, "the claiming seat")
        (tile,) = _tiles(d.get("tile"), f"the {kind.value}'s tile")
        if tile != self.pending:
            raise ValueError(f"seat {seat} claims {Tile(tile)}, which is not the discard waiting")
        self._claimed(seat, d.get("from_seat"))
        self._take(seat, tile, kind.size - 1)
        self.melds[seat].append(Meld(kind, tile))
        if seat == self.seat:
            self.drawn = -1
        self.phase, self.turn = "play", seat

    def _kong(self, seat: int, d: Mapping[str, Any]) -> None:
        self._pung(seat, d, MeldKind.KONG)

    def _concealed_kong(self, seat: int, d: Mapping[str, Any]) -> None:
        seat = _seat_of(seat, "the kong's seat")
        if seat == self.seat:
            (tile,) = _tiles(d.get("tile"), "the concealed kong's tile")
            self._take(seat, tile, 4)
            self.drawn = -1
            self.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, tile))
        else:
            self._take(seat, None, 4)
            self.hidden_kongs[seat] += 1
        self.phase, self.turn, self.pending = "play", seat, None

    def _added_kong(self, seat: int, d: Mapping[str, Any]) -> None:
        seat = _seat_of(seat, "the kong's seat")
        (tile,) = _tiles(d.get("tile"), "the added kong's tile")
        self._meld_index(seat, MeldKind.PUNG, tile)
        if seat == self.seat and not self.counts[tile]:
            raise ValueError(f"seat {seat} adds {Tile(tile)} to its pung but does not hold it")
        self._adding = (seat, tile)
        self.phase, self.turn, self.pending = "rob", seat, tile

    def _robbed(self, seat: int, d: Mapping[str, Any]) -> None:
        if self._adding is None or self._adding[0] != seat:
            raise ValueError(f"seat {seat}'s added kong is robbed, but it adds none")
        _, tile = self._adding
        self._adding = None
        self._take(seat, tile)  # the tile goes to the robbers; the pung stays a pung (R9.3)
        if seat == self.seat:
            self.drawn = -1

    def _win(self, seat: int, d: Mapping[str, Any]) -> None:
        seat = _seat_of(seat, "the winner")
        (tile,) = _tiles(d.get("tile"), "the winning tile")
        from_seat = d.get("from_seat")
        robbed = bool(d.get("robbed_kong"))
        if from_seat is not None:
            from_seat = _seat_of(from_seat, "from_seat")
            if not robbed and self.pending is not None:
                self._claimed(seat, from_seat)
            self._give(seat, tile)
        fan = d.get("fan")
        if isinstance(fan, bool) or not isinstance(fan, int):
            raise ValueError(f"a win's 'fan' must be an integer, got {fan!r}")
        # 一炮多响: a win on the tile the win just before took from the same seat is the same tile.
        shared = from_seat is not None and self._won == (from_seat, tile)
        self._won = (from_seat, tile) if from_seat is not None else None
        self.wins.append(WinView(seat, Tile(tile), from_seat, robbed, fan, shared))
        if self.rules.bloody:
            self.active[seat] = False
        self.pending = None

    def _payment(self, seat: int, d: Mapping[str, Any]) -> None:
        payer, payee = _seat_of(d.get("payer"), "the payer"), _seat_of(d.get("payee"), "the payee")
        amount = d.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ValueError(f"a payment's amount must be an integer, got {amount!r}")
        self.scores[payer] -= amount
        self.scores[payee] += amount

    def _end(self, seat: int, d: Mapping[str, Any]) -> None:
        self.over = True
        self.phase, self.pending = "over", None

    # --------------------------------------------------------------------------------------------- view
    def view(self) -> Observation:
        """The seat's view now: its own tiles and the public table, nothing else (no legal answers, no lock)."""
        me = self.seat
        held = [t for t in range(NUM_KINDS) for _ in range(self.counts[t])]
        if self.drawn >= 0:
            held.remove(self.drawn)
        return Observation(
            seat=me,
            dealer=self.dealer,
            rules=self.rules,
            base=self.base,
            phase=self.phase,
            turn=self.turn,
            pending_tile=Tile(self.pending) if self.pending is not None else None,
            hand=tuple(map(Tile, held)),
            drawn=Tile(self.drawn) if self.drawn >= 0 else None,
            melds=tuple(tuple(m) for m in self.melds),
            hidden_kongs=tuple(self.hidden_kongs),
            concealed_counts=tuple(self.concealed),
            discards=tuple(tuple(map(Tile, r)) for r in self.rivers),
            wall_count=self.wall,
            scores=tuple(self.scores),
            wins=tuple(self.wins),
            voids=self.voids,
            ready=tuple(self.ready),
            active=tuple(self.active),
            legal=_NO_ANSWER,
            exchanged=self.exchanged,
            is_over=self.over,
        )


_HANDLERS: dict[str, Callable[[SeatLog, int, Mapping[str, Any]], None]] = {
    "act": SeatLog._act,
    "exchange": SeatLog._exchange,
    "voids": SeatLog._voids,
    "ready": SeatLog._ready,
    "draw": SeatLog._draw,
    "discard": SeatLog._discard,
    "pung": SeatLog._pung,
    "kong": SeatLog._kong,
    "concealed_kong": SeatLog._concealed_kong,
    "added_kong": SeatLog._added_kong,
    "robbed": SeatLog._robbed,
    "win": SeatLog._win,
    "payment": SeatLog._payment,
    "end": SeatLog._end,
}


# ---------------------------------------------------------------------------------------------- steps


class SeatStep(NamedTuple):
    """A step of one seat's log: after ``events[:at]`` the seat's view was ``view``.

    ``asked`` holds the seats the log shows must answer now, each with the answers it could give where the log
    tells them and ``()`` where it does not: the seat on turn, every seat in 换三张 and 定缺, this seat when its
    own answer comes next; nobody at the end. Whom else a claim waits for is not in the log.
    """

    at: int
    view: Observation
    asked: dict[int, tuple[Action, ...]]


#: Events that begin a step: a move another seat makes, or a result the log shows; a seat's own answer (``act``)
#: begins the step of what it causes.
_STARTERS = frozenset(
    {"exchange", "voids", "ready", "discard", "pung", "kong", "concealed_kong", "added_kong", "robbed", "win", "end"}
)
_DECLARE_ANSWERS = (DECLARE_READY, PASS)


def _starts(kind: str, before: str) -> bool:
    """Does an event of type ``kind`` after one of type ``before`` begin a new step?"""
    if kind == "act":
        return True
    if before == "act":
        return False  # what the seat's answer caused
    if kind == "ready":
        return before != "ready"  # the 报叫 round's declarations come together
    if kind == "win":
        return before not in ("win", "robbed")  # 一炮多响, or the robbing of a kong
    if kind == "end":
        return before != "payment"  # the payments that end a hand come with its end
    if kind == "payment":
        return before == "discard"  # 查叫 at the wall's end, after the last discard
    return kind in _STARTERS


def seat_steps(hand: HandRecord, seat: int) -> list[SeatStep]:
    """The steps of seat ``seat``'s log of one hand (a one-seat record's), the last one at its end.

    Built from those events alone through :class:`SeatLog`: the first step is the deal, then one step per move
    (a discard and the next draw, a claim, a kong and its replacement, a win and its payments, the seat's own
    answers), then the end. An event the seat could not see or that does not add up is a :class:`RecordError`
    naming its line.
    """
    events = hand.events
    log = SeatLog(seat)
    steps: list[SeatStep] = []
    played = False  # a discard so far: no 报叫 round any more
    for i, event in enumerate(events):
        if i and _starts(event.type, events[i - 1].type):
            steps.append(SeatStep(i, *_asked_now(log.view(), event, seat, played=played)))
        try:
            log.apply(event)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise RecordError(f"seat {seat}'s log does not add up: {exc}", *hand.where(i)) from None
        played = played or event.type == "discard"
    steps.append(SeatStep(len(events), log.view(), {}))
    return steps


def _asked_now(
    view: Observation, nxt: Event, seat: int, *, played: bool
) -> tuple[Observation, dict[int, tuple[Action, ...]]]:
    """The view and who the log shows must answer, knowing the next event (which tells of a 报叫 round)."""
    mine = nxt.type == "act" and nxt.seat == seat
    phase = view.phase
    if phase == "play" and not played:  # before the first discard: a 报叫 round shows by an answer or a 报叫
        answer = str(nxt.data.get("action")) if mine else None
        if (mine and seat != view.dealer and answer in ("declare_ready", "pass")) or (
            nxt.type == "ready" and nxt.seat != view.dealer
        ):
            view = view._replace(phase="declare")
            return view, ({seat: _DECLARE_ANSWERS} if mine else {})
    if phase in ("exchange", "void"):
        return view, dict.fromkeys(range(4), _NO_ANSWER)
    if phase == "play":
        return view, {view.turn: _NO_ANSWER}
    return view, ({seat: _NO_ANSWER} if mine and phase != "over" else {})
