"""Hands and matches saved as JSON Lines of events, loaded back by replay (docs/records.md).

A file is a header line (format name, version, rules, seed, base, ...) and then one line per event
(``Event.to_dict()``); a match writes each hand's events after a ``{"hand": i, ...}`` line. Loading never
trusts the file: it rebuilds every hand from its ``deal`` and the players' answers (the ``act`` events) and
checks that the engine writes exactly the events the file holds, so a damaged, truncated or tampered file is
a :class:`RecordError` naming the file, the line and what is wrong, never a wrong game or a traceback.

A record for one seat (``save_hand(game, path, seat=k)``) holds only ``game.events_for(k)``, what that seat
may see (docs/rules.md R12): no other hand, no wall, no seed. It is what a client may keep; it can be shown
(``scmj replay``) but not replayed as a full game.

>>> from sichuan_mahjong.game.state import Game
>>> import random
>>> game = Game(seed=3)
>>> rng = random.Random(3)
>>> while not game.is_over:
...     game.step({s: rng.choice(legal) for s, legal in game.to_act().items()})
>>> text = hand_to_jsonl(game)
>>> hand_from_jsonl(text).events == game.events
True
>>> hand_from_jsonl(text.replace('"type":"discard"', '"type":"discord"', 1))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sichuan_mahjong.record.RecordError: <string>:4: the file has a 'discord' event ... where the replay writes ...
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

from sichuan_mahjong.game.actions import Action
from sichuan_mahjong.game.deal import DealError
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.match import Match, hand_seed
from sichuan_mahjong.rules import Rules

__all__ = [
    "FORMAT_HAND",
    "FORMAT_MATCH",
    "VERSION",
    "HandRecord",
    "Record",
    "RecordError",
    "ReplayStep",
    "hand_from_jsonl",
    "hand_to_jsonl",
    "load_hand",
    "load_match",
    "match_from_jsonl",
    "match_to_jsonl",
    "parse_record",
    "read_record",
    "replay_hand",
    "replay_steps",
    "replay_to",
    "save_hand",
    "save_match",
]

FORMAT_HAND: Final = "sichuan_mahjong.hand"
FORMAT_MATCH: Final = "sichuan_mahjong.match"
#: The newest version this module writes and reads. Bump it when a reader of the old version would misread.
VERSION: Final = 1

PathLike = str | os.PathLike[str]


class RecordError(ValueError):
    """A record that cannot be read: says which file, which line (1-based) and what is wrong.

    ``source``, ``line`` and ``reason`` are kept apart for programs; ``str()`` is ``file:line: reason``.
    """

    def __init__(self, reason: str, source: str | None = None, line: int | None = None) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        where = source or ""
        if line is not None:
            where = f"{where}:{line}" if where else f"event {line}"
        super().__init__(f"{where}: {reason}" if where else reason)


# --------------------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as read from a file, before any replay: its header and events with their line numbers.

    ``header`` is the file's header for a hand file, the ``{"hand": i, ...}`` line for a hand of a match.
    ``lines[i]`` is the 1-based file line of ``events[i]`` (None for events built in memory).
    """

    header: Mapping[str, Any]
    events: list[Event]
    lines: list[int] | None
    source: str | None
    header_line: int | None

    def where(self, i: int) -> tuple[str | None, int | None]:
        """(source, line) of event i, for an error message."""
        if self.lines is None:
            return self.source, i + 1
        return self.source, self.lines[min(i, len(self.lines) - 1)] if self.lines else self.header_line


@dataclass(frozen=True, slots=True)
class Record:
    """A whole file: ``kind`` is ``"hand"`` or ``"match"``; ``seat`` is None for a full record."""

    kind: str
    header: Mapping[str, Any]
    hands: list[HandRecord]
    seat: int | None
    source: str | None

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.header["rules"])


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _check_seat(seat: int | None) -> None:
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4):
        raise ValueError(f"seat must be 0..3 or None, got {seat!r}")


def hand_to_jsonl(game: Game, seat: int | None = None) -> str:
    """The hand as JSON Lines text; ``seat`` keeps only what that seat may see (no seed: it would reveal all)."""
    _check_seat(seat)
    events = game.events if seat is None else game.events_for(seat)
    header = {
        "format": FORMAT_HAND,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed if seat is None else None,
        "base": game.base,
        "dealer": game.dealer,
        "seat": seat,
        "events": len(events),
    }
    return "".join(_dumps(x) + "\n" for x in (header, *(e.to_dict() for e in events)))


