"""The expert's constants, screened on duplicate deals against three experts (a tuning harness, pure Python).

``cd benchmarks && ../.venv/bin/python strength.py --import expert_tuning --agent t_pung13 --baseline-agent
expert --field expert --rules app --hands 4000 --jobs 1 --seed 200`` (about 3 minutes; the expert scores exactly
0 against three copies of itself, so the figure is the variant's own gain).

:class:`Tuned` is the expert with its constants read from ``P`` (a class attribute: run it on pure Python, not
the compiled build, whose classes read their own constants). Each variant below changes one or a few; the
defaults are the expert's own, so ``Tuned`` with ``P = {}`` plays exactly as the expert: ``python
expert_tuning.py --check [--hands 20]``, run by ``tests/agents/test_expert_tuning.py``, so that this copy of the
expert's pricing cannot drift from it unseen.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any, ClassVar

from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.efficient import kind_of
from sichuan_mahjong.agents.expert import (
    _COMB,
    _EMPTY_COL,
    _INFO,
    DANGER_SCALE,
    ExpertAgent,
    TableRead,
    _wait_values,
)
from sichuan_mahjong.agents.hand import HandState
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import NUM_KINDS, POW5

DEFAULTS: dict[str, float] = {
    "danger": DANGER_SCALE,  # how much a feared deal-in counts against a discard's gain
    "boost_ready": 2.2,  # p_win: a ready hand's draws count this much more (claims)
    "boost": 1.4,  # ... a not-ready hand's
    "slow": 0.6,  # ... each step from ready slows arrivals by this
    "scale": 1.6,  # hand values are worth this many points
    "chajiao": 0.5,  # a ready hand's 查叫 value near the end
    "dead_ready": 0.3,  # a ready hand with no live wait, per opponent likely ready
    "trip_root": 0.3,  # a three of a kind, as a fraction of a root
    "flush_off": 4,  # 清一色 followed while at most this many tiles are off-suit
    "flush_reach": 1,  # ... and at most this many steps slower than the fastest hand
    "flush_fan": 2,  # 清一色's fan over the plain hand
    "pung_margin": 1.1,  # a pung is claimed when the hand after it is worth this factor more
    "kong_slack": 1,  # a kong is declared even when it slows a not-ready hand by this many steps
    "added_kong_danger": 0.3,  # an added kong only when its tile's danger is below this
    "declare_live": 3,  # 报叫 when at least this many winning tiles are live
    "pass_win": 1,  # pass a cheap discard win for a likely bigger one (1) or never (0)
    "exit": 0.0,  # a win is worth this much more (base units): the payments a seat that has won no longer makes
}


def p_win(shanten: int, useful: int, draws: float, unseen_total: int, p: dict[str, float]) -> float:
    if shanten < 0:
        return 1.0
    if useful <= 0 or draws <= 0 or unseen_total <= 0:
        return 0.0
    need = shanten + 1
    boost = p["boost_ready"] if shanten == 0 else p["boost"]
    lam = boost * draws * useful / unseen_total / (1.0 + p["slow"] * shanten)
    term = math.exp(-lam)
    below = term
    for k in range(1, need):
        term *= lam / k
        below += term
    return max(0.0, 1.0 - below)


def plan_value(h: HandState, draws: float, unseen_total: int, s: int, uk: int, std: bool, p: dict[str, float]) -> float:
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
    roots = quads + p["trip_root"] * trips
    best = p_win(s, uk, draws, unseen_total, p) * (2.0**roots + p["exit"]) if std else 0.0
    n = h.n_melds
    dom = max(range(3), key=lambda x: per_suit[x])
    meld_ok = all(m.tile_index // 9 == dom for m in h.melds)
    if meld_ok and h.void != dom and sum(per_suit) - per_suit[dom] <= p["flush_off"]:
        k = h.keys[dom]
        d1 = _COMB[_INFO[k][0] + _EMPTY_COL + n]
        if d1 - 1 <= s + p["flush_reach"]:
            first = 9 * dom
            uk1 = 0
            for r in range(9):
                t = first + r
                if unseen[t] and c[t] < 4 and _COMB[_INFO[k + POW5[r]][0] + _EMPTY_COL + n] < d1:
                    uk1 += unseen[t]
            v1 = p_win(d1 - 1, uk1, draws, unseen_total, p) * (2.0 ** (p["flush_fan"] + roots) + p["exit"])
            best = max(best, v1)
    return best


class Tuned(ExpertAgent):
    """The expert with its constants from ``P`` (missing ones: :data:`DEFAULTS`)."""

    P: ClassVar[dict[str, float]] = {}

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        p = {**DEFAULTS, **self.P}
        super().__init__(seed, **{"danger_scale": p["danger"], **kw})
        self.p = p

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        if self.p["pass_win"] == 0 and len(legal) > 1:
            kinds = kind_of(legal)
            if ActionKind.HU in kinds:
                return kinds[ActionKind.HU][0]
        return super().act(view, legal)

    def _hand_value(
        self, view: Observation, h: HandState, read: TableRead, s: int, declared: bool, std: bool = True
    ) -> float:
        p = self.p
        unseen_total = sum(h.unseen)
        if s == 0 and std:
            waits = _wait_values(h, h.melds, view.rules, declared)
            live = sum(n for _, n, _ in waits)
            if live == 0:
                return p["dead_ready"] * read.ready_weight
            value = sum(n * 2.0**f for _, n, f in waits) / live + p["exit"]
            pw = p_win(0, live, read.draws, unseen_total, p)
            low = min(2.0**f for _, _, f in waits)
            end = max(0.0, min(1.0, (30 - view.wall_count) / 30))
            return pw * value * p["scale"] + (1 - pw) * end * low * (3.0 - read.ready_weight) * p["chajiao"]
        uk = h.ukeire(s) if std else 0
        return plan_value(h, read.draws, unseen_total, s, uk, std, p) * p["scale"]

    def _play(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        p = self.p
        read = self._read(view, h)
        discards = [a.tile_index for a in kinds.get(ActionKind.DISCARD, [])]
        scored = self._discard_scores(view, h, read, discards) if discards else []
        best_value = scored[0][0] if scored else -1e9
        for a in kinds.get(ActionKind.CONCEALED_KONG, []):
            t = a.tile_index
            h.remove(t, 4)
            after = h.shanten_with(h.n_melds + 1, h.meld_suits | (1 << (t // 9)))
            h.add(t, 4)
            s_best = min(self._shanten_after(h, d) for d in discards) if discards else 99
            if after <= s_best + (p["kong_slack"] if s_best > 0 else 0):
                return a
        for a in kinds.get(ActionKind.ADDED_KONG, []):
            t = a.tile_index
            if (
                read.danger[t] < p["added_kong_danger"]
                and scored
                and any(d == t and v >= best_value - 0.05 for v, d in scored[:3])
            ):
                return a
        if scored:
            return Action.discard(scored[0][1])
        return next(iter(kinds.values()))[0]

    def _declare(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        declare = kinds[ActionKind.DECLARE_READY][0]
        need = self.p["declare_live"]
        if view.phase == "declare":
            waits = _wait_values(h, h.melds, view.rules, True)
            live = sum(n for _, n, _ in waits)
            return declare if live >= need else kinds[ActionKind.PASS][0]
        for a in kinds.get(ActionKind.DISCARD, []):
            h.remove(a.tile_index)
            if h.shanten() == 0 and sum(n for _, n, _ in _wait_values(h, h.melds, view.rules, True)) >= need:
                h.add(a.tile_index)
                return declare
            h.add(a.tile_index)
        return self._play(view, h, {k: v for k, v in kinds.items() if k is not ActionKind.DECLARE_READY})

    def _claim(self, view: Observation, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        p = self.p
        pass_ = kinds[ActionKind.PASS][0]
        tile = view.pending_tile
        if tile is None:
            return pass_
        t = tile.index
        read = self._read(view, h)
        now_s = h.shanten()
        now_value = self._hand_value(view, h, read, now_s, view.ready[view.seat])
        ms = h.meld_suits | (1 << (t // 9))
        if ActionKind.KONG in kinds:
            h.remove(t, 3)
            after = h.shanten_with(h.n_melds + 1, ms)
            h.add(t, 3)
            if after <= now_s + (p["kong_slack"] if now_s > 0 else 0):
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
            if scored and scored[0][0] > now_value * p["pung_margin"] + 0.02:
                return kinds[ActionKind.PUNG][0]
        return pass_


VARIANTS: dict[str, dict[str, float]] = {
    "t_same": {},
    "t_pung09": {"pung_margin": 0.9},
    "t_pung13": {"pung_margin": 1.3},
    "t_pung16": {"pung_margin": 1.6},
    "t_kong0": {"kong_slack": 0},
    "t_kong2": {"kong_slack": 2},
    "t_akong1": {"added_kong_danger": 1.0},
    "t_akong01": {"added_kong_danger": 0.1},
    "t_declare2": {"declare_live": 2},
    "t_declare5": {"declare_live": 5},
    "t_nopass": {"pass_win": 0},
    "t_br16": {"boost_ready": 1.6},
    "t_br30": {"boost_ready": 3.0},
    "t_b10": {"boost": 1.0},
    "t_b20": {"boost": 2.0},
    "t_slow03": {"slow": 0.3},
    "t_slow10": {"slow": 1.0},
    "t_cj0": {"chajiao": 0.0},
    "t_cj1": {"chajiao": 1.0},
    "t_dead0": {"dead_ready": 0.0},
    "t_dead1": {"dead_ready": 1.0},
    "t_trip0": {"trip_root": 0.0},
    "t_trip6": {"trip_root": 0.6},
    "t_foff2": {"flush_off": 2},
    "t_foff6": {"flush_off": 6},
    "t_freach0": {"flush_reach": 0},
    "t_freach2": {"flush_reach": 2},
    "t_ffan15": {"flush_fan": 1.5},
    "t_ffan25": {"flush_fan": 2.5},
    "t_d0": {"danger": 0.0},
    "t_d01": {"danger": 0.1},
    "t_d02": {"danger": 0.2},
    "t_exit05": {"exit": 0.5},
    "t_exit1": {"exit": 1.0},
    "t_exit2": {"exit": 2.0},
    "t_exitm05": {"exit": -0.5},
}


def _variant(name: str, params: dict[str, float]) -> type[Tuned]:
    cls = type(f"Tuned_{name}", (Tuned,), {"P": params, "name": name})
    register(name)(cls)
    return cls


for _name, _params in VARIANTS.items():
    _variant(_name, _params)


def check(hands: int = 20) -> None:
    """Tuned with no change plays every decision as the expert does."""
    import sichuan_mahjong as sm
    from sichuan_mahjong.game.state import Game

    n = 0
    for preset in ("seed", "app"):
        for g in range(hands):
            game = Game(sm.Rules.preset(preset), seed=g)
            bots = [ExpertAgent(seed=g * 4 + s) for s in range(4)]
            twin = Tuned(seed=0)
            while not game.is_over:
                answers = {}
                for s, legal in game.to_act().items():
                    view = game.view(s)
                    answers[s] = bots[s].act(view, legal)
                    assert twin.act(view, legal) == answers[s], (preset, g, view.seat, answers[s])
                    n += 1
                game.step(answers)
    print(f"Tuned() = expert on {n} decisions")


if __name__ == "__main__" and "--check" in sys.argv:
    check(int(sys.argv[sys.argv.index("--hands") + 1]) if "--hands" in sys.argv else 20)
