"""The table's state from hand to hand and each hand's score (docs/rules/zhuji.md §2, §5); a
``Fraction`` appears only for a half point."""

from dataclasses import dataclass
from fractions import Fraction

from scoring.engine.payment import BasePayment, BaseResult
from scoring.engine.points import norm
from scoring.engine.state import PlainState

from .explain import explain, formula
from .hands import HandEntry
from .rules import Rules
from .validity import validate_win


class Payment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


@dataclass(slots=True)
class HandResult(BaseResult):
    PAID_ON = "tai"  # paid on the 台

    tai: int  # the 台 paid on, after the cap; 0 for a draw


class TableState(PlainState):
    """§2: the deal, the 连庄 and the totals; nothing else carries over."""

    __slots__ = ()


def score_hand(rules: Rules, state: TableState, hand: HandEntry) -> HandResult:
    dealer = state.dealer
    if hand.outcome != "win":
        return HandResult(dealer, state.streak, 0, net=[0, 0, 0, 0], payments=[])
    raw = validate_win(hand, dealer)
    cap = rules.tai_cap
    t = raw if cap is None or raw <= cap else cap
    winner, discarder, base = hand.winner, hand.discarder, rules.base
    full = base << t
    net = [0, 0, 0, 0]
    payments = []
    if discarder is None:  # §5 自摸: each of the other three pays base·2^T
        why = ("zimo", t, raw, base, hand.tai, winner, dealer)
        for q in range(4):
            if q != winner:
                payments.append(Payment(q, winner, full, why))
                net[q] = -full
        net[winner] = 3 * full
    else:  # §5 放冲: the discarder pays base·2^T, the other two base·2^(T−1)
        half = full >> 1 if not full & 1 else Fraction(full, 2)
        for q in range(4):
            if q == winner:
                continue
            if q == discarder:
                payments.append(Payment(q, winner, full, ("discarder", t, raw, base, hand.tai, winner, dealer)))
                net[q] = -full
            else:
                payments.append(Payment(q, winner, half, ("half", t, raw, base, hand.tai, winner, dealer)))
                net[q] = -half
        net[winner] = norm(full + 2 * half)
    return HandResult(dealer, state.streak, t, net=net, payments=payments)


def advance(rules: Rules, state: TableState, hand: HandEntry, result: HandResult) -> None:
    """§2: the totals and the deal of the next hand."""
    totals, net = state.totals, result.net
    for seat in range(4):
        a, b = totals[seat], net[seat]
        if type(a) is int and type(b) is int:
            totals[seat] = a + b
        else:  # counted in halves: Fraction arithmetic is slow, and every Fraction here is x/2
            h = (a.numerator if type(a) is Fraction else 2 * a) + (b.numerator if type(b) is Fraction else 2 * b)
            totals[seat] = h >> 1 if not h & 1 else Fraction(h, 2)
    if hand.outcome == "win":
        if hand.winner == state.dealer:
            state.streak += 1
        else:
            state.dealer = (state.dealer + 1) % 4
            state.streak = 0
    elif rules.draw_passes_deal:
        state.dealer = (state.dealer + 1) % 4
        state.streak = 0
