"""Information flow (docs/rules.md R12; issue 10, item 7), as a differential test: two deals that give one seat the same
tiles and the same public history but differ in the other seats' hidden tiles must give that seat identical
views and identical filtered events, step after step, until something differs in public.

Both deals are scripted with the same wall and seed (so the same dice); in the second two other seats swap
one tile of different kinds. Both games get the same answers: the watched seat's are random, the others
discard a tile they hold in both games (the drawn one when it can) and pass every claim, so the public
history stays the same as long as it can. A failure means the seat could tell the deals apart from its view.
"""

from __future__ import annotations

import random

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game.actions import PASS

PRESETS = ["seed", "standard", "app", "bloody"]


def _deals(rules: sm.Rules, seed: int, watched: int) -> tuple[sm.Game, sm.Game]:
    rng = random.Random(seed)
    tiles = [t for t in range(27) for _ in range(4)]
    rng.shuffle(tiles)
    dealer = rng.randrange(4)
    sizes = [14 if s == dealer else 13 for s in range(4)]
    hands, at = [], 0
    for n in sizes:
        hands.append(tiles[at : at + n])
        at += n
    wall = tiles[at:]
    # Two other seats swap one tile of different kinds: the smallest hidden difference, so the public
    # histories stay alike for long (a wider shuffle changes who may pung at once, which is public).
    one_seat, two_seat = rng.sample([s for s in range(4) if s != watched], 2)
    mixed = [list(h) for h in hands]
    i = rng.randrange(len(mixed[one_seat]))
    j = next(
        j
        for j in rng.sample(range(len(mixed[two_seat])), len(mixed[two_seat]))
        if mixed[two_seat][j] != mixed[one_seat][i]
    )
    mixed[one_seat][i], mixed[two_seat][j] = mixed[two_seat][j], mixed[one_seat][i]
    one = sm.Game.setup(rules, hands=hands, wall=wall, dealer=dealer, seed=seed)
    two = sm.Game.setup(rules, hands=mixed, wall=wall, dealer=dealer, seed=seed)
    return one, two


def _answers(a: sm.Game, b: sm.Game, watched: int, rng: random.Random) -> tuple[dict[int, sm.Action], ...] | None:
    """The same answers for both games, or None when the others cannot keep the public history the same."""
    asked_a, asked_b = a.to_act(), b.to_act()
    out_a: dict[int, sm.Action] = {}
    out_b: dict[int, sm.Action] = {}
    if watched in asked_a:
        assert asked_a[watched] == asked_b.get(watched), "the watched seat's legal answers differ"
        choice = rng.choice(asked_a[watched])
        out_a[watched] = out_b[watched] = choice
    for out, asked in ((out_a, asked_a), (out_b, asked_b)):
        for s, legal in asked.items():
            if s != watched and PASS in legal:
                out[s] = PASS
    seats = {s for s in (*asked_a, *asked_b) if s != watched and s not in out_a and s not in out_b}
    for s in seats:
        common = [x for x in asked_a.get(s, []) if x in asked_b.get(s, [])]
        if not common:
            return None
        drawn = a.view(s).drawn
        if drawn is not None and sm.Action.discard(drawn) in common:
            pick = sm.Action.discard(drawn)
        else:
            discards = [x for x in common if x.kind is sm.ActionKind.DISCARD]
            pick = rng.choice(discards or common)
        out_a[s] = out_b[s] = pick
    if set(out_a) != set(asked_a) or set(out_b) != set(asked_b):
        return None
    return out_a, out_b


def _compare(preset: str, seed: int, watched: int) -> int:
    """Steps compared before the public histories part (or the hands end)."""
    rules = sm.Rules.preset(preset)
    a, b = _deals(rules, seed, watched)
    rng = random.Random(seed)
    steps = 0
    while True:
        events_a, events_b = a.events_for(watched), b.events_for(watched)
        if events_a != events_b:
            return steps  # something differs in public (or in the seat's own answers): the views may differ now
        assert a.view(watched) == b.view(watched), f"{preset} seed {seed}: seat {watched} tells the deals apart"
        if a.is_over or b.is_over:
            assert a.is_over and b.is_over
            return steps
        answers = _answers(a, b, watched, rng)
        if answers is None:
            return steps
        a.step(answers[0])
        b.step(answers[1])
        steps += 1


@pytest.mark.parametrize("preset", PRESETS)
def test_r12_a_seat_cannot_tell_two_deals_apart_by_their_hidden_tiles(preset: str) -> None:
    compared = [_compare(preset, seed, seed % 4) for seed in range(24)]
    assert sum(compared) > 24 * 10, compared  # the histories stay alike for many steps: the test has teeth
    assert max(compared) > 40


def test_r12_the_differential_test_sees_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that told how many characters the next seat holds would be caught: the test has teeth."""
    original = sm.Game.view

    def leaky(self: sm.Game, seat: int) -> sm.Observation:
        v = original(self, seat)
        nxt = (seat + 1) % 4
        return v._replace(wall_count=v.wall_count + 100 * sum(1 for t in self._sorted[nxt] if t < 9))

    monkeypatch.setattr(sm.Game, "view", leaky)
    with pytest.raises(AssertionError, match="tells the deals apart"):
        for seed in range(24):
            _compare("seed", seed, seed % 4)
