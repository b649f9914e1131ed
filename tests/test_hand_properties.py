"""Hypothesis properties of the hand evaluator: the identities that tie its functions together."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import sichuan_mahjong as sm
from sichuan_mahjong import Meld, MeldKind, Tile

_KINDS = list(MeldKind)


@st.composite
def hands(draw: st.DrawFn, extra: int, with_melds: bool = True, suits: int = 3) -> tuple[list[Tile], list[Meld]]:
    """A legal hand: k melds and 13 - 3k + extra concealed tiles, at most four copies of any tile."""
    allowed = draw(st.permutations(range(3)))[:suits]
    kinds = [t for t in range(27) if t // 9 in allowed]
    left = dict.fromkeys(range(27), 4)
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4)) if with_melds else 0):
        t = draw(st.sampled_from(kinds))
        if left[t] == 4:
            melds.append(Meld(draw(st.sampled_from(_KINDS)), t))
            left[t] -= melds[-1].size
    pool = [t for t in kinds for _ in range(left[t])]
    picks = draw(
        st.lists(
            st.sampled_from(range(len(pool))),
            min_size=13 - 3 * len(melds) + extra,
            max_size=13 - 3 * len(melds) + extra,
            unique=True,
        )
    )
    return [Tile(pool[i]) for i in picks], melds


@settings(max_examples=300, deadline=None)
@given(hands(1) | hands(1, suits=2) | hands(1, suits=1))
def test_is_winning_iff_shanten_minus_one(hand: tuple[list[Tile], list[Meld]]) -> None:
    tiles, melds = hand
    assert sm.is_winning(tiles, melds) == (sm.shanten(tiles, melds) == -1)


@settings(max_examples=300, deadline=None)
@given(hands(0, with_melds=False) | hands(0, with_melds=False, suits=2) | hands(0, with_melds=False, suits=1))
def test_thirteen_tiles_have_waits_iff_ready(hand: tuple[list[Tile], list[Meld]]) -> None:
    tiles, _ = hand
    assert bool(sm.waits(tiles)) == (sm.shanten(tiles) == 0)


@settings(max_examples=200, deadline=None)
@given(hands(0) | hands(0, suits=2))
def test_with_melds_a_wait_means_ready(hand: tuple[list[Tile], list[Meld]]) -> None:
    """With melds only one way holds: a wait held in a pung is no wait (see analysis module doc)."""
    tiles, melds = hand
    if sm.waits(tiles, melds):
        assert sm.shanten(tiles, melds) == 0


@settings(max_examples=200, deadline=None)
@given(hands(1) | hands(1, suits=2))
def test_fourteen_tile_shanten_is_best_discard(hand: tuple[list[Tile], list[Meld]]) -> None:
    tiles, melds = hand
    s14 = sm.shanten(tiles, melds)
    after = [sm.shanten(tiles[:i] + tiles[i + 1 :], melds) for i in range(len(tiles))]
    if s14 >= 0:
        assert s14 == min(after)
    choices = sm.useful_tiles(tiles, melds)
    assert sorted(c.shanten for c in choices) == sorted(
        {t.index: s for t, s in zip(tiles, after, strict=True)}.values()
    )


@settings(max_examples=200, deadline=None)
@given(hands(0) | hands(0, suits=2), st.lists(st.integers(0, 26), max_size=20))
def test_a_draw_lowers_shanten_by_at_most_one(hand: tuple[list[Tile], list[Meld]], seen: list[int]) -> None:
    tiles, melds = hand
    s13 = sm.shanten(tiles, melds)
    imp = sm.improvements(tiles, melds, seen)
    assert imp.shanten == s13
    useful = {t for t, _ in imp.useful}
    held = sm.counts_of(tiles)
    for m in melds:
        held[m.tile_index] += m.size
    for t in range(27):
        if held[t] < 4:
            s14 = sm.shanten([*tiles, Tile(t)], melds)
            assert s13 - 1 <= s14 <= s13
            assert (s14 < s13) == (Tile(t) in useful)


@settings(max_examples=200, deadline=None)
@given(st.lists(hands(1) | hands(0) | hands(1, suits=2), min_size=1, max_size=8))
def test_int_and_batch_api_agree_with_tile_list(batch: list[tuple[list[Tile], list[Meld]]]) -> None:
    keys, n, ms, expected = [], [], [], []
    for tiles, melds in batch:
        k = sm.suit_keys(sm.counts_of(tiles))
        suits = sum(1 << s for s in {m.tile_index // 9 for m in melds})
        expected.append(sm.shanten(tiles, melds))
        assert sm.shanten_keys(k, len(melds), suits) == expected[-1]
        keys.append(k)
        n.append(len(melds))
        ms.append(suits)
    got = sm.shanten_batch(np.array(keys), np.array(n), np.array(ms))
    assert got.dtype == np.int8
    assert got.tolist() == expected
