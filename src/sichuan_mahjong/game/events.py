"""The event log: every change of a hand's state is one :class:`Event` (docs/design.md; chance is an event).

An event is ``type``, ``seat`` (-1 when no seat acts) and JSON-native ``data``; tiles are written in notation
(``"5p"``), so a hand saves as JSON Lines of ``Event.to_dict()`` and :meth:`Game.replay` rebuilds it.

Types (docs/engine.md lists their fields): ``deal`` (everything chance decided: hands, wall in draw order,
dice, seed; private), ``act`` (one seat's answer, the input replay re-applies; private to that seat),
``exchange``, ``voids``, ``ready``, ``draw``, ``discard``, ``pung``, ``kong``, ``concealed_kong``,
``added_kong``, ``robbed``, ``win``, ``payment``, ``end``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sichuan_mahjong.tiles import NUM_KINDS, Tile

__all__ = ["TILE_TEXT", "Event", "tiles_of_text", "tiles_text"]

#: ``TILE_TEXT[i] == str(Tile(i))``, looked up on the hot path.
TILE_TEXT: Final = tuple(str(Tile(i)) for i in range(NUM_KINDS))
_INDEX_OF_TEXT: Final = {text: i for i, text in enumerate(TILE_TEXT)}


def tiles_text(tiles: Iterable[int]) -> str:
    """Tiles one by one in the given order (``"1m1m5p"``): the wall's order matters, so no grouping."""
    return "".join(TILE_TEXT[t] for t in tiles)


def tiles_of_text(text: str) -> list[int] | None:
    """The inverse of :func:`tiles_text` (``"1m1m5p"`` -> ``[0, 0, 13]``), or None when text is not in that form."""
    if not isinstance(text, str) or len(text) % 2:
        return None
    try:
        return [_INDEX_OF_TEXT[text[i : i + 2]] for i in range(0, len(text), 2)]
    except KeyError:
        return None


@dataclass(frozen=True, slots=True)
class Event:
    """One change of state. ``data`` must stay JSON-native (str, int, bool, None, lists, dicts)."""

    type: str
    seat: int
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, **self.data}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Event:
        data = {k: v for k, v in raw.items() if k not in ("type", "seat")}
        return cls(str(raw["type"]), int(raw["seat"]), data)
