"""Soak the engine: play many hands with the bots over every preset and random rule sets, checking each hand.

    python scripts/soak.py --seconds 600 --jobs 2            # until the time is up
    python scripts/soak.py --hands 100000 --jobs 2           # a number of hands
    python scripts/soak.py --hand 12345 --seed 0             # replay one hand (a failure's number) alone

Hand ``i`` of base seed ``B`` is fixed by ``(B, i)``: its rules (a preset, or every option drawn at random), its
bots (random, efficient, expert per seat), its shuffle seed, dealer and base. A failure prints that number, so
``--hand i --seed B`` plays exactly that hand again.

Checked on every hand (docs/engine.md, "Soak"):
  * a shadow table rebuilt from the event log alone (the deal's hands and wall, then every event) never moves a
    tile that is not where the event says: each draw is the wall's next tile (or the far end's after a kong),
    a pung or kong takes the discarder's last discard, a win on a discard takes it once however many win.
    So the 108 tiles are conserved (plus one copy per extra winner of one tile), kind by kind;
  * the ledger sums to zero after every step, equals the payments, and the ``end`` event's deltas;
  * the view of every seat asked to act, at every step, equals the shadow's projection for that seat (own tiles,
    everyone's public melds, concealed kongs counted but not shown, rivers, wall count, scores, wins, voids,
    报叫, who is in, legal answers): a view holds nothing else, so nothing hidden leaks;
  * replay (``Game.replay``) and the JSON round trip (``Game.from_json(game.to_json())``) give identical events and
    result; the JSON Lines record (``hand_to_jsonl`` / ``hand_from_jsonl``) loads back to identical events.
On every ``--full-every``-th hand (default 8) also: the views of all four seats at every step; each seat's
filtered events hold no other seat's concealed tile, no wall, no seed, no other seat's answer; every win on a
discard or a robbed kong is offered exactly when the tiles win and 过水不胡 (R9.1, the hand's own fan) allows it,
and a seat's ``pass_lock`` is that own fan; the record saved to a file and loaded back (``save_hand`` /
``load_hand``), and each one-seat record parses.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing as mp
import os
import queue
import random
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import sichuan_mahjong as sm
from sichuan_mahjong.agents import make_agent
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.view import Observation, WinView, filter_event
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.record import hand_from_jsonl, hand_to_jsonl, load_hand, parse_record, save_hand
from sichuan_mahjong.rules import EXCHANGE_DIRECTIONS, EXTRA_FANS, MODES, PRESETS, Rules
from sichuan_mahjong.scoring import own_fan_rules, score_hand
from sichuan_mahjong.tiles import NUM_KINDS, Tile

BOTS: Final = ("random", "efficient", "expert")
BOT_WEIGHTS: Final = (6, 3, 1)  # the expert is ~8x slower than random: fewer of it keeps the soak's pace
TILE_OF: Final = {str(Tile(i)): i for i in range(NUM_KINDS)}
_TILE: Final = tuple(Tile(i) for i in range(NUM_KINDS))
MAX_STEPS: Final = 2000


class SoakError(Exception):
    """A broken invariant (raised by :func:`check`, never stripped by ``python -O`` as an assert would be)."""


def check(condition: object, message: str) -> None:
    """Raise SoakError(message) unless condition; a message that costs a repr is built only on failure instead."""
    if not condition:
        raise SoakError(message)


# ------------------------------------------------------------------------------------------------ hands


def _random_option(name: str, rng: random.Random) -> object:
    """A value of every Rules option; a new option must be added here (random_rules checks)."""
    values: dict[str, Callable[[], object]] = {
        "mode": lambda: rng.choice(MODES),
        "dealer_after_draw": lambda: rng.choice(("stay", "next")),
        "declare_void": lambda: rng.random() < 0.5,
        "declare_ready": lambda: rng.random() < 0.5,
        "max_fan": lambda: rng.choice((None, None, 0, 1, 2, 3, 4, 6)),
        "self_draw_bonus": lambda: rng.choice(("none", "base", "fan")),
        "kong_flower_fan": lambda: rng.choice((1, 2)),
        "robbing_kong_fan": lambda: rng.choice((0, 1, 2)),
        "check_max": lambda: rng.random() < 0.5,
        "exchange_three": lambda: rng.random() < 0.5,
        "exchange_direction": lambda: rng.choice(EXCHANGE_DIRECTIONS),
        "flower_pig": lambda: rng.random() < 0.5,
        "flower_pig_fan": lambda: rng.choice((0, 3, 4, 5)),
        "kong_shot_transfer": lambda: rng.random() < 0.5,
        "kong_flower_payer": lambda: rng.choice(("self_draw", "discarder")),
        "extra_fans": lambda: frozenset(f for f in sorted(EXTRA_FANS) if rng.random() < 0.4),
    }
    if name not in values:
        raise KeyError(f"scripts/soak.py draws no value for the new option {name!r}: add it to _random_option")
    return values[name]()


def random_rules(rng: random.Random) -> Rules:
    """Every option of Rules drawn at random."""
    return Rules().replace(**{f.name: _random_option(f.name, rng) for f in dataclasses.fields(Rules)})


@dataclasses.dataclass(frozen=True)
class HandSpec:
    index: int
    base_seed: int
    rules_name: str  # a preset name, or "random"
    rules: Rules
    bots: tuple[str, ...]
    seed: int
    dealer: int | None
    base: int
    full: bool
    full_every: int

    def describe(self) -> str:
        return (
            f"hand {self.index} (--seed {self.base_seed} --hand {self.index}): rules {self.rules_name}, "
            f"bots {','.join(self.bots)}, game seed {self.seed}, dealer {self.dealer}, base {self.base}"
        )


def spec_for(base_seed: int, index: int, full_every: int) -> HandSpec:
    rng = random.Random(f"soak:{base_seed}:{index}")
    names = sorted(PRESETS)
    if rng.random() < 0.5:
        rules_name = names[index % len(names)]
        rules = PRESETS[rules_name]
    else:
        rules_name, rules = "random", random_rules(rng)
    bots = tuple(rng.choices(BOTS, weights=BOT_WEIGHTS, k=4))
    dealer = rng.choice((None, 0, 1, 2, 3))
    full = full_every > 0 and index % full_every == 0
    base = rng.choice((1, 2, 5))
    return HandSpec(index, base_seed, rules_name, rules, bots, rng.getrandbits(40), dealer, base, full, full_every)


# ------------------------------------------------------------------------------------------------ shadow


def _tiles(text: str) -> list[int]:
    return [TILE_OF[text[i : i + 2]] for i in range(0, len(text), 2)]


class Shadow:
    """The whole table rebuilt from the event log alone, independent of the engine's own state."""

    def __init__(self, deal: Event) -> None:
        d = deal.data
        check(deal.type == "deal", "the first event is not the deal")
        self.hands = [Counter(_tiles(h)) for h in d["hands"]]
        self.wall = _tiles(d["wall"])
        self.head, self.tail = 0, len(self.wall)
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.rivers: list[list[int]] = [[], [], [], []]
        self.deltas = [0, 0, 0, 0]
        self.wins: list[WinView] = []
        self.voids: tuple[int | None, ...] = (None, None, None, None)
        self.declared = [False] * 4
        self.active = [True] * 4
        self.exchanged: list[tuple[tuple[Tile, ...], tuple[Tile, ...]]] | None = None
        self.extra = Counter[int]()  # copies beyond one of a tile won by several seats at once
        self.added: tuple[int, int] | None = None  # an added kong waiting to be robbed or completed
        self.taken: tuple[int, int] | None = None  # (discarder, tile) taken for wins: river pop or robbed kong
        self.takers = 0  # winners of the taken tile so far
        self.last_discard: tuple[int, int] | None = None
        counts = Counter[int]()
        for h in self.hands:
            counts.update(h)
        counts.update(self.wall)
        if any(counts[t] != 4 for t in range(NUM_KINDS)) or counts.total() != 108:
            raise SoakError(f"the deal does not hold four of each tile: {dict(counts)}")

    def _take(self, seat: int, t: int, n: int = 1) -> None:
        if self.hands[seat][t] < n:
            raise SoakError(f"seat {seat} gives {n} {Tile(t)} it does not hold")
        self.hands[seat][t] -= n

    def _from_river(self, seat: int, t: int) -> None:
        river = self.rivers[seat]
        if not river or river[-1] != t:
            raise SoakError(f"{Tile(t)} is not seat {seat}'s last discard ({river[-1:]})")
        river.pop()

    def apply(self, e: Event) -> None:
        kind, s, d = e.type, e.seat, e.data
        if kind in ("act", "end"):
            if kind == "end" and d["deltas"] != self.deltas:
                raise SoakError(f"end deltas {d['deltas']} != payments {self.deltas}")
            return
        if kind == "payment":
            if d["amount"] <= 0 or d["payer"] == d["payee"]:
                raise SoakError(f"a bad payment {d}")
            self.deltas[d["payer"]] -= d["amount"]
            self.deltas[d["payee"]] += d["amount"]
            return
        if self.added is not None and kind == "draw":  # an added kong not robbed: it stands
            a_seat, a_tile = self.added
            self._take(a_seat, a_tile)
            melds = self.melds[a_seat]
            i = melds.index(Meld(MeldKind.PUNG, a_tile))
            melds[i] = Meld(MeldKind.ADDED_KONG, a_tile)
            self.added = None
        if kind == "draw":
            if d["replacement"]:
                self.tail -= 1
                where = self.tail
            else:
                where = self.head
                self.head += 1
            check(self.head <= self.tail, "a draw from an empty wall")
            t = TILE_OF[d["tile"]]
            if self.wall[where] != t:
                raise SoakError(f"seat {s} draws {d['tile']}, the wall holds {Tile(self.wall[where])}")
            self.hands[s][t] += 1
            self.taken = None
        elif kind == "discard":
            t = TILE_OF[d["tile"]]
            self._take(s, t)
            self.rivers[s].append(t)
            self.last_discard = (s, t)
            self.taken = None
        elif kind in ("pung", "kong"):
            t = TILE_OF[d["tile"]]
            self._from_river(d["from_seat"], t)
            self._take(s, t, 2 if kind == "pung" else 3)
            self.melds[s].append(Meld(MeldKind.PUNG if kind == "pung" else MeldKind.KONG, t))
        elif kind == "concealed_kong":
            t = TILE_OF[d["tile"]]
            self._take(s, t, 4)
            self.melds[s].append(Meld(MeldKind.CONCEALED_KONG, t))
        elif kind == "added_kong":
            t = TILE_OF[d["tile"]]
            if Meld(MeldKind.PUNG, t) not in self.melds[s]:
                raise SoakError(f"seat {s} adds {Tile(t)} to no pung")
            if self.hands[s][t] < 1:
                raise SoakError(f"seat {s} adds a {Tile(t)} it does not hold")
            self.added = (s, t)
        elif kind == "robbed":
            t = TILE_OF[d["tile"]]
            if self.added != (s, t):
                raise SoakError(f"seat {s}'s {Tile(t)} is robbed but was not added")
            self._take(s, t)
            self.added = None
            self.taken, self.takers = (s, t), 0
        elif kind == "win":
            self._win(s, d)
        elif kind == "exchange":
            given, received = [_tiles(g) for g in d["given"]], [_tiles(r) for r in d["received"]]
            for seat in range(4):
                for t in given[seat]:
                    self._take(seat, t)
            for seat in range(4):
                self.hands[seat].update(received[seat])
            check(Counter(t for g in given for t in g) == Counter(t for r in received for t in r), "换三张 lost tiles")
            self.exchanged = [
                (tuple(_TILE[t] for t in given[k]), tuple(_TILE[t] for t in received[k])) for k in range(4)
            ]
        elif kind == "voids":
            self.voids = tuple("mps".index(v) for v in d["voids"])
        elif kind == "ready":
            self.declared[s] = True
        else:
            raise SoakError(f"unknown event type {kind!r}")

    def _win(self, s: int, d: dict[str, Any] | Any) -> None:
        t = TILE_OF[d["tile"]]
        src = d["from_seat"]
        shared = False
        if not self.active[s]:
            raise SoakError(f"seat {s} wins again after leaving the hand")
        if src is not None:
            if self.taken != (src, t):
                check(not d["robbed_kong"], "a robbed-kong win without its 'robbed' event")
                if self.last_discard != (src, t):
                    raise SoakError(f"seat {s} wins on {Tile(t)}, not the last discard")
                self._from_river(src, t)
                self.taken, self.takers = (src, t), 0
            if self.takers:
                self.extra[t] += 1  # one discard (or robbed kong) wins several: each winner holds a copy
                shared = True  # ... and the view marks the later wins as the same tile
            self.takers += 1
            self.hands[s][t] += 1
        self.wins.append(WinView(s, _TILE[t], src, bool(d["robbed_kong"]), d["fan"], shared))

    def finish_win_group(self, rules: Rules) -> None:
        """After a step: winners of a bloody hand leave it."""
        if rules.bloody:
            for w in self.wins:
                self.active[w.seat] = False

    def tile_total(self) -> Counter[int]:
        total = Counter[int]()
        for seat in range(4):
            total.update(self.hands[seat])
            for m in self.melds[seat]:
                total[m.tile_index] += m.size
            total.update(self.rivers[seat])
        total.update(self.wall[self.head : self.tail])
        return total

    def check_conserved(self) -> None:
        total = self.tile_total()
        for t in range(NUM_KINDS):
            if total[t] != 4 + self.extra[t]:
                raise SoakError(f"{total[t]} copies of {Tile(t)} on the table")

    def check_view(self, v: Observation, game: sm.Game, legal: Sequence[sm.Action]) -> None:
        """The view equals this seat's projection of the shadow, field by field (R12)."""
        k = v.seat

        def same(name: str, got: object, want: object) -> None:
            if got != want:
                raise SoakError(f"view of seat {k}: {name} is {got!r}, the table says {want!r}")

        same("dealer", v.dealer, game.dealer)
        same("rules", v.rules, game.rules)
        same("base", v.base, game.base)
        same("phase", v.phase, game.phase)
        same("own tiles", sorted(t.index for t in v.tiles), sorted(self.hands[k].elements()))
        check(v.drawn is None or v.drawn in v.tiles, "the drawn tile is not among the tiles")
        same("own melds", list(v.melds[k]), self.melds[k])
        same("hidden kongs", v.hidden_kongs[k], 0)
        for o in range(4):
            if o != k:
                same(
                    f"melds of {o}",
                    list(v.melds[o]),
                    [m for m in self.melds[o] if m.kind is not MeldKind.CONCEALED_KONG],
                )
                same(
                    f"hidden kongs of {o}",
                    v.hidden_kongs[o],
                    sum(m.kind is MeldKind.CONCEALED_KONG for m in self.melds[o]),
                )
        same("concealed counts", list(v.concealed_counts), [self.hands[o].total() for o in range(4)])
        same("discards", [[t.index for t in r] for r in v.discards], self.rivers)
        same("wall count", v.wall_count, self.tail - self.head)
        same("scores", list(v.scores), self.deltas)
        same("wins", list(v.wins), self.wins)
        same("voids", v.voids, self.voids)
        same("ready", list(v.ready), self.declared)
        same("active", list(v.active), self.active)
        same("legal", v.legal, tuple(legal))
        same("exchanged", v.exchanged, None if self.exchanged is None else self.exchanged[k])
        same("is_over", v.is_over, game.is_over)
        if v.phase in ("claim", "rob"):
            t = v.pending_tile
            check(t is not None, "a claim without its tile")


