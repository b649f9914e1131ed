"""``scmj replay FILE``: a saved hand or match, move by move, with the tiles each seat holds after every move.

A full record is replayed and checked first (sichuan_mahjong.record), so what is printed is what the engine
did. The answers (``act`` events) stay with the move they answer; only a pass is printed (the rest echo the
event they cause). ``--seat K`` shows only what seat K could see (docs/rules.md R12): its own tiles and the public
table; a record saved for one seat can only be shown that way. A *move* is one player's act and what follows from it
before the next player acts: a discard and the next draw, a kong and its replacement, a win and its payments.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sichuan_mahjong.cli import UsageError
from sichuan_mahjong.describe import SeatNumbers, describe_event, payment_reason
from sichuan_mahjong.game.events import Event
from sichuan_mahjong.game.settlement import WinRecord
from sichuan_mahjong.game.state import Game
from sichuan_mahjong.game.view import filter_event
from sichuan_mahjong.record import Record, RecordError, hand_from_record, match_from_record, read_record, replay_steps
from sichuan_mahjong.scoring import PATTERNS
from sichuan_mahjong.seat_log import SeatLog
from sichuan_mahjong.tiles import SUITS, Tile, format_tiles

__all__ = ["add_parser", "render", "run"]

_MODE_ZH = {"standard": "标准打法", "standard_kong": "标准下雨", "bloody": "标准血战", "bloody_kong": "血战下雨"}
_REASON = {
    "en": {"win": "a win ends the hand", "one_left": "one player is left", "wall": "the wall is empty"},
    "zh": {"win": "胡牌结束", "one_left": "只剩一家", "wall": "牌墙摸完"},
}
#: Events that begin a new move; a win right after another win (一炮多响) or a robbed kong stays in its move.
_MOVE_STARTERS = frozenset(
    {"exchange", "voids", "ready", "discard", "pung", "kong", "concealed_kong", "added_kong", "win", "end"}
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "replay",
        help="print a saved hand or match move by move, with each seat's tiles",
        description="Print a hand or match saved as JSON Lines (docs/records.md) move by move: every event as "
        "one line, each seat's concealed tiles after every move, the settlement with each win's fan, and for a "
        "match the running totals. To step through a record on the replay screen instead (a one-seat record "
        "from that seat): scmj play --replay FILE.",
    )
    p.add_argument("file", metavar="FILE", help="a record written by save_hand / save_match")
    p.add_argument("--hand", type=int, metavar="N", help="only hand N of a match (1 = the first)")
    p.add_argument(
        "--seat",
        type=int,
        choices=range(4),
        metavar="K",
        help="show only what seat K (0-3) could see; a one-seat record is always shown this way",
    )
    p.add_argument("--lang", choices=("zh", "en"), default="en", help="language of the lines (default: en)")
    p.add_argument("--json", action="store_true", help="print JSON: every hand's moves, tiles and settlement")


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    report = render(record, seat=args.seat, hand=args.hand, lang=args.lang)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print("\n".join(text_of(report, args.lang)))
    return 0


# ------------------------------------------------------------------------------------ one seat's tiles


def _seat_tiles(log: SeatLog) -> dict[str, Any]:
    """A seat's concealed tiles and melds as its own log shows them (``sichuan_mahjong.seat_log``)."""
    view, seat = log.view(), log.seat
    return {
        "seat": seat,
        "hand": format_tiles(view.hand),
        "drawn": str(view.drawn) if view.drawn is not None else None,
        "melds": [str(m) for m in view.melds[seat]],
        "won": any(w.seat == seat for w in view.wins),
    }


def _tiles(text: str) -> list[int]:
    """Tiles in notation one by one, in order (events write ``"1m1m5p"`` ungrouped)."""
    out: list[int] = []
    pending: list[int] = []
    for ch in text:
        if ch.isdigit():
            pending.append(int(ch))
        else:
            out.extend(SUITS.index(ch) * 9 + r - 1 for r in pending)
            pending.clear()
    return out


# ----------------------------------------------------------------------------------------- the report


