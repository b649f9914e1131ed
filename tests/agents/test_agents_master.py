"""The ``master`` bot: it searches, sees only its Observation, and is reproducible from its seed. The search is
tested with ``advantage=False`` (which searches plain discards too); the learned discards: test_agents_advantage."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from likely import ConsistentMaster

import sichuan_mahjong as sm
from played import decision_views
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.agents.advantage import (
    advantage_choice,
    claim_features,
    claim_options,
    discard_candidates,
    discard_features,
    plain_discard,
)
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.agents.master import LIVE_SCALE, PLAN_DANGER, MasterAgent, _gains, play_on
from sichuan_mahjong.agents.reader import live_counts
from sichuan_mahjong.agents.value import state_value
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.position import position
from sichuan_mahjong.game.sample import sample_game
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation


def expert_choice(view: Observation) -> Action:
    """The choice the master's search starts from: its own expert's (on live copies where the rules have no cap)."""
    return ExpertAgent.act(MasterAgent(seed=3), view, view.legal)


def searched_views(preset: str, seeds: range, limit: int) -> list[Observation]:
    """Views of seat decisions the master searches (it is asked at every seat of expert-played hands)."""
    out: list[Observation] = []
    probe = MasterAgent(advantage=False, seed=0, samples=2, scope="all")
    for seed in seeds:
        game = Game(sm.Rules.preset(preset), seed=seed)
        bots = [make_agent("expert", seed=s) for s in range(4)]
        while not game.is_over and len(out) < limit:
            answers = {}
            for s, legal in game.to_act().items():
                view = game.view(s)
                if len(legal) > 1 and view.phase in ("play", "claim"):
                    choice = bots[s].act(view, legal)
                    if len(probe._candidates(view, legal, choice)) > 1:
                        out.append(view)
                answers[s] = bots[s].act(view, legal)
            game.step(answers)
    return out


def test_registered_and_answers_legally() -> None:
    """Hands until the master has searched (a kong: discards and claims near ready are learned), every answer legal."""
    bots = [make_agent("master", seed=1)] + [make_agent("expert", seed=s) for s in range(3)]
    master = bots[0]
    assert isinstance(master, MasterAgent) and master.name == "master"
    for seed in range(4, 24):
        game = Game(sm.Rules.preset("app"), seed=seed)
        while not game.is_over:
            answers = {}
            for s, legal in game.to_act().items():
                a = bots[s].act(game.view(s), legal)
                assert a in legal
                answers[s] = a
            game.step(answers)
        if master.searched:
            break
    assert master.searched > 0


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("seed", {}),
        ("app", {}),
        ("app", {"waits": True}),
        ("app", {"consistent": 3}),
        ("seed", {"passed": True, "plans": ("fold", "speed")}),
        ("app", {"value_depth": 2}),
        ("seed", {"streams": True}),
        ("app", {"holding": True}),
        ("seed", {"live": True}),
    ],
)
def test_hidden_tiles_do_not_change_the_choice(preset: str, options: dict[str, Any]) -> None:
    """Two positions that differ only in tiles the seat cannot see give it the same view and the same answer."""
    views = searched_views(preset, range(6), 6)
    assert len(views) >= 4
    differ = 0
    for k, view in enumerate(views):
        a = sample_game(view, random.Random(100 + k))
        b = sample_game(view, random.Random(200 + k))
        others = [s for s in range(4) if s != view.seat]
        differ += [a._counts[s] for s in others] != [b._counts[s] for s in others]
        va, vb = a.view(view.seat), b.view(view.seat)
        assert va == vb
        cls = ConsistentMaster if "consistent" in options else MasterAgent
        one, two = (cls(advantage=False, seed=9, samples=4, scope="all", **options) for _ in range(2))
        assert one.act(va, va.legal) is two.act(vb, vb.legal)
        assert one.searched == two.searched == 1
    assert differ == len(views)


def test_same_seed_same_play_and_overruling_happens() -> None:
    views = searched_views("seed", range(6), 16)

    def answers(seed: int) -> list[Action]:
        bot = MasterAgent(advantage=False, seed=seed, samples=4, z=0.5)
        return [bot.act(v, v.legal) for v in views]

    first = answers(3)
    assert first == answers(3)
    expert = make_agent("expert", seed=0)
    # The search does overrule the expert somewhere (else it would be the expert under another name).
    assert any(a is not expert.act(v, v.legal) for a, v in zip(first, views, strict=True))


def test_think_ms_cuts_the_search_short() -> None:
    view = searched_views("seed", range(4), 1)[0]
    bot = MasterAgent(advantage=False, seed=1, samples=200, think_ms=0.0)
    assert bot.act(view, view.legal) in view.legal
    assert bot.searched == 1
    with pytest.raises(ValueError, match="samples must be at least 2, got 1"):
        MasterAgent(samples=1)
    with pytest.raises(ValueError, match="unknown play-out policy 'slow'; policies: mixed, fast, expert"):
        MasterAgent(policy="slow")
    with pytest.raises(ValueError, match="unknown search scope 'wins'; scopes: auto, all, claims, discards"):
        MasterAgent(scope="wins")
    with pytest.raises(ValueError, match="clip must be above 0, got 0"):
        MasterAgent(clip=0)
    with pytest.raises(ValueError, match="consistent must be at least 1, got 0"):
        ConsistentMaster(consistent=0)
    with pytest.raises(ValueError, match="unknown plan 'bluff'; plans: careful, fold, speed"):
        MasterAgent(plans=("fold", "bluff"))


def test_plans_are_candidates_where_in_point_and_kept_to_in_their_play_outs() -> None:
    """A plan's differing discard is a candidate only where the expert's looks dangerous (a safe plan) or leaves
    the hand near ready (``speed``); its play-outs keep this seat on the plan's bot, and only this seat."""
    bot = MasterAgent(advantage=False, seed=1, samples=2, plans=("fold", "speed"))
    seen = {"fold": 0, "speed": 0}
    asked: list[int] = []

    class Spy(ExpertAgent):
        def act(self, view: Observation, legal: Sequence[Action]) -> Action:
            asked.append(view.seat)
            return super().act(view, legal)

    for _game, view in decision_views("seed", range(6)):
        choice = ExpertAgent(0).act(view, view.legal)
        if view.phase != "play" or choice.kind is not ActionKind.DISCARD:
            continue
        for action, plan in bot._plan_candidates(view, view.legal, choice, False):
            assert plan is not None and action in view.legal and action != choice
            seen[plan] += 1
            if plan == "fold":
                assert bot.read_table(view, read_view(view)).danger[choice.tile_index] >= PLAN_DANGER
                before = len(asked)
                play_on(sample_game(view, random.Random(seen[plan])), view.seat, action, 5, "expert", Spy)
                assert set(asked[before:]) <= {view.seat}
    assert seen["fold"] > 3 and seen["speed"] > 3
    assert len(asked) > seen["fold"]