# ------------------------------------------------------------------------------------------------ a hand


def _check_filtered(game: sm.Game) -> None:
    """Each seat's events hold nothing of another's concealed tiles, no wall, no seed, no other's answers."""
    for k in range(4):
        mine = game.events_for(k)
        check(len(mine) == sum(filter_event(e, k) is not None for e in game.events), "events_for disagrees")
        for e in mine:
            data = e.data
            if {"hands", "wall", "seed", "exchange_dice"} & set(data):
                raise SoakError(f"seat {k} gets a {e.type} event with hidden fields")
            if e.type == "act" and e.seat != k:
                raise SoakError(f"seat {k} sees seat's answer")
            if e.type in ("draw", "concealed_kong") and e.seat != k and data["tile"] is not None:
                raise SoakError(f"seat {k} sees seat {e.seat}'s {e.type} tile")
            if e.type == "exchange" and not isinstance(data["given"], str):
                raise SoakError(f"seat {k} sees every seat's exchange")


def _may_win_on(shadow: Shadow, rules: Rules, o: int, t: int, locks: Sequence[int]) -> bool:
    """Seat o's tiles win with t and its 过水不胡 lock (R9.1: the hand's own fan) lets it."""
    tiles = [*(_TILE[x] for x in shadow.hands[o].elements()), _TILE[t]]
    if not sm.is_winning(tiles, shadow.melds[o], void=shadow.voids[o]):
        return False
    own = own_fan_rules(rules)
    return (
        locks[o] < 0
        or score_hand(tiles, t, shadow.melds[o], declared_ready=shadow.declared[o], rules=own).fan > locks[o]
    )


