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
