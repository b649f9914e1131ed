"""复盘 (``sichuan_mahjong.review``, ``scmj review``): the review ranks players as they are, finds a planted blunder,
never reads a hidden tile, and its command prints what docs/review.md says, or one line for bad input.

Records are played here with fixed seeds (seat 0 by the bot under review, the others by experts) and reviewed
with few samples, to keep the time down.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.agents.base import Agent, make_agent
from sichuan_mahjong.cli import main
from sichuan_mahjong.cli.review import _Bar
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.record import replay_steps, save_hand, save_match
from sichuan_mahjong.review import ReviewError, decision_points, review_decision, review_games
from sichuan_mahjong.review.reasons import reason
from sichuan_mahjong.review.value import setup_sample
from sichuan_mahjong.tiles import tile_words


def play(rules: sm.Rules, seat0: Agent, seed: int) -> sm.Game:
    game = sm.Game(rules, seed=seed)
    bots = [seat0, *(make_agent("expert", seed + s) for s in (1, 2, 3))]
    while not game.is_over:
        game.step({s: bots[s].act(game.view(s), legal) for s, legal in game.to_act().items()})
    return game


@cache
def loss_per_hand(bot: str) -> float:
    games = [play(sm.Rules.preset("app"), make_agent(bot, 100 + seed), seed) for seed in (11, 12)]
    return review_games(games, 0, samples=12).summary.loss_per_hand


def test_master_loses_nothing_random_most_efficient_between() -> None:
    master, efficient, random_ = loss_per_hand("master"), loss_per_hand("efficient"), loss_per_hand("random")
    assert master < 0.5
    assert master < efficient < random_
    assert random_ > 3.0


class PassesAWin:
    """An expert that passes the first win it is offered (app rules, seed 98: a 3-fan self-draw, 5 tiles left)."""

    name = "passes"

    def __init__(self) -> None:
        self.expert = make_agent("expert", 1)
        self.passed: int | None = None  # the wall count when it passed

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        choice = self.expert.act(view, legal)
        if self.passed is None and choice.kind is ActionKind.HU:
            self.passed = view.wall_count
            return self.expert.act(view, [a for a in legal if a.kind is not ActionKind.HU])
        return choice


def test_a_passed_win_is_the_costliest_decision() -> None:
    bot = PassesAWin()
    game = play(sm.Rules.preset("app"), bot, 98)
    assert bot.passed == 5
    review = review_games([game], 0, samples=6)
    worst = review.costliest(3)[0]
    assert (worst.phase, worst.chosen.kind, str(worst.best)) == ("play", ActionKind.DISCARD, "hu")
    assert worst.loss > 3 and worst.loss > 2 * worst.se
    assert "Passed a win worth 3 fan with 5 tiles left" in worst.reason_en
    assert "放弃了3番的胡牌" in worst.reason_zh


NOTATION = re.compile(r"\b[1-9]+[mps]\b")


def test_reasons_name_tiles_and_seats_in_words() -> None:
    """The reasons say tiles as the table does (三万 / 3 Crak) and seats by place (对家 / Across), never ``3m`` or
    ``seat 2``: for each kind of decision of a hand, with another seat declared ready and void in no suit."""
    game = play(sm.Rules.preset("app"), make_agent("expert", 0), 3)
    kinds = set()
    for view, _log, chosen in decision_points(game, 0):
        other = next((a for a in view.legal if a.kind is chosen.kind and a != chosen), None)
        if other is None or chosen.kind in kinds:
            continue
        kinds.add(chosen.kind)
        seen = view._replace(ready=(False, False, True, False), voids=(view.voids[0], None, None, None))
        en, zh = reason(seen, chosen, other, 1.5)
        assert not NOTATION.search(en) and not NOTATION.search(zh), (en, zh)
        assert "seat" not in en and "号位" not in zh
        if chosen.kind is ActionKind.DISCARD:
            assert chosen.tile is not None and other.tile is not None
            assert f"Discard {tile_words(other.tile, 'en')} rather than discard {tile_words(chosen.tile, 'en')}" in en
            assert f"打{tile_words(chosen.tile, 'zh')}" in zh
            assert "Across, who declared ready" in en and "报叫的对家" in zh
    assert {ActionKind.EXCHANGE, ActionKind.VOID, ActionKind.DISCARD} <= kinds


def test_a_ready_row_says_a_plain_win_rather_than_up_to_0_fan() -> None:
    """A wait worth no fan (平胡) reads as a plain win, not "up to 0 fan"; one worth fan keeps its figure."""
    from sichuan_mahjong.advisor import DiscardAdvice, Wait
    from sichuan_mahjong.review.reasons import _row_en, _row_zh

    def row(fan: int) -> DiscardAdvice:
        wait = Wait(sm.Tile.from_str("3m"), 2, fan, ())
        return DiscardAdvice(sm.Tile.from_str("9p"), 0, (), 2, (wait,), False)

    assert _row_en(row(0)).endswith("a plain win (0 fan)") and _row_zh(row(0)).endswith("平胡")
    assert _row_en(row(2)).endswith("up to 2 fan") and _row_zh(row(2)).endswith("最多2番")


# ------------------------------------------------------------------------------------------ information flow


def _replay(deal: Event, acts: list[Event]) -> sm.Game | None:
    try:
        return sm.Game.replay([deal, *acts])
    except ValueError:
        return None


def hidden(game: sm.Game, seat: int) -> list[tuple[tuple[int, ...], ...]]:
    """What ``seat`` cannot see at each of its decisions: the others' concealed tiles and the wall still to come."""
    out = []
    for step in replay_steps(game.events):
        if len(step.asked.get(seat, ())) > 1:
            g = step.game
            rest = sorted(g._wall[g._head : g._tail])
            out.append((*(tuple(g._counts[s]) for s in range(4) if s != seat), tuple(rest)))
    return out


