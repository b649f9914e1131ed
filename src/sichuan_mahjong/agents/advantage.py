"""A discard's advantage over the expert's, learned from randomized play: what each near-equal discard is worth.

At a discard near ready, the expert's best few discards are priced close together, and the master's play-outs
are too noisy to tell them apart (``docs/experiments.md``). Here they are told apart by experiment instead: four experts
play, and at some of those decisions a seat discards one of the candidates drawn uniformly at random
(``scripts/discard_advantage.py``). Because the draw is random, the mean of what the seat scores from then
on, compared across candidates with the same features, is each feature's causal worth, whatever the hidden
hands held: the hidden hands are as they fall in real play, not as a sampler draws them.

:func:`discard_features` describes each candidate (as a difference from the expert's best), on the bot's own
hand (``_hand``: the master's expert counts live copies without a cap, and its fit there was made on that
hand), by what the seat sees: the expert's price and its parts, the reader's odds of dealing in, shanten and
useful tiles after (and those left in the wall, by the holding model), the tile's shape. ``ADVANTAGE`` in
:mod:`~sichuan_mahjong.agents.advantage_model` (a ridge fit a rule set) turns them into points, and
:func:`advantage_choice` plays the best candidate when it clears the fit's margin. Measured in ``docs/experiments.md``
("Discards learned by experiment"): the expert with it gains +0.16 a hand over three experts under app rules,
+0.08 under seed rules (8,000 duplicate hands each; there with the fit before the one on the live expert's play,
which gained the master +0.06 a hand more); it is the master's way at these discards.

Claims the same way (:func:`claim_options`, :func:`claim_features`, :func:`claim_choice`): on a discard one may
pung or kong, pass, pung and kong drawn at random in expert play, and ``CLAIMS`` (a fit a rule set) chooses
among them; +0.11 a hand for the expert under seed rules (``docs/experiments.md``, "Claims learned by experiment").
"""

from __future__ import annotations

from collections.abc import Sequence

from sichuan_mahjong.agents.advantage_model import ADVANTAGE, CLAIMS
from sichuan_mahjong.agents.expert import ExpertAgent, TableRead, feared_loss
from sichuan_mahjong.agents.hand import HandState, read_view
from sichuan_mahjong.agents.reader import deal_in, hold_weights
from sichuan_mahjong.game.actions import Action, ActionKind
from sichuan_mahjong.game.view import Observation
from sichuan_mahjong.hand.melds import MeldKind

__all__ = [
    "CANDIDATE_FEATURES",
    "CLAIM_FEATURES",
    "CLAIM_STATE_FEATURES",
    "STATE_FEATURES",
    "advantage_choice",
    "claim_choice",
    "claim_features",
    "claim_options",
    "discard_candidates",
    "discard_features",
    "plain_discard",
]

#: Candidates: the expert's best discards priced within this of its best ...
MARGIN = 0.5
#: ... at most this many ...
TOP = 3
#: ... when the best leaves the hand at most this far from ready (shanten).
NEAR = 1

CANDIDATE_FEATURES = (
    "price",
    "gain",
    "expert danger",
    "kong feed",
    "read danger",
    "read deal-in",
    "read deal-in, most",
    "shanten",
    "useful / 10",
    "centrality / 4",
    "copies held",
    "unseen / 4",
    "suit held / 14",
    "read danger x late",
    "useful x late",
    "gain x late",
    "useful in the wall / 10",
    "others hold it",
    "gain x ready",
    "useful in the wall x late",
)

STATE_FEATURES = ("1", "wall / 55", "least shanten", "best price", "best gain", "ready weight", "seats in / 4", "报叫")


def plain_discard(view: Observation, legal: Sequence[Action], choice: Action) -> bool:
    """Whether the advantage may decide: the expert discards in play and no kong is offered (kongs are searched)."""
    kongs = (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)
    return view.phase == "play" and choice.kind is ActionKind.DISCARD and not any(a.kind in kongs for a in legal)


def discard_candidates(
    bot: ExpertAgent, view: Observation, h: HandState, read: TableRead, discards: Sequence[int], far: bool = False
) -> list[tuple[float, int]]:
    """(the expert's price, tile) of the candidates, the expert's best first; fewer than two: none to choose.
    With ``far``, the candidates where the best leaves the hand further than :data:`NEAR` from ready instead."""
    scored = bot.discard_scores(view, h, read, discards)
    t0 = scored[0][1]
    h.remove(t0)
    near = h.shanten() <= NEAR
    h.add(t0)
    if near == far:
        return []
    best = scored[0][0]
    return [(v, t) for v, t in scored[:TOP] if v >= best - MARGIN]


