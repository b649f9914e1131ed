"""复盘: every decision of one seat in a hand or match record, set against the master's and valued by play-outs.

For each decision of the seat (a discard, a claim, a kong, 换三张, 定缺, 报叫, a win passed up) the review gives
what the seat did, what ``master`` would do, and the points each scored answer (:mod:`.options`) would bring from
there on: the mean over play-outs of the same samples of the hidden tiles, drawn from that seat's view alone
(:mod:`.value`), with its standard error. The *loss* of a decision is the best answer's value minus the seat's,
counted only where it clears its noise (:data:`Z` standard errors of the paired difference); the summary gives
the share of decisions that agreed with the master, the points lost per hand, and the costliest decisions with
the reason in words (:mod:`.reasons`). ``docs/review.md`` says how sure the numbers are.

A review reads the record's full events only to find each decision: what it hands on to be valued is the seat's
:class:`~sichuan_mahjong.game.Observation`, its own log of the hand (``game.events_for(seat)``) and its answer.
A decision is named by its hand (0-based) and its ``step``: the number of events of the seat's own log before it.

>>> import random
>>> from sichuan_mahjong import Game, Rules
>>> from sichuan_mahjong.agents.base import make_agent
>>> game = Game(Rules.preset("seed"), seed=2)
>>> bots = [make_agent("expert", s) for s in range(4)]
>>> while not game.is_over:
...     game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
>>> review = review_games([game], seat=1, samples=2)
>>> review.summary.hands, 0 <= review.summary.agreement <= 1
(1, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.sample import SampleError
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.record import Record, hand_from_record, match_from_record, replay_steps
from sichuan_mahjong.review.options import candidates, master_choice
from sichuan_mahjong.review.reasons import reason
from sichuan_mahjong.review.value import paired, playout_values

__all__ = [
    "SAMPLES",
    "Decision",
    "HandReview",
    "OptionValue",
    "Review",
    "ReviewError",
    "Summary",
    "Z",
    "decision_points",
    "review_decision",
    "review_games",
    "review_record",
]

#: Play-outs per scored answer by default (``docs/review.md``: a hand in about 15 s on two slow cores).
SAMPLES = 24
#: A loss counts only when it is this many standard errors of the paired difference above zero ...
Z = 2.0
#: ... on fresh samples, drawn where the best answer's gain on the first ones is this many standard errors.
CONFIRM = 1.0

Progress = Callable[[int, int], None]


class ReviewError(ValueError):
    """A review that cannot be made: a seat out of range, a record for one seat only, too few samples."""


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One scored answer: the seat's mean points from the decision to the end of the hand, and its error."""

    action: Action
    value: float
    se: float

    def to_dict(self) -> dict[str, Any]:
        return {"action": str(self.action), "value": _r(self.value), "se": _r(self.se)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat. ``loss`` is 0 unless the best answer beats the seat's by more than :data:`Z`
    standard errors (``se``, of the paired difference); ``reason_en`` / ``reason_zh`` say why, when it does."""

    hand: int
    step: int
    phase: str
    chosen: Action
    master: Action
    best: Action
    loss: float
    se: float
    options: tuple[OptionValue, ...]
    reason_en: str = ""
    reason_zh: str = ""

    @property
    def agreed(self) -> bool:
        return self.chosen == self.master

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "step": self.step,
            "phase": self.phase,
            "chosen": str(self.chosen),
            "best": str(self.best),
            "loss": _r(self.loss),
            "se": _r(self.se),
            "options": [o.to_dict() for o in self.options],
        }
        if details:
            out["master"] = str(self.master)
            out["reason"] = {"en": self.reason_en, "zh": self.reason_zh}
        return out


@dataclass(frozen=True, slots=True)
class HandReview:
    hand: int
    decisions: tuple[Decision, ...]


@dataclass(frozen=True, slots=True)
class Summary:
    """``agreement``: the share of decisions where the seat answered as the master; ``loss_per_hand``: the
    counted losses over the hands reviewed."""

    agreement: float
    loss_per_hand: float
    hands: int
    decisions: int

    def to_dict(self) -> dict[str, Any]:
        return {"agreement": _r(self.agreement), "loss_per_hand": _r(self.loss_per_hand), "hands": self.hands}


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    samples: int
    hands: tuple[HandReview, ...]

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    @property
    def summary(self) -> Summary:
        ds = self.decisions
        n = len(self.hands)
        agreement = sum(d.agreed for d in ds) / len(ds) if ds else 1.0
        return Summary(agreement, sum(d.loss for d in ds) / n if n else 0.0, n, len(ds))

    def costliest(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions with the largest counted loss (none with no loss), costliest first."""
        return sorted((d for d in self.decisions if d.loss > 0), key=lambda d: (-d.loss, d.hand, d.step))[:n]

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": [d.to_dict(details) for d in self.decisions],
            "summary": self.summary.to_dict(),
        }

    def to_json(self, details: bool = False) -> str:
        """The review as one line of JSON (``scmj review --json``); ``details`` adds each decision's master
        answer and reason."""
        return json.dumps(self.to_dict(details), ensure_ascii=False)


def _r(x: float) -> float:
    return round(x, 3) + 0.0  # no -0.0