def _check_offers(game: sm.Game, shadow: Shadow, locks: Sequence[int], d: int, t: int, *, asked: bool) -> None:
    """R9.1/R9.2: a win on seat d's discard (or added kong) t is offered exactly to the seats that may win."""
    pending = game.to_act() if asked else {}
    hu = sm.Action.parse("hu")
    for o in range(4):
        if o == d or not shadow.active[o]:
            continue
        allowed = _may_win_on(shadow, game.rules, o, t, locks)
        offered = hu in pending.get(o, [])
        if offered != allowed:
            raise SoakError(f"seat {o}: hu on {Tile(t)} offered {offered}, allowed {allowed}")
        if offered and shadow.tail - shadow.head <= 4 and pending[o] != [hu]:
            raise SoakError(f"R9.2: seat {o} is not forced to win")


def play_hand(spec: HandSpec, tmp: Path | None = None) -> sm.Game:
    """Play one hand with its bots, checking as the docstring says; raises SoakError (or what broke)."""
    game = sm.Game(spec.rules, spec.seed, dealer=spec.dealer, base=spec.base)
    bots = [make_agent(name, seed=spec.seed + k) for k, name in enumerate(spec.bots)]
    shadow = Shadow(game.events[0])
    seen = 1  # the deal built the shadow
    locks = [-1, -1, -1, -1]
    hu = sm.Action.parse("hu")
    own = own_fan_rules(spec.rules)
    for steps in range(MAX_STEPS + 1):
        events = game.events
        for i in range(seen, len(events)):
            e = events[i]
            shadow.apply(e)
            if e.type == "draw":
                locks[e.seat] = -1
            elif spec.full and e.type in ("discard", "added_kong"):  # asked (the step ends here) or nobody may win
                _check_offers(game, shadow, locks, e.seat, TILE_OF[e.data["tile"]], asked=i == len(events) - 1)
        seen = len(events)
        shadow.finish_win_group(spec.rules)
        if game.is_over:
            break
        check(steps < MAX_STEPS, f"no end after {MAX_STEPS} steps")
        asked = game.to_act()
        check(asked, "the hand is not over but nobody is asked")
        if spec.full:
            for k in range(4):
                if k not in asked:
                    shadow.check_view(game.view(k), game, ())
            check(all(game.view(k).pass_lock == (locks[k] if locks[k] >= 0 else None) for k in range(4)), "pass_lock")
        answers = {}
        for s, legal in asked.items():
            view = game.view(s)
            shadow.check_view(view, game, legal)
            answers[s] = bots[s].act(view, legal)
            if game.phase in ("claim", "rob") and hu in legal and answers[s] is not hu and view.pending_tile:
                t = view.pending_tile
                tiles = [*view.tiles, t]
                fan = score_hand(tiles, t, view.melds[s], declared_ready=view.ready[s], rules=own).fan
                locks[s] = max(locks[s], fan)
        game.step(answers)
        if sum(game.deltas) != 0:
            raise SoakError(f"the ledger does not sum to zero: {game.deltas}")
    shadow.check_conserved()
    for k in range(4):  # every hand: the end as each seat sees it
        shadow.check_view(game.view(k), game, ())
    result = game.result
    check(sum(result.deltas) == 0 and list(result.deltas) == shadow.deltas, "result deltas != payments")
    check(shadow.added is None, "an added kong neither robbed nor completed")
    _check_round_trips(game, spec, tmp)
    return game


