"""A match (docs/rules.md R11): several hands at one base, the dealer passed on by R2.5, running totals.

The first hand's dealer is rolled with dice (R2.2, inside :class:`Game`); every later dealer is the previous
hand's ``result.next_dealer`` (R2.5: the first winner, or the discarder when that first win was 一炮多响; after a
drawn hand, the ``dealer_after_draw`` option). Each hand's shuffle seed comes from the match seed and the hand's
number through :func:`hand_seed`, so a match is reproduced by ``(rules, hands, base, seed)`` plus the players'
answers, and a saved match replays bit for bit: ``record.py`` (above this module: it imports it, never the
reverse) writes and reads it with ``match_to_jsonl`` / ``match_from_jsonl``.

>>> from sichuan_mahjong.rules import Rules
>>> import random
>>> m = Match(Rules(), hands=2, seed=5)
>>> rng = random.Random(0)
>>> totals = m.play([lambda view, legal: rng.choice(legal)] * 4)
>>> m.is_over, len(m.games), sum(m.totals)
(True, 2, 0)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from sichuan_mahjong.game.loop import AgentLike, play
from sichuan_mahjong.game.settlement import Settlement
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rules import Rules

__all__ = ["AgentLike", "Match", "MatchError", "hand_seed"]

#: Hard stop for :meth:`Match.play`: a hand that needs more decisions than this is an engine bug, not a game.
MAX_STEPS_PER_HAND = 5000


class MatchError(RuntimeError):
    """A match used out of order: a new hand while one is in play, or after the last hand.

    A programming error of the caller (not bad user input), hence not a ValueError.
    """


def hand_seed(match_seed: int, hand_index: int) -> int:
    """The shuffle seed of hand ``hand_index`` (0-based) of the match seeded ``match_seed``.

    A hash rather than ``seed + i`` so that neighbouring match seeds never share hands (match 1's second hand
    would otherwise be match 2's first). SHA-256 is stable across Python versions and processes, unlike
    ``hash()``. 63 bits keep it a plain non-negative int in every JSON reader.
    """
    digest = hashlib.sha256(f"sichuan_mahjong.match:{match_seed}:{hand_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Match:
    """``hands`` hands at ``base``; build each hand with :meth:`next_game`, or let :meth:`play` run them all.

    ``games`` holds every hand started, in order; ``results`` the settlements of the finished ones; ``totals``
    each seat's running total over the finished hands (sums to zero, R11).
    """

    def __init__(self, rules: Rules | None = None, hands: int = 8, base: int = 1, seed: int = 0) -> None:
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise ValueError(f"a match needs at least one hand, got hands={hands!r}")
        if isinstance(base, bool) or not isinstance(base, int) or base < 1:
            raise ValueError(f"the base (底金) must be a positive integer, got base={base!r}")
        self.rules = rules or Rules()
        self.hands = hands
        self.base = base
        self.seed = seed
        self.games: list[Game] = []

    # --------------------------------------------------------------------------------------------- state
    @property
    def game(self) -> Game | None:
        """The hand being played or last played; None before the first."""
        return self.games[-1] if self.games else None

    @property
    def hand_index(self) -> int:
        """0-based number of the hand being played or last played; -1 before the first."""
        return len(self.games) - 1

    @property
    def dealer(self) -> int | None:
        """The dealer of the current hand; None before the first (dice decide it inside that hand)."""
        return self.games[-1].dealer if self.games else None

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand (R2.5), once the current hand is over; None while unknown."""
        if not self.games or not self.games[-1].is_over:
            return None
        return self.games[-1].result.next_dealer

    @property
    def results(self) -> list[Settlement]:
        """Settlements of the finished hands, in order."""
        return [g.result for g in self.games if g.is_over]

    @property
    def totals(self) -> list[int]:
        """Each seat's running total over the finished hands (a fresh list; the sum is always 0)."""
        totals = [0, 0, 0, 0]
        for result in self.results:
            for s in range(4):
                totals[s] += result.deltas[s]
        return totals

    @property
    def is_over(self) -> bool:
        """Every hand has been played to its end."""
        return len(self.games) == self.hands and self.games[-1].is_over

    # --------------------------------------------------------------------------------------------- hands
    def next_game(self) -> Game:
        """Start the next hand and return it (also appended to ``games``).

        Raises :class:`MatchError` while the current hand is still in play or after the last hand.
        """
        if self.games and not self.games[-1].is_over:
            raise MatchError(f"hand {len(self.games)} of {self.hands} is still in play; finish it first")
        if len(self.games) >= self.hands:
            raise MatchError(f"the match is over: all {self.hands} hands have been played")
        i = len(self.games)
        dealer = None if i == 0 else self.games[-1].result.next_dealer
        game = Game(self.rules, hand_seed(self.seed, i), dealer=dealer, base=self.base)
        self.games.append(game)
        return game

    def play(self, agents: Sequence[AgentLike], on_step: Callable[[Game], None] | None = None) -> list[int]:
        """Play every remaining hand (finishing one in progress first) with one agent per seat.

        Each hand is played by :func:`~sichuan_mahjong.game.play`: each agent is asked exactly when
        :meth:`Game.to_act` names its seat, with ``game.view(seat)`` and its legal answers; an illegal answer
        raises ``IllegalActionError`` from the engine. ``on_step(game)`` runs after every step (a display or a
        statistics hook). Returns the final totals.
        """
        if len(agents) != 4:
            raise ValueError(f"a match needs four agents, got {len(agents)}")
        while True:
            game = self.games[-1] if self.games and not self.games[-1].is_over else None
            if game is None:
                if self.is_over:
                    return self.totals
                game = self.next_game()
            play(game, agents, on_step=on_step, max_steps=MAX_STEPS_PER_HAND)
            if not game.is_over:
                raise MatchError(f"hand {len(self.games)} did not end after {MAX_STEPS_PER_HAND} steps")

    def __repr__(self) -> str:
        return (
            f"Match(rules={self.rules.mode!r}, hands={self.hands}, base={self.base}, seed={self.seed}, "
            f"played={len(self.results)}, totals={self.totals})"
        )
