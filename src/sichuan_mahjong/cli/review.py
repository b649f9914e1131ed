"""``scmj review RECORD [--seat N] [--json] [--samples K] [--jobs J]``: 复盘, a seat's decisions against the master.

Reads a full hand or match record (docs/records.md), values each decision of the seat by play-outs from that
seat's view alone (``sichuan_mahjong.review``, docs/review.md) and prints one line per decision, the summary and
the three costliest decisions with the reason in words; ``--json`` prints the review as data instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from sichuan_mahjong.cli import UsageError
from sichuan_mahjong.record import read_record
from sichuan_mahjong.review import SAMPLES, Decision, Review, review_record

__all__ = ["add_parser", "run", "text_of"]


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "review",
        help="复盘: value every decision of a seat in a record against the master's",
        description="Review one seat's decisions in a full hand or match record (docs/review.md): for each, what "
        "the seat did, what the master would do, and the points each scored answer would bring from there, "
        "estimated by play-outs of hidden tiles sampled from that seat's view alone (never the real ones), with "
        "a standard error. A loss counts only where it clears twice its standard error.",
    )
    p.add_argument("record", metavar="RECORD", help="a full hand or match record (save_hand / save_match)")
    p.add_argument("--seat", type=int, default=0, metavar="N", help="the seat to review, 0-3 (default: 0)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument(
        "--samples",
        type=int,
        default=SAMPLES,
        metavar="K",
        help=f"play-outs per answer (default: {SAMPLES}); more is surer and slower",
    )
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="review hands in J processes (default: 1)")


class _Bar:
    """A progress bar on stderr, drawn only on a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        spent = time.perf_counter() - self.start
        left = spent / done * (total - done) if done else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} decisions  {left:,.0f}s left ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.seat < 4:
        raise UsageError(f"--seat must be 0..3, got {args.seat}")
    if args.samples < 2:
        raise UsageError(f"--samples must be at least 2 (a standard error needs two play-outs), got {args.samples}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    try:
        record = read_record(args.record)
    except OSError as exc:
        raise UsageError(f"cannot read {args.record}: {exc.strerror or exc}") from None
    bar = _Bar(sys.stderr) if sys.stderr.isatty() else None
    try:
        review = review_record(record, args.seat, samples=args.samples, jobs=args.jobs, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    print(review.to_json() if args.json else "\n".join(text_of(review)))
    return 0


def _line(d: Decision) -> str:
    mark = "=" if d.agreed else " "
    values = "  ".join(f"{o.action} {o.value:+.2f}" for o in d.options)
    loss = f"  loss {d.loss:.2f} ± {d.se:.2f}" if d.loss else ""
    master = "" if d.agreed else f"  (master: {d.master})"
    head = f"  {mark} step {d.step:3d} {d.phase:8s} {d.chosen!s:18s}{master}{loss}"
    return f"{head.rstrip()}\n        {values}"


def text_of(review: Review) -> list[str]:
    """The review as lines of text: per hand each decision, then the summary and the costliest decisions."""
    out = [f"Review of seat {review.seat}: {review.samples} play-outs per answer, points from each decision on"]
    for h in review.hands:
        out.append(f"Hand {h.hand + 1}")
        out += [_line(d) for d in h.decisions] or ["  (no decision with more than one answer)"]
    s = review.summary
    out.append(
        f"Summary: agreed with the master on {s.agreement:.0%} of {s.decisions} decisions; "
        f"{s.loss_per_hand:.2f} points lost per hand over {s.hands} hand{'s' if s.hands != 1 else ''}"
    )
    costly = review.costliest(3)
    if costly:
        out.append("Costliest decisions:")
        for i, d in enumerate(costly, 1):
            out.append(f"  {i}. hand {d.hand + 1}, step {d.step} ({d.phase}): {d.reason_en}")
    else:
        out.append("No decision lost points beyond the noise of the play-outs.")
    return out
