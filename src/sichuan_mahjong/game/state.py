"""The authoritative state machine of one hand (局): set-up, turns, claims, kongs, wins, settlement.

Everything outward goes through :meth:`Game.view` (docs/rules.md R12). Every change is an :class:`Event`; the
``deal`` event holds all chance, and the ``act`` events are the answers, so :meth:`Game.replay` rebuilds the same
hand. :class:`Game` is the public face: building a hand (a deal, a script, a snapshot, a replay), the answers
checked, views, positions. It stands on one class per part of the engine, each in its own module (all compiled
together, scripts/compile.py): ``Turns`` (game/turns.py: the flow of the phases) <- ``Wins`` (game/wins.py: wins,
payments, the end of the hand) <- ``Options`` (game/options.py: the legal answers) <- ``Board`` (game/board.py:
the fields as integers, kept up to date as tiles move).

Phases (docs/engine.md): ``exchange`` (换三张, all seats at once) -> ``void`` (定缺, all at once, hidden until
all chose) -> ``declare`` (报叫 of ready non-dealers) -> ``play`` (the seat on turn) <-> ``claim`` (after a
discard: every seat that can win, pung or kong, asked together) / ``rob`` (after an added kong: every seat
that can rob it) -> ``over``.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sichuan_mahjong.game.actions import DECLARE_READY, Action, ActionKind, IllegalActionError
from sichuan_mahjong.game.board import FORCED_WIN_WALL
from sichuan_mahjong.game.deal import Deal, read_deal, scripted_deal, shuffled_deal
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.settlement import Ledger, Payment, Settlement
from sichuan_mahjong.game.snapshot import PHASES as POSITION_PHASES
from sichuan_mahjong.game.snapshot import PositionError, Snapshot, check_snapshot
from sichuan_mahjong.game.turns import Turns
from sichuan_mahjong.game.view import Observation, filter_event
from sichuan_mahjong.game.why import describe, why
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import ALL_TILES, SUITS, TileLike

__all__ = ["FORCED_WIN_WALL", "Game"]


class Game(Turns):
    """One hand. Build with ``Game(rules, seed)`` or :meth:`setup`; drive with :meth:`to_act` / :meth:`step`."""

    # ------------------------------------------------------------------------------------------- creation
    def __init__(
        self,
        rules: Rules | None = None,
        seed: int = 0,
        *,
        dealer: int | None = None,
        base: int = 1,
        _deal: Deal | None = None,
    ):
        """A shuffled hand. ``dealer=None`` rolls for the first dealer (R2.2); a match passes it on (R2.5).

        ``_deal`` (internal: :meth:`setup`, :meth:`replay`, game/sample.py) deals a checked :class:`Deal` instead.
        """
        self._init(*(_deal or shuffled_deal(rules or Rules(), seed, dealer, base)))
        self._begin()

    @classmethod
    def setup(
        cls,
        rules: Rules | None,
        hands: Sequence[str | Iterable[TileLike]],
        wall: str | Iterable[TileLike] = (),
        dealer: int = 0,
        seed: int = 0,
        *,
        replacements: str | Iterable[TileLike] = (),
        base: int = 1,
    ) -> Game:
        """A scripted deal: the dealer's 14, the others' 13, then the wall in draw order.

        Kong replacements come from the wall's far end; ``replacements`` lists them in the order they are
        drawn. The wall between is filled from the unused tiles, shuffled by ``seed``. Impossible counts raise.
        """
        return cls(_deal=scripted_deal(rules or Rules(), hands, wall, dealer, seed, replacements, base))

    @classmethod
    def from_position(cls, position: Snapshot) -> Game:
        """A hand at ``position`` (:class:`~sichuan_mahjong.game.snapshot.Snapshot`), checked first: a snapshot no
        hand can be at raises :class:`~sichuan_mahjong.game.snapshot.PositionError` naming what is wrong.

        The engine works out who is asked and their legal answers, as it would have in play. The events start
        empty (a position has no history to replay); play on with ``to_act`` / ``step``.
        """
        check_snapshot(position)
        p = position
        game = cls(
            _deal=Deal(
                p.rules, p.base, p.seed, p.dealer, None, (1, 1), [list(h) for h in p.hands], list(p.wall), (1, 1)
            )
        )
        game._place(p)
        return game

    def snapshot(self) -> Snapshot:
        """This hand's position now, every hidden tile in it (never a bot's to read: R12); ``Game.from_position``
        builds a hand that plays on from it as this one does. Only in ``play``, ``claim`` or ``rob``."""
        if self._phase not in POSITION_PHASES:
            raise PositionError(f"a position is taken in {', '.join(POSITION_PHASES)}, not in phase {self._phase!r}")
        turn = self._turn
        return Snapshot(
            rules=self.rules,
            dealer=self.dealer,
            phase=self._phase,
            turn=turn,
            hands=tuple(tuple(h) for h in self._sorted),
            melds=tuple(tuple(m) for m in self._melds),
            rivers=tuple(tuple(r) for r in self._rivers),
            wall=tuple(self._wall[self._head : self._tail]),
            drawn=tuple(d if d >= 0 else None for d in self._drawn),
            pending_tile=self._pending_tile if self._pending_tile >= 0 else None,
            voids=tuple(v if v >= 0 else None for v in self._voids),
            declared=tuple(self._declared),
            active=tuple(self._active),
            wins=self._win_views,
            scores=tuple(self._ledger.deltas),
            locks=tuple(v if v >= 0 else None for v in self._lock),
            exchanged=tuple(self._exchanged) if self._exchanged is not None else None,
            after_pung=self._just_punged,
            kong_chain=self._kong_chain,
            draws=tuple(self._draws),
            discarded=tuple(self._discarded),
            ready_at_deal=tuple(self._ready_at_deal),
            kongs=tuple(self._kongs),
            payments=tuple(self._ledger.payments),
            win_records=tuple(self._wins),
            base=self.base,
            seed=self.seed,
        )

    def _place(self, p: Snapshot) -> None:
        """Set this freshly dealt game to the checked position ``p`` (from_position)."""
        self.events.clear()
        for s in range(4):
            melds = list(p.melds[s])
            self._melds[s] = melds
            self._shown_melds[s] = tuple(m for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
            self._hidden_kongs[s] = sum(1 for m in melds if m.kind is MeldKind.CONCEALED_KONG)
            ms = 0
            for m in melds:
                ms |= 1 << (m.tile_index // 9)
            self._meld_suits[s] = ms
            drawn = p.drawn[s]
            self._drawn[s] = -1 if drawn is None else drawn
            self._rivers[s] = list(p.rivers[s])
            self._river_view[s] = tuple(map(ALL_TILES.__getitem__, p.rivers[s]))
            self._discarded[s] = len(p.rivers[s]) if p.discarded is None else p.discarded[s]
            self._draws[s] = len(p.rivers[s]) + len(melds) if p.draws is None else p.draws[s]
            self._ready[s] = None
            lock = p.locks[s]
            self._lock[s] = -1 if lock is None else lock
        self._melds_made = sum(len(m) for m in self._melds)
        self._voids = [-1 if v is None else v for v in p.voids]
        self._void_view = tuple(p.voids)
        self._declared = list(p.declared)
        self._active = list(p.active)
        self._ready_at_deal = list(p.ready_at_deal)
        self._win_views = tuple(p.wins)
        self._wins = list(p.win_records)
        self._groups = sum(not w.shared for w in p.wins)
        if p.wins:  # the first win and those that shared its tile (一炮多响) name the next dealer (R2.5)
            n = 1
            while n < len(p.wins) and p.wins[n].shared:
                n += 1
            self._first_group = ([w.seat for w in p.wins[:n]], p.wins[0].from_seat)
        self._ledger = Ledger()
        self._ledger.deltas = list(p.scores)
        self._ledger.payments = list(p.payments)
        self._exchanged = list(p.exchanged) if p.exchanged is not None else None
        self._kongs = list(p.kongs)
        self._kong_chain = p.kong_chain
        self._last_kong = self._kongs[-1] if p.kong_chain and self._kongs else None
        self._phase = p.phase
        self._turn = p.turn
        t = -1 if p.pending_tile is None else p.pending_tile
        self._pending_tile = t
        wall = len(p.wall)
        self._shot_context = (p.kong_chain, wall == 0)
        self._forced_draw = wall < FORCED_WIN_WALL and p.drawn[p.turn] is not None
        self._may_win = True
        self._just_punged = p.after_pung
        if p.phase == "play":
            self._pending = {p.turn: self._play_options(p.turn)}
        else:
            robbing = p.phase == "rob"
            pending: dict[int, list[Action]] = {}
            for k in range(1, 4):
                o = (p.turn + k) % 4
                if self._active[o]:
                    opts = self._claim_options(o, t, robbing=robbing)
                    if opts:
                        pending[o] = opts
            if not pending:
                raise PositionError(f"no seat can take seat {p.turn}'s {ALL_TILES[t]} in this {p.phase} position")
            self._pending = pending

    # ------------------------------------------------------------------------------------- the public API
    def to_act(self) -> dict[int, list[Action]]:
        """Every seat that must decide now, with its legal actions (empty when the hand is over)."""
        return {s: list(opts) for s, opts in self._pending.items()}

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def turn(self) -> int:
        """The seat on turn (to draw or play), or whose discard or added kong the others are asked about; the
        dealer during the set-up phases and after the hand (the view's ``turn``)."""
        return self._turn

    @property
    def drawn_tile(self) -> int | None:
        """The tile the seat on turn drew and still holds (the dealer's 14th on his first turn), else None: hidden,
        as in :meth:`snapshot` (a seat sees its own in its view, R12)."""
        t = self._drawn[self._turn]
        return t if t >= 0 and self._phase == "play" else None

    @property
    def result(self) -> Settlement:
        if self._result is None:
            raise RuntimeError("the hand is not over: no result yet")
        return self._result

    @property
    def deltas(self) -> tuple[int, ...]:
        """Money moved so far in this hand, per seat."""
        return tuple(self._ledger.deltas)

    @property
    def payments(self) -> tuple[Payment, ...]:
        """Every payment so far in this hand, in order (public, as in the views' scores)."""
        return tuple(self._ledger.payments)

    def step(self, answers: Mapping[int, Action | str]) -> None:
        """Take the answers of every seat :meth:`to_act` asked. Invalid input raises and changes nothing."""
        chosen = self._validate(answers)
        for s in sorted(chosen):
            self._emit("act", s, action=str(chosen[s]))
        phase = self._phase
        if phase == "play":
            ((s, a),) = chosen.items()
            self._play(s, a)
        elif phase in ("claim", "rob"):
            self._resolve_claims(chosen, robbing=phase == "rob")
        elif phase == "exchange":
            self._do_exchange(chosen)
        elif phase == "void":
            for s in range(4):
                self._voids[s] = chosen[s].suit_index
                self._ready[s] = None
            self._void_view = tuple(self._voids)
            self._emit("voids", -1, voids=[SUITS[v] for v in self._voids])
            self._after_void()
        elif phase == "declare":
            for s in sorted(chosen):
                if chosen[s] is DECLARE_READY:
                    self._declare(s)
            self._start_play()

    def _validate(self, answers: Mapping[int, Action | str]) -> dict[int, Action]:
        if self._phase == "over":
            raise IllegalActionError("the hand is over: nobody may act")
        chosen: dict[int, Action] = {}
        for s, raw in answers.items():
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < 4:
                raise IllegalActionError(f"{str(s)[:20]!r} is not a seat: seats are 0..3")
            a = Action.parse(raw) if isinstance(raw, str) else raw
            legal = self._pending.get(s)
            if legal is None:
                what = describe(self, a)
                if self._phase == "claim" and a.kind in (ActionKind.PUNG, ActionKind.KONG, ActionKind.HU):
                    raise IllegalActionError(f"seat {s} cannot {what}: {why(self, s, a)}")
                asked = ", ".join(map(str, sorted(self._pending)))
                raise IllegalActionError(f"seat {s} cannot {what}: it is not asked now (asked: {asked})")
            for x in legal:
                if x is a:
                    break
            else:  # not one of the shared instances: an equal one must act as it (the engine compares by identity)
                if a not in legal:
                    raise IllegalActionError(f"seat {s} cannot {describe(self, a)}: {why(self, s, a)}")
                a = legal[legal.index(a)]
            chosen[s] = a
        for s, legal in self._pending.items():
            if s not in chosen:
                shown = ", ".join(map(str, legal[:12])) + (", ..." if len(legal) > 12 else "")
                raise IllegalActionError(f"seat {s} must answer too (legal: {shown})")
        return chosen

    # -------------------------------------------------------------------------------------------- views
    def view(self, seat: int) -> Observation:
        """What seat ``seat`` may see (R12): its own tiles and the public table, nothing hidden."""
        if not 0 <= seat < 4:
            raise ValueError(f"seat must be 0..3, got {seat}")
        held = self._sorted[seat]
        drawn = self._drawn[seat]
        hand = list(map(ALL_TILES.__getitem__, held))
        if drawn >= 0:
            del hand[bisect_left(held, drawn)]
        melds = list(self._shown_melds)
        melds[seat] = tuple(self._melds[seat])
        hidden = list(self._hidden_kongs)
        hidden[seat] = 0
        pending_tile = self._pending_tile
        lock = self._lock[seat]
        return Observation(
            seat=seat,
            dealer=self.dealer,
            rules=self.rules,
            base=self.base,
            phase=self._phase,
            turn=self._turn,
            pending_tile=ALL_TILES[pending_tile] if pending_tile >= 0 else None,
            hand=tuple(hand),
            drawn=ALL_TILES[drawn] if drawn >= 0 else None,
            melds=tuple(melds),
            hidden_kongs=tuple(hidden),
            concealed_counts=tuple(map(len, self._sorted)),
            discards=tuple(self._river_view),
            wall_count=self._tail - self._head,
            scores=tuple(self._ledger.deltas),
            wins=self._win_views,
            voids=self._void_view,  # set only once all four chose
            ready=tuple(self._declared),
            active=tuple(self._active),
            legal=tuple(self._pending.get(seat, ())),
            exchanged=self._exchanged[seat] if self._exchanged is not None else None,
            is_over=self._phase == "over",
            pass_lock=lock if lock >= 0 else None,  # this seat's own 过水不胡 only (R12)
        )

    def events_for(self, seat: int) -> list[Event]:
        """The event log as seat ``seat`` may receive it (the same filter as :meth:`view`)."""
        out = []
        for e in self.events:
            f = filter_event(e, seat)
            if f is not None:
                out.append(f)
        return out

    # ---------------------------------------------------------------------------------- replay and JSON
    @classmethod
    def replay(cls, events: Iterable[Event | Mapping[str, Any]]) -> Game:
        """Rebuild a hand from its events: the ``deal`` event, then every ``act`` answer re-applied.

        A deal the engine could not have made (impossible dice, a fifth copy of a tile, ...) raises DealError.
        """
        items = [e if isinstance(e, Event) else Event.from_dict(e) for e in events]
        if not items or items[0].type != "deal":
            raise ValueError("a replay starts with the 'deal' event")
        game = cls(_deal=read_deal(items[0].data))
        buffer: dict[int, Action | str] = {}
        for e in items[1:]:
            if e.type != "act":
                continue
            buffer[e.seat] = str(e.data["action"])
            if set(buffer) == set(game._pending):
                game.step(buffer)
                buffer = {}
        if buffer:
            raise ValueError(f"the events end with answers the hand did not ask for: {buffer}")
        return game

    def to_json(self) -> str:
        return json.dumps(
            {"format": "sichuan_mahjong.game", "version": 1, "events": [e.to_dict() for e in self.events]},
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        data = json.loads(text)
        return cls.replay(data["events"])
