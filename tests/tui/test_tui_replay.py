"""The replay model (tui/replay.py): frames built from a record by record.replay_steps; no Textual."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sichuan_mahjong.game import Game
from sichuan_mahjong.record import RecordError, hand_to_jsonl, save_hand
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tui.replay import frame_lines, replays_of_file, replays_of_text


def random_hand(seed: int, rules: Rules | None = None, stop: int | None = None) -> Game:
    game, rng = Game(rules=rules or Rules(), seed=seed), random.Random(seed)
    steps = 0
    while not game.is_over and (stop is None or steps < stop):
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
        steps += 1
    return game


@pytest.mark.parametrize(("seed", "preset"), [(1, "seed"), (2, "app"), (3, "standard")])
def test_frames_follow_the_hand(seed: int, preset: str) -> None:
    game = random_hand(seed, Rules.preset(preset))
    (hand,) = replays_of_text(hand_to_jsonl(game))
    frames = hand.frames
    assert [e for f in frames for e in f.events] == game.events  # every event once, in order
    assert frames[-1].views == tuple(game.view(s) for s in range(4)) and frames[-1].asked == {}
    assert hand.finished and hand.dealer == game.dealer
    # each frame is the replay to its point: the same as replaying the events up to it
    for frame in frames[1:-1]:
        again = Game.replay(game.events[: frame.at])
        assert frame.views == tuple(again.view(s) for s in range(4))
        assert frame.asked == {s: tuple(legal) for s, legal in again.to_act().items()}


def test_lines_of_a_frame() -> None:
    game = random_hand(4)
    (hand,) = replays_of_text(hand_to_jsonl(game))
    first = frame_lines(hand.frames[0], "zh", "compact")
    assert first[0].startswith("发牌，庄家 ")
    lines = [line for f in hand.frames for line in frame_lines(f, "en", "compact")]
    discards = sum(1 for e in game.events if e.type == "discard")
    assert sum(1 for line in lines if " discard" in line) == discards
    assert any(" draw" in line for line in lines)  # draws are shown in a replay
    assert lines[-1] in (
        "A win ended the hand",
        "One player left: the hand ended",
        "The wall ran out: the hand is over",
    )


def test_an_unfinished_record_ends_where_it_stops(tmp_path: Path) -> None:
    game = random_hand(5, stop=20)
    path = tmp_path / "hand-unfinished.jsonl"
    save_hand(game, path)
    (hand,) = replays_of_file(path)
    assert not hand.finished and hand.frames[-1].asked == {s: tuple(v) for s, v in game.to_act().items()}


@pytest.mark.parametrize(("seed", "preset", "seat"), [(6, "app", 0), (7, "seed", 2), (8, "standard_kong", 3)])
def test_a_one_seat_record_is_stepped_through_from_its_seat(seed: int, preset: str, seat: int) -> None:
    """Frames of a one-seat record come from its events alone: that seat's view, nobody else's tiles."""
    game = random_hand(seed, Rules.preset(preset))
    (hand,) = replays_of_text(hand_to_jsonl(game, seat=seat))
    frames = hand.frames
    assert hand.seat == seat and hand.finished and hand.dealer == game.dealer
    assert [e for f in frames for e in f.events] == game.events_for(seat)
    assert all(len(f.views) == 1 and f.table.seat == seat for f in frames)
    assert all(f.own(seat) is f.table and f.own((seat + 1) % 4) is None for f in frames)
    assert frames[-1].table == game.view(seat)._replace(legal=(), pass_lock=None) and frames[-1].asked == {}
    assert frames[-1].table.scores == tuple(game.events[-1].data["deltas"])
    lines = [line for f in frames for line in frame_lines(f, "en", "compact", seat)]
    assert lines[0].startswith("Deal: ") and lines[-1].endswith(
        ("ended the hand", "the hand ended", "the hand is over")
    )
    others = [e for e in game.events if e.type == "draw" and e.seat != seat]
    assert sum(1 for line in lines if line.endswith(" draws a tile")) == len(others)  # never which tile


def test_a_one_seat_record_says_its_own_passes() -> None:
    """A seat's own pass is in its log (it was asked): said plainly, since what it passed up is not."""
    for seed in range(40):
        game = random_hand(seed, Rules.preset("seed"))
        mine = [e for e in game.events_for(1) if e.type == "act" and e.data["action"] == "pass"]
        if mine:
            break
    (hand,) = replays_of_text(hand_to_jsonl(game, seat=1))
    lines = [line for f in hand.frames for line in frame_lines(f, "en", "compact", 1)]
    assert sum(1 for line in lines if line == "You: pass") == len(mine) > 0


def test_records_that_cannot_be_stepped_through(tmp_path: Path) -> None:
    game = random_hand(6)
    leaked = hand_to_jsonl(game, seat=0).replace('"tile":null', '"tile":"5p"', 1)  # another seat's draw
    with pytest.raises(RecordError, match=r"<record>:\d+: seat 0's log does not add up: seat 0 could not see"):
        replays_of_text(leaked)
    with pytest.raises(RecordError, match="cannot read"):
        replays_of_file(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(hand_to_jsonl(game).replace('"type":"discard"', '"type":"discord"', 1), encoding="utf-8")
    with pytest.raises(RecordError, match="discord"):
        replays_of_file(bad)