@pytest.mark.parametrize(("scope", "kinds"), [("claims", {"pass", "pung", "kong"}), ("discards", {"discard"})])
def test_scope_limits_what_is_searched(scope: str, kinds: set[str]) -> None:
    views = searched_views("seed", range(6), 12)
    bot = MasterAgent(advantage=False, seed=1, samples=2, scope=scope, policy="fast")
    expert = make_agent("expert", seed=0)
    seen = 0
    for v in views:
        cands = bot._candidates(v, v.legal, expert.act(v, v.legal))
        assert all(str(a).split()[0] in kinds | {"concealed_kong", "added_kong"} for a in cands)
        seen += len(cands) > 1
    assert seen > 0


@pytest.mark.parametrize(("preset", "claims"), [("seed", False), ("app", True)])
def test_auto_scope_searches_claims_only_under_a_cap(preset: str, claims: bool) -> None:
    views = [v for v in searched_views(preset, range(8), 40) if v.phase == "claim"]
    assert views
    auto = MasterAgent(advantage=False, seed=1, samples=2)
    expert = make_agent("expert", seed=0)
    searched = [len(auto._candidates(v, v.legal, expert.act(v, v.legal))) > 1 for v in views]
    assert all(searched) if claims else not any(searched)


def test_undecided_challengers_are_sampled_further() -> None:
    """max_samples: more play-outs where the first ones leave the best challenger undecided, never fewer."""
    views = searched_views("seed", range(6), 16)
    calls = [0]

    class Counting(MasterAgent):
        def _play_out(self, view: Observation, action: Action, plan: str | None, seed: int) -> float:
            calls[0] += 1
            return super()._play_out(view, action, plan, seed)

    extra: list[int] = []
    for v in views:
        n = len(MasterAgent(advantage=False, seed=3)._candidates(v, v.legal, expert_choice(v)))
        for max_samples, out in ((None, None), (12, extra)):
            calls[0] = 0
            Counting(advantage=False, seed=3, samples=4, max_samples=max_samples).act(v, v.legal)
            if out is None:
                assert calls[0] == 4 * n
            else:
                assert 4 * n <= calls[0] <= 4 * n + 2 * 8
                out.append(calls[0] - 4 * n)
    assert max(extra) > 0


