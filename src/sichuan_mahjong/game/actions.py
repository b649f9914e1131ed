"""What a seat may answer when asked (docs/rules.md R3, R4, R9, R10), with a fixed flat index for RL.

Drawing is automatic and never an action. An :class:`Action` is a small frozen value; every action the engine
can ever offer is built once, so ``Action.parse(str(a)) is a`` and ``Action.from_index(a.index) is a``.

Flat index layout (``NUM_ACTIONS`` = 584). Tiles are 0..26: m 0-8, p 9-17, s 18-26.

=========  ===================  =========================================================================
index      text                 meaning
=========  ===================  =========================================================================
0-26       ``discard 5p``       discard that tile (R4.1)
27-53      ``concealed_kong 8p``  暗杠 of that tile (R4.1, R6.3)
54-80      ``added_kong 2s``    补杠: that tile onto one's own pung (R4.1, R6.2)
81         ``hu``               win: self-draw, on a discard, or robbing a kong (R4, R9.3)
82         ``pass``             decline every claim on a discard or a kong
83         ``pung``             碰 the pending discard (R4.2)
84         ``kong``             直杠 the pending discard (R4.2, R6.1)
85         ``declare_ready``    报叫 (R9.6)
86-88      ``void m|p|s``       定缺 that suit (R3.2)
89-583     ``exchange 123m``    换三张 (R10): 165 multisets of three ranks per suit, suit-major
                                (m 89-253, p 254-418, s 419-583), ranks in ``combinations_with_replacement``
                                order (111, 112, ..., 999)
=========  ===================  =========================================================================

>>> Action.parse("discard 5p").index
13
>>> str(Action.from_index(86))
'void m'
>>> Action.parse("exchange 1m2m3m")
Action.parse('exchange 123m')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import combinations_with_replacement
from typing import Final

from sichuan_mahjong.tiles import NUM_KINDS, SUITS, Tile, TileParseError, format_tiles, parse_tiles

__all__ = ["INDEX_BY_ID", "NUM_ACTIONS", "Action", "ActionKind", "ActionParseError", "IllegalActionError"]


class ActionKind(Enum):
    DISCARD = "discard"
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    HU = "hu"
    PASS = "pass"
    PUNG = "pung"
    KONG = "kong"
    DECLARE_READY = "declare_ready"
    VOID = "void"
    EXCHANGE = "exchange"


class ActionParseError(ValueError):
    """Action text that does not read as an action, e.g. ``"chow"`` or ``"discard"`` without a tile."""


class IllegalActionError(ValueError):
    """An answer the rules do not allow now (or a missing or extra answer); the game state is unchanged."""


@dataclass(frozen=True, slots=True)
class Action:
    """One answer. ``tile_index`` for discard and the kongs, ``suit_index`` for void, ``exchange`` the three tiles."""

    kind: ActionKind
    tile_index: int = -1
    suit_index: int = -1
    exchange: tuple[int, ...] = ()

    # -- constructors returning the shared instances
    @staticmethod
    def discard(tile: Tile | int) -> Action:
        return _BY_INDEX[int(tile)]

    @staticmethod
    def concealed_kong(tile: Tile | int) -> Action:
        return _BY_INDEX[27 + int(tile)]

    @staticmethod
    def added_kong(tile: Tile | int) -> Action:
        return _BY_INDEX[54 + int(tile)]

    @staticmethod
    def void(suit: int | str) -> Action:
        s = SUITS.index(suit) if isinstance(suit, str) else suit
        return _BY_INDEX[86 + s]

    @staticmethod
    def exchange_of(tiles: tuple[int, ...] | list[int]) -> Action:
        key = tuple(sorted(int(t) for t in tiles))
        try:
            return _EXCHANGE[key]
        except KeyError:
            raise ActionParseError(f"an exchange is three tiles of one suit, got {format_tiles(key)}") from None

    @staticmethod
    def from_index(index: int) -> Action:
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action index must be 0..{NUM_ACTIONS - 1}, got {index}")
        return _BY_INDEX[index]

    @staticmethod
    def parse(text: str) -> Action:
        """Read ``"discard 5p"``, ``"hu"``, ``"pass"``, ``"pung"``, ``"kong"``, ``"concealed_kong 8p"``,
        ``"added_kong 2s"``, ``"declare_ready"``, ``"void m"``, ``"exchange 1m2m3m"``."""
        if not isinstance(text, str):
            raise ActionParseError(f"an action is text, got {type(text).__name__}")
        canonical = _BY_TEXT.get(text)  # the text str(action) writes, as every record and replay holds it
        if canonical is not None:
            return canonical
        parts = text.split(None, 1)
        if not parts:
            raise ActionParseError("empty action text")
        word = parts[0].lower()
        arg = parts[1].strip() if len(parts) > 1 else ""
        simple = _SIMPLE.get(word)
        if simple is not None:
            if arg:
                raise ActionParseError(f"{word!r} takes no argument, got {text!r}")
            return simple
        try:
            kind = ActionKind(word)
        except ValueError:
            known = ", ".join(k.value for k in ActionKind)
            raise ActionParseError(f"unknown action {word!r} in {text!r}; known: {known}") from None
        if not arg:
            raise ActionParseError(f"{word!r} needs an argument, got {text!r}")
        try:
            if kind is ActionKind.VOID:
                if arg not in SUITS or len(arg) != 1:
                    raise ActionParseError(f"void takes a suit m, p or s, got {arg!r}")
                return Action.void(arg)
            if kind is ActionKind.EXCHANGE:
                return Action.exchange_of([t.index for t in parse_tiles(arg)])
            tile = Tile.from_str(arg)
        except TileParseError as exc:
            raise ActionParseError(f"bad tile in {text!r}: {exc}") from None
        if kind is ActionKind.DISCARD:
            return Action.discard(tile)
        if kind is ActionKind.CONCEALED_KONG:
            return Action.concealed_kong(tile)
        return Action.added_kong(tile)

    @property
    def tile(self) -> Tile | None:
        return Tile(self.tile_index) if self.tile_index >= 0 else None

    @property
    def index(self) -> int:
        i = INDEX_BY_ID.get(id(self))  # the shared instance, without hashing the dataclass
        return _INDEX_OF[self] if i is None else i

    def __str__(self) -> str:
        text = _TEXT_BY_ID.get(id(self))
        return _TEXT_OF[self] if text is None else text

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"

    def __reduce__(self) -> tuple[Callable[[int], Action], tuple[int]]:
        """Copies and pickles come back as the shared instance: the engine compares answers by identity, so a
        deep copy of a :class:`~sichuan_mahjong.game.state.Game` must keep them (else a copied game's claims
        would resolve as passes)."""
        return (Action.from_index, (self.index,))


def _build() -> tuple[list[Action], dict[tuple[int, ...], Action]]:
    table: list[Action] = [Action(ActionKind.DISCARD, t) for t in range(NUM_KINDS)]
    table += [Action(ActionKind.CONCEALED_KONG, t) for t in range(NUM_KINDS)]
    table += [Action(ActionKind.ADDED_KONG, t) for t in range(NUM_KINDS)]
    table += [Action(k) for k in (ActionKind.HU, ActionKind.PASS, ActionKind.PUNG, ActionKind.KONG)]
    table.append(Action(ActionKind.DECLARE_READY))
    table += [Action(ActionKind.VOID, suit_index=s) for s in range(3)]
    exchange: dict[tuple[int, ...], Action] = {}
    for suit in range(3):
        for ranks in combinations_with_replacement(range(9), 3):
            key = tuple(suit * 9 + r for r in ranks)
            action = Action(ActionKind.EXCHANGE, exchange=key)
            exchange[key] = action
            table.append(action)
    return table, exchange


def _text(action: Action) -> str:
    kind = action.kind
    if kind in (ActionKind.DISCARD, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        return f"{kind.value} {Tile(action.tile_index)}"
    if kind is ActionKind.VOID:
        return f"void {SUITS[action.suit_index]}"
    if kind is ActionKind.EXCHANGE:
        return f"exchange {format_tiles(action.exchange)}"
    return str(kind.value)


_BY_INDEX, _EXCHANGE = _build()
NUM_ACTIONS: Final = len(_BY_INDEX)
_INDEX_OF: Final = {a: i for i, a in enumerate(_BY_INDEX)}
_TEXT_OF: Final = {a: _text(a) for a in _BY_INDEX}
# The same, keyed by the identity of the shared instances (alive as long as the module, so ids never recur).
#: The flat index of each shared instance, by identity: the fast path of ``Action.index`` and the RL mask.
INDEX_BY_ID: Final = {id(a): i for i, a in enumerate(_BY_INDEX)}
_TEXT_BY_ID: Final = {id(a): _TEXT_OF[a] for a in _BY_INDEX}
_BY_TEXT: Final = {text: a for a, text in _TEXT_OF.items()}
_SIMPLE: Final = {
    a.kind.value: a
    for a in _BY_INDEX
    if a.kind in (ActionKind.HU, ActionKind.PASS, ActionKind.PUNG, ActionKind.KONG, ActionKind.DECLARE_READY)
}
HU: Final = _SIMPLE["hu"]
PASS: Final = _SIMPLE["pass"]
PUNG: Final = _SIMPLE["pung"]
KONG: Final = _SIMPLE["kong"]
DECLARE_READY: Final = _SIMPLE["declare_ready"]
