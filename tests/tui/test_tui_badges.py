"""The seat badges (tui/badges.py): the 过水不胡 badge (docs/rules.md R9.1) shows the view's own seat's lock only."""

from __future__ import annotations

from rich.text import Text

from scripted import offered_win_deal
from sichuan_mahjong.game import Action, Game, Observation
from sichuan_mahjong.tui.badges import append_seat_badges, pass_lock_badge

A = Action.parse


def badges(view: Observation, seat: int, lang: str = "en") -> str:
    head = Text()
    append_seat_badges(head, view, seat, lang, "compact")
    return head.plain


def offered_game() -> Game:
    """Seat 1 has discarded 9p, which seat 0 may win on; seat 2 draws 9p next."""
    game = offered_win_deal()
    assert A("hu") in game.to_act()[0]
    return game


def test_the_badge_shows_while_locked_and_goes_with_the_own_draw() -> None:
    game = offered_game()
    assert pass_lock_badge(game.view(0), "en") is None  # offered, not passed: no lock
    game.step({s: A("pass") for s in game.to_act()})
    view = game.view(0)
    assert view.pass_lock == 0
    assert pass_lock_badge(view, "en") == "passed a win (needs >0 fan)"
    assert pass_lock_badge(view, "zh") == "过水（胡要>0番）"
    assert "passed a win (needs >0 fan)" in badges(view, 0)
    assert "过水" in badges(view, 0, "zh")
    # a lock of more fan is named as it is
    assert pass_lock_badge(view._replace(pass_lock=3), "en") == "passed a win (needs >3 fan)"
    # until seat 0's own draw
    while not (game.phase == "play" and game.view(0).turn == 0):
        assert pass_lock_badge(game.view(0), "en") is not None
        pending = game.to_act()
        answers: dict[int, Action] = {}
        for s, opts in pending.items():
            drawn = game.view(s).drawn
            answers[s] = Action.discard(drawn) if game.phase == "play" and drawn is not None else A("pass")
            assert answers[s] in opts
        game.step(answers)
    assert game.view(0).drawn is not None
    assert pass_lock_badge(game.view(0), "en") is None and "passed" not in badges(game.view(0), 0)


def test_no_badge_for_another_seat_or_after_the_hand() -> None:
    game = offered_game()
    game.step({s: A("pass") for s in game.to_act()})
    locked = game.view(0)
    # seat 0's lock is in its own view only: the others' views show no badge for seat 0 (or anyone)
    for s in (1, 2, 3):
        view = game.view(s)
        assert view.pass_lock is None
        assert all("passed" not in badges(view, seat) for seat in range(4))
    # the human's view shows the badge on its own seat's line, never on another seat's
    assert all("passed" not in badges(locked, seat) for seat in (1, 2, 3))
    assert pass_lock_badge(locked._replace(is_over=True), "en") is None
    assert pass_lock_badge(locked._replace(active=(False, True, True, True)), "en") is None
