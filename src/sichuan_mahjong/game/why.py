"""Why an action is not legal now: the tail of the engine's :class:`IllegalActionError` messages.

Read-only: these look at a :class:`~sichuan_mahjong.game.state.Game`'s state and never change it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sichuan_mahjong.game.actions import HU, Action, ActionKind
from sichuan_mahjong.tiles import SUITS, Tile

if TYPE_CHECKING:
    from sichuan_mahjong.game.state import Game

__all__ = ["describe", "why"]


def describe(game: Game, a: Action) -> str:
    """The action as the error names it: a claim with its tile."""
    if a.kind in (ActionKind.PUNG, ActionKind.KONG) and game._pending_tile >= 0:
        return f"{a} {Tile(game._pending_tile)}"
    return str(a)


def why(game: Game, s: int, a: Action) -> str:
    """A human reason why a is not legal for s now (the error message's tail)."""
    kind = a.kind
    phase = game._phase
    legal = game._pending.get(s, [])
    c = game._counts[s]
    if legal == [HU]:
        return "后4张必胡 (R9.2): with four tiles or fewer left in the wall a ready player must win"
    if phase in ("exchange", "void", "declare") and kind not in (ActionKind.EXCHANGE, ActionKind.VOID):
        return f"the hand is in its {phase} phase"
    if kind is ActionKind.EXCHANGE:
        return "换三张 passes three tiles of one suit that the player holds"
    if kind in (ActionKind.PUNG, ActionKind.KONG):
        if phase != "claim":
            return "there is no discard to claim"
        t = game._pending_tile
        if game._declared[s]:
            return "he has declared ready (报叫) and may only win"
        if t // 9 == game._voids[s]:
            return f"{Tile(t)} is of his declared void suit (R3.2)"
        if kind is ActionKind.KONG and not game.rules.kongs_pay:
            return f"mode {game.rules.mode} has no kongs (R5)"
        if game.wall_count == 0:
            return "the wall is empty"
        word = ("one", "two", "three", "four")
        return f"holds {word[c[t] - 1] if c[t] else 'no'} {Tile(t)}"
    if kind is ActionKind.HU:
        if game._lock[s] >= 0:
            return f"过水不胡 (R9.1): passed a {game._lock[s]}-fan win since his last draw"
        if game._just_punged:
            return "after a pung he must discard (R4.3)"
        return "the tiles do not make a winning hand"
    if kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        if not game.rules.kongs_pay:
            return f"mode {game.rules.mode} has no kongs (R5)"
        if phase != "play" or s != game._turn:
            return "it is not his turn"
        if game.wall_count == 0:
            return "no kong may be declared when the wall is empty (R9.7)"
        if game._declared[s]:
            return "he has declared ready (报叫): no kongs"
        if a.tile_index // 9 == game._voids[s]:
            return "it is his declared void suit (R3.2)"
        if kind is ActionKind.ADDED_KONG:
            return f"needs a pung of {a.tile} and the fourth in hand"
        return f"holds {c[a.tile_index]} {a.tile}"
    if kind is ActionKind.DISCARD:
        if phase != "play":
            return "it is not his turn to discard"
        t = a.tile_index
        if not c[t]:
            return f"does not hold {a.tile}"
        if game._declared[s]:
            return "he has declared ready (报叫) and must discard the drawn tile"
        if game._voids[s] >= 0 and t // 9 != game._voids[s]:
            return f"tiles of his void suit {SUITS[game._voids[s]]} go first (R3.2)"
    if kind is ActionKind.DECLARE_READY:
        return "报叫 is for a ready dealer before his first discard or a ready non-dealer after the deal (R9.6)"
    if kind is ActionKind.PASS and phase == "play":
        return "the player on turn must discard"
    return "not legal now; legal: " + ", ".join(map(str, legal[:12]))
