"""Fan (番) of a winning hand: the shapes and bonuses of docs/rules.md R7 and the house extras of R10.

Each pattern is one small definition below, registered with its id, Chinese and English names and fan:
a reader finds 清对 in one place. A hand can often be read several ways (``111222333m`` is three pungs or
three runs); every reading is scored and the best one kept.

>>> from sichuan_mahjong.tiles import parse_tiles
>>> s = score_hand(parse_tiles("11223344556677m"), Tile.from_str("7m"))
>>> s.fan, s.multiplier, [p.id for p in s.patterns]
(4, 16, ['qingqidui'])
>>> print(score_hand(parse_tiles("123333m45566799s"), Tile.from_str("9s")))
平胡 0番 + 根 1番 = 1番 ×2
Basic hand 0 + Root 1 = 1 fan ×2
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from sichuan_mahjong.hand.analysis import waits
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.tiles import NUM_KINDS, Tile, TileLike, counts_of, format_tiles, tiles_of_counts, to_index

__all__ = [
    "PATTERNS",
    "NotWinningError",
    "Pattern",
    "PatternInfo",
    "Reading",
    "Score",
    "WinContext",
    "own_fan_rules",
    "readings",
    "score_hand",
    "value_of_ready_hand",
]


class NotWinningError(ValueError):
    """The tiles given do not make a winning hand; the message says why (e.g. three suits, 缺一门)."""


# ---------------------------------------------------------------------------------------------- readings


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand: its sets (melds included) and pair, or seven pairs.

    ``sets`` holds ``("run", first_tile)``, ``("pung", tile)`` or ``("kong", tile)``; a concealed
    pung read from the hand is a pung even when the fourth copy is also in hand.
    """

    sets: tuple[tuple[str, int], ...]
    pair: int
    seven_pairs: bool
    counts: tuple[int, ...]  # all 27 counts: concealed tiles and melds together
    melds: tuple[Meld, ...]

    @property
    def suits(self) -> frozenset[int]:
        return frozenset(i // 9 for i, n in enumerate(self.counts) if n)

    @property
    def one_suit(self) -> bool:
        return len(self.suits) == 1

    @property
    def all_pungs(self) -> bool:
        return not self.seven_pairs and all(kind != "run" for kind, _ in self.sets)

    @property
    def quads(self) -> int:
        """Four-of-a-kinds among all the winner's tiles: kongs, pung + fourth, four in hand (根)."""
        return sum(1 for n in self.counts if n == 4)

    def set_tiles(self) -> Iterator[tuple[int, ...]]:
        """The tile indices of each set and of the pair, for shape tests over every group."""
        for kind, t in self.sets:
            yield (t, t + 1, t + 2) if kind == "run" else (t,)
        yield (self.pair,)


def readings(concealed: Sequence[int], melds: Sequence[Meld] = ()) -> list[Reading]:
    """Every reading of a hand given as 27 concealed counts (win tile included) plus melds.

    Empty when the hand is not complete. 缺一门 is not checked here; score_hand does that.
    """
    total = list(concealed)
    for meld in melds:
        total[meld.tile_index] += meld.size
    counts = tuple(total)
    meld_sets = tuple(("kong" if m.is_kong else "pung", m.tile_index) for m in melds)
    out: list[Reading] = []
    if sum(concealed) != 14 - 3 * len(melds):
        return out
    if not melds and all(n % 2 == 0 for n in concealed):
        first_pair = next(i for i, n in enumerate(concealed) if n)
        out.append(Reading((), first_pair, True, counts, tuple(melds)))
    work = list(concealed)
    for pair in range(NUM_KINDS):
        if work[pair] >= 2:
            work[pair] -= 2
            for sets in _sets_of(work, 0):
                out.append(Reading(meld_sets + tuple(sets), pair, False, counts, tuple(melds)))
            work[pair] += 2
    return out


def _sets_of(work: list[int], start: int) -> Iterator[list[tuple[str, int]]]:
    """All ways to split ``work`` (mutated and restored) into pungs and runs, leftmost tile first."""
    i = start
    while i < NUM_KINDS and work[i] == 0:
        i += 1
    if i == NUM_KINDS:
        yield []
        return
    if work[i] >= 3:
        work[i] -= 3
        for rest in _sets_of(work, i):
            yield [("pung", i), *rest]
        work[i] += 3
    if i % 9 <= 6 and work[i + 1] and work[i + 2]:
        for k in (i, i + 1, i + 2):
            work[k] -= 1
        for rest in _sets_of(work, i):
            yield [("run", i), *rest]
        for k in (i, i + 1, i + 2):
            work[k] += 1


# ---------------------------------------------------------------------------------------------- patterns


@dataclass(frozen=True, slots=True)
class PatternInfo:
    id: str
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class Pattern:
    """One line of a score's breakdown."""

    id: str
    zh: str
    en: str
    fan: int


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the hand was won, beside its tiles."""

    win_tile: int
    self_draw: bool = False
    kong_flower: int = 0  # kongs in the unbroken chain before a win on the replacement (杠上花, 每杠+1番)
    kong_shot: int = 0  # kongs in the discarder's chain before the discard won on (杠上炮)
    robbed_kong: bool = False
    declared_ready: bool = False
    heaven: bool = False
    earth: bool = False
    last_tile: bool = False


PATTERNS: Final[dict[str, PatternInfo]] = {}
ShapeTest = Callable[[Reading], bool]
BonusFan = Callable[[Reading, WinContext, Rules], int]
_SHAPES: list[tuple[PatternInfo, int, ShapeTest]] = []
_BONUSES: list[tuple[PatternInfo, BonusFan]] = []
_EXTRAS: list[tuple[PatternInfo, BonusFan]] = []  # R10 extra_fans: counted only when the rules list them


def _info(pattern_id: str, zh: str, en: str) -> PatternInfo:
    info = PatternInfo(pattern_id, zh, en)
    PATTERNS[pattern_id] = info
    return info


def shape(pattern_id: str, zh: str, en: str, fan: int) -> Callable[[ShapeTest], ShapeTest]:
    """Register a shape (R7 first table): only the best one that fits a reading counts."""

    def register(test: ShapeTest) -> ShapeTest:
        _SHAPES.append((_info(pattern_id, zh, en), fan, test))
        return test

    return register


def bonus(pattern_id: str, zh: str, en: str, *, extra: bool = False) -> Callable[[BonusFan], BonusFan]:
    """Register a bonus (R7 second table, or an R10 extra): its function returns the fan it adds, 0 if none."""

    def register(fan_of: BonusFan) -> BonusFan:
        (_EXTRAS if extra else _BONUSES).append((_info(pattern_id, zh, en), fan_of))
        return fan_of

    return register


def _terminal_groups(r: Reading) -> bool:
    return all(any(t % 9 in (0, 8) for t in group) for group in r.set_tiles())


def _two_five_eight(r: Reading) -> bool:
    return all(t % 9 in (1, 4, 7) for group in r.set_tiles() for t in group)


# R7 shapes, lowest first. The source gives combined shapes their own values; they are not sums.
@shape("pinghu", "平胡", "Basic hand", 0)
def _pinghu(r: Reading) -> bool:
    return not r.seven_pairs


@shape("duiduihu", "对子胡", "All pungs", 1)
def _duiduihu(r: Reading) -> bool:
    return r.all_pungs


@shape("qingyise", "清一色", "One suit", 2)
def _qingyise(r: Reading) -> bool:
    return r.one_suit and not r.seven_pairs


@shape("qidui", "七对", "Seven pairs", 2)
def _qidui(r: Reading) -> bool:
    return r.seven_pairs


@shape("yaojiu", "幺九", "Terminals in every set", 2)
def _yaojiu(r: Reading) -> bool:
    return not r.seven_pairs and _terminal_groups(r)


@shape("qingdui", "清对", "One-suit all pungs", 3)
def _qingdui(r: Reading) -> bool:
    return r.one_suit and r.all_pungs


@shape("jiangdui", "将对", "All pungs of 2, 5, 8", 3)
def _jiangdui(r: Reading) -> bool:
    return r.all_pungs and _two_five_eight(r)


@shape("longqidui", "龙七对", "Seven pairs with a four of a kind", 4)
def _longqidui(r: Reading) -> bool:
    return r.seven_pairs and r.quads > 0


@shape("qingqidui", "清七对", "One-suit seven pairs", 4)
def _qingqidui(r: Reading) -> bool:
    return r.seven_pairs and r.one_suit


@shape("qingyaojiu", "清幺九", "One-suit terminals", 4)
def _qingyaojiu(r: Reading) -> bool:
    return r.one_suit and _yaojiu(r)


@shape("qinglongqidui", "清龙七对", "One-suit seven pairs with a four of a kind", 5)
def _qinglongqidui(r: Reading) -> bool:
    return _longqidui(r) and r.one_suit


# R7 bonuses.
@bonus("gen", "根", "Root")
def _gen(r: Reading, ctx: WinContext, rules: Rules) -> int:
    # The quad that makes 龙七对 / 清龙七对 is part of the shape and does not count again.
    return r.quads - (1 if r.seven_pairs and r.quads else 0)


# 「每杠+1番」: each kong of an unbroken chain (杠上杠) before the win counts.
@bonus("gangshanghua", "杠上花", "Win on a kong's replacement tile")
def _gangshanghua(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return rules.kong_flower_fan * ctx.kong_flower


@bonus("gangshangpao", "杠上炮", "Win on the discard after a kong")
def _gangshangpao(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return ctx.kong_shot


@bonus("qiangganghu", "抢杠胡", "Robbing a kong")
def _qiangganghu(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return rules.robbing_kong_fan if ctx.robbed_kong else 0


@bonus("baojiao", "报叫", "Declared ready")
def _baojiao(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 2 if ctx.declared_ready else 0


@bonus("tianhu", "天胡", "Heavenly hand")
def _tianhu(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 5 if ctx.heaven else 0


@bonus("dihu", "地胡", "Earthly hand")
def _dihu(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 5 if ctx.earth else 0


@bonus("zimo", "自摸加番", "Self-draw")
def _zimo(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if ctx.self_draw and rules.self_draw_bonus == "fan" else 0


# R10 house extras, counted only when listed in rules.extra_fans.
@bonus("jingoudiao", "金钩钓", "Single wait after four melds", extra=True)
def _jingoudiao(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if len(r.melds) == 4 else 0


@bonus("haidilaoyue", "海底捞月", "Self-draw on the last tile", extra=True)
def _haidilaoyue(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if ctx.last_tile and ctx.self_draw else 0


@bonus("haidipao", "海底炮", "Win on the discard after the last tile", extra=True)
def _haidipao(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if ctx.last_tile and not ctx.self_draw else 0


@bonus("menqing", "门清", "Concealed hand", extra=True)
def _menqing(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if all(m.is_concealed for m in r.melds) else 0


@bonus("zhongzhang", "中张", "No 1 or 9", extra=True)
def _zhongzhang(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 1 if all(n == 0 or i % 9 not in (0, 8) for i, n in enumerate(r.counts)) else 0


@bonus("shibaluohan", "十八罗汉", "Four kongs", extra=True)
def _shibaluohan(r: Reading, ctx: WinContext, rules: Rules) -> int:
    return 2 if sum(m.is_kong for m in r.melds) == 4 else 0


# ---------------------------------------------------------------------------------------------- scores


@dataclass(frozen=True, slots=True)
class Score:
    """The value of a win: ``fan`` after the cap, ``multiplier = 2**fan``, and the breakdown."""

    fan: int
    raw_fan: int
    patterns: tuple[Pattern, ...]
    reading: Reading

    @property
    def multiplier(self) -> int:
        return 1 << self.fan

    @property
    def capped(self) -> bool:
        return self.fan < self.raw_fan

    def describe(self, lang: str = "zh") -> str:
        zh = lang == "zh"
        parts = [f"{p.zh} {p.fan}番" if zh else f"{p.en} {p.fan}" for p in self.patterns]
        total = f"{self.fan}番" if zh else f"{self.fan} fan"
        cap = (f"（封顶，原{self.raw_fan}番）" if zh else f" (capped from {self.raw_fan})") if self.capped else ""
        return f"{' + '.join(parts)} = {total}{cap} ×{self.multiplier}"

    def to_dict(self) -> dict[str, object]:
        return {
            "fan": self.fan,
            "multiplier": self.multiplier,
            "patterns": [{"id": p.id, "zh": p.zh, "en": p.en, "fan": p.fan} for p in self.patterns],
        }

    def __str__(self) -> str:
        return f"{self.describe('zh')}\n{self.describe('en')}"


def _evaluate(reading: Reading, ctx: WinContext, rules: Rules) -> tuple[int, list[Pattern]]:
    info, fan, _ = max((s for s in _SHAPES if s[2](reading)), key=lambda s: s[1])
    patterns = [Pattern(info.id, info.zh, info.en, fan)]
    extras = [(i, f) for i, f in _EXTRAS if i.id in rules.extra_fans]
    for info, fan_of in (*_BONUSES, *extras):
        added = fan_of(reading, ctx, rules)
        if added:
            patterns.append(Pattern(info.id, info.zh, info.en, added))
    return sum(p.fan for p in patterns), patterns


def score_hand(
    tiles: Iterable[TileLike],
    win_tile: TileLike,
    melds: Sequence[Meld] = (),
    *,
    self_draw: bool = False,
    kong_flower: bool | int = False,
    kong_shot: bool | int = False,
    robbed_kong: bool = False,
    declared_ready: bool = False,
    heaven: bool = False,
    earth: bool = False,
    last_tile: bool = False,
    rules: Rules | None = None,
) -> Score:
    """Score a win. ``tiles`` are the concealed tiles including ``win_tile`` (14 - 3 per meld).

    ``kong_flower`` / ``kong_shot`` count the kongs made one after another before the win (杠上杠: 每杠+1番);
    True is one kong. 杠上花, 天胡 and 地胡 are self-draws by nature, so they imply ``self_draw``;
    ``last_tile`` means the win was on the wall's last tile (self-draw: 海底捞月) or the discard after it (海底炮).
    Raises NotWinningError when the tiles do not win.
    """
    rules = rules or Rules()
    kong_flower = _kong_count("kong_flower", kong_flower)
    kong_shot = _kong_count("kong_shot", kong_shot)
    concealed = counts_of(tiles)
    win = to_index(win_tile)
    self_draw = self_draw or bool(kong_flower) or heaven or earth
    if self_draw and (kong_shot or robbed_kong):
        raise ValueError("a self-draw cannot also be a win on a discard (kong shot) or a robbed kong")
    _check_hand(concealed, win, melds)
    found = readings(concealed, melds)
    if not found:
        raise NotWinningError(
            f"{_describe(concealed, melds)} is not a complete hand (four sets and a pair, or seven pairs)"
        )
    ctx = WinContext(win, self_draw, kong_flower, kong_shot, robbed_kong, declared_ready, heaven, earth, last_tile)
    best_fan, best_patterns, best_reading = max(
        ((*_evaluate(r, ctx, rules), r) for r in found), key=lambda item: item[0]
    )
    return Score(rules.cap(best_fan), best_fan, tuple(best_patterns), best_reading)


def _kong_count(name: str, value: bool | int) -> int:
    """A chain of kongs as a count: False 0, True 1, or 0..4 (a player makes at most four kongs)."""
    if not isinstance(value, int) or not 0 <= value <= 4:
        raise ValueError(f"{name} counts the kongs in a row before the win: True or 0..4, got {value!r}")
    return int(value)


@lru_cache(maxsize=64)
def own_fan_rules(rules: Rules) -> Rules:
    """The rules a hand's own fan (叫牌番数) is counted under: shape + roots + 报叫, capped, no house extra.

    Used by 查叫 (R9.5) and 过水不胡 (R9.1), which value the hand on a tile, not the moment it is won at; score
    under these rules with no situational flag (self-draw, kong, robbing, last tile).
    """
    return rules.replace(extra_fans=frozenset(), self_draw_bonus="none")


def value_of_ready_hand(
    tiles: Iterable[TileLike],
    melds: Sequence[Meld] = (),
    rules: Rules | None = None,
    *,
    declared_ready: bool = False,
    highest: bool = False,
) -> Score | None:
    """The score 查叫 charges for a ready hand (R9.5): its lowest-fan wait, or highest with 查大叫.

    Counted as a win on a discard from shape + roots + 报叫 only, capped by max_fan. None when the hand is
    not ready; a wait whose four copies the player already holds does not count.
    """
    rules = own_fan_rules(rules or Rules())
    concealed = counts_of(tiles)
    if sum(concealed) != 13 - 3 * len(melds):
        raise ValueError(
            f"a ready hand has {13 - 3 * len(melds)} concealed tiles with {len(melds)} melds, got {sum(concealed)}"
        )
    scores: list[Score] = []
    for wait in waits(tiles_of_counts(concealed), melds):  # never a tile the hand and its melds hold four of
        concealed[wait.index] += 1
        scores.append(_score_counts(concealed, wait.index, melds, declared_ready, rules))
        concealed[wait.index] -= 1
    if not scores:
        return None
    pick = max if highest else min
    return pick(scores, key=lambda s: (s.fan, s.raw_fan))


def _score_counts(concealed: list[int], win: int, melds: Sequence[Meld], declared_ready: bool, rules: Rules) -> Score:
    tiles = [i for i, n in enumerate(concealed) for _ in range(n)]
    return score_hand(tiles, win, melds, declared_ready=declared_ready, rules=rules)


def _check_hand(concealed: list[int], win: int, melds: Sequence[Meld]) -> None:
    need = 14 - 3 * len(melds)
    have = sum(concealed)
    if len(melds) > 4:
        raise ValueError(f"a hand has at most four melds, got {len(melds)}")
    if have != need:
        raise NotWinningError(f"a winning hand with {len(melds)} meld(s) has {need} concealed tiles, got {have}")
    if not concealed[win]:
        raise ValueError(f"the winning tile {Tile(win)} is not among the hand's tiles")
    total = list(concealed)
    for meld in melds:
        total[meld.tile_index] += meld.size
    for i, n in enumerate(total):
        if n > 4:
            raise ValueError(f"{n} copies of {Tile(i)} between the hand and its melds: at most 4")
    suits = sorted({i // 9 for i, n in enumerate(total) if n})
    if len(suits) > 2:
        raise NotWinningError(
            f"{_describe(concealed, melds)} holds three suits: a winning hand must lack one suit (缺一门)"
        )


def _describe(concealed: Sequence[int], melds: Sequence[Meld]) -> str:
    text = format_tiles(i for i, n in enumerate(concealed) for _ in range(n))
    return text + "".join(f" [{m}]" for m in melds)
