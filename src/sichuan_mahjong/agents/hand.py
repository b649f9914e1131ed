"""A bot's working copy of its own hand, read from an Observation, in the ints the evaluator wants.

Bots decide dozens of times a hand, so everything here is counts, per-suit base-5 keys and the evaluator's int
API (``shanten_keys``); :class:`~sichuan_mahjong.tiles.Tile` objects appear only when reading the view.
``unseen[t]`` is what the player cannot account for: 4 minus his own copies (concealed and melded) minus
every copy he can see (rivers, others' melds, tiles others won on). Those are the copies that may still be
drawn or discarded, the "live" tiles of the source's narrated hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from sichuan_mahjong.game.view import Observation, visible_counts
from sichuan_mahjong.hand import tables
from sichuan_mahjong.hand.analysis import shanten_keys
from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.tiles import NUM_KINDS, POW5

__all__ = ["HandState", "read_view"]

_SUIT = tuple(t // 9 for t in range(NUM_KINDS))
_WEIGHT = tuple(POW5[t % 9] for t in range(NUM_KINDS))
_ROW = tables.ROW
_COL = tables.COL
_COMB = tables.COMBINED
_KEPT = ((1, 2), (0, 2), (0, 1))  # the two kept suits (row suit, column suit) when suit v is void


@dataclass(slots=True)
class HandState:
    """The seat's concealed tiles (drawn tile included) and what it can infer about the rest."""

    counts: list[int]
    keys: list[int]
    melds: tuple[Meld, ...]
    n_melds: int
    meld_suits: int
    void: int  # declared void (定缺) or -1
    unseen: list[int]
    seen: list[int]  # visible copies outside the own hand and melds
    #: The parts a copy is counted in by ``unseen``: 1, or more for a bot that weighs the copies (the master's
    #: live copies, in thousandths); what reads a count as copies compares it with ``n * unit``.
    unit: int = 1

    @property
    def size(self) -> int:
        return sum(self.counts)

    def shanten(self) -> int:
        return shanten_keys(self.keys, self.n_melds, self.meld_suits, self.void)

    def shanten_with(self, n_melds: int, meld_suits: int) -> int:
        return shanten_keys(self.keys, n_melds, meld_suits, self.void)

    def remove(self, t: int, n: int = 1) -> None:
        self.counts[t] -= n
        self.keys[_SUIT[t]] -= n * _WEIGHT[t]

    def add(self, t: int, n: int = 1) -> None:
        self.counts[t] += n
        self.keys[_SUIT[t]] += n * _WEIGHT[t]

    def ukeire(self, current: int, n_melds: int | None = None, meld_suits: int | None = None) -> int:
        """Unseen copies of every tile that would lower the shanten of this (13 - 3k) hand below ``current``.

        This is the bots' innermost loop, so it reads the evaluator's pair table directly (layout documented
        in hand/tables.py): a drawn tile changes one suit's key, so only the kept-suit pairs holding that suit
        need a new lookup. ``tests/agents`` checks it against ``analysis.improvements``.
        """
        n = self.n_melds if n_melds is None else n_melds
        ms = self.meld_suits if meld_suits is None else meld_suits
        void = self.void
        keys = self.keys
        counts = self.counts
        unseen = self.unseen
        target = current + 1  # a distance below this lowers the shanten
        pairs = [_KEPT[v] for v in range(3) if not (ms >> v & 1) and (void < 0 or v == void)]
        total = 0
        for s in range(3):
            varying: list[tuple[bool, int]] = []
            for a, b in pairs:
                if a == s:
                    varying.append((True, _COL[keys[b]] + n))
                elif b == s:
                    varying.append((False, _ROW[keys[a]] + n))
            if not varying:
                continue
            ks = keys[s]
            first = 9 * s
            for r in range(9):
                t = first + r
                left = unseen[t]
                if left <= 0 or counts[t] >= 4:
                    continue
                k = ks + POW5[r]
                row = _ROW[k]
                col = _COL[k]
                for is_row, other in varying:
                    if _COMB[row + other if is_row else other + col] < target:
                        total += left
                        break
        return total

    def ukeire_slow(self, current: int) -> int:
        """The same as :meth:`ukeire` through the public int API (for tests)."""
        total = 0
        keys = self.keys
        for t in range(NUM_KINDS):
            left = self.unseen[t]
            if left <= 0 or self.counts[t] >= 4:
                continue
            keys[_SUIT[t]] += _WEIGHT[t]
            if shanten_keys(keys, self.n_melds, self.meld_suits, self.void) < current:
                total += left
            keys[_SUIT[t]] -= _WEIGHT[t]
        return total

    def useful(self, current: int) -> list[int]:
        """The tiles (indices) that would lower the shanten below ``current``, unseen copies or not."""
        out = []
        keys = self.keys
        for t in range(NUM_KINDS):
            if self.counts[t] >= 4:
                continue
            s = _SUIT[t]
            keys[s] += _WEIGHT[t]
            if shanten_keys(keys, self.n_melds, self.meld_suits, self.void) < current:
                out.append(t)
            keys[s] -= _WEIGHT[t]
        return out

    def suit_counts(self) -> list[int]:
        c = self.counts
        return [sum(c[0:9]), sum(c[9:18]), sum(c[18:27])]

    def claimed(self, t: int, kind: MeldKind) -> HandState:
        """A copy after claiming the discard t as a pung or an exposed kong: the copies held go to the meld, and
        the claimed copy is no longer unseen."""
        out = self.copy()
        out.remove(t, kind.size - 1)
        out.melds = (*self.melds, Meld(kind, t))
        out.n_melds += 1
        out.meld_suits |= 1 << (t // 9)
        out.unseen[t] = max(0, out.unseen[t] - self.unit)
        return out

    def copy(self) -> HandState:
        return HandState(
            list(self.counts),
            list(self.keys),
            self.melds,
            self.n_melds,
            self.meld_suits,
            self.void,
            list(self.unseen),
            list(self.seen),
            self.unit,
        )


def read_view(view: Observation) -> HandState:
    """The seat's hand and the tiles it can see, from its Observation (nothing beyond R12 is used)."""
    seat = view.seat
    counts = [0] * NUM_KINDS
    keys = [0, 0, 0]
    for tile in view.tiles:
        t = tile.index
        counts[t] += 1
        keys[_SUIT[t]] += _WEIGHT[t]
    own_melds = view.melds[seat]
    meld_suits = 0
    own = list(counts)
    for m in own_melds:
        meld_suits |= 1 << (m.tile_index // 9)
        own[m.tile_index] += m.size
    seen = visible_counts(view)  # a tile won by several seats at once is one tile (一炮多响)
    unseen = [max(0, 4 - own[t] - seen[t]) for t in range(NUM_KINDS)]
    void = view.voids[seat]
    return HandState(counts, keys, own_melds, len(own_melds), meld_suits, -1 if void is None else void, unseen, seen)