def match_to_jsonl(match: Match, seat: int | None = None) -> str:
    """The match as JSON Lines text: a header, then per hand a ``hand`` line and that hand's events."""
    _check_seat(seat)
    header = {
        "format": FORMAT_MATCH,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.seed if seat is None else None,
        "base": match.base,
        "hands": match.hands,
        "played": len(match.games),
        "seat": seat,
    }
    out = [_dumps(header) + "\n"]
    for i, game in enumerate(match.games):
        events = game.events if seat is None else game.events_for(seat)
        hand = {"hand": i, "seed": game.seed if seat is None else None, "dealer": game.dealer, "events": len(events)}
        out.append(_dumps(hand) + "\n")
        out.extend(_dumps(e.to_dict()) + "\n" for e in events)
    return "".join(out)


def _write_atomically(path: PathLike, text: str) -> None:
    """Write to a temporary file beside ``path`` and rename it, so a failed save never leaves half a file."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_hand(game: Game, path: PathLike, seat: int | None = None) -> None:
    """Save one hand (finished or not) as JSON Lines; ``seat=k`` saves only seat k's filtered log."""
    _write_atomically(path, hand_to_jsonl(game, seat))


def save_match(match: Match, path: PathLike, seat: int | None = None) -> None:
    """Save a match (finished or not) as JSON Lines; ``seat=k`` saves only seat k's filtered logs."""
    _write_atomically(path, match_to_jsonl(match, seat))


# ----------------------------------------------------------------------------------------------- parsing


def _int_field(
    raw: Mapping[str, Any], key: str, source: str, line: int, *, low: int | None, optional: bool = False
) -> Any:
    value = raw.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low):
        kind = ("an integer" if low is None else f"an integer >= {low}") + (" or null" if optional else "")
        raise RecordError(f"{key!r} must be {kind}, got {value!r}", source, line)
    return value


def parse_record(text: str, source: str = "<string>") -> Record:
    """Read the structure of a record (header, hands, events) without replaying anything.

    Checks every line is a JSON object of the right kind and the counts the headers announce, so a cut-off
    file is reported as truncated at the line where it ends.
    """
    rows: list[tuple[int, dict[str, Any]]] = []
    pieces = text.split("\n")
    ends_cleanly = text.endswith("\n")
    last = max((n for n, piece in enumerate(pieces, start=1) if piece.strip()), default=0)
    for number, piece in enumerate(pieces, start=1):
        line = piece.rstrip("\r")
        if not line.strip():
            if number < last:  # blank lines may end a file, never sit between its lines
                raise RecordError("a blank line inside the record: every line is one JSON object", source, number)
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            cut = " (the file ends inside this line: truncated?)" if number == len(pieces) and not ends_cleanly else ""
            raise RecordError(f"not valid JSON: {exc.msg} at column {exc.colno}{cut}", source, number) from None
        except RecursionError:
            raise RecordError("JSON nested too deeply", source, number) from None
        if not isinstance(raw, dict):
            raise RecordError(f"each line must be a JSON object, got {type(raw).__name__}", source, number)
        rows.append((number, raw))
    if not rows:
        raise RecordError("empty file: expected a header line with a 'format'", source, 1)
    first_line, header = rows[0]
    fmt = header.get("format")
    if fmt not in (FORMAT_HAND, FORMAT_MATCH):
        raise RecordError(
            f"unknown format {fmt!r}: expected {FORMAT_HAND!r} or {FORMAT_MATCH!r}"
            + (" (this looks like Game.to_json output, not JSON Lines)" if fmt == "sichuan_mahjong.game" else ""),
            source,
            first_line,
        )
    version = header.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RecordError(f"'version' must be a positive integer, got {version!r}", source, first_line)
    if version > VERSION:
        raise RecordError(
            f"format version {version} is newer than this program reads (up to {VERSION}); upgrade sichuan_mahjong",
            source,
            first_line,
        )
    rules_raw = header.get("rules")
    if not isinstance(rules_raw, dict):
        raise RecordError("'rules' must be an object of rule options", source, first_line)
    try:
        Rules.from_dict(rules_raw)
    except (ValueError, TypeError) as exc:
        raise RecordError(f"bad rules: {exc}", source, first_line) from None
    seat = header.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4):
        raise RecordError(f"'seat' must be null (a full record) or 0..3, got {seat!r}", source, first_line)
    _int_field(header, "base", source, first_line, low=1)
    _int_field(header, "seed", source, first_line, low=None, optional=seat is not None)
    if fmt == FORMAT_HAND:
        _int_field(header, "dealer", source, first_line, low=0)
        count = _int_field(header, "events", source, first_line, low=1)
        hand = _read_events(rows[1:], header, count, source, first_line, end_line=len(pieces))
        return Record("hand", header, [hand], seat, source)
    hands_total = _int_field(header, "hands", source, first_line, low=1)
    played = _int_field(header, "played", source, first_line, low=0)
    if played > hands_total:
        raise RecordError(f"'played' ({played}) is more than 'hands' ({hands_total})", source, first_line)
    hands: list[HandRecord] = []
    k = 1
    while k < len(rows):
        number, raw = rows[k]
        if not _is_hand_line(raw):
            what = f"a {raw['type']!r} event" if "type" in raw else "a line without 'hand'"
            raise RecordError(
                f"expected the header of hand {len(hands)} ({{'hand': ...}}), found {what}", source, number
            )
        if raw["hand"] != len(hands):
            raise RecordError(f"expected hand {len(hands)}, found hand {raw['hand']!r}", source, number)
        if len(hands) >= played:
            raise RecordError(f"more hands than the {played} announced on line {first_line}", source, number)
        count = _int_field(raw, "events", source, number, low=1)
        _int_field(raw, "dealer", source, number, low=0)
        end = k + 1
        while end < len(rows) and not _is_hand_line(rows[end][1]):
            end += 1
        hands.append(_read_events(rows[k + 1 : end], raw, count, source, number, end_line=len(pieces)))
        k = end
    if len(hands) < played:
        raise RecordError(
            f"truncated: line {first_line} announces {played} hands, the file holds {len(hands)}",
            source,
            rows[-1][0],
        )
    return Record("match", header, hands, seat, source)


