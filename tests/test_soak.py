"""scripts/soak.py: each kind of fault it exists to catch is caught and reported with the hand's number, so a
green soak means something. (`make test` runs a 30-second slice of the soak itself, after pytest.)"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import sichuan_mahjong as sm
from sichuan_mahjong.game import state
from sichuan_mahjong.game.settlement import Ledger, Payment

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "soak.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module
    spec.loader.exec_module(module)
    return module


soak = _load()


def test_random_rules_draw_every_option() -> None:
    import random

    rng = random.Random(0)
    seen: dict[str, set[str]] = {}
    for _ in range(200):
        for key, value in soak.random_rules(rng).to_dict().items():
            seen.setdefault(key, set()).add(repr(value))
    assert set(seen) == set(sm.Rules().to_dict())
    assert all(len(values) > 1 for values in seen.values()), seen  # every option varies


def _first_failure(specs: int = 12, full: bool = True) -> str:
    for i in range(specs):
        spec = soak.spec_for(0, i, 1 if full else 0)
        try:
            soak.play_hand(spec, None)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
    return "no failure"


def _leaky_view(original: Callable[..., sm.Observation]) -> Callable[..., sm.Observation]:
    def view(self: sm.Game, seat: int) -> sm.Observation:
        v = original(self, seat)
        return v._replace(melds=tuple(tuple(m) for m in self._melds), hidden_kongs=(0, 0, 0, 0))

    return view


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("ledger", "does not sum to zero"),
        ("view_leak", "melds of"),
        ("hand_leak", "own tiles"),
        ("record", "RecordError"),
        ("wall", "draws"),
    ],
)
def test_each_fault_is_caught(monkeypatch: pytest.MonkeyPatch, fault: str, message: str) -> None:
    if fault == "ledger":  # the payee is never credited: money vanishes

        def pay(self: Ledger, payer: int, payee: int, amount: int, reason: str) -> Payment | None:
            if amount <= 0 or payer == payee:
                return None
            payment = Payment(payer, payee, amount, reason)
            self.payments.append(payment)
            self.deltas[payer] -= amount
            return payment

        monkeypatch.setattr(Ledger, "pay", pay)
    elif fault == "view_leak":  # every seat's concealed kongs shown to everyone (R12)
        monkeypatch.setattr(state.Game, "view", _leaky_view(state.Game.view))
    elif fault == "hand_leak":  # a seat's view holds one tile it does not have
        original = state.Game.view

        def view(self: sm.Game, seat: int) -> sm.Observation:
            v = original(self, seat)
            return v._replace(hand=(*v.hand, sm.Tile(0)))

        monkeypatch.setattr(state.Game, "view", view)
    elif fault == "record":  # the writer drops the last event
        from sichuan_mahjong import record

        writer = record.hand_to_jsonl

        def short(game: sm.Game, seat: int | None = None) -> str:
            lines = writer(game, seat).splitlines(keepends=True)
            return "".join(lines[:-1])

        monkeypatch.setattr(soak, "hand_to_jsonl", short)
    elif fault == "wall":  # the deal event lies about the wall's order
        original_init = state.Game.__init__

        def init(self: sm.Game, *args: Any, **kwargs: Any) -> None:
            original_init(self, *args, **kwargs)
            deal = self.events[0]  # (patched here, not in _emit: a compiled engine calls its own _emit)
            wall = deal.data["wall"]
            self.events[0] = sm.Event(deal.type, deal.seat, {**deal.data, "wall": wall[2:] + wall[:2]})

        monkeypatch.setattr(state.Game, "__init__", init)
    assert message in _first_failure()


def test_a_failure_is_printed_with_the_hand_that_reproduces_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(state.Game, "deltas", property(lambda self: (1, 0, 0, 0)))  # money from nowhere
    assert soak.main(["--hands", "2", "--jobs", "1", "--seed", "4", "--progress", "1000"]) == 1
    out = capsys.readouterr().out
    assert "FAIL hand 0 (--seed 4 --hand 0): rules " in out and "SoakError: the ledger does not sum" in out
    assert out.strip().splitlines()[-1].endswith("2 failures")