def test_claim_samples_play_claims_out_more_often_and_nothing_else() -> None:
    """claim_samples: that many play-outs a candidate at a claim; a discard keeps ``samples``."""
    views = searched_views("app", range(8), 30)
    assert {v.phase for v in views} == {"play", "claim"}
    calls = [0]

    class Counting(MasterAgent):
        def _play_out(self, view: Observation, action: Action, plan: str | None, seed: int) -> float:
            calls[0] += 1
            return super()._play_out(view, action, plan, seed)

    for v in views:
        n = len(MasterAgent(advantage=False, seed=3)._candidates(v, v.legal, expert_choice(v)))
        calls[0] = 0
        Counting(advantage=False, seed=3, samples=2, claim_samples=5).act(v, v.legal)
        assert calls[0] == (5 if v.phase == "claim" else 2) * n
    with pytest.raises(ValueError, match="claim_samples must be at least 2"):
        MasterAgent(claim_samples=1)


def test_clip_keeps_one_big_hand_from_swamping_the_gate() -> None:
    """A challenger a point better in eleven play-outs and 40 better in one: the plain t (about 1.3) stays under
    the gate, the t of differences clipped to 6 (about 3.4) clears it; the gain reported is the plain mean."""
    values = [[0.0] * 12, [1.0] * 11 + [40.0]]
    [(i, mean, t)] = _gains(values, 0, [0, 1])
    assert i == 1 and mean == pytest.approx(51 / 12) and 1.2 < t < MasterAgent().z
    [(_, clipped_mean, clipped_t)] = _gains(values, 0, [0, 1], clip=6.0)
    assert clipped_mean == mean and clipped_t > 3.0


def test_value_depth_cuts_the_play_out_and_the_value_stands_for_the_rest() -> None:
    """With ``value_depth=d`` a play-out stops at the (d+1)-th draw after the decision (this seat in the hand)
    and adds the learned value of that position; deep enough, it is the whole play-out."""
    view = searched_views("app", range(6), 1)[0]
    action = view.legal[0]
    whole = sample_game(view, random.Random(5))
    full = play_on(whole, view.seat, action, 3, "expert")
    assert whole.is_over
    assert play_on(sample_game(view, random.Random(5)), view.seat, action, 3, "expert", value_depth=500) == full
    cut = sample_game(view, random.Random(5))
    before = cut.deltas[view.seat]
    value = play_on(cut, view.seat, action, 3, "expert", value_depth=1)
    pos = position(cut)
    assert not cut.is_over and pos is not None and pos.active[view.seat]
    assert value == float(cut.deltas[view.seat] - before) + state_value(pos, view.seat, cut.rules)
    assert sum(e.type == "draw" for e in cut.events) == 2
    with pytest.raises(ValueError, match="value_depth"):
        MasterAgent(value_depth=-1)