def _is_hand_line(raw: Mapping[str, Any]) -> bool:
    """A match's per-hand header; events carry a 'type' (a one-seat deal event has a 'hand' of its own)."""
    return "hand" in raw and "type" not in raw


def _read_events(
    rows: Sequence[tuple[int, dict[str, Any]]],
    header: Mapping[str, Any],
    count: int,
    source: str,
    header_line: int,
    *,
    end_line: int,
) -> HandRecord:
    events: list[Event] = []
    lines: list[int] = []
    for number, raw in rows:
        kind, seat = raw.get("type"), raw.get("seat")
        if not isinstance(kind, str) or isinstance(seat, bool) or not isinstance(seat, int) or not -1 <= seat < 4:
            raise RecordError(
                "an event needs 'type' (text) and 'seat' (-1..3); got " + _dumps({"type": kind, "seat": seat}),
                source,
                number,
            )
        if len(events) == count:
            raise RecordError(f"more events than the {count} announced on line {header_line}", source, number)
        if not events and kind != "deal":
            raise RecordError(f"a hand starts with its 'deal' event, found {kind!r}", source, number)
        events.append(Event.from_dict(raw))
        lines.append(number)
    if len(events) < count:
        last = lines[-1] if lines else header_line
        raise RecordError(
            f"truncated: line {header_line} announces {count} events, the file holds {len(events)}"
            f" (ends after line {last})",
            source,
            last,
        )
    return HandRecord(header, events, lines, source, header_line)


def read_record(path: PathLike) -> Record:
    """Read a record file's structure (see :func:`parse_record`); the file name goes into every error."""
    source = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text (byte {exc.start})", source) from None
    return parse_record(text, source)


# ------------------------------------------------------------------------------------------------ replay


class ReplayStep(NamedTuple):
    """A moment where the hand waits for answers: ``game.events == events[:at]`` and ``asked`` is to_act()."""

    at: int
    asked: dict[int, list[Action]]
    game: Game


def _check_full_deal(hand: HandRecord) -> Event:
    deal = hand.events[0]
    if deal.type != "deal":
        raise RecordError(f"a hand starts with its 'deal' event, found {deal.type!r}", *hand.where(0))
    if "hands" not in deal.data or "wall" not in deal.data:
        raise RecordError(
            "this deal holds one seat's tiles only (a record for one seat): it cannot be replayed as a full game",
            *hand.where(0),
        )
    return deal