def render(record: Record, *, seat: int | None = None, hand: int | None = None, lang: str = "en") -> dict[str, Any]:
    """The report of a record as JSON-native data: per hand its moves (lines, events, tiles) and settlement.

    ``hand`` is 1-based (as printed); ``seat`` restricts everything to what that seat could see.
    """
    if record.seat is not None:
        if seat is not None and seat != record.seat:
            raise UsageError(f"the record holds seat {record.seat}'s view only; it cannot show seat {seat}")
        seat = record.seat
    count = len(record.hands)
    if hand is not None and not 1 <= hand <= count:
        raise UsageError(f"--hand {hand}: the file holds {'hand 1' if count == 1 else f'hands 1..{count}'}")
    games: list[Game | None] = [None] * count
    if record.seat is None:
        games = list(match_from_record(record).games) if record.kind == "match" else [hand_from_record(record)]
    totals = [0, 0, 0, 0]
    hands_out = []
    for i, hand_record in enumerate(record.hands):
        out = _render_hand(hand_record.events, games[i], seat, lang, hand_record.lines, record.source)
        out["hand"] = i + 1
        deltas = out["settlement"]["deltas"] if out["settlement"] else [0, 0, 0, 0]
        totals = [a + b for a, b in zip(totals, deltas, strict=True)]
        if record.kind == "match":
            out["totals"] = totals
        if hand is None or hand == i + 1:
            hands_out.append(out)
    return {
        "kind": record.kind,
        "hands_planned": record.header.get("hands", 1),
        "mode": record.rules.mode,
        "base": record.header["base"],
        "seat": seat,
        "hands": hands_out,
    }


def _render_hand(
    events: Sequence[Event],
    game: Game | None,
    seat: int | None,
    lang: str,
    lines: Sequence[int] | None,
    source: str | None,
) -> dict[str, Any]:
    options: dict[int, list[str]] = {}  # event index of a full record's answer -> what that seat could do
    if game is not None:
        for step in replay_steps(events):
            for k, s in enumerate(sorted(step.asked)):
                options[step.at + k] = [str(a) for a in step.asked[s]]
    # a seat's view shows what its own log holds, the win event's pattern ids and total fan, so that a full record
    # shown with --seat and that seat's own one-seat record (which cannot be replayed for Scores) print the same
    wins: list[WinRecord] = list(game.result.wins) if game is not None and game.is_over and seat is None else []
    shown = list(range(4)) if seat is None else [seat]
    trackers = {s: SeatLog(s) for s in shown}
    deal = events[0].data
    moves: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    win_count = 0
    previous = ""
    settlement: dict[str, Any] | None = None
    payments: list[dict[str, Any]] = []
    win_list: list[dict[str, Any]] = []
    for i, raw in enumerate(events):
        # what this display may show: the event as `seat` receives it (a one-seat record already is)
        e = raw if seat is None or game is None else filter_event(raw, seat)
        if e is None:
            continue
        for s, tracker in trackers.items():
            seen = e if game is None else filter_event(raw, s)
            if seen is not None:
                try:
                    tracker.apply(seen)
                except (ValueError, KeyError, TypeError, IndexError) as exc:
                    line = lines[i] if lines else i + 1
                    raise RecordError(f"the tiles do not add up: {exc}", source, line) from None
        # 查叫 / 花猪 / refunds at the wall's end follow a discard or a draw: they open the closing move
        wall_end = (
            e.type == "payment"
            and previous in ("discard", "draw", "act")
            and not (current is not None and current.get("wall_end"))
        )
        starts = (e.type in _MOVE_STARTERS and not (e.type == "win" and previous in ("win", "robbed"))) or wall_end
        if current is not None and e.type == "end" and current.get("wall_end"):
            starts = False
        if current is None or starts or e.type == "deal":
            current = {"events": [], "lines": []}
            moves.append(current)
            if wall_end:
                current["wall_end"] = True
                current["lines"].append("牌墙摸完：" if lang == "zh" else "the wall is empty:")
        current["events"].append(e.to_dict())
        score_text = None
        if e.type == "win":
            if win_count < len(wins):
                score_text = wins[win_count].score.describe(lang)
            win_count += 1
            win_list.append({**e.data, "seat": e.seat, "breakdown": score_text})
        elif e.type == "payment":
            payments.append(dict(e.data))
        elif e.type == "end":
            settlement = {
                "reason": e.data["reason"],
                "deltas": list(e.data["deltas"]),
                "next_dealer": e.data["next_dealer"],
                "ready": list(e.data.get("ready") or []),
            }
        text = _line(e, lang, options.get(i), score_text)
        if text is not None:
            current["lines"].extend(text.split("\n"))
        current["tiles"] = [_seat_tiles(t) for t in trackers.values()]
        if e.type != "payment":
            previous = e.type
    if settlement is not None:
        settlement["payments"] = payments
        settlement["wins"] = win_list
    return {
        "dealer": deal["dealer"],
        "dice": deal.get("dice"),
        "seed": deal.get("seed"),
        "moves": moves,
        "settlement": settlement,
    }


