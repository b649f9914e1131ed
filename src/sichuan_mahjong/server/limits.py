"""What one client may ask of the server (docs/protocol.md "Limits"): token buckets per client address, bounded
in size so an attacker cannot grow them; JSON nesting and text checked before anything trusts them; log lines
rate-limited per source address.

Plain Python (no web framework): :mod:`sichuan_mahjong.server.app` applies these to requests and sockets,
:mod:`sichuan_mahjong.server.httpguard` to the HTTP connections underneath.

>>> depth_error("[" * 40, 32)
'JSON nested deeper than 32 levels'
>>> depth_error('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 32) is None
True
>>> text_error("阿明")
>>> text_error("a\\u0007b")
'holds a control character (U+0007)'
>>> client_key("2001:db8:1:2:3:4:5:6")
'2001:db8:1:2::/64'
"""

from __future__ import annotations

import contextvars
import ipaddress
import logging
import math
import re
import time
import unicodedata
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Final

__all__ = [
    "SOURCE",
    "AddressGate",
    "AddressLimits",
    "Buckets",
    "LimitExceededError",
    "SourceLogLimit",
    "TokenBucket",
    "client_key",
    "depth_error",
    "text_error",
]

#: The deepest JSON nesting a body or a frame may hold; the server's own shapes need 3.
MAX_JSON_DEPTH: Final = 32
#: The client address of the connection the running code serves ("" outside any), for log lines.
SOURCE: contextvars.ContextVar[str] = contextvars.ContextVar("scmj_source", default="")

_JSON_TOKENS: Final = re.compile(r'\\.|["\[\]{}]', re.DOTALL)
#: Bidirectional overrides and isolates: they let a name display as another.
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def depth_error(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``text`` may not be parsed (nested deeper than ``limit``), or None; brackets in strings don't count.

    Runs before ``json.loads``, whose recursion a few thousand ``[`` would exhaust."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = 0
    in_string = False
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if in_string:
            if token == '"':
                in_string = False
        elif token == '"':
            in_string = True
        elif token in "[{":
            depth += 1
            if depth > limit:
                return f"JSON nested deeper than {limit} levels"
        elif token in "]}":
            depth -= 1
    return None


def text_error(text: str) -> str | None:
    """Why ``text`` cannot be shown or stored (a lone surrogate, a control character, a bidi override), or None."""
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cs":
            return f"holds a lone surrogate (U+{ord(ch):04X}); text must be valid Unicode"
        if category == "Cc" or ch in _BIDI:
            return f"holds a control character (U+{ord(ch):04X})"
    return None


def client_key(host: str | None) -> str:
    """The key limits count by: the address, an IPv6 one by its /64 (what one subscriber usually holds)."""
    if not host:
        return "-"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` spends one or says no."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until :meth:`take` would say yes."""
        self._fill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class LimitExceededError(Exception):
    """A client went over a limit: ``limit`` is the limit's name (its ``scmj serve`` flag without ``--``),
    ``retry_after`` whole seconds until it may try again."""

    def __init__(self, limit: str, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.retry_after = retry_after


class Buckets:
    """One :class:`TokenBucket` per key, ``per_minute`` tokens a minute with bursts of as many; at most ``size``
    keys, the least recently used forgotten first (a forgotten key starts again with a full bucket, which is
    what it would soon have had anyway). ``per_minute`` 0: no limit."""

    def __init__(self, name: str, what: str, per_minute: float, size: int = 10_000) -> None:
        self.name = name
        self.what = what
        self.per_minute = per_minute
        self.size = size
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str) -> None:
        """Spend one token of ``key``'s bucket, or raise :class:`LimitExceededError`."""
        if self.per_minute <= 0:
            return
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(self.per_minute / 60, max(1.0, self.per_minute))
            while len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        if not bucket.take():
            retry = max(1, math.ceil(bucket.wait()))
            raise LimitExceededError(
                self.name,
                f"too many {self.what} from your address: at most {self.per_minute:g} a minute; retry in {retry} s",
                retry,
            )


@dataclass(frozen=True, slots=True)
class AddressLimits:
    """What one client address may do (docs/protocol.md "Limits"); each has its ``scmj serve`` flag, and 0 turns
    a limit off. Rates are per minute, in bursts of up to a minute's worth."""

    room_rate: float = 20.0  # --room-rate: rooms created
    rooms_per_address: int = 20  # --rooms-per-address: rooms created and not yet closed
    join_rate: float = 30.0  # --join-rate: seats and spectator tokens taken (POST .../seats, .../spectators)
    lookup_rate: float = 60.0  # --lookup-rate: GET /api/rooms/{code}, /api/players/... (history.py)
    connect_rate: float = 60.0  # --connect-rate: websocket connections opened
    connections_per_address: int = 32  # --connections-per-address: websockets open at once
    spectators: int = 64  # --spectators: spectator tokens a room holds


class AddressGate:
    """The per-address limits of :class:`AddressLimits` that the web layer checks before it does any work."""

    def __init__(self, limits: AddressLimits) -> None:
        self.limits = limits
        self.rooms = Buckets("room-rate", "rooms created", limits.room_rate)
        self.joins = Buckets("join-rate", "seats and spectators taken", limits.join_rate)
        self.lookups = Buckets("lookup-rate", "room lookups", limits.lookup_rate)
        self.connects = Buckets("connect-rate", "connections", limits.connect_rate)
        self.open: Counter[str] = Counter()

    def connect(self, key: str) -> None:
        """A websocket opens: spend a connect token and count it open, or raise :class:`LimitExceededError`."""
        self.connects.take(key)
        cap = self.limits.connections_per_address
        if cap and self.open[key] >= cap:
            raise LimitExceededError(
                "connections-per-address",
                f"your address has {cap} connections open, the most it may; close one first",
                30,
            )
        self.open[key] += 1

    def disconnect(self, key: str) -> None:
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


class SourceLogLimit(logging.Filter):
    """A handler's filter: at most ``per_second`` lines a second (bursts of as many) from one source address
    (:data:`SOURCE`); the rest are dropped and counted, and one line says how many once the source is heard
    again or :meth:`flush` runs. Lines from no source (start-up, the server's own timers) always pass."""

    def __init__(self, per_second: float, size: int = 10_000) -> None:
        super().__init__()
        self.per_second = per_second
        self.size = size
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.dropped: dict[str, int] = {}
        self._summary = logging.getLogger("sichuan_mahjong.server.log")

    def filter(self, record: logging.LogRecord) -> bool:
        source = SOURCE.get()
        if not source or self.per_second <= 0 or getattr(record, "scmj_summary", False):
            return True
        bucket = self.buckets.get(source)
        if bucket is None:
            bucket = self.buckets[source] = TokenBucket(self.per_second, max(1.0, self.per_second))
            while len(self.buckets) > self.size:
                old, _ = self.buckets.popitem(last=False)
                self._report(old)
        else:
            self.buckets.move_to_end(source)
        if bucket.take():
            self._report(source)
            return True
        if source in self.dropped or len(self.dropped) < self.size:
            self.dropped[source] = self.dropped.get(source, 0) + 1
        return False

    def _report(self, source: str) -> None:
        n = self.dropped.pop(source, 0)
        if n:
            self._summary.warning(
                "%d log line(s) from %s dropped (more than %g a second)",
                n,
                source,
                self.per_second,
                extra={"scmj_summary": True},
            )

    def flush(self) -> None:
        """Say how many lines were dropped from each source since the last summary."""
        for source in list(self.dropped):
            self._report(source)
