"""The rule set: a mode (docs/rules.md R5) plus every option of R2-R10, as one frozen value.

Defaults are the source as written (preset ``seed``). Options are data; the code that reads each one is
named in its comment, so a reader can follow an option to where it acts.

>>> Rules.preset("app").max_fan
4
>>> Rules().replace(max_fan=3).max_fan
3
>>> Rules().replace(bogus=1)
Traceback (most recent call last):
...
sichuan_mahjong.rules.RulesError: unknown option 'bogus'; known options: mode, dealer_after_draw, ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, get_args, get_type_hints

__all__ = ["EXTRA_FANS", "MODES", "PRESETS", "Rules", "RulesError"]

MODES: Final = ("standard", "standard_kong", "bloody", "bloody_kong")
#: House extra bonuses of R10 ``extra_fans`` (pattern ids; see scoring.py).
EXTRA_FANS: Final = frozenset({"jingoudiao", "haidilaoyue", "haidipao", "menqing", "zhongzhang", "shibaluohan"})
EXCHANGE_DIRECTIONS: Final = ("clockwise", "counterclockwise", "across", "dice")

_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "mode": MODES,
    "dealer_after_draw": ("stay", "next"),
    "self_draw_bonus": ("none", "base", "fan"),
    "kong_flower_fan": (1, 2),
    "kong_flower_payer": ("self_draw", "discarder"),
    "exchange_direction": EXCHANGE_DIRECTIONS,
}


class RulesError(ValueError):
    """An unknown option or a value an option does not take."""


def _shown(value: object) -> str:
    """A value as an error message quotes it: its repr, cut to a short excerpt (input can be any size)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that varies between tables. Build with :meth:`preset` and :meth:`replace`."""

    mode: str = "bloody_kong"  # R5: kongs pay (下雨) and/or play on after a win (血战)
    dealer_after_draw: str = "stay"  # R2.5: who deals after a hand nobody won
    declare_void: bool = False  # R3.2 定缺
    declare_ready: bool = True  # R9.6 报叫
    max_fan: int | None = None  # R7 封顶
    self_draw_bonus: str = "none"  # R7 自摸加底 / 自摸加番
    kong_flower_fan: int = 1  # R7 杠上花, per kong of the chain before the win
    robbing_kong_fan: int = 0  # R7 抢杠: not in the source's fan table (0), common practice in apps (1)
    check_max: bool = False  # R9.5 查大叫 instead of 查小叫
    exchange_three: bool = False  # R10 换三张
    exchange_direction: str = "dice"  # R10 换三张 direction
    flower_pig: bool = False  # R10 查花猪
    flower_pig_fan: int = 4  # R10 查花猪 when there is no cap
    kong_shot_transfer: bool = False  # R10 呼叫转移
    kong_flower_payer: str = "self_draw"  # R10 点杠花
    extra_fans: frozenset[str] = field(default_factory=frozenset)  # R10 house bonuses

    def __post_init__(self) -> None:
        for name in _FLAGS:  # a flag is True or False, not a truthy "yes" a record or a caller slipped in
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name}={_shown(getattr(self, name))} must be true or false")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or value not in choices:
                shown = ", ".join(map(str, choices))
                raise RulesError(f"option {name}={_shown(value)} is not one of: {shown}")
        if self.max_fan is not None and (
            isinstance(self.max_fan, bool) or not isinstance(self.max_fan, int) or self.max_fan < 0
        ):
            raise RulesError(f"option max_fan={_shown(self.max_fan)} must be a non-negative integer or None")
        for name in ("robbing_kong_fan", "flower_pig_fan"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(f"option {name}={_shown(value)} must be a non-negative integer")
        if isinstance(self.extra_fans, str) or not all(isinstance(f, str) for f in self.extra_fans):
            raise RulesError(f"option extra_fans={_shown(self.extra_fans)} must be a set of names")
        if not isinstance(self.extra_fans, frozenset):
            object.__setattr__(self, "extra_fans", frozenset(self.extra_fans))
        unknown = self.extra_fans - EXTRA_FANS
        if unknown:
            raise RulesError(
                f"unknown extra fan {_shown(sorted(unknown)[0])}; known extra fans: {', '.join(sorted(EXTRA_FANS))}"
            )

    # -- the mode, read as its two switches (R5)
    @property
    def kongs_pay(self) -> bool:
        """下雨: kongs are declared and paid for as they happen."""
        return self.mode in ("standard_kong", "bloody_kong")

    @property
    def bloody(self) -> bool:
        """血战: a winner leaves and the others play on."""
        return self.mode in ("bloody", "bloody_kong")

    def cap(self, fan: int) -> int:
        """The fan after the 封顶 cap."""
        return fan if self.max_fan is None else min(fan, self.max_fan)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """``seed`` (the source, bloody_kong), a mode name, or ``app`` (common Chengdu app rules)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {_shown(name)}; presets: {', '.join(PRESETS)}") from None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; an unknown option raises :class:`RulesError` naming it."""
        names = [f.name for f in dataclasses.fields(self)]
        for key in changes:
            if key not in names:
                raise RulesError(f"unknown option {_shown(key)}; known options: {', '.join(names)}")
        return dataclasses.replace(self, **changes)

    def with_options(self, options: Mapping[str, str]) -> Rules:
        """A copy with options given as text, as on the command line (``max_fan=4``, ``extra_fans=a,b``)."""
        return self.replace(**{key: _parse_option(key, text) for key, text in options.items()})

    def to_dict(self) -> dict[str, object]:
        out = {name: getattr(self, name) for name in _FIELD_NAMES}
        out["extra_fans"] = sorted(self.extra_fans)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        return cls().replace(**dict(data))


_FIELD_NAMES: Final = tuple(f.name for f in dataclasses.fields(Rules))


def _parse_option(key: str, text: str) -> object:
    hints = get_type_hints(Rules)
    if key not in hints:
        names = ", ".join(f.name for f in dataclasses.fields(Rules))
        raise RulesError(f"unknown option {_shown(key)}; known options: {names}")
    kind = hints[key]
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if kind is int:
            return int(text)
        if int in get_args(kind):  # int | None
            return None if text.strip().lower() in ("none", "", "off") else int(text)
        if key == "extra_fans":
            return frozenset(p.strip() for p in text.split(",") if p.strip())
    except ValueError:
        raise RulesError(f"option {key}={_shown(text)}: expected {getattr(kind, '__name__', kind)}") from None
    return text


_FLAGS: Final = tuple(f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool))
_SEED = Rules()
PRESETS: Final[dict[str, Rules]] = {
    "seed": _SEED,
    **{mode: _SEED.replace(mode=mode) for mode in MODES},
    "app": _SEED.replace(
        mode="bloody_kong",
        declare_void=True,
        exchange_three=True,
        exchange_direction="dice",
        self_draw_bonus="base",
        max_fan=4,
        check_max=True,
        flower_pig=True,
        kong_shot_transfer=True,
        robbing_kong_fan=1,
    ),
}
