"""One table: a match with the player at seat 0 and three bots, driven one decision at a time; no Textual.

The app asks :class:`Table` what the player may do (:attr:`Table.legal`), passes the player's choice to
:meth:`Table.answer`, and lets the bots move with :meth:`Table.step_bots`. Bots and player go through the same
door, ``game.view(seat)`` and the legal answers (the bots through :func:`~sichuan_mahjong.game.ask`, the one
play loop's step, taken here a decision at a time). A bot's answer to a claim is worked out once per decision, so
an illegal key press from the player (refused by the engine, which leaves the game unchanged) does not make
the bots think again and the game stays the one ``--seed`` deals.
"""

from __future__ import annotations

import shlex
import time
from dataclasses import dataclass
from pathlib import Path

from sichuan_mahjong.agents import Agent, make_agent
from sichuan_mahjong.game import Action, Event, Game, IllegalActionError, Observation, Settlement, ask
from sichuan_mahjong.match import Match
from sichuan_mahjong.record import hand_to_jsonl, save_hand, save_match
from sichuan_mahjong.tui.settings import PlaySettings

__all__ = ["HUMAN", "HandSummary", "NotAskedError", "Table"]

HUMAN = 0


class NotAskedError(IllegalActionError):
    """The player answered while the game was not asking him anything."""


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand as the end-of-hand screen shows it."""

    number: int
    dealer: int
    settlement: Settlement
    hands: tuple[Observation, ...]  # each seat's own view once the hand is over (all may be shown now)
    totals: tuple[int, ...]  # match totals after this hand
    record: Path | None
    record_text: str  # the hand's record as saved (JSON Lines), for its replay when no file was written
    save_error: str | None = None  # why the record could not be saved (the game goes on)


class Table:
    """A match at one table. ``game`` is the hand in play; ``match`` keeps dealers and totals."""

    def __init__(self, settings: PlaySettings) -> None:
        self.settings = settings
        self.rules = settings.rules
        self.match = Match(self.rules, hands=settings.hands, base=1, seed=settings.seed)
        self.bots: dict[int, Agent] = {
            seat: make_agent(name, seed=settings.seed * 4 + seat)
            for seat, name in zip((1, 2, 3), settings.bots, strict=True)
        }
        self.number = 0
        self._stamp = time.strftime("%Y%m%d-%H%M%S")
        self.match_record: Path | None = None  # the match so far, once a hand of it is saved
        self.summaries: list[HandSummary] = []
        self.game = self._deal()
        self._bot_answers: dict[int, Action] = {}
        self._answers_at = -1
        self._log_at = 0

    # -------------------------------------------------------------------------------------------- hands
    def _deal(self) -> Game:
        self.number += 1
        game = self.match.next_game()
        self._log_at = 0
        return game

    @property
    def match_over(self) -> bool:
        return self.game.is_over and self.match.is_over

    def next_hand(self) -> None:
        """Deal the next hand of the match (the dealer follows R2.5); the current one must be over."""
        if not self.game.is_over:
            raise RuntimeError("the hand in play is not over")
        if self.match.is_over:
            raise RuntimeError("the match is over")
        self.game = self._deal()

    @property
    def totals_before(self) -> tuple[int, ...]:
        """Match totals before the hand in play."""
        totals = [0, 0, 0, 0]
        for game in self.match.games:
            if game is not self.game and game.is_over:
                for s in range(4):
                    totals[s] += game.result.deltas[s]
        return tuple(totals)

    @property
    def totals(self) -> tuple[int, ...]:
        """Match totals including the hand in play (its payments so far)."""
        return tuple(b + d for b, d in zip(self.totals_before, self.game.deltas, strict=True))

    def finish(self) -> HandSummary:
        """Save the finished hand's record (once) and sum it up."""
        if not self.game.is_over:
            raise RuntimeError("the hand is not over")
        if self.summaries and self.summaries[-1].number == self.number:
            return self.summaries[-1]
        path: Path | None = None
        error = None
        if self.settings.records is not None:
            try:
                path = self._save(self.settings.records, "")
            except OSError as exc:
                error = f"{exc.filename or self.settings.records}: {exc.strerror or exc}"
        summary = HandSummary(
            save_error=error,
            record_text=hand_to_jsonl(self.game),
            number=self.number,
            dealer=self.game.dealer,
            settlement=self.game.result,
            hands=tuple(self.game.view(s) for s in range(4)),
            totals=self.totals,
            record=path,
        )
        self.summaries.append(summary)
        return summary

    def save_unfinished(self) -> Path | None:
        """On quitting mid-hand: save the hand so far (``...-unfinished.jsonl``), if records are kept."""
        if self.settings.records is None or self.game.is_over:
            return None
        return self._save(self.settings.records, "-unfinished")

    def _save(self, folder: Path, suffix: str) -> Path:
        """The hand in play and the match so far, into ``folder``; an OSError says why not."""
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{self._stamp}-seed{self.settings.seed}"
        path = folder / f"{name}-hand{self.number}{suffix}.jsonl"
        save_hand(self.game, path)
        save_match(self.match, folder / f"{name}-match.jsonl")
        self.match_record = folder / f"{name}-match.jsonl"
        return path

    def review_command(self) -> str | None:
        """The command that reviews the player's seat over the saved match (docs/review.md), once one is saved."""
        if self.match_record is None:
            return None
        return f"scmj review {shlex.quote(str(self.match_record))} --seat {HUMAN}"

    # ---------------------------------------------------------------------------------------- decisions
    def view(self) -> Observation:
        return self.game.view(HUMAN)

    @property
    def legal(self) -> tuple[Action, ...]:
        """The player's legal answers now; empty when he is not asked."""
        return tuple(self.game.to_act().get(HUMAN, ()))

    @property
    def bots_to_move(self) -> bool:
        """The game waits for bots only."""
        pending = self.game.to_act()
        return bool(pending) and HUMAN not in pending

    def _answers_of_bots(self) -> dict[int, Action]:
        at = len(self.game.events)
        if at != self._answers_at:
            pending = {s: legal for s, legal in sorted(self.game.to_act().items()) if s != HUMAN}
            self._bot_answers = ask(self.game, self.bots, pending)
            self._answers_at = at
        return self._bot_answers

    def step_bots(self) -> bool:
        """Let the bots make one decision when only they are asked; False when there was none to make."""
        if not self.bots_to_move:
            return False
        self.game.step(self._answers_of_bots())
        return True

    def answer(self, action: Action | str) -> None:
        """The player's answer, together with the bots asked at the same moment.

        An illegal answer raises :class:`IllegalActionError` with the engine's reason and changes nothing.
        """
        if HUMAN not in self.game.to_act():
            raise NotAskedError("you are not asked to act now")
        a = Action.parse(action) if isinstance(action, str) else action
        answers = dict(self._answers_of_bots())
        answers[HUMAN] = a
        self.game.step(answers)

    def new_events(self) -> list[Event]:
        """The events the player may see (R12) that were not returned before."""
        events = self.game.events_for(HUMAN)
        out = events[self._log_at :]
        self._log_at = len(events)
        return out