# ---------------------------------------------------------------------------------------------- one decision


def review_decision(
    view: Observation, log: Sequence[Event], chosen: Action, *, hand: int, step: int, samples: int = SAMPLES
) -> Decision:
    """Value one decision from what the seat saw: its view (with its legal answers), its own log of the hand so
    far, and its answer. Deterministic for (hand, step, samples)."""
    rng = random.Random(f"sichuan_mahjong.review:{hand}:{step}:{samples}")
    master = master_choice(view, rng.getrandbits(32))
    actions = candidates(view, chosen, master, rng.getrandbits(32))
    seeds = [rng.getrandbits(48) for _ in range(samples)]
    if len(actions) == 1:
        only = OptionValue(chosen, 0.0, 0.0)
        return Decision(hand, step, view.phase, chosen, master, chosen, 0.0, 0.0, (only,))
    values = playout_values(view, log, actions, seeds)
    options = tuple(OptionValue(a, values.mean(i), values.se(i)) for i, a in enumerate(actions))
    b = max(range(len(actions)), key=lambda i: (values.mean(i), -i))  # a tie goes to the seat's own
    best = actions[b]
    gain, se = paired(values.rows[b], values.rows[0]) if b else (0.0, 0.0)
    loss = 0.0
    if b and gain > CONFIRM * se:
        # The best of several noisy means is picked for being high: its gain is measured again on fresh samples.
        again = playout_values(view, log, [chosen, best], [rng.getrandbits(48) for _ in range(samples)])
        gain, se = paired(again.rows[1], again.rows[0])
        loss = gain if gain > Z * se and gain > 0 else 0.0
    en = zh = ""
    if loss:
        en, zh = reason(view, chosen, best, loss)
    return Decision(hand, step, view.phase, chosen, master, best, loss, se, options, en, zh)


# ------------------------------------------------------------------------------------------------- a hand


def decision_points(game: Game, seat: int) -> Iterator[tuple[Observation, list[Event], Action]]:
    """Each decision of ``seat`` in a finished hand with more than one legal answer: the seat's view, its own
    log so far and its answer (read from the hand's ``act`` events)."""
    events = game.events
    for step in replay_steps(events):
        legal = step.asked.get(seat)
        if legal is None or len(legal) < 2:
            continue
        answer = next(e for e in events[step.at : step.at + len(step.asked)] if e.type == "act" and e.seat == seat)
        yield step.game.view(seat), step.game.events_for(seat), Action.parse(str(answer.data["action"]))


def _review_hand(game: Game, seat: int, hand: int, samples: int, tick: Callable[[], None] | None = None) -> HandReview:
    out = []
    for view, log, chosen in decision_points(game, seat):
        try:
            out.append(review_decision(view, log, chosen, hand=hand, step=len(log), samples=samples))
        except SampleError as exc:  # pragma: no cover - a view no position agrees with: the engine never makes one
            raise ReviewError(f"hand {hand + 1}: {exc}") from None
        if tick is not None:
            tick()
    return HandReview(hand, tuple(out))


def _hand_job(args: tuple[list[dict[str, Any]], int, int, int]) -> HandReview:
    events, seat, hand, samples = args
    return _review_hand(Game.replay(events), seat, hand, samples)


def review_games(
    games: Sequence[Game], seat: int, *, samples: int = SAMPLES, jobs: int = 1, progress: Progress | None = None
) -> Review:
    """Review ``seat`` in each of ``games`` (finished hands, in order). ``jobs`` above 1 reviews hands in that many
    processes (the same result); ``progress(done, total)`` is told after each decision (each hand with jobs)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:
        raise ReviewError(f"the seat must be 0..3, got {seat!r}")
    if samples < 2:
        raise ReviewError(f"--samples must be at least 2 (a standard error needs two play-outs), got {samples}")
    if jobs < 1:
        raise ReviewError(f"--jobs must be at least 1, got {jobs}")
    total = sum(1 for g in games for _ in decision_points(g, seat)) if progress is not None else 0
    done = 0

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    if jobs == 1 or len(games) < 2:
        hands = [_review_hand(g, seat, i, samples, tick) for i, g in enumerate(games)]
    else:
        work = [([e.to_dict() for e in g.events], seat, i, samples) for i, g in enumerate(games)]
        hands = []
        with ProcessPoolExecutor(max_workers=min(jobs, len(games))) as pool:
            for h in pool.map(_hand_job, work):
                hands.append(h)
                tick(len(h.decisions))
    return Review(seat, samples, tuple(hands))


def review_record(
    record: Record, seat: int = 0, *, samples: int = SAMPLES, jobs: int = 1, progress: Progress | None = None
) -> Review:
    """Review ``seat`` over every hand of a full hand or match record (``record.read_record``), checked by replay
    first. A record for one seat cannot be reviewed: it lacks the legal answers of each decision."""
    if record.seat is not None:
        raise ReviewError(
            f"{record.source or 'the record'}: a record for seat {record.seat} only: the review needs a full "
            "record (the server's or `scmj play`'s), which holds every decision's legal answers"
        )
    games = match_from_record(record).games if record.kind == "match" else [hand_from_record(record)]
    return review_games(games, seat, samples=samples, jobs=jobs, progress=progress)
