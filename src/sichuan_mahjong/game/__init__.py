"""One hand (局) of four players: the authoritative state machine and what each seat may see of it."""

from sichuan_mahjong.game.actions import NUM_ACTIONS, Action, ActionKind, ActionParseError, IllegalActionError
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.loop import ask, play
from sichuan_mahjong.game.settlement import Payment, Settlement, WinRecord
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import Observation, WinView

__all__ = [
    "NUM_ACTIONS",
    "Action",
    "ActionKind",
    "ActionParseError",
    "Event",
    "Game",
    "IllegalActionError",
    "Observation",
    "Payment",
    "Settlement",
    "WinRecord",
    "WinView",
    "ask",
    "play",
]
