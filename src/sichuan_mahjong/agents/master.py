"""``master``: the expert, checked by search at the decisions where the expert is unsure.

At every decision the expert's choice comes first (:class:`~sichuan_mahjong.agents.expert.ExpertAgent`; with
``live``, by default where the rule set has no cap (seed rules: +0.08 a hand there, ``docs/experiments.md``), that
expert counts each unseen kind by the copies the reader expects to reach this seat,
:func:`~sichuan_mahjong.agents.reader.live_counts`, its kong feed included: three of a kind live, not three
unseen). At a plain discard near ready (no kong offered), the expert's best few discards are told apart by a
*learned advantage* (``advantage``, the default; :mod:`~sichuan_mahjong.agents.advantage`, read on the
expert's own hand: live copies where it counts them, with a fit on the live expert's play): what each is worth
over the expert's, fitted on random draws among them in real play, where play-outs on samples were too noisy to
tell them apart; so are its pass, pung and kong on a discard where the rule set has a fitted claim advantage
(:func:`~sichuan_mahjong.agents.advantage.claim_choice`; ``learned_claims=False`` leaves claims to the
search's scope). Where a kong or (that way, under a cap) a claim is at stake (with ``search_discards``, at
those discards where the advantage keeps the expert's too; with ``advantage=False``, at all of them) and the
expert's own prices are close, the master plays the hand out instead of pricing it:

* **candidates**: near ready (the best discard leaves shanten <= 1), the expert's best discards whose price is
  within :data:`MARGIN` of the best (at most :data:`TOP`), and any kong offered; on a discard it could claim,
  pass, pung and kong (with ``learned_claims=False`` only, and under a 封顶 cap: without one, ``scope="auto"``
  leaves claims to the expert);
* **determinization**: :func:`~sichuan_mahjong.game.sample.sample_game` draws the hidden tiles (the others'
  hands and the wall) consistent with this seat's view alone: unseen counts, declared voids and voids shown by
  play, 报叫, hand sizes; and it *reads the table* (:mod:`~sichuan_mahjong.agents.reader`): each other hand is
  drawn ready with the odds a model fitted on expert games reads from its river, melds and 报叫, and is
  played on until it is; the others are played on as far as they have played (``shaped``). A random deal of
  the unseen tiles is almost never ready, so a search on it never sees a discard deal in. With ``waits``, a
  hand drawn ready also waits on a tile drawn with the reader's odds of his winning on it (a truer picture of
  the danger that played no better: ``docs/experiments.md``; samples weighted by how well they explain the
  others' last discards, ``benchmarks/likely.py``, measured no stronger). With ``holding``, each other hand
  is dealt by what its river
  says it holds (:func:`~sichuan_mahjong.agents.reader.hold_weights`): samples nearer the real hands that
  played no better (``docs/experiments.md``);
* **play-out**: each candidate is played on the same samples (common random numbers: the same hidden tiles
  and the same bots) to the end of the hand by four experts (``policy="expert"``; ``"mixed"`` plays the
  others by a fast shanten bot, ``efficient`` without its ukeire tie-break); its value is this seat's points
  from now on;
* **streams** (``streams``; off by default): each seat of a play-out draws from a stream of its own
  (:func:`~sichuan_mahjong.game.sample.seat_streams`), so two candidates' play-outs that part ways (a claim, a
  win) keep every seat's draws instead of shifting them all to the next seat: the paired differences vary less
  (a seventh less under app rules, two fifths under seed rules: ``benchmarks/playout_noise.py``);
* **choice**: the candidate with the best mean replaces the expert's choice only when its mean gain over the
  expert's choice on the same samples exceeds :data:`Z` standard errors (and :data:`MIN_GAIN`; with ``clip``,
  the t is that of the differences clipped to +-clip points, so that one big hand does not swamp it): search
  corrects the expert where the play-outs clearly disagree, and noise never overrules it. With ``max_samples``
  above ``samples``, an undecided best challenger (a gain between 0.5 and :data:`Z` standard errors) and the
  expert's choice are sampled further, ``samples`` at a time, up to ``max_samples``; with ``claim_samples``, a
  claim's candidates are played out that many times instead (none by default: on seed rules' duplicate deals
  it was level with the master, though ``benchmarks/search_gain.py`` finds claims short of play-outs);
* **plans** (``plans``, :data:`PLANS`; none by default): at a discard where a plan's bot would play otherwise
  (a safe plan where the expert's discard looks dangerous, ``speed`` where it leaves the hand near ready),
  that answer is a candidate too, and its play-outs keep this seat on the plan's bot to the end of the hand:
  a safe discard is judged with the hand going on safely, not by an expert who throws the next danger at once.
  With ``passed``, the samples also respect what the others let pass (no hand wins on a tile it let go by
  since its last turn; :func:`~sichuan_mahjong.game.view.let_pass`).
* **a learned value** (``value_depth``; none by default): each play-out stops that many draws after the
  decision and :func:`~sichuan_mahjong.agents.value.state_value` of the sample's position stands for the rest
  of the hand. Most of a play-out's noise is the luck of the draws to come, which the value averages away (the
  paired differences vary an eighth as much at 4 draws); what it costs is the value's own bias.

The first master (plain samples: ``read=False, shaped=0, implied_voids=False, policy="mixed"``, 6 play-outs)
gained +0.06 a hand over three experts (4,000 hands a rule set, intervals across zero); the search alone
(``advantage=False``), +0.18 (app rules, 18,500 hands) and +0.11 (seed rules, 16,200, claims left to the
expert); with the learned discards and claims, +0.36 and +0.25 (``docs/experiments.md``).

``samples`` (play-outs per candidate) and ``think_ms`` (a time budget per decision that stops sampling early)
trade time for strength; ``policy`` (:data:`POLICIES`) picks the play-out bots and ``scope`` (:data:`SCOPES`)
which decisions are searched. The bot sees nothing but its Observation: the samples come from the view and the
bot's own seeded random generator, never from the game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from sichuan_mahjong.agents.advantage import advantage_choice, claim_choice, plain_discard
from sichuan_mahjong.agents.base import Agent, register
from sichuan_mahjong.agents.efficient import EfficientAgent, _centrality, kind_of
from sichuan_mahjong.agents.expert import ExpertAgent
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.agents.reader import hold_weights, live_counts, ready_odds, wait_odds
from sichuan_mahjong.agents.value import state_value
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.loop import play
from sichuan_mahjong.game.position import position
from sichuan_mahjong.game.sample import SampleError, sample_game, seat_streams
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation

__all__ = ["PLANS", "POLICIES", "SCOPES", "MasterAgent", "live_hand", "play_on"]

#: Play-outs per candidate at a searched decision.
SAMPLES = 12
#: Expert prices within this of the best (in units of the base) make a discard a candidate ...
MARGIN = 0.25
#: ... and at most this many discards are searched.
TOP = 3
#: The search overrules the expert only when its mean gain is this many standard errors above zero ...
Z = 1.5
#: ... and at least this many points.
MIN_GAIN = 0.1
#: ``live``: the live copies are counted in these parts of a copy (the compiled expert counts in ints).
LIVE_SCALE = 1000
#: Search discards only when the best leaves the hand this close to ready (shanten).
NEAR = 1


@register("master")
class MasterAgent(ExpertAgent):
    name = "master"

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = SAMPLES,
        think_ms: float | None = None,
        policy: str = "expert",
        scope: str = "auto",
        z: float = Z,
        implied_voids: bool = True,
        max_samples: int | None = None,
        shaped: int = 30,
        read: bool = True,
        waits: bool = False,
        clip: float | None = None,
        passed: bool = False,
        plans: Sequence[str] = (),
        value_depth: int | None = None,
        claim_samples: int | None = None,
        streams: bool = False,
        holding: bool = False,
        advantage: bool = True,
        learned_claims: bool = True,
        search_discards: bool = False,
        live: bool | None = None,
    ) -> None:
        super().__init__(seed)
        if value_depth is not None and value_depth < 0:
            raise ValueError(f"value_depth must be at least 0, got {value_depth}")
        if samples < 2:
            raise ValueError(f"samples must be at least 2, got {samples}")
        if claim_samples is not None and claim_samples < 2:
            raise ValueError(f"claim_samples must be at least 2, got {claim_samples}")
        if clip is not None and clip <= 0:
            raise ValueError(f"clip must be above 0, got {clip}")
        if policy not in _POLICIES:
            raise ValueError(f"unknown play-out policy {policy!r}; policies: {', '.join(_POLICIES)}")
        unknown = [p for p in plans if p not in PLANS]
        if unknown:
            raise ValueError(f"unknown plan {unknown[0]!r}; plans: {', '.join(PLANS)}")
        if scope not in SCOPES:
            raise ValueError(f"unknown search scope {scope!r}; scopes: {', '.join(SCOPES)}")
        self.samples = samples
        self.think_ms = think_ms
        self.policy = policy
        self.scope = scope
        self.z = z
        self.implied_voids = implied_voids
        self.shaped = shaped
        self.read = read
        self.waits = waits
        self.clip = clip
        self.passed = passed
        self.plans = tuple(plans)
        self.value_depth = value_depth
        self._plan_bots = {p: PLANS[p](0) for p in self.plans}
        self._odds: list[float] | None = None  # what the samples of the decision being searched are drawn by
        self._waits: list[list[float]] | None = None
        self._hold: list[list[float]] | None = None
        self.max_samples = samples if max_samples is None else max(samples, max_samples)
        self.claim_samples = claim_samples
        self.streams = streams
        self.holding = holding
        self.advantage = advantage
        self.learned_claims = learned_claims
        self.search_discards = search_discards
        self.live = live
        self.searched = 0  # decisions searched, and of those, overruled (for the benchmarks)
        self.overruled = 0

    def _hand(self, view: Observation) -> HandState:
        """The hand the expert's choice is priced on. With ``live`` (by default where the rule set has no cap),
        each unseen kind counts the copies the reader expects to reach this seat
        (:func:`~sichuan_mahjong.agents.reader.live_counts`) instead of all its unseen copies alike, in thousandths
        of a copy (:data:`LIVE_SCALE`, the hand's ``unit``: the compiled expert counts in ints)."""
        live = self.live if self.live is not None else view.rules.max_fan is None
        return live_hand(view) if live else read_view(view)

    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        choice = super().act(view, legal)
        if len(legal) == 1 or view.phase not in ("play", "claim"):
            return choice
        if self.advantage:
            if plain_discard(view, legal, choice):
                learned = advantage_choice(self, view, legal, choice)
                if learned != choice or not self.search_discards:
                    return learned
            else:
                claimed = claim_choice(self, view, legal, choice) if self.learned_claims else None
                if claimed is not None:
                    return claimed
        candidates: list[tuple[Action, str | None]] = [(a, None) for a in self._candidates(view, legal, choice)]
        if self.plans and view.phase == "play" and choice.kind is ActionKind.DISCARD:
            candidates += self._plan_candidates(view, legal, choice, not candidates)
        if len(candidates) < 2:
            return choice
        return self._search(view, candidates, choice)

    # -------------------------------------------------------------------------------------- candidates
    def _candidates(self, view: Observation, legal: Sequence[Action], choice: Action) -> list[Action]:
        kinds = kind_of(legal)
        if ActionKind.HU in kinds or ActionKind.DECLARE_READY in kinds:
            return []
        scope = self.scope if self.scope != "auto" else ("all" if view.rules.max_fan is not None else "discards")
        if view.phase == "claim":
            if scope == "discards":
                return []
            return [a for a in legal if a.kind in (ActionKind.PASS, ActionKind.PUNG, ActionKind.KONG)]
        discards = [a.tile_index for a in kinds.get(ActionKind.DISCARD, [])]
        if not discards or scope == "claims":
            return []
        h = read_view(view)
        read = self.read_table(view, h)
        scored = self.discard_scores(view, h, read, discards)
        h.remove(scored[0][1])
        near = h.shanten() <= NEAR
        h.add(scored[0][1])
        out = [choice]
        kongs = kinds.get(ActionKind.CONCEALED_KONG, []) + kinds.get(ActionKind.ADDED_KONG, [])
        if kongs:
            out += kongs
            out.append(Action.discard(scored[0][1]))
        elif near:
            best = scored[0][0]
            out += [Action.discard(t) for v, t in scored[:TOP] if v >= best - MARGIN]
        return list(dict.fromkeys(out))

    def _plan_candidates(
        self, view: Observation, legal: Sequence[Action], choice: Action, alone: bool
    ) -> list[tuple[Action, str | None]]:
        """The plans' answers that differ from the expert's discard, where the plan is in point: a safe plan
        when that discard looks dangerous (:data:`PLAN_DANGER`), ``speed`` when it leaves the hand near ready."""
        h = read_view(view)
        danger = self.read_table(view, h).danger[choice.tile_index]
        h.remove(choice.tile_index)
        near = h.shanten() <= NEAR
        out: list[tuple[Action, str | None]] = []
        for p in self.plans:
            if (danger >= PLAN_DANGER) if p != "speed" else near:
                a = self._plan_bots[p].act(view, legal)
                if a != choice:
                    out.append((a, p))
        return [(choice, None), *out] if alone and out else out

    # ------------------------------------------------------------------------------------------ search
    def _read_samples(self, view: Observation) -> None:
        """Read what this decision's samples are drawn by, as the options ask: each other seat's odds of being
        ready (``read``), of waiting on each kind (``waits``), of holding each kind (``holding``)."""
        self._odds = ready_odds(view) if self.read else None
        self._waits = wait_odds(view, read_view(view).unseen) if self.read and self.waits else None
        self._hold = hold_weights(view, read_view(view).unseen) if self.holding else None

    def _search(self, view: Observation, candidates: list[tuple[Action, str | None]], choice: Action) -> Action:
        start = time.perf_counter()
        budget = None if self.think_ms is None else self.think_ms / 1000.0
        self._read_samples(view)
        samples, max_samples = self.samples, self.max_samples
        if view.phase == "claim" and self.claim_samples is not None:
            samples, max_samples = self.claim_samples, max(max_samples, self.claim_samples)
        c = candidates.index((choice, None))
        values: list[list[float]] = [[] for _ in candidates]
        live = list(range(len(candidates)))  # the candidates sampled (the expert's choice always)
        while True:
            try:
                seeds = [self._seed(view) for _ in range(samples)]
            except SampleError:
                return choice
            out_of_time = False
            for seed in seeds:
                try:
                    row = [(i, self._play_out(view, *candidates[i], seed)) for i in live]
                except SampleError:
                    return choice
                for i, v in row:
                    values[i].append(v)
                if budget is not None and time.perf_counter() - start > budget and len(values[c]) >= 2:
                    out_of_time = True
                    break
            if out_of_time or len(values[c]) >= max_samples:
                break
            # Undecided: the best challenger by mean gains, but not clearly. Sample it and the expert's choice more.
            gains = _gains(values, c, live, self.clip)
            lead = max(gains, key=lambda g: g[1], default=None)
            if lead is None or lead[2] >= self.z or lead[2] < 0.5 or any(t > self.z for _, _, t in gains):
                break
            live = [c, lead[0]]
        self.searched += 1
        best, best_gain = c, 0.0
        for i, mean, t in _gains(values, c, live, self.clip):
            if mean > best_gain and t > self.z:
                best, best_gain = i, mean
        if best == c:
            return choice
        self.overruled += 1
        return candidates[best][0]

    def _seed(self, view: Observation) -> int:
        """A sample's seed, from this bot's own generator (``benchmarks/likely.py`` draws it otherwise)."""
        return self.rng.getrandbits(48)

    def _sample(self, view: Observation, seed: int) -> Game:
        return sample_game(
            view,
            random.Random(seed),
            implied_voids=self.implied_voids,
            shaped=self.shaped,
            ready_odds=self._odds,
            waits=self._waits,
            passed=self.passed,
            holding=self._hold,
        )

    def _play_out(self, view: Observation, action: Action, plan: str | None, seed: int) -> float:
        """This seat's points from now to the end of the hand, after ``action`` (then playing by ``plan``'s bot,
        or the policy's), on the sample drawn by ``seed``."""
        own = None if plan is None else PLANS[plan]
        game = self._sample(view, seed)
        if self.streams:
            seat_streams(game)
        return play_on(game, view.seat, action, seed, self.policy, own, self.value_depth)


def live_hand(view: Observation) -> HandState:
    """The seat's hand with each unseen kind counted by the copies the reader expects to reach this seat
    (:func:`~sichuan_mahjong.agents.reader.live_counts`), in thousandths of a copy (:data:`LIVE_SCALE`, the
    hand's ``unit``)."""
    h = read_view(view)
    h.unseen = [round(LIVE_SCALE * n) for n in live_counts(view, h.unseen)]
    h.unit = LIVE_SCALE
    return h


def _gains(
    values: list[list[float]], c: int, live: list[int], clip: float | None = None
) -> list[tuple[int, float, float]]:
    """(candidate, mean gain over candidate c on the same samples, t) for each live challenger gaining at least
    MIN_GAIN. With ``clip``, t is that of the paired differences clipped to +-clip (a few big hands in a dozen
    play-outs otherwise swamp the standard error)."""
    base = values[c]
    n = len(base)
    out = []
    for i in live:
        if i == c:
            continue
        diffs = [x - y for x, y in zip(values[i][:n], base, strict=True)]
        mean = sum(diffs) / n
        if clip is not None:
            diffs = [max(-clip, min(clip, d)) for d in diffs]
        m = sum(diffs) / n
        var = sum((d - m) ** 2 for d in diffs) / (n - 1)
        se = math.sqrt(var / n)
        if mean >= MIN_GAIN:
            out.append((i, mean, m / se if se > 0 else (math.inf if m > 0 else 0.0)))
    return out


def play_on(
    game: Game,
    me: int,
    action: Action,
    seed: int,
    policy: str = "mixed",
    own: Callable[[int], Agent] | None = None,
    value_depth: int | None = None,
) -> float:
    """Seat ``me``'s points from now to the end of ``game`` (played on in place): it answers ``action`` now,
    then every seat is played by the ``policy``'s bots (:data:`POLICIES`), seeded from ``seed``; ``own``, when
    given, makes this seat's bot instead. With ``value_depth``, the play-out stops at the draw that many draws
    after the first one while this seat is in the hand, and the learned value of that position
    (:func:`~sichuan_mahjong.agents.value.state_value`: it reads the whole of ``game``, so only ever a sample)
    stands for the rest."""
    mine, others = _POLICIES[policy]
    bots: list[Agent] = [((own or mine) if s == me else others)(seed + s) for s in range(4)]
    before = game.deltas[me]
    if value_depth is None:
        play(game, bots, given={me: action})
        return float(game.deltas[me] - before)
    depth = value_depth
    draws = 0
    cut = 0.0

    def deep_enough(game: Game, pending: object) -> bool:
        nonlocal draws, cut
        pos = position(game)
        if pos is not None and pos.active[me]:
            if draws >= depth:
                cut = state_value(pos, me, game.rules)
                return True
            draws += 1
        return False

    play(game, bots, given={me: action}, until=deep_enough)
    return float(game.deltas[me] - before) + cut


class _RolloutAgent(EfficientAgent):
    """``efficient`` without its ukeire tie-break (half its cost): the least shanten, then the suit held
    least, then the tile nearest a terminal. Play-outs need speed more than polish."""

    def play(self, h: HandState, kinds: dict[ActionKind, list[Action]]) -> Action:
        discards = kinds.get(ActionKind.DISCARD, [])
        if kinds.keys() != {ActionKind.DISCARD} or len(discards) < 2:
            return super().play(h, kinds)
        per_suit = h.suit_counts()
        best: tuple[int, int, int, int] | None = None
        for a in discards:
            t = a.tile_index
            h.remove(t)
            key = (h.shanten(), per_suit[t // 9], _centrality(t), t)
            h.add(t)
            if best is None or key < best:
                best = key
        assert best is not None
        return Action.discard(best[3])


#: Play-out bots by policy name: (this seat's, the others').
_POLICIES: dict[str, tuple[type[EfficientAgent], type[EfficientAgent]]] = {
    "mixed": (ExpertAgent, _RolloutAgent),
    "fast": (_RolloutAgent, _RolloutAgent),
    "expert": (ExpertAgent, ExpertAgent),
}
POLICIES = tuple(_POLICIES)
#: Which decisions are searched: ``all``, ``claims`` (pass / pung / kong on a discard), ``discards`` (and kongs
#: in one's own turn), or ``auto`` (the default): all under a 封顶 cap (app rules), discards only without one
#: (seed rules: there searching claims gained nothing and cost time; ``docs/experiments.md``).
SCOPES = ("auto", "all", "claims", "discards")
#: Danger weights of the ``careful`` and ``fold`` plans (the expert's is ``DANGER_SCALE``, 0.05).
CAREFUL = 0.6
FOLD = 20.0
#: The safe plans are tried only where the expert's discard is this dangerous (``TableRead.danger``: about the
#: top twelfth of discards in expert games).
PLAN_DANGER = 0.2
#: Plans the master may switch to (``plans``): at a turn where a plan's bot would play otherwise than the
#: expert, its answer is a candidate whose play-outs keep this seat on that bot to the end of the hand, so a
#: plan is judged by its own continuation (a safe discard by a hand that goes on folding, a fast one by a hand
#: that goes on racing), and the next turn is decided afresh.
PLANS: dict[str, Callable[[int], Agent]] = {
    "careful": lambda seed: ExpertAgent(seed, danger_scale=CAREFUL),
    "fold": lambda seed: ExpertAgent(seed, danger_scale=FOLD),
    "speed": EfficientAgent,
}
