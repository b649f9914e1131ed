"""A mid-hand :class:`Game` built from one seat's view: the hidden tiles sampled, everything public kept.

Search bots (``agents/master.py``) ask "what if I do this?" by playing the rest of the hand out many times.
They may not look at the real hidden tiles (R12), so each play-out starts from a *determinization*: a full
position that agrees with everything the seat can see, with the others' concealed tiles, their concealed
kongs and the wall drawn at random from the tiles the seat cannot account for.

What the sample respects (the inferences a player can make from the view alone):

* tile counts: each kind's unseen copies (4 minus own, rivers, shown melds, tiles won on) are spread over
  the other concealed hands, their concealed kongs (four of a kind no one has seen a copy of) and the wall;
* hand sizes: each seat's concealed count is public; a winner's hand (血战) holds the tile it won on;
* 定缺 (R3.2): a seat whose last discard is outside its void suit holds none of that suit (void tiles must go
  first; dropped when too few tiles remain for it, as when a void discard was claimed off the river), and a
  concealed kong is never of the void suit;
* the void chosen by play (no 定缺, as in the source): a seat that has shed one suit (at least
  :data:`SHED` of its first eight discards, none melded) and whose last :data:`SHED` discards are of the other
  suits is taken to hold none of it (``implied_voids``; dropped when too few tiles remain for it);
* 报叫: a seat that declared ready holds a ready hand (rejection sampling, a bounded number of tries);
* an added kong being robbed: its owner still holds that tile;
* how long each seat has played (``shaped``): its random hand is then played on for two turns more than it has
  discarded, each turn drawing from the unseen tiles and giving back the tile it needs least (least
  shanten). A random deal of the unseen tiles is about two steps of shanten behind the real hands of
  ``expert`` players by mid-hand; the shaped one is within half a step of them (``tests/game``);
* what each seat let pass (``passed``): a tile discarded since its last turn that it did not win on is, for a
  player who takes every win offered (the bots), not a tile its hand wins on now; a sampled hand that would
  win on one is drawn again (up to :data:`PASSED_TRIES` times);
* how likely each seat is to be ready (``ready_odds``, read from the table by the caller, e.g.
  ``agents.reader.ready_odds``): a seat drawn as ready has its hand played on (as in ``shaped``) until it is.
  A random deal of the unseen tiles is almost never ready, so play-outs from it never deal in on the first
  discard; these samples deal in about as often as the table does (``benchmarks/sample_quality.py``).
* what each seat holds (``holding``, read from the table by the caller, e.g. ``agents.reader.hold_weights``):
  each unseen copy of kind t goes to seat s's hand ``holding[s][t]`` times as readily as at random (drawn
  without replacement); a hand so dealt is then played on for :data:`HOLD_SHAPED` of its ``shaped`` turns.

The built game is an ordinary :class:`Game` at the same decision (same phase, seat on turn, pending tile and
this seat's legal answers), built by :meth:`Game.from_position` from a checked
:class:`~sichuan_mahjong.game.snapshot.Snapshot`; drive it with ``to_act`` / ``step`` as any other. Past
payments are kept as the running deltas; what is not public and matters only at the edges (the kong chain of
the turn, past kongs' refund records, the other seats' 过水不胡 locks) starts empty.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

from sichuan_mahjong.game.actions import ActionKind
from sichuan_mahjong.game.snapshot import PositionError, Snapshot
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation, let_pass, visible_counts
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import NUM_KINDS, POW5, Tile

__all__ = ["SampleError", "empty_suit", "reshuffled", "sample_game", "seat_streams", "unseen_pool"]

#: Tries at a ready hand for a seat that declared 报叫 before a sample is accepted as it is.
READY_TRIES = 30
#: Turns a sampled hand is played on at most to make it ready (``ready_odds``).
READY_STEPS = 40
#: Turns a sampled hand is played on at most to make it wait on a given tile (``waits``).
WAIT_STEPS = 40
#: Draws of a seat's hand at most, to find one that does not win on a tile it let pass (``passed``).
PASSED_TRIES = 8
#: A suit counts as voided by play once this many of a seat's first eight discards were of it and its last
#: this many discards were not.
SHED = 2
#: With a holding model, a seat's hand is played on (``shaped``) this fraction of the turns: dealt by the model,
#: it already looks played (all its turns make the samples' hands readier than the real ones).
HOLD_SHAPED = 0.5
_SAMPLED_PHASES = ("play", "claim", "rob")


class SampleError(ValueError):
    """A view that no full position can agree with (or a phase that is not sampled)."""


def unseen_pool(view: Observation) -> list[int]:
    """Copies of each kind the seat cannot account for: 4 - own (concealed, melds) - visible."""
    used = visible_counts(view)  # a tile won by several seats at once is one tile (一炮多响)
    for tile in view.tiles:
        used[tile.index] += 1
    for m in view.melds[view.seat]:
        used[m.tile_index] += m.size
    out = []
    for t in range(NUM_KINDS):
        left = 4 - used[t]
        if left < 0:
            raise SampleError(f"the view shows {used[t]} copies of {Tile(t)}")
        out.append(left)
    return out


def _draw(
    pool: list[int],
    n: int,
    rng: random.Random,
    allowed: Sequence[int] | None = None,
    weights: Sequence[float] | None = None,
) -> list[int]:
    """n tiles without replacement from ``pool`` (counts, updated), only of ``allowed`` kinds if given; with
    ``weights``, each copy of kind t drawn with weight ``weights[t]``."""
    kinds = range(NUM_KINDS) if allowed is None else allowed
    if weights is not None:
        return [_draw_one(pool, kinds, weights, rng) for _ in range(n)]
    bag = [t for t in kinds for _ in range(pool[t])]
    if len(bag) < n:
        raise SampleError(f"needs {n} hidden tiles of {len(bag)} possible")
    out = rng.sample(bag, n)
    for t in out:
        pool[t] -= 1
    return out


def _draw_one(pool: list[int], kinds: Sequence[int], weights: Sequence[float], rng: random.Random) -> int:
    """One tile of ``kinds`` from ``pool`` (updated), each copy of kind t with weight ``weights[t]``."""
    live = [t for t in kinds if pool[t]]
    if not live:
        raise SampleError("needs a hidden tile where none is possible")
    t = rng.choices(live, [pool[t] * weights[t] for t in live])[0]
    pool[t] -= 1
    return t


def _wins_on(tiles: list[int], melds: Sequence[Meld], void: int | None, kinds: set[int]) -> bool:
    """Whether the hand wins on a tile of one of ``kinds``."""
    if not kinds or not _is_ready(tiles, melds, void):
        return False
    for t in kinds:
        tiles.append(t)
        done = _shanten(tiles, melds, void) < 0
        tiles.pop()
        if done:
            return True
    return False


def _void_free(view: Observation, s: int) -> bool:
    """Seat s surely holds no tile of its declared void: its last discard (after 定缺) was of another suit."""
    void = view.voids[s]
    river = view.discards[s]
    return void is not None and bool(river) and river[-1].index // 9 != void


def _implied_void(view: Observation, s: int) -> int | None:
    """The suit seat s has visibly voided by play (no 定缺): shed early, not melded, not discarded lately."""
    river = view.discards[s]
    if view.voids[s] is not None or len(river) < 2 * SHED:
        return None
    counts = [0, 0, 0]
    for tile in river[:8]:
        counts[tile.index // 9] += 1
    v = max(range(3), key=lambda x: counts[x])
    if counts[v] < SHED or any(m.tile_index // 9 == v for m in view.melds[s]):
        return None
    if any(tile.index // 9 == v for tile in river[-SHED:]):
        return None
    return v


def empty_suit(view: Observation, s: int, implied_voids: bool = False) -> int | None:
    """The suit seat s surely (declared, then discarded off it) or, with ``implied_voids``, visibly (by play)
    holds none of; None when there is none."""
    if _void_free(view, s):
        return view.voids[s]
    return _implied_void(view, s) if implied_voids else None


def _keys(tiles: Sequence[int], melds: Sequence[Meld]) -> tuple[list[int], int]:
    """The tiles' base-5 key per suit and the melds' suits as a bit mask (what ``shanten_keys`` takes)."""
    keys = [0, 0, 0]
    ms = 0
    for t in tiles:
        keys[t // 9] += POW5[t % 9]
    for m in melds:
        ms |= 1 << (m.tile_index // 9)
    return keys, ms


def _shanten(tiles: Sequence[int], melds: Sequence[Meld], void: int | None) -> int:
    keys, ms = _keys(tiles, melds)
    return shanten_keys(keys, len(melds), ms, -1 if void is None else void)


def _shape(
    hand: list[int],
    n_fixed: int,
    melds: Sequence[Meld],
    void: int | None,
    pool: list[int],
    allowed: Sequence[int] | None,
    steps: int,
    rng: random.Random,
) -> None:
    """Play ``steps`` turns of a seat's hand on a sample (in place): draw a tile of the pool, give back the tile
    whose loss leaves the least shanten (ties at random). A hand that has been played a while is much closer
    to ready than a random deal of the same tiles; this brings the sample near it."""
    kinds = range(NUM_KINDS) if allowed is None else allowed
    bag = [t for t in kinds for _ in range(pool[t])]
    if not bag:
        return
    keys, ms = _keys(hand, melds)
    nm = len(melds)
    v = -1 if void is None else void
    free = hand[n_fixed:]
    for _ in range(steps):
        i = rng.randrange(len(bag))
        x = bag[i]
        keys[x // 9] += POW5[x % 9]
        free.append(x)
        best: list[int] = []
        least = 99
        for y in set(free):
            keys[y // 9] -= POW5[y % 9]
            sh = shanten_keys(keys, nm, ms, v)
            keys[y // 9] += POW5[y % 9]
            if sh < least:
                least, best = sh, [y]
            elif sh == least:
                best.append(y)
        y = rng.choice(best)
        keys[y // 9] -= POW5[y % 9]
        free.remove(y)
        bag[i] = y  # x leaves the pool, y returns to it
        pool[x] -= 1
        pool[y] += 1
    hand[n_fixed:] = free


def _wait_on(
    hand: list[int],
    n_fixed: int,
    melds: Sequence[Meld],
    void: int | None,
    pool: list[int],
    allowed: Sequence[int] | None,
    odds: Sequence[float],
    rng: random.Random,
) -> None:
    """Make a seat's sampled hand (in place) one that wins on a tile kind drawn with ``odds`` (its chance of
    being a winning tile): an unseen copy of it (or, when none is left, a copy of no one's: a hand may wait on a
    tile it cannot get) is held while the rest is played on as in :func:`_shape` until the hand with it is
    complete, then given back. Left as it was when no kind has odds or the hand is not complete within
    :data:`WAIT_STEPS` turns."""
    allowed_kinds = range(NUM_KINDS) if allowed is None else allowed
    kinds = [t for t in allowed_kinds if odds[t] > 0 and (void is None or t // 9 != void)]
    if not kinds:
        return
    t = rng.choices(kinds, [odds[k] for k in kinds])[0]
    if pool[t] == 0 and hand.count(t) == 4:
        return
    trial = [*hand[:n_fixed], t, *hand[n_fixed:]]
    before = list(pool)
    own = pool[t] > 0  # the winning tile is an unseen copy, kept out of the draws while the hand is built
    pool[t] -= own
    for _ in range(WAIT_STEPS):
        if _shanten(trial, melds, void) < 0:
            del trial[n_fixed]
            hand[:] = trial
            pool[t] += own
            return
        _shape(trial, n_fixed + 1, melds, void, pool, allowed, 1, rng)
    pool[:] = before


def _is_ready(tiles: Sequence[int], melds: Sequence[Meld], void: int | None) -> bool:
    return _shanten(tiles, melds, void) == 0


def _sample_hidden(
    view: Observation,
    rng: random.Random,
    implied_voids: bool = False,
    shaped: int = 0,
    ready_odds: Sequence[float] | None = None,
    waits: Sequence[Sequence[float]] | None = None,
    passed: bool = False,
    holding: Sequence[Sequence[float]] | None = None,
) -> tuple[list[list[int]], list[list[Meld]], list[int]] | None:
    """One draw of the others' concealed tiles and concealed kongs and the wall (in draw order)."""
    me = view.seat
    # The suit each other seat surely (declared, then discarded off it) or visibly (by play) holds none of.
    empty = [empty_suit(view, s, implied_voids) for s in range(4)]
    pool = unseen_pool(view)
    hands: list[list[int]] = [[t.index for t in view.tiles] if s == me else [] for s in range(4)]
    kongs: list[list[Meld]] = [[] for _ in range(4)]
    # Concealed kongs first: four of a kind, all four unseen, outside the seat's void.
    for s in range(4):
        for _ in range(view.hidden_kongs[s] if s != me else 0):
            void = view.voids[s]
            kinds = [t for t in range(NUM_KINDS) if pool[t] == 4 and (void is None or t // 9 != void)]
            if not kinds:
                raise SampleError(f"seat {s} shows a concealed kong but no kind has four unseen copies")
            t = rng.choice(kinds)
            pool[t] = 0
            kongs[s].append(Meld(MeldKind.CONCEALED_KONG, t))
    # A robbed added kong: its owner still holds the tile. A winner's hand (血战) holds the tile it won on,
    # which the view already counts as seen, so it is not taken from the pool.
    fixed: list[list[int]] = [[] for _ in range(4)]
    if view.phase == "rob" and view.pending_tile is not None and view.turn != me:
        t = view.pending_tile.index
        if pool[t] <= 0:
            raise SampleError(f"seat {view.turn}'s added kong of {Tile(t)} has no unseen copy")
        pool[t] -= 1
        fixed[view.turn].append(t)
    for w in view.wins:
        if w.seat != me:
            fixed[w.seat].append(w.tile.index)
    order = sorted((s for s in range(4) if s != me), key=lambda s: empty[s] is None)
    for s in order:
        need = view.concealed_counts[s] - len(fixed[s])
        allowed = None
        v = empty[s]
        if v is not None:
            allowed = [t for t in range(NUM_KINDS) if t // 9 != v]
            if sum(pool[t] for t in allowed) < need:  # a claimed void discard left the river: no inference
                allowed = None
        melds = [*view.melds[s], *kongs[s]]
        let = let_pass(view, s) if passed and view.active[s] else set()
        before = list(pool)
        for attempt in range(PASSED_TRIES):
            ready = ready_odds is not None and rng.random() < ready_odds[s]
            hw = None if holding is None else holding[s]
            hands[s] = fixed[s] + _draw(pool, need, rng, allowed, hw)
            if ready:
                if waits is not None:
                    _wait_on(hands[s], len(fixed[s]), melds, view.voids[s], pool, allowed, waits[s], rng)
                for _ in range(READY_STEPS):
                    if _is_ready(hands[s], melds, view.voids[s]):
                        break
                    _shape(hands[s], len(fixed[s]), melds, view.voids[s], pool, allowed, 1, rng)
            elif shaped:
                steps = min(shaped, len(view.discards[s]) + 2)
                if hw is not None:
                    steps = int(steps * HOLD_SHAPED)
                _shape(hands[s], len(fixed[s]), melds, view.voids[s], pool, allowed, steps, rng)
            if attempt == PASSED_TRIES - 1 or not _wins_on(hands[s], melds, view.voids[s], let):
                break
            pool[:] = before  # a hand that would have won on a tile it let pass: draw it again
    if sum(pool) != view.wall_count:
        return None
    wall = [t for t in range(NUM_KINDS) for _ in range(pool[t])]
    rng.shuffle(wall)
    return hands, kongs, wall


def sample_game(
    view: Observation,
    rng: random.Random,
    *,
    implied_voids: bool = False,
    shaped: int = 0,
    ready_odds: Sequence[float] | None = None,
    waits: Sequence[Sequence[float]] | None = None,
    passed: bool = False,
    holding: Sequence[Sequence[float]] | None = None,
) -> Game:
    """A :class:`Game` at the view's decision whose hidden tiles are drawn by ``rng`` (see the module doc).

    ``implied_voids`` also keeps each seat's void chosen by play (a suit it visibly shed) out of its hand;
    ``shaped`` plays that many turns of each other seat's sampled hand (draw, give back the tile it needs
    least) so that it is as close to ready as a hand played a while tends to be. ``ready_odds[s]`` is the
    chance that seat s's hand is ready: a seat so drawn is played on until it is (at most
    :data:`READY_STEPS` turns); the others are shaped as ``shaped`` says. With ``waits[s][t]``, the chance
    that a ready seat s wins on tile kind t, a seat drawn ready is first made to wait on a kind drawn with
    those odds (then played on until ready if that fails). With ``passed``, no other seat's hand wins on a tile
    it let pass since its last turn (:func:`let_pass`): drawn again when it does, at most :data:`PASSED_TRIES`
    times (the last draw is kept). With ``holding[s][t]``, each unseen copy of kind t is dealt to seat s's hand
    with that weight against the others' 1 (a model of what each seat holds, read from its river, e.g.
    ``agents.reader.hold_weights``), and the hand is then played on :data:`HOLD_SHAPED` of the ``shaped`` turns.

    Only ``play``, ``claim`` and ``rob`` views are sampled (the decisions of the hand in progress).
    """
    if view.phase not in _SAMPLED_PHASES:
        raise SampleError(f"only a view in play, claim or rob is sampled, got phase {view.phase!r}")
    if not view.legal:
        raise SampleError(f"seat {view.seat} is not asked to act in this view")
    drawn = None
    for _ in range(READY_TRIES):
        drawn = _sample_hidden(view, rng, implied_voids, shaped, ready_odds, waits, passed, holding)
        if drawn is None:
            raise SampleError(
                f"the hidden tiles do not add up: wall {view.wall_count}, concealed {view.concealed_counts}"
            )
        hands, kongs, _ = drawn
        if all(
            _is_ready(hands[s], [*view.melds[s], *kongs[s]], view.voids[s])
            for s in range(4)
            if s != view.seat and view.ready[s] and view.active[s]
        ):
            break
    assert drawn is not None
    hands, kongs, wall = drawn
    return _build(view, hands, kongs, wall, rng.getrandbits(32))


def reshuffled(game: Game, rng: random.Random) -> Game:
    """A deep copy of ``game`` whose wall still to be drawn is put in a random order; all else is kept.

    The oracle's determinization, for analysis only (``benchmarks/decision_regret.py``): every hand as it
    really is and only the order of the wall unknown, so that play-outs value an action as one who saw the
    other hands would. A bot never gets this: it sees its view alone.
    """
    out = copy.deepcopy(game)
    out.shuffle_wall(rng)
    return out


def seat_streams(game: Game) -> Game:
    """``game`` (changed in place and returned) drawing from a stream of its own for each seat from now on.

    The wall still to be drawn is dealt out in turn, a tile to each seat, and every later draw of a seat (a
    kong's replacement too) takes its stream's next tile; a seat whose stream is spent takes the last of the
    longest. In a random wall every draw is still a uniform pick of the tiles left (which position a draw takes
    depends on the play so far, never on the tiles), so a play-out is as random as before; what changes is
    that two play-outs of one sample that part ways keep each seat's draws. On the shared wall a claim or a win
    in one of them shifts every later draw to the next seat, and the two hands go on as strangers; with streams
    they differ by what was played, not by the luck of the draws (the search's common random numbers,
    ``agents/master.py``). Only for samples: a real hand draws from its wall (R2).

    >>> g = Game(seed=1)
    >>> rest = sorted(g.snapshot().wall)
    >>> seat_streams(g) is g, sorted(g.snapshot().wall) == rest
    (True, True)
    """
    game.use_seat_streams()
    return game


def _build(view: Observation, hands: list[list[int]], kongs: list[list[Meld]], wall: list[int], seed: int) -> Game:
    me = view.seat
    legal = view.legal
    # After a pung the claimer must discard: no drawn tile, not the dealer's first turn, no win offered.
    after_pung = (
        view.phase == "play" and view.drawn is None and all(a.kind is ActionKind.DISCARD for a in legal)
    ) and len(view.discards[me]) + len(view.melds[me]) > 0
    try:
        return Game.from_position(
            Snapshot(
                rules=view.rules,
                dealer=view.dealer,
                phase=view.phase,
                turn=view.turn,
                hands=tuple(map(tuple, hands)),
                melds=tuple((*view.melds[s], *kongs[s]) if s != me else view.melds[s] for s in range(4)),
                rivers=tuple(tuple(t.index for t in river) for river in view.discards),
                wall=tuple(wall),
                drawn=tuple(view.drawn.index if s == me and view.drawn is not None else None for s in range(4)),
                pending_tile=None if view.pending_tile is None else view.pending_tile.index,
                voids=view.voids,
                declared=view.ready,
                active=view.active,
                wins=view.wins,
                scores=view.scores,
                locks=tuple(view.pass_lock if s == me else None for s in range(4)),
                after_pung=after_pung,
                base=view.base,
                seed=seed,
            )
        )
    except PositionError as exc:
        raise SampleError(f"the view is no position of a hand: {exc}") from None
