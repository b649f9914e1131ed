"""Fuzzing every parser and loader (issue 10, item 8; issue 11, item 11): whatever the input, the answer is a value or
the parser's own typed error — never another exception, never a traceback — and a record that loads is exactly
what the engine did with it."""

from __future__ import annotations

import dataclasses
import json
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import ActionParseError
from sichuan_mahjong.game.deal import DealError
from sichuan_mahjong.match import Match
from sichuan_mahjong.record import RecordError, hand_from_jsonl, hand_to_jsonl, match_from_jsonl, match_to_jsonl
from sichuan_mahjong.tiles import TileParseError

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TILE_ALPHABET = "0123456789mpsMPS 一二三四五六七八九萬万筒條条０１２３４５６７８９,;-_🀄\t\n"
texts = st.text(alphabet=TILE_ALPHABET, max_size=40) | st.text(max_size=40)
WORDS = ["discard", "hu", "pass", "pung", "kong", "concealed_kong", "added_kong", "declare_ready", "void", "exchange"]


@FUZZ
@given(texts)
def test_parse_tiles_returns_tiles_or_says_why(text: str) -> None:
    try:
        tiles = sm.parse_tiles(text)
    except TileParseError as exc:
        assert str(exc)
        return
    assert sm.parse_tiles(sm.format_tiles(tiles)) == sorted(tiles)


@FUZZ
@given(st.sampled_from(WORDS) | texts, st.sampled_from(["", " ", "  "]), texts)
def test_action_parse_returns_an_action_or_says_why(word: str, gap: str, arg: str) -> None:
    text = word + gap + arg
    try:
        action = sm.Action.parse(text)
    except ActionParseError as exc:
        assert str(exc)
        return
    assert sm.Action.parse(str(action)) is action


@FUZZ
@given(st.sampled_from(["pung", "kong", "added_kong", "concealed_kong", "碰", "暗杠", "chow"]) | texts, texts)
def test_meld_parse_returns_a_meld_or_says_why(kind: str, tile: str) -> None:
    try:
        meld = sm.Meld.parse(f"{kind} {tile}")
    except TileParseError as exc:  # MeldParseError for the kind, the tile parser's own for the tile
        assert str(exc)
        return
    assert sm.Meld.parse(str(meld)) == meld


OPTION_NAMES = [f.name for f in dataclasses.fields(sm.Rules)]
OPTION_VALUES = ["1", "0", "-1", "true", "no", "none", "", "4", "99", "1" * 5000, "menqing,zhongzhang", "bogus", "１"]


@FUZZ
@given(st.sampled_from([*OPTION_NAMES, "bogus", "", "max-fan"]), st.sampled_from(OPTION_VALUES) | st.text(max_size=20))
def test_option_values_give_rules_or_a_rules_error(key: str, value: str) -> None:
    """`--option KEY=VALUE` of every subcommand: Rules.with_options, the function the command line calls."""
    try:
        rules = sm.Rules().with_options({key: value})
    except sm.RulesError as exc:
        assert str(exc) and len(str(exc)) < 1000
        return
    assert sm.Rules.from_dict(rules.to_dict()) == rules


# --------------------------------------------------------------------------------------------------- records
@cache
def _hand() -> tuple[sm.Game, str]:
    game = sm.Game(sm.Rules.preset("app"), 5)
    rng = random.Random(5)
    while not game.is_over:
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
    return game, hand_to_jsonl(game)


@cache
def _match() -> tuple[Match, str]:
    match = Match(sm.Rules(), hands=2, seed=8)
    rng = random.Random(8)
    match.play([lambda view, legal: rng.choice(legal)] * 4)
    return match, match_to_jsonl(match)


def _same_lines(written: str, text: str) -> None:
    """What the loaded record writes back is, line for line, what the file holds: it loaded exactly."""
    assert [json.loads(line) for line in written.splitlines()] == [
        json.loads(x) for x in text.splitlines() if x.strip()
    ]


def _mutations(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    how = rng.randrange(8)
    if how == 0:  # truncated anywhere
        return text[: rng.randrange(len(text))]
    if how == 1:  # two lines swapped
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 2:  # a line dropped or doubled
        i = rng.randrange(len(lines))
        lines[i : i + 1] = [] if rng.random() < 0.5 else [lines[i], lines[i]]
    elif how == 3:  # a blank line inside
        lines.insert(rng.randrange(1, len(lines)), "\n")
    elif how == 4:  # one character replaced
        i = rng.randrange(len(text))
        return text[:i] + rng.choice('0129mps{}[]",: x\n') + text[i + 1 :]
    else:  # one JSON field of one line set to another value
        i = rng.randrange(len(lines))
        raw = json.loads(lines[i])
        key = rng.choice(sorted(raw))
        raw[key] = rng.choice([None, 0, -1, 9, 1.5, True, "x", "1m", [], [9, 9], {}, "5p5p", 10**20])
        lines[i] = json.dumps(raw, ensure_ascii=False) + "\n"
    return "".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(["hand", "match"]))
