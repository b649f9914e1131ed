"""A message that goes to many connections is encoded once (server/delivery.py): every connection allowed to see
it is queued the same JSON text, not an object each connection's outbox encodes again (server/sockets.py's
WsClient encodes any object it is handed)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from typing import Any

import pytest

from sichuan_mahjong.server import wire
from sichuan_mahjong.server.lobby import Lobby
from sichuan_mahjong.server.phrases import PHRASES
from sichuan_mahjong.server.room import ServerOptions
from sichuan_mahjong.server.store import Store
from sichuan_mahjong.server.wire import ClientMessage, dumps
from webtable import answer_unread

OPTIONS = ServerOptions(hold=60, bot_delay=0, pause=0, room_interval=0.01)
SPECTATORS = 5
BROADCASTS = ("hand_over", "match_over", "said", "room")


class Outbox:
    """A connection as the websocket one takes messages: an object is encoded here (one more encode), JSON text is
    queued as it is."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.read = 0

    def send(self, message: Any) -> None:
        self.sent.append(message if isinstance(message, str) else dumps(message))

    def close(self, code: int) -> None:
        pass

    def unread(self) -> list[dict[str, Any]]:
        new, self.read = self.sent[self.read :], len(self.sent)
        return [json.loads(m) for m in new]

    def of(self, kind: str) -> list[str]:
        return [m for m in self.sent if json.loads(m)["type"] == kind]


def play(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Outbox, Outbox, list[Outbox]]:
    """A two-hand match: seats 0 and 1 people, two bots, five spectators; counts every encode of a broadcast."""
    encodes: Counter[str] = Counter()

    class Counting(json.JSONEncoder):
        def encode(self, o: Any) -> str:
            if isinstance(o, dict) and o.get("type") in BROADCASTS:
                encodes[o["type"]] += 1
            return super().encode(o)

    # Every message the server sends is encoded by wire.dumps, through its one encoder.
    monkeypatch.setattr(wire, "_ENCODER", Counting(ensure_ascii=False, separators=(",", ":")))

    async def go() -> tuple[Outbox, Outbox, list[Outbox]]:
        lobby = Lobby(Store(":memory:"), OPTIONS)
        room, _ = lobby.create({"hands": 2, "bots": {"2": "efficient", "3": "efficient"}})
        watchers = [Outbox() for _ in range(SPECTATORS)]
        for w in watchers:
            room.attach(w, None)
        friend = lobby.join(room.code, {"name": "friend"})
        me, other = Outbox(), Outbox()
        conns = [room.attach(me, 0), room.attach(other, friend.seat)]
        room.handle(conns[0], ClientMessage("say", phrase=PHRASES[0]))
        rng = random.Random(2)
        deadline = time.monotonic() + 60
        while room.match is None or not room.match.is_over:
            assert time.monotonic() < deadline, "the match did not end"
            for conn, box in zip(conns, (me, other), strict=True):
                answer_unread(room, box, conn, rng)
            await asyncio.sleep(0.002)
        await asyncio.sleep(0.05)
        return me, other, watchers

    me, other, watchers = asyncio.run(go())
    return encodes, me, other, watchers


def test_broadcasts_are_encoded_once_for_every_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    encodes, me, other, watchers = play(monkeypatch)
    everyone = [me, other, *watchers]
    assert all(len(box.of("hand_over")) == 2 for box in everyone)
    assert all(len(box.of("match_over")) == 1 for box in everyone)
    assert all(len(box.of("said")) == 1 for box in everyone)
    assert encodes["hand_over"] == 2, f"{encodes['hand_over']} encodes of 2 hands' ends for {len(everyone)} connections"
    assert encodes["match_over"] == 1 and encodes["said"] == 1
    for kind in ("hand_over", "match_over", "said"):  # one text, queued for each connection
        for i, text in enumerate(me.of(kind)):
            assert all(box.of(kind)[i] is text for box in everyone), kind


def test_spectators_shown_the_same_moment_share_one_encoded_view(monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, _, watchers = play(monkeypatch)
    views = [w.of("view") for w in watchers]
    assert len(views[0]) > 10 and all(len(v) == len(views[0]) for v in views)
    for i, text in enumerate(views[0]):
        assert all(v[i] is text for v in views[1:]), f"view {i} encoded again for another spectator"