def _game_from_deal(hand: HandRecord) -> Game:
    deal = _check_full_deal(hand)
    try:
        return Game.replay([deal])
    except DealError as exc:  # what read_deal finds impossible: dice, tile counts, hand sizes, ...
        raise RecordError(f"bad 'deal' event: {exc}", *hand.where(0)) from None
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise RecordError(f"bad 'deal' event: {type(exc).__name__}: {exc}", *hand.where(0)) from None


def _drive(game: Game, hand: HandRecord, stop: int, *, partial: bool) -> Iterator[ReplayStep]:
    """Feed the answers among ``hand.events[:stop]`` to ``game``, checking every event the game writes.

    Yields before each step. With ``partial`` a group of answers cut by ``stop`` is left unapplied (stepping
    to a point); otherwise it is an error.
    """
    events = hand.events
    i = 0
    while i < stop:
        if i < len(game.events):
            if game.events[i] != events[i]:  # type, seat and data: the same test as their to_dict()s
                mine, theirs = game.events[i].to_dict(), events[i].to_dict()
                raise RecordError(
                    f"the file has {_short(theirs)} where the replay writes {_short(mine)}", *hand.where(i)
                )
            i += 1
            continue
        asked = game.to_act()
        if not asked:
            raise RecordError(f"a {events[i].type!r} event after the end of the hand", *hand.where(i))
        who = ", ".join(map(str, sorted(asked)))
        answers: dict[int, str] = {}
        j = i
        while len(answers) < len(asked):
            if j >= stop:
                if partial:
                    return
                raise RecordError(
                    f"the record ends while seat(s) {who} must still answer (truncated?)", *hand.where(j - 1)
                )
            e = events[j]
            if e.type != "act":
                raise RecordError(
                    f"expected the answer ('act') of seat(s) {who}, which the hand waits for; found {e.type!r}",
                    *hand.where(j),
                )
            action = e.data.get("action")
            if e.seat not in asked or e.seat in answers or not isinstance(action, str):
                raise RecordError(
                    f"an answer from seat {e.seat} ({action!r}) but the hand asks seat(s) {who}", *hand.where(j)
                )
            answers[e.seat] = action
            j += 1
        yield ReplayStep(i, asked, game)
        try:
            game.step(answers)
        except ValueError as exc:
            raise RecordError(f"an answer the hand does not allow: {exc}", *hand.where(j - 1)) from None
    if not partial and len(game.events) > len(events):
        nxt = _short(game.events[len(events)].to_dict())
        raise RecordError(
            f"the record ends here but the hand goes on (next would be {nxt}): truncated?",
            *hand.where(len(events) - 1),
        )


