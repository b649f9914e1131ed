"""The web table's messages as JSON objects and text (docs/protocol.md): plain Python, no web framework, so the
server, its tests, a benchmark client or a page's test harness all build and read the same shapes.

Everything a seat receives is built from that seat's :class:`~sichuan_mahjong.game.Observation` and its
filtered events (docs/rules.md R12); a spectator's from the public view and
:func:`~sichuan_mahjong.game.view.public_event`. The JSON of a view, an event and a hand's end is
:mod:`~sichuan_mahjong.server.schema`'s (re-exported here); this module encodes messages from them, once per
moment, and reads the client's.

>>> parse_client('{"type": "act", "action": "discard 5p", "seq": 4}')
ClientMessage(type='act', action='discard 5p', seq=4, on=None, token=None, phrase=None)
>>> parse_client('{"type": "act", "seq": 4}')
Traceback (most recent call last):
...
sichuan_mahjong.server.wire.WireError: malformed: 'act' needs "action", a string such as "discard 5p"
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sichuan_mahjong.game import Action, Event, Observation
from sichuan_mahjong.game.view import WinView
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.hints import discard_waits, ready_waits
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.limits import depth_error
from sichuan_mahjong.server.phrases import PHRASES
from sichuan_mahjong.server.schema import event_json, hand_over_message, observation_json
from sichuan_mahjong.tiles import SUITS, Tile

__all__ = [
    "CLIENT_TYPES",
    "MAX_MESSAGE_BYTES",
    "OWN_FIELDS",
    "ClientMessage",
    "WireError",
    "dumps",
    "error_message",
    "event_json",
    "hand_over_message",
    "hints_json",
    "observation_from_json",
    "observation_json",
    "own_view_text",
    "parse_client",
    "shared_view_text",
    "view_message",
    "view_message_text",
]

#: The largest client frame the server reads (bytes of UTF-8); a longer one is refused.
MAX_MESSAGE_BYTES: Final = 2048
#: The fields of a view that differ between seats at one moment; every other field is the same for all four
#: seats and the spectators, so a room encodes it once (:func:`shared_view_text`).
OWN_FIELDS: Final = ("seat", "hand", "drawn", "melds", "hidden_kongs", "exchanged", "pass_lock")
#: Client -> server message types. ``auth`` carries the token when the URL does not; ``say`` a quick phrase.
CLIENT_TYPES: Final = ("act", "advise", "auto", "next", "ping", "auth", "say")


class WireError(ValueError):
    """A client message that is not one: ``code`` is the error code sent back (``malformed`` here)."""

    def __init__(self, message: str, code: str = "malformed") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """One checked client message; fields a type does not use are None."""

    type: str
    action: str | None = None
    seq: int | None = None
    on: bool | None = None
    token: str | None = None
    phrase: str | None = None


def _seq(raw: Mapping[str, Any], kind: str) -> int:
    seq = raw.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise WireError(f'{kind!r} needs "seq", the non-negative integer of the view it answers')
    return seq


def parse_client(text: str | bytes) -> ClientMessage:
    """Read one client frame; anything but a well-formed message of :data:`CLIENT_TYPES` raises WireError."""
    if isinstance(text, bytes):
        raise WireError("frames are JSON text, not binary")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise WireError(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes", "too_big")
    problem = depth_error(text)
    if problem is not None:
        raise WireError(problem)
    try:
        raw = json.loads(text)
    except ValueError:
        raise WireError("not JSON") from None
    if not isinstance(raw, dict):
        raise WireError('a message is one JSON object with a "type"')
    kind = raw.get("type")
    if kind not in CLIENT_TYPES:
        raise WireError(f"unknown type {kind!r}; types: {', '.join(CLIENT_TYPES)}")
    if kind == "act":
        action = raw.get("action")
        if not isinstance(action, str) or not action.strip() or len(action) > 64:
            raise WireError('\'act\' needs "action", a string such as "discard 5p"')
        return ClientMessage("act", action=action.strip(), seq=_seq(raw, "act"))
    if kind == "advise":
        return ClientMessage("advise", seq=_seq(raw, "advise"))
    if kind == "auto":
        on = raw.get("on")
        if not isinstance(on, bool):
            raise WireError("'auto' needs \"on\": true or false")
        return ClientMessage("auto", on=on)
    if kind == "say":
        phrase = raw.get("phrase")
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise WireError(f"'say' needs \"phrase\", one of {', '.join(PHRASES)}; got {phrase!r}")
        return ClientMessage("say", phrase=phrase)
    if kind == "auth":
        token = raw.get("token")
        if not isinstance(token, str) or not token:
            raise WireError("'auth' needs \"token\", the token of a seat or a spectator")
        return ClientMessage("auth", token=token)
    return ClientMessage(str(kind))


# ------------------------------------------------------------------------------------------------ views


def _tile(text: str | None) -> Tile | None:
    return None if text is None else Tile.from_str(text)


def observation_from_json(view: Mapping[str, Any], legal: Sequence[str] = ()) -> Observation:
    """The seat's :class:`Observation` back from its JSON (:func:`observation_json`) and the ``legal`` strings of
    the same ``view`` message: what a bot playing over the protocol (``scmj bot``) hands its ``act``. A bad shape
    raises a :class:`WireError` naming the field (``KeyError``, ``TypeError`` and ``ValueError`` inside)."""
    try:
        seat = view["seat"]
        exchanged = view["exchanged"]
        return Observation(
            seat=-1 if seat is None else int(seat),
            dealer=int(view["dealer"]),
            rules=Rules.from_dict(view["rules"]),
            base=int(view["base"]),
            phase=str(view["phase"]),
            turn=int(view["turn"]),
            pending_tile=_tile(view["pending_tile"]),
            hand=tuple(Tile.from_str(t) for t in view["hand"]),
            drawn=_tile(view["drawn"]),
            melds=tuple(tuple(Meld.of(m["kind"], m["tile"]) for m in melds) for melds in view["melds"]),
            hidden_kongs=tuple(int(n) for n in view["hidden_kongs"]),
            concealed_counts=tuple(int(n) for n in view["concealed_counts"]),
            discards=tuple(tuple(Tile.from_str(t) for t in river) for river in view["discards"]),
            wall_count=int(view["wall_count"]),
            scores=tuple(int(n) for n in view["scores"]),
            wins=tuple(
                WinView(
                    int(w["seat"]),
                    Tile.from_str(w["tile"]),
                    None if w["from_seat"] is None else int(w["from_seat"]),
                    bool(w["robbed_kong"]),
                    int(w["fan"]),
                    bool(w.get("shared", False)),
                )
                for w in view["wins"]
            ),
            voids=tuple(None if v is None else SUITS.index(v) for v in view["voids"]),
            ready=tuple(bool(r) for r in view["ready"]),
            active=tuple(bool(a) for a in view["active"]),
            legal=tuple(Action.parse(a) for a in legal),
            exchanged=None
            if exchanged is None
            else (
                tuple(Tile.from_str(t) for t in exchanged["given"]),
                tuple(Tile.from_str(t) for t in exchanged["received"]),
            ),
            is_over=bool(view["is_over"]),
            pass_lock=None if view["pass_lock"] is None else int(view["pass_lock"]),
        )
    except KeyError as exc:
        raise WireError(f"malformed: a view needs the field {exc.args[0]!r}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise WireError(f"malformed view: {exc}") from None


def hints_json(view: Observation) -> dict[str, Any]:
    """The seat's waits with live copies and, when it is to discard, the discards that leave it ready.

    Computed by :mod:`sichuan_mahjong.hints` from the seat's view alone.
    """
    waits = [w.to_dict() for w in ready_waits(view)]
    by_discard = {str(t): [w.to_dict() for w in ws] for t, ws in discard_waits(view).items()} if view.legal else {}
    return {"waits": waits, "discard_waits": by_discard}


#: One encoder for every message: ``json.dumps`` with options builds a new one per call, a third of the time of
#: encoding a small message, and a moment encodes about eighteen (the same text either way).
_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(obj: object) -> str:
    """Compact JSON text, non-ASCII kept (names, Chinese words)."""
    return _ENCODER.encode(obj)


def shared_view_text(view: Mapping[str, Any]) -> str:
    """The JSON members (no braces) of a view's fields outside :data:`OWN_FIELDS`."""
    return dumps({k: v for k, v in view.items() if k not in OWN_FIELDS})[1:-1]


