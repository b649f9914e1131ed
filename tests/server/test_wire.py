"""The wire format's builders and the client-message reader (server/wire.py)."""

from __future__ import annotations

import json
import random

import pytest

from sichuan_mahjong.game import Game
from sichuan_mahjong.game.view import public_view
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.server.wire import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    WireError,
    hints_json,
    observation_json,
    own_view_text,
    parse_client,
    shared_view_text,
    view_message,
    view_message_text,
)


def test_the_encoded_view_message_is_the_view_message() -> None:
    game = Game(Rules.preset("app"), seed=9)
    rng = random.Random(9)
    room = {"code": "K7QF", "players": [{"name": "阿明"}] * 4}
    for _ in range(80):
        public = observation_json(public_view(game.view(0)))
        shared = shared_view_text(public)
        for s in range(4):
            view = game.view(s)
            full = observation_json(view)
            assert observation_json(view, None, public) == full  # the shared-fields shortcut builds the same
            events = game.events_for(s)[-3:]
            own, hints = own_view_text(full), json.dumps(hints_json(view))
            text = view_message_text(7, own, shared, view.legal, events, json.dumps(room), hints)
            assert json.loads(text) == view_message(7, full, view.legal, events, room, hints_json(view))
        game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
        if game.is_over:
            break


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        (b"{}", "malformed", "not binary"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_big", "at most"),
        ("{", "malformed", "not JSON"),
        ("[1]", "malformed", "one JSON object"),
        ('{"type": "shout"}', "malformed", "unknown type 'shout'"),
        ('{"type": "act", "action": "pass"}', "malformed", '"seq"'),
        ('{"type": "act", "action": "pass", "seq": -1}', "malformed", '"seq"'),
        ('{"type": "act", "action": "pass", "seq": true}', "malformed", '"seq"'),
        ('{"type": "act", "action": "", "seq": 1}', "malformed", '"action"'),
        ('{"type": "advise"}', "malformed", '"seq"'),
        ('{"type": "auto", "on": "yes"}', "malformed", '"on"'),
        ('{"type": "auth"}', "malformed", '"token"'),
    ],
)
def test_bad_frames_are_named(frame: str | bytes, code: str, words: str) -> None:
    with pytest.raises(WireError) as err:
        parse_client(frame)
    assert err.value.code == code and words in err.value.message


def test_good_frames() -> None:
    assert parse_client('{"type": "advise", "seq": 3}') == ClientMessage("advise", seq=3)
    assert parse_client('{"type": "auto", "on": false}') == ClientMessage("auto", on=False)
    assert parse_client('{"type": "auth", "token": "abc"}') == ClientMessage("auth", token="abc")
    assert parse_client('{"type": "next"}') == ClientMessage("next")
    assert parse_client('{"type": "act", "action": " discard 5p ", "seq": 0}').action == "discard 5p"
