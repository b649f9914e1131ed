"""``expert``: weighs what a hand is worth and what a discard risks, not only how fast the hand is.

Every discard is priced as *expected gain - expected loss*, in units of the base:

* gain = P(win) x value. P(win) comes from the shanten left, the live useful tiles and the draws left (a
  Poisson model of useful tiles arriving); value is 2**fan, exact once ready (each wait scored with its live
  copies, so the source's "prefer the wait with more live tiles" falls out, weighted by fan), estimated before
  that from the shapes within reach: 清一色 when other suits are nearly gone, 七对 / 对子胡 when pairs and
  pungs dominate, roots (根) for fours and threes of a kind.
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
are compared by the same expected value before and after. 报叫 is declared when the waits are live enough.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.efficient import EfficientAgent, kind_of
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.scoring import NotWinningError, score_hand
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = ["ExpertAgent", "TableRead", "p_win"]

#: How much a feared deal-in counts against a discard's gain. Tuned on duplicate deals against ``efficient``:
#: in 血战 a deal-in costs one payment while staying in the race for wins and 查叫 pays more, so caution is cheap.
DANGER_SCALE = 0.2
#: 清一色 counts as within reach while at most this many tiles of other suits remain.
ONE_SUIT_REACH = 3
#: A discard one step slower is considered only when its hand is worth this much more fan.
CHASE_MARGIN = 1.5
#: A pung is claimed when the best hand after it is worth this factor more than the hand without it.
PUNG_MARGIN = 1.1
_TERMINAL_WEIGHT = (0.55, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.55)


def p_win(shanten: int, useful: int, draws: float, unseen_total: int) -> float:
    """Chance of completing the hand: ``shanten + 1`` useful tiles must arrive within the draws left.

    Arrivals are Poisson with rate draws x useful / unseen; after the first step fewer tiles help, which the
    slowing factor stands for. Claims (a win on a discard, a pung) make a ready hand's draws count more.
    """
    if shanten < 0:
        return 1.0
    if useful <= 0 or draws <= 0 or unseen_total <= 0:
        return 0.0
    need = shanten + 1
    boost = 2.2 if shanten == 0 else 1.4
    lam = boost * draws * useful / unseen_total / (1.0 + 0.6 * shanten)
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
            void, sure = _void_of(view.voids[o], meld_suits, river)
            # A bigger win is feared from 报叫 (+2) and from melds all in one suit (清一色 on the way).
            fan = 1.0 + (2.0 if view.ready[o] else 0.0) + (1.5 if len(meld_suits) == 1 and len(melds) >= 2 else 0.0)
            loss = 2.0**fan
            passed = _passed_since_draw(view, o)
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
                if h.unseen[t] >= 3:
                    self.kong_feed[t] = odds * (n_active - 1) * 2.5


def _void_of(declared: int | None, meld_suits: set[int], river: Sequence[object]) -> tuple[int, bool]:
    """The opponent's void suit and whether it is certain (定缺, or melds in both other suits)."""
    if declared is not None:
        return declared, True
    if len(meld_suits) == 2:
        return 3 - sum(meld_suits), True
    counts = [0, 0, 0]
    for tile in list(river)[:8]:
        counts[tile.index // 9] += 1  # type: ignore[attr-defined]
    best = max(range(3), key=lambda s: counts[s])
    if counts[best] >= 2 and best not in meld_suits:
        return best, False
    return -1, False


def _passed_since_draw(view: Observation, o: int) -> set[int]:
    """Tiles discarded after o's last turn that o let pass: 过水不胡 keeps him from winning on them."""
    out: set[int] = set()
    k = 1
    while True:
        x = (o + k) % 4
        if x == view.seat or k > 3:
            break
        river = view.discards[x]
        if river and view.active[x]:
            out.add(river[-1].index)
        k += 1
    return out


def _wait_values(h: HandState, melds: Sequence[Meld], rules: object, declared: bool) -> list[tuple[int, int, int]]:
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


def estimate_fan(h: HandState) -> float:
    """Fan a not-yet-ready hand can hope for: shapes within reach, weighted by how near they are."""
    c = h.counts
    per_suit = [0, 0, 0]
    for t in range(NUM_KINDS):
        per_suit[t // 9] += c[t]
    quads = 0
    for m in h.melds:
        per_suit[m.tile_index // 9] += 3
        if m.kind is not MeldKind.PUNG or c[m.tile_index]:
            quads += 1
    total = sum(per_suit)
    dom = max(range(3), key=lambda s: per_suit[s])
    other = total - per_suit[dom]
    fan = 0.0
    if other <= ONE_SUIT_REACH and all(m.tile_index // 9 == dom for m in h.melds):
        fan += 2.0 * (1.0 - other / (ONE_SUIT_REACH + 1.0))
    pairs = sum(1 for n in c if n >= 2) + sum(1 for n in c if n == 4)
    trips = sum(1 for n in c if n >= 3)
    if not h.melds and pairs >= 5:
        fan = max(fan, fan + 2.0 * (pairs - 4) / 3.0)
    elif h.melds:  # 对子胡 is in reach when the melds are joined by pungs and pairs
        sets = len(h.melds) + trips
        if sets + max(0, pairs - trips - 1) >= 4 and pairs - trips <= 2:
            fan += 0.7
    quads += sum(1 for n in c if n == 4)
    fan += quads + 0.3 * sum(1 for n in c if n == 3)
    return min(fan, 6.0)


@register("expert")
class ExpertAgent(EfficientAgent):
    name = "expert"

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        kinds = kind_of(legal)
        phase = view.phase
        if phase in ("exchange", "void"):
            return super().act(view, legal)
        h = read_view(view)
        if ActionKind.HU in kinds:
            if phase == "claim" and self._pass_small_win(view, h):
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
    def _hand_value(self, view: Observation, h: HandState, read: TableRead, s: int, declared: bool) -> float:
        """Expected gain of a 13 - 3k hand with shanten s: P(win) x value, plus 查叫 near the end."""
        unseen_total = sum(h.unseen)
        if s == 0:
            waits = _wait_values(h, h.melds, view.rules, declared)
            live = sum(n for _, n, _ in waits)
            if live == 0:
                return 0.3 * read.ready_weight  # ready for 查叫 only
            value = sum(n * 2.0**f for _, n, f in waits) / live
            p = p_win(0, live, read.draws, unseen_total)
            low = min(2.0**f for _, _, f in waits)
            end = max(0.0, min(1.0, (30 - view.wall_count) / 30))
            return p * value * 1.6 + (1 - p) * end * low * (3.0 - read.ready_weight) * 0.5
        uk = h.ukeire(s)
        p = p_win(s, uk, read.draws, unseen_total)
        return p * math.pow(2.0, estimate_fan(h)) * 1.6

    def _discard_scores(
        self, view: Observation, h: HandState, read: TableRead, candidates: Sequence[int]
    ) -> list[tuple[float, int]]:
        declared = view.ready[view.seat]
        shanten = {}
        for t in candidates:
            h.remove(t)
            shanten[t] = h.shanten()
            h.add(t)
        least = min(shanten.values())
        per_suit = h.suit_counts()
        fans: dict[int, float] = {}
        for t in candidates:
            if shanten[t] <= least + 1 and least > 0:
                h.remove(t)
                fans[t] = estimate_fan(h)
                h.add(t)
        best_fan = max((f for t, f in fans.items() if shanten[t] == least), default=0.0)
        out = []
        for t in candidates:
            s = shanten[t]
            gain = 0.0
            # One step slower only to chase a clearly bigger hand (清一色, 七对, roots), and then at a discount.
            if s == least or (s == least + 1 and fans.get(t, 0.0) >= best_fan + CHASE_MARGIN):
                h.remove(t)
                gain = self._hand_value(view, h, read, s, declared)
                h.add(t)
                if s > least:
                    gain *= 0.5
            loss = DANGER_SCALE * read.danger[t] + read.kong_feed[t]
            # Tiny tie-breaks: shed the suit held least (缺一门 by play), then terminals.
            tie = 1e-4 * per_suit[t // 9] + 1e-5 * min(t % 9, 8 - t % 9)
            out.append((gain - loss - tie - 0.001 * s, t))
        out.sort(key=lambda x: (-x[0], x[1]))
        return out

    # ------------------------------------------------------------------------------------------ phases
    def _play(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        read = TableRead(view, h)
        discards = [a.tile_index for a in kinds.get(ActionKind.DISCARD, [])]
        scored = self._discard_scores(view, h, read, discards) if discards else []
        best_value = scored[0][0] if scored else -1e9
        for a in kinds.get(ActionKind.CONCEALED_KONG, []):
            t = a.tile_index
            h.remove(t, 4)
            after = h.shanten_with(h.n_melds + 1, h.meld_suits | (1 << (t // 9)))
            h.add(t, 4)
            s_best = min(self._shanten_after(h, d) for d in discards) if discards else 99
            if after <= s_best:
                return a
        for a in kinds.get(ActionKind.ADDED_KONG, []):
            t = a.tile_index
            # The added tile could be robbed (抢杠): only when it is not a likely winning tile for others.
            if read.danger[t] < 0.3 and scored and any(d == t and v >= best_value - 0.05 for v, d in scored[:3]):
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
            waits = _wait_values(h, h.melds, view.rules, True)
            live = sum(n for _, n, _ in waits)
            return declare if live >= 3 else kinds[ActionKind.PASS][0]
        # The dealer on his first turn: declare if some discard leaves live waits.
        for a in kinds.get(ActionKind.DISCARD, []):
            h.remove(a.tile_index)
            if h.shanten() == 0 and sum(n for _, n, _ in _wait_values(h, h.melds, view.rules, True)) >= 3:
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
        read = TableRead(view, h)
        now_s = h.shanten()
        now_value = self._hand_value(view, h, read, now_s, view.ready[view.seat])
        ms = h.meld_suits | (1 << (t // 9))
        if ActionKind.KONG in kinds:
            h.remove(t, 3)
            after = h.shanten_with(h.n_melds + 1, ms)
            h.add(t, 3)
            if after <= now_s:
                return kinds[ActionKind.KONG][0]
        if ActionKind.PUNG in kinds:
            trial = h.copy()
            trial.remove(t, 2)
            trial.melds = (*h.melds, Meld(MeldKind.PUNG, t))
            trial.n_melds += 1
            trial.meld_suits = ms
            trial.unseen[t] = max(0, trial.unseen[t] - 1)
            candidates = [d for d in range(NUM_KINDS) if trial.counts[d]]
            scored = self._discard_scores(view, trial, read, candidates)
            if scored and scored[0][0] > now_value * PUNG_MARGIN + 0.02:
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
        waits = _wait_values(h, h.melds, view.rules, view.ready[view.seat])
        this = next((f for w, _, f in waits if w == tile.index), None)
        if this is None:
            return False
        better = [(n, f) for w, n, f in waits if f >= this + 2 and w != tile.index]
        live_better = sum(n for n, _ in better)
        if live_better < 3:
            return False
        unseen_total = sum(h.unseen)
        draws = view.wall_count / max(1, sum(view.active))
        p = p_win(0, live_better, draws, unseen_total)
        gain = p * min(2.0**f for _, f in better) * 1.6
        return gain > 2.0**this * 1.5
