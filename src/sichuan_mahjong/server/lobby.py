"""Every room of one server process: creating and joining rooms, tokens, restoring from the store, expiry.

Request bodies are checked here (not in the web layer) so every bad field gets a :class:`RequestError`
naming it; rule options go through :class:`~sichuan_mahjong.rules.Rules`, which names what it refuses.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from sichuan_mahjong.agents import UnknownAgentError, agent_names, check_agent
from sichuan_mahjong.rules import PRESETS, Rules, RulesError
from sichuan_mahjong.server.limits import AddressLimits, LimitExceededError, text_error
from sichuan_mahjong.server.room import Room, RoomSettings, ServerOptions
from sichuan_mahjong.server.store import RoomRow, RoomStore, SeatRow

__all__ = ["CODE_ALPHABET", "CODE_LENGTH", "Lobby", "RequestError", "new_code"]

log = logging.getLogger("sichuan_mahjong.server")

#: Room codes: 6 characters without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B): 25**6 = 244,140,625 codes, so
#: guessing at the rate-limited lookup rate finds a room far later than rooms live (docs/protocol.md "Limits").
CODE_ALPHABET: Final = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH: Final = 6
MAX_HANDS: Final = 64
MAX_NAME: Final = 24
MAX_ROOMS: Final = 20_000


class RequestError(ValueError):
    """A request the server refuses: ``status`` is its HTTP status, the text says what was wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_code(taken: set[str] | Mapping[str, object], accept: Callable[[str], bool] | None = None) -> str:
    """A fresh room code from the OS's CSPRNG, not in ``taken`` (and passing ``accept``, when given: a worker's
    share of the codes, about 1/N of them; none at all while it holds no lease: 403, the proxy asks another)."""
    for _ in range(_CODE_TRIES if accept is not None else 1 << 62):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken and (accept is None or accept(code)):
            return code
    raise RequestError("this worker gives out no room codes now (it is starting); try again", 403)


_CODE_TRIES: Final = 2000  # a share of 1/100 of the codes is missed 2000 times running once in 10**9


@dataclass(frozen=True, slots=True)
class Ticket:
    """What a token opens: a room and a seat (None for a spectator)."""

    room: str
    seat: int | None


PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def player_id(raw: object, field: str = '"player"') -> str:
    """A browser's player id: 16-64 letters, digits, ``-`` or ``_`` (the page makes 22 random ones)."""
    if not isinstance(raw, str):
        raise RequestError(f"{field} must be a string (the page's player id), got {type(raw).__name__}")
    if not PLAYER_ID.fullmatch(raw):
        raise RequestError(
            f"{field} must be 16 to 64 letters, digits, '-' or '_' (the page's player id), got {len(raw)} "
            f"character(s){'' if raw.isascii() else ', not all ASCII'}"
        )
    return raw


def _player(body: Mapping[str, Any]) -> str | None:
    raw = body.get("player_id")
    return None if raw is None else player_id(raw, '"player_id"')


def _name(body: Mapping[str, Any], default: str) -> str:
    name = body.get("name", default)
    if not isinstance(name, str) or not name.strip():
        raise RequestError('"name" must be a non-empty string')
    bad = text_error(name)
    if bad is not None:
        raise RequestError(f'"name" {bad}')
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise RequestError(f'"name" may hold at most {MAX_NAME} characters, got {len(name)}')
    return name


def _option_text(key: str, value: object) -> str:
    """A JSON option value as the text ``Rules.with_options`` reads (the same parser as ``--option``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    raise RequestError(f"option {key!r}: {value!r} is not a string, number, boolean, null or list of strings")


def settings_from_body(body: Mapping[str, Any], seed: int) -> RoomSettings:
    """The room's settings from ``POST /api/rooms``; any bad field raises RequestError naming it."""
    preset = body.get("preset", "app")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RequestError(f'"preset" must be one of {", ".join(PRESETS)}, got {preset!r}')
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise RequestError('"options" must be an object of rule options, e.g. {"max_fan": 4}')
    try:
        rules = Rules.preset(preset).with_options({str(k): _option_text(str(k), v) for k, v in options.items()})
    except RulesError as exc:
        raise RequestError(str(exc)) from None
    hands = body.get("hands", 8)
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
        raise RequestError(f'"hands" must be an integer 1..{MAX_HANDS}, got {hands!r}')
    timer = body.get("timer")
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int | float) or not 3 <= timer <= 600):
        raise RequestError(f'"timer" must be null or seconds 3..600, got {timer!r}')
    return RoomSettings(preset, rules, hands, seed, None if timer is None else float(timer))