def perturbed(game: sm.Game, seat: int, rng: random.Random) -> sm.Game:
    """The same hand with two hidden tiles swapped (one in another seat's hand, one in another hand or the wall)
    such that every decision of ``seat`` looks the same from its seat (same view, same log, same answer) while
    what it cannot see differs at every one of them."""
    deal = game.events[0]
    acts = [e for e in game.events if e.type == "act"]
    want = list(decision_points(game, seat))
    hands = [sm.parse_tiles(h) for h in deal.data["hands"]]
    wall = sm.parse_tiles(deal.data["wall"])
    others = [s for s in range(4) if s != seat]
    for _ in range(400):
        s = rng.choice(others)
        i = rng.randrange(len(hands[s]))
        new_hands = [list(h) for h in hands]
        new_wall = list(wall)
        if rng.random() < 0.5:
            o = rng.choice([x for x in others if x != s])
            j = rng.randrange(len(hands[o]))
            new_hands[s][i], new_hands[o][j] = hands[o][j], hands[s][i]
        else:
            j = rng.randrange(len(wall))
            new_hands[s][i], new_wall[j] = wall[j], hands[s][i]
        if new_hands == hands:
            continue
        data = {
            **deal.data,
            "hands": ["".join(map(str, h)) for h in new_hands],
            "wall": "".join(map(str, new_wall)),
        }
        other = _replay(Event("deal", -1, data), acts)
        if (
            other is not None
            and list(decision_points(other, seat)) == want
            and all(a != b for a, b in zip(hidden(game, seat), hidden(other, seat), strict=True))
        ):
            return other
    raise AssertionError("no swap of hidden tiles keeps the seat's view")


def test_the_review_never_reads_a_hidden_tile() -> None:
    rules = sm.Rules.preset("app")
    game = play(rules, make_agent("expert", 5), 21)
    other = perturbed(game, 0, random.Random(1))
    first = review_games([game], 0, samples=3).to_json(details=True)
    again = review_games([other], 0, samples=3).to_json(details=True)
    assert first == again


def test_pre_play_samples_agree_with_the_view() -> None:
    """The 换三张 / 定缺 samples deal the seat its own tiles and ask it the same question."""
    game = play(sm.Rules.preset("app"), make_agent("expert", 5), 21)
    seen = 0
    for view, log, _ in decision_points(game, 2):
        if view.phase not in ("exchange", "void", "declare"):
            continue
        for k in range(5):
            sample = setup_sample(view, log, random.Random(k))
            mine = sample.view(2)
            assert sorted(mine.tiles) == sorted(view.tiles)
            assert (mine.phase, mine.legal, mine.exchanged) == (view.phase, view.legal, view.exchanged)
        seen += 1
    assert seen == 2


