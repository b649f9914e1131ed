"""The encoder: every plane against a plain reference written from the layout table, unseen counts against the
truth, the cache, and the table itself in the module docstring and docs/rl.md."""

from __future__ import annotations

import importlib
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game.view import PHASES, Observation
from sichuan_mahjong.hand.melds import MeldKind
from sichuan_mahjong.rl.encode import NUM_PLANES, OBS_SHAPE, PLANES, Encoder, encode, plane_bounds
from sichuan_mahjong.tiles import parse_tiles

ROOT = Path(__file__).resolve().parents[2]
ROW = {p.name: p.start for p in PLANES}


def reference(view: Observation) -> npt.NDArray[np.float32]:
    """The table of rl/encode.py read literally, one plane at a time (slow and plain)."""
    me = view.seat
    x = np.zeros((90, 27), dtype=np.float32)

    def rel(s: int) -> int:
        return (s - me) % 4

    for k, n in Counter(t.index for t in view.tiles).items():
        x[ROW["hand"] : ROW["hand"] + n, k] = 1
    if view.drawn is not None:
        x[ROW["drawn"], view.drawn.index] = 1
    seen = Counter(t.index for t in view.tiles)
    for s in range(4):
        r = rel(s)
        for m in view.melds[s]:
            x[(ROW["pung"] if m.kind is MeldKind.PUNG else ROW["kong"]) + r, m.tile_index] = 1
            seen[m.tile_index] += m.size
        river = [t.index for t in view.discards[s]]
        top = ROW["river"] + 6 * r
        for k, n in Counter(river).items():
            x[top : top + n, k] = 1
            x[top + 4, k] = (river.index(k) + 1) / len(river)
            seen[k] += n
        if river:
            x[top + 5, river[-1]] = 1
        v = view.voids[s]
        if v is not None:
            x[ROW["void"] + r, 9 * v : 9 * v + 9] = 1
        x[ROW["hidden_kongs"] + r] = view.hidden_kongs[s] / 4
        x[ROW["ready"] + r] = view.ready[s]
        x[ROW["active"] + r] = view.active[s]
        x[ROW["concealed"] + r] = view.concealed_counts[s] / 14
        x[ROW["scores"] + r] = view.scores[s] / 16
    groups: list[list[sm.game.WinView]] = []  # wins on one tile from one discarder in a row are one tile
    for w in view.wins:
        x[ROW["won"] + rel(w.seat), w.tile.index] = 1
        last = groups[-1][-1] if groups else None
        if last is not None and w.from_seat is not None and (last.from_seat, last.tile) == (w.from_seat, w.tile):
            groups[-1].append(w)
        else:
            groups.append([w])
    for group in groups:
        if all(w.seat != me for w in group):
            seen[group[0].tile.index] += 1
    for k in range(27):
        x[ROW["unseen"] : ROW["unseen"] + max(0, 4 - seen[k]), k] = 1
    if view.pending_tile is not None:
        x[ROW["pending"], view.pending_tile.index] = 1
    if view.exchanged is not None:
        for t in view.exchanged[0]:
            x[ROW["given"], t.index] += 1
        for t in view.exchanged[1]:
            x[ROW["received"], t.index] += 1
    x[ROW["wall"]] = view.wall_count / 55
    x[ROW["pass_lock"]] = view.pass_lock is not None
    x[ROW["pass_lock_fan"]] = (view.pass_lock or 0) / 8
    x[ROW["phase"] + PHASES.index(view.phase)] = 1
    x[ROW["turn"] + rel(view.turn)] = 1
    x[ROW["dealer"] + rel(view.dealer)] = 1
    return x


def _views(preset: str, seeds: range) -> list[Observation]:
    """Every seat's view after every step of random hands (asked or not), in play order."""
    out = []
    for seed in seeds:
        g = sm.Game(sm.Rules.preset(preset), seed)
        rng = random.Random(seed)
        while True:
            out += [g.view(s) for s in range(4)]
            if g.is_over:
                break
            g.step({s: rng.choice(legal) for s, legal in g.to_act().items()})
    return out


@pytest.mark.parametrize("preset", ["app", "bloody_kong", "standard_kong"])
def test_every_plane_matches_the_reference(preset: str) -> None:
    low, high = plane_bounds()
    shared, fresh_each_time = Encoder(), 0
    for view in _views(preset, range(4)):
        want = reference(view)
        got = shared(view)
        assert got.shape == OBS_SHAPE and got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{view.phase} seat {view.seat}")
        assert np.array_equal(got, Encoder()(view))  # the cache never changes an answer
        assert np.array_equal(got, encode(view))
        assert (low <= got).all() and (got <= high).all()
        fresh_each_time += 1
    assert fresh_each_time > 400


def _claim_deal() -> sm.Game:
    """Seat 0 deals and discards 5p: seat 1 holds a pair of 5p, seats 2 and 3 are ready on it."""
    hands = ["5p1m1m1m2m2m2m3m3m3m4m4m4m9s", "5p5p1s1s1s2s3s4s6s7s8s9s9s", "4p6p1p2p3p7p8p9p5m5m5m6m6m"]
    hands.append("3p4p6p6p6p7m7m7m8m8m8m9m9m")
    rules = sm.Rules.preset("bloody_kong").replace(declare_ready=False)
    g = sm.Game.setup(rules, hands=hands, wall="7s", dealer=0, seed=1)
    g.step({0: sm.Action.parse("discard 5p")})
    return g


