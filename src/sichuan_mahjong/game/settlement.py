"""Money of one hand: kong payments (R6), who pays a win (R8), 查叫 / 花猪 / kong refunds at the wall's end.

Every transfer is a :class:`Payment` naming the rule it comes from, kept in a :class:`Ledger` whose deltas
always sum to zero. The engine (state.py) decides *when* money moves; the amounts are computed here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sichuan_mahjong.hand.melds import Meld, MeldKind
from sichuan_mahjong.rules import Rules
from sichuan_mahjong.scoring import Score

__all__ = ["KongRecord", "Ledger", "Payment", "Settlement", "WinRecord", "end_of_wall_payments"]


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` gives ``payee`` ``amount`` (already multiplied by the base) because of ``reason``."""

    payer: int
    payee: int
    amount: int
    reason: str  # names the rule, e.g. "R6.1 exposed kong", "R9.5 查叫"

    def to_dict(self) -> dict[str, object]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win: ``from_seat`` is None for a self-draw; ``group`` numbers the discard (or kong) it came from."""

    seat: int
    tile: int
    from_seat: int | None
    robbed_kong: bool
    score: Score
    group: int


@dataclass(slots=True)
class KongRecord:
    """A kong and the money it brought in, kept for 呼叫转移 (R10) and the refund of R6.5."""

    seat: int
    kind: MeldKind
    tile: int
    feeder: int | None  # the discarder of an exposed kong
    income: list[Payment] = field(default_factory=list)
    transferred: bool = False


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of a hand. ``deltas`` sum to zero; ``scores`` holds each winner's Score."""

    deltas: tuple[int, ...]
    payments: tuple[Payment, ...]
    scores: dict[int, Score]
    wins: tuple[WinRecord, ...]
    next_dealer: int
    reason: str  # "win" (standard modes), "one_left" (bloody), "wall" (the wall ran out)
    ready: tuple[bool, ...]  # at the wall's end: who was ready (查叫); all False otherwise

    def to_dict(self) -> dict[str, object]:
        return {
            "deltas": list(self.deltas),
            "payments": [p.to_dict() for p in self.payments],
            "scores": {str(s): sc.to_dict() for s, sc in self.scores.items()},
            "next_dealer": self.next_dealer,
            "reason": self.reason,
        }


class Ledger:
    """Payments in order and the running deltas; a payment of zero is never written."""

    __slots__ = ("deltas", "payments")

    def __init__(self) -> None:
        self.deltas = [0, 0, 0, 0]
        self.payments: list[Payment] = []

    def pay(self, payer: int, payee: int, amount: int, reason: str) -> Payment | None:
        if amount <= 0 or payer == payee:
            return None
        payment = Payment(payer, payee, amount, reason)
        self.payments.append(payment)
        self.deltas[payer] -= amount
        self.deltas[payee] += amount
        return payment


def split(amount: int, n: int) -> list[int]:
    """Share ``amount`` among ``n`` as evenly as integers allow, the remainder to the first."""
    each, rest = divmod(amount, n)
    return [each + (rest if i == 0 else 0) for i in range(n)]


def end_of_wall_payments(
    rules: Rules,
    base: int,
    still_in: Sequence[int],
    ready_score: Callable[[int], Score | None],
    is_pig: Callable[[int], bool],
    kongs: Sequence[KongRecord],
    ledger: Ledger,
) -> list[bool]:
    """查叫 (R9.5), 查花猪 (R10) and kong refunds (R6.5) when the wall ran out; returns who was ready.

    A 花猪 pays every other player still in who is not a pig the cap (2^max_fan, or 2^flower_pig_fan) and
    pays no 查叫 on top. A player who is not ready, pigs included, gives back each kong's income to the
    players who paid it (the kong is cancelled, so a payer who has since won gets it back too); income
    already passed on by 呼叫转移 is not refunded.
    """
    pigs = [s for s in still_in if rules.flower_pig and is_pig(s)]
    scores = {s: (None if s in pigs else ready_score(s)) for s in still_in}
    ready = [False] * 4
    for s, sc in scores.items():
        ready[s] = sc is not None
    for payer in still_in:
        if ready[payer] or payer in pigs:
            continue
        for payee in still_in:
            sc = scores[payee]
            if sc is not None:
                ledger.pay(payer, payee, base * sc.multiplier, "R9.5 查叫")
    pig_fan = rules.max_fan if rules.max_fan is not None else rules.flower_pig_fan
    for pig in pigs:
        for other in still_in:
            if other not in pigs:
                ledger.pay(pig, other, base * (1 << pig_fan), "R10 flower_pig 查花猪")
    for kong in kongs:
        if kong.seat in still_in and not ready[kong.seat] and not kong.transferred:
            for p in kong.income:
                ledger.pay(kong.seat, p.payer, p.amount, "R6.5 kong refund 下雨取消")
    return ready


def melds_suits(melds: Sequence[Meld]) -> int:
    """Bitmask of the suits among melds (1 << suit)."""
    mask = 0
    for m in melds:
        mask |= 1 << (m.tile_index // 9)
    return mask
