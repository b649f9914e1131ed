"""Helpers for scripted deals in the engine's tests: deal a known hand, answer for seats, read payments.

Shared by every tests/game module (on pytest's and mypy's path as ``scripted``), so a scripted test reads as
the story it tells: who answers what, and what was paid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import HU, PASS

#: The source's rules without 报叫, so a ready deal does not stop to ask; tests that need 报叫 say so.
NO_DECLARE = sm.Rules.preset("bloody_kong").replace(declare_ready=False)


def deal(
    hands: list[str],
    wall: str = "",
    rules: sm.Rules = NO_DECLARE,
    replacements: str = "",
    dealer: int = 0,
    seed: int = 11,
    **options: object,
) -> sm.Game:
    """A scripted deal; ``seed`` fills a short wall, so each module keeps the seed its scripts were built on."""
    if options:
        rules = rules.replace(**options)
    return sm.Game.setup(rules, hands=hands, wall=wall, dealer=dealer, seed=seed, replacements=replacements)


def act(g: sm.Game, answers: Mapping[int, str]) -> None:
    """Give the named answers; every other asked seat passes."""
    pending = g.to_act()
    extra = set(answers) - set(pending)
    assert not extra, f"seats {extra} are not asked; asked: {pending}"
    g.step({s: answers.get(s, "pass") for s in pending})


def legal(g: sm.Game, seat: int) -> list[str]:
    return [str(a) for a in g.to_act().get(seat, [])]


def tsumogiri(g: sm.Game, until: Callable[[sm.Game], bool] = lambda g: g.is_over) -> None:
    """Everyone discards what he draws (the dealer's first turn: his first legal discard) and passes claims;
    a forced win (后4张必胡) is taken."""
    while not until(g):
        answers: dict[int, sm.Action] = {}
        for s, opts in g.to_act().items():
            if opts == [HU]:
                answers[s] = HU
            elif g.phase == "play":
                drawn = g.view(s).drawn
                choice = sm.Action.discard(drawn) if drawn is not None else None
                answers[s] = choice if choice in opts else next(a for a in opts if a.kind is sm.ActionKind.DISCARD)
            else:
                answers[s] = PASS
        g.step(answers)


def paid(g: sm.Game, since: int = 0) -> list[tuple[int, int, int, str]]:
    """Payments so far as (payer, payee, amount, rule id), from the ``since``-th on."""
    return [(p.payer, p.payee, p.amount, p.reason.split()[0]) for p in g.payments[since:]]


def pattern_ids(g: sm.Game, seat: int) -> list[str]:
    return [p for e in g.events if e.type == "win" and e.seat == seat for p in e.data["patterns"]]


def robbed_kong_deal() -> tuple[sm.Game, list[dict[int, str]]]:
    """A deal and the answers after which seat 1's added kong of 4m waits to be robbed by seat 2 (抢杠).

    Seat 1 pungs 4m (seat 2 passes a win on it), draws the fourth 4m and adds it; 抢杠 is +1 fan as in the app.
    """
    rules = sm.Rules.preset("standard_kong").replace(declare_ready=False, robbing_kong_fan=1)
    game = sm.Game.setup(
        rules,
        [
            "4m1s2s3s5s6s7s9s9s1p5p6p7p9p",
            "4m4m1m1m7p8p9p2s3s4s6s8s9m",
            "2m3m5m6m7m8m8m8m9m9m1p2p3p",
            "5p5p6s7s8s2p3p4p7m7s8p1s4s",
        ],
        wall="9p3s2p4m",
        seed=2,
    )
    script = [{0: "discard 4m"}, {1: "pung", 2: "pass"}, {1: "discard 2s"}, {2: "discard 9p"}]
    script += [{3: "discard 3s"}, {0: "discard 2p"}, {1: "added_kong 4m"}]
    return game, script


def offered_win_deal() -> sm.Game:
    """Seat 1 deals and discards 9p, which seat 0 (waiting on 6p 9p) may now win on or pass (no 报叫 asked)."""
    hands = [
        "1m1m2m3m4m5m6m7m2p3p4p7p8p",
        "9p5m8m5p1s4s7s9s1p3p6m2s2m1s",
        "2p3p4p6p7p8p3s3s8s8s7s5s6s",
        "1m2m3m4m5m6m7m8m9m9p9p4p1s",
    ]
    game = sm.Game.setup(sm.Rules(declare_ready=False), hands, wall="9p", dealer=1, seed=1)
    game.step({1: sm.Action.parse("discard 9p")})
    return game