def _clip(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _short(raw: Mapping[str, Any]) -> str:
    text = _dumps(raw)
    return f"a {raw.get('type')!r} event " + (text if len(text) <= 160 else text[:157] + "...")


def _as_hand(events: Sequence[Event | Mapping[str, Any]]) -> HandRecord:
    items = [e if isinstance(e, Event) else Event.from_dict(e) for e in events]
    if not items:
        raise RecordError("no events: a hand starts with its 'deal' event")
    return HandRecord({}, items, None, None, None)


def replay_steps(events: Sequence[Event | Mapping[str, Any]]) -> Iterator[ReplayStep]:
    """Every decision point of a full hand's events, in order, with the checked replay so far.

    The same :class:`Game` object advances between yields (copy what you need before the next one).
    """
    hand = _as_hand(events)
    return _drive(_game_from_deal(hand), hand, len(hand.events), partial=False)


def replay_to(events: Sequence[Event | Mapping[str, Any]], n: int) -> Game:
    """The hand rebuilt from its first ``n`` events (1 = just the deal), for stepping through a record.

    Every answer among those events is applied; one answer writes several events at once, so the game may
    have run ahead of ``n`` to the next decision (its events then start with ``events[:n]``), and answers
    of a group that ``n`` cuts in two are not applied yet. Events that disagree with the replay raise.
    """
    hand = _as_hand(events)
    if not 1 <= n <= len(hand.events):
        raise ValueError(f"n must be 1..{len(hand.events)} (the number of events to replay), got {n}")
    game = _game_from_deal(hand)
    for _ in _drive(game, hand, n, partial=True):
        pass
    return game


def replay_hand(hand: HandRecord, game: Game | None = None) -> Game:
    """Rebuild one hand of a record, checked event by event; ``game`` is a fresh game to feed (a match's)."""
    if game is None:
        game = _game_from_deal(hand)
    for _ in _drive(game, hand, len(hand.events), partial=False):
        pass
    return game


def _full(record: Record, what: str) -> None:
    if record.seat is not None:
        raise RecordError(
            f"a record for seat {record.seat} only (the events that seat may see, docs/rules.md R12): it cannot be "
            f"replayed as a full {what}; `scmj replay` can show it",
            record.source,
            1,
        )


def _check_header_against_deal(hand: HandRecord, rules: Rules, base: int, seed: int | None) -> None:
    d = _check_full_deal(hand).data
    for key, want in (("rules", rules.to_dict()), ("base", base), ("seed", seed), ("dealer", hand.header["dealer"])):
        if key == "seed" and want is None:
            continue
        got = d.get(key)
        if key == "rules" and isinstance(got, dict):
            with contextlib.suppress(ValueError, TypeError):
                got = Rules.from_dict(got).to_dict()
        if got != want:
            what, a, b = key, got, want
            if isinstance(got, dict) and isinstance(want, dict):  # name the first option that differs, not all
                name = next(k for k in sorted({*got, *want}, key=str) if got.get(k) != want.get(k))
                what, a, b = f"rule {name}", got.get(name), want.get(name)
            raise RecordError(f"the deal's {what} {_clip(a)} differs from the header's {_clip(b)}", *hand.where(0))


def hand_from_record(record: Record, hand: int | None = None) -> Game:
    """The replayed Game of a hand record, or of hand ``hand`` (0-based) of a match record."""
    _full(record, "hand")
    if record.kind == "match":
        if hand is None:
            raise RecordError(
                f"a match record ({len(record.hands)} hands): load it with load_match, or name a hand",
                record.source,
                1,
            )
        if not 0 <= hand < len(record.hands):
            raise RecordError(f"no hand {hand}: the file holds hands 0..{len(record.hands) - 1}", record.source, 1)
        chosen = record.hands[hand]
        seed = chosen.header.get("seed")
    else:
        if hand not in (None, 0):
            raise RecordError(f"a hand record holds one hand (0), not hand {hand}", record.source, 1)
        chosen = record.hands[0]
        seed = record.header["seed"]
    _check_header_against_deal(chosen, record.rules, record.header["base"], seed)
    return replay_hand(chosen)


def hand_from_jsonl(text: str, source: str = "<string>", hand: int | None = None) -> Game:
    """Rebuild a hand from JSON Lines text (see :func:`load_hand`)."""
    return hand_from_record(parse_record(text, source), hand)


def load_hand(path: PathLike, hand: int | None = None) -> Game:
    """Load a full hand record, replayed and checked; ``hand=i`` takes hand i (0-based) of a match record.

    Raises :class:`RecordError` (file:line: what) for a malformed, truncated, tampered or one-seat record.
    """
    return hand_from_record(read_record(path), hand)


def match_from_record(record: Record) -> Match:
    """Rebuild a match: every hand dealt again from the match seed and the previous result (R2.5), replayed."""
    _full(record, "match")
    if record.kind != "match":
        raise RecordError("a hand record, not a match: load it with load_hand", record.source, 1)
    h = record.header
    match = Match(record.rules, hands=h["hands"], base=h["base"], seed=h["seed"])
    for i, hand in enumerate(record.hands):
        if match.games and not match.games[-1].is_over:
            raise RecordError(f"hand {i} starts but hand {i - 1} did not end", hand.source, hand.header_line)
        if hand.header.get("seed") != hand_seed(match.seed, i):
            raise RecordError(
                f"hand {i}'s seed {hand.header.get('seed')!r} is not the one the match seed gives "
                f"({hand_seed(match.seed, i)})",
                hand.source,
                hand.header_line,
            )
        game = match.next_game()
        if hand.header.get("dealer") != game.dealer:
            raise RecordError(
                f"hand {i}'s dealer {hand.header.get('dealer')!r} is not seat {game.dealer}, who deals by R2.5",
                hand.source,
                hand.header_line,
            )
        replay_hand(hand, game)
    return match


def match_from_jsonl(text: str, source: str = "<string>") -> Match:
    """Rebuild a match from JSON Lines text (see :func:`load_match`)."""
    return match_from_record(parse_record(text, source))


def load_match(path: PathLike) -> Match:
    """Load a full match record, every hand replayed and checked; errors are :class:`RecordError`."""
    return match_from_record(read_record(path))