def bots_from_body(body: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> dict[int, str]:
    """The bot seats asked for: a tier by name, or ``module:factory`` from a module the server allows."""
    bots = body.get("bots", {})
    if not isinstance(bots, dict):
        raise RequestError('"bots" must be an object of seat -> tier, e.g. {"1": "expert"}')
    out: dict[int, str] = {}
    known = agent_names()
    for key, tier in bots.items():
        if key not in ("1", "2", "3"):
            raise RequestError(f'"bots": seat {key!r} must be "1", "2" or "3" (the host sits at seat 0)')
        if isinstance(tier, str) and ":" in tier:
            _check_bot_spec(tier, key, allowed)
        elif tier not in known:
            raise RequestError(f'"bots": unknown tier {tier!r} for seat {key}; tiers: {", ".join(known)}')
        out[int(key)] = str(tier)
    return out


def bot_module_allowed(spec: str, allowed: tuple[str, ...]) -> bool:
    """Whether ``module:factory`` names a module the server was started with ``--allow-bot`` (or one inside it)."""
    module = spec.partition(":")[0].strip()
    return any(module == m or module.startswith(m + ".") for m in allowed)


def _check_bot_spec(spec: str, key: str, allowed: tuple[str, ...]) -> None:
    if not bot_module_allowed(spec, allowed):
        raise RequestError(
            f'"bots": seat {key}: {spec!r} is not allowed here; a module:factory bot needs the server started '
            "with --allow-bot MODULE"
        )
    try:
        check_agent(spec)
    except UnknownAgentError as exc:
        raise RequestError(f'"bots": seat {key}: {exc}') from None


class Lobby:
    """The rooms of this process, by code, and what each token opens.

    ``limits`` caps the rooms one address holds open (``owner`` of :meth:`create`; rooms restored from the
    store have none) and the spectator tokens of a room: when a room holds its maximum, a new spectator takes
    the place of the oldest token not watching now (:meth:`watch`), so tokens taken and left unused cannot
    lock real spectators out."""

    def __init__(self, store: RoomStore, options: ServerOptions, limits: AddressLimits | None = None) -> None:
        self.store = store
        self.options = options
        self.limits = limits or AddressLimits()
        self.rooms: dict[str, Room] = {}
        self.tickets: dict[str, Ticket] = {}
        self._codes = store.codes()
        #: Whether a new code may be given out here (several workers: only codes that hash to this one).
        self.owns: Callable[[str], bool] = lambda code: True
        self.owners: dict[str, str] = {}  # room code -> the address that created it
        self.owned: Counter[str] = Counter()  # address -> rooms it holds open
        self.watchers: dict[str, dict[str, None]] = {}  # room code -> its spectator tokens, oldest first
        self.watching: Counter[str] = Counter()  # spectator token -> its open connections

    def _room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise RequestError(f"no room {code!r}", 404)
        return room

    def _new_room(self, code: str, settings: RoomSettings, created: float | None = None) -> Room:
        room = Room(code, settings, self.store, self.options, created, on_close=self._closed)
        self.rooms[code] = room
        self._codes.add(code)
        return room

    def _closed(self, room: Room) -> None:
        self.rooms.pop(room.code, None)
        self.watchers.pop(room.code, None)
        owner = self.owners.pop(room.code, None)
        if owner is not None:
            self.owned[owner] -= 1
            if self.owned[owner] <= 0:
                del self.owned[owner]
        for token in [t for t, ticket in self.tickets.items() if ticket.room == room.code]:
            del self.tickets[token]

    def create(self, body: Mapping[str, Any], owner: str | None = None) -> tuple[Room, SeatRow]:
        """``POST /api/rooms``: the host takes seat 0; bots take the seats named in ``bots``. ``owner``: the
        creator's address, which may hold ``limits.rooms_per_address`` rooms open (LimitExceededError)."""
        cap = self.limits.rooms_per_address
        if owner is not None and cap and self.owned[owner] >= cap:
            raise LimitExceededError(
                "rooms-per-address",
                f"your address holds {cap} open rooms, the most it may; finish or leave one first",
                60,
            )
        if len(self.rooms) >= MAX_ROOMS:
            raise RequestError(f"the server holds its maximum of {MAX_ROOMS} rooms; try later", 503)
        settings = settings_from_body(body, random.SystemRandom().randrange(1 << 62))
        bots = bots_from_body(body, self.options.allowed_bots)
        player = _player(body)
        host = SeatRow(0, _name(body, "host"), secrets.token_urlsafe(24), None)
        rows = [host] + [SeatRow(s, f"{tier} bot", None, tier) for s, tier in sorted(bots.items())]
        code = new_code(self._codes, self.owns)
        self.store.add_room(code, settings.to_json(), rows)
        room = self._new_room(code, settings)
        for row in rows:
            room.place(row)
        self.tickets[str(host.token)] = Ticket(code, 0)
        if player is not None:
            self.store.add_player_seat(player, host.name, code, 0)
        if owner is not None:
            self.owners[code] = owner
            self.owned[owner] += 1
        log.info("room %s created: %s, %d hands, bots %s", code, settings.preset, settings.hands, bots)
        if room.full:
            room.guard(room.start)
        return room, host

    def join(self, code: str, body: Mapping[str, Any]) -> SeatRow:
        room = self._room(code)
        if room.full:
            raise RequestError(f"room {room.code} is full", 409)
        player = _player(body)
        row = room.join(_name(body, "player"))
        self.tickets[str(row.token)] = Ticket(room.code, row.seat)
        if player is not None:
            self.store.add_player_seat(player, row.name, room.code, row.seat)
        return row

    def spectate(self, code: str) -> str:
        """A spectator token; when the room holds ``limits.spectators``, the oldest one not watching now is
        forgotten to make room (409 when every one is watching)."""
        room = self._room(code)
        tokens = self.watchers.setdefault(room.code, {})
        cap = self.limits.spectators
        if cap and len(tokens) >= cap:
            idle = next((t for t in tokens if not self.watching[t]), None)
            if idle is None:
                raise RequestError(f"room {room.code} has {cap} spectators watching, the most it takes; try later", 409)
            del tokens[idle]
            self.tickets.pop(idle, None)
            room.spectator_tokens.discard(idle)
            self.store.remove_spectator(room.code, idle)
        token = room.add_spectator()
        self.tickets[token] = Ticket(room.code, None)
        tokens[token] = None
        return token

    def watch(self, token: str, delta: int) -> None:
        """A spectator's connection with ``token`` opened (``delta`` 1) or closed (-1)."""
        self.watching[token] += delta
        if self.watching[token] <= 0:
            del self.watching[token]

    def ticket(self, code: str, token: str) -> Ticket | None:
        ticket = self.tickets.get(token)
        if ticket is None or ticket.room != code.upper() or ticket.room not in self.rooms:
            return None
        return ticket

    def restore(self, rows: list[RoomRow] | None = None) -> int:
        """Bring back every open room from the store (or those of ``rows``), each match replayed to where it
        was. Returns the count."""
        count = 0
        for row in self.store.open_rooms() if rows is None else rows:
            if row.damage is not None:
                log.error("room %s closed at start-up: %s", row.code, row.damage)
                self.store.close_room(row.code, f"restore failed: {row.damage}")
                continue
            try:
                room = self._new_room(row.code, RoomSettings.from_json(row.settings), row.created)
                for seat in row.seats:
                    room.place(seat)
                    if seat.token is not None:
                        self.tickets[seat.token] = Ticket(row.code, seat.seat)
                for token in row.spectators:
                    room.spectator_tokens.add(token)
                    self.tickets[token] = Ticket(row.code, None)
                    self.watchers.setdefault(row.code, {})[token] = None
                room.restore(row.answers)
            except Exception as exc:  # one line each; the traceback only at debug level
                log.error("room %s closed at start-up: it could not be restored (%r)", row.code, exc)
                log.debug("room %s: the restore failed", row.code, exc_info=exc)
                self.store.close_room(row.code, f"restore failed: {exc!r}")
                self.rooms.pop(row.code, None)
                self.watchers.pop(row.code, None)
                continue
            count += 1
        return count

    def resume(self) -> None:
        """Once the event loop runs: hold timers, bots and the pause between hands pick up where they were."""
        for room in list(self.rooms.values()):
            if room.match is not None:
                room.guard(room.resume)

    def sweep(self) -> int:
        """Close the rooms whose people are gone (:meth:`Room.expired`: bots and spectators keep none alive)."""
        now = time.monotonic()
        closed = 0
        for room in list(self.rooms.values()):
            reason = room.expired(now)
            if reason is not None:
                room.close(reason)
                closed += 1
        return closed
