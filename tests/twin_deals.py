"""The twin deals of the information-flow tests (tests/rl/test_rl_info_flow.py, tests/rl/test_rl_bots.py): two hands
alike for seat 0 — its tiles, the wall, what the others show by rule — with the other seats' tiles dealt anew,
played side by side while seat 0's public history agrees, comparing what an observer makes of each."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import HU, PASS, ActionKind
from sichuan_mahjong.rl import AGENTS, env, raw_env

Observer = Callable[[raw_env, str], dict[str, Any]]


def _deal(rules: sm.Rules, seed: int) -> tuple[list[list[int]], list[int], int]:
    rng = random.Random(seed)
    tiles = [t for t in range(27) for _ in range(4)]
    rng.shuffle(tiles)
    dealer = seed % 4
    hands = []
    for s in range(4):
        n = 14 if s == dealer else 13
        hands.append(sorted(tiles[:n]))
        tiles = tiles[n:]
    return hands, tiles, dealer


def _void(rules: sm.Rules, seat: int) -> int:
    """The suit a seat other than 0 declares void: fixed by seat, so the choice is alike in both deals."""
    return seat % 3 if rules.declare_void else -1


def twin_deals(rules: sm.Rules, seed: int) -> tuple[sm.Game, sm.Game, dict[int, tuple[int, ...]]]:
    """Deals A and B: seat 0's hand and the wall alike, the other seats' tiles dealt anew among them.

    What the others would show by rule rather than by choice stays put: the three tiles each passes in 换三张
    (returned, so the policy passes them again) and the tiles of its void suit (it must discard them first).
    The rest of their tiles change places between them at random, never a tile of a seat's void suit to that seat.
    """
    hands, wall, dealer = _deal(rules, seed)
    probe = sm.Game.setup(rules, hands=hands, wall=wall, dealer=dealer, seed=seed)
    passes = {s: probe.to_act()[s][0].exchange for s in (1, 2, 3)} if rules.exchange_three else {}
    fixed: dict[int, list[int]] = {}
    last: dict[int, list[int]] = {}  # the dealer's 14th tile, his "drawn" one that he discards first
    free: dict[int, list[int]] = {}  # the rest, to be exchanged between seats
    for s in (1, 2, 3):
        rest = list(hands[s])
        fixed[s] = list(passes.get(s, ()))
        for t in fixed[s]:
            rest.remove(t)
        last[s] = [hands[s][-1]] if s == dealer and hands[s][-1] in rest else []
        for t in last[s]:
            rest.remove(t)
        fixed[s] += [t for t in rest if t // 9 == _void(rules, s)]
        free[s] = [t for t in rest if t // 9 != _void(rules, s)]
    rng = random.Random(seed + 1000)
    for _ in range(300):  # random swaps between two seats, never a tile of a seat's void suit to that seat
        p, q = rng.sample((1, 2, 3), 2)
        i, j = rng.randrange(len(free[p])), rng.randrange(len(free[q]))
        if free[p][i] // 9 != _void(rules, q) and free[q][j] // 9 != _void(rules, p):
            free[p][i], free[q][j] = free[q][j], free[p][i]
    other = [list(hands[0])] + [sorted(fixed[s] + free[s]) + last[s] for s in (1, 2, 3)]
    a = sm.Game.setup(rules, hands=hands, wall=wall, dealer=dealer, seed=seed)
    b = sm.Game.setup(rules, hands=other, wall=wall, dealer=dealer, seed=seed)
    return a, b, passes


def _other_seat(game: sm.Game, seat: int, passes: dict[int, tuple[int, ...]]) -> sm.Action:
    """Public where it can be: pass claims, void by seat, discard the drawn tile; win only when forced."""
    legal = game.to_act()[seat]
    view = game.view(seat)
    if legal == [HU]:
        return HU
    if PASS in legal:
        return PASS
    phase = view.phase
    if phase == "exchange":
        return next(a for a in legal if a.exchange == passes[seat])
    if phase == "void":
        return sm.Action.void(_void(game.rules, seat))
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    if view.drawn is not None and sm.Action.discard(view.drawn) in discards:
        return sm.Action.discard(view.drawn)
    return discards[0]


def observe_env(e: raw_env, agent: str) -> dict[str, Any]:
    obs: dict[str, Any] = e.observe(agent)
    return obs


def run(
    game: sm.Game, passes: dict[int, tuple[int, ...]], observer: Observer, seed: int
) -> list[tuple[str, dict[str, Any]]]:
    """Seat 0's (public history, observation) at each of its decisions and at the end."""
    e = env(rules=game.rules)
    e.reset(options={"game": game})
    rng = np.random.default_rng(seed)
    out = []
    for agent in e.agent_iter():
        if e.terminations[agent]:
            if agent == "player_0":
                out.append((_history(game), observer(e, agent)))
            e.step(None)
            continue
        if agent == "player_0":
            obs = observer(e, agent)
            out.append((_history(game), obs))
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
        else:
            e.step(_other_seat(game, AGENTS.index(agent), passes).index)
    return out


def _history(game: sm.Game) -> str:
    return json.dumps([ev.to_dict() for ev in game.events_for(0)], ensure_ascii=False)


def compare(rules: sm.Rules, seed: int, observer: Observer) -> tuple[int, bool]:
    """How many of seat 0's observations were compared while the public histories agreed; whether one differed."""
    a, b, passes = twin_deals(rules, seed)
    assert [a.view(s).tiles for s in (1, 2, 3)] != [b.view(s).tiles for s in (1, 2, 3)]
    run_a, run_b = run(a, passes, observer, seed), run(b, passes, observer, seed)
    compared = 0
    for (hist_a, obs_a), (hist_b, obs_b) in zip(run_a, run_b, strict=False):
        if hist_a != hist_b:
            break
        compared += 1
        for key in ("observation", "action_mask"):
            if not np.array_equal(obs_a[key], obs_b[key]):
                return compared, True
    return compared, False
