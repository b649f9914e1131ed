"""``efficient``: plays for speed alone (牌效率). It knows what a hand needs, not what the table is doing.

Discards lower the shanten first and then keep the most unseen useful tiles (ukeire); ties go to the tile of
the suit held least (the suit being voided by play, 缺一门), then the one nearest a terminal. The void suit is
the one whose loss costs least; pungs and kongs are taken only when they do not slow the hand; every win is
taken; 报叫 is declared whenever offered (the engine offers it only to a ready hand).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sichuan_mahjong.agents.base import mypyc_attr, register
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = ["EfficientAgent", "best_discards", "exchange_choice", "void_choice"]


def _centrality(t: int) -> int:
    r = t % 9
    return min(r, 8 - r)


def best_discards(h: HandState, candidates: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(shanten, -ukeire, tile)`` of each candidate discard whose shanten is the least, best first.

    When only one discard reaches the least shanten its ukeire is not computed (reported as 0).
    """
    by_shanten: list[tuple[int, int]] = []
    least = 1 << 30
    for t in candidates:
        h.remove(t)
        s = h.shanten()
        h.add(t)
        by_shanten.append((s, t))
        least = min(least, s)
    per_suit = h.suit_counts()
    tied = sum(1 for s, _ in by_shanten if s == least)
    out = []
    for s, t in by_shanten:
        if s != least:
            continue
        uk = 0
        if tied > 1:  # a lone best discard needs no tie-break
            h.remove(t)
            uk = h.ukeire(s)
            h.add(t)
        out.append((s, -uk, per_suit[t // 9], _centrality(t), t))
    out.sort()
    return [(s, uk, t) for s, uk, _, _, t in out]


def void_choice(h: HandState) -> int:
    """定缺: the suit whose loss leaves the best shanten, then the one with fewest tiles."""
    per_suit = h.suit_counts()
    return min(range(3), key=lambda v: (shanten_keys(h.keys, h.n_melds, h.meld_suits, v), per_suit[v], v))


def exchange_choice(h: HandState, legal: Sequence[Action]) -> Action:
    """换三张: three tiles of the suit held least (at least three), the ones the hand misses least."""
    per_suit = h.suit_counts()
    suits = sorted((s for s in range(3) if per_suit[s] >= 3), key=lambda s: (per_suit[s], s))
    target = suits[0] if suits else 0
    best: tuple[int, int, int] | None = None
    choice = legal[0]
    for a in legal:
        tiles = a.exchange
        if not tiles or tiles[0] // 9 != target:
            continue
        for t in tiles:
            h.remove(t)
        s = shanten_keys(h.keys, h.n_melds, h.meld_suits, -1)
        for t in tiles:
            h.add(t)
        key = (s, -sum(_centrality(t) for t in tiles), a.index)
        if best is None or key < best:
            best, choice = key, a
    return choice


def kind_of(legal: Sequence[Action]) -> dict[ActionKind, list[Action]]:
    out: dict[ActionKind, list[Action]] = {}
    for a in legal:
        out.setdefault(a.kind, []).append(a)
    return out


# Registered below, not by decorator (see ``mypyc_attr`` in agents/base.py).
@mypyc_attr(allow_interpreted_subclasses=True)
class EfficientAgent:
    name = "efficient"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        kinds = kind_of(legal)
        if ActionKind.HU in kinds:
            return kinds[ActionKind.HU][0]
        phase = view.phase
        if phase == "exchange":
            return exchange_choice(read_view(view), legal)
        if phase == "void":
            v = void_choice(read_view(view))
            return next(a for a in legal if a.suit_index == v)
        if ActionKind.DECLARE_READY in kinds:
            return kinds[ActionKind.DECLARE_READY][0]
        h = read_view(view)
        if phase == "claim":
            return self.claim(view, h, kinds)
        if phase == "rob":
            return kinds[ActionKind.PASS][0]
        return self.play(h, kinds)

    def claim(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        """Pung or kong the pending discard only when the hand is then no slower than now."""
        pass_ = kinds[ActionKind.PASS][0]
        tile = view.pending_tile
        if tile is None:
            return pass_
        t = tile.index
        now = h.shanten()
        ms = h.meld_suits | (1 << (t // 9))
        if ActionKind.KONG in kinds:
            h.remove(t, 3)
            after = h.shanten_with(h.n_melds + 1, ms)
            h.add(t, 3)
            if after <= now:
                return kinds[ActionKind.KONG][0]
        if ActionKind.PUNG in kinds:
            h.remove(t, 2)
            best = min(
                (h.counts[d] and self._after(h, d, h.n_melds + 1, ms)) or 99 for d in range(NUM_KINDS) if h.counts[d]
            )
            h.add(t, 2)
            if best < now:
                return kinds[ActionKind.PUNG][0]
        return pass_

    @staticmethod
    def _after(h: HandState, d: int, n_melds: int, ms: int) -> int:
        h.remove(d)
        s = h.shanten_with(n_melds, ms)
        h.add(d)
        return s

    def play(self, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        discards = kinds.get(ActionKind.DISCARD, [])
        ranked = best_discards(h, [a.tile_index for a in discards]) if discards else []
        best_s = ranked[0][0] if ranked else 99
        for a in kinds.get(ActionKind.CONCEALED_KONG, []):
            t = a.tile_index
            h.remove(t, 4)
            after = h.shanten_with(h.n_melds + 1, h.meld_suits | (1 << (t // 9)))
            h.add(t, 4)
            if after <= best_s:
                return a
        for a in kinds.get(ActionKind.ADDED_KONG, []):
            t = a.tile_index
            if self._after(h, t, h.n_melds, h.meld_suits) <= best_s:
                return a
        if ranked:
            return Action.discard(ranked[0][2])
        return next(iter(kinds.values()))[0]


register("efficient")(EfficientAgent)
