"""What an answer is worth from one seat's view: its mean points over play-outs of sampled hidden tiles.

Every sample is drawn from the seat's :class:`~sichuan_mahjong.game.Observation` and its own log of the hand
(``game.events_for(seat)``) and nothing else, so a review never reads a hidden tile (docs/rules.md R12):

* in play (``play``, ``claim``, ``rob``) by :func:`~sichuan_mahjong.game.sample.sample_game`, as the master's
  search draws them: tile counts, voids (declared and shown by play), 报叫, hand sizes, each other hand shaped by
  how long it has played and drawn ready with the odds the reader gives it
  (:func:`~sichuan_mahjong.agents.reader.ready_odds`); the wall still to come then dealt into one stream per
  seat (:func:`~sichuan_mahjong.game.sample.seat_streams`), so that two answers' play-outs that part ways keep
  every seat's draws;
* before play (换三张, 定缺, the 报叫 round after the deal) by :func:`setup_sample`: the others' hands dealt at
  random from the tiles the seat did not hold, the exchange played again with the seat's own three and the three
  it received (held by the seat that gave them), the others' three chosen by the expert, and the voids everyone
  showed.

Each answer is then played on the same samples to the end of the hand by four experts with the same seeds
(:func:`~sichuan_mahjong.agents.master.play_on`: common random numbers), and its value is the seat's points from
that decision on. The differences between two answers on the same samples vary far less than their values.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.master import play_on
from sichuan_mahjong.agents.reader import ready_odds
from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.deal import Deal
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.loop import ActFunction, play
from sichuan_mahjong.game.sample import SampleError, sample_game, seat_streams
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.tiles import NUM_KINDS

__all__ = ["DEPTH", "POLICY", "SHAPED", "Values", "paired", "playout_values", "setup_sample"]

#: The bots of a play-out (``agents.master`` policies): four experts.
POLICY = "expert"
#: Each play-out is cut this many draws after the decision and the learned value of the position reached
#: (:func:`~sichuan_mahjong.agents.value.state_value`) stands for the rest of the hand: the paired differences
#: vary a quarter as much as whole play-outs' and agree with whole play-outs better than these with themselves
#: (``docs/experiments.md``, "A learned value").
DEPTH = 8
#: Turns each other sampled hand is played on to look as played as the real ones (the master's default).
SHAPED = 30
#: Exchange directions by the sum of the exchange dice mod 3, and the seat each direction gives to (as the engine).
_DICE_DIRECTION = ("across", "counterclockwise", "clockwise")
_EXCHANGE_TARGET = {"clockwise": 3, "counterclockwise": 1, "across": 2}
_SETUP_PHASES = ("exchange", "void", "declare")


@dataclass(frozen=True, slots=True)
class Values:
    """Each answer's points on each sample (``rows[i][k]``: answer i, sample k; the same samples for all)."""

    actions: tuple[Action, ...]
    rows: tuple[tuple[float, ...], ...]

    def mean(self, i: int) -> float:
        row = self.rows[i]
        return sum(row) / len(row)

    def se(self, i: int) -> float:
        return _se(self.rows[i])


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean of a - b on the same samples and its standard error."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    return sum(diffs) / len(diffs), _se(diffs)


def _exchange_direction(log: Sequence[Event]) -> str | None:
    for e in log:
        if e.type == "exchange":
            direction = e.data.get("direction")
            return direction if isinstance(direction, str) else None
    return None


def setup_sample(view: Observation, log: Sequence[Event], rng: random.Random) -> Game:
    """A :class:`Game` at the view's decision before play (换三张, 定缺, 报叫 after the deal) whose hidden tiles are
    drawn by ``rng`` from what the seat's view and log show (see the module doc)."""
    me, rules = view.seat, view.rules
    tiles = [t.index for t in view.tiles]
    given: list[int] = []
    received: list[int] = []
    if view.exchanged is not None:
        given = [t.index for t in view.exchanged[0]]
        received = [t.index for t in view.exchanged[1]]
    dealt = list(tiles)
    for t in received:
        dealt.remove(t)
    dealt += given
    direction = _exchange_direction(log)
    giver = None
    if received:
        if direction is None:
            raise SampleError("the seat received tiles in the exchange but its log shows no exchange direction")
        giver = (me - _EXCHANGE_TARGET[direction]) % 4
    pool = [4] * NUM_KINDS
    for t in dealt:
        pool[t] -= 1
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[me] = dealt
    if giver is not None:
        hands[giver] = list(received)
        for t in received:
            pool[t] -= 1
    bag = [t for t in range(NUM_KINDS) for _ in range(pool[t])]
    rng.shuffle(bag)
    for s in range(4):
        if s == me:
            continue
        need = (14 if s == view.dealer else 13) - len(hands[s])
        hands[s] += bag[:need]
        del bag[:need]
    if rules.exchange_direction == "dice":
        pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        if direction is not None:
            pairs = [(a, b) for a, b in pairs if _DICE_DIRECTION[(a + b) % 3] == direction]
        dice = rng.choice(pairs)
    else:
        dice = (1, 1)
    game = Game(_deal=Deal(rules, view.base, rng.getrandbits(32), view.dealer, None, (1, 1), hands, bag, dice))
    bots = [ExpertAgent(rng.getrandbits(32)) for _ in range(4)]

    def seat_agent(s: int) -> ActFunction:
        def act(seen: Observation, legal: Sequence[Action]) -> Action:
            void = view.voids[s]
            if game.phase == "exchange" and s == me:
                return Action.exchange_of(given)
            if game.phase == "exchange" and s == giver:
                return Action.exchange_of(received)
            if game.phase == "void" and void is not None:
                return Action.void(void)  # shown to all once everyone chose
            return bots[s].act(seen, legal)

        return act

    def reached(game: Game, _: object) -> bool:
        return game.phase == view.phase or game.phase not in _SETUP_PHASES

    play(game, [seat_agent(s) for s in range(4)], until=reached)
    if game.phase != view.phase:
        raise SampleError(f"the sample went on to {game.phase!r} before the view's phase {view.phase!r}")
    if me not in game.to_act():
        raise SampleError(f"seat {me} is not asked in the sample's {game.phase!r} phase")
    return game


def _sample(view: Observation, log: Sequence[Event], seed: int, odds: Sequence[float] | None) -> Game:
    rng = random.Random(seed)
    if view.phase in _SETUP_PHASES:
        return setup_sample(view, log, rng)
    game = sample_game(view, rng, implied_voids=True, shaped=SHAPED, ready_odds=odds)
    return seat_streams(game)


def playout_values(
    view: Observation, log: Sequence[Event], actions: Sequence[Action], seeds: Sequence[int], depth: int | None = DEPTH
) -> Values:
    """Each of ``actions`` played out on the sample each seed draws (the same samples and bots for every action),
    cut ``depth`` draws after the decision (None: to the end of the hand).

    A sample that cannot be drawn (:class:`SampleError`) is skipped for all actions alike; raises SampleError when
    none can.
    """
    odds = ready_odds(view) if view.phase not in _SETUP_PHASES else None
    rows: list[list[float]] = [[] for _ in actions]
    for seed in seeds:
        try:
            games = [_sample(view, log, seed, odds) for _ in actions]  # the same seed: the same sample each time
        except SampleError:
            continue
        for i, action in enumerate(actions):
            rows[i].append(play_on(games[i], view.seat, action, seed, POLICY, None, depth))
    if not rows[0]:
        raise SampleError(f"no sample of the hidden tiles agrees with seat {view.seat}'s view")
    return Values(tuple(actions), tuple(tuple(r) for r in rows))
