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

from sichuan_mahjong.game.actions import INDEX_BY_ID, NUM_ACTIONS, PASS, Action, IllegalActionError
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.rl.encode import OBS_SHAPE, plane_bounds
from sichuan_mahjong.rules import Rules

__all__ = [
    "RENDER_MODES",
    "RESET_OPTIONS",
    "Obs",
    "action_index",
    "action_space",
    "as_rules",
    "as_scale",
    "check_render_mode",
    "checked_action",
    "flat_obs",
    "flat_space",
    "game_from_options",
    "idle_mask",
    "legal_mask",
    "observation_space",
]

Obs = dict[str, npt.NDArray[Any]]
RENDER_MODES: Final = ("human", "ansi")

#: Every action by its flat index (Action.from_index without its range check, done before).
_BY_INDEX: Final = tuple(Action.from_index(i) for i in range(NUM_ACTIONS))


def flat_space(space: spaces.Dict) -> spaces.Box:
    """The ``flatten=True`` observation: Gymnasium's own ``flatten_space`` of the Dict (the mask's 584 cells, then
    the 90 × 27 planes, as float32), every bound finite."""
    flat = spaces.flatten_space(space)
    assert isinstance(flat, spaces.Box)
    return flat


def flat_obs(space: spaces.Dict, obs: Obs) -> npt.NDArray[np.float32]:
    """``gymnasium.spaces.flatten(space, obs)``: one float32 vector."""
    return np.asarray(spaces.flatten(space, obs), dtype=np.float32)


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
    """The legal :class:`Action` at flat index ``action`` or a clear error.

    An action is an ``int`` or a numpy integer (a one-element integer array too, as policies return them); a
    ``str``, ``float`` or ``bool`` is refused even when it names a number, so a wrongly built action is caught."""
    # the common case first
    index = action if type(action) is int and 0 <= action < NUM_ACTIONS else action_index(action, who)
    a = _BY_INDEX[index]
    for x in legal:
        if x is a:
            return a
    shown = ", ".join(f"{x.index} ({x})" for x in legal[:12]) + (", ..." if len(legal) > 12 else "")
    raise IllegalActionError(f"{who} cannot {a} (action {index}) now; legal: {shown}")


def action_index(action: object, who: str) -> int:
    """The flat index an action names, or an IllegalActionError: not an int (a str, float, bool), or out of range."""
    value: object = action
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype, np.integer):
        value = value.reshape(()).item()
    if isinstance(value, np.integer):
        value = int(value)
    if type(value) is not int:
        raise IllegalActionError(
            f"{who}: an action is an int 0..{NUM_ACTIONS - 1}, got {action!r} ({type(action).__name__})"
        )
    index: int = value
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(f"{who}: an action is an int 0..{NUM_ACTIONS - 1}, got {action!r}")
    return index


def idle_mask() -> npt.NDArray[np.int8]:
    """The mask of a seat that has nothing to do (the hand is over, or another seat is asked): ``pass`` alone.

    Never all zeros, so masked sampling always has an action to pick; the env never applies it."""
    return legal_mask((PASS,))


#: The keys ``reset(options=...)`` takes. PettingZoo's api tests pass ``{"options": 1}`` to check that reset takes
#: the argument: the PettingZoo envs accept that one key and ignore it.
RESET_OPTIONS: Final = ("deal", "game")
_DEAL_KEYS: Final = ("hands", "wall", "dealer", "seed", "replacements", "base")


def game_from_options(options: dict[str, Any] | None, rules: Rules, ignored: tuple[str, ...] = ()) -> Game | None:
    """The hand ``reset(options=...)`` asks for: ``{"game": Game}``, ``{"deal": {"hands": [...], "wall": ...}}``
    (:meth:`Game.setup`'s arguments, played under the env's rules), or None for a shuffled one. Anything else is
    refused with an error naming it."""
    if not options:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict, got {type(options).__name__}")
    unknown = [k for k in options if k not in RESET_OPTIONS and k not in ignored]
    if unknown:
        raise ValueError(f"reset options: unknown {', '.join(map(repr, unknown))}; known: {', '.join(RESET_OPTIONS)}")
    if "game" in options and "deal" in options:
        raise ValueError('reset options: give "game" or "deal", not both')
    if "game" in options:
        return check_game(options["game"])
    if "deal" not in options:
        return None
    deal = options["deal"]
    if not isinstance(deal, dict):
        raise TypeError(f'options["deal"] must be a dict of Game.setup arguments (hands, wall, ...), got {deal!r}')
    bad = [k for k in deal if k not in _DEAL_KEYS]
    if bad or "hands" not in deal:
        what = f"unknown {', '.join(map(repr, bad))}" if bad else '"hands" is missing'
        raise ValueError(f'options["deal"]: {what}; keys: {", ".join(_DEAL_KEYS)} (hands required)')
    return check_game(Game.setup(rules, **deal))


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
