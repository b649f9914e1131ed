"""After the hand (issue 39): a player's matches (战绩), the replay of a finished hand as its seat saw it, and its
复盘, from the records the server writes beside its database (docs/records.md) and the ``players`` tables.

A player is a browser's random id (``player_id`` on ``POST /api/rooms`` and ``.../seats``); the id is the only
key to its history, so these endpoints answer only about rooms that id held a seat in. The replay sends the
seat's own views (``game.view(seat)``) step by step, never another seat's concealed tiles, until the last step,
which holds the ``hand_over`` message (every hand laid open, as the live table's 结算 shows it).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sichuan_mahjong.record import RecordError, load_hand, replay_steps
from sichuan_mahjong.server.limits import AddressGate, LimitExceededError
from sichuan_mahjong.server.lobby import Lobby, RequestError, player_id
from sichuan_mahjong.server.reviews import Reviews
from sichuan_mahjong.server.room import PAUSE_PHASES, record_stem
from sichuan_mahjong.server.store import PlayedRoom
from sichuan_mahjong.server.wire import event_json, hand_over_message, observation_json

__all__ = ["history_routes", "matches", "replay"]


def _hand_files(records: Path, room: PlayedRoom) -> list[Path]:
    stem = record_stem(room.created, room.code)
    return sorted(records.glob(f"{stem}-hand[0-9][0-9].jsonl"))


def _end(path: Path) -> dict[str, Any] | None:
    """The hand's ``end`` event (its last line), or None when the file cannot be read."""
    try:
        last = path.read_text(encoding="utf-8").rstrip("\n").rsplit("\n", 1)[-1]
        end = json.loads(last)
    except (OSError, ValueError):
        return None
    return end if isinstance(end, dict) and end.get("type") == "end" else None


def matches(lobby: Lobby, player: str) -> dict[str, Any]:
    """``GET /api/players/{id}/matches``: every match the id held a seat in, newest first."""
    records = lobby.options.records
    out = []
    for room in lobby.store.player_rooms(player):
        hands = []
        totals = [0, 0, 0, 0]
        for path in _hand_files(records, room) if records is not None else []:
            end = _end(path)
            if end is None:
                continue
            deltas = [int(d) for d in end.get("deltas", [0, 0, 0, 0])]
            totals = [t + d for t, d in zip(totals, deltas, strict=True)]
            hands.append(
                {"hand": int(path.stem[-2:]), "deltas": deltas, "reason": end.get("reason"), "record": path.name}
            )
        planned = room.settings.get("hands")
        mine = totals[room.seat]
        out.append(
            {
                "room": room.code,
                "created": room.created,
                "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime(room.created)),
                "preset": room.settings.get("preset"),
                "hands_planned": planned,
                "seat": room.seat,
                "names": room.names,
                "bots": room.bots,
                "totals": totals,
                "place": 1 + sum(t > mine for t in totals),
                "over": planned is not None and len(hands) >= int(planned),
                "hands": hands,
            }
        )
    return {"player": player, "name": lobby.store.player_name(player), "matches": out}


def _held(lobby: Lobby, player: str, code: str) -> PlayedRoom:
    for room in lobby.store.player_rooms(player):
        if room.code == code.upper():
            return room
    raise RequestError(f"player {player[:6]}… held no seat in room {code!r}", 404)


def hand_path(lobby: Lobby, player: str, code: str, hand: str) -> tuple[PlayedRoom, Path, int]:
    """The record of hand ``hand`` (1-based) of room ``code`` that ``player`` played: 404 if none."""
    room = _held(lobby, player, code)
    if not hand.isdigit() or not 1 <= int(hand) <= 99:
        raise RequestError(f"the hand must be a number 1-99, got {hand[:10]!r}")
    records = lobby.options.records
    path = None if records is None else records / f"{record_stem(room.created, room.code)}-hand{int(hand):02d}.jsonl"
    if path is None or not path.is_file():
        raise RequestError(f"hand {int(hand)} of room {room.code} is not finished (no record yet)", 404)
    return room, path, int(hand)


