"""Wins and money: a win on a discard or a robbed kong (点炮, 一炮多响, 抢杠), a self-draw (自摸), kong payments,
and the end of the hand (查叫 and 查花猪 at the wall's end, R9.5; the settlement and the next dealer, R2.5).

``Wins`` (on :class:`~sichuan_mahjong.game.options.Options`, under ``Turns`` and ``Game``) scores and records
a win and its payments; what comes after it (the next turn, or the end under 血战's rules) is the turn flow's
(``game/turns.py``). The money itself is :mod:`sichuan_mahjong.game.settlement`'s ledger.
"""

from __future__ import annotations

from collections.abc import Iterable

from sichuan_mahjong.game.events import TILE_TEXT
from sichuan_mahjong.game.options import Options
from sichuan_mahjong.game.settlement import KongRecord, Settlement, WinRecord, end_of_wall_payments, split
from sichuan_mahjong.game.view import WinView
from sichuan_mahjong.hand.analysis import waits_counts
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.scoring import NotWinningError, Score, score_hand
from sichuan_mahjong.tiles import ALL_TILES, NUM_KINDS

__all__ = ["Wins"]


class Wins(Options):
    """Wins scored, recorded and paid; kongs paid; the hand finished and settled."""

    def _pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        payment = self._ledger.pay(payer, payee, amount, reason)
        if payment is not None:
            self._emit("payment", -1, **payment.to_dict())

    def _kong_paid(self, record: KongRecord, payers: Iterable[int], amount: int, reason: str) -> None:
        for p in payers:
            payment = self._ledger.pay(p, record.seat, amount * self.base, reason)
            if payment is not None:
                record.income.append(payment)
                self._emit("payment", -1, **payment.to_dict())
        self._kongs.append(record)
        self._last_kong = record

    def _record_win(
        self, s: int, t: int, from_seat: int | None, robbed: bool, score: Score, shared: bool = False
    ) -> None:
        self._wins.append(WinRecord(s, t, from_seat, robbed, score, self._groups))
        self._win_views += (WinView(s, ALL_TILES[t], from_seat, robbed, score.fan, shared),)
        self._emit(
            "win",
            s,
            tile=TILE_TEXT[t],
            from_seat=from_seat,
            robbed_kong=robbed,
            fan=score.fan,
            patterns=[p.id for p in score.patterns],
        )

    def _claim_score(self, o: int, t: int, robbing: bool) -> Score:
        kong_shot, last_tile = (0, False) if robbing else self._shot_context
        tiles = self._concealed(o)
        tiles.append(t)
        return score_hand(
            tiles,
            t,
            self._melds[o],
            kong_shot=kong_shot,
            robbed_kong=robbing,
            declared_ready=self._declared[o],
            last_tile=last_tile,
            rules=self.rules,
        )

    def _discard_win(self, d: int, t: int, winners: list[int], *, robbing: bool) -> None:
        """One discard (or robbed added kong) wins one or more seats: 点炮, 一炮多响, 抢杠 (R8.1, R8.3)."""
        if robbing:
            self._remove(d, t)
            self._drawn[d] = -1
            self._emit("robbed", d, tile=TILE_TEXT[t], by=winners)
        else:
            self._river_pop(d)
        kong_shot = 0 if robbing else self._shot_context[0]
        self._groups += 1  # R7: a win spoils no one's 地胡, so it is not counted in _melds_made
        reason = "R8.3 robbed kong 抢杠" if robbing else "R8.1 discard win 点炮"
        for i, w in enumerate(winners):
            score = self._claim_score(w, t, robbing)
            self._add(w, t)
            self._record_win(w, t, d, robbing, score, i > 0)  # 一炮多响: one tile, a copy in each winner's hand
            self._pay(d, w, self.base * score.multiplier, reason)
        kong = self._last_kong
        if kong_shot and self.rules.kong_shot_transfer and kong is not None and kong.seat == d and kong.income:
            income = sum(p.amount for p in kong.income)
            kong.transferred = True
            for w, amount in zip(winners, split(income, len(winners)), strict=True):
                self._pay(d, w, amount, "R10 kong_shot_transfer 呼叫转移")
        if self._first_group is None:
            self._first_group = (winners, d)

    def _self_draw_win(self, s: int) -> None:
        heaven = self._first_turn_of_dealer(s)
        t = self._drawn[s]
        tiles = self._concealed(s)
        kong_flower = self._kong_chain
        earth = (
            s != self.dealer
            and self._ready_at_deal[s]
            and self._draws[s] == 1
            and not kong_flower
            and not self._melds_made
            and not self._discarded[s]
        )
        last_tile = self.wall_count == 0 and not heaven

        def score(win: int) -> Score:
            return score_hand(
                tiles,
                win,
                self._melds[s],
                self_draw=True,
                kong_flower=kong_flower,
                declared_ready=self._declared[s],
                heaven=heaven,
                earth=earth,
                last_tile=last_tile,
                rules=self.rules,
            )

        if t < 0:  # 天胡 after the 14th tile left in 换三张: the best reading over the tiles held
            best: Score | None = None
            for cand in sorted(set(tiles)):
                try:
                    sc = score(cand)
                except NotWinningError:
                    continue
                if best is None or sc.raw_fan > best.raw_fan:
                    best, t = sc, cand
            if best is None:
                raise RuntimeError("hu was offered on tiles that do not win")
            win_score = best
        else:
            win_score = score(t)
        self._groups += 1
        self._record_win(s, t, None, False, win_score)
        kong = self._last_kong
        amount = self.base * win_score.multiplier + (self.base if self.rules.self_draw_bonus == "base" else 0)
        if (
            kong_flower
            and self.rules.kong_flower_payer == "discarder"
            and kong is not None
            and kong.kind is MeldKind.KONG
            and kong.feeder is not None
            and self._active[kong.feeder]
        ):
            self._pay(kong.feeder, s, amount, "R10 kong_flower_payer 点杠花")
        else:
            for p in self._others_in(s):
                self._pay(p, s, amount, "R8.2 self-draw 自摸")
        if self._first_group is None:
            self._first_group = ([s], None)

    def _ready_score(self, s: int) -> Score | None:
        """What 查叫 charges for seat s's hand (R9.5), as :func:`value_of_ready_hand` reckons it: its lowest
        (查大叫: highest) wait scored as a win on a discard from shape, roots and 报叫; None when not ready.

        Only the waits are scored (found from the tables first), not all 27 tiles.
        """
        if not self._is_ready(s):
            return None
        melds = self._melds[s]
        held = [0] * NUM_KINDS
        for m in melds:
            held[m.tile_index] += m.size
        waits = waits_counts(self._counts[s], len(melds), self._meld_suits[s], self._voids[s], held)
        if not waits:
            return None  # every wait is a tile he holds all four of
        rules = self._own_rules
        tiles = self._concealed(s)
        scores = [score_hand([*tiles, w], w, melds, declared_ready=self._declared[s], rules=rules) for w in waits]
        pick = max if self.rules.check_max else min
        return pick(scores, key=lambda sc: (sc.fan, sc.raw_fan))

    def _is_pig(self, s: int) -> bool:
        c = self._counts[s]
        suits = self._meld_suits[s]
        for suit in range(3):
            if any(c[suit * 9 : suit * 9 + 9]):
                suits |= 1 << suit
        void = self._voids[s]
        return suits == 7 or (void >= 0 and bool(suits & (1 << void)))

    def _finish(self, reason: str) -> None:
        self._phase = "over"
        self._pending = {}
        self._pending_tile = -1
        ready = [False] * 4
        if reason == "wall":
            still_in = [s for s in range(4) if self._active[s]]
            before = len(self._ledger.payments)
            ready = end_of_wall_payments(
                self.rules, self.base, still_in, self._ready_score, self._is_pig, self._kongs, self._ledger
            )
            for payment in self._ledger.payments[before:]:
                self._emit("payment", -1, **payment.to_dict())
        if self._first_group is not None:
            winners, discarder = self._first_group
            next_dealer = discarder if len(winners) > 1 and discarder is not None else winners[0]
        else:
            next_dealer = self.dealer if self.rules.dealer_after_draw == "stay" else (self.dealer + 1) % 4
        self._result = Settlement(
            deltas=tuple(self._ledger.deltas),
            payments=tuple(self._ledger.payments),
            scores={w.seat: w.score for w in self._wins},
            wins=tuple(self._wins),
            next_dealer=next_dealer,
            reason=reason,
            ready=tuple(ready),
        )
        self._emit("end", -1, reason=reason, deltas=list(self._ledger.deltas), next_dealer=next_dealer, ready=ready)
