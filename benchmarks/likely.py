"""How well a sampled deal explains what the others did: their last discards, priced by the expert.

A determinization (:func:`~sichuan_mahjong.game.sample.sample_game`) draws the others' hidden hands from what
the table shows. Their *choices* say more: a player who just let go of 5m probably held nothing that 5m
joined. If the others play like the ``expert``, a sampled hand in which the expert would have kept the tile
its seat discarded is an unlikely one. :func:`discard_likelihood` scores a sample by that: for each other seat
still in, its sampled concealed tiles plus its last discard (the hand it chose from), priced by the expert's
discard prices from that seat's view of the sample; the weight is ``exp(beta x (price of the tile it
discarded - best price))``, at least ``floor``, multiplied over the seats. :class:`ConsistentMaster` (``k``) draws
each of its samples from k by this weight (measured no stronger than the master: ``docs/experiments.md``;
``master_variants.py`` registers it as ``m_cons4``). An experiment, kept out of the package.

The check is approximate, and the floor says so: the view priced is the present one (a turn or so after the
discard), and a discard claimed off the river leaves the seat's previous discard last in it. Only the sample
(built from this seat's view alone) is looked at; nothing hidden.
"""

from __future__ import annotations

import math
from typing import Any

from sichuan_mahjong.agents.expert import ExpertAgent, TableRead
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation

__all__ = ["ConsistentMaster", "discard_likelihood", "seat_likelihood"]

#: Sharpness of the discard model: price differences (in units of the base) times this, exponentiated.
BETA = 4.0
#: The least likelihood one seat's discard gives a sample.
FLOOR = 0.05

_PRICER = ExpertAgent(0)


def discard_likelihood(game: Game, me: int, beta: float = BETA, floor: float = FLOOR) -> float:
    """The product over the other active seats of how well the sample explains each one's last discard."""
    weight = 1.0
    for o in range(4):
        if o != me:
            weight *= max(floor, seat_likelihood(game, o, beta))
    return weight


def seat_likelihood(game: Game, o: int, beta: float = BETA) -> float:
    """``exp(beta x (price of seat o's last discard - best price))`` for the hand it chose from (its concealed
    tiles in ``game`` and that discard), by the expert's prices from o's view; 1 when o is out or had no
    choice, 0 when the sample holds a void tile of o's while another tile went (R3.2)."""
    view = game.view(o)
    if not view.active[o] or not view.discards[o]:
        return 1.0
    d = view.discards[o][-1].index
    h = read_view(view)
    h.add(d)
    held = [t for t, n in enumerate(h.counts) if n]
    if h.void >= 0 and any(t // 9 == h.void for t in held):
        held = [t for t in held if t // 9 == h.void]  # void tiles go first (R3.2)
    if d not in held:
        return 0.0  # a void tile held while another tile went: the sample breaks R3.2
    if len(held) < 2:
        return 1.0
    scores = _PRICER.discard_scores(view, h, TableRead(view, h), held)
    mine = next(v for v, t in scores if t == d)
    return math.exp(beta * (mine - scores[0][0]))


class ConsistentMaster(MasterAgent):
    """The master whose every sample is drawn from ``consistent`` by how well each explains the others' last
    discards (:func:`discard_likelihood`); ``consistent=1`` is the master itself."""

    def __init__(self, seed: int | None = None, *, consistent: int = 1, **options: Any) -> None:
        super().__init__(seed, **options)
        if consistent < 1:
            raise ValueError(f"consistent must be at least 1, got {consistent}")
        self.consistent = consistent

    def _seed(self, view: Observation) -> int:
        seeds = [self.rng.getrandbits(48) for _ in range(self.consistent)]
        if len(seeds) == 1:
            return seeds[0]
        return self.rng.choices(seeds, [discard_likelihood(self._sample(view, s), view.seat) for s in seeds])[0]
