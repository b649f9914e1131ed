"""A saved hand, step by step, for the replay screen; plain Python, no Textual.

Built only from a record (a file, or the JSON Lines text a finished hand saves) through
:func:`sichuan_mahjong.record.replay_steps`, which rebuilds the hand from its deal and answers and checks every
event against the file. A *frame* is one moment where the hand waits for answers, plus the end: each seat's
own view then (its tiles, melds, river), who is asked, and the events since the frame before, the step a person
reads as "what just happened". The record is a finished hand (or the player's own unfinished one), so the
screen may show every seat's tiles.

A one-seat record (``save_hand(game, path, seat=k)``) holds only what seat k saw; its frames come from those
events alone through :func:`sichuan_mahjong.seat_log.seat_steps`: one per move, each with seat k's view only
(others' hands are counts, their concealed kongs face down), so nothing hidden can be shown.

>>> from sichuan_mahjong.game import Game
>>> from sichuan_mahjong.record import hand_to_jsonl
>>> import random
>>> game, rng = Game(seed=5), random.Random(5)
>>> while not game.is_over:
...     game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
>>> (hand,) = replays_of_text(hand_to_jsonl(game))
>>> hand.frames[-1].views[0] == game.view(0) and hand.frames[-1].asked == {}
True
>>> sum(len(f.events) for f in hand.frames) == len(game.events)
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from sichuan_mahjong.game import Action, ActionKind, Event, Game, Observation
from sichuan_mahjong.record import HandRecord, Record, RecordError, parse_record, read_record, replay_steps
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.seat_log import seat_steps
from sichuan_mahjong.text import action_text, describe_event, seat_name

__all__ = ["HandReplay", "ReplayFrame", "frame_lines", "replays_of_file", "replays_of_record", "replays_of_text"]


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """The hand at one step (or its end): ``events[:at]`` of the record have happened."""

    at: int
    views: tuple[Observation, ...]  # each seat's own view now; a one-seat record's: that seat's alone
    asked: dict[int, tuple[Action, ...]]  # who must answer next, and what each may answer; {} at the end
    events: tuple[Event, ...]  # the events since the frame before (the first frame: the deal and first draw)
    options: dict[int, tuple[Action, ...]]  # what was asked in the frame before: a pass then says what it passed

    @property
    def table(self) -> Observation:
        """A view of the table now, for what every seat sees alike: wall, phase, scores, melds, rivers, wins."""
        return self.views[0]

    def own(self, seat: int) -> Observation | None:
        """Seat ``seat``'s own view (its concealed tiles), or None when the record does not hold them."""
        return next((view for view in self.views if view.seat == seat), None)


@dataclass(frozen=True, slots=True)
class HandReplay:
    """One hand of a record, every frame computed once (a hand has a few hundred events: cheap)."""

    number: int  # 1-based hand number in its record
    rules: Rules
    dealer: int
    frames: tuple[ReplayFrame, ...]
    source: str | None
    seat: int | None = None  # a one-seat record's seat; None for a full record (every seat's tiles)

    @property
    def finished(self) -> bool:
        return self.frames[-1].table.is_over

    @classmethod
    def of_events(cls, events: Sequence[Event], rules: Rules, number: int = 1, source: str | None = None) -> HandReplay:
        """A full hand: one frame per decision, every seat's view, checked by :func:`record.replay_steps`."""
        points: list[tuple[int, tuple[Observation, ...], dict[int, tuple[Action, ...]]]] = []
        game = None
        for step in replay_steps(events):
            game = step.game
            points.append((step.at, _views(game), {s: tuple(legal) for s, legal in step.asked.items()}))
        if game is None:  # pragma: no cover - every hand asks at least once after its deal
            raise RecordError("the record holds no decision to step through", source)
        points.append((len(game.events), _views(game), {s: tuple(legal) for s, legal in game.to_act().items()}))
        return cls(number, rules, game.dealer, _frames(events, points), source)

    @classmethod
    def of_seat_log(cls, hand: HandRecord, seat: int, rules: Rules, number: int = 1) -> HandReplay:
        """A one-seat record's hand: one frame per move, seat ``seat``'s view rebuilt from its log alone."""
        points = [(step.at, (step.view,), step.asked) for step in seat_steps(hand, seat)]
        return cls(number, rules, points[0][1][0].dealer, _frames(hand.events, points), hand.source, seat)


def _views(game: Game) -> tuple[Observation, ...]:
    return tuple(game.view(s) for s in range(4))


def _frames(
    events: Sequence[Event],
    points: Sequence[tuple[int, tuple[Observation, ...], dict[int, tuple[Action, ...]]]],
) -> tuple[ReplayFrame, ...]:
    """Frames at the given (at, views, asked) points, each with the events since the one before."""
    frames: list[ReplayFrame] = []
    last_at = 0
    before: dict[int, tuple[Action, ...]] = {}
    for at, views, asked in points:
        frames.append(ReplayFrame(at, views, asked, tuple(events[last_at:at]), before))
        last_at, before = at, asked
    return tuple(frames)


def replays_of_record(record: Record) -> list[HandReplay]:
    """Every hand of a record (a hand or a match); a one-seat record's from that seat's view."""
    if record.seat is not None:
        seat = record.seat
        return [HandReplay.of_seat_log(hand, seat, record.rules, i + 1) for i, hand in enumerate(record.hands)]
    return [
        HandReplay.of_events(hand.events, record.rules, i + 1, record.source) for i, hand in enumerate(record.hands)
    ]


def replays_of_text(text: str, source: str = "<record>") -> list[HandReplay]:
    """Every hand of a record given as JSON Lines text (what ``save_hand`` writes)."""
    return replays_of_record(parse_record(text, source))


def replays_of_file(path: str | os.PathLike[str]) -> list[HandReplay]:
    """Every hand of a record file; a file that cannot be read is a RecordError naming it."""
    try:
        record = read_record(path)
    except OSError as exc:
        raise RecordError(f"cannot read the record: {exc.strerror or exc}", os.fspath(path)) from None
    return replays_of_record(record)


def frame_lines(frame: ReplayFrame, lang: str, style: str, human: int = 0) -> list[str]:
    """What happened since the frame before, one line per event worth saying (draws included).

    A pass is said only when the seat passed up something (``下家(1) 过（可 碰）``); other answers echo the
    event they cause.
    """
    out: list[str] = []
    for event in frame.events:
        if event.type == "deal":
            dealer = seat_name(int(event.data.get("dealer", 0)), lang, human)
            out.append(f"发牌，庄家 {dealer}" if lang == "zh" else f"Deal: {dealer} deals")
            continue
        if event.type == "act":
            if str(event.data.get("action")) != "pass":
                continue
            could = [a for a in frame.options.get(event.seat, ()) if a.kind is not ActionKind.PASS]
            who = seat_name(event.seat, lang, human)
            if not could:  # a one-seat record does not say what its seat passed up
                out.append(f"{who} 过" if lang == "zh" else f"{who}: pass")
                continue
            what = ("、" if lang == "zh" else ", ").join(action_text(a, lang, style) for a in could)
            if all(a.kind is ActionKind.DECLARE_READY for a in could):
                out.append(f"{who} 不报叫" if lang == "zh" else f"{who}: no 报叫")
            else:
                out.append(f"{who} 过（可{what}）" if lang == "zh" else f"{who}: pass (could {what})")
            continue
        line = describe_event(event, lang, style, human, draws=True)
        if line is not None:
            out.append(line)
    return out
