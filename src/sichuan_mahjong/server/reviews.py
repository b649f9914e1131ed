"""复盘 for the page: the review of one seat in one finished hand (:mod:`sichuan_mahjong.review`), run in one
worker process so the tables never wait for it, one review at a time with a short queue, each cached on disk
beside its record (``<record>.review-seatS-kK.json``) so it is computed once per hand, seat and samples."""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sichuan_mahjong.record import read_record
from sichuan_mahjong.review import review_record
from sichuan_mahjong.server.lobby import RequestError

__all__ = ["COSTLY", "Reviews", "cache_path", "mark", "summary_line"]


def cache_path(record: Path, seat: int, samples: int) -> Path:
    return record.with_name(f"{record.stem}.review-seat{seat}-k{samples}.json")


#: A decision losing at least this many points (counted loss, past its noise) is marked costly, any less small.
COSTLY = 1.0


def mark(decision: dict[str, Any]) -> str:
    """The page's mark of a decision (``to_dict(details=True)``): ``small`` or ``costly`` where its loss clears its
    noise, else ``agreed`` where the seat answered as the master did, else ``unclear`` (无明显损失, no clear loss:
    another answer than the master's, but the play-outs cannot tell it worse)."""
    loss = float(decision["loss"])
    if loss > 0:
        return "small" if loss < COSTLY else "costly"
    return "agreed" if decision["chosen"] == decision["master"] else "unclear"


def summary_line(summary: dict[str, Any]) -> dict[str, str]:
    """The hand's line in both languages: 与大师一致 82%，每局损失 0.6 分."""
    share = round(100 * float(summary["agreement"]))
    loss = float(summary["loss_per_hand"])
    return {
        "zh": f"与大师一致 {share}%，每局损失 {loss:.1f} 分",
        "en": f"Agreed with the master {share}%, {loss:.1f} points lost per hand",
    }


def _review(record: str, seat: int, samples: int) -> None:
    """In the worker: review the seat over the hand and write the cache file (atomically)."""
    path = Path(record)
    review = review_record(read_record(path), seat, samples=samples).to_dict(details=True)
    for d in review["decisions"]:
        d["mark"] = mark(d)
    review["line"] = summary_line(review["summary"])
    out = cache_path(path, seat, samples)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(review, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, out)


class Reviews:
    """The server's review queue: ``ask`` answers ``done`` with the review, or ``queued``/``running``. ``queue``:
    reviews waiting or running at once in the whole server (``ServerOptions.review_queue``, ``scmj serve
    --review-queue``); one more is refused with 503 (ask again later)."""

    def __init__(self, samples: int, queue: int) -> None:
        if queue < 1:
            raise ValueError(f"the review queue must hold at least 1, got {queue}")
        self.samples = samples
        self.queue = queue
        self.pool: ProcessPoolExecutor | None = None
        self.pending: dict[Path, Future[None]] = {}
        self.failed: dict[Path, str] = {}

    def ask(self, record: Path, seat: int) -> dict[str, Any]:
        out = cache_path(record, seat, self.samples)
        if out.is_file():
            return {"status": "done", "samples": self.samples, "review": json.loads(out.read_text(encoding="utf-8"))}
        if out in self.failed:
            raise RequestError(f"the review of this hand failed: {self.failed[out]}", 500)
        future = self.pending.get(out)
        if future is None:
            if len(self.pending) >= self.queue:
                waiting = f"{self.queue} reviews are" if self.queue > 1 else "1 review is"
                raise RequestError(f"{waiting} waiting already; ask again in a minute", 503)
            if self.pool is None:
                self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            future = self.pool.submit(_review, str(record), seat, self.samples)
            self.pending[out] = future
            future.add_done_callback(lambda f: self._done(out, f))
        ahead = sum(1 for f in self.pending.values() if not f.running() and not f.done())
        return {"status": "running" if future.running() else "queued", "ahead": ahead, "samples": self.samples}

    def _done(self, out: Path, future: Future[None]) -> None:
        self.pending.pop(out, None)
        exc = future.exception()
        if exc is not None:
            self.failed[out] = f"{type(exc).__name__}: {exc}"

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
