"""What a room is made of: its settings, its seats and connections, and the last view each was shown.

Plain data for :mod:`sichuan_mahjong.server.room`; a connection is anything with ``send`` and ``close``
(:class:`Client`), so rooms run the same behind websockets and in tests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from sichuan_mahjong.game import Observation
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.wire import observation_json, own_view_text, shared_view_text

__all__ = [
    "CLOSE_REPLACED",
    "CLOSE_ROOM_FAILED",
    "Client",
    "Conn",
    "RoomClosedError",
    "RoomFullError",
    "RoomSettings",
    "Seat",
    "ServerOptions",
    "Shown",
]

#: Websocket close codes: the room failed (an exception inside it) / the connection was replaced.
CLOSE_ROOM_FAILED: Final = 1011
CLOSE_REPLACED: Final = 4409


class Client(Protocol):
    """One open connection as the room sees it."""

    def send(self, message: Mapping[str, Any] | str) -> None:
        """Queue one message: an object, or its JSON text already encoded."""

    def close(self, code: int) -> None: ...


class RoomFullError(ValueError):
    """Every seat of the room is taken."""


class RoomClosedError(ValueError):
    """The room has failed or expired."""


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """Server-wide timings, in seconds. ``hold``: a disconnected seat's decisions wait this long, then the
    stand-in bot plays it until it is back; ``bot_delay``: a bot's pause before answering, so people can follow;
    ``pause``: between hands (cut short when every connected person sends ``next``); ``idle``: a room whose
    people have all been gone this long expires (spectators and bots keep no room alive); ``unused``: a room no
    person ever connected to expires sooner; ``full_gc``: between full garbage collections
    (server/gcpolicy.py; 0, the library's default: Python's own policy; ``scmj serve`` uses 300);
    ``room_interval``: at most one ``room`` message per room this often (connects and disconnects coalesced);
    ``bot_workers``: bots thinking at once in the whole server (server/botpool.py), in worker processes when
    ``bot_processes`` (``scmj serve``'s default), else threads; ``wal_max``: the database's WAL ceiling in
    bytes (server/store.py)."""

    hold: float = 30.0
    bot_delay: float = 0.6
    pause: float = 8.0
    idle: float = 3600.0
    records: Path | None = None
    full_gc: float = 0.0
    unused: float = 600.0
    room_interval: float = 0.25
    bot_workers: int = 1
    bot_processes: bool = False
    wal_max: int = 32 << 20
    #: Modules whose ``module:factory`` bots a room may seat (``scmj serve --allow-bot MODULE``); none by default.
    allowed_bots: tuple[str, ...] = ()
    #: Play-outs per option of a web 复盘 (``scmj serve --review-samples``; the review library's default).
    review_samples: int = 24
    #: 复盘 reviews waiting or running at once (``scmj serve --review-queue``); one more is refused with 503.
    review_queue: int = 4


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What a room was created with; stored as JSON and enough (with the answers) to rebuild it."""

    preset: str
    rules: Rules
    hands: int
    seed: int
    timer: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "rules": self.rules.to_dict(),
            "hands": self.hands,
            "seed": self.seed,
            "timer": self.timer,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RoomSettings:
        timer = raw.get("timer")
        return cls(
            str(raw["preset"]),
            Rules.from_dict(raw["rules"]),
            int(raw["hands"]),
            int(raw["seed"]),
            None if timer is None else float(timer),
        )


@dataclass(slots=True)
class Shown:
    """The last view a seat (or the public) was shown: what it gets again on reconnect.

    What is sent is kept as JSON text, encoded once: text is not tracked by Python's garbage collector, the
    dictionaries it comes from would be, for as long as the moment lasts (server/gcpolicy.py)."""

    seq: int
    view: Observation
    upto: int  # events of the hand it covers
    public: Shown | None = None  # the public view of the same moment (a seat's JSON shares its fields)
    number: int = 0  # the seq the recipient sees: its own count of the views it was shown
    json: dict[str, Any] | None = None  # the public view's JSON, kept while the moment lasts (seats share it)
    own: str | None = None  # the view's own fields (OWN_FIELDS) as JSON text
    shared: str | None = None  # the public view's shared fields as JSON text
    hints: str | None = None  # the seat's hints as JSON text

    def public_json(self, rules: Mapping[str, object]) -> dict[str, Any]:
        if self.json is None:
            self.json = observation_json(self.view, rules)
        return self.json

    def own_text(self, rules: Mapping[str, object]) -> str:
        if self.own is None:
            if self.public is None:
                view = self.public_json(rules)
            else:
                view = observation_json(self.view, rules, self.public.public_json(rules))
            self.own = own_view_text(view)
        return self.own

    def shared_text(self, rules: Mapping[str, object]) -> str:
        """The fields every seat's view shares at this moment, encoded once (from the public view)."""
        if self.public is not None:
            return self.public.shared_text(rules)
        if self.shared is None:
            self.shared = shared_view_text(self.public_json(rules))
        return self.shared


@dataclass(slots=True)
class Conn:
    """One connection in the room: its seat (None for a spectator) and the events it has been sent."""

    client: Client
    seat: int | None
    hand: int = -1
    cursor: int = 0
    room: str | None = None  # the room object (JSON text) it was last sent


@dataclass(slots=True)
class Seat:
    index: int
    name: str
    token: str | None
    bot: str | None  # the tier of a bot seat
    auto: bool = False  # 托管 asked by the player
    away: bool = False  # taken over after the hold while disconnected
    conn: Conn | None = None
    shown: Shown | None = None
    hold: asyncio.TimerHandle | None = None
    views: int = 0  # views this seat was shown: the seq of its last (it counts its own moments only)

    @property
    def person(self) -> bool:
        return self.bot is None

    @property
    def botted(self) -> bool:
        """A bot answers for this seat now."""
        return self.bot is not None or self.auto or self.away
