"""A saved hand, step by step, for the replay screen; plain Python, no Textual.

Built only from a record (a file, or the JSON Lines text a finished hand saves) through
:func:`sichuan_mahjong.record.replay_steps`, which rebuilds the hand from its deal and answers and checks every
event against the file. A *frame* is one moment where the hand waits for answers, plus the end: each seat's
own view then (its tiles, melds, river), who is asked, and the events since the frame before, the step a person
reads as "what just happened". The record is a finished hand (or the player's own unfinished one), so the
screen may show every seat's tiles.

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
from sichuan_mahjong.record import Record, RecordError, parse_record, read_record, replay_steps
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.text import action_text, describe_event, seat_name

__all__ = ["HandReplay", "ReplayFrame", "frame_lines", "replays_of_file", "replays_of_record", "replays_of_text"]


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """The hand at one decision point (or its end): ``events[:at]`` of the record have happened."""

    at: int
    views: tuple[Observation, ...]  # each seat's own view now
    asked: dict[int, tuple[Action, ...]]  # who must answer next, and what each may answer; {} at the end
    events: tuple[Event, ...]  # the events since the frame before (the first frame: the deal and first draw)
    options: dict[int, tuple[Action, ...]]  # what was asked in the frame before: a pass then says what it passed


@dataclass(frozen=True, slots=True)
class HandReplay:
    """One hand of a record, every frame computed once (a hand has a few hundred events: cheap)."""

    number: int  # 1-based hand number in its record
    rules: Rules
    dealer: int
    frames: tuple[ReplayFrame, ...]
    source: str | None

    @property
    def finished(self) -> bool:
        return self.frames[-1].views[0].is_over

    @classmethod
    def of_events(cls, events: Sequence[Event], rules: Rules, number: int = 1, source: str | None = None) -> HandReplay:
        frames: list[ReplayFrame] = []
        game = None
        last_at = 0
        before: dict[int, tuple[Action, ...]] = {}
        for step in replay_steps(events):
            game = step.game
            asked = {s: tuple(legal) for s, legal in step.asked.items()}
            frames.append(_frame(_views(step.game), step.at, asked, events[last_at : step.at], before))
            last_at, before = step.at, asked
        if game is None:  # pragma: no cover - every hand asks at least once after its deal
            raise RecordError("the record holds no decision to step through", source)
        end = len(game.events)
        asked_now = {s: tuple(legal) for s, legal in game.to_act().items()}
        frames.append(_frame(_views(game), end, asked_now, game.events[last_at:end], before))
        return cls(number, rules, game.dealer, tuple(frames), source)


def _views(game: Game) -> tuple[Observation, ...]:
    return tuple(game.view(s) for s in range(4))


def _frame(
    views: Sequence[Observation],
    at: int,
    asked: dict[int, tuple[Action, ...]],
    events: Sequence[Event],
    before: dict[int, tuple[Action, ...]],
) -> ReplayFrame:
    return ReplayFrame(at, tuple(views), asked, tuple(events), before)


def replays_of_record(record: Record) -> list[HandReplay]:
    """Every hand of a full record (a hand or a match); a one-seat record cannot be stepped through."""
    if record.seat is not None:
        raise RecordError(
            f"a record for seat {record.seat} only: it holds no other hand and cannot be stepped through here; "
            "`scmj replay` can print it",
            record.source,
            1,
        )
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
            if not could:
                continue
            who = seat_name(event.seat, lang, human)
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