def _check_round_trips(game: sm.Game, spec: HandSpec, tmp: Path | None) -> None:
    loaded = hand_from_jsonl(hand_to_jsonl(game))  # JSON text, replayed, every event checked as it is written
    check(loaded.events == game.events and loaded.result == game.result, "the JSON Lines record loads back different")
    if spec.full:
        text = game.to_json()
        back = sm.Game.from_json(text)
        check(back.to_json() == text and back.result == game.result, "the JSON round trip differs")
        again = sm.Game.replay(game.events)
        check(again.events == game.events and again.result == game.result, "Game.replay differs")
        _check_filtered(game)
        k = spec.index // max(spec.full_every, 1) % 4  # one seat's record per full hand, each seat in turn
        one = parse_record(hand_to_jsonl(game, seat=k))
        check(one.seat == k and one.hands[0].events == game.events_for(k), "a one-seat record differs")
        if tmp is not None:
            path = tmp / f"hand-{spec.index}.jsonl"
            save_hand(game, path)
            check(load_hand(path).events == game.events, "save_hand/load_hand differs")
            path.unlink()


# ------------------------------------------------------------------------------------------------ running


def _worker(job: int, jobs: int, args: argparse.Namespace, deadline: float, out: Any) -> None:
    os.environ.setdefault("PYTHONHASHSEED", "0")
    done = 0
    last = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        index = args.start + job
        while (args.hands is None or index < args.start + args.hands) and time.monotonic() < deadline:
            spec = spec_for(args.seed, index, args.full_every)
            try:
                play_hand(spec, Path(tmp))
            except Exception as exc:  # every failure is reported with its hand, never lost
                tb = traceback.format_exc(limit=-3).strip().splitlines()
                out.put(("fail", f"FAIL {spec.describe()}: {type(exc).__name__}: {exc}\n    " + "\n    ".join(tb)))
            done += 1
            index += jobs
            if time.monotonic() - last > 2:
                out.put(("done", done))
                done, last = 0, time.monotonic()
    out.put(("done", done))
    out.put(("exit", job))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: no limit)")
    p.add_argument("--hands", type=int, default=None, help="stop after this many hands (default: no limit)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--seed", type=int, default=0, help="base seed: hand i of seed B is always the same hand")
    p.add_argument("--start", type=int, default=0, help="first hand number (default 0)")
    p.add_argument("--hand", type=int, default=None, help="play only this hand number, with every check")
    p.add_argument("--full-every", type=int, default=8, help="every Nth hand gets the full checks (0: none)")
    p.add_argument("--progress", type=float, default=60.0, help="seconds between progress lines (default 60)")
    args = p.parse_args(argv)
    if args.hand is not None:
        spec = dataclasses.replace(spec_for(args.seed, args.hand, args.full_every), full=True)
        print(spec.describe())
        with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
            game = play_hand(spec, Path(tmp))
        print(f"ok: {len(game.events)} events, deltas {list(game.result.deltas)}, {game.result.reason}")
        return 0
    if args.seconds is None and args.hands is None:
        p.error("give --seconds or --hands (or --hand N)")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    start = time.monotonic()
    deadline = start + (args.seconds if args.seconds is not None else float("inf"))
    out: Any = mp.get_context("fork").Queue()
    procs = [
        mp.get_context("fork").Process(target=_worker, args=(j, args.jobs, args, deadline, out))
        for j in range(args.jobs)
    ]
    for proc in procs:
        proc.start()
    total = failures = 0
    running = args.jobs
    next_progress = start + args.progress
    while running:
        try:
            kind, value = out.get(timeout=1.0)
        except queue.Empty:
            kind, value = "", None
        if kind == "done":
            total += value
        elif kind == "fail":
            failures += 1
            print(value, flush=True)
        elif kind == "exit":
            running -= 1
        now = time.monotonic()
        if now >= next_progress:
            print(f"{total} hands, {total / (now - start):.1f} hands/s, {failures} failures", flush=True)
            next_progress = now + args.progress
    for proc in procs:
        proc.join()
    elapsed = time.monotonic() - start
    print(f"done: {total} hands in {elapsed:.0f} s, {total / elapsed:.1f} hands/s, {failures} failures", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
