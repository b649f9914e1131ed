"""Master variants screened in docs/experiments.md: more play-outs, a wider search, truer waits.

``cd benchmarks && ../.venv/bin/python strength.py --import master_variants --agent m_more --baseline-agent
master --field expert --rules seed --hands 2000 --jobs 1 --seed 51`` (paired against the master itself: the
two differ only where the variant searches differently, so the interval is narrow).

* ``m_more``: undecided challengers sampled on, up to 24 play-outs (``max_samples=24``);
* ``m_12``: 12 play-outs a candidate, up to 36;
* ``m_s6``: 6 play-outs a candidate (the default until 12 measured stronger);
* ``m_wide``: discards searched two steps from ready, the expert's four best within 0.5 of its best, up to 18.
* ``m_waits``: 6 play-outs a candidate, each ready sample made to wait on a tile drawn with the read odds of
  his winning on it (``waits=True``).
* ``m_disc``: discards (and kongs) searched, claims left to the expert (``scope="discards"``; what the default
  ``scope="auto"`` does under rules without a cap).
* ``m_wide12``: ``m_wide``'s candidates, the default's 12 play-outs (no sampling on).
* ``m_cons4``: each sample drawn from four by how well each explains the others' last discards, as the expert
  prices them (``consistent=4``, ``likely.py``).
* ``m_clip6``: the gate's t on paired differences clipped to +-6 (``clip=6``): a big hand in one play-out no
  longer swamps the standard error of a dozen; ``m_clip3``: the same at +-3.
* ``m_pass``: no other seat's sampled hand wins on a tile it let pass since its last turn (``passed=True``;
  the bots take every win offered).
* ``m_plans``: plans switched to where their bot plays otherwise, each judged by play-outs in which this seat
  keeps to it (``plans=("fold", "speed")``); ``m_fold``, ``m_careful``: one plan each.
* ``m_24``: 24 play-outs a candidate (twice the default; in time with the compiled build, ``make compiled``).
* ``m_claim24``: claims (pass / pung / kong on a discard) searched under every rule set (``scope="all"``), with
  24 play-outs a candidate (``claim_samples=24``), 12 elsewhere: where ``search_gain.py`` finds the search
  informative and short of play-outs.
* ``m_v8``, ``m_v4``: 24 play-outs a candidate, each cut 8 (4) draws after the decision and valued there by the
  learned value (``value_depth``, :mod:`sichuan_mahjong.agents.value`).
* ``m_streams``: every seat of a play-out draws from a stream of its own (``streams=True``,
  :func:`~sichuan_mahjong.game.sample.seat_streams`): candidates' play-outs that part ways keep their draws.
* ``m_streams_all``: the same, claims searched under every rule set (``scope="all"``).
* ``m_hold``: the others' hands dealt by what their rivers say they hold (``holding=True``,
  :func:`~sichuan_mahjong.agents.reader.hold_weights`); ``m_hold_full``, ``m_hold_none``: the same, each
  dealt hand then played on all (none) of the ``shaped`` turns (``sample.HOLD_SHAPED`` 1.0, 0.0; default 0.5).
* ``m_search``: the master before the learned discards (``advantage=False``: plain discards near ready searched
  too); every variant above is this master with its change, so screens against it reproduce as written.
* ``m_adv``: the master on all unseen copies (``advantage=True, live=False``, with ``PLAIN_SEED_FIT`` as every
  variant screened with it, the default before its expert
  counted live copies without a cap; the baseline of the screens below it, which keep ``live=False`` too, so they
  reproduce as written): plain discards by the learned
  advantage, :mod:`sichuan_mahjong.agents.advantage`; ``e_adv``: the expert with the learned discards and no search;
  ``e_claim``: ``e_adv`` with the learned claims too (where the rule set has a fit); ``m_claims_searched``: the
  master with its claims left to the search's scope (``learned_claims=False``: the master before the learned
  claims under app rules; under seed rules, the expert's claims); ``m_hybrid``: the master searching the plain
  discards its learned advantage leaves to the expert (``search_discards=True``; level with the master under
  seed rules, docs/experiments.md).
* ``m_prev``: the master before its learned discards read its live hand (they read all unseen copies, with
  ``PLAIN_SEED_FIT``, the seed-rules fit before the one on the live expert's play: where the live expert's choice
  is not the plain expert's best, it stands); the baseline of the refit's paired runs (docs/experiments.md).
* ``m_live``: the master whose expert counts each unseen kind by its live copies under every rule set
  (``live=True``, ``reader.live_counts``, in thousandths of a copy; the default does so where the rules have no
  cap); ``m_live_float``: the same unrounded, under seed rules only (pure Python: a compiled expert counts in
  ints); ``m_nofeed``, ``m_feed2``, ``m_feed05``: the default with no kong feed on live copies, twice or half
  as large.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from likely import ConsistentMaster

from sichuan_mahjong.agents import master
from sichuan_mahjong.agents.advantage import advantage_choice, claim_choice
from sichuan_mahjong.agents.advantage_model import ADVANTAGE
from sichuan_mahjong.agents.base import register
from sichuan_mahjong.agents.expert import ExpertAgent, TableRead
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.agents.master import MasterAgent
from sichuan_mahjong.agents.reader import live_counts
from sichuan_mahjong.game import sample
from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.view import Observation


class _Wide(MasterAgent):
    def _candidates(self, view: Observation, legal: Sequence[Action], choice: Action) -> list[Action]:
        saved = master.NEAR, master.TOP, master.MARGIN
        master.NEAR, master.TOP, master.MARGIN = 2, 4, 0.5
        try:
            return super()._candidates(view, legal, choice)
        finally:
            master.NEAR, master.TOP, master.MARGIN = saved


def _variant(cls: type[MasterAgent] = MasterAgent, **options: Any) -> Callable[[int | None], MasterAgent]:
    """A master with these options; ``advantage=False`` unless given: every variant below ``m_adv`` was screened
    against the master before the learned discards (now ``m_search``), and changes that one."""
    options.setdefault("advantage", False)

    def make(seed: int | None = None) -> MasterAgent:
        return cls(seed, **options)

    return make


register("m_more")(_variant(max_samples=24))
register("m_12")(_variant(samples=12, max_samples=36))
register("m_s6")(_variant(samples=6))
register("m_wide")(_variant(_Wide, max_samples=18))
register("m_waits")(_variant(samples=6, waits=True))
register("m_disc")(_variant(scope="discards"))
register("m_24")(_variant(samples=24))
register("m_wide12")(_variant(_Wide))
register("m_cons4")(_variant(ConsistentMaster, consistent=4))
register("m_pass")(_variant(passed=True))
register("m_plans")(_variant(plans=("fold", "speed")))
register("m_fold")(_variant(plans=("fold",)))
register("m_careful")(_variant(plans=("careful",)))
register("m_clip6")(_variant(clip=6.0))
register("m_clip3")(_variant(clip=3.0))
register("m_claim24")(_variant(scope="all", claim_samples=24))
register("m_v8")(_variant(samples=24, value_depth=8))
register("m_v4")(_variant(samples=24, value_depth=4))
register("m_streams")(_variant(streams=True))
register("m_streams_all")(_variant(streams=True, scope="all"))
register("m_hold")(_variant(holding=True))


def _hold_shaped(fraction: float) -> Callable[[int | None], MasterAgent]:
    def make(seed: int | None = None) -> MasterAgent:
        sample.HOLD_SHAPED = fraction  # read at each draw; only the holding variant's draws use it
        return MasterAgent(seed, holding=True, advantage=False)

    return make


register("m_hold_full")(_hold_shaped(1.0))
register("m_hold_none")(_hold_shaped(0.0))


#: The seed-rules discard fit before the one fitted on the live expert's play (``seed-2.jsonl``: 276,970 random
#: draws in 40,000 hands of experts on all unseen copies, lam 0.01). The variants below that were screened with it
#: (``m_adv``, ``e_adv``, ``e_claim``, ``m_hybrid``, ``m_claims_searched``, ``m_prev``) keep it.
PLAIN_SEED_FIT = (
    (
        *(0.20447, -0.06261, 2.21205, -0.75183, 0.39213, 0.29876, -1.10761, -0.57832, 0.01586, 0.02194),
        *(-0.1981, -0.31428, -0.17383, 0.06251, -0.00589, 0.50342, 0.04923, 0.04697, 0.59109, 0.33),
    ),
    0.0,
)


_Bot = TypeVar("_Bot", bound=ExpertAgent)


class _Unseen:
    """A bot whose hand is read on all unseen copies (``read_view``), whatever its own ``_hand`` counts."""

    def __init__(self, bot: ExpertAgent) -> None:
        self._bot = bot

    def _hand(self, view: Observation) -> HandState:
        return read_view(view)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)


def _plain_fit(cls: type[_Bot], unseen: bool = False) -> type[_Bot]:
    """``cls`` deciding with :data:`PLAIN_SEED_FIT` under seed rules; with ``unseen``, its learned discards read
    all unseen copies (the master's before they read its live hand: where the live expert's choice is not the
    plain expert's best, it stands)."""

    class Plain(cls):  # type: ignore[valid-type,misc]  # a class made at run time
        def act(self, view: Observation, legal: Sequence[Action]) -> Action:
            saved = ADVANTAGE[False], master.advantage_choice  # type: ignore[attr-defined]
            ADVANTAGE[False] = PLAIN_SEED_FIT
            if unseen:
                master.advantage_choice = lambda bot, *args: advantage_choice(_Unseen(bot), *args)  # type: ignore[attr-defined,arg-type]
            try:
                return super().act(view, legal)  # type: ignore[no-any-return]
            finally:
                ADVANTAGE[False], master.advantage_choice = saved  # type: ignore[attr-defined]

    return Plain


class _ExpertAdvantage(ExpertAgent):
    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        return advantage_choice(self, view, legal, super().act(view, legal))


class _ExpertClaims(_ExpertAdvantage):
    def act(self, view: Observation, legal: Sequence[Action]) -> Action:
        choice = super().act(view, legal)
        return claim_choice(self, view, legal, choice) or choice


register("m_search")(_variant())
register("m_adv")(_variant(_plain_fit(MasterAgent), advantage=True, live=False))
register("e_adv")(_plain_fit(_ExpertAdvantage))
register("e_claim")(_plain_fit(_ExpertClaims))
register("m_hybrid")(_variant(_plain_fit(MasterAgent), advantage=True, search_discards=True, live=False))
register("m_claims_searched")(_variant(_plain_fit(MasterAgent), advantage=True, learned_claims=False, live=False))
register("m_prev")(_plain_fit(MasterAgent, unseen=True))


class _MasterLiveFloat(MasterAgent):
    """The master whose expert counts each unseen kind by the live copies unrounded, under seed rules only: pure
    Python alone (a compiled expert counts in ints)."""

    def _hand(self, view: Observation) -> HandState:
        h = read_view(view)
        if view.rules.max_fan is None:
            h.unseen = live_counts(view, h.unseen)  # type: ignore[assignment]
        return h


register("m_live_float")(_MasterLiveFloat)
register("m_live")(_variant(advantage=True, live=True))


def _feed_times(k: float) -> type[MasterAgent]:
    class Feed(MasterAgent):
        """The default with its kong feed on live copies ``k`` times as large."""

        def read_table(self, view: Observation, h: HandState) -> TableRead:
            read = super().read_table(view, h)
            if h.unit > 1:
                read.kong_feed = [k * f for f in read.kong_feed]
            return read

    return Feed


register("m_nofeed")(_feed_times(0.0))
register("m_feed2")(_feed_times(2.0))
register("m_feed05")(_feed_times(0.5))