def test_a_mutated_record_loads_exactly_or_is_a_record_error(seed: int, kind: str) -> None:
    """Truncated, lines swapped, dropped or doubled, blank lines, characters and fields changed."""
    text = _hand()[1] if kind == "hand" else _match()[1]
    mutated = _mutations(text, random.Random(seed))
    try:
        written = (
            hand_to_jsonl(hand_from_jsonl(mutated)) if kind == "hand" else match_to_jsonl(match_from_jsonl(mutated))
        )
    except RecordError as exc:
        assert str(exc)
        return
    _same_lines(written, mutated)


def _with_deal(change: dict[str, object]) -> str:
    _, text = _hand()
    lines = text.splitlines(keepends=True)
    deal = json.loads(lines[1])
    deal.update(change)
    lines[1] = json.dumps(deal, ensure_ascii=False) + "\n"
    return "".join(lines)


def _fifth_copy() -> dict[str, object]:
    _, text = _hand()
    deal = json.loads(text.splitlines()[1])
    wall = deal["wall"]
    first = wall[:2]
    other = next(wall[i : i + 2] for i in range(0, len(wall), 2) if wall[i : i + 2] != first)
    return {"wall": wall.replace(other, first, 1)}  # one wall tile becomes a fifth copy of another


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dice": [9, 9]}, "'dice' must be two dice of 1 to 6, got [9, 9]"),
        ({"dice": [0, 3]}, "two dice of 1 to 6"),
        ({"dice": [3]}, "two dice of 1 to 6"),
        ({"exchange_dice": [7, 1]}, "'exchange_dice' must be two dice"),
        ({"dealer": 4}, "'dealer' must be an integer 0..3"),
        ({"base": 0}, "'base' must be an integer >= 1"),
        ({"dealer_rolls": [[12, 0, 4, 5]]}, "not two dice for each of seats"),
        ({"dealer_rolls": [[2, 3, 4, 5]]}, "highest, not the dealer"),
        ({"hands": ["1m", "2m", "3m", "4m"]}, "is dealt 1 tiles"),
        ({"wall": "1m"}, "the wall holds 1 tiles"),
        ({"rules": {"declare_void": "yes"}}, "must be true or false"),
    ],
)
def test_issue_11_a_deal_the_engine_could_not_have_made_does_not_load(change: dict[str, object], message: str) -> None:
    text = _with_deal(change)
    with pytest.raises(DealError) as info:
        sm.Game.replay([json.loads(text.splitlines()[1])])
    assert message in str(info.value)
    with pytest.raises(RecordError, match="<string>:2: "):  # the header may disagree first; either way, line 2
        hand_from_jsonl(text)


def test_issue_11_dice_9_9_do_not_load() -> None:
    with pytest.raises(RecordError, match=r"<string>:2: bad 'deal' event: the deal's 'dice' must be two dice"):
        hand_from_jsonl(_with_deal({"dice": [9, 9]}))


def test_issue_11_a_fifth_copy_of_a_tile_in_the_wall_does_not_load() -> None:
    with pytest.raises(RecordError, match=r"bad 'deal' event: the deal holds 5 copies of \d[mps], not 4"):
        hand_from_jsonl(_with_deal(_fifth_copy()))
    with pytest.raises(DealError, match="5 copies"):
        sm.Game.replay([{**json.loads(_with_deal(_fifth_copy()).splitlines()[1])}])


def test_issue_11_a_blank_line_inside_a_record_is_an_error_at_its_line() -> None:
    _, text = _hand()
    lines = text.splitlines(keepends=True)
    inside = "".join([*lines[:5], "\n", *lines[5:]])
    with pytest.raises(RecordError, match="<string>:6: a blank line inside the record"):
        hand_from_jsonl(inside)
    assert hand_from_jsonl(text + "\n\n").events == _hand()[0].events  # blank lines may end a file


def test_a_deeply_nested_line_is_a_record_error() -> None:
    with pytest.raises(RecordError, match=r"not valid JSON|nested too deeply"):
        hand_from_jsonl("[" * 100_000 + "]" * 100_000 + "\n")
