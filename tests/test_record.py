"""Records (record.py): save/load of hands and matches is identical, one-seat records, stepping, bad files."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong import record
from sichuan_mahjong.game.view import filter_event
from sichuan_mahjong.match import Match
from sichuan_mahjong.record import RecordError, match_from_jsonl, match_to_jsonl, replay_steps, replay_to

PRESET_NAMES = sorted(sm.PRESETS)


def random_game(rules: sm.Rules, seed: int, *, stop_after: int | None = None) -> sm.Game:
    g = sm.Game(rules, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and (stop_after is None or steps < stop_after):
        g.step({s: rng.choice(legal) for s, legal in g.to_act().items()})
        steps += 1
    return g


def random_match(rules: sm.Rules, seed: int, hands: int = 3) -> Match:
    m = Match(rules, hands=hands, base=3, seed=seed)
    rng = random.Random(seed)
    m.play([lambda view, legal: rng.choice(list(legal))] * 4)
    return m


def same_state(a: sm.Game, b: sm.Game) -> None:
    assert a.events == b.events
    assert a.is_over == b.is_over
    assert [a.view(s) for s in range(4)] == [b.view(s) for s in range(4)]
    assert a.to_act() == b.to_act()
    if a.is_over:
        assert a.result == b.result


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hand_save_load_identical(preset: str, tmp_path: Path) -> None:
    for seed in range(3):
        g = random_game(sm.Rules.preset(preset), seed)
        path = tmp_path / f"{seed}.jsonl"
        sm.save_hand(g, path)
        loaded = sm.load_hand(path)
        same_state(loaded, g)
        assert record.hand_to_jsonl(loaded) == path.read_text(encoding="utf-8")
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(g.events) + 1
        assert json.loads(lines[0])["format"] == record.FORMAT_HAND


def test_unfinished_hand_saves_and_loads(tmp_path: Path) -> None:
    g = random_game(sm.Rules.preset("app"), 5, stop_after=30)
    assert not g.is_over
    sm.save_hand(g, tmp_path / "h.jsonl")
    loaded = sm.load_hand(tmp_path / "h.jsonl")
    same_state(loaded, g)
    pending = loaded.to_act()
    loaded.step({s: legal[0] for s, legal in pending.items()})  # and play goes on from there


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_match_save_load_identical(preset: str, tmp_path: Path) -> None:
    m = random_match(sm.Rules.preset(preset), seed=7, hands=4)
    path = tmp_path / "m.jsonl"
    sm.save_match(m, path)
    loaded = sm.load_match(path)
    assert (loaded.hands, loaded.base, loaded.seed, loaded.rules) == (m.hands, m.base, m.seed, m.rules)
    assert loaded.totals == m.totals and sum(loaded.totals) == 0
    assert loaded.results == m.results and loaded.is_over
    for a, b in zip(loaded.games, m.games, strict=True):
        same_state(a, b)
    assert match_to_jsonl(match_from_jsonl(match_to_jsonl(m))) == match_to_jsonl(m) == path.read_text(encoding="utf-8")
    for i, game in enumerate(m.games):  # one hand out of a match file
        same_state(sm.load_hand(path, hand=i), game)


def test_match_in_progress_round_trip_continues() -> None:
    m = Match(sm.Rules(), hands=3, seed=2)
    rng = random.Random(2)
    game = m.next_game()
    for _ in range(25):
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    loaded = match_from_jsonl(match_to_jsonl(m))
    assert len(loaded.games) == 1 and not loaded.games[0].is_over
    same_state(loaded.games[0], game)
    loaded.play([lambda view, legal: legal[0]] * 4)
    assert loaded.is_over and sum(loaded.totals) == 0


def test_seat_record_holds_only_what_the_seat_sees(tmp_path: Path) -> None:
    g = random_game(sm.Rules.preset("app"), 11)
    for k in range(4):
        path = tmp_path / f"seat{k}.jsonl"
        sm.save_hand(g, path, seat=k)
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        header, events = lines[0], lines[1:]
        assert header["seat"] == k and header["seed"] is None
        assert events == [e.to_dict() for e in g.events_for(k)]
        text = path.read_text(encoding="utf-8")
        assert '"hands":' not in text and '"wall":' not in text and '"seed":' + str(g.seed) not in text
        for e in events:  # no other seat's drawn tile, concealed kong or answer
            if e["type"] in ("draw", "concealed_kong", "act") and e["seat"] != k:
                assert e["type"] != "act" and e["tile"] is None
        with pytest.raises(RecordError, match=rf"seat{k}.jsonl:1: a record for seat {k} only .* cannot be replayed"):
            sm.load_hand(path)
        parsed = record.read_record(path)
        assert parsed.seat == k and parsed.hands[0].events == g.events_for(k)
    m = random_match(sm.Rules(), seed=1, hands=2)
    sm.save_match(m, tmp_path / "m2.jsonl", seat=2)
    with pytest.raises(RecordError, match=r"m2\.jsonl:1: a record for seat 2 only.*full match"):
        sm.load_match(tmp_path / "m2.jsonl")
    parsed = record.read_record(tmp_path / "m2.jsonl")
    assert [h.events for h in parsed.hands] == [game.events_for(2) for game in m.games]
    assert parsed.header["seed"] is None and all(h.header["seed"] is None for h in parsed.hands)


def test_replay_to_steps_through_a_hand() -> None:
    g = random_game(sm.Rules.preset("bloody_kong"), 3)
    events = g.events
    start = replay_to(events, 1)
    assert start.events == events[: len(start.events)] and start.to_act()
    previous = 0
    for n in range(1, len(events) + 1):
        at = replay_to([e.to_dict() for e in events] if n % 7 == 0 else events, n)
        got = len(at.events)
        assert at.events == events[:got]
        # every answer among the first n events is applied, except a group that n cuts in two
        if got < n:
            assert all(e.type == "act" for e in events[got:n]) and len(at.to_act()) > n - got
        assert got >= previous
        previous = got
    same_state(replay_to(events, len(events)), g)
    steps = list(replay_steps(events))
    assert steps[0].at == 1 and all(s.asked for s in steps)
    assert sum(len(s.asked) for s in steps) == sum(1 for e in events if e.type == "act")
    with pytest.raises(ValueError, match="n must be"):
        replay_to(events, 0)


def test_replay_to_stops_at_the_decision_point_of_a_split_answer_group() -> None:
    """A claim answered by two seats: cutting between their answers applies neither."""
    rules = sm.Rules.preset("standard").replace(declare_ready=False)
    g = sm.Game.setup(
        rules,
        [
            "2m3m5m6m7m6p7p8p9p2s2s5s6s9s",
            "4p4m7m8m9m1s3s4s7s8s6p7p8p",
            "1m2m3m4m5m6m7m8m9m1p1p2p3p",
            "1s2s3s4s5s6s7s8s9s5p5p2p3p",
        ],
        wall="5m",
    )
    g.step({0: "discard 9p"})
    g.step({1: "discard 4p"})
    g.step({2: "hu", 3: "pass"})
    first_answer = next(i for i, e in enumerate(g.events) if e.type == "act" and e.seat == 2)
    cut = replay_to(g.events, first_answer + 1)  # seat 2's answer, not seat 3's
    assert set(cut.to_act()) == {2, 3} and len(cut.events) == first_answer
    whole = replay_to(g.events, first_answer + 2)
    assert whole.is_over and whole.result == g.result


# --------------------------------------------------------------------------------------------- bad files


@pytest.fixture
def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "hand.jsonl"
    sm.save_hand(random_game(sm.Rules.preset("seed"), 4), path)
    return path


@pytest.fixture
def match_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.jsonl"
    sm.save_match(random_match(sm.Rules.preset("standard_kong"), seed=3, hands=3), path)
    return path


def rewrite(path: Path, edit: dict[int, str | None]) -> None:
    """Replace (or with None delete) lines by 1-based number."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [edit.get(i + 1, line) for i, line in enumerate(lines)]
    path.write_text("".join(x + "\n" for x in out if x is not None), encoding="utf-8")


