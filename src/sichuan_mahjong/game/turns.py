"""The flow of a hand: the set-up phases, each turn's draw and play, claims on a discard, kongs, after a win.

``Turns`` (on :class:`~sichuan_mahjong.game.wins.Wins`, under :class:`~sichuan_mahjong.game.state.Game`) moves
the hand on from each phase's answers (docs/engine.md): ``exchange`` (换三张) -> ``void`` (定缺) -> ``declare``
(报叫) -> ``play`` <-> ``claim`` / ``rob`` -> ``over``. It draws (from the far end after a kong), asks every
seat that can take a discard or rob an added kong, resolves their answers (a win first, then kong or pung), and
after a win goes on with the seats still in (血战) or ends the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from sichuan_mahjong.game.actions import DECLARE_READY, HU, KONG, PASS, PUNG, Action, ActionKind
from sichuan_mahjong.game.board import FORCED_WIN_WALL
from sichuan_mahjong.game.events import TILE_TEXT, tiles_text
from sichuan_mahjong.game.settlement import KongRecord
from sichuan_mahjong.game.wins import Wins
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import ALL_TILES

__all__ = ["Turns"]

_VOID = tuple(Action.void(s) for s in range(3))
_EXCHANGE_TARGET: Final = {"clockwise": 3, "counterclockwise": 1, "across": 2}
_DICE_DIRECTION: Final = ("across", "counterclockwise", "clockwise")  # by (sum of the two dice) % 3


class Turns(Wins):
    """The phases moved on by the answers :meth:`Game.step` took."""

    def _begin(self) -> None:
        if self.rules.exchange_three:
            self._phase = "exchange"
            self._pending = {s: self._exchange_options(s) for s in range(4)}
        else:
            self._after_exchange()

    def _do_exchange(self, answers: Mapping[int, Action]) -> None:
        direction = self.rules.exchange_direction
        if direction == "dice":
            direction = _DICE_DIRECTION[sum(self.exchange_dice) % 3]
        shift = _EXCHANGE_TARGET[direction]
        given = [answers[s].exchange for s in range(4)]
        for s in range(4):
            for t in given[s]:
                self._remove(s, t)
        received: list[tuple[int, ...]] = [(), (), (), ()]
        for s in range(4):
            target = (s + shift) % 4
            received[target] = given[s]
            for t in given[s]:
                self._add(target, t)
        if self._drawn[self.dealer] in given[self.dealer]:
            self._drawn[self.dealer] = -1
        self._exchanged = [
            (tuple(map(ALL_TILES.__getitem__, given[s])), tuple(map(ALL_TILES.__getitem__, received[s])))
            for s in range(4)
        ]
        self._emit(
            "exchange",
            -1,
            direction=direction,
            dice=list(self.exchange_dice) if self.rules.exchange_direction == "dice" else None,
            given=[tiles_text(g) for g in given],
            received=[tiles_text(r) for r in received],
        )
        self._after_exchange()

    def _after_exchange(self) -> None:
        if self.rules.declare_void:
            self._phase = "void"
            self._pending = {s: list(_VOID) for s in range(4)}
        else:
            self._after_void()

    def _after_void(self) -> None:
        for s in range(4):
            if s != self.dealer:
                self._ready_at_deal[s] = self._is_ready(s)
        seats = [s for s in range(4) if self._ready_at_deal[s]] if self.rules.declare_ready else []
        if seats:
            self._phase = "declare"
            self._pending = {s: [DECLARE_READY, PASS] for s in seats}
        else:
            self._start_play()

    def _start_play(self) -> None:
        self._phase = "play"
        self._turn = self.dealer
        self._may_win = True  # 14 dealt tiles: nothing known before
        self._pending = {self.dealer: self._play_options(self.dealer)}

    def _start_turn(self, s: int, *, replacement: bool = False) -> None:
        """Draw for seat s (from the far end after a kong) and ask it to play; an empty wall ends the hand."""
        if self._head >= self._tail:
            self._finish("wall")
            return
        self._forced_draw = self._tail - self._head <= FORCED_WIN_WALL
        self._may_win = self._is_ready(s)
        if self._streams is not None:
            self._stream_next(s, replacement)
        if replacement:
            self._tail -= 1
            t = self._wall[self._tail]
        else:
            t = self._wall[self._head]
            self._head += 1
        self._add(s, t)
        self._drawn[s] = t
        self._lock[s] = -1
        self._draws[s] += 1
        self._kong_chain = self._kong_chain + 1 if replacement else 0
        if not replacement:
            self._last_kong = None
        self._just_punged = False
        self._phase = "play"
        self._turn = s
        self._pending_tile = -1
        self._emit("draw", s, tile=TILE_TEXT[t], replacement=replacement)
        self._pending = {s: self._play_options(s)}

    def _ask_claims(self, d: int, t: int, *, robbing: bool) -> bool:
        """Ask every other seat still in that can claim t; False when nobody can."""
        pending: dict[int, list[Action]] = {}
        counts = self._counts
        for k in range(1, 4):
            o = (d + k) % 4
            # Most seats can do nothing with t: not ready (no win) and holding fewer than two (no pung).
            if self._active[o] and ((counts[o][t] >= 2 and not robbing) or self._is_ready(o)):
                opts = self._claim_options(o, t, robbing=robbing)
                if opts:
                    pending[o] = opts
        if not pending:
            return False
        self._phase = "rob" if robbing else "claim"
        self._turn = d
        self._pending_tile = t
        self._pending = pending
        return True

    def _play(self, s: int, a: Action) -> None:
        kind = a.kind
        if kind is ActionKind.DISCARD:
            self._discard(s, a.tile_index)
        elif kind is ActionKind.HU:
            self._self_draw_win(s)
            self._after_win([s], last=s)
        elif kind is ActionKind.CONCEALED_KONG:
            self._concealed_kong(s, a.tile_index)
        elif kind is ActionKind.ADDED_KONG:
            t = a.tile_index
            self._emit("added_kong", s, tile=TILE_TEXT[t])
            if not self._ask_claims(s, t, robbing=True):
                self._complete_added_kong(s, t)
        elif kind is ActionKind.DECLARE_READY:
            self._declare(s)
            self._pending = {s: self._play_options(s)}

    def _declare(self, s: int) -> None:
        self._declared[s] = True
        self._emit("ready", s)

    def _discard(self, s: int, t: int) -> None:
        self._remove(s, t)
        self._drawn[s] = -1
        self._rivers[s].append(t)
        self._river_view[s] += (ALL_TILES[t],)
        self._discarded[s] += 1
        self._just_punged = False
        self._emit("discard", s, tile=TILE_TEXT[t])
        self._shot_context = (self._kong_chain, self._tail == self._head)
        if not self._ask_claims(s, t, robbing=False):
            self._start_turn(self._next_active_after(s))

    def _resolve_claims(self, chosen: Mapping[int, Action], *, robbing: bool) -> None:
        d, t = self._turn, self._pending_tile
        for o, a in chosen.items():
            if a is not HU and HU in self._pending[o]:
                self._lock[o] = max(self._lock[o], self._own_fan(o, t))
        order = [(d + k) % 4 for k in range(1, 4)]
        winners = [o for o in order if chosen.get(o) is HU]
        self._pending = {}
        self._pending_tile = -1
        if winners:
            self._discard_win(d, t, winners, robbing=robbing)
            self._after_win(winners, last=winners[-1])
            return
        if robbing:
            self._complete_added_kong(d, t)
            return
        for o in order:
            claim = chosen.get(o)
            if claim is KONG:
                self._exposed_kong(o, d, t)
                return
            if claim is PUNG:
                self._pung(o, d, t)
                return
        self._start_turn(self._next_active_after(d))

    def _pung(self, o: int, d: int, t: int) -> None:
        self._river_pop(d)
        self._remove(o, t, 2)
        self._add_meld(o, Meld(MeldKind.PUNG, t))
        self._meld_suits[o] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("pung", o, tile=TILE_TEXT[t], from_seat=d)
        self._phase = "play"
        self._turn = o
        self._just_punged = True
        self._kong_chain = 0
        self._last_kong = None
        self._drawn[o] = -1
        self._pending = {o: self._play_options(o)}

    def _exposed_kong(self, o: int, d: int, t: int) -> None:
        self._river_pop(d)
        self._remove(o, t, 3)
        self._add_meld(o, Meld(MeldKind.KONG, t))
        self._meld_suits[o] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("kong", o, tile=TILE_TEXT[t], from_seat=d)
        self._kong_paid(KongRecord(o, MeldKind.KONG, t, d), [d], 2, "R6.1 exposed kong 直杠")
        self._kong_chain = 0  # the claimer's turn begins with this kong; the discarder's chain is not his
        self._start_turn(o, replacement=True)

    def _concealed_kong(self, s: int, t: int) -> None:
        self._remove(s, t, 4)
        self._drawn[s] = -1
        self._add_meld(s, Meld(MeldKind.CONCEALED_KONG, t))
        self._meld_suits[s] |= 1 << (t // 9)
        self._melds_made += 1
        self._emit("concealed_kong", s, tile=TILE_TEXT[t])
        self._kong_paid(
            KongRecord(s, MeldKind.CONCEALED_KONG, t, None), self._others_in(s), 2, "R6.3 concealed kong 暗杠"
        )
        self._start_turn(s, replacement=True)

    def _complete_added_kong(self, s: int, t: int) -> None:
        self._remove(s, t)
        self._drawn[s] = -1
        melds = self._melds[s]
        i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.tile_index == t)
        melds[i] = Meld(MeldKind.ADDED_KONG, t)
        self._shown_melds[s] = tuple(m for m in melds if m.kind is not MeldKind.CONCEALED_KONG)
        self._melds_made += 1
        self._kong_paid(KongRecord(s, MeldKind.ADDED_KONG, t, None), self._others_in(s), 1, "R6.2 added kong 补杠")
        self._start_turn(s, replacement=True)

    def _after_win(self, winners: list[int], *, last: int) -> None:
        self._pending = {}
        if not self.rules.bloody:
            self._finish("win")
            return
        for w in winners:
            self._active[w] = False
        if sum(self._active) <= 1:
            self._finish("one_left")
            return
        self._start_turn(self._next_active_after(last))