def own_view_text(view: Mapping[str, Any]) -> str:
    """The JSON members (no braces) of a view's :data:`OWN_FIELDS`."""
    return dumps({k: view[k] for k in OWN_FIELDS})[1:-1]


def view_message_text(
    seq: int, own: str, shared: str, legal: Sequence[Action], events: Iterable[Event], room: str, hints: str
) -> str:
    """:func:`view_message` as JSON text, from parts encoded once per moment: ``own`` and ``shared`` are
    :func:`own_view_text` of the seat's view and :func:`shared_view_text` of this moment's views, ``room`` the
    room object's JSON text, ``hints`` the hints' (``null`` for a spectator)."""
    legal_text = dumps([str(a) for a in legal])
    events_text = dumps([event_json(e) for e in events])
    return (
        f'{{"type":"view","seq":{seq},"view":{{{own},{shared}}},"legal":{legal_text},"events":{events_text},'
        f'"room":{room},"hints":{hints}}}'
    )


def view_message(
    seq: int,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    events: Iterable[Event],
    room: Mapping[str, Any],
    hints: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The ``view`` message: the view, the seat's legal answers, its events since its last view, the room."""
    return {
        "type": "view",
        "seq": seq,
        "view": view,
        "legal": [str(a) for a in legal],
        "events": [event_json(e) for e in events],
        "room": room,
        "hints": hints,
    }


def error_message(code: str, message: str, words: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``{"type": "error", "code", "message"}``, with ``words`` (zh and en) for a refused act."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if words is not None:
        out["words"] = dict(words)
    return out