def discard_features(
    bot: ExpertAgent, view: Observation, h: HandState, read: TableRead, candidates: Sequence[tuple[float, int]]
) -> tuple[list[list[float]], list[float]]:
    """Each candidate's features (:data:`CANDIDATE_FEATURES`) less those of the first (the expert's choice), and
    the decision's own (:data:`STATE_FEATURES`): what it is worth whichever candidate is played, a baseline that
    takes some of the luck out of the outcome when fitting and measuring, never part of the choice. ``h`` may
    count in parts of a copy (its ``unit``): the features count copies all the same."""
    late = max(0.0, min(1.0, 1.0 - view.wall_count / 55))
    plain = read_view(view) if h.unit != 1 else h  # the reader's models read unseen copies
    unseen = plain.unseen
    risks = deal_in(view, plain, [t for _, t in candidates])
    declared = view.ready[view.seat]
    per_suit = h.suit_counts()
    shanten = {}
    for _, t in candidates:
        h.remove(t)
        shanten[t] = h.shanten()
        h.add(t)
    least = min(shanten.values())
    # The copies of each kind the others hold (the holding model's reading), and so those left in the wall.
    hold = hold_weights(view, unseen)
    share = [view.concealed_counts[o] / max(1, sum(unseen)) for o in range(4)]
    others = [o for o in range(4) if o != view.seat and view.active[o]]
    held = [sum(unseen[t] * share[o] * hold[o][t] for o in others) for t in range(len(unseen))]
    in_wall = [max(0.0, unseen[t] - held[t]) for t in range(len(unseen))]
    rows = []
    for price, t in candidates:
        s = shanten[t]
        h.remove(t)
        gain = bot.hand_value(view, h, read, s, declared, s == least) if s <= least + 1 else 0.0
        useful = h.ukeire(s) / (10 * h.unit)
        wall_useful = sum(in_wall[u] for u in h.useful(s)) / 10
        h.add(t)
        risk = risks[t]
        danger = sum(p * feared_loss(view, o) for o, p in risk)
        rows.append(
            [
                price,
                gain,
                bot.danger_scale * read.danger[t],
                read.kong_feed[t],
                danger,
                sum(p for _, p in risk),
                max((p for _, p in risk), default=0.0),
                float(s),
                useful,
                min(t % 9, 8 - t % 9) / 4,
                float(h.counts[t]),
                unseen[t] / 4,
                per_suit[t // 9] / 14,
                danger * late,
                useful * late,
                gain * late,
                wall_useful,
                held[t],
                gain * (least == 0),
                wall_useful * late,
            ]
        )
    state = [
        1.0,
        view.wall_count / 55,
        float(least),
        rows[0][0],
        rows[0][1],
        read.ready_weight,
        sum(view.active) / 4,
        float(declared),
    ]
    return _less_first(rows), state


def _less_first(rows: list[list[float]]) -> list[list[float]]:
    """Each row less the first (the expert's choice's features): what an option changes."""
    first = rows[0]
    return [[x - y for x, y in zip(row, first, strict=True)] for row in rows]


def advantage_choice(bot: ExpertAgent, view: Observation, legal: Sequence[Action], choice: Action) -> Action:
    """At a discard near ready with no kong offered, the candidate the fitted advantage prices best, where it
    beats the expert's ``choice`` by more than the fit's margin; ``choice`` everywhere else."""
    if not plain_discard(view, legal, choice):
        return choice
    discards = [a.tile_index for a in legal if a.kind is ActionKind.DISCARD]
    h = bot._hand(view)
    read = bot.read_table(view, h)
    candidates = discard_candidates(bot, view, h, read, discards)
    if len(candidates) < 2 or candidates[0][1] != choice.tile_index:
        return choice
    rows, _ = discard_features(bot, view, h, read, candidates)
    best = _pick(ADVANTAGE[view.rules.max_fan is not None], rows)
    return Action.discard(candidates[best][1]) if best else choice


def _pick(fit: tuple[tuple[float, ...], float], rows: Sequence[Sequence[float]]) -> int:
    """The row (an option's features less the expert's choice's, row 0) the fit's weights price best, where it
    clears the fit's margin; 0 (the expert's choice) otherwise."""
    weights, margin = fit
    adv = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    best = max(range(len(adv)), key=adv.__getitem__)
    return best if adv[best] > margin else 0


CLAIM_FEATURES = (
    "pung",
    "kong",
    "price",
    "shanten",
    "useful / 10",
    "pung x late",
    "kong x late",
    "pung x ready",
    "kong x ready",
    "pung x others ready",
    "kong x others ready",
    "next discard's danger",
    "claim x melds / 4",
    "pung x pairs / 4",
    "pung x suit held / 14",
    "kong x seats in / 4",
    "price x late",
)

CLAIM_STATE_FEATURES = ("1", "wall / 55", "shanten", "price", "others ready", "seats in / 4", "报叫", "melds / 4")

_CLAIMS = (ActionKind.PASS, ActionKind.PUNG, ActionKind.KONG)


def claim_options(legal: Sequence[Action], choice: Action) -> list[Action]:
    """Pass, pung and kong as offered on a discard (no win offered), the expert's ``choice`` first; fewer than
    two: none to choose."""
    if any(a.kind not in _CLAIMS for a in legal):
        return []
    options = [choice, *(a for a in legal if a != choice)]
    return options if len(options) > 1 and choice.kind in _CLAIMS else []


def claim_features(
    bot: ExpertAgent, view: Observation, h: HandState, read: TableRead, options: Sequence[Action]
) -> tuple[list[list[float]], list[float]]:
    """Each claim option's features (:data:`CLAIM_FEATURES`) less those of the first (the expert's choice), and
    the decision's own (:data:`CLAIM_STATE_FEATURES`), as :func:`discard_features` gives for discards."""
    assert view.pending_tile is not None
    t = view.pending_tile.index
    late = max(0.0, min(1.0, 1.0 - view.wall_count / 55))
    declared = view.ready[view.seat]
    now_s = h.shanten()
    now_value = bot.hand_value(view, h, read, now_s, declared)
    ready = float(now_s == 0)
    seats_in = sum(view.active) / 4
    per_suit = h.suit_counts()
    pairs = sum(1 for c in h.counts if c >= 2) / 4
    rows = []
    for a in options:
        pung = float(a.kind is ActionKind.PUNG)
        kong = float(a.kind is ActionKind.KONG)
        danger = 0.0
        if a.kind is ActionKind.PASS:
            price, s, useful = now_value, now_s, h.ukeire(now_s) / (10 * h.unit)
        else:
            trial = h.claimed(t, MeldKind.KONG if kong else MeldKind.PUNG)
            if kong:
                s = trial.shanten()
                price = bot.hand_value(view, trial, read, s, declared)
                useful = trial.ukeire(s) / (10 * h.unit)
            else:
                scored = bot.discard_scores(view, trial, read, [d for d in range(len(trial.counts)) if trial.counts[d]])
                price, d = scored[0]
                danger = bot.danger_scale * read.danger[d] + read.kong_feed[d]
                trial.remove(d)
                s = trial.shanten()
                useful = trial.ukeire(s) / (10 * h.unit)
        rows.append(
            [
                pung,
                kong,
                price,
                float(s),
                useful,
                pung * late,
                kong * late,
                pung * ready,
                kong * ready,
                pung * read.ready_weight,
                kong * read.ready_weight,
                danger,
                (pung + kong) * h.n_melds / 4,
                pung * pairs,
                pung * per_suit[t // 9] / 14,
                kong * seats_in,
                price * late,
            ]
        )
    state = [
        1.0,
        view.wall_count / 55,
        float(now_s),
        now_value,
        read.ready_weight,
        seats_in,
        float(declared),
        h.n_melds / 4,
    ]
    return _less_first(rows), state


def claim_choice(bot: ExpertAgent, view: Observation, legal: Sequence[Action], choice: Action) -> Action | None:
    """On a discard one may pung or kong (no win offered), the option the fitted claim advantage prices best
    where it beats the expert's ``choice`` by more than the fit's margin, else ``choice``; None where these rules
    have no fit (``CLAIMS``) or this is no such decision."""
    fit = CLAIMS.get(view.rules.max_fan is not None)
    options = claim_options(legal, choice) if view.phase == "claim" else []
    if fit is None or not options:
        return None
    h = read_view(view)  # fitted on all unseen copies; refitted on the live expert's claims, it was no better
    rows, _ = claim_features(bot, view, h, bot.read_table(view, h), options)
    return options[_pick(fit, rows)]