@pytest.mark.parametrize(
    ("preset", "live"), [("seed", None), ("app", None), ("seed", True), ("app", True), ("seed", False)]
)
def test_live_prices_the_expert_on_the_copies_that_will_reach_the_seat(preset: str, live: bool | None) -> None:
    """When told, and by default where the rule set has no cap (seed rules, not app rules), the expert inside the
    master counts each unseen kind by the reader's live copies, in thousandths (the hand's ``unit``): the counts
    move somewhere, and so do some answers. The table read's kong feed then reads whole live copies (three of a
    kind that will reach this seat, not three unseen); its danger stays the plain hand's."""
    counted = live if live is not None else preset == "seed"
    bot = MasterAgent(seed=0) if live is None else MasterAgent(seed=0, live=live)
    views = [v for _, v in decision_views(preset, range(3)) if len(v.legal) > 1][::3]
    moved = feed_moved = 0
    for v in views:
        raw = read_view(v).unseen
        live_n = live_counts(v, raw)
        h = bot._hand(v)
        assert h.unseen == ([round(LIVE_SCALE * n) for n in live_n] if counted else raw)
        assert h.unit == (LIVE_SCALE if counted else 1)
        read, plain_read = bot.read_table(v, h), ExpertAgent(seed=0).read_table(v, read_view(v))
        assert read.danger == plain_read.danger
        fed = [t for t, f in enumerate(read.kong_feed) if f > 0]
        if counted and v.rules.kongs_pay and v.wall_count > 0:
            assert fed == [t for t, n in enumerate(h.unseen) if n >= 3 * LIVE_SCALE]
        feed_moved += read.kong_feed != plain_read.kong_feed
        moved += any(abs(n - r) > 0.25 for n, r in zip(live_n, raw, strict=True))
    assert moved > 0
    assert feed_moved > 0 if counted else feed_moved == 0
    plain = MasterAgent(seed=0, live=False)
    differ = sum(bot.act(v, v.legal) != plain.act(v, v.legal) for v in views)
    assert differ > 0 if counted else differ == 0


class _Thousandths(ExpertAgent):
    """The expert counting every unseen copy in thousandths (the hand's ``unit``)."""

    hands = 0  # the hands read

    def _hand(self, view: Observation) -> HandState:
        self.hands += 1
        h = read_view(view)
        h.unseen = [LIVE_SCALE * n for n in h.unseen]
        h.unit = LIVE_SCALE
        return h


@pytest.mark.parametrize("preset", ["seed", "app"])
def test_the_expert_answers_alike_whatever_part_of_a_copy_it_counts_in(preset: str) -> None:
    """Its prices use ratios of counts and its thresholds (kong feed, 报叫, a win passed) compare with
    ``n * unit``: counting in thousandths changes no answer, which is what lets the master count live copies."""
    plain, scaled = ExpertAgent(seed=0), _Thousandths(seed=0)
    views = [v for _, v in decision_views(preset, range(8)) if len(v.legal) > 1]
    kinds = {a.kind for v in views for a in v.legal}
    assert {ActionKind.PUNG, ActionKind.KONG, ActionKind.HU} <= kinds
    for v in views:
        assert scaled.act(v, v.legal) == plain.act(v, v.legal), v
        assert scaled.read_table(v, scaled._hand(v)).kong_feed == plain.read_table(v, read_view(v)).kong_feed


@pytest.mark.parametrize("preset", ["seed", "app"])
def test_the_learned_discards_read_the_same_features_in_any_part_of_a_copy(preset: str) -> None:
    """The learned discards read the bot's own hand (the master's: live copies, in thousandths), so their
    features count copies whatever the unit: a fit on copies prices a hand counted in thousandths alike."""
    plain, scaled = ExpertAgent(seed=0), _Thousandths(seed=0)
    seen = claims = 0
    for v in (v for _, v in decision_views(preset, range(8)) if len(v.legal) > 1):
        discards = [a.tile_index for a in v.legal if a.kind is ActionKind.DISCARD]
        rows = []
        for bot in (plain, scaled):
            h = bot._hand(v)
            read = bot.read_table(v, h)
            if v.phase == "claim" and (options := claim_options(v.legal, v.legal[0])):
                rows.append(claim_features(bot, v, h, read, options))
            elif len(discards) > 1 and (candidates := discard_candidates(bot, v, h, read, discards)):
                rows.append(discard_features(bot, v, h, read, candidates))
        if rows:
            seen += 1
            claims += v.phase == "claim"
            flat, flat_scaled = ([*(f for row in x for f in row), *state] for x, state in rows)
            assert flat_scaled == pytest.approx(flat, abs=1e-9), v
            before = scaled.hands
            assert advantage_choice(scaled, v, v.legal, v.legal[0]) == advantage_choice(plain, v, v.legal, v.legal[0])
            assert scaled.hands > before or not plain_discard(v, v.legal, v.legal[0])  # on the bot's own hand
    assert seen > 50 and claims > 5
