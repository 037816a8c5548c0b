"""Score one toy hand and move the table on (rules.md §1, §2)."""

from dataclasses import dataclass

from scoring.engine.errors import ScoringError
from scoring.engine.payment import BasePayment, BaseResult
from scoring.engine.state import PlainState

from .explain import explain, formula
from .hands import HandEntry
from .rules import Rules

SELF_DRAWN, DISCARD = 2, 3  # §2: the shares each payment is made of


class Payment(BasePayment, explain=explain, formula=formula):
    __slots__ = ()


@dataclass(slots=True)
class HandResult(BaseResult):
    PAID_ON = "shares"

    shares: int  # 2 (自摸), 3 (discard) or 0 (draw)


@dataclass(slots=True)
class TableState(PlainState):
    """The deal, the 连庄 and four totals: PlainState as it is."""


def score_hand(rules: Rules, state: TableState, hand: HandEntry) -> HandResult:
    if hand.outcome != "win":
        return HandResult(state.dealer, state.streak, 0, net=[0, 0, 0, 0], payments=[])
    winner, discarder = hand.winner, hand.discarder
    if discarder == winner:
        raise ScoringError("§2 放冲的人不能是胡牌者自己", "§2 The discarder cannot be the winner", "discarder")
    shares = SELF_DRAWN if discarder is None else DISCARD
    amount = rules.base * shares
    payers = [s for s in range(4) if s != winner] if discarder is None else [discarder]
    net = [0, 0, 0, 0]
    for payer in payers:
        net[payer] -= amount
    net[winner] = amount * len(payers)
    why = ("zimo" if discarder is None else "discard", rules.base, shares)
    payments = [Payment(payer, winner, amount, why) for payer in payers]
    return HandResult(state.dealer, state.streak, shares, net=net, payments=payments)


def advance(rules: Rules, state: TableState, hand: HandEntry, result: HandResult) -> None:
    """§1: the dealer stays on a win of their own (连庄 + 1); otherwise the next seat deals."""
    state.totals[:] = [t + n for t, n in zip(state.totals, result.net, strict=True)]
    if hand.outcome == "win" and hand.winner == state.dealer:
        state.streak += 1
    else:
        state.dealer = (state.dealer + 1) % 4
        state.streak = 0