def test_a_declaration_after_the_deal_is_sampled_and_valued() -> None:
    """报叫 after the deal (seed rules: no exchange, no void): seat 1 is dealt a ready hand and asked."""
    hands = [
        "1s2s3s4s5s6s7s8s9s1s2s3s4s5s",
        "1m2m3m4m5m6m7m8m9m1p2p3p5p",
        "1m2m3m4m5m6m7m8m9m4p6p7p8p",
        "9p9p9p8p7p6s7s8s9s6s7s8s9s",
    ]
    game = sm.Game.setup(sm.Rules.preset("seed"), hands, dealer=0, seed=1)
    view, log = game.view(1), game.events_for(1)
    assert view.phase == "declare"
    sample = setup_sample(view, log, random.Random(1))
    assert sorted(sample.view(1).tiles) == sorted(view.tiles) and sample.view(1).legal == view.legal
    decision = review_decision(view, log, Action.parse("pass"), hand=0, step=len(log), samples=3)
    assert {str(o.action) for o in decision.options} == {"declare_ready", "pass"}


# ------------------------------------------------------------------------------------------------ command


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("review")
    match = sm.Match(sm.Rules.preset("seed"), hands=2, seed=4)
    bots = [make_agent("expert", s) for s in range(4)]
    match.play([b.act for b in bots])
    save_match(match, folder / "match.jsonl")
    save_hand(match.games[0], folder / "hand.jsonl")
    save_hand(match.games[0], folder / "seat1.jsonl", seat=1)
    return folder / "match.jsonl"


def test_json_is_the_documented_shape_and_jobs_change_nothing(
    match_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(match_file), "--seat", "2", "--samples", "2", "--json"]) == 0
    one, err = capsys.readouterr()
    assert err == ""  # no progress bar off a terminal
    assert main(["review", str(match_file), "--seat", "2", "--samples", "2", "--json", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
    data = json.loads(one)
    assert set(data) == {"seat", "decisions", "summary"} and data["seat"] == 2
    assert set(data["summary"]) == {"agreement", "loss_per_hand", "hands"} and data["summary"]["hands"] == 2
    d = data["decisions"][0]
    assert set(d) == {"hand", "step", "phase", "chosen", "best", "loss", "se", "options"}
    assert {str(Action.parse(o["action"])) for o in d["options"]} == {o["action"] for o in d["options"]}
    assert d["chosen"] == d["options"][0]["action"] and all(set(o) == {"action", "value", "se"} for o in d["options"])


def test_text_names_the_summary(match_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(match_file.with_name("hand.jsonl")), "--samples", "2"]) == 0
    out = capsys.readouterr().out
    assert "Review of seat 0" in out and "Hand 1" in out and "Summary: agreed with the master on" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["seat1.jsonl"], "a record for seat 1 only: the review needs a full record"),
        (["match.jsonl", "--seat", "4"], "--seat must be 0..3, got 4"),
        (["match.jsonl", "--samples", "1"], "--samples must be at least 2"),
        (["match.jsonl", "--jobs", "0"], "--jobs must be at least 1"),
        (["missing.jsonl"], "cannot read"),
        (["notes.txt"], "notes.txt:1: not valid JSON"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    match_file: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    match_file.with_name("notes.txt").write_text("not a record\n", encoding="utf-8")
    args = [str(match_file.with_name(args[0])), *args[1:]]
    assert main(["review", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scmj review: error: ") and message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_the_progress_bar_counts_decisions() -> None:
    out = io.StringIO()
    bar = _Bar(out)
    bar(3, 12)
    assert out.getvalue().startswith("\r[#######-") and "3/12 decisions" in out.getvalue()
    bar.close()
    assert out.getvalue().endswith("\r")


def test_the_library_refuses_a_bad_seat() -> None:
    with pytest.raises(ReviewError, match=r"seat must be 0\.\.3"):
        review_games([], 7)