def line_of(path: Path, n: int) -> dict[str, object]:
    raw = json.loads(path.read_text(encoding="utf-8").splitlines()[n - 1])
    assert isinstance(raw, dict)
    return raw


def expect(path: Path, line: int | None, pattern: str, *, match: bool = False) -> RecordError:
    with pytest.raises(RecordError) as info:
        (sm.load_match if match else sm.load_hand)(path)
    err = info.value
    assert err.source == str(path) and err.line == line, str(err)
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err).startswith(where), str(err)
    assert re.search(pattern, err.reason), err.reason
    return err


def test_bad_json_on_line_3(hand_file: Path) -> None:
    rewrite(hand_file, {3: '{"type": "act", "seat": 0, "action": "discard 1m"'})
    expect(hand_file, 3, "not valid JSON")


def test_unknown_format_and_newer_version(hand_file: Path, tmp_path: Path) -> None:
    header = line_of(hand_file, 1)
    rewrite(hand_file, {1: json.dumps({**header, "format": "some.other.game"})})
    expect(hand_file, 1, r"unknown format 'some.other.game'.*sichuan_mahjong.hand")
    rewrite(hand_file, {1: json.dumps({**header, "version": 99})})
    expect(hand_file, 1, "version 99 is newer")
    game_json = tmp_path / "game.json"
    game_json.write_text(sm.Game(seed=1).to_json() + "\n", encoding="utf-8")
    expect(game_json, 1, "Game.to_json")


