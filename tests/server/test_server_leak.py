"""Views, never state (issue 8, item 3): every message a room sends names only tiles its receiver may know.

Rooms run in-process with recording clients: four people (random answers, some illegal ones, advice asked)
and a spectator, over random matches and a scripted deal with concealed kongs. Each message is checked the
moment it is sent against the full state: its tiles are within what that seat has held or seen in public
(from the unfiltered event log, independent of the filter under test), a seat's view is its own
``game.view``, a spectator's the public view, and a seat not asked never sees someone else's decision.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from sichuan_mahjong.game import Game
from sichuan_mahjong.game.view import public_view
from sichuan_mahjong.hints import advise_view
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.room import PAUSE_PHASES, Room, RoomSettings, ServerOptions
from sichuan_mahjong.server.store import SeatRow, Store
from sichuan_mahjong.server.wire import ClientMessage, hints_json, observation_json
from sichuan_mahjong.tiles import TileParseError, parse_tiles

_PUBLIC = frozenset({"discard", "pung", "kong", "added_kong", "win", "robbed"})


def knowable(game: Game, seat: int | None) -> set[str]:
    """Every tile kind ``seat`` has held or seen in public so far (None: public only), from the full log."""
    known: set[str] = set()
    for e in game.events:
        d = e.data
        if e.type in _PUBLIC:
            known.add(d["tile"])
        elif seat is None:
            continue
        elif e.type == "deal":
            known.update(str(t) for t in parse_tiles(d["hands"][seat]))
        elif e.type == "exchange":
            known.update(str(t) for t in parse_tiles(d["given"][seat]))
            known.update(str(t) for t in parse_tiles(d["received"][seat]))
        elif e.type in ("draw", "concealed_kong") and e.seat == seat:
            known.add(d["tile"])
    return known


def named(obj: Any, skip: frozenset[str] = frozenset({"hints", "rules"})) -> Iterator[str]:
    """Every tile a JSON value names, in any string (``"5p"``, ``"discard 5p"``, ``"1m1m5p"``)."""
    if isinstance(obj, str):
        for token in obj.split():
            try:
                yield from (str(t) for t in parse_tiles(token))
            except TileParseError:
                continue
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            if k not in skip:
                yield from named(v, skip)
    elif isinstance(obj, list):
        for v in obj:
            yield from named(v, skip)


class Recorder:
    """A connection that checks each message against the room's full state as it is sent."""

    def __init__(self, room: Room, seat: int | None) -> None:
        self.room = room
        self.seat = seat
        self.inbox: list[dict[str, Any]] = []
        self.unread = 0
        self.types: set[str] = set()

    def close(self, code: int) -> None:
        raise AssertionError(f"the room closed a healthy connection ({code})")

    def send(self, message: Mapping[str, Any] | str) -> None:
        m: dict[str, Any] = json.loads(message if isinstance(message, str) else json.dumps(message))  # the wire
        self.inbox.append(m)
        self.types.add(m["type"])
        game = self.room.game
        if game is None or m["type"] in ("hello", "room", "error", "answered", "pong"):
            return
        if m["type"] == "hand_over" or m["type"] == "match_over":
            assert game.is_over
            return
        if m["type"] == "advice":  # the advisor's hypothetical tiles: exactly its word on the seat's own view
            assert self.seat is not None and self.seat in game.to_act()
            assert {k: v for k, v in m.items() if k not in ("type", "seq")} == json.loads(
                json.dumps(advise_view(game.view(self.seat), style="words").to_dict())
            )
            return
        assert m["type"] == "view", m["type"]
        leaked = set(named(m)) - knowable(game, self.seat)
        assert not leaked, f"seat {self.seat} was sent {sorted(leaked)} it cannot know ({m['type']})"
        asked = self.seat is not None and self.seat in game.to_act()
        assert asked or game.phase not in PAUSE_PHASES, "a seat not asked saw another's decision pending"
        if self.seat is None:
            assert m["view"] == observation_json(public_view(game.view(0)))
            assert m["legal"] == [] and m["hints"] is None
        else:
            view = game.view(self.seat)
            assert m["view"] == observation_json(view)
            assert m["legal"] == [str(a) for a in view.legal]
            assert m["hints"] == hints_json(view)


async def run_room(seed: int, rules: Rules, hands: int) -> tuple[list[Recorder], Recorder]:
    store = Store(":memory:")
    options = ServerOptions(hold=60, bot_delay=0, pause=0)
    room = Room("TEST", RoomSettings("test", rules, hands, seed), store, options)
    store.add_room("TEST", room.settings.to_json(), [])
    for s in range(4):
        room.place(SeatRow(s, f"p{s}", f"t{s}", None))
    players = [Recorder(room, s) for s in range(4)]
    spectator = Recorder(room, None)
    conns = [room.attach(p, p.seat) for p in players]
    spectator_conn = room.attach(spectator, None)
    room.start()
    room.handle(spectator_conn, ClientMessage("act", action="pass", seq=room.seq))
    rng = random.Random(seed)
    for _ in range(20000):
        if room.match is not None and room.match.is_over:
            break
        for p, conn in zip(players, conns, strict=True):
            new, p.unread = p.inbox[p.unread :], len(p.inbox)
            for m in new:
                if m["type"] == "view" and m["legal"]:
                    legal = m["legal"]
                    if rng.random() < 0.2:
                        room.handle(conn, ClientMessage("advise", seq=m["seq"]))
                    if rng.random() < 0.1:
                        room.handle(conn, ClientMessage("act", action="discard 9s", seq=m["seq"]))
                    preferred = [a for a in legal if a.split()[0] in ("concealed_kong", "kong", "hu", "added_kong")]
                    action = preferred[0] if preferred and rng.random() < 0.8 else rng.choice(legal)
                    room.handle(conn, ClientMessage("act", action=action, seq=m["seq"]))
        room.handle(spectator_conn, ClientMessage("ping"))
        await asyncio.sleep(0.001)  # bots think on worker threads: give them time
    assert room.match is not None and room.match.is_over
    assert room.closed is None
    return players, spectator


@pytest.mark.parametrize(("seed", "preset"), [(1, "app"), (2, "app"), (3, "seed"), (4, "bloody"), (5, "standard_kong")])
def test_random_matches_leak_nothing(seed: int, preset: str) -> None:
    players, spectator = asyncio.run(run_room(seed, Rules.preset(preset), hands=2))
    for p in players:
        assert {"hello", "view", "hand_over", "match_over", "error", "advice", "answered"} <= p.types
    assert {"hello", "view", "hand_over", "match_over", "pong"} <= spectator.types
    assert "error" in spectator.types  # a spectator that tries to act is refused


def test_a_scripted_deal_with_concealed_kongs_leaks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0 deals four 1m and three 9p; seat 3 holds 222m333m444m: concealed kongs and claims to hide.
    hands = ["1111m234567m99p55s", "123456789s1234p", "123456789p5678s", "222333444m678s9p"]
    rules = Rules.preset("seed").replace(declare_ready=False)

    def scripted(rules: Rules, seed: int, *, dealer: int | None = None, base: int = 1) -> Game:
        return Game.setup(rules, hands, dealer=0, seed=seed, base=base)

    monkeypatch.setattr("sichuan_mahjong.match.Game", scripted)
    players, _ = asyncio.run(run_room(7, rules, hands=1))
    kongs = [e for m in players[1].inbox if m["type"] == "view" for e in m["events"] if e["type"] == "concealed_kong"]
    assert kongs and all(e["data"]["tile"] is None for e in kongs)
