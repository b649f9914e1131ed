"""``expert``: weighs what a hand is worth and what a discard risks, not only how fast the hand is.

Every discard is priced as *expected gain - expected loss*, in units of the base:

* gain = P(win) x value. P(win) comes from the shanten left, the live useful tiles and the draws left (a
  Poisson model of useful tiles arriving); value is 2**fan, exact once ready (each wait scored with its live
  copies, so the source's "prefer the wait with more live tiles" falls out, weighted by fan). Before that the
  hand is priced as the better of two plans (:func:`plan_value`): the fastest two-suit hand with its roots (根),
  and 清一色 in the suit held most, measured exactly by the evaluator's one-suit distance while at most four
  tiles of other suits remain. A discard one step slower is taken only when the 清一色 plan pays for it.
* loss = danger: for each opponent still in, P(he is ready) x P(he waits on this tile) x what his win would
  cost. He looks ready after 报叫, with melds, or late in the hand; a tile of his void suit (declared, implied
  by melds in his two other suits, or read from the suit he discarded first and has stopped discarding) is
  nearly safe against him, as is a tile he has just let pass (过水不胡 locks him until his next draw).
  In the kong modes a discard someone may hold three of also costs the kong payment (the source's reason to
  discard 6p rather than 2p only when 6p cannot be konged).
* near the wall's end a ready hand is worth its 查叫 value, so the bot keeps its hand ready.

Claims: every win is taken, except that a cheap win on a discard is passed when a clearly bigger win on
another wait is likely (过水不胡 then still allows a discard win worth strictly more fan, and any self-draw);
with four tiles or fewer left the engine forces the win (后4张必胡), so nothing is passed then. Pungs and kongs
are compared by the same expected value before and after. Kongs (concealed, or exposed on a discard) are
declared even at one step of shanten cost while not ready: in the kong modes they pay at once and add a root.
报叫 is declared when the waits are live enough.

The pricing, public for the bots built on it (the master, the learned advantages of
:mod:`~sichuan_mahjong.agents.advantage`, the review, the variants in ``benchmarks/``; a subclass overrides a
step to price otherwise):

* :meth:`ExpertAgent.read_table` - the table as the bot reads it (:class:`TableRead`: danger, kong feed, draws
  left, how many look ready);
* :meth:`ExpertAgent.hand_value` - what a 13 - 3k hand at shanten s is worth (P(win) x value, 查叫 near the
  end), from :func:`wait_values` once ready and :func:`plan_value` before;
* :meth:`ExpertAgent.discard_scores` - every candidate discard priced (gain - loss), best first.

Strength (``benchmarks/strength.py --jobs 2``, 4,000 duplicate hands, seed 0), points per hand, 95% CI:
seed rules: vs 3x efficient +0.243 [+0.145, +0.341] (was +0.236 [+0.135, +0.337] with DANGER_SCALE 0.2), vs 3x
random +3.064 [+2.909, +3.220]; ``--rules app``: vs 3x efficient +0.491 [+0.357, +0.625] (was +0.483), vs 3x
random +5.306 [+5.052, +5.559] (was +5.349; paired, -0.043 [-0.123, +0.036], not a change). Mean decision 0.17 ms
(``benchmarks/bots.py``).

Tried and measured no better, paired against the version before (``strength.py --baseline-agent``, 4,000 hands,
vs 3x efficient): the fitted P(win) of ``benchmarks/win_model.py`` in place of :func:`p_win`,
-0.080 [-0.197, +0.037] (seed rules) and +0.018 [-0.115, +0.152] (app), or for shanten >= 1 only, -0.098
[-0.215, +0.019] and -0.027 [-0.165, +0.111]; 定缺 by the fitted plan value, -0.145 [-0.267, -0.024] (app, worse),
or as a tie-break after the least shanten, +0.005 [-0.031, +0.040]; 定缺 tie-break by ukeire, +0.009 [-0.036,
+0.053]; 换三张 of any suit by the least shanten left under the best void, -0.028 [-0.095, +0.039] and -0.032
[-0.104, +0.040] (app, seeds 1 and 2); no kong slack (app -0.057 [-0.109, -0.006], worse); PUNG_MARGIN 1.0 or
1.3. Earlier: a stronger danger weight, passing discard wins for a self-draw, plans for 对子胡 / 七对, a bolder
清一色 chase (worse).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

from sichuan_mahjong.agents.base import mypyc_attr, register
from sichuan_mahjong.agents.efficient import EfficientAgent, kind_of
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation, let_pass
from sichuan_mahjong.hand import tables
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.scoring import NotWinningError, score_hand
from sichuan_mahjong.tiles import NUM_KINDS, POW5, Tile

__all__ = [
    "DEFAULT_PARAMS",
    "ExpertAgent",
    "ExpertParams",
    "TableRead",
    "feared_loss",
    "p_win",
    "plan_value",
    "shed_first",
    "void_of",
    "wait_values",
]

#: How much a feared deal-in counts against a discard's gain. Tuned on duplicate deals against ``efficient``:
#: in 血战 a deal-in costs one payment while staying in the race for wins and 查叫 pays more, so caution is cheap.
#: 0.05 beat 0.2 in paired runs (``strength.py --baseline-agent``) by +0.015 [+0.003, +0.027] per hand over ten
#: held-out runs of 4,000 hands (seeds 0, 2-5, seed and app rules); 0.0 was no better than 0.05.
DANGER_SCALE = 0.05
#: 清一色 is followed as a plan while at most this many tiles (concealed) are of other suits ...
FLUSH_OFF = 4
#: ... and while it is at most this many steps (shanten) slower than the fastest two-suit hand.
FLUSH_REACH = 1
#: A kong (concealed, or exposed on a discard) is declared even when it slows a not-ready hand by this many
#: steps: in the kong modes it pays at once (a concealed kong 2 x base from each player still in) and adds a root.
KONG_SLACK = 1
#: A pung is claimed when the best hand after it is worth this factor more than the hand without it.
PUNG_MARGIN = 1.1
#: 报叫 (which freezes the hand), and passing a cheap win for a bigger one, only with at least this many live
#: copies of the winning tiles (bigger ones: ``_pass_small_win``), in the hand's ``unit``s.
LIVE_WAITS = 3


@dataclass(frozen=True)
class ExpertParams:
    """The expert's constants, in one place: the shipped expert plays :data:`DEFAULT_PARAMS`; a variant is an
    ``ExpertAgent(params=ExpertParams(pung_margin=1.3))`` (``benchmarks/expert_tuning.py`` screens them)."""

    #: P(win): a ready hand's draws count this much more (claims) ...
    boost_ready: float = 2.2
    #: ... a not-ready hand's this much ...
    boost: float = 1.4
    #: ... and each step from ready slows arrivals by this factor.
    slow: float = 0.6
    #: Hand values are worth this many points.
    scale: float = 1.6
    #: A ready hand's 查叫 value near the end.
    chajiao: float = 0.5
    #: A ready hand with no live wait, per opponent likely ready.
    dead_ready: float = 0.3
    #: A three of a kind, as a fraction of a root.
    trip_root: float = 0.3
    #: 清一色 followed while at most this many tiles are off-suit (:data:`FLUSH_OFF`) ...
    flush_off: float = FLUSH_OFF
    #: ... and at most this many steps slower than the fastest hand (:data:`FLUSH_REACH`); its fan over the
    #: plain hand:
    flush_reach: float = FLUSH_REACH
    flush_fan: float = 2.0
    #: :data:`PUNG_MARGIN`, :data:`KONG_SLACK`.
    pung_margin: float = PUNG_MARGIN
    kong_slack: float = KONG_SLACK
    #: An added kong only when its tile's danger is below this (it could be robbed, 抢杠).
    added_kong_danger: float = 0.3
    #: 报叫 with at least this many live winning copies (:data:`LIVE_WAITS`).
    declare_live: float = LIVE_WAITS
    #: Pass a cheap discard win for a likely bigger one (``False``: take every win).
    pass_win: bool = True
    #: A win is worth this much more (base units): the payments a seat that has won no longer makes.
    exit: float = 0.0

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def __reduce__(self) -> tuple[type[ExpertParams], tuple[float | bool, ...]]:
        # Compiled (mypyc), a frozen dataclass has no __dict__: copy and pickle would set its fields one by one
        # and be refused; rebuilt from its values instead (an env holding a seated expert is cloned this way).
        return (ExpertParams, tuple(getattr(self, name) for name in self.names()))


#: The shipped expert's constants.
DEFAULT_PARAMS = ExpertParams()
_INFO = tables.SUIT_INFO
_COMB = tables.COMBINED
_EMPTY_COL = tables.SUIT_INFO[0][1]
_TERMINAL_WEIGHT = (0.55, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.55)


def p_win(shanten: int, useful: int, draws: float, unseen_total: int, params: ExpertParams = DEFAULT_PARAMS) -> float:
    """Chance of completing the hand: ``shanten + 1`` useful tiles must arrive within the draws left.

    Arrivals are Poisson with rate draws x useful / unseen; after the first step fewer tiles help, which the
    slowing factor stands for. Claims (a win on a discard, a pung) make a ready hand's draws count more.
    """
    if shanten < 0:
        return 1.0
    if useful <= 0 or draws <= 0 or unseen_total <= 0:
        return 0.0
    need = shanten + 1
    boost = params.boost_ready if shanten == 0 else params.boost
    lam = boost * draws * useful / unseen_total / (1.0 + params.slow * shanten)
    term = math.exp(-lam)
    below = term
    for k in range(1, need):
        term *= lam / k
        below += term
    return max(0.0, 1.0 - below)


class TableRead:
    """What the expert reads from the table once per decision: who looks ready, voids, safe tiles, payouts."""

    __slots__ = ("danger", "draws", "kong_feed", "ready_weight")

    def __init__(self, view: Observation, h: HandState) -> None:
        me = view.seat
        n_active = max(1, sum(view.active))
        self.draws = view.wall_count / n_active
        late = max(0.0, min(1.0, (40 - view.wall_count) / 40))
        self.danger = [0.0] * NUM_KINDS
        self.ready_weight = 0.0
        for o in range(4):
            if o == me or not view.active[o]:
                continue
            river = view.discards[o]
            melds = view.melds[o]
            n_melds = len(melds) + view.hidden_kongs[o]
            if view.ready[o]:
                p_ready = 0.95
            else:
                progress = len(river) + 3 * n_melds
                p_ready = min(0.8, max(0.03, (progress - 4) / 14)) * (0.6 + 0.4 * late)
            self.ready_weight += p_ready
            meld_suits = {m.tile_index // 9 for m in melds}
            void, sure = void_of(view.voids[o], meld_suits, river)
            loss = feared_loss(view, o)
            passed = let_pass(view, o, pending=True)
            for t in range(NUM_KINDS):
                factor = (0.0 if sure else 0.2) if t // 9 == void else 1.0
                if t in passed:
                    factor *= 0.05
                if not factor:
                    continue
                hidden = h.unseen[t]
                shape = _TERMINAL_WEIGHT[t % 9] * (0.45 if hidden == 0 else 1.0)
                # A ready hand waits on about two kinds of its 18 kept kinds.
                self.danger[t] += p_ready * factor * shape * (2.2 / 18.0) * loss
        # Kong feeding (kong modes): three copies unaccounted for may sit in one hand. One given opponent holds
        # all three of ~80 hidden tiles with odds near (13/80)**3, more once hands keep their pairs late on,
        # and the exposed kong costs 2 base plus his replacement draw.
        self.kong_feed = [0.0] * NUM_KINDS
        if view.rules.kongs_pay and view.wall_count > 0:
            odds = 0.006 + 0.01 * late
            for t in range(NUM_KINDS):
                if h.unseen[t] >= 3 * h.unit:
                    self.kong_feed[t] = odds * (n_active - 1) * 2.5


def void_of(declared: int | None, meld_suits: set[int], river: Sequence[Tile]) -> tuple[int, bool]:
    """The opponent's void suit and whether it is certain (定缺, or melds in both other suits)."""
    if declared is not None:
        return declared, True
    if len(meld_suits) == 2:
        return 3 - sum(meld_suits), True
    best = shed_first(river)
    if best >= 0 and best not in meld_suits:
        return best, False
    return -1, False