def test_truncated_files(hand_file: Path, match_file: Path) -> None:
    text = hand_file.read_text(encoding="utf-8")
    lines = text.splitlines()
    hand_file.write_text(text[: len(text) - len(lines[-1]) // 2 - 1], encoding="utf-8")  # cut mid-line
    expect(hand_file, len(lines), r"not valid JSON.*truncated")
    hand_file.write_text("".join(x + "\n" for x in lines[:-5]), encoding="utf-8")  # cut at a line end
    expect(hand_file, len(lines) - 5, r"truncated: line 1 announces \d+ events, the file holds \d+")
    mtext = match_file.read_text(encoding="utf-8").splitlines()
    match_file.write_text("".join(x + "\n" for x in mtext[:-40]), encoding="utf-8")
    expect(match_file, len(mtext) - 40, "truncated", match=True)
    hand_starts = [i + 1 for i, x in enumerate(mtext) if '"hand":' in x and '"type"' not in x]
    match_file.write_text("".join(x + "\n" for x in mtext[: hand_starts[-1] - 1]), encoding="utf-8")
    expect(match_file, hand_starts[-1] - 1, "truncated: line 1 announces 3 hands, the file holds 2", match=True)


def test_empty_and_not_objects(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    expect(empty, 1, "empty file")
    arr = tmp_path / "arr.jsonl"
    arr.write_text("[1, 2]\n", encoding="utf-8")
    expect(arr, 1, "JSON object")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(RecordError, match=r"bin\.jsonl: not UTF-8"):
        sm.load_hand(binary)


def test_tampered_events_are_caught_at_their_line(hand_file: Path) -> None:
    lines = hand_file.read_text(encoding="utf-8").splitlines()
    n = next(i + 1 for i, x in enumerate(lines) if '"type":"payment"' in x or '"type":"discard"' in x)
    raw = line_of(hand_file, n)
    original = hand_file.read_text(encoding="utf-8")
    if raw["type"] == "payment":
        raw["amount"] = int(str(raw["amount"])) + 1
    else:
        raw["tile"] = "9s" if raw["tile"] != "9s" else "1m"
    rewrite(hand_file, {n: json.dumps(raw, ensure_ascii=False)})
    expect(hand_file, n, "where the replay writes")
    hand_file.write_text(original, encoding="utf-8")
    act = next(i + 1 for i, x in enumerate(lines) if '"type":"act"' in x and "discard" in x)
    raw = line_of(hand_file, act)
    rewrite(hand_file, {act: json.dumps({**raw, "action": "hu"})})
    expect(hand_file, act, "answer the hand does not allow")
    hand_file.write_text(original, encoding="utf-8")
    rewrite(hand_file, {act: json.dumps({**raw, "seat": (int(str(raw["seat"])) + 1) % 4})})
    expect(hand_file, act, "but the hand asks seat")
    hand_file.write_text(original, encoding="utf-8")
    rewrite(hand_file, {2: json.dumps({**line_of(hand_file, 2), "seed": 12345})})
    expect(hand_file, 2, "the deal's seed 12345 differs from the header's")
    hand_file.write_text(original, encoding="utf-8")
    rewrite(hand_file, {2: None, 3: None})  # the deal gone: the hand does not start with it
    with pytest.raises(RecordError, match=r"hand.jsonl:2: a hand starts with its 'deal' event"):
        sm.load_hand(hand_file)


def test_events_after_the_end_and_bad_event_shape(hand_file: Path) -> None:
    lines = hand_file.read_text(encoding="utf-8").splitlines()
    header = line_of(hand_file, 1)
    extra = json.dumps({"type": "discard", "seat": 0, "tile": "1m"})
    hand_file.write_text(
        "\n".join([json.dumps({**header, "events": int(str(header["events"])) + 1}), *lines[1:], extra]) + "\n",
        encoding="utf-8",
    )
    expect(hand_file, len(lines) + 1, "after the end of the hand")
    hand_file.write_text("\n".join([*lines, extra]) + "\n", encoding="utf-8")
    expect(hand_file, len(lines) + 1, "more events than the")
    hand_file.write_text("\n".join([*lines[:3], json.dumps({"kind": "draw"}), *lines[4:]]) + "\n", encoding="utf-8")
    expect(hand_file, 4, "an event needs 'type'")


def test_match_files_are_checked_against_the_match(match_file: Path) -> None:
    lines = match_file.read_text(encoding="utf-8").splitlines()
    original = match_file.read_text(encoding="utf-8")
    hand_lines = [i + 1 for i, x in enumerate(lines) if '"hand":' in x and '"type"' not in x]
    second = line_of(match_file, hand_lines[1])
    rewrite(match_file, {hand_lines[1]: json.dumps({**second, "dealer": (int(str(second["dealer"])) + 1) % 4})})
    expect(match_file, hand_lines[1], "who deals by R2.5", match=True)
    match_file.write_text(original, encoding="utf-8")
    rewrite(match_file, {hand_lines[1]: json.dumps({**second, "seed": 1})})
    expect(match_file, hand_lines[1], "not the one the match seed gives", match=True)
    match_file.write_text(original, encoding="utf-8")
    rewrite(match_file, {hand_lines[1]: json.dumps({**second, "hand": 5})})
    expect(match_file, hand_lines[1], "expected hand 1, found hand 5", match=True)
    match_file.write_text(original, encoding="utf-8")
    with pytest.raises(RecordError, match=r"match record .* load_match"):
        sm.load_hand(match_file)
    with pytest.raises(RecordError, match="no hand 7"):
        sm.load_hand(match_file, hand=7)


def test_hand_file_is_not_a_match(hand_file: Path) -> None:
    with pytest.raises(RecordError, match=r"hand\.jsonl:1: a hand record, not a match"):
        sm.load_match(hand_file)


def test_a_failed_load_or_save_loses_nothing(hand_file: Path, tmp_path: Path) -> None:
    good = hand_file.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="seat must be"):
        sm.save_hand(sm.Game(seed=2), hand_file, seat=9)
    assert hand_file.read_text(encoding="utf-8") == good  # the old file is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.jsonl"]  # no temporary left behind
    broken = tmp_path / "broken.jsonl"
    broken.write_text(good.replace('"type":"draw"', '"type":"drew"', 1), encoding="utf-8")
    with pytest.raises(RecordError):
        sm.load_hand(broken)
    same_state(sm.load_hand(hand_file), sm.load_hand(hand_file))


def test_filtered_deal_cannot_be_replayed_even_without_the_seat_mark(tmp_path: Path) -> None:
    g = random_game(sm.Rules(), 8)
    path = tmp_path / "s.jsonl"
    sm.save_hand(g, path, seat=1)
    header = line_of(path, 1)
    rewrite(path, {1: json.dumps({**header, "seat": None, "seed": 8})})
    expect(path, 2, "one seat's tiles only")


def test_filter_event_agrees_with_seat_records() -> None:
    g = random_game(sm.Rules.preset("app"), 12)
    for k in range(4):
        text = record.hand_to_jsonl(g, seat=k)
        parsed = record.parse_record(text)
        expected = [f for f in (filter_event(e, k) for e in g.events) if f is not None]
        assert parsed.hands[0].events == expected