# ---------------------------------------------------------------------------------------------- lines


def _who(s: int, lang: str) -> str:
    return SeatNumbers(lang).subject(s)


def _tile(text: str | None, lang: str) -> str:
    if text is None:
        return ""
    return "".join(Tile(t).zh for t in _tiles(text)) if lang == "zh" else text


def _hand_text(tiles: Iterable[int] | str, lang: str) -> str:
    items = _tiles(tiles) if isinstance(tiles, str) else list(tiles)
    if not items:
        return "-"
    return format_tiles(items, style="zh" if lang == "zh" else "compact")


def _patterns_text(data: Mapping[str, Any], lang: str) -> str:
    names = [getattr(PATTERNS[p], lang) if p in PATTERNS else p for p in data.get("patterns", [])]
    total = f"{data['fan']}番" if lang == "zh" else f"{data['fan']} fan"
    return f"{' + '.join(names)} = {total} ×{1 << int(data['fan'])}"


def _line(e: Event, lang: str, options: list[str] | None, score_text: str | None) -> str | None:
    """One readable line for an event, or None for an event that says nothing new (an answer it echoes).

    The deal, the answers and the end are the record's own (dice, what a pass declined, the next dealer); every
    other event is said as the table says it (sichuan_mahjong.describe), with each seat by its number.
    """
    d = e.data
    zh = lang == "zh"
    who = _who(e.seat, lang)
    kind = e.type
    if kind == "deal":
        wall = d["wall_count"] if "wall_count" in d else len(_tiles(d["wall"]))
        dice = d.get("dice") or [0, 0]
        rolls = d.get("dealer_rolls")
        text = (
            f"发牌：庄家 {_who(d['dealer'], lang)}，骰子 {dice[0]}+{dice[1]}，牌墙 {wall} 张"
            if zh
            else f"deal: dealer {_who(d['dealer'], lang)}, dice {dice[0]}+{dice[1]}, {wall} tiles in the wall"
        )
        if rolls:
            shown = "; ".join(" ".join(str(x) for x in r) for r in rolls)
            text += f"（掷骰定庄：{shown}）" if zh else f" (dealer by dice, R2.2: {shown})"
        return text
    if kind == "act":
        if str(d.get("action")) != "pass":
            return None
        could = [o for o in options or [] if o != "pass"]
        if could == ["declare_ready"]:
            return f"{who} 不报叫" if zh else f"{who} does not declare ready"
        if zh:
            return f"{who} 过" + (f"（可{'、'.join(could)}）" if could else "")
        return f"{who} passes" + (f" (could: {', '.join(could)})" if could else "")
    if kind == "end":
        reason = _REASON[lang].get(d["reason"], d["reason"])
        nxt = _who(d["next_dealer"], lang)
        return f"结束：{reason}；下一局庄家 {nxt}" if zh else f"end: {reason}; next dealer {nxt}"
    score = (score_text or _patterns_text(d, lang)) if kind == "win" else None
    style = "zh" if zh else "compact"
    said = describe_event(e, lang, SeatNumbers(lang), style=style, terms=True, score=score)
    if said is None:
        return f"{who} {kind} {_dumps(d)}"
    return f"  {said}" if kind == "payment" else said


def _dumps(d: Mapping[str, Any]) -> str:
    return json.dumps(dict(d), ensure_ascii=False)


