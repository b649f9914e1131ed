"""The table's drawing without a terminal (tui/table_view.py): the prompt and the received tiles' marks."""

from __future__ import annotations

import time

from scripted import offered_win_deal
from sichuan_mahjong.game import Action
from sichuan_mahjong.tiles import parse_tiles
from sichuan_mahjong.tui.table_view import prompt, received_spots

A = Action.parse


def test_a_claim_prompt_names_the_discard_each_answer_with_its_key_and_the_clock() -> None:
    view = offered_win_deal().view(0)
    legal = (A("hu"), A("pass"))
    assert prompt(view, legal, "en", "compact") == "Right (1) discards 9p: h hu  x pass"
    assert prompt(view, legal, "zh", "zh") == "下家(1)打出 九筒： h 胡  x 过"
    timed = prompt(view, legal, "en", "compact", time.monotonic() + 5.4)
    assert timed == "Right (1) discards 9p: h hu  x pass   (auto-pass in 5s)"
    late = prompt(view, legal, "en", "compact", time.monotonic() - 3)
    assert late.endswith("(auto-pass in 0s)")  # never a negative count


def test_a_player_not_asked_is_told_why() -> None:
    view = offered_win_deal().view(0)
    assert prompt(view._replace(is_over=True), (A("hu"),), "en", "compact").startswith("The hand is over")
    assert prompt(view, (), "en", "compact") == "Waiting for the others…"
    won = view._replace(active=(False, True, True, True))
    assert prompt(won, (), "en", "compact") == "You have won; the others play on"


def test_received_tiles_are_marked_once_each_until_the_first_discard() -> None:
    view = offered_win_deal().view(0)
    tiles = view.tiles  # 1m 1m 2m 3m 4m 5m 6m 7m 2p 3p 4p 7p 8p
    given, received = tuple(parse_tiles("1s2s3s")), tuple(parse_tiles("1m4p8p"))
    swapped = view._replace(exchanged=(given, received))
    assert received_spots(swapped, tiles, discarded=False) == {0, 10, 12}  # one of the two 1m only
    assert received_spots(swapped, tiles, discarded=True) == set()
    assert received_spots(swapped._replace(discards=(tuple(parse_tiles("9s")), (), (), ())), tiles, False) == set()
    assert received_spots(view, tiles, discarded=False) == set()  # no 换三张 this hand