def shed_first(river: Sequence[Tile]) -> int:
    """The suit a seat shed most of its first eight discards, if at least two (the void it chose by play); -1."""
    counts = [0, 0, 0]
    for tile in river[:8]:
        counts[tile.index // 9] += 1
    best = max(range(3), key=lambda s: counts[s])
    return best if counts[best] >= 2 else -1


def feared_loss(view: Observation, o: int) -> float:
    """What seat o's win would cost this seat, 2**fan: a bigger win is feared from 报叫 (+2) and from melds all in
    one suit (清一色 on the way)."""
    melds = view.melds[o]
    suits = {m.tile_index // 9 for m in melds}
    fan = 1.0 + (2.0 if view.ready[o] else 0.0) + (1.5 if len(suits) == 1 and len(melds) >= 2 else 0.0)
    return float(2.0**fan)


def wait_values(h: HandState, melds: Sequence[Meld], rules: object, declared: bool) -> list[tuple[int, int, int]]:
    """(tile, live copies, fan) of each wait of a ready 13 - 3k hand."""
    tiles = [t for t in range(NUM_KINDS) for _ in range(h.counts[t])]
    out = []
    for t in h.useful(0):
        try:
            sc = score_hand([*tiles, t], t, melds, declared_ready=declared, rules=rules)  # type: ignore[arg-type]
        except (NotWinningError, ValueError):
            continue
        out.append((t, h.unseen[t], sc.fan))
    return out


def plan_value(
    h: HandState,
    draws: float,
    unseen_total: int,
    s: int,
    uk: int,
    std: bool = True,
    params: ExpertParams = DEFAULT_PARAMS,
) -> float:
    """Best of P(win) x 2**fan over two plans for a not-ready hand: the fastest two-suit hand and 清一色.

    The two-suit plan (``std``) has shanten ``s`` and ``uk`` useful tiles; its value counts roots (根) held and
    0.3 of a root per three of a kind. 清一色 in the suit held most is measured exactly by the evaluator's table
    (that suit alone against an empty second suit), with its own useful tiles. Plans for 对子胡 and 七对 priced
    the same way were measured and lost to this simpler pair (p_win overrates far-off shapes).
    """
    c = h.counts
    unseen = h.unseen
    per_suit = [0, 0, 0]
    for t in range(NUM_KINDS):
        per_suit[t // 9] += c[t]
    quads = 0
    for m in h.melds:
        per_suit[m.tile_index // 9] += 3
        if m.kind is not MeldKind.PUNG or c[m.tile_index]:
            quads += 1
    quads += sum(1 for n in c if n == 4)
    trips = sum(1 for n in c if n == 3)
    roots = quads + params.trip_root * trips
    best = p_win(s, uk, draws, unseen_total, params) * (2.0**roots + params.exit) if std else 0.0
    n = h.n_melds
    dom = max(range(3), key=lambda x: per_suit[x])
    meld_ok = all(m.tile_index // 9 == dom for m in h.melds)
    if meld_ok and h.void != dom and sum(per_suit) - per_suit[dom] <= params.flush_off:
        k = h.keys[dom]
        d1 = _COMB[_INFO[k][0] + _EMPTY_COL + n]
        if d1 - 1 <= s + params.flush_reach:
            first = 9 * dom
            uk1 = 0
            for r in range(9):
                t = first + r
                if unseen[t] and c[t] < 4 and _COMB[_INFO[k + POW5[r]][0] + _EMPTY_COL + n] < d1:
                    uk1 += unseen[t]
            v1 = p_win(d1 - 1, uk1, draws, unseen_total, params) * (2.0 ** (params.flush_fan + roots) + params.exit)
            best = max(best, v1)
    return best


# Registered below, not by decorator (see ``mypyc_attr`` in agents/base.py).
@mypyc_attr(allow_interpreted_subclasses=True)
class ExpertAgent(EfficientAgent):
    name = "expert"

    def __init__(
        self, seed: int | None = None, danger_scale: float = DANGER_SCALE, *, params: ExpertParams = DEFAULT_PARAMS
    ) -> None:
        super().__init__(seed)
        #: How much a feared deal-in (``TableRead.danger``) counts against a discard's gain (an instance
        #: attribute: a compiled class would not see a subclass's class attribute).
        self.danger_scale = danger_scale
        #: The constants it prices by (:class:`ExpertParams`).
        self.params = params

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        kinds = kind_of(legal)
        phase = view.phase
        if phase in ("exchange", "void"):
            return super().act(view, legal)
        h = self._hand(view)
        if ActionKind.HU in kinds:
            if phase == "claim" and self.params.pass_win and self._pass_small_win(view, h):
                return kinds[ActionKind.PASS][0]
            return kinds[ActionKind.HU][0]
        if ActionKind.DECLARE_READY in kinds:
            return self._declare(view, h, kinds)
        if phase == "claim":
            return self._claim(view, h, kinds)
        if phase == "rob":
            return kinds[ActionKind.PASS][0]
        return self._play(view, h, kinds)

    # ------------------------------------------------------------------------------------------ values
    def _hand(self, view: Observation) -> HandState:
        """The seat's hand and what it counts as live (a subclass may count better)."""
        return read_view(view)

    def read_table(self, view: Observation, h: HandState) -> TableRead:
        """The table as this bot reads it (a subclass may read it better)."""
        return TableRead(view, h)

    def hand_value(
        self, view: Observation, h: HandState, read: TableRead, s: int, declared: bool, std: bool = True
    ) -> float:
        """Expected gain of a 13 - 3k hand with shanten s: P(win) x value, plus 查叫 near the end."""
        params = self.params
        unseen_total = sum(h.unseen)
        if s == 0 and std:
            waits = wait_values(h, h.melds, view.rules, declared)
            live = sum(n for _, n, _ in waits)
            if live == 0:
                return params.dead_ready * read.ready_weight  # ready for 查叫 only
            value = sum(n * 2.0**f for _, n, f in waits) / live + params.exit
            p = p_win(0, live, read.draws, unseen_total, params)
            low = min(2.0**f for _, _, f in waits)
            end = max(0.0, min(1.0, (30 - view.wall_count) / 30))
            return p * value * params.scale + (1 - p) * end * low * (3.0 - read.ready_weight) * params.chajiao
        uk = h.ukeire(s) if std else 0
        return plan_value(h, read.draws, unseen_total, s, uk, std, params) * params.scale

    def discard_scores(
        self, view: Observation, h: HandState, read: TableRead, candidates: Sequence[int]
    ) -> list[tuple[float, int]]:
        """(price, tile) of each discard in ``candidates`` (tile indices ``h`` holds), best first: the hand left's
        :meth:`hand_value` (for discards at most one step slower than the fastest) less the danger
        (``danger_scale`` x ``read.danger``) and kong feed, with tiny tie-breaks. ``h`` is restored."""
        declared = view.ready[view.seat]
        shanten = {}
        for t in candidates:
            h.remove(t)
            shanten[t] = h.shanten()
            h.add(t)
        least = min(shanten.values())
        per_suit = h.suit_counts()
        out = []
        for t in candidates:
            s = shanten[t]
            gain = 0.0
            # One step slower only for 清一色: p_win would rate any broken shape above a formed one.
            if s <= least + 1:
                h.remove(t)
                gain = self.hand_value(view, h, read, s, declared, s == least)
                h.add(t)
            loss = self.danger_scale * read.danger[t] + read.kong_feed[t]
            # Tiny tie-breaks: shed the suit held least (缺一门 by play), then terminals.
            tie = 1e-4 * per_suit[t // 9] + 1e-5 * min(t % 9, 8 - t % 9)
            out.append((gain - loss - tie - 0.001 * s, t))
        out.sort(key=lambda x: (-x[0], x[1]))
        return out

    # ------------------------------------------------------------------------------------------ phases
    def _play(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        read = self.read_table(view, h)
        discards = [a.tile_index for a in kinds.get(ActionKind.DISCARD, [])]
        scored = self.discard_scores(view, h, read, discards) if discards else []
        best_value = scored[0][0] if scored else -1e9
        for a in kinds.get(ActionKind.CONCEALED_KONG, []):
            t = a.tile_index
            h.remove(t, 4)
            after = h.shanten_with(h.n_melds + 1, h.meld_suits | (1 << (t // 9)))
            h.add(t, 4)
            s_best = min(self._shanten_after(h, d) for d in discards) if discards else 99
            if after <= s_best + (self.params.kong_slack if s_best > 0 else 0):
                return a
        for a in kinds.get(ActionKind.ADDED_KONG, []):
            t = a.tile_index
            # The added tile could be robbed (抢杠): only when it is not a likely winning tile for others.
            if (
                read.danger[t] < self.params.added_kong_danger
                and scored
                and any(d == t and v >= best_value - 0.05 for v, d in scored[:3])
            ):
                return a
        if scored:
            return Action.discard(scored[0][1])
        return next(iter(kinds.values()))[0]

    @staticmethod
    def _shanten_after(h: HandState, d: int) -> int:
        h.remove(d)
        s = h.shanten()
        h.add(d)
        return s

    def _declare(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        """报叫 (+2 fan, but the hand is frozen): worth it when enough winning tiles are live."""
        declare = kinds[ActionKind.DECLARE_READY][0]
        if view.phase == "declare":
            return declare if _declarable(h, view.rules, self.params) else kinds[ActionKind.PASS][0]
        # The dealer on his first turn: declare if some discard leaves live waits.
        for a in kinds.get(ActionKind.DISCARD, []):
            h.remove(a.tile_index)
            if h.shanten() == 0 and _declarable(h, view.rules, self.params):
                h.add(a.tile_index)
                return declare
            h.add(a.tile_index)
        return self._play(view, h, {k: v for k, v in kinds.items() if k is not ActionKind.DECLARE_READY})

    def _claim(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        pass_ = kinds[ActionKind.PASS][0]
        tile = view.pending_tile
        if tile is None:
            return pass_
        t = tile.index
        read = self.read_table(view, h)
        now_s = h.shanten()
        now_value = self.hand_value(view, h, read, now_s, view.ready[view.seat])
        ms = h.meld_suits | (1 << (t // 9))
        if ActionKind.KONG in kinds:
            h.remove(t, 3)
            after = h.shanten_with(h.n_melds + 1, ms)
            h.add(t, 3)
            if after <= now_s + (self.params.kong_slack if now_s > 0 else 0):
                return kinds[ActionKind.KONG][0]
        if ActionKind.PUNG in kinds:
            trial = h.claimed(t, MeldKind.PUNG)
            candidates = [d for d in range(NUM_KINDS) if trial.counts[d]]
            scored = self.discard_scores(view, trial, read, candidates)
            if scored and scored[0][0] > now_value * self.params.pung_margin + 0.02:
                return kinds[ActionKind.PUNG][0]
        return pass_

    def _pass_small_win(self, view: Observation, h: HandState) -> bool:
        """过水不胡 used knowingly: pass a cheap discard win when a clearly bigger one is likely soon.

        After a pass a discard win is still allowed if it is worth strictly more fan, and a self-draw always;
        with four tiles or fewer left the win is forced anyway (后4张必胡).
        """
        tile = view.pending_tile
        if tile is None or view.wall_count < 30:
            return False
        waits = wait_values(h, h.melds, view.rules, view.ready[view.seat])
        this = next((f for w, _, f in waits if w == tile.index), None)
        if this is None:
            return False
        better = [(n, f) for w, n, f in waits if f >= this + 2 and w != tile.index]
        live_better = sum(n for n, _ in better)
        if live_better < self.params.declare_live * h.unit:
            return False
        unseen_total = sum(h.unseen)
        draws = view.wall_count / max(1, sum(view.active))
        p = p_win(0, live_better, draws, unseen_total, self.params)
        gain = p * min(2.0**f for _, f in better) * self.params.scale
        return gain > 2.0**this * 1.5


def _declarable(h: HandState, rules: object, params: ExpertParams) -> bool:
    """Whether a ready hand has enough live copies of its winning tiles to 报叫 (``params.declare_live``)."""
    return sum(n for _, n, _ in wait_values(h, h.melds, rules, True)) >= params.declare_live * h.unit


register("expert")(ExpertAgent)