_MELD_ZH = {"pung": "碰", "kong": "直杠", "added_kong": "补杠", "concealed_kong": "暗杠"}


def _meld_text(meld: str, lang: str) -> str:
    if lang != "zh":
        return meld
    kind, tile = meld.split()
    return f"{_MELD_ZH.get(kind, kind)}{_tile(tile, lang)}"


def _signed(values: Sequence[int], lang: str) -> str:
    return ", ".join(f"{_who(s, lang)} {v:+d}" for s, v in enumerate(values))


def text_of(report: Mapping[str, Any], lang: str) -> list[str]:
    """The printed form of :func:`render`'s report."""
    zh = lang == "zh"
    out: list[str] = []
    planned = report["hands_planned"]
    mode = _MODE_ZH.get(report["mode"], report["mode"]) if zh else report["mode"]
    for h in report["hands"]:
        if out:
            out.append("")
        of = f"/{planned}" if report["kind"] == "match" else ""
        view = ""
        if report["seat"] is not None:
            view = f" · {_who(report['seat'], lang)}视角" if zh else f" · {_who(report['seat'], lang)}'s view"
        if zh:
            out.append(f"第{h['hand']}{of}局 · {mode} · 底金 {report['base']} · 庄家 {_who(h['dealer'], lang)}{view}")
        else:
            out.append(
                f"Hand {h['hand']}{of} · {mode} · base {report['base']} · dealer {_who(h['dealer'], lang)}{view}"
            )
        last_tiles: object = None
        for n, move in enumerate(h["moves"]):
            texts = move["lines"] or [""]
            out.append(f"{n:4d}. {texts[0]}".rstrip())
            out.extend(f"      {t}" for t in texts[1:])
            if move["tiles"] == last_tiles:
                continue  # nothing in anyone's hand changed (voids, a pass, the end): no repeat
            last_tiles = move["tiles"]
            for t in move["tiles"]:
                hand = _hand_text(t["hand"], lang)
                drawn = f" +{_tile(t['drawn'], lang)}" if t["drawn"] else ""
                melds = f"  [{', '.join(_meld_text(m, lang) for m in t['melds'])}]" if t["melds"] else ""
                won = ("  已胡" if zh else "  (won)") if t["won"] else ""
                out.append(f"          {_who(t['seat'], lang)}: {hand}{drawn}{melds}{won}")
        s = h["settlement"]
        if s is None:
            out.append("记录在本局结束前中止" if zh else "The record ends before the hand is over.")
        else:
            reason = _REASON[lang].get(s["reason"], s["reason"])
            out.append(f"结算（{reason}）" if zh else f"Settlement ({reason}):")
            if not s["wins"]:
                out.append("  无人胡牌" if zh else "  no wins")
            for w in s["wins"]:
                src = w.get("from_seat")
                tile = _tile(w["tile"], lang)
                if src is None:
                    how = "自摸" if zh else "self-draw"
                elif w.get("robbed_kong"):
                    how = f"抢{_who(src, lang)}的杠" if zh else f"robbing {_who(src, lang)}'s kong"
                else:
                    how = f"{_who(src, lang)}点炮" if zh else f"from {_who(src, lang)}"
                body = w["breakdown"] or _patterns_text(w, lang)
                out.append(
                    f"  {_who(w['seat'], lang)} 胡 {tile}（{how}）：{body}"
                    if zh
                    else f"  {_who(w['seat'], lang)} wins on {tile} ({how}): {body}"
                )
            for p in s["payments"]:
                why = payment_reason(p["reason"], lang, term=True)
                out.append(
                    f"  {_who(p['payer'], lang)} → {_who(p['payee'], lang)} {p['amount']}（{why}）"
                    if zh
                    else f"  {_who(p['payer'], lang)} -> {_who(p['payee'], lang)} {p['amount']} ({why})"
                )
            out.append(("  输赢：" if zh else "  deltas: ") + _signed(s["deltas"], lang))
            out.append(("  下一局庄家：" if zh else "  next dealer: ") + _who(s["next_dealer"], lang))
        if "totals" in h:
            label = f"第{h['hand']}局后累计：" if zh else f"Totals after hand {h['hand']}: "
            out.append(label + _signed(h["totals"], lang))
    return out
