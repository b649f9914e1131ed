"""What the PettingZoo and Gymnasium environments share: spaces, the legal-action mask, checked actions, options.

The observation is ``{"observation": float32 (90, 27) planes of rl/encode.py, "action_mask": int8 (584,)}`` and
the action a ``Discrete(584)`` over the flat index of ``game/actions.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from sichuan_mahjong.game.actions import INDEX_BY_ID, NUM_ACTIONS, Action, IllegalActionError
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.encode import OBS_SHAPE, plane_bounds
from sichuan_mahjong.rules import Rules

__all__ = [
    "RENDER_MODES",
    "Obs",
    "action_space",
    "as_rules",
    "as_scale",
    "check_render_mode",
    "checked_action",
    "legal_mask",
    "observation_space",
]

Obs = dict[str, npt.NDArray[Any]]
RENDER_MODES: Final = ("human", "ansi")

#: Every action by its flat index (Action.from_index without its range check, done before).
_BY_INDEX: Final = tuple(Action.from_index(i) for i in range(NUM_ACTIONS))


def observation_space() -> spaces.Dict:
    low, high = plane_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, shape=OBS_SHAPE, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    return spaces.Discrete(NUM_ACTIONS)


def legal_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    """1 at the flat index of each legal action, 0 elsewhere (a writeable array over a fresh bytearray)."""
    mask = bytearray(NUM_ACTIONS)  # bytes are set faster than numpy cells; the array then shares them
    flat = INDEX_BY_ID
    for a in legal:
        i = flat.get(id(a))  # the engine's shared instances, by identity
        mask[a.index if i is None else i] = 1
    return np.frombuffer(mask, dtype=np.int8)


def checked_action(action: object, legal: Sequence[Action], who: str) -> Action:
    """The legal :class:`Action` at flat index ``action`` (an int or a numpy integer), or a clear error."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:  # the common case, checked first
        index = action
    else:
        try:
            index = int(action)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise IllegalActionError(f"{who}: an action is an int 0..{NUM_ACTIONS - 1}, got {action!r}") from None
        if not 0 <= index < NUM_ACTIONS or isinstance(action, bool):
            raise IllegalActionError(f"{who}: an action is an int 0..{NUM_ACTIONS - 1}, got {action!r}")
    a = _BY_INDEX[index]
    for x in legal:
        if x is a:
            return a
    shown = ", ".join(f"{x.index} ({x})" for x in legal[:12]) + (", ..." if len(legal) > 12 else "")
    raise IllegalActionError(f"{who} cannot {a} (action {index}) now; legal: {shown}")


def as_rules(rules: Rules | str) -> Rules:
    """A :class:`Rules` or a preset name (``"app"``, ``"seed"``, ...)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    raise TypeError(f"rules must be a Rules or a preset name, got {rules!r}")


def as_scale(reward_scale: float) -> float:
    scale = float(reward_scale)
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"reward_scale must be a positive finite number, got {reward_scale!r}")
    return scale


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
    return render_mode


def check_game(game: object) -> Game:
    """A game passed in ``reset(options={"game": ...})``: a :class:`Game` that is not over."""
    if not isinstance(game, Game):
        raise TypeError(f'options["game"] must be a sichuan_mahjong.Game, got {type(game).__name__}')
    if game.is_over:
        raise ValueError('options["game"] is a hand that is already over')
    return game