def test_one_discard_won_by_two_seats_is_one_tile_seen() -> None:
    g = _claim_deal()
    g.step({1: sm.Action.parse("pass"), 2: sm.Action.parse("hu"), 3: sm.Action.parse("hu")})
    assert [(w.seat, str(w.tile), w.from_seat) for w in g.view(0).wins] == [(2, "5p", 0), (3, "5p", 0)]
    unseen_5p = {}
    for s in range(4):
        v = g.view(s)
        x = encode(v)
        np.testing.assert_allclose(x, reference(v), rtol=1e-6)
        assert x[ROW["won"] + (2 - s) % 4, 13] == 1.0 and x[ROW["won"] + (3 - s) % 4, 13] == 1.0
        assert x[ROW["active"] + (2 - s) % 4].sum() == 0.0 and x[ROW["active"] + (1 - s) % 4].all()
        unseen_5p[s] = x[ROW["unseen"] : ROW["unseen"] + 4, 13].sum()
    # seat 0 knows its own 5p was won: the pair in seat 1's hand and the wall's one are unseen; seat 1 holds
    # the pair and saw the won tile: one unseen; a winner has the tile in its hand: three unseen
    assert unseen_5p == {0: 3.0, 1: 1.0, 2: 3.0, 3: 3.0}


def _wall_left(game: sm.Game) -> Counter[int]:
    """The tiles still in the wall, from the deal and the draws (the truth the encoder must not see)."""
    wall = [t.index for t in parse_tiles(game.events[0].data["wall"])]
    draws = [e for e in game.events if e.type == "draw"]
    head = sum(1 for e in draws if not e.data["replacement"])
    tail = len(draws) - head
    return Counter(wall[head : len(wall) - tail])


@pytest.mark.parametrize("preset", ["app", "seed"])
def test_unseen_is_what_the_wall_and_the_other_hands_hold(preset: str) -> None:
    checked = 0
    for seed in range(4):
        g = sm.Game(sm.Rules.preset(preset), seed)
        rng = random.Random(seed)
        while not g.is_over and not g.view(0).wins:  # after a win several seats may hold one discard
            truth = _wall_left(g)
            for s in range(1, 4):
                own = g.view(s)
                truth.update(t.index for t in own.tiles)
                for m in own.melds[s]:
                    if m.kind is MeldKind.CONCEALED_KONG:
                        truth[m.tile_index] += 4
            unseen = encode(g.view(0))[ROW["unseen"] : ROW["unseen"] + 4].sum(axis=0)
            assert unseen.tolist() == [float(truth[k]) for k in range(27)]
            checked += 1
            g.step({s: rng.choice(legal) for s, legal in g.to_act().items()})
    assert checked > 100


def test_a_scripted_position_plane_by_plane() -> None:
    g = _claim_deal()  # seat 1 pungs the 5p; seats 2 and 3, ready on it, pass. Seen from seat 2.
    g.step({1: sm.Action.parse("pung"), 2: sm.Action.parse("pass"), 3: sm.Action.parse("pass")})
    x = encode(g.view(2))
    assert x[ROW["pung"] + 3].tolist() == [1.0 if k == 13 else 0.0 for k in range(27)]  # seat 1 is 上家 of seat 2
    assert not x[ROW["river"] : ROW["river"] + 24].any()  # the claimed 5p left seat 0's river
    assert x[ROW["phase"] + PHASES.index("play")].all() and x[ROW["turn"] + 3].all() and x[ROW["dealer"] + 2].all()
    assert x[ROW["concealed"] + 3, 0] == pytest.approx(11 / 14)
    assert x[ROW["unseen"] : ROW["unseen"] + 4, 13].tolist() == [1.0, 0.0, 0.0, 0.0]  # the fourth 5p
    assert x[ROW["pass_lock"]].all() and not x[ROW["pass_lock_fan"]].any()  # passed a 0-fan win
    assert x[ROW["hand"] : ROW["hand"] + 4, 4].tolist() == [1.0, 1.0, 1.0, 0.0]  # three 5m
    g.step({1: sm.Action.parse("discard 9s")})
    x = encode(g.view(2))
    assert x[ROW["phase"] + PHASES.index("claim")].all() and x[ROW["pending"], 26] == 1.0  # seat 0 may win on it
    g.step({0: sm.Action.parse("pass")})
    x = encode(g.view(2))
    river = ROW["river"] + 6 * 3  # seat 1's rows, from seat 2
    assert x[river, 26] == 1.0 and x[river + 1, 26] == 0.0 and x[river + 4, 26] == 1.0 and x[river + 5, 26] == 1.0
    assert x[ROW["drawn"], 24] == 1.0 and x[ROW["turn"]].all()  # seat 2 drew 7s and is on turn
    assert not x[ROW["pass_lock"]].any()  # its draw cleared the lock


def test_the_layout_table_is_the_same_in_the_docstring_and_the_docs() -> None:
    want = [(f"{p.start}" if p.rows == 1 else f"{p.start}-{p.start + p.rows - 1}", p.name) for p in PLANES]
    doc = importlib.import_module("sichuan_mahjong.rl.encode").__doc__ or ""  # rl.encode is the function
    in_docstring = re.findall(r"^(\d+(?:-\d+)?)\s+(\w+)\s", doc, flags=re.MULTILINE)
    assert in_docstring == want
    md = (ROOT / "docs" / "rl.md").read_text()
    in_docs = re.findall(r"^\| (\d+(?:[-–]\d+)?) \| `(\w+)` \|", md, flags=re.MULTILINE)
    assert [(rows.replace("–", "-"), name) for rows, name in in_docs] == want
    assert NUM_PLANES == 90 and f"({NUM_PLANES}, 27)" in md