def replay(lobby: Lobby, player: str, code: str, hand: str) -> dict[str, Any]:
    """``GET /api/players/{id}/matches/{code}/hands/{n}``: the finished hand, step by step, as the seat saw it.

    A step is a moment the hand waited for answers and the live table showed the seat a view (none while
    others decide a claim): the seat's view then (as in the live ``view`` message, so the page draws it with
    the same code), its legal answers if it was asked, what it answered, its own events since the step before,
    and ``log``: how many events of its own log came before (a 复盘 decision's ``step``). The last step is the
    end, with the ``hand_over`` message."""
    room, path, n = hand_path(lobby, player, code, hand)
    try:
        game = load_hand(path)
    except (OSError, RecordError) as exc:
        raise RequestError(f"the record of hand {n} of room {room.code} cannot be read: {exc}", 500) from None
    seat = room.seat
    events = game.events
    rules = game.rules.to_dict()
    steps = []
    seen = 0
    for step in replay_steps(events):
        g = step.game
        if g.phase in PAUSE_PHASES and seat not in step.asked:
            continue  # the live table shows a seat nothing while others decide a claim (room.py)
        mine = g.events_for(seat)
        answer = None
        for e in events[step.at :]:
            if e.type != "act":
                break
            if e.seat == seat:
                answer = e.data.get("action")
        steps.append(
            {
                "at": step.at,
                "log": len(mine),
                "view": observation_json(g.view(seat), rules),
                "legal": [str(a) for a in step.asked.get(seat, [])],
                "answer": answer,
                "events": [event_json(e) for e in mine[seen:]],
            }
        )
        seen = len(mine)
    mine = game.events_for(seat)
    steps.append(
        {
            "at": len(events),
            "log": len(mine),
            "view": observation_json(game.view(seat), rules),
            "legal": [],
            "answer": None,
            "events": [event_json(e) for e in mine[seen:]],
        }
    )
    room_json = {"code": room.code, "names": room.names, "seat": seat}
    return {"room": room.code, "hand": n, "seat": seat, "names": room.names, "bots": room.bots, "steps": steps,
            "hand_over": hand_over_message(game, n, room_json)}  # fmt: skip


def history_routes(
    lobby: Callable[[], Lobby],
    gate: AddressGate,
    address: Callable[[Request], str],
    error: Callable[[RequestError], JSONResponse],
    limited: Callable[[LimitExceededError], JSONResponse],
    reviews: Reviews,
) -> list[Route]:
    """The routes of the history, the replay, 复盘 and "forget me" (docs/protocol.md, "After the hand")."""

    def answer(request: Request, work: Callable[[str], Any], status: int = 200) -> Response:
        try:
            gate.lookups.take(address(request))
            player = player_id(request.path_params["player"], "the player id")
            return JSONResponse(work(player), status_code=status)
        except RequestError as exc:
            return error(exc)
        except LimitExceededError as exc:
            return limited(exc)

    async def get_matches(request: Request) -> Response:
        return answer(request, lambda p: matches(lobby(), p))

    async def get_hand(request: Request) -> Response:
        params = request.path_params
        return answer(request, lambda p: replay(lobby(), p, params["room"], params["hand"]))

    async def forget(request: Request) -> Response:
        return answer(request, lambda p: {"player": p, "forgotten_seats": lobby().store.forget_player(p)})

    async def review(request: Request) -> Response:
        params = request.path_params

        def work(p: str) -> dict[str, Any]:
            room, path, _ = hand_path(lobby(), p, params["room"], params["hand"])
            return reviews.ask(path, room.seat)

        try:
            gate.lookups.take(address(request))
            player = player_id(params["player"], "the player id")
            out = work(player)
        except RequestError as exc:
            return error(exc)
        except LimitExceededError as exc:
            return limited(exc)
        return JSONResponse(out, status_code=200 if out["status"] == "done" else 202)

    return [
        Route("/api/players/{player}/matches", get_matches),
        Route("/api/players/{player}/matches/{room}/hands/{hand}", get_hand),
        Route("/api/players/{player}/matches/{room}/hands/{hand}/review", review, methods=["GET", "POST"]),
        Route("/api/players/{player}", forget, methods=["DELETE"]),
    ]
