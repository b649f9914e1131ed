"""The shapes of what the server stores and sends: the database's tables (SQL that SQLite and PostgreSQL both
run; :mod:`~sichuan_mahjong.server.store`), and as JSON objects (docs/protocol.md) a seat's or a spectator's
view, an event, the end of a hand. Plain Python, no web framework; :mod:`~sichuan_mahjong.server.wire`
encodes them into messages (and reads the client's), :mod:`~sichuan_mahjong.server.delivery` sends them.

Tiles are strings (``"5p"``), seats ints 0..3, voids ``"m"``/``"p"``/``"s"``/None.

>>> from sichuan_mahjong.game import Game
>>> view = observation_json(Game(seed=1).view(3))
>>> view["seat"], view["phase"], len(view["hand"]), view["drawn"] is not None
(3, 'play', 13, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sichuan_mahjong.describe import payment_reason
from sichuan_mahjong.game import Event, Game, Observation
from sichuan_mahjong.game.events import TILE_TEXT
from sichuan_mahjong.hand.melds import Meld
from sichuan_mahjong.tiles import SUITS, Tile

__all__ = ["TABLES", "event_json", "hand_over_message", "observation_json"]

#: A room is its settings, seats, spectators and accepted answers: the match is rebuilt from them by replay.
TABLES = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    closed TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT,
    bot TEXT,
    auto INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS spectators (
    code TEXT NOT NULL,
    token TEXT NOT NULL PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_room ON answers (code, id);
"""


def _tiles(tiles: Iterable[Tile]) -> list[str]:
    return [TILE_TEXT[t.index] for t in tiles]


def _meld(meld: Meld) -> dict[str, str]:
    return {"kind": meld.kind.value, "tile": TILE_TEXT[meld.tile_index]}


def _void(v: int | None) -> str | None:
    return None if v is None else SUITS[v]


def observation_json(
    view: Observation, rules: Mapping[str, object] | None = None, public: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A view as JSON, field names as in :class:`Observation`; ``seat`` is None for a spectator's public view.

    ``rules`` is ``view.rules.to_dict()`` when the caller has it at hand (a room computes it once). ``public``
    is this function's JSON of the public view of the same moment: only the seat's own fields are then built
    (its tiles, its melds and kong count, its exchange and 过水 lock), the rest is shared.
    """
    exchanged = view.exchanged
    if public is not None and view.seat >= 0:
        me = view.seat
        melds = list(public["melds"])
        melds[me] = [_meld(m) for m in view.melds[me]]
        hidden = list(public["hidden_kongs"])
        hidden[me] = view.hidden_kongs[me]
        return {
            **public,
            "seat": me,
            "hand": _tiles(view.hand),
            "drawn": None if view.drawn is None else TILE_TEXT[view.drawn.index],
            "melds": melds,
            "hidden_kongs": hidden,
            "exchanged": None
            if exchanged is None
            else {"given": _tiles(exchanged[0]), "received": _tiles(exchanged[1])},
            "pass_lock": view.pass_lock,
        }
    return {
        "seat": view.seat if view.seat >= 0 else None,
        "dealer": view.dealer,
        "base": view.base,
        "phase": view.phase,
        "turn": view.turn,
        "pending_tile": None if view.pending_tile is None else str(view.pending_tile),
        "hand": _tiles(view.hand),
        "drawn": None if view.drawn is None else str(view.drawn),
        "melds": [[_meld(m) for m in melds] for melds in view.melds],
        "hidden_kongs": list(view.hidden_kongs),
        "concealed_counts": list(view.concealed_counts),
        "discards": [_tiles(river) for river in view.discards],
        "wall_count": view.wall_count,
        "scores": list(view.scores),
        "wins": [
            {
                "seat": w.seat,
                "tile": str(w.tile),
                "from_seat": w.from_seat,
                "robbed_kong": w.robbed_kong,
                "fan": w.fan,
                "shared": w.shared,
            }
            for w in view.wins
        ],
        "voids": [_void(v) for v in view.voids],
        "ready": list(view.ready),
        "active": list(view.active),
        "exchanged": None if exchanged is None else {"given": _tiles(exchanged[0]), "received": _tiles(exchanged[1])},
        "is_over": view.is_over,
        "pass_lock": view.pass_lock,
        "rules": dict(rules) if rules is not None else view.rules.to_dict(),
    }


def event_json(event: Event) -> dict[str, Any]:
    """An (already filtered) event as ``{"type", "seat", "data"}``."""
    return {"type": event.type, "seat": event.seat, "data": dict(event.data)}


def hand_over_message(game: Game, hand_no: int, room: Mapping[str, Any]) -> dict[str, Any]:
    """The end of a hand, for everyone: money with its reasons in zh and en, every hand laid open, the wins.

    Once a hand is over every concealed tile may be shown (the 结算 panel), so ``hands`` and ``melds`` hold all
    four seats' tiles, concealed kongs included.
    """
    result = game.result
    views = [game.view(s) for s in range(4)]
    return {
        "type": "hand_over",
        "hand_no": hand_no,
        "result": {
            "deltas": list(result.deltas),
            "payments": [
                {
                    **p.to_dict(),
                    "words": {"zh": payment_reason(p.reason, "zh"), "en": payment_reason(p.reason, "en")},
                }
                for p in result.payments
            ],
            "hands": [_tiles(v.tiles) for v in views],
            "melds": [[_meld(m) for m in views[s].melds[s]] for s in range(4)],
            "wins": [
                {
                    "seat": w.seat,
                    "tile": str(Tile(w.tile)),
                    "from_seat": w.from_seat,
                    "robbed_kong": w.robbed_kong,
                    "fan": w.score.fan,
                    "patterns": [{"id": p.id, "zh": p.zh, "en": p.en, "fan": p.fan} for p in w.score.patterns],
                }
                for w in result.wins
            ],
            "ready": list(result.ready),
            "active": list(views[0].active),
            "reason": result.reason,
            "next_dealer": result.next_dealer,
        },
        "room": room,
    }
