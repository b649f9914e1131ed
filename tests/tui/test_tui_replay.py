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


def test_records_that_cannot_be_stepped_through(tmp_path: Path) -> None:
    game = random_hand(6)
    with pytest.raises(RecordError, match="seat 0 only"):
        replays_of_text(hand_to_jsonl(game, seat=0))
    with pytest.raises(RecordError, match="cannot read"):
        replays_of_file(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(hand_to_jsonl(game).replace('"type":"discard"', '"type":"discord"', 1), encoding="utf-8")
    with pytest.raises(RecordError, match="discord"):
        replays_of_file(bad)
