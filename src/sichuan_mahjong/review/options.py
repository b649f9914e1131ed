"""The answers a review scores at one decision: the seat's own, the master's, and the few others worth a look.

All are legal answers of the decision. Playing out every legal answer would cost too much for nothing (most
discards of a 14-tile hand are plainly worse), so:

* a discard: the seat's and the master's, and the expert's :data:`TOP_DISCARDS` best by its own price (shape,
  live tiles, danger); every other answer of the turn (a win, a kong, 报叫) too;
* a claim or a robbed kong (win, pung, kong, pass), 定缺 (the three suits) and 报叫 after the deal: all of them;
* 换三张: the seat's and the master's three, and for each other suit of three or more tiles the three the hand
  misses least (the expert's way of choosing them: the least shanten, then the tiles farthest from the middle).
"""

from __future__ import annotations

from sichuan_mahjong.agents.efficient import _centrality
from sichuan_mahjong.agents.hand import read_view
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hand.analysis import shanten_keys

__all__ = ["TOP_DISCARDS", "candidates", "master_choice"]

#: The expert's best discards that are scored beside the seat's and the master's.
TOP_DISCARDS = 3


def master_choice(view: Observation, seed: int) -> Action:
    """What ``master`` answers at this view (a fresh bot seeded by the decision, so the same every time)."""
    return MasterAgent(seed).act(view, view.legal)


def candidates(view: Observation, chosen: Action, master: Action, seed: int) -> list[Action]:
    """The answers to score, the seat's own first, then the master's, each once (see the module doc)."""
    legal = view.legal
    out = [chosen, master]
    if view.phase == "exchange":
        out += _exchanges(view)
    elif view.phase == "play":
        out += [a for a in legal if a.kind is not ActionKind.DISCARD]
        discards = [a.tile_index for a in legal if a.kind is ActionKind.DISCARD]
        if discards:
            bot = MasterAgent(seed)
            h = bot._hand(view)
            scored = bot.discard_scores(view, h, bot.read_table(view, h), discards)
            out += [Action.discard(t) for _, t in scored[:TOP_DISCARDS]]
    else:
        out += legal
    return list(dict.fromkeys(a for a in out if a in legal))


def _exchanges(view: Observation) -> list[Action]:
    """For each suit with three tiles or more, the three the hand misses least."""
    h = read_view(view)
    best: dict[int, tuple[tuple[int, int, int], Action]] = {}
    for a in view.legal:
        tiles = a.exchange
        for t in tiles:
            h.remove(t)
        s = shanten_keys(h.keys, h.n_melds, h.meld_suits, -1)
        for t in tiles:
            h.add(t)
        key = (s, -sum(_centrality(t) for t in tiles), a.index)
        suit = tiles[0] // 9
        if suit not in best or key < best[suit][0]:
            best[suit] = (key, a)
    return [a for _, a in sorted(best.values(), key=lambda kv: kv[0])]
